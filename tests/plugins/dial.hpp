// A puzzle family that exists only in the test tree, to show that a new family reaches
// every front end through its family header (tests/plugins/families/dial.hpp) and its one
// line in a family list (tests/plugins/family_list.hpp):
// `dial-N`, a dial of N positions whose pointer starts at 0 and turns one step forward (a)
// or back (b). Its one encoder, `position`, is the pointer's position: a perfect ranking.
#pragma once

#include <charconv>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/puzzle_hooks.hpp"

namespace searchbench::test_plugins {

struct DialState {
  std::uint32_t position = 0;
  auto operator<=>(const DialState&) const = default;
};

class Dial {
 public:
  using State = DialState;
  static constexpr std::string_view kFamily = "dial";
  static constexpr PuzzleHooks kHooks{};
  static constexpr std::string_view kNames = "dial-N";
  static constexpr std::string_view kSizes = "dial-N N=2..100000";
  static std::vector<std::string> examples() { return {"dial-12", "dial-1000"}; }
  static std::vector<std::string> test_examples() { return {"dial-12", "dial-7"}; }
  static std::optional<Dial> from_name(std::string_view name) {
    if (!name.starts_with("dial-")) return std::nullopt;
    const std::string_view digits = name.substr(5);
    std::uint32_t n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < 2 || n > 100000)
      throw InputError("dial-N needs N = 2..100000 (got '" + std::string(name) + "')");
    return Dial(n);
  }

  explicit Dial(std::uint32_t n) : n_(n) {}
  std::uint32_t size() const { return n_; }
  std::string name() const { return "dial-" + std::to_string(n_); }
  State start() const { return {}; }
  int move_count() const { return 2; }
  char move_name(int m) const { return m == 0 ? 'a' : 'b'; }
  bool apply(const State& s, int m, State& out) const {
    out.position = m == 0 ? (s.position + 1) % n_ : (s.position + n_ - 1) % n_;
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, 1 - m, out); }
  int inverse_move(int m) const { return 1 - m; }
  int move_order(int) const { return static_cast<int>(n_); }
  std::uint64_t component_size(const State&) const { return n_; }
  bool same_component(const State&, const State&) const { return true; }
  State parse(std::string_view text) const {
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v >= n_)
      throw InputError("a position of " + name() + " is a number 0.." + std::to_string(n_ - 1) + " (got '" + std::string(text) + "')");
    return {v};
  }
  std::string format(const State& s) const { return std::to_string(s.position); }

 private:
  std::uint32_t n_;
};

class DialPosition {
 public:
  static constexpr std::string_view kName = "position";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true};
  static std::string fits(const Dial&) { return {}; }
  explicit DialPosition(const Dial& dial) : n_(dial.size()) {}
  Key encode(const DialState& s) const { return s.position; }
  DialState decode(Key k) const { return {static_cast<std::uint32_t>(k)}; }
  Key key_bound() const { return n_; }
  bool dense() const { return true; }

 private:
  std::uint32_t n_;
};

}  // namespace searchbench::test_plugins
