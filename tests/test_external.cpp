// The out-of-core engine against the in-memory parallel engine: the same per-depth counts
// with segments small enough that almost every successor crosses to another segment's file,
// at 1 and 2 threads; the memory refusal; and the checkpoint's rules (a finished folder
// answers --resume with its counts, a folder of another search or a second fresh run is
// refused). Killing a run and resuming it is tested end to end in test_cli.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/offset_runs.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/external/incoming.hpp"
#include "known_facts.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

// seed_keys: the keys the first depths may hold in memory (0: passes from depth 0; none:
// what the memory limit holds, which is the whole space for the smaller puzzles).
struct Case {
  std::string puzzle;
  std::uint64_t segment_keys;
  int threads;
  std::optional<std::uint64_t> seed_keys = 0;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.puzzle << "/" << c.segment_keys << "/t" << c.threads << "/seed " << (c.seed_keys ? std::to_string(*c.seed_keys) : "auto");
}

std::vector<std::uint64_t> parallel_counts(const std::string& puzzle) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = "parallel";
  c.options.keep_table = false;
  return make_solver(c)->explore().depth_counts;
}

SolverConfig external(const std::string& puzzle, int threads, std::uint64_t segment_keys, const std::string& workdir = "",
                      std::optional<std::uint64_t> seed_keys = 0) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = "external";
  c.options.threads = threads;
  c.options.keep_table = false;
  c.options.memory = MemoryBudget::of(4 << 20);
  c.engine_options["segment-keys"] = std::to_string(segment_keys);
  if (!workdir.empty()) c.engine_options["workdir"] = workdir;
  if (seed_keys) c.engine_options["seed-keys"] = std::to_string(*seed_keys);
  return c;
}

// A fresh folder under the test's temp dir, removed with its contents afterwards.
struct ScratchFolder {
  std::string path;
  explicit ScratchFolder(const std::string& name)
      : path(::testing::TempDir() + "/searchbench_external_" + name + "_" + std::to_string(getpid())) {
    std::filesystem::remove_all(path);
  }
  ~ScratchFolder() { std::filesystem::remove_all(path); }
};

class ExternalCounts : public ::testing::TestWithParam<Case> {};

