// Sorted runs of distinct 32-bit offsets, stored compactly: the out-of-core engine writes
// the successors it routes to another segment as such runs, and on the widest levels they
// are most of its disk traffic and space.
//
// A run of n offsets is a 16-byte header (n, the first offset, the payload's byte length,
// the Rice parameter k) and a bit stream of the n - 1 gaps (next - previous - 1), each as
// its quotient gap >> k in unary (q one-bits, a zero bit) and its k low bits. Gaps between
// routed successors are close to geometric, for which Rice coding with k near
// log2(mean gap x ln 2) is near optimal: a run with one offset in every 64 keys takes about
// a byte per offset instead of four, one in every 1024 about a byte and a half. A
// quotient of kEscape or more is
// written as kEscape one-bits and the whole gap in 32 bits, so one far outlier costs 64
// bits, not millions.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace searchbench {

struct OffsetRunHeader {
  std::uint32_t count = 0, first = 0, payload_bytes = 0, rice_bits = 0;
};
static_assert(sizeof(OffsetRunHeader) == 16);

class OffsetRuns {
 public:
  static constexpr std::uint32_t kEscape = 40;

  // The Rice parameter for n offsets spread over `span` keys.
  static std::uint32_t rice_bits_for(std::uint64_t span, std::uint64_t n) {
    if (n < 2) return 0;
    const std::uint64_t mean_gap = span / (n - 1);
    const std::uint64_t scaled = mean_gap * 69 / 100;  // x ln 2
    return scaled == 0 ? 0 : static_cast<std::uint32_t>(std::bit_width(scaled) - 1);
  }
  // Bytes per offset a full run of n offsets over `span` keys is expected to take.
  static double expected_bytes_per_offset(std::uint64_t span, std::uint64_t n) {
    return (rice_bits_for(span, n) + 2.5) / 8.0;
  }

  // Appends the run of sorted distinct `offsets` (header and payload) to `out`.
  static void encode(const std::uint32_t* offsets, std::size_t n, std::vector<unsigned char>& out) {
    if (n == 0) return;
    OffsetRunHeader h;
    h.count = static_cast<std::uint32_t>(n);
    h.first = offsets[0];
    h.rice_bits = rice_bits_for(std::uint64_t{offsets[n - 1]} - offsets[0], n);
    const std::size_t header_at = out.size();
    out.resize(header_at + sizeof h);
    BitWriter bits(out);
    const std::uint32_t k = h.rice_bits;
    const std::uint64_t low_mask = (std::uint64_t{1} << k) - 1;
    for (std::size_t i = 1; i < n; ++i) {
      const std::uint64_t gap = std::uint64_t{offsets[i]} - offsets[i - 1] - 1;
      const std::uint64_t q = gap >> k;
      if (q >= kEscape) {
        bits.put_ones(kEscape);
        bits.put(gap, 32);
        continue;
      }
      bits.put_ones(static_cast<std::uint32_t>(q));
      bits.put(0, 1);
      bits.put(gap & low_mask, k);
    }
    bits.finish();
    h.payload_bytes = static_cast<std::uint32_t>(out.size() - header_at - sizeof h);
    std::memcpy(out.data() + header_at, &h, sizeof h);
  }

  // Reads one run front to back, a key range at a time: the out-of-core engine applies many
  // runs to one segment, and taking every run's offsets below the same bound before moving
  // on keeps its claims inside a cache-sized window of the cells.
  class Cursor;

  // Decodes one run's payload into `offsets` (resized to h.count). False when the payload
  // does not hold exactly h.count - 1 gaps that stay below `limit` (a damaged file).
  static bool decode(const OffsetRunHeader& h, const unsigned char* payload, std::uint64_t limit, std::vector<std::uint32_t>& offsets);

 private:
  // Little-endian bit stream: bit i of the stream is bit i % 8 of byte i / 8.
  class BitWriter {
   public:
    explicit BitWriter(std::vector<unsigned char>& out) : out_(out) {}
    void put(std::uint64_t value, std::uint32_t n) {  // n <= 32
      if (n == 0) return;
      acc_ |= (value & ((std::uint64_t{1} << n) - 1)) << used_;
      used_ += n;
      drain();
    }
    void put_ones(std::uint32_t n) {
      while (n > 0) {
        const std::uint32_t step = std::min<std::uint32_t>(n, 32);
        put((std::uint64_t{1} << step) - 1, step);
        n -= step;
      }
    }
    void finish() {
      while (used_ > 0) {
        out_.push_back(static_cast<unsigned char>(acc_));
        acc_ >>= 8;
        used_ = used_ > 8 ? used_ - 8 : 0;
      }
    }

