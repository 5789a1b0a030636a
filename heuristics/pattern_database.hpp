// The generic part of a pattern database: the distances of an abstract space, computed by the
// suite's own parallel BFS (engines/parallel_bfs.hpp) with a kept table.
//
// An abstraction is a Puzzle (the abstract states and moves) with a dense Encoder (a perfect
// ranking where possible). Its distances must run from each state TO the abstract target,
// because that is what a heuristic estimates. Where every move has a one-move inverse, a BFS
// from the target gives those; where some do not (the magic board's B and C: undoing B takes
// K-1 more B moves) the move graph is directed and a BFS from the target would give the
// distances FROM it. So the BFS always runs over InverseMoves<S>, whose move m is S's
// apply_inverse of m: a path target -> x of inverse moves is a path x -> target of forward
// moves, in every space, with or without one-move inverses. That costs nothing where the
// inverses exist (tiles' apply_inverse is one apply).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/parallel_chunks.hpp"
#include "core/errors.hpp"
#include "core/progress_reporter.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "engines/parallel_bfs.hpp"

namespace searchbench {

// Space S with each move replaced by its inverse: BFS from the target over these moves
// reaches x at depth d exactly when x needs d forward moves to reach the target.
template <Puzzle S>
class InverseMoves {
 public:
  using State = typename S::State;
  explicit InverseMoves(const S& inner) : inner_(inner) {}
  const S& inner() const { return inner_; }

  std::string name() const { return inner_.name() + " (inverse moves)"; }
  State start() const { return inner_.start(); }
  int move_count() const { return inner_.move_count(); }
  char move_name(int m) const { return inner_.move_name(m); }
  bool apply(const State& s, int m, State& out) const { return inner_.apply_inverse(s, m, out); }
  bool apply_inverse(const State& s, int m, State& out) const { return inner_.apply(s, m, out); }
  // m undoes m' forward exactly when m's inverse undoes m''s inverse.
  int inverse_move(int m) const { return inner_.inverse_move(m); }
  int move_order(int m) const { return inner_.move_order(m); }
  std::uint64_t component_size(const State& s) const { return inner_.component_size(s); }
  bool same_component(const State& a, const State& b) const { return inner_.same_component(a, b); }
  State parse(std::string_view text) const { return inner_.parse(text); }
  std::string format(const State& s) const { return inner_.format(s); }

 private:
  const S& inner_;
};

// S's encoder E, for InverseMoves<S> (the keys do not depend on which way moves go).
template <Puzzle S, Encoder<S> E>
class InverseMovesEncoder {
 public:
  static constexpr std::string_view kName = E::kName;
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const InverseMoves<S>& space) { return E::fits(space.inner()); }
  explicit InverseMovesEncoder(const InverseMoves<S>& space) : enc_(space.inner()) {}
  explicit InverseMovesEncoder(const E& enc) : enc_(enc) {}
  Key encode(const typename S::State& s) const { return enc_.encode(s); }
  typename S::State decode(Key k) const { return enc_.decode(k); }
  Key key_bound() const { return enc_.key_bound(); }
  bool dense() const { return enc_.dense(); }

 private:
  E enc_;
};

// The largest distance a table byte holds; 255 marks an abstract state that cannot reach
// the target (its real states cannot either, so any value is admissible there).
inline constexpr int kMaxPdbDistance = 254;
inline constexpr std::uint8_t kUnreachedPdbEntry = 255;

// What building a database over `key_bound` abstract keys holds at its peak: a bit and a
// depth byte per key (engines/parallel/dense_visited.hpp), the frontier lists (the level
// being expanded and the next, together at most the about `states_guess` states, a key
// each: both lists near their largest meet at the BFS's widest levels), and the caller's
// `extra_bytes`.
inline std::uint64_t pdb_build_bytes(Key key_bound, std::uint64_t states_guess, std::uint64_t extra_bytes) {
  return key_bound / 8 + key_bound + states_guess * sizeof(Key) + extra_bytes;
}

// Runs the BFS to `goal` over `space` and hands `fold` a reader of the distances,
// depth_of(key) -> distance or -1 (the reader lives only during the call). `extra_bytes`:
// what the caller's table will hold besides the BFS's visited table and frontiers, for the
// memory check made before anything is allocated. `what` names the database in messages.
template <Puzzle S, Encoder<S> E, class Fold>
void explore_to_goal(const S& space, const E& enc, const typename S::State& goal, const SearchOptions& search,
                     std::uint64_t states_guess, std::uint64_t extra_bytes, const std::string& what, Fold&& fold) {
  if (!enc.dense()) throw InputError(what + " needs a dense key space, and " + std::to_string(enc.key_bound()) + " keys are not");
  search.memory.check_up_front(pdb_build_bytes(enc.key_bound(), states_guess, extra_bytes), what);
  SearchOptions options = search;
  options.keep_table = true;  // the depths are the point
  options.max_depth = -1;
  options.progress = {};      // the caller's progress is its query's, not this build's
  options.heartbeat_seconds = 0;
  const InverseMoves<S> inverse(space);
  const InverseMovesEncoder<S, E> inverse_enc(enc);
  ParallelBfs<InverseMoves<S>, InverseMovesEncoder<S, E>> bfs(inverse, inverse_enc, options);
  SearchResult result;
  try {  // the query's time limit covers its databases' builds
    result = bfs.explore(goal);
  } catch (TimeLimitReached& e) {
    e.at.kind = ProgressEvent::Kind::heartbeat;
    e.at.detail = "building " + what;
    throw;
  }
  if (result.radius() > kMaxPdbDistance)
    throw InputError(what + " has distances up to " + std::to_string(result.radius()) + ", more than a byte per entry holds");
  // The caller's pass over the table runs on the threads the build may use, no more.
  tbb::task_arena arena(runnable_threads(search.threads));
  arena.execute([&] { fold([&bfs](Key k) { return bfs.depth_mod_of(k); }); });
}

// Keys per chunk of the parallel loops that read a finished BFS into a table.
inline constexpr Key kPdbChunk = Key{1} << 14;

// The table of a space whose keys index the table directly (the magic board's and the cube's
// placements): each key's distance, kUnreachedPdbEntry where the target cannot be reached.
template <Puzzle S, Encoder<S> E>
std::vector<std::uint8_t> direct_pdb_table(const S& space, const E& enc, const SearchOptions& search, const std::string& what) {
  const Key bound = enc.key_bound();
  search.memory.check_up_front(pdb_build_bytes(bound, bound, bound), what);  // before the table below is allocated
  std::vector<std::uint8_t> values(bound, kUnreachedPdbEntry);
  explore_to_goal(space, enc, space.start(), search, bound, bound, what, [&](const auto& depth_of) {
    parallel_chunks(bound, kPdbChunk, [&](Key begin, Key end) {
      for (Key k = begin; k != end; ++k)
        if (const int d = depth_of(k); d >= 0) values[k] = static_cast<std::uint8_t>(d);
    });
  });
  return values;
}

}  // namespace searchbench
