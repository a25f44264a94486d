// Writing a whole file so that readers see the old contents or the new, never a part.
#pragma once

#include <string>

#include "core/nh/read_file.h"  // readRegularFile, the reading counterpart

namespace nh {

// Writes `contents` to `path`. A regular file (or a new one) is replaced atomically: the data
// go to a hidden temporary in the same folder, are flushed to disk and renamed over `path`;
// on failure the temporary is removed and `path` is untouched. A symbolic link is followed
// (its target is replaced, the link stays). A character device, FIFO or socket is written
// directly, never replaced. Throws Error("cannot write '<path>': <reason>").
void writeFileAtomically(const std::string& path, const std::string& contents);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
