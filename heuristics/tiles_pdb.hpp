// Heuristic `pdb` of tiles-RxC: Korf & Felner's additive disjoint pattern databases.
//
// The tiles are split into disjoint patterns (--pattern). For each, a BFS over the pattern's
// abstraction (heuristics/tiles_pattern_space.hpp) gives the fewest moves of that pattern's
// tiles that bring them to their target cells, from any placement and blank region; the
// table keeps, per placement, the least over the regions. h(s) = the sum over the patterns
// of the table entry of s's placement.
// Admissible: each entry is a lower bound on the moves of its pattern's tiles in any
// solution (the abstraction is a relaxation), and each real move moves one tile, of exactly
// one pattern, so the moves the patterns need add up to at most the moves a solution makes.
// On square boards whose target has the blank on the main diagonal (the suite's goal has it
// last, bottom-right) the board reflected about that diagonal, its tiles relabelled so the
// target maps onto itself, is a state as far from the target as s (the reflection maps
// moves to moves); h = max(h(s), h(reflect(s))), admissible as the larger of two lower
// bounds, and the same tables serve both lookups.
// Four bits an entry: an entry is at least the Manhattan distance of its pattern's tiles
// (each move brings one tile one cell closer at best) and has its parity (each move changes
// that distance by one), so a table keeps only half the excess, (entry - md) / 2, in a
// nibble, and h = md(s) + 2 * (the nibbles' sum), md being the whole board's Manhattan
// distance, which the reflection leaves as it is. An excess past 30 is stored as 30: a
// smaller lower bound, still admissible (the build note counts such entries). So the 7-8
// split of the 15-puzzle holds 288 MB where a byte an entry took 577 MB, and more of it
// stays in the caches.
// Carried down IDA*'s search (NodeCache): each node's tile cells, Manhattan distance and
// per-pattern nibbles, regular and reflected. A move slides one tile t, which changes the
// regular lookup of t's pattern only and the reflected lookup of the pattern holding
// reflect(t) only: two table reads a child where estimate makes two per pattern.
// Not consistent, so not declared so: the least over the blank's regions is a
// min-compression, and a placement whose best region is one the blank cannot be in after a
// move can sit two or more below its neighbour. tests/test_pdb.cpp counts such edges on
// every state of the small boards (tiles-3x3 4-4: thousands; a single pattern of all the
// tiles, which has one region, none).
//
// Patterns: tiles-4x4 defaults to 6-6-3 (Korf & Felner's split, mirrored for the
// blank-last goal: the two 2x3 blocks of the left and right columns above the bottom row,
// and the bottom row's three tiles), and names 7-8 (the top two rows, the bottom two) and
// 5-5-5 too; tiles-5x5 to 6-6-6-6 (Korf & Felner's split of the 24-puzzle turned a half
// turn for the blank-last goal: three 2x3 blocks along the edges and the six tiles nearest
// the blank's corner); tiles-3x3 to 4-4; other boards to the tiles in row order, in as few
// patterns of at most 6 tiles as possible, of even sizes.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>


#include "core/heuristic_capabilities.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "core/search_options.hpp"
#include "heuristics/pattern_database.hpp"
#include "heuristics/pdb_file.hpp"
#include "heuristics/pdb_options.hpp"
#include "heuristics/tiles_pattern_space.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

