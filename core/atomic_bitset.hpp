// A fixed-size bitset shared by threads. test_and_set is one fetch_or on the bit's 64-bit
// word: the caller that saw the bit clear is the one that set it, so exactly one thread
// wins each key without locks or compare-and-swap loops.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/concepts.hpp"

namespace searchbench {

class AtomicBitset {
 public:
  explicit AtomicBitset(Key bits) : words_((bits + 63) / 64), data_(new std::atomic<std::uint64_t>[words_]) {
    for (std::uint64_t w = 0; w < words_; ++w) data_[w].store(0, std::memory_order_relaxed);
  }
  // True when this call changed the bit from 0 to 1.
  bool test_and_set(Key k) {
    const std::uint64_t bit = std::uint64_t{1} << (k % 64);
    return (data_[k / 64].fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  }
  bool test(Key k) const { return (data_[k / 64].load(std::memory_order_relaxed) >> (k % 64)) & 1u; }
  std::uint64_t bytes() const { return words_ * sizeof(std::uint64_t); }

 private:
  std::uint64_t words_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> data_;
};

}  // namespace searchbench
