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

// Reads the file; std::runtime_error when it is missing or a line is malformed.
inline std::vector<KorfInstance> read_korf100(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<KorfInstance> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    KorfInstance k;
    int korf[16];
    fields >> k.number >> k.optimal;
    for (int& cell : korf) fields >> cell;
    if (!fields) throw std::runtime_error(path + ": malformed line '" + line + "'");
    // A half turn and tiles renamed t -> 16 - t: Korf's goal (blank first) becomes the suite's.
    int suite[16];
    for (int c = 0; c < 16; ++c) suite[15 - c] = korf[c] == 0 ? 0 : 16 - korf[c];
    for (int c = 0; c < 16; ++c) k.board += (c ? " " : "") + std::to_string(suite[c]);
    out.push_back(k);
  }
  return out;
}

}  // namespace searchbench
