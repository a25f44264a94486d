// Trajectory rows as CSV: optional "#" lines, a header of column names, then one row per sample,
// each value printed so that it reads back to the same double.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace nh {

class AtomicOutput;

class CsvWriter {
 public:
  // path "-" writes to stdout; a regular file is written to a hidden temporary that close()
  // renames over it (AtomicOutput, core/io/atomic_output.h): until then the file is absent
  // or its old contents; devices and FIFOs are written in place. Throws Error if the file
  // cannot be opened. Destroyed without close(), nothing replaces the target.
  // `comments` come first, each a "# TEXT" line before the header.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns,
            const std::vector<std::string>& comments = {});
  // The same on an output opened earlier (a command that checks its output before its work
  // opens it first: a missing folder or a FIFO without a reader is refused at once).
  CsvWriter(std::unique_ptr<AtomicOutput> opened, const std::vector<std::string>& columns,
            const std::vector<std::string>& comments = {});
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void write(const std::vector<double>& row);
  // A line "# TEXT" (one line: control characters in TEXT escaped), e.g. the "# partial: …"
  // that ends the rows of an interrupted run.
  void writeComment(const std::string& text);
  void flush();
  void close();  // commits; throws Error if the data could not be written completely

 private:
  std::unique_ptr<AtomicOutput> out_;
  std::FILE* file_ = nullptr;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
