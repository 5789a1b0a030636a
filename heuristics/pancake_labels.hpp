// The gap heuristic's stacks as vectors of labels (heuristics/pancake_gap.hpp): byte i is
// the label (the position in the target) of the pancake at position i, the plate's N at
// position N where there is room. A node of its completion search is a stack and its
// inverse, and every node asks the same few things of them: the flips that close a gap at
// either end, the choice of end, and one flip (a permutation of positions) with the same
// flip seen from the other end (a relabelling of values). One path per instruction set
// (core/simd_level.hpp), each with the same answers (tests/test_pancake_labels.cpp):
//
// * AVX-512 (BW + VBMI): a stack is one 64-byte register and any permutation of it one
//   vpermb, so a flip, a relabelling and the top's label in every byte are one instruction
//   each, and a stack's closing flips two compares over all positions into bit masks.
// * AVX2: two 32-byte registers, whose byte shuffle stays inside 16-byte lanes. A flip is
//   the shuffle of core/prefix_flip.hpp; a relabelling needs no permutation at all (k-1
//   less each byte, kept where that is not negative: a subtraction and a blend); the label
//   above each position, which the gap test needs, is a byte shift across lanes (a lane
//   permutation and vpalignr per half); the top's label in every byte is vpbroadcastb. The
//   end is chosen with xor and and, on all four registers.
// * Portable: 64 bytes in memory. Nothing scans the stack: a flip closes a gap only by
//   bringing the top's target neighbour (label top -+ 1) next to it, and the inverse says
//   where that neighbour lies, so a stack's closing flips are four byte loads. A flip is
//   core/prefix_flip.hpp's on 64-bit words, a relabelling subtracts in eight bytes at once.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/prefix_flip.hpp"
#include "core/simd_level.hpp"
#include "puzzles/pancake_stack.hpp"
#if !defined(SEARCHBENCH_SIMD_SCALAR)
#include <immintrin.h>
#endif

namespace searchbench {

class PancakeLabels {
 public:
  using Bytes = std::array<std::uint8_t, 64>;
#if defined(SEARCHBENCH_SIMD_AVX512)
  using Vector = __m512i;
#elif defined(SEARCHBENCH_SIMD_AVX2)
  using Vector = ByteHalves;  // bytes 0..31, 32..63
#else
  using Vector = Bytes;
#endif

  // A node of the completion search: a stack's labels and their inverse, its two ends.
  struct Node {
    Vector forward, backward;
  };

  PancakeLabels(int n, const PancakeState& target) : n_(n) {
    for (int i = 0; i < n_; ++i) {
      label_[target.cells[i]] = static_cast<std::uint8_t>(i);
      sorted_target_ = sorted_target_ && target.cells[i] == i;
    }
    in_stack_ = n_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
    flips_ = in_stack_ >> 1;
    if (n_ < 64) plate_[n_] = static_cast<std::uint8_t>(n_);
  }

  // Against the sorted stack (the usual target) a size is its own label: no table.
  int label(int size) const { return sorted_target_ ? size : label_[size]; }
  std::uint64_t bytes() const { return sizeof(label_); }

  // Labels by position, the plate's (N) at position N where the vector has room for it, 0
  // past it.
  Vector of(const PancakeState& s) const {
#if defined(SEARCHBENCH_SIMD_AVX512)
    const __m512i stack = _mm512_loadu_si512(s.cells.data());
    const __m512i labels = sorted_target_ ? stack : _mm512_maskz_permutexvar_epi8(in_stack_, stack, _mm512_loadu_si512(label_.data()));
    return _mm512_or_si512(labels, _mm512_loadu_si512(plate_.data()));
#else
    Bytes out = plate_;
    for (int i = 0; i < n_; ++i) out[i] = static_cast<std::uint8_t>(label(s.cells[i]));
    return load(out);
#endif
  }

  // The positions of the labels, read as a stack: the plate stays where it is.
  Vector inverse(const Vector& forward) const {
    Bytes at{}, back{};
    store(at, forward);
    for (int i = 0; i < n_; ++i) back[at[i]] = static_cast<std::uint8_t>(i);
    if (n_ < 64) back[n_] = static_cast<std::uint8_t>(n_);
    return load(back);
  }

  // The node with its ends swapped where `swap`: a blend on the vector paths, no branch
  // (which end a search follows is a coin toss).
  static Node turned(bool swap, const Node& n);
  // The node flip m of the forward end makes: that end flipped, the other relabelled.
  static Node child(const Node& n, int m) { return {flipped(n.forward, m), relabelled(n.backward, m)}; }
  // The flips that close a gap at one end (0: forward, 1: backward), as a move set: flip k
  // (move k - 2) closes one where it brings the top's target neighbour, at k, next to the
  // top and the pair at k-1, k was a gap.
  std::uint64_t closing(const Node& n, int end) const;
  // The same for one stack alone.
  std::uint64_t closing(const Vector& labels) const { return closing(Node{labels, inverse(labels)}, 0); }

