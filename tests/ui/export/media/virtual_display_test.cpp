// ensureDisplay(): a private Xvfb appears when DISPLAY is unset or dead, accepts X
// connections, and is gone (with DISPLAY restored) after destruction or when its owner dies.
#include "ui/export/media/virtual_display.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "core/nh/errors.h"

namespace {

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

void restore(const char* name, const std::optional<std::string>& value) {
  if (value) {
    ::setenv(name, value->c_str(), 1);
  } else {
    ::unsetenv(name);
  }
}

// A process that has exited, or is a zombie nobody reaped (containers often lack an init
// that reaps orphans), no longer serves anything.
bool processGone(pid_t pid) {
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pidField, command, state;
  stat >> pidField >> command >> state;
  return state == "Z" || state == "X";
}

// The pid of the process serving X display `name` (":N") on its local socket, or -1 when
// none does; the kernel reports the listening peer's credentials (SO_PEERCRED). Xvfb
// -displayfd takes the lowest free number, so once a server is gone a server started by a
// test running beside this one may serve the same number: only the peer's pid says whether
// ours let go.
pid_t displayServer(const std::string& name) {
  const std::string path = "/tmp/.X11-unix/X" + name.substr(1);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  pid_t server = -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0) {
      server = credentials.pid;
    }
  }
  ::close(fd);
  return server;
}

}  // namespace

class VirtualDisplayTest : public QObject {
  Q_OBJECT
  std::optional<std::string> savedDisplay_;

 private slots:
  void initTestCase() { savedDisplay_ = environment("DISPLAY"); }
  void cleanup() { restore("DISPLAY", savedDisplay_); }

  void startsXvfbWhenDisplayIsUnset() {
    ::unsetenv("DISPLAY");
    auto display = nh::ensureDisplay();
    QVERIFY(display);
    const std::string name = display->name();
    const pid_t pid = display->pid();
    QVERIFY(name.size() > 1 && name[0] == ':');
    QCOMPARE(environment("DISPLAY"), std::optional<std::string>(name));
    QVERIFY(nh::canConnectToDisplay(name));
    QVERIFY(!processGone(pid));
    QCOMPARE(displayServer(name), pid);

    display.reset();
    QVERIFY(processGone(pid));
    QVERIFY(displayServer(name) != pid);
    QCOMPARE(environment("DISPLAY"), std::optional<std::string>());
  }

  void replacesDeadDisplay() {
    ::setenv("DISPLAY", ":987", 1);  // no server behind it
    QVERIFY(!nh::canConnectToDisplay(":987"));
    auto display = nh::ensureDisplay();
    QVERIFY(display);
    QVERIFY(nh::canConnectToDisplay(display->name()));
    display.reset();
    QCOMPARE(environment("DISPLAY"), std::optional<std::string>(":987"));
  }

  void reusesWorkingDisplay() {
    ::unsetenv("DISPLAY");
    nh::VirtualDisplay server;
    QVERIFY(!nh::ensureDisplay());  // DISPLAY now names a live server: nothing new started
    QCOMPARE(environment("DISPLAY"), std::optional<std::string>(server.name()));
  }

  // The kernel stops the server when its owner dies without running destructors. This test
  // process becomes a subreaper so that the orphaned server is reparented to it and can be
  // waited for (rather than left as a zombie for init).
  void serverDiesWithItsOwner() {
    QCOMPARE(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    int channel[2];
    QCOMPARE(::pipe(channel), 0);
    const pid_t owner = ::fork();
    if (owner == 0) {
      ::close(channel[0]);
      pid_t server = -1;
      try {
        auto* display = new nh::VirtualDisplay();  // deliberately never destroyed
        server = display->pid();
      } catch (...) {
      }
      (void)!::write(channel[1], &server, sizeof server);
      ::_exit(0);
    }
    ::close(channel[1]);
    pid_t server = -1;
    QCOMPARE(::read(channel[0], &server, sizeof server), ssize_t(sizeof server));
    ::close(channel[0]);
    ::waitpid(owner, nullptr, 0);
    QVERIFY(server > 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    pid_t reaped = 0;
    while (reaped != server && std::chrono::steady_clock::now() < deadline) {
      reaped = ::waitpid(server, nullptr, WNOHANG);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    QCOMPARE(reaped, server);
  }

  void missingXvfbNamesThePackage() {
    const std::optional<std::string> path = environment("PATH");
    QTemporaryDir empty;
    ::setenv("PATH", empty.path().toLocal8Bit().constData(), 1);
    ::unsetenv("DISPLAY");
    QString message;
    try {
      nh::ensureDisplay();
    } catch (const nh::Error& e) {
      message = QString::fromUtf8(e.what());
    }
    restore("PATH", path);
    QVERIFY2(message.contains("install the 'xvfb' package"), qPrintable(message));
    QCOMPARE(environment("DISPLAY"), std::optional<std::string>());
  }
};

QTEST_APPLESS_MAIN(VirtualDisplayTest)
#include "virtual_display_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
