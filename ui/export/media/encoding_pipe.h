// Encodes frames on a thread of its own, so that libx264/libvpx work while the next frame is
// rendered (on two cores the two overlap; measured ~20% faster than one after the other).
// Frames are copied top-down into pooled buffers; at most `depth` wait. Free of Qt and FFmpeg:
// the encoder is any function, so the ThreadSanitizer preset runs the pipe with a stand-in.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nh {

class EncodingPipe {
 public:
  // Called on the pipe's thread with each frame in push order: `height` rows of rowBytes
  // bytes, top-down, row y at rgb + y * rowBytes. What it throws ends the pipe and is rethrown
  // by the next push() or by close().
  using Encode = std::function<void(const std::uint8_t* rgb, std::ptrdiff_t rowBytes)>;

  EncodingPipe(Encode encode, std::size_t rowBytes, int height, std::size_t depth = 3);
  ~EncodingPipe();  // abandon(): never throws
  EncodingPipe(const EncodingPipe&) = delete;
  EncodingPipe& operator=(const EncodingPipe&) = delete;

  // Queues one frame (rows `stride` bytes apart, negative for bottom-up: pass the top row),
  // waiting while `depth` frames wait. Rethrows an error of the encoding thread.
  void push(const std::uint8_t* rgb, std::ptrdiff_t stride);
  // Waits until every queued frame is encoded; rethrows an error of the encoding thread.
  void close();
  // Drops what is queued and stops (cancel); the frame being encoded is finished first.
  void abandon() noexcept;

 private:
  void work();

  const Encode encode_;
  const std::size_t rowBytes_;
  const int height_;
  const std::size_t depth_;
  std::mutex mutex_;
  std::condition_variable ready_, space_;
  std::deque<std::vector<std::uint8_t>> queue_;
  std::vector<std::vector<std::uint8_t>> pool_;
  bool closed_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
