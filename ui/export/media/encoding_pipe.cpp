// EncodingPipe (encoding_pipe.h): the encoding thread, the pool of frame buffers it takes
// frames from, and close() or abandon() that end it.
#include "ui/export/media/encoding_pipe.h"

#include <cstring>
#include <utility>

namespace nh {

EncodingPipe::EncodingPipe(Encode encode, std::size_t rowBytes, int height, std::size_t depth)
    : encode_(std::move(encode)),
      rowBytes_(rowBytes),
      height_(height),
      depth_(depth < 1 ? 1 : depth),
      thread_([this] { work(); }) {}

// An error in flight was already reported or is moot.
EncodingPipe::~EncodingPipe() { abandon(); }

void EncodingPipe::push(const std::uint8_t* rgb, std::ptrdiff_t stride) {
  std::vector<std::uint8_t> frame;
  {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return queue_.size() < depth_ || error_ || closed_; });
    if (error_) std::rethrow_exception(error_);
    if (!pool_.empty()) {
      frame = std::move(pool_.back());
      pool_.pop_back();
    }
  }
  frame.resize(rowBytes_ * static_cast<std::size_t>(height_));
  for (int y = 0; y < height_; ++y)
    std::memcpy(frame.data() + static_cast<std::size_t>(y) * rowBytes_, rgb + y * stride,
                rowBytes_);
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(frame));
  }
  ready_.notify_one();
}

void EncodingPipe::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  ready_.notify_one();
  if (thread_.joinable()) thread_.join();
  if (error_) {
    const std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void EncodingPipe::abandon() noexcept {
  {
    std::lock_guard lock(mutex_);
    queue_.clear();
    closed_ = true;
  }
  ready_.notify_one();
  space_.notify_all();
  if (thread_.joinable()) thread_.join();
  error_ = nullptr;
}

void EncodingPipe::work() {
  for (;;) {
    std::vector<std::uint8_t> frame;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return !queue_.empty() || closed_; });
      if (queue_.empty()) return;
      frame = std::move(queue_.front());
      queue_.pop_front();
    }
    space_.notify_one();
    try {
      encode_(frame.data(), static_cast<std::ptrdiff_t>(rowBytes_));
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
      queue_.clear();
      space_.notify_all();
      return;
    }
    std::lock_guard lock(mutex_);
    pool_.push_back(std::move(frame));
  }
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
