// Checkers encoder `combinatorial`: a perfect table. The N-1 pieces left when the hole is
// taken out form one of C(N-1, k) arrangements of k '#' among '@'; its rank in the
// combinatorial number system (sum over the '#' positions p_0 < p_1 < ... of C(p_j, j+1))
// times N, plus the hole, numbers every reachable state exactly once. Fits every N <= 32.
//
// Speed (whole-space searches decode each state once and encode each successor): the
// pieces' '#' mask comes out of the 2-bit cells by gathering their low bits (even_bits) and
// closing the gap at the hole with two shifts. The lowest 16 pieces are
// ranked and unranked by table (their rank within the block of masks with the same '#'
// count: 2 x 128 KiB); above them, ranking looks up a second table indexed by the '#'
// count below and the high mask (up to 12 high pieces, N <= 29), and unranking walks the
// high pieces greedily without branches. Two shifts open the gap at the hole again and the
// bits are spread back into cells.
// The plainer loops over the '#' pieces are kept as encode_by_pieces / decode_by_greedy
// (the tests check both against each other).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <mutex>
#include <string>
#include <vector>
#include "core/concepts.hpp"
#include "core/fast_pdep.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

// Binomial coefficients C(n, r), n, r <= 32, as constants.
namespace checkers_binomials {
using Table = std::array<std::array<Key, 33>, 33>;
constexpr Table binomials(bool zero_is_never) {
  Table c{};
  for (int n = 0; n <= 32; ++n) {
    c[n][0] = 1;
    for (int r = 1; r <= 32; ++r) c[n][r] = n == 0 ? 0 : c[n - 1][r - 1] + c[n - 1][r];
  }
  if (zero_is_never)
    for (auto& row : c) row[0] = ~Key{0};
  return c;
}
inline constexpr Table kChoose = binomials(false);
inline constexpr Table kUnranking = binomials(true);  // C(p, 0) = "never", for the greedy walk
}  // namespace checkers_binomials

