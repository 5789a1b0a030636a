// The 2 x K magic board (K = 2..8) under two rule sets.
//
// `msquare` is USACO "Magic Squares" (Sicily 1150/1151): start 1..2K in clockwise order,
// A swaps the rows, B rotates each row one step right, C turns the central 2x2 block
// clockwise. `sicily1515` (Sicily 1515, even K): start 1..2K in row order, A swaps the left
// and right halves, B rotates each row one step left, C turns the central block
// counter-clockwise. Every move permutes cell positions, so a move is a table
// `out[i] = in[source[i]]`, and its inverse is the inverse permutation.
//
// States hold the cells in row order (top row left to right, then bottom row left to
// right). Text: the 2K numbers, optionally split into rows by '/', in row order;
// clockwise order (the USACO judge's) is read by parse_clockwise.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "core/benchmark_plan.hpp"
#include "core/errors.hpp"
#include "core/number_list.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"
#include "core/puzzle_name.hpp"
#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace searchbench {

enum class MagicRules { msquare, sicily1515 };

struct MagicState {
  std::array<std::uint8_t, 16> cells{};  // row order; cells past 2K stay 0
  friend bool operator==(const MagicState&, const MagicState&) = default;
  friend auto operator<=>(const MagicState&, const MagicState&) = default;
};

class MagicBoard {
 public:
  using State = MagicState;
  static constexpr int kMinWidth = 2;
  static constexpr int kMaxWidth = 8;

  // The names the registry knows this family by (the inverse of name()).
  static constexpr std::string_view kFamily = "magic";
  static constexpr std::string_view kNames = "msquare, msquare-2xK, sicily1515, sicily1515-2xK";
  static constexpr std::string_view kSizes = "msquare-2xK K=2..8, sicily1515-2xK even K";
  // The suite's default puzzle (the first family's) is the board of USACO msquare; the
  // contest solutions pack a board three bits a cell.
  static constexpr PuzzleHooks kHooks{
      .classic_encoder = "bitpack", .default_puzzle = "msquare", .text_options = true, .benchmark_plan = true};

  // How a board the user wrote is read: rows split by '/' as written, or without the '/'
  // in the order --order names (clockwise: the USACO judge's order).
  struct TextOptions {
    static constexpr std::string_view kAppliesTo = "magic boards";
    std::string order;  // "", "rows" or "clockwise"

    template <class V>
    void declare(V& v) {
      v(order, {.name = "order", .help = "how a magic board without '/' is written", .choices = {"rows", "clockwise"}});
    }
  };
  static std::vector<std::string> examples() {
    return {"msquare-2x2", "msquare-2x3", "msquare-2x4", "msquare-2x5", "msquare-2x6",
            "msquare-2x7", "msquare-2x8", "sicily1515-2x4", "sicily1515-2x6"};
  }
  // Beyond whole spaces: point queries by depth, the explicit-graph yardstick, and the
  // cantor ranking's fast paths against the textbook ones.
  static BenchmarkPlan benchmark_plan() {
    BenchmarkPlan plan;
    plan.by_depth.push_back({"msquare-2x4", {4, 8, 12, 16, 20, 22}, 5});
    plan.explicit_graph.push_back("msquare-2x5");
    for (const char* puzzle : {"msquare-2x4", "msquare-2x5", "msquare-2x6"}) plan.codec.push_back({puzzle, "cantor"});
    return plan;
  }
  // Instances small enough for the cross-engine tests to check every state of.
  static std::vector<std::string> test_examples() { return {"msquare-2x4", "sicily1515-2x4", "msquare-2x3"}; }
  // "msquare" (= msquare-2x4), "msquare-2xK", "sicily1515", "sicily1515-2xK"; nullopt for
  // other families' names, InputError for a malformed or unsupported one.
  static std::optional<MagicBoard> from_name(std::string_view name) {
    for (const MagicRules rules : {MagicRules::msquare, MagicRules::sicily1515}) {
      const std::string_view prefix = rules_name(rules);
      if (name.substr(0, prefix.size()) != prefix) continue;
      int width = 4;
      if (name.size() > prefix.size()) {
        const std::string_view rest = name.substr(prefix.size());
        if (rest.substr(0, 3) != "-2x")
          throw InputError("malformed puzzle name '" + std::string(name) + "' (expected " + std::string(prefix) + "-2xK)");
        width = parse_name_size(rest.substr(3), name);
      }
      return MagicBoard(width, rules);
    }
    return std::nullopt;
  }
  static std::string_view rules_name(MagicRules rules) { return rules == MagicRules::msquare ? "msquare" : "sicily1515"; }

