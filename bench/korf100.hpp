// Korf's 100 15-puzzle instances (bench/data/korf100.txt), in the suite's convention (blank
// last): the benchmarks and the tests read them from here.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace searchbench {

struct KorfInstance {
  int number = 0;
  int optimal = 0;    // the published optimal length
  std::string board;  // the 16 cells in row order, blank last in the goal ("1 2 ... 15 0")
};

// Parses Korf's format (number, optimal length, the 16 cells blank first; '#' lines and
// blank lines skipped); std::runtime_error naming `origin` when a line is malformed.
inline std::vector<KorfInstance> parse_korf100(std::istream& in, const std::string& origin) {
  std::vector<KorfInstance> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    KorfInstance k;
    int korf[16];
    fields >> k.number >> k.optimal;
    for (int& cell : korf) fields >> cell;
    if (!fields) throw std::runtime_error(origin + ": malformed line '" + line + "'");
    // A half turn and tiles renamed t -> 16 - t: Korf's goal (blank first) becomes the suite's.
    int suite[16];
    for (int c = 0; c < 16; ++c) suite[15 - c] = korf[c] == 0 ? 0 : 16 - korf[c];
    for (int c = 0; c < 16; ++c) {
      if (c) k.board += ' ';
      k.board += std::to_string(suite[c]);
    }
    out.push_back(k);
  }
  return out;
}

// Reads the file; std::runtime_error when it is missing or a line is malformed.
inline std::vector<KorfInstance> read_korf100(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return parse_korf100(in, path);
}

// bench/data/korf100.txt as compiled into bench_search (bench/CMakeLists.txt embeds it), so
// an installed bench_search needs no source tree.
extern const char* const kKorf100Text;

inline std::vector<KorfInstance> builtin_korf100() {
  std::istringstream in(kKorf100Text);
  return parse_korf100(in, "bench/data/korf100.txt (built in)");
}

}  // namespace searchbench
