// The state graph made explicit, for side-by-side runs with explicit-graph BFS codes (the
// GAP Benchmark Suite reads this `.el` format): one "from to" pair of keys per line, one
// line per move that applies, in key order and move order. Multi-edges (two moves giving
// the same successor) are kept, so the edge count is states x moves for magic boards.
//
// Keys are the encoder's, and every key must be a state (a perfect encoder: cantor,
// combinatorial), so the vertices are exactly 0 .. key_bound-1 and nothing is left out
// or invented. Lines are formatted with std::to_chars into a large buffer, since graphs
// of millions of edges are the point. Every 4096 lines the writer polls for SIGINT, SIGTERM
// and SIGHUP (core/interrupt.hpp: one relaxed atomic load), so an interrupted export stops
// within microseconds and unwinds through whoever owns the output file.
#pragma once

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"

namespace searchbench {

// Calls edge(from, to) for every move that applies to every key of a perfect encoder, in
// key order and move order; along the inverse moves (the in-edges) when `inverse`.
template <Puzzle P, Encoder<P> E, class Edge>
void for_each_edge(const P& puzzle, const E& enc, bool inverse, Edge edge) {
  static_assert(every_key_is_state<E>(), "the explicit graph needs a perfect encoder");
  typename P::State next;
  for (Key k = 0; k < enc.key_bound(); ++k) {
    const typename P::State state = enc.decode(k);
    for (int m = 0; m < puzzle.move_count(); ++m)
      if (inverse ? puzzle.apply_inverse(state, m, next) : puzzle.apply(state, m, next)) edge(k, enc.encode(next));
  }
}

struct EdgeListSummary {
  Key start_key = 0;
  std::uint64_t vertices = 0;
  std::uint64_t edges = 0;
};

template <Puzzle P, Encoder<P> E>
EdgeListSummary write_edge_list(const P& puzzle, const E& enc, const typename P::State& start, std::FILE* out) {
  if constexpr (!every_key_is_state<E>()) {
    throw InputError(std::string("export needs an encoder whose every key is a state; '") + std::string(E::kName) +
                     "' is not one (use cantor or combinatorial)");
  } else {
    EdgeListSummary summary{enc.encode(start), enc.key_bound(), 0};
    std::vector<char> buffer(1 << 20);
    std::size_t used = 0;
    auto flush = [&] {
      if (used && std::fwrite(buffer.data(), 1, used, out) != used) {
        const int error = errno;
        throw_if_interrupted();  // a signal cut a blocked write short (EINTR): stop as asked
        throw OutputError(std::string("cannot write the edge list: ") + std::strerror(error));
      }
      used = 0;
    };
    for_each_edge(puzzle, enc, false, [&](Key from, Key to) {
      if (buffer.size() - used < 48) flush();  // room for two 20-digit keys
      char* p = buffer.data() + used;
      p = std::to_chars(p, p + 21, from).ptr;
      *p++ = ' ';
      p = std::to_chars(p, p + 21, to).ptr;
      *p++ = '\n';
      used = static_cast<std::size_t>(p - buffer.data());
      if ((++summary.edges & 4095) == 0) throw_if_interrupted();
    });
    flush();
    if (std::fflush(out) != 0) {
      const int error = errno;
      throw_if_interrupted();
      throw OutputError(std::string("cannot write the edge list: ") + std::strerror(error));
    }
    return summary;
  }
}

// The same graph in compressed sparse row form, for explicit-graph BFS codes run in memory
// (the benchmarks' GAP-style yardstick): 32-bit vertex ids, the encoder's keys.
struct CsrGraph {
  std::vector<std::uint64_t> offsets;  // edges of v: targets[offsets[v] .. offsets[v+1])
  std::vector<std::uint32_t> targets;
  std::uint32_t vertices() const { return static_cast<std::uint32_t>(offsets.size() - 1); }
};

// Out-edges (inverse = false) or in-edges (inverse = true) of every key of a perfect encoder.
// The edges come in key order (for_each_edge above), so each vertex's run ends where the
// next vertex's begins.
template <Puzzle P, Encoder<P> E>
CsrGraph build_csr(const P& puzzle, const E& enc, bool inverse) {
  CsrGraph g;
  const Key n = enc.key_bound();
  g.offsets.assign(n + 1, 0);
  g.targets.reserve(n * static_cast<Key>(puzzle.move_count()));
  for_each_edge(puzzle, enc, inverse, [&](Key from, Key to) {
    g.targets.push_back(static_cast<std::uint32_t>(to));
    g.offsets[from + 1] = g.targets.size();
  });
  for (Key v = 1; v <= n; ++v) g.offsets[v] = std::max(g.offsets[v], g.offsets[v - 1]);  // vertices with no edge
  return g;
}

}  // namespace searchbench
