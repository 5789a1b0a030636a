// The 2x2x2 Rubik's cube (pocket cube) under two metrics: `cube2-htm` (also `cube2`, the
// half-turn metric: quarter and half turns each count one move) and `cube2-qtm` (the
// quarter-turn metric: quarter turns only).
//
// The cube has eight corners and no fixed centres, so whole-cube rotations are factored
// out by never moving one corner: the down-back-left corner DBL. Turning the three faces
// that do not hold it (F, R, U) reaches every arrangement of the other seven corners with
// any twists summing to 0 mod 3: 7! * 3^6 = 3,674,160 states.
//
// Cubie model (Kociemba's): positions URF UFL ULB UBR DFR DLF DRB, then DBL; each name
// lists the position's three stickers, U or D first, in Kociemba's clockwise order. A
// state says, for each position, which corner sits there and its twist t: the corner's U
// or D colour shows on the position's sticker number t. A move is a table (source
// position, twist added) and applying it composes the state with it: out[i] = in[source[i]]
// twisted by add[i].
//
// Move letters, in the order tried (ASCII order):
//   F R U   quarter turn clockwise (looking at that face)
//   G S V   half turn of F, R, U (the letter after the face's)  -- half-turn metric only
//   f r u   quarter turn counter-clockwise (F', R', U')
// so cube2-htm tries F G R S U V f r u and cube2-qtm tries F R U f r u.
//
// Text: seven corners for the positions URF UFL ULB UBR DFR DLF DRB, each written as the
// colours (face letters) seen on that position's stickers in the order its name lists
// them; the solved cube reads "URF UFL ULB UBR DFR DLF DRB", and "FUR" at the first
// position is the URF corner with twist 1 (its U colour on the R face).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"

namespace searchbench {

enum class CubeMetric { half_turn, quarter_turn };

struct PocketCubeState {
  std::array<std::uint8_t, 8> corner{};  // corner at each position (0..7 as listed above)
  std::array<std::uint8_t, 8> twist{};   // its twist, 0..2
  friend bool operator==(const PocketCubeState&, const PocketCubeState&) = default;
  friend auto operator<=>(const PocketCubeState&, const PocketCubeState&) = default;
};

class PocketCube {
 public:
  using State = PocketCubeState;
  static constexpr int kCorners = 8, kMoving = 7;  // position 7 (DBL) never moves

  // The names the registry knows this family by (the inverse of name()).
  static constexpr std::string_view kFamily = "cube2";
  static constexpr PuzzleHooks kHooks{};
  static constexpr std::string_view kNames = "cube2, cube2-htm, cube2-qtm";
  static constexpr std::string_view kSizes = "cube2-htm and cube2-qtm (one size)";
  static std::vector<std::string> examples() { return {"cube2-htm", "cube2-qtm"}; }
  // The cross-engine tests check these within a few moves of the start (3,674,160 states).
  static std::vector<std::string> test_examples() { return {"cube2-htm", "cube2-qtm"}; }
  // "cube2" (= cube2-htm), "cube2-htm", "cube2-qtm"; nullopt for other families' names.
  static std::optional<PocketCube> from_name(std::string_view name) {
    if (name.substr(0, 5) != "cube2") return std::nullopt;
    if (name == "cube2" || name == "cube2-htm") return PocketCube(CubeMetric::half_turn);
    if (name == "cube2-qtm") return PocketCube(CubeMetric::quarter_turn);
    throw InputError("unknown puzzle '" + std::string(name) + "' (the 2x2x2 cube is cube2, cube2-htm or cube2-qtm)");
  }

  explicit PocketCube(CubeMetric metric) : metric_(metric) { build_moves(); }

  std::string name() const { return metric_ == CubeMetric::half_turn ? "cube2-htm" : "cube2-qtm"; }
  CubeMetric metric() const { return metric_; }

  State start() const {
    State s;
    for (int i = 0; i < kCorners; ++i) s.corner[i] = static_cast<std::uint8_t>(i);
    return s;
  }

  int move_count() const { return count_; }
  char move_name(int m) const { return letter_[m]; }
  bool apply(const State& s, int m, State& out) const {
    const Move& mv = moves_[m];
    for (int i = 0; i < kMoving; ++i) {
      out.corner[i] = s.corner[mv.source[i]];
      out.twist[i] = kAddTwist[s.twist[mv.source[i]]][mv.add[i]];
    }
    out.corner[kMoving] = s.corner[kMoving];
    out.twist[kMoving] = s.twist[kMoving];
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, inverse_[m], out); }
  int inverse_move(int m) const { return inverse_[m]; }
  int move_order(int m) const { return order_[m]; }

  std::uint64_t component_size(const State&) const { return 3'674'160; }  // 7! * 3^6
  bool same_component(const State&, const State&) const { return true; }  // parse admits reachable states only

