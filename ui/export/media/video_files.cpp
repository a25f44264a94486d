// The files of a video export (video_encoder_detail.h): its errors, the checks of the target
// folder, the hidden temporaries made next to the target (unique names, removed on failure),
// and complete writes and syncs.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>

#include "ui/export/media/video_encoder_detail.h"

namespace nh::video {

namespace {

std::string randomTag() {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::string tag(6, 'x');
  for (char& c : tag) c = alphabet[generator() % (sizeof alphabet - 1)];
  return tag;
}

// A hidden sibling of target: ".clip.XXXXXX.partial.mp4" for "clip.mp4". The extension stays
// last so that tools recognise the temporary, and the name is unique so that concurrent
// exports to the same folder do not collide.
fs::path temporarySibling(const fs::path& target, const std::string& kind) {
  const std::string stem = target.stem().string();
  const std::string extension = target.extension().string();
  return folderOf(target) / ("." + stem + "." + randomTag() + "." + kind + extension);
}

}  // namespace

[[noreturn]] void fail(Kind kind, const std::string& message) { throw VideoError(kind, message); }

std::string quoted(const fs::path& path) {
  std::string text = path.string();
  text.insert(text.begin(), '\'');
  text.push_back('\'');
  return text;
}

fs::path folderOf(const fs::path& target) {
  const fs::path parent = target.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

void requireWritableFolder(const fs::path& target) {
  const fs::path folder = folderOf(target);
  std::error_code error;
  const fs::file_status status = fs::status(folder, error);
  if (!fs::exists(status)) {
    fail(Kind::Unwritable, "cannot write " + quoted(target) + ": the folder " + quoted(folder) +
                               " does not exist; create it or choose another location");
  }
  if (!fs::is_directory(status)) {
    fail(Kind::Unwritable, "cannot write " + quoted(target) + ": " + quoted(folder) +
                               " is not a folder; choose a path inside a folder");
  }
}

[[noreturn]] void failCreate(const fs::path& target, int error) {
  fail(Kind::Unwritable, "cannot write " + quoted(target) + ": " + std::strerror(error) +
                             " (creating a temporary in " + quoted(folderOf(target)) +
                             "); choose a writable folder");
}

// Creates an empty temporary file next to target and returns its path. Mode 0666 lets the
// umask decide the final permissions, as for any other file the user creates.
fs::path createTemporaryFile(const fs::path& target, const std::string& kind) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path path = temporarySibling(target, kind);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return path;
    }
    if (errno != EEXIST) failCreate(target, errno);
  }
  failCreate(target, EEXIST);
}

fs::path createTemporaryDirectory(const fs::path& target) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path path = temporarySibling(target, "partial");
    if (::mkdir(path.c_str(), 0777) == 0) return path;
    if (errno != EEXIST) failCreate(target, errno);
  }
  failCreate(target, EEXIST);
}

void removeQuietly(const fs::path& path) noexcept {
  if (path.empty()) return;
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

// Flushes a finished file to disk before it replaces the target, so that a crash right after
// the rename cannot leave a truncated video under the final name.
void syncFile(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

void writeAll(int fd, const std::uint8_t* data, std::size_t size, const fs::path& target) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      fail(Kind::Unwritable, "writing " + quoted(target) + " failed: " + std::strerror(errno) +
                                 "; free some disk space or choose another folder");
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

}  // namespace nh::video
// SPDX-License-Identifier: GPL-3.0-or-later
