// The floor of process start-up for bench_startup: a C++ program that links libstdc++ and
// prints one line.
#include <iostream>

int main() {
  std::cout << "hello\n";
  return 0;
}