// The patterns --pattern names for `board` ("" for its default), each tile 1..n-1 in
// exactly one, each pattern sorted; InputError with one line otherwise.
inline std::vector<std::vector<int>> tiles_patterns(const SlidingTiles& board, const std::string& option) {
  const int n = board.cells();
  std::string text = option;
  const bool square4 = board.rows() == 4 && board.columns() == 4, square3 = board.rows() == 3 && board.columns() == 3;
  const bool square5 = board.rows() == 5 && board.columns() == 5;
  if (square5 && (text.empty() || text == "6-6-6-6")) text = "1,2,3,6,7,8/4,5,9,10,14,15/11,12,16,17,21,22/13,18,19,20,23,24";
  else if (square4 && (text.empty() || text == "6-6-3")) text = "1,2,5,6,9,10/3,4,7,8,11,12/13,14,15";
  else if (square4 && text == "7-8") text = "1,2,3,4,5,6,7,8/9,10,11,12,13,14,15";
  else if (square4 && text == "5-5-5") text = "1,2,3,5,6/4,7,8,11,12/9,10,13,14,15";
  else if (square3 && (text.empty() || text == "4-4")) text = "1,2,4,5/3,6,7,8";
  std::vector<std::vector<int>> patterns;
  if (text.empty()) {  // row order, ceil((n-1)/6) patterns of even sizes
    const int tiles = n - 1, count = (tiles + 5) / 6;
    for (int p = 0, next = 1; p < count; ++p) {
      patterns.emplace_back();
      for (int size = tiles / count + (p < tiles % count ? 1 : 0); size > 0; --size) patterns.back().push_back(next++);
    }
    return patterns;
  }
  if (text.find_first_not_of("0123456789,/ ") != std::string::npos)
    throw InputError("--pattern '" + option + "' is neither tile numbers split by ',' and '/' nor a split " + board.name() +
                     " names" + (square5 ? " (6-6-6-6)" : square4 ? " (6-6-3, 7-8, 5-5-5)" : square3 ? " (4-4)" : " (it names none)"));
  std::uint32_t seen = 0;
  for (const auto& members : split_pattern_list(text)) {
    patterns.emplace_back();
    for (const auto& m : members) {
      const int tile = pattern_number(m, 1, n - 1, "tile of " + board.name(), option);
      if (seen & (1u << tile)) throw InputError("--pattern '" + option + "': tile " + m + " is in more than one pattern");
      seen |= 1u << tile;
      patterns.back().push_back(tile);
    }
    std::sort(patterns.back().begin(), patterns.back().end());
  }
  for (int tile = 1; tile < n; ++tile)
    if (!(seen & (1u << tile)))
      throw InputError("--pattern '" + option + "': tile " + std::to_string(tile) + " is in no pattern (each of 1.." +
                       std::to_string(n - 1) + " must be in exactly one)");
  return patterns;
}

class TilesPdb {
 public:
  using Cells = std::array<std::uint8_t, TilesState::kBytes>;  // a value per tile or per cell
  static constexpr int kMaxPatterns = SlidingTiles::kMaxCells - 1;  // each holds a tile at least
  static constexpr std::string_view kName = "pdb";
  static constexpr std::string_view kSummary =
      "additive disjoint pattern databases (Korf & Felner), with the diagonal reflection on square boards";
  static constexpr HeuristicCapabilities kCapabilities{.node_cache = true, .build_note = true};
  using Options = PdbOptions;
  using State = TilesState;

  static std::string fits(const SlidingTiles&) { return {}; }

  TilesPdb(const SlidingTiles& board, const State& target, const Options& options, const SearchOptions& search)
      : n_(board.cells()) {
    for (int c = 0; c < n_; ++c) target_where_[target.cells[c]] = static_cast<std::uint8_t>(c);
    const int blank = target_where_[SlidingTiles::kBlank], cols = board.columns();
    reflects_ = board.rows() == cols && blank / cols == blank % cols;
    // The reflection about the diagonal, on square boards whose target has the blank on it;
    // elsewhere the identity (a transposed cell of a non-square board is off the board).
    for (int c = 0; c < n_; ++c) transpose_[c] = static_cast<std::uint8_t>(reflects_ ? (c % cols) * cols + c / cols : c);
    for (int v = 0; v < n_; ++v) relabel_[v] = target.cells[transpose_[target_where_[v]]];
    Cells unrelabel{};  // the tile whose reflection is v (relabel_ is its own inverse where the reflection applies)
    for (int v = 0; v < n_; ++v) unrelabel[relabel_[v]] = static_cast<std::uint8_t>(v);
    for (int v = 1; v < n_; ++v)
      for (int c = 0; c < n_; ++c) manhattan_[v][c] = static_cast<std::uint8_t>(cell_distance(c, target_where_[v], cols));
    const auto patterns = tiles_patterns(board, options.pattern);
    check_memory_up_front(board, target, patterns, options, search);
    for (const auto& tiles : patterns) {
      tables_.push_back(Table{tiles, PartialPermutationRank(n_, static_cast<int>(tiles.size())), {}, {}, {}});
      for (std::size_t i = 0; i < tiles.size(); ++i) {
        tables_.back().members[i] = static_cast<std::uint8_t>(tiles[i]);
        tables_.back().mirror_members[i] = unrelabel[tiles[i]];
        pattern_of_[tiles[i]] = static_cast<std::uint8_t>(tables_.size() - 1);
      }
      std::string note;
      std::uint64_t capped = 0;
      const PdbFileKey key = file_key(board, tiles, target);
      tables_.back().nibbles = cached_pdb_table(
          options.pdb_cache, key, [&] { return build_table(board, tiles, target, search, capped); }, note);
      if (capped) note += " (" + std::to_string(capped) + " entries capped at the Manhattan distance + 30)";
      append_listed(note_, "; ", "pattern " + key.pattern + ": " + note);
    }
  }

