// Runs a study's runs on a pool of threads: each worker takes the next run index when it is
// free (dynamic load balancing: runs differ in cost), and the finished rows are handed out
// in index order through a reorder buffer, so what a writer sees is the same for any number
// of workers.
#pragma once

#include <atomic>
#include <functional>

#include "core/study/sweep.h"

namespace nh::study {

// Called with each run's result in index order (first, first + 1, …), one call at a time
// (never concurrently), from whichever worker thread completed the gap. An exception thrown
// by it (a write error) stops the study and is rethrown by runStudy.
using OrderedSink = std::function<void(const RunResult&)>;

// Runs [first, end) of `study` on `jobs` ≥ 1 threads (the calling thread waits). When
// *cancel becomes true, workers take no new run and the runs under way stop at their next
// sample (Study::run's RunCancelled). Returns how many results were handed to `sink`: all of
// end − first, or fewer (a prefix) when cancelled.
long runStudy(const Study& study, long first, long end, int jobs, const OrderedSink& sink,
              const std::atomic<bool>* cancel = nullptr);

}  // namespace nh::study
// SPDX-License-Identifier: GPL-3.0-or-later
