// Checkers encoder `combinatorial`: a perfect table. The N-1 pieces left when the hole is
// taken out form one of C(N-1, k) arrangements of k '#' among '@'; its rank in the
// combinatorial number system (sum over the '#' positions p_0 < p_1 < ... of C(p_j, j+1))
// times N, plus the hole, numbers every reachable state exactly once. Fits every N <= 32.
#pragma once

#include <array>
#include <string>

#include "core/concepts.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

class CheckersCombinatorial {
 public:
  static constexpr std::string_view kName = "combinatorial";
  static constexpr bool kEveryKeyIsState = true;  // a perfect rank
  static std::string fits(const CheckersLine&) { return {}; }
  explicit CheckersCombinatorial(const CheckersLine& p) : n_(p.cells()), k_(p.hashes()) {
    for (int n = 0; n <= 32; ++n) {
      choose_[n][0] = 1;
      for (int r = 1; r <= 32; ++r) choose_[n][r] = n == 0 ? 0 : choose_[n - 1][r - 1] + choose_[n - 1][r];
    }
    arrangements_ = choose_[n_ - 1][k_];
  }
  Key encode(const CheckersState& s) const {
    Key rank = 0;
    int seen = 0, piece_index = 0;
    for (int i = 0; i < n_; ++i) {
      if (i == s.hole) continue;
      if (s.at(i) == CheckersLine::kHash) rank += choose_[piece_index][++seen];
      ++piece_index;
    }
    return rank * static_cast<Key>(n_) + s.hole;
  }
  CheckersState decode(Key k) const {
    CheckersState s;
    s.hole = static_cast<std::uint8_t>(k % static_cast<Key>(n_));
    Key rank = k / static_cast<Key>(n_);
    // Greedy from the last piece: piece p is '#' when C(p, remaining) <= rank.
    int remaining = k_;
    for (int piece = n_ - 2; piece >= 0; --piece) {
      const int cell = piece >= s.hole ? piece + 1 : piece;
      Key value = CheckersLine::kAt;
      if (remaining > 0 && choose_[piece][remaining] <= rank) {
        rank -= choose_[piece][remaining];
        --remaining;
        value = CheckersLine::kHash;
      }
      s.cells |= value << (2 * cell);
    }
    return s;
  }
  Key key_bound() const { return arrangements_ * static_cast<Key>(n_); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  int n_;
  int k_;
  Key arrangements_;
  std::array<std::array<Key, 33>, 33> choose_{};
};

}  // namespace searchbench
