#include "core/io/atomic_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/nh/errors.h"

namespace nh {

namespace {

[[noreturn]] void failWrite(const std::string& path, int error) {
  throw Error("cannot write '" + path + "': " + std::strerror(error));
}

// ---- Registry of live temporaries ----------------------------------------------------------

constexpr int kSlots = 32;
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 live
  char path[PATH_MAX];
};
Slot slots[kSlots];

}  // namespace

int registerTemporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(2);
    return i;
  }
  return -1;
}

void unregisterTemporary(int slot) noexcept {
  if (slot >= 0 && slot < kSlots) slots[slot].state.store(0);
}

void removeLiveTemporaries() noexcept {
  for (auto& slot : slots) {
    if (slot.state.load() != 2) continue;
    // A file, or an (empty) folder; a folder with frames in it is left to its owner.
    if (::unlink(slot.path) != 0) ::rmdir(slot.path);
  }
}

// ---- Decision ------------------------------------------------------------------------------

std::string writeThroughLink(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  // Write through the link: its target is written (or replaced), the link stays.
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved)) return resolved;
  if (errno != ENOENT) failWrite(path, errno);
  // A dangling link: create what it points to.
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink(path.c_str(), buffer, sizeof buffer - 1);
  if (n < 0) failWrite(path, errno);
  buffer[n] = '\0';
  std::string target = buffer;
  if (!target.empty() && target[0] != '/') {
    const auto slash = path.rfind('/');
    if (slash != std::string::npos) target = path.substr(0, slash + 1) + target;
  }
  return target;
}

OutputTarget outputTargetFor(const std::string& path) {
  OutputTarget out;
  if (path == "-") {
    out.kind = OutputTarget::Kind::Stdout;
    out.path = path;
    return out;
  }
  out.path = writeThroughLink(path);
  struct stat st {};
  if (::stat(out.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) failWrite(path, EISDIR);
    out.kind = OutputTarget::Kind::Direct;  // device, FIFO, socket
  } else {
    out.kind = OutputTarget::Kind::Replace;
  }
  return out;
}

// ---- AtomicOutput --------------------------------------------------------------------------

AtomicOutput::~AtomicOutput() { abort(); }

void AtomicOutput::fail(int error) {
  abort();
  failWrite(path_, error);
}

void AtomicOutput::open(const std::string& path) {
  abort();
  path_ = path;
  target_ = outputTargetFor(path);
  switch (target_.kind) {
    case OutputTarget::Kind::Stdout:
      file_ = stdout;
      return;
    case OutputTarget::Kind::Direct: {
      const int fd = ::open(target_.path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) failWrite(path, errno);
      file_ = ::fdopen(fd, "w");
      if (!file_) {
        const int error = errno;
        ::close(fd);
        failWrite(path, error);
      }
      return;
    }
    case OutputTarget::Kind::Replace: {
      const auto slash = target_.path.rfind('/');
      const std::string folder =
          slash == std::string::npos ? "" : target_.path.substr(0, slash + 1);
      const std::string base =
          slash == std::string::npos ? target_.path : target_.path.substr(slash + 1);
      std::string temporary = folder + "." + base + ".XXXXXX.partial";
      const int fd = ::mkostemps(temporary.data(), 8, O_CLOEXEC);
      if (fd < 0) failWrite(path, errno);
      temporary_ = temporary;
      registrySlot_ = registerTemporary(temporary_);
      file_ = ::fdopen(fd, "w");
      if (!file_) {
        const int error = errno;
        ::close(fd);
        fail(error);
      }
      return;
    }
  }
}

void AtomicOutput::write(const void* data, size_t size) {
  if (!file_) failWrite(path_, EBADF);
  if (size && std::fwrite(data, 1, size, file_) != size) fail(errno ? errno : EIO);
}

void AtomicOutput::commit() {
  if (!file_) failWrite(path_, EBADF);
  std::FILE* file = file_;
  errno = 0;
  int error = std::fflush(file) != 0 || std::ferror(file) ? (errno ? errno : EIO) : 0;
  if (target_.kind == OutputTarget::Kind::Stdout) {
    file_ = nullptr;
    if (error) failWrite(path_, error);
    return;
  }
  const int fd = ::fileno(file);
  if (target_.kind == OutputTarget::Kind::Replace) {
    if (!error && ::fsync(fd) != 0) error = errno;
    // mkstemp creates 0600; give the file the permissions a plain create would have.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (!error && ::fchmod(fd, 0666 & ~mask) != 0) error = errno;
  }
  file_ = nullptr;
  if (std::fclose(file) != 0 && !error) error = errno;
  if (target_.kind == OutputTarget::Kind::Replace) {
    if (!error && ::rename(temporary_.c_str(), target_.path.c_str()) != 0) error = errno;
    if (error) ::unlink(temporary_.c_str());
    unregisterTemporary(registrySlot_);
    registrySlot_ = -1;
    temporary_.clear();
  }
  if (error) failWrite(path_, error);
}

void AtomicOutput::abort() noexcept {
  if (file_ && target_.kind != OutputTarget::Kind::Stdout) std::fclose(file_);
  file_ = nullptr;
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    temporary_.clear();
  }
  unregisterTemporary(registrySlot_);
  registrySlot_ = -1;
}

void writeOutputFile(const std::string& path, const std::string& contents) {
  AtomicOutput out(path);
  out.write(contents);
  out.commit();
}

}  // namespace nh
