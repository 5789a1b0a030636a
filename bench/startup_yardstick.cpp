// The start-up yardstick: a minimal C++ program that prints one line through iostream.
// scripts/scale_runs.py starts it in turn with `searchbench --version`, so the report gives
// what searchbench's start-up costs beyond a process that loads the C++ runtime alone.
#include <iostream>

int main() { std::cout << "searchbench start-up yardstick\n"; }
