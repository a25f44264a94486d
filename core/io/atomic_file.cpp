// Writing a whole file at once (atomic_file.h): the contents handed to AtomicOutput's
// writeOutputFile, so that readers see the old file or the new.
#include "core/io/atomic_file.h"

#include "core/io/atomic_output.h"

namespace nh {

void writeFileAtomically(const std::string& path, const std::string& contents) {
  writeOutputFile(path, contents);
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
