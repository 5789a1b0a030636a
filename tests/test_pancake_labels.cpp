// The gap heuristic's vector operations (heuristics/pancake_labels.hpp) against plain byte
// loops, on random stacks of every size 2..64 and random targets: each build checks the
// path it compiled (core/simd_level.hpp names it), so a build for another instruction set
// checks that one. Also the 64-byte flip (core/prefix_flip.hpp) and the puzzle's flip made
// with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>

#include "core/prefix_flip.hpp"
#include "core/simd_level.hpp"
#include "heuristics/pancake_labels.hpp"
#include "puzzles/pancake_stack.hpp"

using namespace searchbench;

namespace {

using Bytes = PancakeLabels::Bytes;

PancakeState shuffled(int n, std::mt19937_64& rng) {
  PancakeState s;
  std::iota(s.cells.begin(), s.cells.begin() + n, std::uint8_t{0});
  std::shuffle(s.cells.begin(), s.cells.begin() + n, rng);
  return s;
}

Bytes bytes_of(const PancakeLabels::Vector& v) {
  Bytes out;
  PancakeLabels::store(out, v);
  return out;
}

// The flips that close a gap, from the definition: the label at k is the top's target
// neighbour and the pair at k-1, k is a gap, the plate (label N) at position N.
std::uint64_t closing_flips(const Bytes& labels, int n) {
  const auto at = [&](int i) { return i < n ? int{labels[i]} : n; };
  std::uint64_t out = 0;
  for (int k = 2; k <= n; ++k)
    if (std::abs(at(k) - at(0)) == 1 && std::abs(at(k - 1) - at(k)) != 1) out |= std::uint64_t{1} << (k - 2);
  return out;
}

std::string text(const Bytes& b) {
  std::string out;
  for (const int v : b) out += std::to_string(v) + ' ';
  return out;
}

TEST(PancakeLabels, VectorPathAgreesWithByteLoops) {
  std::printf("vector path: %s\n", std::string(kSimdLevel).c_str());
  std::mt19937_64 rng(64);
  for (int n = 2; n <= 64; ++n) {
    const PancakeStack p(n);
    for (int trial = 0; trial < 6; ++trial) {
      const PancakeState target = trial % 2 == 0 ? p.start() : shuffled(n, rng);
      const PancakeLabels labels(n, target);
      const PancakeState s = shuffled(n, rng);
      // Labels by position: the target's position of each pancake, the plate N at N.
      Bytes forward{}, backward{};
      for (int i = 0; i < n; ++i) forward[i] = static_cast<std::uint8_t>(std::find(target.cells.begin(), target.cells.end(), s.cells[i]) - target.cells.begin());
      if (n < 64) forward[n] = static_cast<std::uint8_t>(n);
      for (int i = 0; i < n; ++i) backward[forward[i]] = static_cast<std::uint8_t>(i);
      if (n < 64) backward[n] = static_cast<std::uint8_t>(n);
      PancakeLabels::Node node{labels.of(s), labels.inverse(labels.of(s))};
      ASSERT_EQ(bytes_of(node.forward), forward) << "n=" << n;
      ASSERT_EQ(bytes_of(node.backward), backward) << "n=" << n;
      ASSERT_EQ(bytes_of(PancakeLabels::load(forward)), forward);
      // A walk of flips, each made on both ends: a closing flip of either end where there is
      // one (what the completion search makes), else any; every byte of all 64 follows the
      // definitions.
      for (int step = 0; step < 3 * n; ++step) {
        const std::uint64_t ahead = closing_flips(forward, n), behind = closing_flips(backward, n);
        ASSERT_EQ(labels.closing(node, 0), ahead) << "n=" << n << ": " << text(forward);
        ASSERT_EQ(labels.closing(node, 1), behind) << "n=" << n << ": " << text(backward);
        ASSERT_EQ(labels.closing(node.forward), ahead) << "n=" << n << ": " << text(forward);
        const bool swap = rng() % 2 != 0;
        node = PancakeLabels::turned(swap, node);
        if (swap) std::swap(forward, backward);
        ASSERT_EQ(bytes_of(node.forward), forward);
        ASSERT_EQ(bytes_of(node.backward), backward);
        const std::uint64_t closing = swap ? behind : ahead;
        int m = static_cast<int>(rng() % static_cast<unsigned>(n - 1));
        if (closing != 0 && rng() % 4 != 0) {
          const std::uint64_t second = closing & (closing - 1);
          m = std::countr_zero(second != 0 && rng() % 2 != 0 ? second : closing);
        }
        const int k = m + 2;
        Bytes flipped = forward, relabelled = backward;
        std::reverse(flipped.begin(), flipped.begin() + k);
        for (auto& v : relabelled) v = static_cast<std::uint8_t>(v < k ? k - 1 - v : v);
        node = PancakeLabels::child(node, m);
        ASSERT_EQ(bytes_of(node.forward), flipped) << "n=" << n << ", flip of " << k << " of " << text(forward);
        ASSERT_EQ(bytes_of(node.backward), relabelled) << "n=" << n << ", relabelling by " << k << " of " << text(backward);
        forward = flipped, backward = relabelled;
      }
    }
  }
}

// Every flip of every size, on bytes that are all different (so a byte from the wrong place
// shows) and on a stack.
TEST(PancakeLabels, EveryFlipOfSixtyFourBytes) {
  Bytes all;
  std::iota(all.begin(), all.end(), std::uint8_t{0});
  for (int k = 2; k <= 64; ++k) {
    Bytes expected = all;
    std::reverse(expected.begin(), expected.begin() + k);
    ASSERT_EQ(bytes_of(PancakeLabels::flipped(PancakeLabels::load(all), k - 2)), expected) << "flip of " << k;
    ASSERT_EQ(bytes_of(PancakeLabels::relabelled(PancakeLabels::load(all), k - 2)), expected) << "relabelling by " << k;
  }
  // The portable flip, which every build has, on random bytes.
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 200; ++trial) {
    Bytes bytes;
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    const int k = 2 + static_cast<int>(rng() % 63);
    Bytes expected = bytes;
    std::reverse(expected.begin(), expected.begin() + k);
    ASSERT_EQ(flip_prefix(bytes, k), expected) << "flip of " << k;
  }
  for (int n = 2; n <= 64; ++n) {
    const PancakeStack p(n);
    const PancakeState s = shuffled(n, rng);
    for (int m = 0; m < p.move_count(); ++m) {
      PancakeState flipped, expected = s;
      std::reverse(expected.cells.begin(), expected.cells.begin() + m + 2);
      ASSERT_TRUE(p.apply(s, m, flipped));
      ASSERT_EQ(flipped, expected) << "n=" << n << " flip of " << m + 2;
    }
  }
}

}  // namespace
