// Where `nhsim sweep` writes its rows: CSV (comment lines, a header, a line per run) through
// AtomicOutput, or HDF5 (sweep_hdf5.cpp, where the library was found). Either way the output
// is complete or absent: rows go to a temporary that commit() renames over the target.
#pragma once

#include <memory>
#include <string>

#include "core/study/sweep.h"

namespace nh::cli {

class SweepOutput {
 public:
  virtual ~SweepOutput() = default;
  // The next run's row (runs in index order, from 0). Throws Error on a failed write.
  virtual void add(const study::RunResult& result) = 0;
  // Ends the output with `written` of the study's runs (fewer when interrupted: the file
  // then says it is partial) and makes it visible. Throws Error and leaves no file.
  virtual void commit(long written) = 0;
};

// Opens `path` ("-": standard output) for `study`'s rows; `command` is the command line as
// echoed in the first comment line. `format` is "csv", "hdf5" or "" (HDF5 for a path ending
// in .h5 or .hdf5, else CSV). Throws InputError, before anything is written, for an
// unwritable path, an unknown format, HDF5 to standard output or to a special file, and HDF5
// in a build without it.
std::unique_ptr<SweepOutput> openSweepOutput(const std::string& path, const std::string& format,
                                             const study::Study& study, const std::string& command);

#ifdef NH_HAVE_HDF5
// sweep_hdf5.cpp; `path` names a regular file or a new one.
std::unique_ptr<SweepOutput> openHdf5Output(const std::string& path, const study::Study& study,
                                            const std::string& command);
#endif

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
