// Trajectory rows as CSV: a header of column names, then one row per sample, each value
// printed so that it reads back to the same double.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace nh {

class CsvWriter {
 public:
  // path "-" writes to stdout. Throws Error if the file cannot be opened.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void write(const std::vector<double>& row);
  void flush();
  void close();  // throws Error if the data could not be written completely

 private:
  std::FILE* file_ = nullptr;
  bool ownsFile_ = false;
  std::string path_;
};

}  // namespace nh
