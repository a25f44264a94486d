// The outputs of `nhsim sweep` (sweep_output.h): the CSV writer through AtomicOutput, and the
// choice of CSV or HDF5 from --format or the file's extension.
#include "app/nhsim/sweep_output.h"

#include "app/nhsim/cli_support.h"
#include "core/io/atomic_output.h"

namespace nh::cli {

namespace {

bool endsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

class CsvOutput final : public SweepOutput {
 public:
  CsvOutput(const std::string& path, const study::Study& study, const std::string& command)
      : study_(study) {
    try {
      out_.open(path);
    } catch (const Error& e) {  // bad input, before anything is written: exit 2
      throw InputError(e.what());
    }
    out_.write(study.headerText(command));
  }
  void add(const study::RunResult& result) override { out_.write(study_.rowText(result)); }
  void commit(long written) override {
    if (written < study_.runCount())
      out_.write(study::Study::partialText(written, study_.runCount()));
    out_.commit();
  }

 private:
  const study::Study& study_;
  AtomicOutput out_;
};

}  // namespace

std::unique_ptr<SweepOutput> openSweepOutput(const std::string& path, const std::string& format,
                                             const study::Study& study,
                                             const std::string& command) {
  if (!format.empty() && format != "csv" && format != "hdf5")
    throw UsageError("option --format takes csv or hdf5, got " + quote(format));
  const bool hdf5 =
      format == "hdf5" || (format.empty() && (endsWith(path, ".h5") || endsWith(path, ".hdf5")));
  if (!hdf5) return std::make_unique<CsvOutput>(path, study, command);
#ifdef NH_HAVE_HDF5
  return openHdf5Output(path, study, command);
#else
  throw InputError("cannot write " + quote(path) +
                   ": this nhsim was built without HDF5 support (NH_WITH_HDF5, Debian "
                   "libhdf5-dev); write CSV instead");
#endif
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