class CheckersCombinatorial {
 public:
  static constexpr std::string_view kName = "combinatorial";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true};  // a perfect rank
  static std::string fits(const CheckersLine&) { return {}; }
  explicit CheckersCombinatorial(const CheckersLine& p) : n_(p.cells()), k_(p.hashes()) {
    const RankTables& t = tables_for(n_);
    arrangements_ = kChoose[n_ - 1][k_];
    low_pieces_ = t.low_pieces;
    high_pieces_ = t.high_pieces;
    low_mask_ = t.low_mask;
    low_block_ = t.low_block.data();
    low_rank_ = t.low_rank.data();
    low_unrank_ = t.low_unrank.data();
    high_rank_ = t.high_rank.data();
  }
  Key encode(const CheckersState& s) const {
    const std::uint64_t pieces = hash_pieces(s);  // bit p: piece p (hole skipped) is '#'
    const std::uint64_t low = pieces & low_mask_, high = pieces >> low_pieces_;
    const Key high_part = high_pieces_ <= kMaxHighTablePieces
                              ? high_rank_[(static_cast<std::uint64_t>(std::popcount(low)) << high_pieces_) | high]
                              : rank_by_loop(pieces, low_pieces_, std::popcount(low) + 1);
    return (low_rank_[low] + high_part) * static_cast<Key>(n_) + s.hole;
  }
  CheckersState decode(Key k) const {
    const int hole = static_cast<int>(k % static_cast<Key>(n_));
    Key rank = k / static_cast<Key>(n_);
    int remaining = k_;
    std::uint64_t pieces = greedy(rank, remaining, low_pieces_);
    pieces |= low_unrank_[low_block_[remaining] + rank];
    return place(pieces, hole);
  }
  Key key_bound() const { return arrangements_ * static_cast<Key>(n_); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

  // The same maps without tables, for tests and benchmarks.
  Key encode_by_pieces(const CheckersState& s) const { return rank_by_loop(hash_pieces(s), 0, 1) * static_cast<Key>(n_) + s.hole; }
  CheckersState decode_by_greedy(Key k) const {
    Key rank = k / static_cast<Key>(n_);
    int remaining = k_;
    return place(greedy(rank, remaining, 0), static_cast<int>(k % static_cast<Key>(n_)));
  }

 private:
  // Sum over the '#' pieces at or above `from` of C(p, j), j counting on from `first_index`.
  static Key rank_by_loop(std::uint64_t pieces, int from, int first_index) {
    pieces &= ~std::uint64_t{0} << from;
    Key rank = 0;
    for (int j = first_index; pieces; ++j, pieces &= pieces - 1) rank += kChoose[std::countr_zero(pieces)][j];
    return rank;
  }
  // Greedy from the last piece down to piece `stop`: piece p is '#' when C(p, remaining) <=
  // rank. Branch-free: kUnranking holds C(p, 0) as "never", so the walk stops taking once
  // all k are placed. Leaves the rank and count of the pieces below `stop`.
  std::uint64_t greedy(Key& rank, int& remaining, int stop) const {
    std::uint64_t pieces = 0;
    for (int piece = n_ - 2; piece >= stop; --piece) {
      const Key c = kUnranking[piece][remaining];
      const bool take = c <= rank;
      rank -= take ? c : 0;
      remaining -= take;
      pieces |= std::uint64_t{take} << piece;
    }
    return pieces;
  }
  CheckersState place(std::uint64_t pieces, int hole) const {
    CheckersState s;
    s.hole = static_cast<std::uint8_t>(hole);
    const std::uint64_t line = ((std::uint64_t{1} << n_) - 1) & ~(std::uint64_t{1} << s.hole);  // n <= 32
    // bit i: cell i is '#' (the pieces' bits opened at the hole)
    const std::uint64_t hashes = (pieces & ((std::uint64_t{1} << hole) - 1)) | (pieces >> hole << (hole + 1));
    s.cells = spread_to_even_bits(hashes) * CheckersLine::kHash | spread_to_even_bits(line & ~hashes) * CheckersLine::kAt;
    return s;
  }
  static constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;  // the low bit of each 2-bit cell

  // Bit p set when piece p (the cells in order, the hole skipped) is '#'.
  std::uint64_t hash_pieces(const CheckersState& s) const {
    const std::uint64_t hashes = even_bits(s.cells & ~(s.cells >> 1));  // cell value 1
    const std::uint64_t below = hashes & ((std::uint64_t{1} << s.hole) - 1);
    return below | (hashes >> (s.hole + 1) << s.hole);
  }
  // Bit i of the result is bit 2i of x: a pext over kLowBits where that is fast
  // (core/fast_pdep.hpp), else five shift-or-mask steps that pack pairs, fours, ...
  static std::uint64_t even_bits(std::uint64_t x) {
#if defined(SEARCHBENCH_FAST_PDEP)
    return _pext_u64(x, kLowBits);
#else
    x &= kLowBits;
    x = (x | x >> 1) & 0x3333333333333333ULL;
    x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0FULL;
    x = (x | x >> 4) & 0x00FF00FF00FF00FFULL;
    x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
    return (x | x >> 16) & 0x00000000FFFFFFFFULL;
#endif
  }
  // The inverse for x < 2^32: bit 2i of the result is bit i of x (a pdep over kLowBits).
  static std::uint64_t spread_to_even_bits(std::uint64_t x) {
#if defined(SEARCHBENCH_FAST_PDEP)
    return _pdep_u64(x, kLowBits);
#else
    x = (x | x << 16) & 0x0000FFFF0000FFFFULL;
    x = (x | x << 8) & 0x00FF00FF00FF00FFULL;
    x = (x | x << 4) & 0x0F0F0F0F0F0F0F0FULL;
    x = (x | x << 2) & 0x3333333333333333ULL;
    return (x | x << 1) & kLowBits;
#endif
  }

  static constexpr int kMaxLowPieces = 16, kMaxHighTablePieces = 12;
  static constexpr auto& kChoose = checkers_binomials::kChoose;
  static constexpr auto& kUnranking = checkers_binomials::kUnranking;

  // The ranking tables depend on the line length only (not on the '#' count), and building
  // them takes milliseconds at 16 low pieces: a judge that meets many (N, k) pairs builds
  // each length's tables once, shared by every instance (read-only after the build).
  struct RankTables {
    int low_pieces = 0, high_pieces = 0;
    std::uint64_t low_mask = 0;
    std::array<std::uint32_t, kMaxLowPieces + 2> low_block{};  // first index of the masks with m '#'
    std::vector<std::uint16_t> low_rank;    // low mask -> its rank among masks with as many '#'
    std::vector<std::uint16_t> low_unrank;  // low_block[m] + rank -> low mask
    std::vector<Key> high_rank;             // (m << high_pieces | high mask) -> the high '#' terms
  };
  static const RankTables& tables_for(int n) {
    static std::array<std::once_flag, CheckersLine::kMaxCells + 1> once;
    static std::array<RankTables, CheckersLine::kMaxCells + 1> tables;
    std::call_once(once[n], [n] { build_tables(n, tables[n]); });
    return tables[n];
  }
  static void build_tables(int n, RankTables& t) {
    t.low_pieces = std::min(n - 1, kMaxLowPieces);
    t.high_pieces = n - 1 - t.low_pieces;
    t.low_mask = (std::uint64_t{1} << t.low_pieces) - 1;
    for (int m = 0; m <= t.low_pieces; ++m) t.low_block[m + 1] = t.low_block[m] + static_cast<std::uint32_t>(kChoose[t.low_pieces][m]);
    t.low_rank.resize(std::size_t{1} << t.low_pieces);
    t.low_unrank.resize(std::size_t{1} << t.low_pieces);
    for (std::uint64_t mask = 0; mask <= t.low_mask; ++mask) {
      const auto rank = static_cast<std::uint16_t>(rank_by_loop(mask, 0, 1));  // < C(16, 8) = 12,870
      t.low_rank[mask] = rank;
      t.low_unrank[t.low_block[std::popcount(mask)] + rank] = static_cast<std::uint16_t>(mask);
    }
    if (t.high_pieces > kMaxHighTablePieces) return;
    t.high_rank.resize(static_cast<std::size_t>(t.low_pieces + 1) << t.high_pieces);
    for (int m = 0; m <= t.low_pieces; ++m)
      for (std::uint64_t high = 0; high >> t.high_pieces == 0; ++high)
        t.high_rank[(static_cast<std::uint64_t>(m) << t.high_pieces) | high] = rank_by_loop(high << t.low_pieces, t.low_pieces, m + 1);
  }

  int n_;
  int k_;
  Key arrangements_;
  int low_pieces_ = 0, high_pieces_ = 0;
  std::uint64_t low_mask_ = 0;
  // Into tables_for(n_).
  const std::uint32_t* low_block_ = nullptr;
  const std::uint16_t* low_rank_ = nullptr;
  const std::uint16_t* low_unrank_ = nullptr;
  const Key* high_rank_ = nullptr;
};

}  // namespace searchbench
