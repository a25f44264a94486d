// The floor of process start-up for bench_startup: a C++ program that links libstdc++ and
// prints one line.
#include <iostream>

int main() {
  std::cout << "hello\n";
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
