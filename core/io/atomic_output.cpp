// AtomicOutput (atomic_output.h): an output streamed to a hidden temporary beside its target
// and renamed over it at commit, through symbolic links; the registry of live temporaries that
// a fatal signal removes, and the clearing of temporaries a killed writer left behind.
#include "core/io/atomic_output.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>

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
  char path[PATH_MAX] = {};
};
// Zeroed by the loader (constinit: no start-up code writing a page of each slot).
constinit Slot slots[kSlots];

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

namespace {

// Opens a device, FIFO or socket for writing. A FIFO is opened without blocking: with no
// reader the open fails (ENXIO) instead of waiting for ever; it is tried again for
// kFifoReaderWaitMs (a reader started just after nhsim still comes in time), then refused.
int openDirect(const std::string& given, const std::string& path) {
  struct stat st {};
  const bool fifo = ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
  if (!fifo) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) failWrite(given, errno);
    return fd;
  }
  for (int waited = 0;; waited += 20) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) {
      // Writes block again while the reader is slow (no EAGAIN, no short rows).
      const int flags = ::fcntl(fd, F_GETFL);
      if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        const int error = errno;
        ::close(fd);
        failWrite(given, error);
      }
      return fd;
    }
    if (errno != ENXIO) failWrite(given, errno);
    if (waited >= kFifoReaderWaitMs)
      throw Error("cannot write '" + given + "': no process opened this FIFO for reading within " +
                  std::to_string(kFifoReaderWaitMs / 1000) +
                  " s (start the reader first, or write to a file)");
    ::usleep(20000);
  }
}

// Whether `name` is a temporary that open() makes for `base`: "." base "." six letters or
// digits ".partial" (mkostemps' pattern); nothing else in the folder is touched.
bool isTemporaryOf(const std::string& name, const std::string& base) {
  const std::string head = "." + base + ".", tail = ".partial";
  if (name.size() != head.size() + 6 + tail.size() || name.compare(0, head.size(), head) != 0 ||
      name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
    return false;
  for (size_t i = head.size(); i < head.size() + 6; ++i)
    if (!std::isalnum(static_cast<unsigned char>(name[i]))) return false;
  return true;
}

// Removes the temporaries of `base` in `folder` that a writer killed outright (SIGKILL, a
// power cut) left behind. A live writer holds an exclusive lock on its temporary for as long
// as it writes (open() below); one that no process locks, untouched for a second or more
// (not one another writer has just made and is about to lock), is stale.
void removeStaleTemporaries(const std::string& folder, const std::string& base) {
  DIR* dir = ::opendir(folder.empty() ? "." : folder.c_str());
  if (!dir) return;
  const time_t now = ::time(nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (!isTemporaryOf(name, base)) continue;
    const std::string path = folder + name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime + 1 < now &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0)
      ::unlink(path.c_str());
    ::close(fd);
  }
  ::closedir(dir);
}

}  // namespace

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
      const int fd = openDirect(path, target_.path);
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
      removeStaleTemporaries(folder, base);
      std::string temporary = folder + "." + base + ".XXXXXX.partial";
      const int fd = ::mkostemps(temporary.data(), 8, O_CLOEXEC);
      if (fd < 0) failWrite(path, errno);
      // Held until the file is closed: the temporary is live (removeStaleTemporaries).
      ::flock(fd, LOCK_EX | LOCK_NB);
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
  // A second descriptor keeps the temporary's lock until it is renamed or removed: no other
  // writer takes it for a killed writer's in between (removeStaleTemporaries).
  const int lockHolder =
      target_.kind == OutputTarget::Kind::Replace ? ::fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
  file_ = nullptr;
  if (std::fclose(file) != 0 && !error) error = errno;
  if (target_.kind == OutputTarget::Kind::Replace) {
    if (!error && ::rename(temporary_.c_str(), target_.path.c_str()) != 0) error = errno;
    if (error) ::unlink(temporary_.c_str());
    unregisterTemporary(registrySlot_);
    registrySlot_ = -1;
    temporary_.clear();
  }
  if (lockHolder >= 0) ::close(lockHolder);
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

namespace {
void removeTemporariesAndDie(int signal) {
  removeLiveTemporaries();  // unlink(2) and rmdir(2) only: async-signal-safe
  ::signal(signal, SIG_DFL);
  ::raise(signal);  // blocked until the handler returns, then the default action
}
}  // namespace

void removeTemporariesOnFatalSignals() {
  for (const int signal :
       {SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL,
        SIGSYS, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV}) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = removeTemporariesAndDie;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal, &action, nullptr);
  }
}

void writeOutputFile(const std::string& path, const std::string& contents) {
  AtomicOutput out(path);
  out.write(contents);
  out.commit();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
