// Wall-clock stopwatch shared by engines, CLI and benchmarks.
#pragma once

#include <chrono>

namespace searchbench {

class Timer {
 public:
  Timer() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace searchbench
