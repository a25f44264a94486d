// Reading a whole regular file (read_file.h), with one line saying why not for a missing file,
// a directory, a FIFO or a device.
#include "core/nh/read_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/nh/errors.h"

namespace nh {

std::string readRegularFile(const std::string& path, const std::string& what) {
  auto fail = [&](const std::string& reason) -> std::string {
    throw InputError("cannot read " + what + " '" + path + "': " + reason);
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("it is a directory");
  if (!S_ISREG(st.st_mode)) return fail("not a regular file (a device, FIFO or socket)");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return fail("read error");
  return buffer.str();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
