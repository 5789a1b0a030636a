// Pocket cube encoder `coordinate`: Kociemba's two coordinates combined into one perfect
// key. The corners at the seven moving positions form a permutation of 0..6, ranked
// lexicographically (core/permutation_rank.hpp, the first six decide the seventh); the
// first six twists are a number in base 3 (the seventh makes the sum 0 mod 3).
// key = permutation rank * 3^6 + twists: 7! * 3^6 = 3,674,160 keys, every one a state, so
// the parallel engine's two-bit and bottom-up levels and the edge-list export apply.
// A move acts on each coordinate alone (where a corner goes does not depend on its twist,
// and the twists move the same whichever corners carry them), so each coordinate has a move
// table, built once per metric in a process (5040 and 729 rows), and a successor's key is
// two table entries: key_successors, with no state decoded or encoded.
#pragma once

#include <array>
#include <bit>
#include <memory>
#include <mutex>
#include <vector>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/pocket_cube.hpp"

namespace searchbench {

class CubeCoordinate {
 public:
  static constexpr std::string_view kName = "coordinate";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true, .incremental_keys = true, .key_successors = true};  // a perfect rank
  static constexpr Key kTwists = 729;             // 3^6
  static std::string fits(const PocketCube&) { return {}; }
  explicit CubeCoordinate(const PocketCube& cube) : rank_(PocketCube::kMoving, PocketCube::kMoving - 1) {
    tables_ = tables_of(cube, *this);
  }

  Key encode(const PocketCubeState& s) const {
    Key twists = 0;
    for (int i = 0; i < PocketCube::kMoving - 1; ++i) twists = twists * 3 + s.twist[i];
    return rank_.rank(s.corner.data()) * kTwists + twists;
  }
  PocketCubeState decode(Key k) const {
    PocketCubeState s;
    Key twists = k % kTwists;
    const std::uint32_t left = rank_.unrank(k / kTwists, s.corner.data());
    s.corner[PocketCube::kMoving - 1] = static_cast<std::uint8_t>(std::countr_zero(left));
    unsigned sum = 0;
    for (int i = PocketCube::kMoving - 2; i >= 0; --i, twists /= 3) {
      s.twist[i] = static_cast<std::uint8_t>(twists % 3);
      sum += s.twist[i];
    }
    s.twist[PocketCube::kMoving - 1] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
    s.corner[PocketCube::kMoving] = PocketCube::kMoving;
    return s;
  }
  Key key_bound() const { return rank_.count() * kTwists; }
  bool dense() const { return true; }

  int key_successors(Key k, Key* out) const {
    const std::uint32_t* perm = tables_->perm.data() + (k / kTwists) * tables_->moves;
    const std::uint32_t* twist = tables_->twist.data() + (k % kTwists) * tables_->moves;
    for (int m = 0; m < tables_->moves; ++m) out[m] = Key{perm[m]} * kTwists + twist[m];
    return tables_->moves;
  }
  bool successor_key(Key k, const PocketCubeState&, int m, Key& out) const {
    out = Key{tables_->perm[(k / kTwists) * tables_->moves + m]} * kTwists + tables_->twist[(k % kTwists) * tables_->moves + m];
    return true;
  }
  bool predecessor_key(Key k, const PocketCubeState& s, int m, Key& out) const {
    return successor_key(k, s, tables_->inverse[m], out);
  }

 private:
  struct Tables {
    int moves = 0;
    std::vector<std::uint32_t> perm, twist;  // rank x move -> rank
    std::array<int, 9> inverse{};
  };
  // The move tables of the cube's metric, built once per process.
  static std::shared_ptr<const Tables> tables_of(const PocketCube& cube, const CubeCoordinate& enc) {
    static std::mutex mutex;
    static std::array<std::shared_ptr<const Tables>, 2> built;
    const std::lock_guard lock(mutex);
    auto& slot = built[cube.metric() == CubeMetric::half_turn ? 0 : 1];
    if (slot) return slot;
    auto t = std::make_shared<Tables>();
    t->moves = cube.move_count();
    const Key perms = enc.rank_.count();
    t->perm.resize(perms * static_cast<Key>(t->moves));
    t->twist.resize(kTwists * static_cast<Key>(t->moves));
    PocketCubeState next;
    for (int m = 0; m < t->moves; ++m) {
      t->inverse[static_cast<std::size_t>(m)] = cube.inverse_move(m);
      for (Key p = 0; p < perms; ++p) {
        cube.apply(enc.decode(p * kTwists), m, next);
        t->perm[p * static_cast<Key>(t->moves) + static_cast<Key>(m)] = static_cast<std::uint32_t>(enc.encode(next) / kTwists);
      }
      for (Key w = 0; w < kTwists; ++w) {
        cube.apply(enc.decode(w), m, next);
        t->twist[w * static_cast<Key>(t->moves) + static_cast<Key>(m)] = static_cast<std::uint32_t>(enc.encode(next) % kTwists);
      }
    }
    slot = std::move(t);
    return slot;
  }

  PartialPermutationRank rank_;
  std::shared_ptr<const Tables> tables_;
};

}  // namespace searchbench