  State parse(std::string_view text) const {
    State s;
    s.corner[kMoving] = kMoving;
    int count = 0, twist_sum = 0;
    std::uint32_t seen = 0;
    std::size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' || text[i] == ',' || text[i] == '/') {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' && text[j] != '\r' &&
             text[j] != ',' && text[j] != '/')
        ++j;
      const std::string_view token = text.substr(i, j - i);
      i = j;
      if (count >= kMoving)
        throw InputError("cube \"" + printable(text) + "\" lists more than 7 corners (DBL is fixed and not listed)");
      int corner = -1, twist = 0;
      for (int c = 0; c < kCorners && corner < 0; ++c)
        for (int t = 0; t < 3 && corner < 0; ++t)
          if (token.size() == 3 && token[0] == kCornerNames[c][(3 - t) % 3] && token[1] == kCornerNames[c][(4 - t) % 3] &&
              token[2] == kCornerNames[c][(5 - t) % 3]) {
            corner = c;
            twist = t;
          }
      if (corner < 0)
        throw InputError("\"" + printable(token) + "\" in cube \"" + printable(text) +
                         "\" is not a corner (write its colours clockwise, e.g. URF, FUR or RFU)");
      if (corner == kMoving)
        throw InputError("cube \"" + printable(text) + "\" moves the DBL corner, which stays fixed in this model");
      if (seen & (1u << corner))
        throw InputError("corner " + std::string(kCornerNames[corner]) + " appears twice in cube \"" + printable(text) + "\"");
      seen |= 1u << corner;
      s.corner[count] = static_cast<std::uint8_t>(corner);
      s.twist[count] = static_cast<std::uint8_t>(twist);
      twist_sum += twist;
      ++count;
    }
    if (count != kMoving)
      throw InputError("cube \"" + printable(text) + "\" lists " + std::to_string(count) +
                       " corners, expected 7 (positions URF UFL ULB UBR DFR DLF DRB)");
    if (twist_sum % 3 != 0)
      throw InputError("cube \"" + printable(text) + "\" is not reachable: its corner twists sum to " +
                       std::to_string(twist_sum % 3) + " mod 3, not 0");
    return s;
  }

  std::string format(const State& s) const {
    std::string out;
    for (int i = 0; i < kMoving; ++i) {
      if (i > 0) out += ' ';
      const char* name = kCornerNames[s.corner[i]];
      const int t = s.twist[i];
      for (int k = 0; k < 3; ++k) out += name[(k + 3 - t) % 3];
    }
    return out;
  }

 private:
  struct Move {
    std::array<std::uint8_t, kCorners> source{};
    std::array<std::uint8_t, kCorners> add{};
  };

  // Colours of each corner, clockwise from its U or D sticker.
  static constexpr const char* kCornerNames[kCorners] = {"URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DRB", "DBL"};
  static constexpr std::uint8_t kAddTwist[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}};

  // Quarter turns clockwise (Kociemba's tables, DBL and DRB listed in this model's order).
  static constexpr Move kF = {{1, 5, 2, 3, 0, 4, 6, 7}, {1, 2, 0, 0, 2, 1, 0, 0}};
  static constexpr Move kR = {{4, 1, 2, 0, 6, 5, 3, 7}, {2, 0, 0, 1, 1, 0, 2, 0}};
  static constexpr Move kU = {{3, 0, 1, 2, 4, 5, 6, 7}, {0, 0, 0, 0, 0, 0, 0, 0}};

  // a then b: position i takes what b takes from position b.source[i] of a's result.
  static Move then(const Move& a, const Move& b) {
    Move c;
    for (int i = 0; i < kCorners; ++i) {
      c.source[i] = a.source[b.source[i]];
      c.add[i] = kAddTwist[a.add[b.source[i]]][b.add[i]];
    }
    return c;
  }

  void build_moves() {
    const Move quarter[3] = {kF, kR, kU};
    const char face[3] = {'F', 'R', 'U'}, half[3] = {'G', 'S', 'V'}, prime[3] = {'f', 'r', 'u'};
    const bool halves = metric_ == CubeMetric::half_turn;
    count_ = 0;
    int index[3][3];  // [face][0 quarter, 1 half, 2 prime] -> move number
    for (int f = 0; f < 3; ++f) {  // F G R S U V (or F R U), then f r u
      add(quarter[f], face[f], 4);
      index[f][0] = count_ - 1;
      if (halves) {
        add(then(quarter[f], quarter[f]), half[f], 2);
        index[f][1] = count_ - 1;
      }
    }
    for (int f = 0; f < 3; ++f) {
      add(then(then(quarter[f], quarter[f]), quarter[f]), prime[f], 4);
      index[f][2] = count_ - 1;
    }
    for (int f = 0; f < 3; ++f) {
      inverse_[index[f][0]] = index[f][2];
      inverse_[index[f][2]] = index[f][0];
      if (halves) inverse_[index[f][1]] = index[f][1];
    }
  }
  void add(const Move& m, char letter, int order) {
    moves_[count_] = m;
    letter_[count_] = letter;
    order_[count_] = order;
    ++count_;
  }

  CubeMetric metric_;
  int count_ = 0;
  std::array<Move, 9> moves_{};
  std::array<char, 9> letter_{};
  std::array<int, 9> order_{};
  std::array<int, 9> inverse_{};
};

}  // namespace searchbench
