// The sicily judges' default route for input as judges' test data writes it: limits of plain
// digits, cells of one digit 1..8 each given once, and the -1 (or the end) closing the
// input. The cases are answered from the path table (judges/magic_path_table.hpp) straight
// into the output, with no token objects or per-case strings, which were most of the judge's
// time on 40,320 cases. Anything else (a sign, a cell out of range or given twice, a stray
// byte, an input that ends inside a board, text after the -1, an empty input) gives nullopt:
// the caller then answers the whole input again through the general reader, which names the
// bad line. Both give the same bytes for every input this one accepts.
#pragma once

#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "judges/judges.hpp"
#include "judges/magic_path_table.hpp"

namespace searchbench {

// The cases of a plain input, one at a time.
class PlainSicilyReader {
 public:
  explicit PlainSicilyReader(std::string_view input) : at_(input.data()), end_(input.data() + input.size()) {}

  enum class Read { kCase, kEnd, kNotPlain };
  // A case's move limit (capped at 255: no path is longer) and its board's key.
  Read next(std::uint8_t& limit, std::uint32_t& key) {
    skip_space();
    if (at_ == end_) return Read::kEnd;
    if (*at_ == '-') {  // only the -1 that ends the input, with nothing after it
      if (end_ - at_ < 2 || at_[1] != '1' || !token_ends(at_ + 2)) return Read::kNotPlain;
      at_ += 2;
      skip_space();
      return at_ == end_ ? Read::kEnd : Read::kNotPlain;
    }
    std::uint64_t n = 0;
    const char* const digits = at_;
    while (at_ < end_ && *at_ >= '0' && *at_ <= '9' && at_ - digits < 18) n = n * 10 + static_cast<std::uint64_t>(*at_++ - '0');
    if (at_ == digits || !token_ends(at_)) return Read::kNotPlain;
    limit = static_cast<std::uint8_t>(n < 255 ? n : 255);
    skip_space();
    if (end_ - at_ >= 16 && spaced_board(at_, key)) {
      at_ += 15;
      return Read::kCase;
    }
    std::uint32_t seen = 0;
    key = 0;
    for (int i = 0; i < MagicPathTable::kCells; ++i) {
      skip_space();
      if (at_ == end_ || *at_ < '1' || *at_ > '8' || !token_ends(at_ + 1) || (seen >> (*at_ - '0') & 1)) return Read::kNotPlain;
      seen |= 1u << (*at_ - '0');
      key |= static_cast<std::uint32_t>(*at_ - '1') << (3 * i);
      ++at_;
    }
    return Read::kCase;
  }

 private:
  // The board as the judges' data writes it, eight cells 1..8 each followed by one space or
  // newline, read 16 bytes at once (most of the reader's time went to its byte-by-byte
  // checks); false for anything else, which the byte-by-byte reader then takes.
  static bool spaced_board(const char* p, std::uint32_t& key) {
#if defined(__SSE2__)
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int cells = _mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8('0')), _mm_cmplt_epi8(bytes, _mm_set1_epi8('9'))));
    const int spaces = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\n'))));
    if ((cells & 0x5555) != 0x5555 || (spaces & 0xAAAA) != 0xAAAA) return false;
    // The even bytes, value - 1, then three bits each: pairs, fours, eights.
    const __m128i values = _mm_and_si128(_mm_sub_epi8(bytes, _mm_set1_epi8('1')), _mm_set1_epi16(0x00FF));
    std::uint64_t v = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(values, values)));
    std::uint32_t seen = 0;
    for (int i = 0; i < MagicPathTable::kCells; ++i) seen |= 1u << ((v >> (8 * i)) & 7);
    if (seen != 0xFF) return false;  // a cell given twice
    v = (v | (v >> 5)) & 0x003F003F003F003F;
    v = (v | (v >> 10)) & 0x00000FFF00000FFF;
    key = static_cast<std::uint32_t>((v | (v >> 20)) & 0xFFFFFF);
    return true;
#else
    (void)p, (void)key;
    return false;
#endif
  }
  void skip_space() {
    while (at_ < end_ && is_judge_space(*at_)) ++at_;
  }
  bool token_ends(const char* p) const { return p == end_ || is_judge_space(*p); }

  const char* at_;
  const char* end_;
};

// Enters the pages of a string's reserved room in one call: 40,320 answers fill 200 fresh
// pages, and a fault for each cost a tenth of the judge's time. Advice only: a kernel without
// MADV_POPULATE_WRITE (before Linux 5.14) refuses it and the pages fault in as written.
inline void enter_pages(std::string& out) {
#if defined(MADV_POPULATE_WRITE)
  const auto begin = reinterpret_cast<std::uintptr_t>(out.data()), page = std::uintptr_t{4096};
  const std::uintptr_t first = (begin + page - 1) / page * page, last = (begin + out.capacity()) / page * page;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)out;
#endif
}

// The whole output, or nullopt where the input is not plain. `table()` gives the path table,
// built at the first case.
template <class TableAtFirstCase>
std::optional<std::string> answer_plain_sicily(std::string_view input, TableAtFirstCase&& table) {
  PlainSicilyReader reader(input);
  std::string out;
  out.reserve(input.size() + input.size() / 4);  // an answer line is about as long as its case
  enter_pages(out);
  // A batch of cases is read, then looked up, then written: the lookups of a batch (two
  // reads each, from L2) overlap in a loop of their own, where each case's lookup waited for
  // the one before when read, looked up and written in turn.
  constexpr std::size_t kBatch = 64;
  std::uint32_t keys[kBatch];
  std::uint8_t limits[kBatch];
  std::uint64_t codes[kBatch];
  char text[kBatch * (4 + MagicPathTable::kMovesRoom)];
  bool any = false;
  for (PlainSicilyReader::Read read = PlainSicilyReader::Read::kCase; read == PlainSicilyReader::Read::kCase;) {
    std::size_t cases = 0;
    while (cases < kBatch && (read = reader.next(limits[cases], keys[cases])) == PlainSicilyReader::Read::kCase) ++cases;
    if (read == PlainSicilyReader::Read::kNotPlain) return std::nullopt;
    if (read == PlainSicilyReader::Read::kEnd && cases == 0) break;
    any = true;
    const MagicPathTable& paths = table();
    for (std::size_t i = 0; i < cases; ++i) codes[i] = paths.code(keys[i]);
    char* at = text;
    for (std::size_t i = 0; i < cases; ++i) {
      const int length = MagicPathTable::path_length(codes[i]);
      if (length > limits[i]) {
        *at++ = '-', *at++ = '1', *at++ = '\n';
        continue;
      }
      if (length >= 10) *at++ = static_cast<char>('0' + length / 10);
      *at++ = static_cast<char>('0' + length % 10);
      *at++ = ' ';
      at = MagicPathTable::write_moves(codes[i], at);
      *at++ = '\n';
    }
    out.append(text, at);
  }
  // An empty input (or one of only the -1): the general reader says what it says.
  if (!any) return std::nullopt;
  return out;
}

}  // namespace searchbench
