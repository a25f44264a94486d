// Ctrl+C (SIGINT), SIGTERM and SIGHUP in the terminal of a Qt app, handled in its event loop.
#pragma once

#include <functional>

class QCoreApplication;

namespace nhui {

// Installs handlers for SIGINT, SIGTERM and SIGHUP (once per process; a second call only
// replaces `stop`). The handler only writes the signal number to a pipe; the event loop reads
// it and calls `stop`, which closes the app's windows the normal way (nhlab: the main window,
// whose close cancels running exports and waits for them) and returns false if the user chose
// to stay (e.g. Cancel on the unsaved-changes question). Otherwise the output temporaries
// still registered are removed (nh::removeLiveTemporaries) and the event loop quits with
// 128 + the signal: exec() returns 130, 143 or 129, as nhsim does.
void quitOnStopSignals(QCoreApplication& app, std::function<bool()> stop = {});

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