  MagicBoard(int width, MagicRules rules) : k_(width), n_(2 * width), rules_(rules) {
    if (width < kMinWidth || width > kMaxWidth)
      throw InputError("magic board width K=" + std::to_string(width) + " is not supported (K must be 2..8)");
    if (rules == MagicRules::sicily1515 && width % 2 != 0)
      throw InputError("sicily1515 rules need an even width K (got " + std::to_string(width) + ")");
    build_moves();
  }

  std::string name() const {
    return std::string(rules_name(rules_)) + "-2x" + std::to_string(k_);
  }
  int width() const { return k_; }
  int cells() const { return n_; }
  MagicRules rules() const { return rules_; }

  State start() const {
    State s;
    for (int i = 0; i < n_; ++i) s.cells[i] = static_cast<std::uint8_t>(i + 1);
    return rules_ == MagicRules::msquare ? from_clockwise(s) : s;
  }

  int move_count() const { return 3; }
  char move_name(int m) const { return static_cast<char>('A' + m); }
  bool apply(const State& s, int m, State& out) const {
    permute(s, forward_[m], out);
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const {
    permute(s, backward_[m], out);
    return true;
  }
  int inverse_move(int m) const { return inverse_[m]; }
  int move_order(int m) const { return order_[m]; }

  // States reachable from any state: the order of the group the three moves generate.
  // For K >= 3 under both rule sets that is the whole symmetric group, (2K)! (a Schreier-Sims
  // order computation over the move permutations; whole-space runs confirm it up to 2x5).
  // For K = 2 the central block is the whole board and A, B, C are all symmetries of a
  // square, so they generate its dihedral group: 8 of the 4! arrangements.
  std::uint64_t component_size(const State&) const {
    if (k_ == 2) return 8;
    std::uint64_t f = 1;
    for (int i = 2; i <= n_; ++i) f *= static_cast<std::uint64_t>(i);
    return f;
  }
  // One component for K >= 3; for K = 2 (three components of 8) the search finds out.
  bool same_component(const State&, const State&) const { return true; }

  State parse(std::string_view text) const { return parse_ordered(text, false); }
  State parse_clockwise(std::string_view text) const { return parse_ordered(text, true); }
  // A board the user wrote (`what`: "--target"). Without '/' and without --order the
  // digits could mean either board, so it is refused.
  State read(std::string_view text, const TextOptions& options, std::string_view what) const {
    if (options.order == "clockwise") return parse_clockwise(text);
    if (options.order.empty() && text.find('/') == std::string_view::npos)
      throw InputError(std::string(what) + " '" + std::string(text) +
                       "' could be read in row or in clockwise order: split the rows with '/' (e.g. 1 2 3 4 / 8 7 6 5) "
                       "or give --order rows|clockwise");
    return parse(text);
  }

  // A '/' must split the text into its two rows, half of the cells on either side: the
  // separators are otherwise all alike, so "5 8 7 / 6 4 1 2 3" would silently read as the
  // board "5 8 7 6 / 4 1 2 3". "" when the text has no '/' or splits into halves, else why not.
  static std::string row_split_problem(std::string_view text) {
    const std::vector<int> rows = row_lengths(text);
    if (rows.size() == 1 || (rows.size() == 2 && rows[0] == rows[1])) return "";
    return "rows split by '/' must each hold half of the cells: board \"" + printable(text) + "\" has rows of " + listed_lengths(rows);
  }

  // Validates 2K values already read (row order): each of 1..2K exactly once.
  State from_row_values(const int* values, int count) const {
    if (count != n_)
      throw InputError("a 2x" + std::to_string(k_) + " board needs " + std::to_string(n_) +
                       " numbers, got " + std::to_string(count));
    State s;
    std::uint32_t seen = 0;
    for (int i = 0; i < n_; ++i) {
      const int v = values[i];
      if (v < 1 || v > n_)
        throw InputError("cell value " + std::to_string(v) + " is out of range 1.." + std::to_string(n_));
      if (seen & (1u << v)) throw InputError("cell value " + std::to_string(v) + " appears twice");
      seen |= 1u << v;
      s.cells[i] = static_cast<std::uint8_t>(v);
    }
    return s;
  }

  // Clockwise order lists the top row left to right, then the bottom row right to left.
  State from_clockwise(const State& clockwise) const {
    State s;
    if (k_ > kMaxWidth) __builtin_unreachable();  // lets the compiler see the bound
    for (int j = 0; j < k_; ++j) {
      s.cells[j] = clockwise.cells[j];
      s.cells[k_ + j] = clockwise.cells[n_ - 1 - j];
    }
    return s;
  }
  State to_clockwise(const State& rows) const { return from_clockwise(rows); }  // an involution

  std::string format(const State& s) const {
    std::string out;
    for (int i = 0; i < n_; ++i) {
      if (i == k_) out += " /";
      if (i > 0) out += ' ';
      out += std::to_string(s.cells[i]);
    }
    return out;
  }

 private:
  using Table = std::array<std::uint8_t, 16>;

  // out[i] = s[source[i]]: one byte shuffle (pshufb) where SSSE3 is available.
  static void permute(const State& s, const Table& source, State& out) {
#if defined(__SSSE3__)
    const __m128i cells = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.cells.data()));
    const __m128i order = _mm_loadu_si128(reinterpret_cast<const __m128i*>(source.data()));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out.cells.data()), _mm_shuffle_epi8(cells, order));