  int estimate(const State& s) const {
    Cells where;
    int md = 0;
    for (int c = 0; c < n_; ++c) {
      where[s.cells[c]] = static_cast<std::uint8_t>(c);
      md += manhattan_[s.cells[c]][c];
    }
    if (!reflects_) return md + 2 * sum_over_patterns(where);
    Cells mirrored;
    for (int v = 1; v < n_; ++v) mirrored[relabel_[v]] = transpose_[where[v]];
    // Both orientations' lookups side by side, so that their cache misses overlap.
    int excess = 0, reflected = 0;
    for (const auto& t : tables_) {
      excess += entry(t, where);
      reflected += entry(t, mirrored);
    }
    return md + 2 * std::max(excess, reflected);
  }
  // What a node carries (see the top): trivially constructible, so that a search's arrays
  // of them are not cleared first.
  struct NodeCache {
    Cells where;                                        // per tile (the blank's too), its cell
    std::array<std::uint8_t, kMaxPatterns> half, mirrored;  // per pattern, its nibble in s and in reflect(s)
    std::int16_t md, excess, reflected;                 // the Manhattan distance, each orientation's nibble sum
  };
  NodeCache cache_of(const State& s) const {
    NodeCache c;
    c.md = 0;
    c.excess = c.reflected = 0;
    for (int cell = 0; cell < n_; ++cell) {
      c.where[s.cells[cell]] = static_cast<std::uint8_t>(cell);
      c.md = static_cast<std::int16_t>(c.md + manhattan_[s.cells[cell]][cell]);
    }
    for (std::size_t p = 0; p < tables_.size(); ++p) {
      c.half[p] = static_cast<std::uint8_t>(entry(tables_[p], c.where));
      c.excess = static_cast<std::int16_t>(c.excess + c.half[p]);
      c.mirrored[p] = reflects_ ? static_cast<std::uint8_t>(reflected_entry(tables_[p], c.where)) : 0;
      c.reflected = static_cast<std::int16_t>(c.reflected + c.mirrored[p]);
    }
    return c;
  }
  // The tile that slid went from the child's blank cell to the parent's.
  int estimate_child(const State&, const NodeCache& parent, int, const State& child, NodeCache& c) const {
    const int to = parent.where[SlidingTiles::kBlank], tile = child.cells[to], from = parent.where[tile];
    c = parent;
    c.where[tile] = static_cast<std::uint8_t>(to);
    c.where[SlidingTiles::kBlank] = static_cast<std::uint8_t>(from);
    c.md = static_cast<std::int16_t>(parent.md - manhattan_[tile][from] + manhattan_[tile][to]);
    const int p = pattern_of_[tile];
    c.half[p] = static_cast<std::uint8_t>(entry(tables_[p], c.where));
    c.excess = static_cast<std::int16_t>(parent.excess - parent.half[p] + c.half[p]);
    if (!reflects_) return c.md + 2 * c.excess;
    const int q = pattern_of_[relabel_[tile]];
    c.mirrored[q] = static_cast<std::uint8_t>(reflected_entry(tables_[q], c.where));
    c.reflected = static_cast<std::int16_t>(parent.reflected - parent.mirrored[q] + c.mirrored[q]);
    return c.md + 2 * std::max(c.excess, c.reflected);
  }

