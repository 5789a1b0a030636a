// The context every JSON object of run, compare and list carries under `context`: when and
// where the command ran (UTC date, host, CPU, cores, memory, kernel, OS), what built the
// executable (compiler, build type and flags, -march=native, the vector path its byte
// permutations compiled to, library versions) and how busy the machine was (the load
// averages when the command started and when it ended), so that a measurement read later
// says what it measured on.
//
// The build facts come from CMake as compile definitions of the searchbench target
// (SEARCHBENCH_BUILD_TYPE, SEARCHBENCH_BUILD_FLAGS, SEARCHBENCH_NATIVE_ON,
// SEARCHBENCH_CXX_COMPILER_ID, SEARCHBENCH_CXX_COMPILER_VERSION); a build without them says
// "unknown" or falls back on the compiler's own macros. The vector path ("simd": avx512, avx2
// or scalar) is core/simd_level.hpp's, from the compiler's macros, as the code that uses it.
#pragma once

#include <sys/utsname.h>
#include <unistd.h>

#include <CLI/Version.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <oneapi/tbb/version.h>
#include <string>
#include <thread>
#include <vector>
#ifdef SEARCHBENCH_HAVE_MPI
#include <mpi.h>
#endif

#include "core/simd_level.hpp"

#ifndef SEARCHBENCH_BUILD_TYPE
#define SEARCHBENCH_BUILD_TYPE "unknown"
#endif
#ifndef SEARCHBENCH_BUILD_FLAGS
#define SEARCHBENCH_BUILD_FLAGS "unknown"
#endif
#ifndef SEARCHBENCH_NATIVE_ON
#define SEARCHBENCH_NATIVE_ON 0
#endif
#ifndef SEARCHBENCH_CXX_COMPILER_ID
#if defined(__clang__)
#define SEARCHBENCH_CXX_COMPILER_ID "Clang"
#elif defined(__GNUC__)
#define SEARCHBENCH_CXX_COMPILER_ID "GNU"
#else
#define SEARCHBENCH_CXX_COMPILER_ID "unknown"
#endif
#endif
#ifndef SEARCHBENCH_CXX_COMPILER_VERSION
#ifdef __VERSION__
#define SEARCHBENCH_CXX_COMPILER_VERSION __VERSION__
#else
#define SEARCHBENCH_CXX_COMPILER_VERSION "unknown"
#endif
#endif

namespace searchbench::cli {

namespace context_detail {

// The value after `separator` on the first line of `path` that starts with `prefix`, trimmed
// of blanks and quotes; "" when the file or the line is missing.
inline std::string first_value(const char* path, const std::string& prefix, char separator) {
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto at = line.find(separator);
    if (at == std::string::npos) continue;
    std::string value = line.substr(at + 1);
    const auto first = value.find_first_not_of(" \t\"");
    const auto last = value.find_last_not_of(" \t\"\r");
    return first == std::string::npos ? "" : value.substr(first, last - first + 1);
  }
  return "";
}

// The 1-, 5- and 15-minute load averages as /proc/loadavg writes them (two decimals; empty
// when the system does not say).
inline std::vector<double> load_average() {
  std::ifstream f("/proc/loadavg");
  std::vector<double> loads(3);
  if (f >> loads[0] >> loads[1] >> loads[2]) return loads;
  double raw[3];
  const int n = ::getloadavg(raw, 3);
  loads.clear();
  for (int i = 0; i < n; ++i) loads.push_back(std::round(raw[i] * 100) / 100);
  return loads;
}

inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

inline std::string cpu_model() {
  // x86 names the model; other architectures use other keys.
  for (const char* key : {"model name", "Model", "Hardware", "cpu model", "cpu"})
    if (auto v = first_value("/proc/cpuinfo", key, ':'); !v.empty()) return v;
  struct utsname u {};
  return ::uname(&u) == 0 ? std::string(u.machine) + " CPU" : "unknown CPU";
}

inline std::uint64_t memory_bytes() {
  const std::string total = first_value("/proc/meminfo", "MemTotal:", ':');  // "131072000 kB"
  if (!total.empty()) return std::strtoull(total.c_str(), nullptr, 10) * 1024;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

inline std::string host_name() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : "unknown";
}

inline nlohmann::ordered_json libraries() {
  nlohmann::ordered_json j;
  j["onetbb"] = std::to_string(TBB_VERSION_MAJOR) + "." + std::to_string(TBB_VERSION_MINOR) + "." +
                std::to_string(TBB_VERSION_PATCH);
  j["onetbb_runtime"] = TBB_runtime_version();
  j["nlohmann_json"] = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) +
                       "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  j["cli11"] = CLI11_VERSION;
#ifdef SEARCHBENCH_HAVE_MPI
  // MPI_Get_library_version may be called before MPI_Init (MPI 3.0); its first clause names
  // the library ("Open MPI v4.1.4, package: ...").
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  std::string library = MPI_Get_library_version(text, &length) == MPI_SUCCESS ? std::string(text, std::max(length, 0)) : "";
  library = library.substr(0, library.find_first_of(",\n"));
  j["mpi"] = (library.empty() ? std::string("unknown") : library) + " (MPI " + std::to_string(MPI_VERSION) + "." +
             std::to_string(MPI_SUBVERSION) + ")";
#endif
  return j;
}

}  // namespace context_detail

// Started when a command starts (the date and the first load average), finished when it
// prints (the second load average).
class Context {
 public:
  Context() : date_(context_detail::utc_now()), load_start_(context_detail::load_average()) {}

  nlohmann::ordered_json json() const {
    using namespace context_detail;
    struct utsname u {};
    const bool named = ::uname(&u) == 0;
    nlohmann::ordered_json j;
    j["date"] = date_;
    j["host"] = host_name();
    j["cpu_model"] = cpu_model();
    j["cores"] = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    j["memory_bytes"] = memory_bytes();
    j["kernel"] = named ? std::string(u.sysname) + " " + u.release : "unknown";
    j["arch"] = named ? std::string(u.machine) : "unknown";
    const std::string os = first_value("/etc/os-release", "PRETTY_NAME=", '=');
    j["os"] = os.empty() ? "unknown" : os;
    j["compiler"] = SEARCHBENCH_CXX_COMPILER_ID;
    j["compiler_version"] = SEARCHBENCH_CXX_COMPILER_VERSION;
    j["build_type"] = std::string(SEARCHBENCH_BUILD_TYPE).empty() ? "none" : SEARCHBENCH_BUILD_TYPE;
    j["build_flags"] = SEARCHBENCH_BUILD_FLAGS;
    j["native"] = SEARCHBENCH_NATIVE_ON != 0;
    j["simd"] = std::string(kSimdLevel);
    j["libraries"] = libraries();
    j["load_average_start"] = load_start_;
    j["load_average_end"] = load_average();
    return j;
  }

 private:
  std::string date_;
  std::vector<double> load_start_;
};

}  // namespace searchbench::cli
