// Pancake sorting `pancake-N` (N = 2..64): a stack of N pancakes of sizes 1..N, listed
// from the top. A move flips the top k pancakes (k = 2..N), reversing that prefix; every
// flip undoes itself. All N! stacks are reachable; the largest distance from the sorted
// stack is the pancake number. Past 20 pancakes N! exceeds 2^64: no encoder holds such a
// stack in a 64-bit key, so those sizes are for the engines that keep whole states
// (point queries with a heuristic), and component_size saturates at 2^64 - 1.
//
// Move letters name k as one base-36 digit: '2'..'9' flip 2..9 pancakes, 'A' flips 10,
// 'B' 11, ... 'Z' 35; then 'a'..'z' flip 36..61 and '{' '|' '}' flip 62, 63, 64. That is
// also the letters' ASCII order, so moves are tried in order of k and the
// lexicographically smallest shortest path is also the smallest as a string.
//
// Start: the sorted stack 1..N (smallest on top). Text: the N sizes from the top.
// State: size-1 in one byte per pancake (0..N-1, what the ranking encoders expect), room
// for 64; a flip is one byte permutation of the whole stack where AVX-512 VBMI is available,
// else vpshufb over two 32-byte halves (AVX2) or funnel shifts of 64-bit words
// (core/prefix_flip.hpp).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/benchmark_plan.hpp"
#include "core/errors.hpp"
#include "core/number_list.hpp"
#include "core/prefix_flip.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"
#include "core/puzzle_name.hpp"
#include "core/saturating.hpp"
#include "core/simd_level.hpp"
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace searchbench {

struct PancakeState {
  static constexpr int kCapacity = 64;
  std::array<std::uint8_t, kCapacity> cells{};  // size-1 of each pancake, top first; past N stay 0
  friend bool operator==(const PancakeState&, const PancakeState&) = default;
  friend auto operator<=>(const PancakeState&, const PancakeState&) = default;
};

class PancakeStack {
 public:
  using State = PancakeState;
  static constexpr int kMinPancakes = 2, kMaxPancakes = PancakeState::kCapacity;

  // The names the registry knows this family by (the inverse of name()).
  static constexpr std::string_view kFamily = "pancake";
  static constexpr PuzzleHooks kHooks{.benchmark_plan = true};
  static constexpr std::string_view kNames = "pancake-N";
  static constexpr std::string_view kSizes = "pancake-N N=2..64";
  static std::vector<std::string> examples() {
    return {"pancake-6", "pancake-7", "pancake-8", "pancake-9", "pancake-10", "pancake-11", "pancake-12"};
  }
  // Instances small enough for the cross-engine tests to check every state of.
  static std::vector<std::string> test_examples() { return {"pancake-6", "pancake-7"}; }
  // Random stacks solved with the gap heuristic: 100 of 30 pancakes at 1 thread, 100 of 60
  // at 2 (and at 1 with --full).
  static BenchmarkPlan benchmark_plan() {
    BenchmarkPlan plan;
    plan.heuristic_sets.push_back({.puzzle = "pancake-30", .name = "random:100", .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"gap"}, .threads = {1}});
    plan.heuristic_sets.push_back({.puzzle = "pancake-60", .name = "random:100", .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"gap"}, .threads = {2}});
    plan.heuristic_sets.push_back({.puzzle = "pancake-60", .name = "random:100", .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"gap"}, .threads = {1}, .full_only = true});
    return plan;
  }
  // "pancake-N"; nullopt for other families' names, InputError for a malformed or unsupported N.
  static std::optional<PancakeStack> from_name(std::string_view name) {
    if (name.substr(0, 8) != "pancake-") return std::nullopt;
    return PancakeStack(parse_name_size(name.substr(8), name));
  }

  explicit PancakeStack(int pancakes) : n_(pancakes) {
    if (pancakes < kMinPancakes || pancakes > kMaxPancakes)
      throw InputError("pancake stack of N=" + std::to_string(pancakes) + " is not supported (N must be 2..64)");
  }

  std::string name() const { return "pancake-" + std::to_string(n_); }
  int cells() const { return n_; }

  State start() const {
    State s;
    for (int i = 0; i < n_; ++i) s.cells[i] = static_cast<std::uint8_t>(i);
    return s;
  }

  int move_count() const { return n_ - 1; }
  char move_name(int m) const { return "23456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz{|}"[m]; }
  bool apply(const State& s, int m, State& out) const {
    const int k = m + 2;
#if defined(SEARCHBENCH_SIMD_AVX512)
    _mm512_storeu_si512(out.cells.data(), flip_prefix(_mm512_loadu_si512(s.cells.data()), k));
#elif defined(SEARCHBENCH_SIMD_AVX2)
    const auto* in = reinterpret_cast<const __m256i*>(s.cells.data());
    const ByteHalves flipped = flip_prefix(ByteHalves{_mm256_loadu_si256(in), _mm256_loadu_si256(in + 1)}, k);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.cells.data()), flipped.low);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.cells.data()) + 1, flipped.high);
#else
    out.cells = flip_prefix(s.cells, k);
#endif
    return true;
  }

  // Where pancake `size` (size-1, as in cells) lies in s, 0 on top; cells() if it is not there.
  int position_of(const State& s, std::uint8_t size) const {
#if defined(__SSE2__)
#if defined(__AVX512BW__)
    std::uint64_t hits = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(s.cells.data()), _mm512_set1_epi8(static_cast<char>(size)));
#else
    const __m128i wanted = _mm_set1_epi8(static_cast<char>(size));
    std::uint64_t hits = 0;
    for (int c = 0; c < 4; ++c) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.cells.data() + 16 * c));
      hits |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, wanted)))) << (16 * c);
    }
#endif
    if (n_ < 64) hits &= (std::uint64_t{1} << n_) - 1;  // the zeros past N are no pancake
    return hits ? std::countr_zero(hits) : n_;
#else
    for (int i = 0; i < n_; ++i)
      if (s.cells[i] == size) return i;
    return n_;
#endif
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, m, out); }
  int inverse_move(int m) const { return m; }
  int move_order(int) const { return 2; }

  // N!, saturated at 2^64 - 1 past 20 pancakes (an upper bound, as the concept allows).
  std::uint64_t component_size(const State&) const { return saturating_product(2, n_); }

  bool same_component(const State&, const State&) const { return true; }

  State parse(std::string_view text) const {
    int values[kMaxPancakes + 1];
    const int count = parse_number_list(text, values, kMaxPancakes + 1, false, "pancake size", "stack");
    if (count != n_)
      throw InputError("a stack of " + std::to_string(n_) + " pancakes needs " + std::to_string(n_) + " sizes, got " +
                       std::to_string(count));
    State s;
    std::uint64_t seen = 0;  // bit v-1 set once size v appeared
    for (int c = 0; c < n_; ++c) {
      const int v = values[c];
      if (v < 1 || v > n_)
        throw InputError("pancake size " + std::to_string(v) + " is out of range 1.." + std::to_string(n_) + " in stack \"" +
                         printable(text) + "\"");
      if (seen & (std::uint64_t{1} << (v - 1)))
        throw InputError("pancake size " + std::to_string(v) + " appears twice in stack \"" + printable(text) + "\"");
      seen |= std::uint64_t{1} << (v - 1);
      s.cells[c] = static_cast<std::uint8_t>(v - 1);
    }
    return s;
  }

  std::string format(const State& s) const {
    std::string out;
    for (int i = 0; i < n_; ++i) {
      if (i > 0) out += ' ';
      out += std::to_string(s.cells[i] + 1);
    }
    return out;
  }

 private:
  int n_;
};

}  // namespace searchbench
