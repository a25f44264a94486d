#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/nh/errors.h"

namespace nh {

namespace {

[[noreturn]] void failWrite(const std::string& path, int error) {
  throw Error("cannot write '" + path + "': " + std::strerror(error));
}

// Writes all of `contents` to fd; returns 0 or the errno of the failure.
int writeAll(int fd, const std::string& contents) {
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& contents) {
  std::string target = path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    // Write through the link: replace what it points to, keep the link.
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved)) {
      target = resolved;
    } else if (errno == ENOENT) {
      // A dangling link: create its target.
      char buffer[PATH_MAX];
      const ssize_t n = ::readlink(path.c_str(), buffer, sizeof buffer - 1);
      if (n < 0) failWrite(path, errno);
      buffer[n] = '\0';
      target = buffer;
      if (!target.empty() && target[0] != '/') {
        const auto slash = path.rfind('/');
        if (slash != std::string::npos) target = path.substr(0, slash + 1) + target;
      }
    } else {
      failWrite(path, errno);
    }
  }
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) failWrite(path, EISDIR);
    // Devices, FIFOs, sockets: write directly; never rename over them.
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) failWrite(path, errno);
    const int error = writeAll(fd, contents);
    const int closeError = ::close(fd) == 0 ? 0 : errno;
    if (error) failWrite(path, error);
    if (closeError) failWrite(path, closeError);
    return;
  }
  const auto slash = target.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string temporary = folder + "." + base + ".XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) failWrite(path, errno);
  int error = writeAll(fd, contents);
  if (!error && ::fsync(fd) != 0) error = errno;
  // mkstemp creates 0600; give the file the permissions a plain create would have.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (!error && ::fchmod(fd, 0666 & ~mask) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (!error && ::rename(temporary.c_str(), target.c_str()) != 0) error = errno;
  if (error) {
    ::unlink(temporary.c_str());
    failWrite(path, error);
  }
}

}  // namespace nh
