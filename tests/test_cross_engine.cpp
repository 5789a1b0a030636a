// The cross-engine regression matrix: every engine x every applicable encoder x thread
// counts {1, 2, 4} ({1, 2} for the heuristic engines) on every family's test examples, generated from the registry, so a new
// engine, encoder or family is covered with no edit here. For each puzzle:
//  * whole-space engines give identical per-depth counts (and the published ones, where known),
//    with and without a kept table, and, from their tables, byte-identical paths to every
//    state of the component (counts-only engines: the counts);
//  * bidir answers a point query for every state with the family's perfect ranking (cantor,
//    combinatorial, ...) and for a fixed random sample of 2,000 with the other encoders;
//    iddfs for a sample of 300 plus every state at the maximum depth;
//  * the heuristic engines (idastar, astar) with every heuristic of the family that fits:
//    a sample of 20 targets plus 5 of the deepest (a heuristic is built per target), but
//    for idastar only targets within kDeepeningDepth moves, kBlindTreeDepth with the blind
//    heuristic (it keeps no visited set, so its trees grow exponentially with the distance:
//    the blind heuristic at the magic board's depth 22 would take hours);
//    an engine that returns any shortest path (astar) is checked for the length and for
//    moves that lead from the start to the target;
// all compared with the answers of the naive textbook engine. Spaces of more than
// kWholeSpaceLimit states (the 2x2x2 cube) are checked the same way within kNearDepth moves
// of the start: every engine runs with that depth limit, and the targets are every state
// within it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>

#include "all_states.hpp"
#include "core/errors.hpp"
#include "known_facts.hpp"
#include "registry/registry.hpp"
#include "sanitizer_build.hpp"

using namespace searchbench;
using searchbench::testing_support::all_states;

