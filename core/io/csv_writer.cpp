// CsvWriter (csv_writer.h): comment lines, the header and a row per sample written through
// AtomicOutput, each value in shortest round-trip form; close() commits the file.
#include "core/io/csv_writer.h"

#include <cerrno>
#include <cstring>

#include "core/io/atomic_output.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/scenario.h"

namespace nh {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns,
                     const std::vector<std::string>& comments)
    : CsvWriter(std::make_unique<AtomicOutput>(path), columns, comments) {}

CsvWriter::CsvWriter(std::unique_ptr<AtomicOutput> opened, const std::vector<std::string>& columns,
                     const std::vector<std::string>& comments)
    : out_(std::move(opened)), file_(out_->file()) {
  for (const std::string& c : comments) writeComment(c);
  for (size_t i = 0; i < columns.size(); ++i)
    std::fprintf(file_, "%s%s", i ? "," : "", columns[i].c_str());
  std::fputc('\n', file_);
}

CsvWriter::~CsvWriter() = default;  // AtomicOutput's destructor removes an uncommitted temporary

void CsvWriter::write(const std::vector<double>& row) {
  for (size_t i = 0; i < row.size(); ++i) {
    if (i) std::fputc(',', file_);
    std::fputs(formatValue(row[i]).c_str(), file_);
  }
  std::fputc('\n', file_);
}

void CsvWriter::writeComment(const std::string& text) {
  if (!file_) return;
  std::fputs(("# " + escapeControl(text) + "\n").c_str(), file_);
}

void CsvWriter::flush() {
  if (file_) std::fflush(file_);
}

void CsvWriter::close() {
  if (!file_) return;
  file_ = nullptr;
  out_->commit();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
