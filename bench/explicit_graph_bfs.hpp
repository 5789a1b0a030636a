// A yardstick, not an engine: breadth-first search over the state graph made explicit in
// memory, in the style of the GAP Benchmark Suite's BFS (Beamer, Asanovic and Patterson's
// direction-optimizing BFS), the best-known explicit-graph BFS. Published GAP times on
// the msquare 2x5 graph come from another machine; this measures the same algorithm in the
// same run as the implicit engines, so the comparison is a ratio on one machine.
//
// * The graph (out-edges and in-edges in CSR form, 32-bit vertex ids = the encoder's keys,
//   which `searchbench export` writes too) is built before timing, as GAP loads its graph
//   beforehand.
// * Per vertex a 32-bit depth claimed by compare-and-swap (GAP keeps a 32-bit parent).
// * Top-down levels expand a frontier list; bottom-up levels scan the unvisited vertices'
//   in-edges against a frontier bitmap and stop at the first hit. GAP's switching rule:
//   bottom-up once the frontier's edges exceed the unexplored edges / 15, back to top-down
//   when the frontier falls below n / 18 (constant degree here, so edges ~ vertices).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/edge_list.hpp"        // CsrGraph
#include "core/parallel_chunks.hpp"

namespace searchbench {

class ExplicitGraphBfs {
 public:
  ExplicitGraphBfs(const CsrGraph& out, const CsrGraph& in, int threads)
      : out_(out), in_(in), threads_(threads), n_(out.vertices()), depth_(new std::atomic<std::int32_t>[n_]),
        words_((n_ + 63) / 64), frontier_bits_(new std::atomic<std::uint64_t>[words_]),
        next_bits_(new std::atomic<std::uint64_t>[words_]) {}

  // Per-depth counts from `source`.
  std::vector<std::uint64_t> run(std::uint32_t source) {
    std::vector<std::uint64_t> counts{1};
    tbb::task_arena arena(threads_);
    arena.execute([&] {
      parallel_chunks(n_, 1 << 14, [&](std::uint64_t b, std::uint64_t e) {
        for (std::uint64_t v = b; v != e; ++v) depth_[v].store(-1, std::memory_order_relaxed);
      });
      depth_[source].store(0, std::memory_order_relaxed);
      std::vector<std::uint32_t> frontier{source};
      std::uint64_t frontier_size = 1, unvisited = n_ - 1;
      bool bottom_up = false;
      for (std::int32_t d = 0; frontier_size > 0; ++d) {
        const bool go_bottom_up = bottom_up ? frontier_size >= n_ / 18 : frontier_size > unvisited / 15;
        if (go_bottom_up && !bottom_up) list_to_bits(frontier);
        if (!go_bottom_up && bottom_up) frontier = bits_to_list();
        bottom_up = go_bottom_up;
        frontier_size = bottom_up ? bottom_up_level(d) : top_down_level(frontier, d);
        unvisited -= frontier_size;
        if (frontier_size) counts.push_back(frontier_size);
      }
    });
    return counts;
  }

 private:
  std::uint64_t top_down_level(std::vector<std::uint32_t>& frontier, std::int32_t d) {
    tbb::enumerable_thread_specific<std::vector<std::uint32_t>> found;
    parallel_chunks(frontier.size(), 256, [&](std::uint64_t b, std::uint64_t e) {
      auto& local = found.local();
      for (std::uint64_t i = b; i != e; ++i) {
        const std::uint32_t u = frontier[i];
        for (std::uint64_t j = out_.offsets[u]; j != out_.offsets[u + 1]; ++j) {
          const std::uint32_t v = out_.targets[j];
          std::int32_t unseen = -1;
          if (depth_[v].load(std::memory_order_relaxed) == -1 &&
              depth_[v].compare_exchange_strong(unseen, d + 1, std::memory_order_relaxed))
            local.push_back(v);
        }
      }
    });
    frontier.clear();
    for (auto& local : found) frontier.insert(frontier.end(), local.begin(), local.end());
    return frontier.size();
  }

  std::uint64_t bottom_up_level(std::int32_t d) {
    std::atomic<std::uint64_t> total{0};
    parallel_chunks(words_, 256, [&](std::uint64_t wb, std::uint64_t we) {
      std::uint64_t count = 0;
      for (std::uint64_t w = wb; w != we; ++w) {
        std::uint64_t next = 0;
        const std::uint64_t end = std::min<std::uint64_t>(n_, (w + 1) * 64);
        for (std::uint64_t v = w * 64; v != end; ++v) {
          if (depth_[v].load(std::memory_order_relaxed) != -1) continue;
          for (std::uint64_t j = in_.offsets[v]; j != in_.offsets[v + 1]; ++j) {
            const std::uint32_t u = in_.targets[j];
            if ((frontier_bits_[u / 64].load(std::memory_order_relaxed) >> (u % 64)) & 1u) {
              depth_[v].store(d + 1, std::memory_order_relaxed);
              next |= std::uint64_t{1} << (v % 64);
              ++count;
              break;
            }
          }
        }
        next_bits_[w].store(next, std::memory_order_relaxed);
      }
      total.fetch_add(count, std::memory_order_relaxed);
    });
    frontier_bits_.swap(next_bits_);
    return total.load();
  }

  void list_to_bits(const std::vector<std::uint32_t>& frontier) {
    for (std::uint64_t w = 0; w < words_; ++w) frontier_bits_[w].store(0, std::memory_order_relaxed);
    for (const std::uint32_t u : frontier) frontier_bits_[u / 64].fetch_or(std::uint64_t{1} << (u % 64), std::memory_order_relaxed);
  }
  std::vector<std::uint32_t> bits_to_list() const {
    std::vector<std::uint32_t> list;
    for (std::uint64_t w = 0; w < words_; ++w)
      for (std::uint64_t bits = frontier_bits_[w].load(std::memory_order_relaxed); bits; bits &= bits - 1)
        list.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits))));
    return list;
  }

  const CsrGraph& out_;
  const CsrGraph& in_;
  int threads_;
  std::uint32_t n_;
  std::unique_ptr<std::atomic<std::int32_t>[]> depth_;
  std::uint64_t words_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> frontier_bits_, next_bits_;
};

}  // namespace searchbench
