// The top of one iteration of iterative-deepening A* (engines/idastar.hpp) listed for the
// threads of a parallel search to share (engines/idastar/share.hpp): every node at a split
// depth whose f fits the bound, in depth-first order, which is the lexicographic order of
// their paths. Taken one at a time in that order, such nodes keep the threads near each
// other in the tree, so the last iteration searches little past its solution, and hand out
// a large iteration's work with no asking.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/concepts.hpp"
#include "core/heuristic.hpp"
#include "engines/idastar/dive.hpp"

namespace searchbench {

// A piece of an iteration's work: the moves [first, limit) of a node at depth g, or a
// solution met above the split depth.
template <class State>
struct IdaPiece {
  State state;
  int g = 0, h = 0, last = -1, run = 0;
  int first = 0, limit = INT_MAX;
  std::string path;  // the moves from the root to the node
  std::string key;   // path, and the first move's letter where the piece starts past move 0
  bool given = false;     // split off another thread's dive (its node counted there)
  bool solution = false;  // the node is the target

  // An iteration's root, with all its moves.
  static IdaPiece root(const State& s, int h) {
    IdaPiece piece;
    piece.state = s;
    piece.h = h;
    return piece;
  }
};

// The listing's vectors, kept on the thread that lists them from one iteration and search
// to the next: new vectors of a few hundred kilobytes each iteration were fresh pages, whose
// faults cost a small search about as much as its listing.
template <class State>
struct IdaListing {
  std::vector<IdaPiece<State>> pieces, deeper;
  static IdaListing& of_this_thread() {
    thread_local IdaListing listing;
    return listing;
  }
  std::uint64_t bytes() const { return (pieces.capacity() + deeper.capacity()) * sizeof(IdaPiece<State>); }
};

template <Puzzle P>
class IdaLister {
 public:
  using State = typename P::State;
  using Piece = IdaPiece<State>;

  explicit IdaLister(const P& puzzle) : puzzle_(puzzle) {}

  // Lists the nodes under `bound` one level at a time, each node's children in its place (the
  // list stays in depth-first order and no level is listed twice: re-listing from the root
  // per depth was a serial phase as long as the search itself on Korf's 100), until there
  // are `wanted` or more. Returns the nodes expanded and generated on the way and the
  // smallest f cut.
  template <class H>
  IdaIteration list(const H& heuristic, const State& start, const State& target, int bound, std::size_t wanted,
                    IdaListing<State>& listing) const {
    std::vector<Piece>&pieces = listing.pieces, &deeper = listing.deeper;
    pieces.clear();
    IdaIteration above;
    list_below(heuristic, target, bound, 0, Piece::root(start, heuristic.estimate(start)), pieces, above);
    for (int depth = 1; depth <= bound && pieces.size() < wanted; ++depth) {
      deeper.clear();
      for (Piece& p : pieces) {
        if (p.solution) deeper.push_back(std::move(p));
        else list_below(heuristic, target, bound, depth, p, deeper, above);
      }
      std::swap(pieces, deeper);
    }
    for (Piece& p : pieces) p.key = p.path;
    return above;
  }

 private:
  // Every node at `depth` below `node` whose f fits the bound, plus solutions above it, in
  // depth-first order; `above` counts the nodes expanded and generated on the way.
  template <class H>
  void list_below(const H& heuristic, const State& target, int bound, int depth, const Piece& node, std::vector<Piece>& out,
                  IdaIteration& above) const {
    if (node.h == 0 && node.state == target) {
      out.push_back(node);
      out.back().solution = true;
      return;
    }
    if (node.g == depth) {
      out.push_back(node);
      return;
    }
    ++above.expanded;
    Piece child;
    child.g = node.g + 1;
    const int room = bound - child.g;
    const ChildScan scan = scan_children(
        puzzle_, heuristic, node.state, node.h, room, child.state,
        [&](int m) { return ida_skipped(puzzle_, node.last, node.run, m); },
        [&](int m, int hc) {
          ++above.generated;
          if (hc > room) {
            above.next_bound = std::min(above.next_bound, child.g + hc);
            return false;
          }
          child.h = hc;
          child.last = m;
          child.run = m == node.last ? node.run + 1 : 1;
          child.path = node.path + puzzle_.move_name(m);
          list_below(heuristic, target, bound, depth, child, out, above);
          return false;
        });
    if (scan.floor != INT_MAX) above.next_bound = std::min(above.next_bound, child.g + scan.floor);
  }

  const P& puzzle_;
};

}  // namespace searchbench