namespace {

struct Case {
  std::string puzzle, engine, encoder;
  int threads;
  std::string heuristic;  // heuristic engines only
};

constexpr std::uint64_t kWholeSpaceLimit = 1'000'000;
constexpr int kNearDepth = 4;
constexpr int kDeepeningDepth = 14;
// Without a heuristic idastar's iterations are whole trees (hanoi4-6 at 14 moves: minutes).
constexpr int kBlindTreeDepth = 9;

// -1 (no limit) or the depth limit the puzzle is checked within.
int depth_limit(const std::string& puzzle) {
  return state_space_size(parse_puzzle(puzzle)) > kWholeSpaceLimit ? kNearDepth : -1;
}

struct Reference {
  std::vector<std::uint64_t> depth_counts;
  std::vector<std::string> targets;  // every state of the component (within the depth limit)
  std::vector<std::string> paths;    // the naive engine's path to each target
  std::vector<std::string> deepest;
};

const Reference& reference(const std::string& puzzle) {
  static std::map<std::string, Reference> cache;
  if (auto it = cache.find(puzzle); it != cache.end()) return it->second;
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = "naive";
  c.options.max_depth = depth_limit(puzzle);
  auto naive = make_solver(c);
  Reference ref;
  ref.depth_counts = naive->explore().depth_counts;
  ref.targets = c.options.max_depth < 0 ? all_states(puzzle) : naive->puzzle().states_within(c.options.max_depth);
  for (const auto& t : ref.targets) {
    auto p = naive->table_path(t);
    ref.paths.push_back(p ? *p : "-");
    if (p && static_cast<int>(p->size()) == static_cast<int>(ref.depth_counts.size()) - 1) ref.deepest.push_back(t);
  }
  return cache.emplace(puzzle, std::move(ref)).first->second;
}

// Readable parameter in test logs instead of a byte dump.
void PrintTo(const Case& k, std::ostream* os) {
  *os << k.puzzle << "/" << k.engine << (k.heuristic.empty() ? "" : ":" + k.heuristic) << "/" << k.encoder << "/t" << k.threads;
}

class CrossEngine : public ::testing::TestWithParam<Case> {};

TEST_P(CrossEngine, AgreesWithTheReferenceOnEveryAnswer) {
  const Case& k = GetParam();
  const Reference& ref = reference(k.puzzle);
  SolverConfig c = Combination{k.engine, k.encoder, k.threads, k.heuristic}.config(k.puzzle);
  c.options.max_depth = depth_limit(k.puzzle);
  // A pattern database per target: kept in memory, not written to a cache file each.
  for (const auto& family : families())
    for (const auto& h : family.heuristics)
      for (const auto& o : h.options)
        if (h.name == k.heuristic && o.name == "pdb-cache" && parse_puzzle(k.puzzle).family == family.name)
          c.heuristic_options["pdb-cache"] = "none";
  auto solver = make_solver(c);
  const EngineInfo& info = engine_info(k.engine);

  if (k.puzzle == "msquare-2x4") {
    ASSERT_EQ(ref.depth_counts, facts::kMsquare2x4Depths);
  }
  if (k.puzzle == "sicily1515-2x4") {
    ASSERT_EQ(ref.depth_counts, facts::kSicily1515Depths);
  }
  ASSERT_EQ(ref.paths.size(), ref.targets.size());

  if (info.whole_space) {
    const SearchResult whole = solver->explore();
    ASSERT_EQ(whole.depth_counts, ref.depth_counts);
    for (std::size_t i = 0; i < ref.targets.size() && !info.counts_only; ++i) {
      const auto p = solver->table_path(ref.targets[i]);
      ASSERT_EQ(p ? *p : "-", ref.paths[i]) << "target " << ref.targets[i];
    }
    // Counts-only runs (the CLI's and the benchmarks' mode) take other code paths, e.g. the
    // parallel engine's two-bit levels, direction-optimizing or top-down only.
    const auto& declared = engine_info(c.engine).options;
    const bool declares_top_down =
        std::any_of(declared.begin(), declared.end(), [](const OptionSpec& s) { return s.name == "top-down"; });
    for (const bool bottom_up : {true, false}) {
      if (!bottom_up && !declares_top_down) continue;  // one strategy only: nothing more to compare
      SolverConfig counts_only = c;
      counts_only.options.keep_table = false;
      if (!bottom_up) counts_only.engine_options["top-down"] = "true";
      ASSERT_EQ(make_solver(counts_only)->explore().depth_counts, ref.depth_counts)
          << "counts only, " << (bottom_up ? "direction-optimizing" : "top-down");
    }
  }
  // Point queries: every target for bidir with a perfect encoder, samples otherwise, plus
  // the deepest targets. Counts-only engines refuse them.
  if (info.counts_only) {
    EXPECT_THROW(solver->search(ref.targets.front()), InputError);
    return;
  }
  const bool perfect = is_perfect_encoder(parse_puzzle(k.puzzle), k.encoder);
  std::vector<std::size_t> picks;
  if (k.engine == "bidir" && perfect) {
    picks.resize(ref.targets.size());
    std::iota(picks.begin(), picks.end(), 0);
  } else {
    std::mt19937 rng(12345);
    // A heuristic is built for each target (a pattern database is a BFS of its own): fewer.
    const std::size_t sample = info.uses_heuristic ? 20 : k.engine == "bidir" ? 2000 : k.engine == "iddfs" ? 300 : 200;
    const std::size_t deepest = info.uses_heuristic ? 5 : ref.targets.size();
    for (std::size_t i = 0; i < std::min(sample, ref.targets.size()); ++i) picks.push_back(rng() % ref.targets.size());
    for (std::size_t i = 0, taken = 0; i < ref.targets.size() && taken < deepest; ++i)
      if (std::find(ref.deepest.begin(), ref.deepest.end(), ref.targets[i]) != ref.deepest.end()) {
        picks.push_back(i);
        ++taken;
      }
  }
  if (info.uses_heuristic && !info.whole_space && k.engine == "idastar") {
    const std::size_t within = k.heuristic == "blind" ? kBlindTreeDepth : kDeepeningDepth;
    picks.erase(std::remove_if(picks.begin(), picks.end(),
                               [&](std::size_t i) { return ref.paths[i] != "-" && ref.paths[i].size() > within; }),
                picks.end());
    // Few samples within reach (a blind tree on a deep space): the deepest targets within it too.
    if (picks.size() < 5) {
      std::vector<std::size_t> reachable;
      for (std::size_t i = 0; i < ref.targets.size(); ++i)
        if (ref.paths[i] != "-" && ref.paths[i].size() <= within) reachable.push_back(i);
      std::stable_sort(reachable.begin(), reachable.end(),
                       [&](std::size_t a, std::size_t b) { return ref.paths[a].size() > ref.paths[b].size(); });
      for (std::size_t j = 0; j < std::min<std::size_t>(5, reachable.size()); ++j) picks.push_back(reachable[j]);
    }
    ASSERT_GE(picks.size(), 5u) << "fewer than 5 targets within " << within << " moves";
  }
  for (std::size_t i : picks) {
    const SearchResult r = solver->search(ref.targets[i]);
    ASSERT_EQ(r.distance, r.found ? static_cast<int>(r.path.size()) : -1);
    if (info.any_optimal_path) {
      ASSERT_EQ(r.found ? static_cast<int>(r.path.size()) : -1, ref.paths[i] == "-" ? -1 : static_cast<int>(ref.paths[i].size()))
          << "target " << ref.targets[i];
      if (r.found) {
        ASSERT_EQ(solver->puzzle().follow(r.path), solver->puzzle().normalize_state(ref.targets[i])) << r.path;
      }
      continue;
    }
    ASSERT_EQ(r.found ? r.path : "-", ref.paths[i]) << "target " << ref.targets[i];
  }
}

// Under ThreadSanitizer, only the cases at two threads, on each family's smallest test
// example (none for a family whose smallest has more than kThreadSanitizedStates states:
// under TSan a pattern database of the 2x2x2 cube alone takes minutes): the races are found
// there, and the whole matrix under TSan would take most of the test run. Which engines run
// threads is their own declaration (kCapabilities), so a new threaded engine is checked for
// races with no list to update.
constexpr std::uint64_t kThreadSanitizedStates = 1'000'000;

std::vector<std::string> matrix_examples(const FamilyInfo& family) {
  if (!searchbench_tests::kThreadSanitized) return family.test_examples;
  std::string smallest;
  std::uint64_t fewest = kThreadSanitizedStates + 1;
  for (const auto& p : family.test_examples)
    if (const std::uint64_t states = state_space_size(parse_puzzle(p)); states < fewest) {
      fewest = states;
      smallest = p;
    }
  return smallest.empty() ? std::vector<std::string>{} : std::vector<std::string>{smallest};
}

std::vector<Case> matrix() {
  std::vector<Case> cases;
  for (const auto& family : families())
    for (const auto& p : matrix_examples(family))
      for (const auto& c : combinations(parse_puzzle(p), {1, 2, 4}, false, true)) {
        // Heuristic engines split their work the same way at any thread count above one.
        if (c.threads > 2 && engine_info(c.engine).uses_heuristic) continue;
        if (searchbench_tests::kThreadSanitized && c.threads != 2) continue;
        cases.push_back({p, c.engine, c.encoder, c.threads, c.heuristic});
      }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.puzzle + "_" + info.param.engine + (info.param.heuristic.empty() ? "" : "_" + info.param.heuristic) +
                  "_" + info.param.encoder + "_t" + std::to_string(info.param.threads);
  std::replace_if(n.begin(), n.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(Matrix, CrossEngine, ::testing::ValuesIn(matrix()), case_name);

// The matrix reaches every engine of the engine list (but the distributed ones, which run
// one MPI job per process: their tests run them under mpiexec, tests/CMakeLists.txt) and
// every encoder of every family.
TEST(MatrixCoverage, EveryEngineAndEveryFamilysEncodersAreInTheMatrix) {
  // The ThreadSanitizer build's matrix: every threaded engine (the encoders are the full
  // matrix's concern).
  const bool threads_only = searchbench_tests::kThreadSanitized;
  const std::vector<Case> cases = matrix();
  for (const auto& engine : engines())
    if (!engine.distributed && (engine.threaded || !threads_only)) {
      EXPECT_TRUE(std::any_of(cases.begin(), cases.end(), [&](const Case& c) { return c.engine == engine.name; })) << engine.name;
    }
  if (threads_only) return;
  for (const auto& family : families()) {
    ASSERT_FALSE(family.test_examples.empty()) << family.name;
    for (const auto& encoder : family.encoders) {
      const bool covered = std::any_of(cases.begin(), cases.end(), [&](const Case& c) {
        return c.encoder == encoder && parse_puzzle(c.puzzle).family == family.name;
      });
      EXPECT_TRUE(covered) << family.name << " encoder " << encoder << " fits none of its test examples";
    }
    for (const auto& h : family.heuristics) {
      const bool covered = std::any_of(cases.begin(), cases.end(), [&](const Case& c) {
        return c.heuristic == h.name && parse_puzzle(c.puzzle).family == family.name;
      });
      EXPECT_TRUE(covered) << family.name << " heuristic " << h.name << " fits none of its test examples";
    }
  }
}

}  // namespace
