// The abstraction behind the pocket cube's `pdb`: of a cube only some corners (the pattern)
// are kept, each with its position and twist; the others become indistinguishable. A move
// sends the corner at position j to a position and adds a twist that depend on j alone, so
// the abstraction is a homomorphism with the same unit-cost moves: its distances are
// consistent lower bounds on the cube's. Every move has a one-move inverse (F and F', the
// half turns themselves).
//
// The moves are read off the cube itself (where each position's corner goes, and the twist
// it gains, under a move). Keys (CubePatternRank): the k positions ranked as a partial
// permutation of the 7 moving positions, times 3^k, plus the twists in base 3.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "heuristics/pdb_options.hpp"
#include "puzzles/pocket_cube.hpp"

namespace searchbench {

struct CubePatternState {
  std::array<std::uint8_t, 8> position{};  // of the pattern's i-th corner (i < k)
  std::array<std::uint8_t, 8> twist{};
  friend bool operator==(const CubePatternState&, const CubePatternState&) = default;
};

class CubePatternSpace {
 public:
  using State = CubePatternState;
  static constexpr int kMaxCorners = PocketCube::kMoving - 1;  // six decide the seventh

  // `corners`: the pattern's corner numbers (0..6, the cube's order URF UFL ULB UBR DFR DLF DRB).
  CubePatternSpace(const PocketCube& cube, const std::vector<int>& corners, const PocketCubeState& target)
      : cube_(cube), k_(static_cast<int>(corners.size())) {
    if (k_ < 1 || k_ > kMaxCorners) throw InputError("a cube pattern holds 1 to 6 corners");
    PocketCubeState labelled;  // corner i at position i untwisted: a move's result shows its table
    for (int i = 0; i < PocketCube::kCorners; ++i) labelled.corner[i] = static_cast<std::uint8_t>(i);
    for (int m = 0; m < cube.move_count(); ++m) {
      PocketCubeState out;
      cube.apply(labelled, m, out);
      for (int i = 0; i < PocketCube::kMoving; ++i) {
        to_[m][out.corner[i]] = static_cast<std::uint8_t>(i);
        add_[m][out.corner[i]] = out.twist[i];
      }
    }
    for (int p = 0; p < PocketCube::kMoving; ++p)
      for (int i = 0; i < k_; ++i)
        if (target.corner[p] == corners[i]) {
          goal_.position[i] = static_cast<std::uint8_t>(p);
          goal_.twist[i] = target.twist[p];
        }
    text_ = pattern_text(corners);
  }

  int corners() const { return k_; }
  std::string name() const { return cube_.name() + " pattern " + text_; }
  State start() const { return goal_; }
  int move_count() const { return cube_.move_count(); }
  char move_name(int m) const { return cube_.move_name(m); }
  bool apply(const State& s, int m, State& out) const {
    out = s;
    for (int i = 0; i < k_; ++i) {
      const int p = s.position[i];
      out.position[i] = to_[m][p];
      out.twist[i] = static_cast<std::uint8_t>((s.twist[i] + add_[m][p]) % 3);
    }
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, cube_.inverse_move(m), out); }
  int inverse_move(int m) const { return cube_.inverse_move(m); }
  int move_order(int) const { return 0; }  // the abstract order may divide the cube's: none claimed
  std::uint64_t component_size(const State&) const {
    std::uint64_t twists = 1;
    for (int i = 0; i < k_; ++i) twists *= 3;
    return PartialPermutationRank(PocketCube::kMoving, k_).count() * twists;
  }
  bool same_component(const State&, const State&) const { return true; }
  State parse(std::string_view) const { throw InputError("abstract cube states are not read from text"); }
  std::string format(const State& s) const {
    std::string out = "corners " + text_ + " at";
    for (int i = 0; i < k_; ++i) out += " " + std::to_string(s.position[i]) + "+" + std::to_string(s.twist[i]);
    return out;
  }

 private:
  PocketCube cube_;
  int k_;
  std::array<std::array<std::uint8_t, 8>, 9> to_{}, add_{};  // per move and position: where to, twist added
  State goal_;
  std::string text_;
};

class CubePatternRank {
 public:
  static constexpr std::string_view kName = "placement-twist";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const CubePatternSpace&) { return {}; }
  explicit CubePatternRank(const CubePatternSpace& space) : k_(space.corners()), rank_(PocketCube::kMoving, space.corners()) {
    for (int i = 0; i < k_; ++i) twists_ *= 3;
  }
  Key encode(const CubePatternState& s) const { return rank_.rank(s.position.data()) * twists_ + twist_code(s.twist.data()); }
  Key twist_code(const std::uint8_t* twist) const {
    Key code = 0;
    for (int i = 0; i < k_; ++i) code = code * 3 + twist[i];
    return code;
  }
  CubePatternState decode(Key k) const {
    CubePatternState s;
    Key code = k % twists_;
    rank_.unrank(k / twists_, s.position.data());
    for (int i = k_ - 1; i >= 0; --i, code /= 3) s.twist[i] = static_cast<std::uint8_t>(code % 3);
    return s;
  }
  Key key_bound() const { return rank_.count() * twists_; }
  bool dense() const { return true; }
  Key placements() const { return rank_.count(); }
  Key rank_positions(const std::uint8_t* positions) const { return rank_.rank(positions); }
  Key twist_count() const { return twists_; }

 private:
  int k_;
  Key twists_ = 1;
  PartialPermutationRank rank_;
};

}  // namespace searchbench