  std::uint64_t bytes() const {
    std::uint64_t total = 0;
    for (const auto& t : tables_) total += t.nibbles.size();
    return total;
  }
  std::string build_note() const { return note_; }

  // For the tests: the patterns, whether the reflection applies, one pattern's entry for s
  // (its tiles' fewest moves, as the table holds it), a pattern's stored nibbles.
  std::vector<std::vector<int>> patterns() const {
    std::vector<std::vector<int>> out;
    for (const auto& t : tables_) out.push_back(t.tiles);
    return out;
  }
  bool reflects() const { return reflects_; }
  int pattern_value(std::size_t pattern, const State& s) const {
    Cells where;
    for (int c = 0; c < n_; ++c) where[s.cells[c]] = static_cast<std::uint8_t>(c);
    return distance(tables_[pattern], where);
  }
  const std::vector<std::uint8_t>& nibbles(std::size_t pattern) const { return tables_[pattern].nibbles; }
  int stored_distance(std::size_t pattern, Key placement) const {
    const Table& t = tables_[pattern];
    Cells cells{}, where{};
    t.rank.unrank(placement, cells.data());
    for (std::size_t i = 0; i < t.tiles.size(); ++i) where[t.members[i]] = cells[i];
    return distance(t, where);
  }

 private:
  struct Table {
    std::vector<int> tiles;
    PartialPermutationRank rank;
    std::vector<std::uint8_t> nibbles;         // per placement rank, half the excess (see the top)
    Cells members{};  // the tiles again, as the lookups read them
    Cells mirror_members{};  // per tile of the pattern, the tile whose reflection it is
  };
  static constexpr int kMaxHalfExcess = 15;

  static int cell_distance(int a, int b, int cols) { return std::abs(a / cols - b / cols) + std::abs(a % cols - b % cols); }

  // The placement's rank: PartialPermutationRank::rank over the cells where[] gives,
  // without copying them out first (one multiply-add and one popcount per tile).
  // cell_of(i): the cell of the pattern's i-th tile.
  template <class CellOf>
  Key index(const Table& t, CellOf cell_of) const {
    Key r = 0;
    std::uint32_t used = 0;
    const int k = static_cast<int>(t.tiles.size());
    for (int i = 0; i < k; ++i) {
      const unsigned x = cell_of(i);
      r = r * static_cast<Key>(n_ - i) + (x - static_cast<unsigned>(std::popcount(used & ((1u << x) - 1))));
      used |= 1u << x;
    }
    return r;
  }
  static int nibble(const Table& t, Key i) { return (t.nibbles[i >> 1] >> ((i & 1) * 4)) & 15; }
  // Half the excess of the placement's entry over its tiles' Manhattan distance.
  int entry(const Table& t, const Cells& where) const {
    return nibble(t, index(t, [&](int i) -> unsigned { return where[t.members[i]]; }));
  }
  // The same for the reflected board, read from s's cells (estimate's `mirrored` unbuilt).
  int reflected_entry(const Table& t, const Cells& where) const {
    return nibble(t, index(t, [&](int i) -> unsigned { return transpose_[where[t.mirror_members[i]]]; }));
  }
  // The entry as the table means it: the pattern's tiles' Manhattan distance plus the excess.
  int distance(const Table& t, const Cells& where) const {
    int md = 0;
    for (const int tile : t.tiles) md += manhattan_[tile][where[tile]];
    return md + 2 * entry(t, where);
  }
  int sum_over_patterns(const Cells& where) const {
    int h = 0;
    for (const auto& t : tables_) h += entry(t, where);
    return h;
  }

  static PdbFileKey file_key(const SlidingTiles& board, const std::vector<int>& tiles, const State& target) {
    return {board.name(), std::string(kName), pattern_text(tiles), board.format(target),
            PartialPermutationRank(board.cells(), static_cast<int>(tiles.size())).count(), 4};
  }

