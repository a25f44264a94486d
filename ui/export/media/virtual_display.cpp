// VirtualDisplay (virtual_display.h): Xvfb found on PATH and started with its display number
// read back through a pipe, a connection tried, and the server stopped with the object;
// ensureDisplay() starts one only when no display can be reached.
#include "ui/export/media/virtual_display.h"

#include <X11/Xlib.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/nh/errors.h"

namespace nh {
namespace {

using Clock = std::chrono::steady_clock;

// Resolves a program name through PATH before fork(): execv() in the child then needs no
// allocation, which is not safe between fork() and exec() in a multithreaded process.
std::string findInPath(const std::string& program) {
  const char* pathVariable = std::getenv("PATH");
  const std::string path = pathVariable ? pathVariable : "/usr/local/bin:/usr/bin:/bin";
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find(':', begin);
    if (end == std::string::npos) end = path.size();
    // An empty PATH entry means the current directory.
    const std::filesystem::path directory =
        end > begin ? std::filesystem::path(path.substr(begin, end - begin))
                    : std::filesystem::path(".");
    const std::string candidate = (directory / program).string();
    struct stat status {};
    if (::stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    begin = end + 1;
  }
  return {};
}

std::string readWholeFile(std::FILE* file) {
  std::string text;
  if (!file) return text;
  std::rewind(file);
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  return text;
}

// Last few lines of Xvfb's stderr, the part that explains a failed start.
std::string tail(const std::string& text, std::size_t maxChars = 600) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() > maxChars) t = "..." + t.substr(t.size() - maxChars);
  return t.empty() ? "(no output)" : t;
}

bool waitForExit(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    int status = 0;
    const pid_t result = ::waitpid(pid, &status, WNOHANG);
    if (result == pid || (result < 0 && errno == ECHILD)) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void stopServer(pid_t pid) {
  ::kill(pid, SIGTERM);
  if (!waitForExit(pid, std::chrono::seconds(3))) {
    ::kill(pid, SIGKILL);
    waitForExit(pid, std::chrono::seconds(3));
  }
}

// Starts Xvfb at `xvfb` with a screen of width × height, telling it to write its display
// number to ready[1] and its stderr to `log` (when there is one). Closes ready[1] in this
// process; on failure also ready[0] and `log`, and throws Error.
pid_t spawnXvfb(const std::string& xvfb, int width, int height, const int ready[2],
                std::FILE* log) {
  // Everything the child needs is prepared before fork() (see findInPath).
  const std::string fdArgument = std::to_string(ready[1]);
  const std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x24";
  std::vector<std::string> arguments = {xvfb,   "-displayfd", fdArgument, "-screen", "0",
                                        screen, "-nolisten",  "tcp",      "-noreset"};
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int logFd = log ? ::fileno(log) : -1;
  const int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t parent = ::getpid();

  const pid_t pid = ::fork();
  if (pid == 0) {
    // Child: async-signal-safe calls only.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::fcntl(ready[1], F_SETFD, 0);  // the display number is written to this descriptor
    if (devNull >= 0) {
      ::dup2(devNull, STDIN_FILENO);
      ::dup2(devNull, STDOUT_FILENO);
    }
    if (logFd >= 0) ::dup2(logFd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (devNull >= 0) ::close(devNull);
  ::close(ready[1]);
  if (pid < 0) {
    const int error = errno;
    ::close(ready[0]);
    if (log) std::fclose(log);
    throw Error(std::string("cannot start Xvfb: fork() failed: ") + std::strerror(error));
  }
  return pid;
}

// Reads what Xvfb writes to -displayfd ("N\n" once it accepts connections) from `fd` until
// the newline, for at most timeoutSeconds. Returns the display number N; `failure` says why
// the newline did not come (left empty when it did).
std::string readDisplayNumber(int fd, double timeoutSeconds, std::string& failure) {
  std::string number;
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long>(timeoutSeconds * 1000));
  while (failure.empty() && number.find('\n') == std::string::npos) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      failure =
          "it did not report a display number within " + std::to_string(timeoutSeconds) + " s";
      break;
    }
    pollfd p{fd, POLLIN, 0};
    const int polled = ::poll(&p, 1, static_cast<int>(left));
    if (polled < 0 && errno == EINTR) continue;
    if (polled <= 0) continue;
    char buffer[32];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failure = "it exited during start-up";
      break;
    }
    number.append(buffer, static_cast<std::size_t>(n));
  }
  return number.substr(0, number.find('\n'));
}

}  // namespace

bool canConnectToDisplay(const std::string& displayName) {
  if (displayName.empty()) return false;
  Display* display = XOpenDisplay(displayName.c_str());
  if (!display) return false;
  XCloseDisplay(display);
  return true;
}

VirtualDisplay::VirtualDisplay(int width, int height, double timeoutSeconds) {
  const std::string xvfb = findInPath("Xvfb");
  if (xvfb.empty()) {
    throw Error(
        "cannot start a virtual X display for offscreen rendering: Xvfb was not found in PATH; "
        "install the 'xvfb' package (apt-get install xvfb) or set DISPLAY to a running X server");
  }

  int ready[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) {
    throw Error(std::string("cannot start Xvfb: pipe() failed: ") + std::strerror(errno));
  }
  // Xvfb's stderr goes to an anonymous file, read only to explain a failed start; a pipe
  // could fill up and block the server if nobody reads it later.
  std::FILE* log = std::tmpfile();

  const pid_t pid = spawnXvfb(xvfb, width, height, ready, log);
  std::string failure;
  const std::string number = readDisplayNumber(ready[0], timeoutSeconds, failure);
  ::close(ready[0]);

  if (failure.empty()) {
    name_ = ":" + number;
    if (!canConnectToDisplay(name_)) failure = "display " + name_ + " refuses connections";
  }
  if (!failure.empty()) {
    stopServer(pid);
    const std::string output = tail(readWholeFile(log));
    if (log) std::fclose(log);
    throw Error("cannot start a virtual X display: Xvfb (" + xvfb + ") failed, " + failure +
                "; its output: " + output);
  }
  if (log) std::fclose(log);

  pid_ = pid;
  if (const char* previous = std::getenv("DISPLAY")) previousDisplay_ = previous;
  ::setenv("DISPLAY", name_.c_str(), 1);
}

VirtualDisplay::~VirtualDisplay() {
  if (pid_ > 0) stopServer(pid_);
  // Restore DISPLAY only if nobody pointed it elsewhere meanwhile.
  const char* current = std::getenv("DISPLAY");
  if (current && name_ == current) {
    if (previousDisplay_) {
      ::setenv("DISPLAY", previousDisplay_->c_str(), 1);
    } else {
      ::unsetenv("DISPLAY");
    }
  }
}

std::unique_ptr<VirtualDisplay> ensureDisplay() {
  const char* display = std::getenv("DISPLAY");
  if (display && *display && canConnectToDisplay(display)) return nullptr;
  return std::make_unique<VirtualDisplay>();
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