   private:
    void drain() {
      while (used_ >= 8) {
        out_.push_back(static_cast<unsigned char>(acc_));
        acc_ >>= 8;
        used_ -= 8;
      }
    }
    std::vector<unsigned char>& out_;
    std::uint64_t acc_ = 0;
    std::uint32_t used_ = 0;
  };

  class BitReader {
   public:
    BitReader(const unsigned char* data, std::uint64_t bytes) : data_(data), bits_(bytes * 8) {}
    bool overrun() const { return pos_ > bits_; }
    std::uint64_t bytes_used() const { return (pos_ + 7) / 8; }
    void skip(std::uint32_t n) { pos_ += n; }
    // The next 64 bits from the current position (zeros past the end).
    std::uint64_t peek() const {
      const std::uint64_t byte = pos_ / 8;
      std::uint64_t v = 0;
      const std::uint64_t total = bits_ / 8;
      if (byte + 9 <= total) {
        std::memcpy(&v, data_ + byte, 8);
        v >>= pos_ % 8;
        std::uint64_t extra = data_[byte + 8];
        if (pos_ % 8) v |= extra << (64 - pos_ % 8);
        return v;
      }
      for (std::uint64_t i = 0; i < 9 && byte + i < total; ++i) {
        const int shift = static_cast<int>(i * 8) - static_cast<int>(pos_ % 8);
        const std::uint64_t b = data_[byte + i];
        if (shift >= 64) break;
        v |= shift >= 0 ? b << shift : b >> -shift;
      }
      return v;
    }
    std::uint64_t get(std::uint32_t n) {  // n <= 32
      if (n == 0) return 0;
      const std::uint64_t v = peek() & ((std::uint64_t{1} << n) - 1);
      pos_ += n;
      return v;
    }
    // Consumes the one-bits before the next zero, at most `most` of them.
    std::uint32_t count_ones(std::uint32_t most) {
      const std::uint32_t n = std::min<std::uint32_t>(static_cast<std::uint32_t>(std::countr_one(peek())), most);
      pos_ += n;
      return n;
    }

   private:
    const unsigned char* data_;
    std::uint64_t bits_;
    std::uint64_t pos_ = 0;
  };
};

class OffsetRuns::Cursor {
 public:
  Cursor(const OffsetRunHeader& h, const unsigned char* payload)
      : bits_(payload, h.payload_bytes), payload_bytes_(h.payload_bytes), rice_bits_(h.rice_bits), left_(h.count), value_(h.first) {}
  // Calls f(offset) for the run's next offsets below `end`, at most `most` of them; false
  // when the run is damaged (an offset at or past `limit`, a payload too short, a Rice
  // parameter out of range).
  template <class F>
  bool take_below(std::uint64_t end, std::uint64_t limit, F&& f, std::uint64_t most = ~std::uint64_t{0}) {
    if (rice_bits_ > 31) return false;
    for (; left_ > 0 && value_ < end && most > 0; --most) {
      if (value_ >= limit) return false;
      f(static_cast<std::uint32_t>(value_));
      if (--left_ == 0) break;
      const std::uint32_t q = bits_.count_ones(kEscape);
      std::uint64_t gap;
      if (q == kEscape) {
        gap = bits_.get(32);
      } else {
        bits_.skip(1);  // the zero that ends the unary quotient
        gap = (std::uint64_t{q} << rice_bits_) | bits_.get(rice_bits_);
      }
      value_ += gap + 1;
      if (bits_.overrun()) return false;
    }
    return true;
  }
  // True while the run holds offsets below `end` not yet taken.
  bool has_below(std::uint64_t end) const { return left_ > 0 && value_ < end; }
  // True once every offset was taken and the payload was used exactly.
  bool done() const { return left_ == 0 && !bits_.overrun() && bits_.bytes_used() == payload_bytes_; }

 private:
  BitReader bits_;
  std::uint64_t payload_bytes_;
  std::uint32_t rice_bits_, left_;
  std::uint64_t value_;
};

inline bool OffsetRuns::decode(const OffsetRunHeader& h, const unsigned char* payload, std::uint64_t limit,
                               std::vector<std::uint32_t>& offsets) {
  offsets.clear();
  if (h.count == 0) return false;
  offsets.reserve(h.count);
  Cursor cursor(h, payload);
  return cursor.take_below(~std::uint64_t{0}, limit, [&](std::uint32_t x) { offsets.push_back(x); }) && cursor.done();
}

}  // namespace searchbench
