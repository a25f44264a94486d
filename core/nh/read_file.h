// Reading a whole regular file, refusing directories, FIFOs and devices.
#pragma once

#include <string>

namespace nh {

// Reads a whole regular file; throws InputError naming `what` and the reason otherwise
// (missing, unreadable, a directory, FIFO or device).
std::string readRegularFile(const std::string& path, const std::string& what);

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
