// runStudy (study_runner.h): a study's runs on a pool of threads, each worker taking the next
// index, and the rows handed to the sink in index order through a reorder buffer.
#include "core/study/study_runner.h"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace nh::study {

long runStudy(const Study& study, long first, long end, int jobs, const OrderedSink& sink,
              const std::atomic<bool>* cancel) {
  std::atomic<long> next{first};
  std::atomic<bool> stop{false};      // cancelled, or the sink failed
  std::mutex mutex;                   // guards everything below
  std::map<long, RunResult> pending;  // finished out of order, waiting for the gap to fill
  long delivered = first;             // the next index the sink gets
  std::exception_ptr failure;

  auto work = [&] {
    StudyWorker worker(study);
    RunResult result;
    for (;;) {
      if (stop.load() || (cancel && cancel->load())) return;
      const long i = next.fetch_add(1);
      if (i >= end) return;
      try {
        study.run(i, worker, result, cancel);
      } catch (const RunCancelled&) {
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (failure) return;
      if (i != delivered) {
        pending.emplace(i, std::move(result));
        continue;
      }
      try {
        sink(result);
        ++delivered;
        for (auto it = pending.begin(); it != pending.end() && it->first == delivered;
             it = pending.erase(it)) {
          sink(it->second);
          ++delivered;
        }
      } catch (...) {
        failure = std::current_exception();
        stop = true;
        return;
      }
    }
  };
  // Anything else a worker throws (memory) stops the study too and is rethrown here.
  auto guarded = [&] {
    try {
      work();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
  };
  const int threads = static_cast<int>(std::max(1L, std::min<long>(jobs, end - first)));
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads) - 1);
  for (int t = 1; t < threads; ++t) pool.emplace_back(guarded);
  guarded();  // the calling thread is one of the workers
  for (auto& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
  return delivered - first;
}

}  // namespace nh::study
// SPDX-License-Identifier: GPL-3.0-or-later
