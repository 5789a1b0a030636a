// The load counters every benchmark repetition records (load1_before, load1_after,
// others_cpu_seconds, probe_seconds), so the report can tell a quiet run from one that
// shared its cores.
#pragma once

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>

namespace searchbench {

// The machine's load at one moment: the 1-minute load average, the user time of all CPUs
// since boot (/proc/stat: user and nice, and steal, the time the hypervisor gave to other
// machines) and this process's own user time (getrusage, every thread). Kernel time is left
// out on both sides: the kernel's own threads write back the files of the external engine,
// work done for this process that would otherwise count as someone else's.
struct LoadSample {
  double load1 = -1;         // -1: /proc/loadavg unreadable
  double user_seconds = -1;  // -1: /proc/stat unreadable
  double own_seconds = 0;
  std::chrono::steady_clock::time_point when;
};

inline LoadSample sample_load() {
  LoadSample s;
  std::ifstream("/proc/loadavg") >> s.load1;
  std::ifstream stat("/proc/stat");
  std::string cpu;
  double user, nice, system, idle, iowait, irq, softirq, steal;
  if (stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal && cpu == "cpu")
    s.user_seconds = (user + nice + steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  s.own_seconds = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) * 1e-6;
  s.when = std::chrono::steady_clock::now();
  return s;
}

// fn with the load counters of the repetition it runs (set up, timed loop and checks).
// /proc/stat advances by clock ticks, so others_cpu_seconds of a short repetition is
// rough; the report sums it over a case's repetitions before dividing by probe_seconds.
template <class Fn>
auto with_load(Fn fn) {
  return [fn](benchmark::State& state, auto... args) {
    const LoadSample before = sample_load();
    fn(state, args...);
    const LoadSample after = sample_load();
    state.counters["load1_before"] = before.load1;
    state.counters["load1_after"] = after.load1;
    state.counters["probe_seconds"] = std::chrono::duration<double>(after.when - before.when).count();
    if (before.user_seconds >= 0 && after.user_seconds >= 0)
      state.counters["others_cpu_seconds"] =
          (after.user_seconds - before.user_seconds) - (after.own_seconds - before.own_seconds);
  };
}

}  // namespace searchbench
