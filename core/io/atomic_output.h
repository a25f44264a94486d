// The one way nhsim and nhlab write an output file: streamed, and either complete or absent.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <string>

namespace nh {

// How a path is written, decided once before the first byte (outputTargetFor).
struct OutputTarget {
  enum class Kind {
    Stdout,   // "-": the process's standard output
    Replace,  // a regular file or a new one: a hidden temporary in the same folder, renamed
              // over `path` on commit
    Direct,   // a character device, FIFO or socket: opened and written in place, never
              // renamed over and never removed
  };
  Kind kind = Kind::Replace;
  std::string path;  // what is written: a symbolic link resolved to its target (kept a link)
};

// Throws Error("cannot write '<path>': <reason>") for a directory or an unresolvable link.
// (open() refuses a FIFO that no process opens for reading within kFifoReaderWaitMs.)
OutputTarget outputTargetFor(const std::string& path);

// What writing `path` writes, so that a symbolic link is written through and stays a link: a
// link resolved to its final target (a dangling one to the path it names), any other path as
// given. Also for folders (a PNG sequence renamed over the folder a link names). Throws
// Error("cannot write '<path>': <reason>") when the link cannot be read.
std::string writeThroughLink(const std::string& path);

// A file being written. open() decides by outputTargetFor; data go through file() (stdio) or
// write(); commit() flushes, fsyncs and renames a temporary over its target (or flushes and
// closes a device) and throws Error with the write error (ENOSPC, EFBIG, EIO...); abort() and
// the destructor remove the temporary and leave the target as it was. The temporary is
// ".NAME.XXXXXX.partial" beside the target, locked (flock) while it is written; open() first
// removes the unlocked ones of the same target that a writer killed outright left behind.
class AtomicOutput {
 public:
  AtomicOutput() = default;
  explicit AtomicOutput(const std::string& path) { open(path); }
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  void open(const std::string& path);  // throws Error
  bool isOpen() const { return file_ != nullptr; }
  std::FILE* file() const { return file_; }
  const OutputTarget& target() const { return target_; }
  const std::string& temporaryPath() const { return temporary_; }  // "" unless Kind::Replace

  void write(const void* data, size_t size);  // throws Error on a failed write
  void write(const std::string& text) { write(text.data(), text.size()); }
  void commit();          // throws Error; afterwards the output is closed
  void abort() noexcept;  // closes and removes the temporary; the target is untouched

 private:
  [[noreturn]] void fail(int error);
  std::string path_;  // as given, for messages
  OutputTarget target_;
  std::string temporary_;
  std::FILE* file_ = nullptr;
  int registrySlot_ = -1;
};

// How long opening a FIFO for writing waits for a reader before it is refused.
inline constexpr int kFifoReaderWaitMs = 5000;

// Whole-file write through AtomicOutput.
void writeOutputFile(const std::string& path, const std::string& contents);

// Live temporaries (AtomicOutput's and any others registered here), so that a signal handler
// can remove them: removeLiveTemporaries() only calls unlink(2) and rmdir(2) on paths stored
// in advance, which is async-signal-safe. registerTemporary returns a slot, or -1 when all
// slots are taken (the temporary is then only removed by its owner).
int registerTemporary(const std::string& path);
void unregisterTemporary(int slot) noexcept;
void removeLiveTemporaries() noexcept;

// For the signals that end the process by default and that the program does not handle
// itself (SIGUSR1, SIGPIPE, SIGQUIT, SIGALRM, SIGXFSZ, a crash...; not those set to be
// ignored): a handler that removes the live temporaries, then ends the process by the same
// signal. Call once at start-up, before installing the program's own handlers (SIGINT...).
void removeTemporariesOnFatalSignals();

// registerTemporary for as long as the object lives (or until release()), for writers that
// keep their own temporaries (the video encoder's files and PNG folder).
class TemporaryRegistration {
 public:
  TemporaryRegistration() = default;
  explicit TemporaryRegistration(const std::string& path) : slot_(registerTemporary(path)) {}
  ~TemporaryRegistration() { release(); }
  TemporaryRegistration(TemporaryRegistration&& other) noexcept : slot_(other.slot_) {
    other.slot_ = -1;
  }
  TemporaryRegistration& operator=(TemporaryRegistration&& other) noexcept {
    if (this != &other) {
      release();
      slot_ = other.slot_;
      other.slot_ = -1;
    }
    return *this;
  }
  void release() noexcept {
    unregisterTemporary(slot_);
    slot_ = -1;
  }

 private:
  int slot_ = -1;
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
