// The module is linked with --wrap=stderr (CMakeLists.txt): asmjit's static archive reads the
// C library's `stderr` directly, which a shared object cannot do, so every reference to it in
// the module reads this copy, set to the same stream when the module is loaded.
#include <cstdio>

extern "C" {
extern FILE* __real_stderr;
FILE* __wrap_stderr = __real_stderr;  // NOLINT: the name --wrap gives
}
// SPDX-License-Identifier: GPL-3.0-or-later
