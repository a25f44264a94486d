// quitOnStopSignals (stop_signals.h): SIGINT, SIGTERM and SIGHUP written to a pipe by the
// handler and read in the event loop, where the stop action runs and the app quits.
#include "ui/window/stop_signals.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QSocketNotifier>
#include <cerrno>
#include <utility>

#include "core/io/atomic_output.h"

namespace nhui {

namespace {

int signalPipe[2] = {-1, -1};
std::function<bool()> stopAction;

// Async-signal-safe: write(2) only. The temporaries are removed from the event loop instead
// (quitOnStopSignals), not here: a writer may still be filling them (the export worker stops
// at its next frame), and a file unlinked under a running writer would be renamed over its
// target a moment later, or the writer would fail on a vanished folder.
void forwardSignal(int signal) {
  const int saved = errno;
  const char byte = static_cast<char>(signal);
  [[maybe_unused]] const ssize_t n = ::write(signalPipe[1], &byte, 1);
  errno = saved;
}

}  // namespace

void quitOnStopSignals(QCoreApplication& app, std::function<bool()> stop) {
  stopAction = std::move(stop);
  if (signalPipe[0] >= 0) return;
  if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
  auto* notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, &app);
  QObject::connect(notifier, &QSocketNotifier::activated, &app, [&app] {
    char byte = 0, last = 0;
    while (::read(signalPipe[0], &byte, 1) == 1) last = byte;
    if (last == 0) return;
    // The writers stop first (an export is cancelled and waited for, which removes its
    // temporary); whatever temporary is still registered then has no writer left.
    if (stopAction && !stopAction()) return;
    nh::removeLiveTemporaries();
    app.exit(128 + last);
  });
  struct sigaction action {};
  action.sa_handler = forwardSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal, &action, nullptr);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