  // Flip m (the top k = m + 2) of a stack, and the same flip made on the stack whose inverse
  // this is (label j < k becomes k-1-j).
  static Vector flipped(const Vector& v, int m);
  static Vector relabelled(const Vector& v, int m);
  static Vector load(const Bytes& bytes);
  static void store(Bytes& bytes, const Vector& v);

 private:
  int n_;
  std::array<std::uint8_t, PancakeState::kCapacity> label_{};  // size-1 -> its position in the target
  bool sorted_target_ = true;                                    // the target is 1..N from the top
  std::uint64_t in_stack_ = 0;                                   // positions 0..N-1
  std::uint64_t flips_ = 0;                                      // moves 0..N-2
  Bytes plate_{};                                                // byte N: N (N < 64)

#if defined(SEARCHBENCH_SIMD_AVX512)
  // Byte i of row k: the position whose pancake lands at i when the top k are flipped, which
  // is also where label i goes when labels below k are read backwards.
  static constexpr std::array<Bytes, 65> kReversed = [] {
    std::array<Bytes, 65> rows{};
    for (int k = 0; k <= 64; ++k)
      for (int i = 0; i < 64; ++i) rows[k][i] = static_cast<std::uint8_t>(i < k ? k - 1 - i : i);
    return rows;
  }();

  // The whole stack at once, without a branch: its gaps (adjacent labels more than one
  // apart) and where the top's target neighbours lie are two masks over the positions, the
  // plate at position N taking part as the label N; flip k closes a gap where both hold, at
  // k and at k - 1. With 64 pancakes the plate has no byte and is looked at apart.
  std::uint64_t closing_of(const Vector& labels) const {
    const __m512i one = _mm512_set1_epi8(1);
    const __m512i top = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, _mm512_setzero_si512(), labels);  // every byte the top label
    const std::uint64_t beside = _mm512_cmpeq_epi8_mask(_mm512_abs_epi8(_mm512_sub_epi8(labels, top)), one);
    const __m512i below = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, load(kNextPosition), labels);
    const std::uint64_t gaps = _mm512_cmpneq_epi8_mask(_mm512_abs_epi8(_mm512_sub_epi8(labels, below)), one);
    std::uint64_t closing = (beside >> 2) & (gaps >> 1) & flips_;
    if (n_ == 64) {
      Bytes at;
      store(at, labels);
      if (at[0] == 63 && at[63] != 63) closing |= std::uint64_t{1} << 62;
    }
    return closing;
  }
  // Byte i: i + 1, the position below i (the last reads itself: with 64 pancakes the plate
  // is looked at apart).
  static constexpr Bytes kNextPosition = [] {
    Bytes next{};
    for (int i = 0; i < 64; ++i) next[i] = static_cast<std::uint8_t>(i < 63 ? i + 1 : 63);
    return next;
  }();
#elif defined(SEARCHBENCH_SIMD_AVX2)
  static __m256i load32(const std::uint8_t* bytes) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes)); }
  static int top_of(const Vector& v) { return _mm256_cvtsi256_si32(v.low) & 0xff; }
  // Flip k closes a gap where |label - top| = 1 at k and the label above it is not one
  // apart: one signed compare per half, min(|label - above|, 2) > |label - top| (its bit at
  // position 0, where the label is the top, is dropped). With 64 pancakes the plate has no
  // byte: the top 63 closes the pair 63, plate where the label at 63 is not 63.
  std::uint64_t closing_of(const Vector& v) const {
    const __m256i two = _mm256_set1_epi8(2);
    const __m256i top = _mm256_broadcastb_epi8(_mm256_castsi256_si128(v.low));
    const __m256i above_low = _mm256_alignr_epi8(v.low, _mm256_permute2x128_si256(v.low, v.low, 0x08), 15);
    const __m256i above_high = _mm256_alignr_epi8(v.high, _mm256_permute2x128_si256(v.high, v.low, 0x03), 15);
    const auto closes = [&](__m256i x, __m256i above) {  // bit k: flip k closes a gap
      const __m256i beside = _mm256_abs_epi8(_mm256_sub_epi8(x, top));
      const __m256i apart = _mm256_min_epu8(_mm256_abs_epi8(_mm256_sub_epi8(x, above)), two);
      return std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(apart, beside)))};
    };
    std::uint64_t closing = ((closes(v.low, above_low) | closes(v.high, above_high) << 32) >> 2) & flips_;
    if (n_ == 64 && top_of(v) == 63 && _mm256_extract_epi8(v.high, 31) != 63) closing |= std::uint64_t{1} << 62;
    return closing;
  }
#else
  // One end's closing flips from it and its inverse, by where the top's neighbours lie,
  // without a branch (whether a neighbour closes a gap is a coin toss). Label t lies at k,
  // the plate of 64 pancakes at 64; the pair at k-1, k is a gap unless the label at k-1 is
  // t -+ 1 (it is not t).
  static std::uint64_t closing_by_lookup(const std::uint8_t* labels, const std::uint8_t* positions) {
    const int top = labels[0];
    const auto closes = [&](int t) {
      const int k = t < 64 ? positions[t & 63] : 64, before = labels[(k - 1) & 63];
      const bool gap = static_cast<unsigned>(before - t + 1) > 2;
      return static_cast<std::uint64_t>(gap & (k >= 2)) << ((k - 2) & 63);
    };
    return (closes(top - 1) & (std::uint64_t{0} - (top > 0))) | closes(top + 1);
  }