TEST_P(ExternalCounts, MatchTheParallelEngine) {
  const Case& k = GetParam();
  const SearchResult r = make_solver(external(k.puzzle, k.threads, k.segment_keys, "", k.seed_keys))->explore();
  EXPECT_GE(r.extra<std::uint64_t>("segments"), 5u) << "the case should spread over several segments";
  EXPECT_EQ(r.depth_counts, parallel_counts(k.puzzle));
  if (k.puzzle == "msquare-2x4") {
    EXPECT_EQ(r.depth_counts, facts::kMsquare2x4Depths);
  }
  if (k.puzzle == "sicily1515") {
    EXPECT_EQ(r.depth_counts, facts::kSicily1515Depths);
  }
  EXPECT_EQ(r.expanded, r.states());
  if (k.seed_keys) {
    EXPECT_GT(r.extra<std::uint64_t>("bytes_written"), 0u);
  } else {
    EXPECT_EQ(r.extra<std::uint64_t>("bytes_written"), 0u) << "the whole search fits the memory limit: no cells are written";
  }
  EXPECT_EQ(r.extra<std::int64_t>("resumed_from"), -1);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (int threads : {1, 2}) {
    out.push_back({"msquare-2x4", 2048, threads});
    out.push_back({"msquare-2x5", 1 << 18, threads});
    out.push_back({"sicily1515", 2048, threads});
    for (const char* checkers : {"checkers-13", "checkers-14", "checkers-15"}) out.push_back({checkers, 2048, threads});
    // The first depths in memory, then passes (about the first half of the depths), or the
    // whole search in memory.
    out.push_back({"msquare-2x5", 1 << 18, threads, 20'000});
    out.push_back({"checkers-15", 2048, threads, 5'000});
    out.push_back({"msquare-2x4", 2048, threads, std::nullopt});
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto& seed = info.param.seed_keys;
  std::string n = info.param.puzzle + "_t" + std::to_string(info.param.threads) +
                  (seed == 0 ? "" : "_seed" + (seed ? std::to_string(*seed) : std::string("auto")));
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Segments, ExternalCounts, ::testing::ValuesIn(cases()), case_name);

TEST(External, MaxDepthStopsAfterThatDepth) {
  const std::vector<std::uint64_t> first(facts::kMsquare2x4Depths.begin(), facts::kMsquare2x4Depths.begin() + 8);
  for (const std::optional<std::uint64_t> seed : {std::optional<std::uint64_t>{0}, std::optional<std::uint64_t>{100},
                                                  std::optional<std::uint64_t>{}}) {
    SolverConfig c = external("msquare-2x4", 2, 2048, "", seed);
    c.options.max_depth = 7;
    EXPECT_EQ(make_solver(c)->explore().depth_counts, first) << (seed ? std::to_string(*seed) : "auto");
  }
}

// A run whose first depths were found in memory: the manifest says how many, and the
// sample states it keeps for every depth (from the sorted levels, then from the passes'
// cells) are each found by a point query at that depth.
TEST(External, SampleStatesOfEveryDepthLieAtThatDepth) {
  ScratchFolder folder("samples");
  SolverConfig c = external("msquare-2x4", 2, 1 << 14, folder.path, 400);  // three segments: few syncs
  const auto counts = make_solver(c)->explore().depth_counts;
  EXPECT_EQ(counts, facts::kMsquare2x4Depths);
  std::ifstream in(folder.path + "/manifest.json");
  const auto manifest = nlohmann::json::parse(in);
  const int seeded = manifest.at("seeded_depths");
  EXPECT_GT(seeded, 3);
  EXPECT_LT(seeded, static_cast<int>(counts.size()) - 3);
  SolverConfig bidir;
  bidir.puzzle = "msquare-2x4";
  bidir.engine = "bidir";
  const auto solver = make_solver(bidir);
  for (std::size_t d = 0; d < counts.size(); ++d) {
    const auto samples = manifest.at("samples").at(std::to_string(d));
    EXPECT_GE(samples.size(), 1u) << "depth " << d;
    for (const auto& state : samples) EXPECT_EQ(solver->search(state.get<std::string>()).distance, static_cast<int>(d)) << state;
  }
}

TEST(External, RefusesAMemoryLimitBelowTheSmallestWorkingSet) {
  SolverConfig c = external("msquare-2x5", 2, 0);
  c.options.memory = MemoryBudget::of(20 << 10);
  try {
    make_solver(c)->explore();
    FAIL() << "a 20 KiB limit was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("too small"), std::string::npos) << e.what();
  }
}

TEST(External, NeedsAPerfectEncoder) {
  SolverConfig c = external("msquare-2x4", 1, 0);
  c.encoder = "bitpack";
  EXPECT_THROW(make_solver(c), InputError);
  EXPECT_EQ(applicable_encoders(parse_puzzle("msquare-2x4"), "external"), std::vector<std::string>{"cantor"});
}

TEST(External, CheckpointFolderBelongsToOneSearch) {
  ScratchFolder folder("checkpoint");
  // Three segments: every pass syncs each file it wrote, which takes real time on a disk.
  const auto counts = make_solver(external("msquare-2x4", 2, 1 << 14, folder.path))->explore().depth_counts;
  EXPECT_EQ(counts, facts::kMsquare2x4Depths);
  EXPECT_TRUE(std::filesystem::exists(folder.path + "/manifest.json"));

  // Finished: --resume answers from the manifest.
  SolverConfig resume = external("msquare-2x4", 1, 0, folder.path);
  resume.engine_options["resume"] = "true";
  const auto again = make_solver(resume)->explore();
  EXPECT_EQ(again.depth_counts, counts);
  EXPECT_EQ(again.extra<std::int64_t>("resumed_from"), static_cast<std::int64_t>(counts.size()));

  // A fresh run into the same folder, or a resume of another puzzle, is refused.
  EXPECT_THROW(make_solver(external("msquare-2x4", 1, 2048, folder.path))->explore(), InputError);
  SolverConfig other = external("sicily1515", 1, 0, folder.path);
  other.engine_options["resume"] = "true";
  try {
    make_solver(other)->explore();
    FAIL() << "a folder of msquare-2x4 resumed sicily1515";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("holds a run of msquare-2x4"), std::string::npos) << e.what();
  }
  SolverConfig nothing = external("msquare-2x4", 1, 0, folder.path + "/empty");
  nothing.engine_options["resume"] = "true";
  EXPECT_THROW(make_solver(nothing)->explore(), InputError);
}

}  // namespace

// Successor lists applied to a segment: runs whose offsets crowd one window take several
// rounds of the bounded buffers (here 1,024 offsets a thread), and every unseen cell named
// is claimed once, whatever the thread count; cells seen before are left alone.
TEST(External, AppliedRunsClaimEachUnseenCellOnce) {
  constexpr std::uint64_t keys = std::uint64_t{1} << 26;  // four windows
  for (const int threads : {1, 2}) {
    TwoBitCells cells(keys);
    cells.clear(0, cells.words());
    std::vector<unsigned char> batch;
    external::RunBatch runs;
    std::set<std::uint32_t> expected;
    std::mt19937 random(7);
    for (int r = 0; r < 9; ++r) {
      std::vector<std::uint32_t> offsets;
      for (std::uint32_t k = 1000 + r; k < 60'000; k += 3 + r % 4) offsets.push_back(k);  // crowded at the start
      for (int i = 0; i < 3000; ++i) offsets.push_back(static_cast<std::uint32_t>(random() % keys));  // spread
      std::sort(offsets.begin(), offsets.end());
      offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
      const std::size_t at = batch.size();
      OffsetRuns::encode(offsets.data(), offsets.size(), batch);
      OffsetRunHeader h;
      std::memcpy(&h, batch.data() + at, sizeof h);
      batch.erase(batch.begin() + static_cast<std::ptrdiff_t>(at), batch.begin() + static_cast<std::ptrdiff_t>(at + sizeof h));
      runs.emplace_back(h, at);
      expected.insert(offsets.begin(), offsets.end());
    }
    for (std::uint32_t k = 2000; k < 2100; ++k) cells.mark_key(k, TwoBitCells::kDone);  // seen before
    std::uint64_t unseen = 0;
    for (const std::uint32_t k : expected) unseen += k < 2000 || k >= 2100;
    external::ApplyBuffers buffers;
    tbb::task_arena arena(threads);
    const std::uint64_t claimed =
        arena.execute([&] { return external::apply_runs(batch, runs, keys, cells, 1, "next", buffers, 1024); });
    EXPECT_EQ(claimed, unseen) << threads << " thread(s)";
    std::uint64_t with_code = 0;
    for (std::uint64_t k = 0; k < keys; ++k) with_code += cells.get(k) == 1;
    EXPECT_EQ(with_code, unseen);
    for (std::uint32_t k = 2000; k < 2100; ++k) EXPECT_EQ(cells.get(k), TwoBitCells::kDone);
  }
}
