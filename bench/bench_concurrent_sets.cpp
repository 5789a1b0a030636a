// The parallel engine's sparse visited set: ShardedDepthMap (256 mutex-guarded
// std::unordered_map shards) against TbbDepthMap (tbb::concurrent_unordered_map).
// Workload shaped like a BFS level: 4,000,000 claims of 2,000,000 distinct keys spread like
// the decimal encoder's (sparse 8-digit numbers), from 1 and 2 threads in one arena.
#include <benchmark/benchmark.h>

#include <random>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/concurrent_depth_map.hpp"

using namespace searchbench;

namespace {

const std::vector<Key>& claims() {
  static const std::vector<Key> keys = [] {
    std::mt19937_64 rng(11);
    std::vector<Key> distinct(2'000'000), out;
    for (auto& k : distinct) k = 10'000'000 + rng() % 90'000'000;
    out.reserve(2 * distinct.size());
    for (int twice = 0; twice < 2; ++twice) out.insert(out.end(), distinct.begin(), distinct.end());
    std::shuffle(out.begin(), out.end(), rng);
    return out;
  }();
  return keys;
}

template <class Map>
void claim_all(benchmark::State& state) {
  const auto& keys = claims();
  tbb::task_arena arena(static_cast<int>(state.range(0)));
  std::uint64_t won = 0;
  for (auto _ : state) {
    Map map(keys.size() / 2);
    std::atomic<std::uint64_t> wins{0};
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
        std::uint64_t local = 0;
        for (std::size_t i = r.begin(); i != r.end(); ++i) local += map.claim(keys[i], 1);
        wins.fetch_add(local, std::memory_order_relaxed);
      });
    });
    won = wins.load();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(keys.size()));  // claims per second
  state.counters["distinct"] = static_cast<double>(won);
}

}  // namespace

BENCHMARK_TEMPLATE(claim_all, ShardedDepthMap)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(claim_all, TbbDepthMap)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
