// Many point-to-point distance queries: bidirectional BFS that answers the number of
// moves only (no path), built for judges that ask dozens of questions in one process,
// on instances of one puzzle type that may differ from query to query.
//
// * One direct table of one byte per key (a perfect, dense encoder sized to the
//   component), allocated once and reused by every query and every instance: a byte holds
//   the query's stamp for the side that reached the key, so nothing is cleared between
//   queries; the table is wiped once every 126 queries when the stamps wrap, and grows
//   (a fresh zeroed table) only when an instance has more keys than any before.
// * Frontiers hold states, not keys: a state is encoded once when generated and never
//   decoded. Their buffers are reused too, so a query allocates nothing once the buffers
//   have grown (and touches no fresh pages: page faults cost more than the search on the
//   small instances).
// * Each round grows the smaller frontier by one whole level. Stopping rule: while the two
//   visited balls (radii rf and rb) are disjoint, every path is longer than rf + rb; the
//   first successor that the other side already holds closes a path of rf + 1 + rb moves,
//   so that is the distance and the search stops at once.
// The backward side uses the inverse moves (apply_inverse), as the bidir engine does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class BidirDistance {
 public:
  using State = typename P::State;

  // Fewest moves from `a` to `b` on `puzzle` with keys from `enc` (dense), or -1 when `b`
  // is not reachable from `a`.
  int distance(const P& puzzle, const E& enc, const State& a, const State& b) {
    if (!puzzle.same_component(a, b)) return -1;
    const Key ka = enc.encode(a), kb = enc.encode(b);
    if (ka == kb) return 0;
    if (!enc.dense()) throw InputError(std::string(E::kName) + " keys are not dense: a distance table needs a direct table");
    reserve(enc.key_bound());
    next_stamp();
    const std::uint8_t stamp_f = stamp_, stamp_b = stamp_ + 1;
    marks_[ka] = stamp_f;
    marks_[kb] = stamp_b;
    front_f_.assign(1, a);
    front_b_.assign(1, b);
    int radius_f = 0, radius_b = 0;
    while (!front_f_.empty() && !front_b_.empty()) {
      const bool forward = front_f_.size() <= front_b_.size();
      const std::uint8_t mine = forward ? stamp_f : stamp_b, other = forward ? stamp_b : stamp_f;
      auto& front = forward ? front_f_ : front_b_;
      next_.clear();
      State succ;
      for (const State& s : front) {
        for (int m = 0; m < puzzle.move_count(); ++m) {
          if (!(forward ? puzzle.apply(s, m, succ) : puzzle.apply_inverse(s, m, succ))) continue;
          std::uint8_t& mark = marks_[enc.encode(succ)];
          if (mark == other) return radius_f + radius_b + 1;
          if (mark == mine) continue;
          mark = mine;
          next_.push_back(succ);
        }
      }
      ++(forward ? radius_f : radius_b);
      front.swap(next_);
    }
    return -1;
  }

 private:
  void reserve(Key bound) {
    if (bound <= size_) return;
    marks_.reset(static_cast<std::uint8_t*>(std::calloc(bound, 1)));
    if (!marks_) throw BudgetError("bidir distance: no memory for a table of " + std::to_string(bound) + " bytes");
    size_ = bound;
    stamp_ = 0;
  }
  // Two stamps per query (forward, backward): even values 2..252 and their successors.
  void next_stamp() {
    if (stamp_ >= 252) {
      std::fill_n(marks_.get(), size_, std::uint8_t{0});
      stamp_ = 0;
    }
    stamp_ += 2;
  }

  struct Free {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint8_t[], Free> marks_;
  Key size_ = 0;
  std::uint8_t stamp_ = 0;
  std::vector<State> front_f_, front_b_, next_;
};

}  // namespace searchbench