  // Every pattern that will be built, checked before the first BFS runs: a 7-8 split that
  // cannot fit is refused at once, not after its first database took minutes. (A pattern
  // whose cache file exists is left to be checked if that file turns out to be damaged.)
  void check_memory_up_front(const SlidingTiles& board, const State& target, const std::vector<std::vector<int>>& patterns,
                             const Options& options, const SearchOptions& search) const {
    const auto folder = pdb_cache_folder(options.pdb_cache);
    std::uint64_t tables = 0;
    for (const auto& tiles : patterns) tables += file_key(board, tiles, target).payload_bytes();
    search.memory.check_up_front(tables, "the pattern databases of " + board.name(), "holding ");  // loaded or built
    for (const auto& tiles : patterns) {
      const int k = static_cast<int>(tiles.size());
      const Key placements = PartialPermutationRank(n_, k).count();
      const PdbFileKey key = file_key(board, tiles, target);
      if (struct stat st {}; folder && ::lstat(pdb_file_path(*folder, key).c_str(), &st) == 0) continue;
      search.memory.check_up_front(pdb_build_bytes(placements * static_cast<Key>(n_ - k), placements, tables),
                                   "the pattern database of " + board.name() + " tiles " + key.pattern);
    }
  }

  // The BFS over the pattern's abstraction, then per placement the least over its regions,
  // stored as half its excess over the placement's Manhattan distance; `capped` counts the
  // entries whose excess did not fit.
  std::vector<std::uint8_t> build_table(const SlidingTiles& board, const std::vector<int>& tiles, const State& target,
                                        const SearchOptions& search, std::uint64_t& capped) const {
    const TilesPatternSpace space(board, tiles, target);
    const TilesPatternRank rank(space);
    const PartialPermutationRank placement_rank(n_, static_cast<int>(tiles.size()));
    const Key placements = rank.placements(), regions = rank.regions_per_placement();
    std::vector<std::uint8_t> nibbles;
    std::atomic<std::uint64_t> over{0};
    const std::string what = "the pattern database of " + board.name() + " tiles " + pattern_text(tiles);
    explore_to_goal(space, rank, space.start(), search, placements, (placements + 1) / 2, what, [&](const auto& depth_of) {
      nibbles.assign((placements + 1) / 2, 0);
      parallel_chunks(nibbles.size(), kPdbChunk, [&](Key begin, Key end) {
        std::uint64_t capped_here = 0;
        Cells cells{};
        for (Key byte = begin; byte != end; ++byte)
          for (Key p = 2 * byte; p < std::min(2 * byte + 2, placements); ++p) {
            int best = kUnreachedPdbEntry;
            for (Key r = 0; r < regions; ++r)
              if (const int d = depth_of(p * regions + r); d >= 0) best = std::min(best, d);
            placement_rank.unrank(p, cells.data());
            int md = 0;
            for (std::size_t i = 0; i < tiles.size(); ++i) md += manhattan_[tiles[i]][cells[i]];
            int half = kMaxHalfExcess;  // a placement that cannot reach the target: any value is admissible
            if (best != kUnreachedPdbEntry) {
              if (best < md || (best - md) % 2 != 0)
                throw std::logic_error(what + ": an entry below its Manhattan distance or of the other parity");
              capped_here += (best - md) / 2 > kMaxHalfExcess;
              half = std::min(kMaxHalfExcess, (best - md) / 2);
            }
            nibbles[byte] |= static_cast<std::uint8_t>(half << ((p & 1) * 4));
          }
        over.fetch_add(capped_here, std::memory_order_relaxed);
      });
    });
    capped = over.load();
    return nibbles;
  }

  int n_;
  bool reflects_ = false;
  Cells target_where_{}, transpose_{}, relabel_{};
  Cells pattern_of_{};  // per tile, the pattern that holds it
  std::array<Cells, SlidingTiles::kMaxCells> manhattan_{};  // [tile][cell]: cells to its target cell (the blank's: 0)
  std::vector<Table> tables_;
  std::string note_;
};

}  // namespace searchbench
