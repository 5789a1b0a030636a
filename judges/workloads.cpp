#include "judges/workloads.hpp"

#include <map>
#include <random>

#include "registry/registry.hpp"

namespace searchbench {

std::vector<JudgeWorkload> judge_workloads() { return {{"sicily1151", "msquare", "all-40320", {"ring", "naive"}}}; }

const JudgeInput& judge_input(const JudgeWorkload& workload) {
  static std::map<std::string, JudgeInput> cache;
  const auto cached = cache.find(workload.judge);
  if (cached != cache.end()) return cached->second;
  // Every board, drawn as the ends of random walks until all 8! are met, in sorted order;
  // each one a case with a move limit of 30 (every board is within 22 moves).
  const auto puzzle = make_puzzle(workload.puzzle);
  std::mt19937_64 rng(7);
  std::map<std::string, bool> seen;
  for (int i = 0; seen.size() < 40320 && i < 2'000'000; ++i) seen.emplace(puzzle->random_state(rng()), true);
  JudgeInput in;
  for (const auto& [board, _] : seen) in.text += "30\n" + board.substr(0, board.find('/')) + "\n" + board.substr(board.find('/') + 1) + "\n";
  in.text += "-1\n";
  in.cases = seen.size();
  return cache.emplace(workload.judge, std::move(in)).first->second;
}

}  // namespace searchbench