#endif
};

#if defined(SEARCHBENCH_SIMD_AVX512)
inline PancakeLabels::Vector PancakeLabels::load(const Bytes& bytes) { return _mm512_loadu_si512(bytes.data()); }
inline void PancakeLabels::store(Bytes& bytes, const Vector& v) { _mm512_storeu_si512(bytes.data(), v); }
inline PancakeLabels::Vector PancakeLabels::flipped(const Vector& v, int m) { return flip_prefix(v, m + 2); }
// One byte permutation: the flip's row read through the labels (masked with every byte on:
// gcc 12 warns of the unmasked form's undefined pass-through).
inline PancakeLabels::Vector PancakeLabels::relabelled(const Vector& v, int m) {
  return _mm512_maskz_permutexvar_epi8(~__mmask64{0}, v, load(kReversed[m + 2]));
}
inline PancakeLabels::Node PancakeLabels::turned(bool swap, const Node& n) {
  const __mmask8 which = swap ? 0xff : 0;
  return {_mm512_mask_blend_epi64(which, n.forward, n.backward), _mm512_mask_blend_epi64(which, n.backward, n.forward)};
}
inline std::uint64_t PancakeLabels::closing(const Node& n, int end) const { return closing_of(end == 0 ? n.forward : n.backward); }
#elif defined(SEARCHBENCH_SIMD_AVX2)
inline PancakeLabels::Vector PancakeLabels::load(const Bytes& bytes) { return {load32(bytes.data()), load32(bytes.data() + 32)}; }
inline void PancakeLabels::store(Bytes& bytes, const Vector& v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(bytes.data()), v.low);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(bytes.data() + 32), v.high);
}
inline PancakeLabels::Vector PancakeLabels::flipped(const Vector& v, int m) { return flip_prefix(v, m + 2); }
// k-1 less each byte: negative (its high bit, which vpblendvb reads, set) where the byte is
// at least k, which then stays.
inline PancakeLabels::Vector PancakeLabels::relabelled(const Vector& v, int m) {
  const __m256i last = _mm256_set1_epi8(static_cast<char>(m + 1));
  const auto half = [&](__m256i x) {
    const __m256i reversed = _mm256_sub_epi8(last, x);
    return _mm256_blendv_epi8(reversed, x, reversed);
  };
  return {half(v.low), half(v.high)};
}
inline PancakeLabels::Node PancakeLabels::turned(bool swap, const Node& n) {
  const __m256i mask = _mm256_set1_epi8(static_cast<char>(-static_cast<int>(swap)));
  const __m256i low = _mm256_and_si256(_mm256_xor_si256(n.forward.low, n.backward.low), mask);
  const __m256i high = _mm256_and_si256(_mm256_xor_si256(n.forward.high, n.backward.high), mask);
  return {{_mm256_xor_si256(n.forward.low, low), _mm256_xor_si256(n.forward.high, high)},
          {_mm256_xor_si256(n.backward.low, low), _mm256_xor_si256(n.backward.high, high)}};
}
inline std::uint64_t PancakeLabels::closing(const Node& n, int end) const { return closing_of(end == 0 ? n.forward : n.backward); }
#else
inline PancakeLabels::Vector PancakeLabels::load(const Bytes& bytes) { return bytes; }
inline void PancakeLabels::store(Bytes& bytes, const Vector& v) { bytes = v; }
inline PancakeLabels::Vector PancakeLabels::flipped(const Vector& v, int m) { return flip_prefix(v, m + 2); }
// Eight bytes at once in a 64-bit word: every byte is at most 64, so with its high bit set
// k subtracted leaves that bit set where the byte is at least k, and k-1 | 128 less the
// byte borrows from no other.
inline PancakeLabels::Vector PancakeLabels::relabelled(const Vector& v, int m) {
  constexpr std::uint64_t kHigh = 0x8080808080808080, kOnes = 0x0101010101010101;
  const std::uint64_t k = kOnes * static_cast<std::uint64_t>(m + 2), last = (kOnes * static_cast<std::uint64_t>(m + 1)) | kHigh;
  Vector out;
  for (int w = 0; w < 8; ++w) {
    std::uint64_t x;
    std::memcpy(&x, v.data() + 8 * w, 8);
    const std::uint64_t below = ~((x | kHigh) - k) & kHigh, low_bits = (below >> 7) * 0x7f;
    x = (x & ~low_bits) | ((last - x) & low_bits);
    std::memcpy(out.data() + 8 * w, &x, 8);
  }
  return out;
}
inline PancakeLabels::Node PancakeLabels::turned(bool swap, const Node& n) { return swap ? Node{n.backward, n.forward} : n; }
inline std::uint64_t PancakeLabels::closing(const Node& n, int end) const {
  const std::uint8_t *forward = n.forward.data(), *backward = n.backward.data();
  return end == 0 ? closing_by_lookup(forward, backward) : closing_by_lookup(backward, forward);
}
#endif

}  // namespace searchbench