#else
    for (int i = 0; i < 16; ++i) out.cells[i] = s.cells[source[i]];
#endif
  }

  void build_moves() {
    for (auto& t : forward_)
      for (int i = 0; i < 16; ++i) t[i] = static_cast<std::uint8_t>(i);  // unused cells map to themselves
    const int top = 0, bottom = k_, c = (k_ - 2) / 2;
    Table& a = forward_[0];
    Table& b = forward_[1];
    Table& cc = forward_[2];
    for (int j = 0; j < k_; ++j) {
      if (rules_ == MagicRules::msquare) {
        a[top + j] = static_cast<std::uint8_t>(bottom + j);
        a[bottom + j] = static_cast<std::uint8_t>(top + j);
        b[top + j] = static_cast<std::uint8_t>(top + (j + k_ - 1) % k_);
        b[bottom + j] = static_cast<std::uint8_t>(bottom + (j + k_ - 1) % k_);
      } else {
        a[top + j] = static_cast<std::uint8_t>(top + (j + k_ / 2) % k_);
        a[bottom + j] = static_cast<std::uint8_t>(bottom + (j + k_ / 2) % k_);
        b[top + j] = static_cast<std::uint8_t>(top + (j + 1) % k_);
        b[bottom + j] = static_cast<std::uint8_t>(bottom + (j + 1) % k_);
      }
    }
    const int tl = top + c, tr = top + c + 1, bl = bottom + c, br = bottom + c + 1;
    if (rules_ == MagicRules::msquare) {  // clockwise: tl <- bl, tr <- tl, br <- tr, bl <- br
      cc[tl] = bl; cc[tr] = tl; cc[br] = tr; cc[bl] = br;
    } else {  // counter-clockwise: tl <- tr, tr <- br, br <- bl, bl <- tl
      cc[tl] = tr; cc[tr] = br; cc[br] = bl; cc[bl] = tl;
    }
    for (int m = 0; m < 3; ++m) {
      for (int i = 0; i < 16; ++i) backward_[m][forward_[m][i]] = static_cast<std::uint8_t>(i);
      order_[m] = permutation_order(forward_[m]);
      inverse_[m] = -1;
      for (int m2 = 0; m2 < 3; ++m2)
        if (backward_[m] == forward_[m2]) inverse_[m] = m2;
    }
  }

  static int permutation_order(const Table& t) {
    Table power = t;
    for (int n = 1; n <= 64; ++n) {
      bool identity = true;
      for (int i = 0; i < 16; ++i) identity = identity && power[i] == i;
      if (identity) return n;
      Table next;
      for (int i = 0; i < 16; ++i) next[i] = power[t[i]];
      power = next;
    }
    return 0;
  }

  State parse_ordered(std::string_view text, bool clockwise) const {
    int values[17];
    const int count = parse_number_list(text, values, 17, true, "cell value", "board");
    State s = from_row_values(values, count);
    if (auto why = row_split_problem(text); !why.empty()) throw InputError(why);
    return clockwise ? from_clockwise(s) : s;
  }

  int k_;
  int n_;
  MagicRules rules_;
  std::array<Table, 3> forward_{};
  std::array<Table, 3> backward_{};
  std::array<int, 3> order_{};
  std::array<int, 3> inverse_{};
};

}  // namespace searchbench
