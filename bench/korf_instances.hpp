// Korf's instance sets in the suite's convention (blank last): the 100 15-puzzles
// (bench/data/korf100.txt) and Korf and Felner's 50 24-puzzles (bench/data/korf-felner50.txt).
// The benchmarks and the tests read them from here.
#pragma once

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace searchbench {

struct KorfInstance {
  int number = 0;
  int optimal = 0;    // the published optimal length
  std::string board;  // the cells in row order, blank last in the goal ("1 2 ... n-1 0")
};

// Parses Korf's format (number, optimal length, then the cells of a square board with the
// blank first in the goal; '#' lines and blank lines skipped); std::runtime_error naming
// `origin` when a line is malformed or its board size differs from the first line's.
inline std::vector<KorfInstance> parse_korf_instances(std::istream& in, const std::string& origin) {
  std::vector<KorfInstance> out;
  std::size_t cells = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    KorfInstance k;
    std::vector<int> korf;
    fields >> k.number >> k.optimal;
    for (int cell; fields >> cell;) korf.push_back(cell);
    const auto side = static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(korf.size()))));
    if (cells == 0) cells = korf.size();
    if (!fields.eof() || korf.size() != cells || side * side != cells || cells < 4)
      throw std::runtime_error(origin + ": malformed line '" + line + "'");
    // A half turn and tiles renamed t -> n - t: Korf's goal (blank first) becomes the suite's.
    const int n = static_cast<int>(cells);
    std::vector<int> suite(cells);
    for (int c = 0; c < n; ++c) suite[n - 1 - c] = korf[c] == 0 ? 0 : n - korf[c];
    for (int c = 0; c < n; ++c) {
      if (c) k.board += ' ';
      k.board += std::to_string(suite[c]);
    }
    out.push_back(k);
  }
  return out;
}

// Reads the file; std::runtime_error when it is missing or a line is malformed.
inline std::vector<KorfInstance> read_korf_instances(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return parse_korf_instances(in, path);
}

// The data files as compiled into bench_search (cmake/bench_search.cmake embeds them), so an
// installed bench_search needs no source tree.
extern const char* const kKorf100Text;
extern const char* const kKorfFelner50Text;

// A built-in set by the name a benchmark plan gives it ("korf100", "korf-felner50");
// std::invalid_argument for another name.
inline std::vector<KorfInstance> builtin_instances(std::string_view name) {
  const char* text = name == "korf100" ? kKorf100Text : name == "korf-felner50" ? kKorfFelner50Text : nullptr;
  if (!text) throw std::invalid_argument("no built-in instance set '" + std::string(name) + "'");
  std::istringstream in(text);
  return parse_korf_instances(in, "bench/data/" + std::string(name) + ".txt (built in)");
}

}  // namespace searchbench
