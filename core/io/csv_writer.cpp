#include "core/io/csv_writer.h"

#include <cerrno>
#include <cstring>

#include "core/nh/errors.h"
#include "core/nh/scenario.h"

namespace nh {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : path_(path) {
  if (path == "-") {
    file_ = stdout;
  } else {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw Error("cannot write '" + path + "': " + std::strerror(errno));
    ownsFile_ = true;
  }
  for (size_t i = 0; i < columns.size(); ++i)
    std::fprintf(file_, "%s%s", i ? "," : "", columns[i].c_str());
  std::fputc('\n', file_);
}

CsvWriter::~CsvWriter() {
  if (ownsFile_ && file_) std::fclose(file_);
}

void CsvWriter::write(const std::vector<double>& row) {
  for (size_t i = 0; i < row.size(); ++i) {
    if (i) std::fputc(',', file_);
    std::fputs(formatValue(row[i]).c_str(), file_);
  }
  std::fputc('\n', file_);
}

void CsvWriter::flush() { std::fflush(file_); }

void CsvWriter::close() {
  if (!file_) return;
  const bool bad = std::ferror(file_) != 0;
  const int rc = ownsFile_ ? std::fclose(file_) : std::fflush(file_);
  file_ = nullptr;
  if (bad || rc != 0) throw Error("writing '" + path_ + "' failed: " + std::strerror(errno));
}

}  // namespace nh
