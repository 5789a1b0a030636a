// Numbers as text, both ways. Read: one grammar for the numbers every option takes. CLI11's
// own conversions read "0x10" as 16, "010" as 8 and "+5" or " 5" as 5, and let
// "99999999999999999999" saturate, while other options refused such text: so every numeric
// option reads its text through these validators, which refuse anything but plain decimal
// digits (a leading '-' only to be told that it is out of range, unless the range takes
// negatives), check the range on the exact value, and hand CLI11 the value back in plain
// decimal for its conversion. Written: times, rates, counts and ratios for people (at the end).
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace searchbench::cli {

struct WholeNumber {
  bool negative = false;
  std::uint64_t magnitude = 0;
  bool too_large = false;  // past what 64 bits hold
};

inline bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Decimal digits after an optional '-'; nullopt for anything else.
inline std::optional<WholeNumber> read_whole_number(std::string_view text) {
  WholeNumber n;
  n.negative = !text.empty() && text.front() == '-';
  if (n.negative) text.remove_prefix(1);
  if (!all_digits(text)) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n.magnitude);
  n.too_large = ec == std::errc::result_out_of_range;
  return n;
}

inline bool in_range(const WholeNumber& n, long long lo, unsigned long long hi) {
  if (n.too_large) return false;
  if (!n.negative || n.magnitude == 0)
    return n.magnitude <= hi && (lo <= 0 || n.magnitude >= static_cast<unsigned long long>(lo));
  // -magnitude >= lo: only where lo is negative (written so that lo = LLONG_MIN cannot overflow).
  return lo < 0 && n.magnitude <= static_cast<unsigned long long>(-(lo + 1)) + 1;
}

inline std::string decimal(const WholeNumber& n) {
  return (n.negative && n.magnitude > 0 ? "-" : "") + std::to_string(n.magnitude);
}

inline std::string range_text(long long lo, unsigned long long hi) { return std::to_string(lo) + " to " + std::to_string(hi); }

// The help's note on the range, in CLI::Range's words; a bound as wide as the type goes unsaid.
inline std::string range_help(long long lo, unsigned long long hi, const char* kind = "INT") {
  if (hi >= static_cast<unsigned long long>(std::numeric_limits<long long>::max())) return std::string(kind) + " >= " + std::to_string(lo);
  return std::string(kind) + " in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]";
}

// "" and `text` rewritten in plain decimal when it is a whole number in lo..hi, else why not
// (CLI11 prefixes the option's name).
inline std::string whole_number_problem(std::string& text, long long lo, unsigned long long hi) {
  if (text.empty()) return "must not be empty";
  const auto n = read_whole_number(text);
  if (!n) return "'" + text + "' is not a whole number (plain decimal digits, e.g. 4)";
  if (!in_range(*n, lo, hi)) return "Value " + text + " not in range " + range_text(lo, hi);
  text = decimal(*n);
  return "";
}

inline CLI::Validator whole_number(long long lo, unsigned long long hi) {
  return CLI::Validator([lo, hi](std::string& text) { return whole_number_problem(text, lo, hi); },
                        range_help(lo, hi));
}

// A comma-separated list of whole numbers in lo..hi ("1,2,4"), with no empty item (CLI11's
// own delimiter drops those silently); rewritten as the numbers in plain decimal.
inline CLI::Validator whole_number_list(long long lo, unsigned long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        if (text.empty()) return "must not be empty";
        std::string canonical;
        for (std::size_t begin = 0;;) {
          const std::size_t comma = std::min(text.find(',', begin), text.size());
          std::string item = text.substr(begin, comma - begin);
          if (item.empty()) return "'" + text + "' has an empty item between its commas";
          if (auto why = whole_number_problem(item, lo, hi); !why.empty()) return why;
          canonical += (canonical.empty() ? "" : ",") + item;
          if (comma == text.size()) break;
          begin = comma + 1;
        }
        text = canonical;
        return "";
      },
      range_help(lo, hi, "INT,..."));
}

// The numbers of texts that whole_number_list() has checked.
inline std::vector<int> whole_numbers(const std::vector<std::string>& lists) {
  std::vector<int> out;
  for (const auto& list : lists)
    for (std::size_t begin = 0; begin <= list.size();) {
      const std::size_t comma = std::min(list.find(',', begin), list.size());
      out.push_back(std::stoi(list.substr(begin, comma - begin)));
      begin = comma + 1;
    }
  return out;
}

// Bytes per unit of a size, the units CLI::AsSizeValue(false) knew (any case; k, kb, ki and
// kib all 1024); 0 for an unknown unit.
inline std::uint64_t size_unit(std::string unit) {
  for (auto& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (unit.empty() || unit == "b") return 1;
  for (const std::string_view suffix : {"b", "ib", "i"})
    if (unit.size() == 1 + suffix.size() && unit.compare(1, std::string::npos, suffix) == 0) unit.resize(1);
  const std::string_view prefixes = "kmgtpe";
  const std::size_t power = unit.size() == 1 ? prefixes.find(unit[0]) : std::string_view::npos;
  return power == std::string_view::npos ? 0 : std::uint64_t{1} << (10 * (power + 1));
}

// A size is digits with an optional unit (512M, 4G, 64k, 1048576, 2GiB), at least 1 byte;
// hexadecimal, signs, spaces, exponents, fractions and inf are refused, and so is a size past
// what 64 bits hold instead of saturating. Rewritten as the bytes in plain decimal.
inline CLI::Validator size_text() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
        const std::uint64_t unit = digits > 0 ? size_unit(text.substr(digits)) : 0;
        if (unit == 0) return "'" + text + "' is not a size (use e.g. 512M, 4G, 64k)";
        const auto n = read_whole_number(std::string_view(text).substr(0, digits));
        if (n->too_large || n->magnitude > UINT64_MAX / unit)
          return "'" + text + "' is too large a size (at most " + std::to_string(UINT64_MAX) + " bytes)";
        if (n->magnitude == 0) return "Value 0 not in range 1 to " + std::to_string(UINT64_MAX);
        text = std::to_string(n->magnitude * unit);
        return "";
      },
      "SIZE");
}

// A non-negative decimal number such as 0.25, 4 or 4.0 (`what` names it in the message);
// signs, spaces, exponents, hexadecimal, inf, nan and the empty string are refused.
inline CLI::Validator decimal_fraction(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        const std::size_t point = std::min(text.find('.'), text.size());
        const std::string_view whole = std::string_view(text).substr(0, point);
        const std::string_view fraction = point < text.size() ? std::string_view(text).substr(point + 1) : "";
        const bool plain = (whole.empty() || all_digits(whole)) && (fraction.empty() || all_digits(fraction)) &&
                           whole.size() + fraction.size() > 0;
        if (!plain) return "'" + text + "' is not " + what + ": write a plain non-negative decimal number such as 0.25 or 4";
        if (!std::isfinite(std::strtod(text.c_str(), nullptr))) return "'" + text + "' is too large for " + what;
        return "";
      },
      "");
}

// Numbers written for people: times, rates and ratios with their units, three significant
// figures, so that a table's column reads at a glance; the JSON and CSV keep the raw numbers.

// 1.234 s, 12.3 ms, 45.6 us: small spaces never show as 0.
inline std::string human_seconds(double s) {
  char buf[32];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}

// Three significant figures: 1.23, 12.3, 123 (a larger number in whole units).
inline std::string three_figures(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, v < 9.995 ? "%.2f" : v < 99.95 ? "%.1f" : "%.0f", v);
  return buf;
}

// 21, 512, 1.52 k, 27.3 M, 4.10 G: an SI prefix (powers of 1000) and three significant
// figures (a whole number below 1000 as it is).
inline std::string human_quantity(double v) {
  const char* prefixes[] = {"", " k", " M", " G", " T", " P", " E"};
  int p = 0;
  while (v >= 999.5 && p < 6) v /= 1000, ++p;
  if (p == 0 && (v >= 99.5 || v == std::floor(v))) {  // a count below 1000 reads best as it is
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return three_figures(v) + prefixes[p];
}

// "27.3 M states/s".
inline std::string human_rate(double per_second, std::string_view unit) { return human_quantity(per_second) + " " + std::string(unit); }

// 40,320: every digit, in groups of three.
inline std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A ratio of two times: "2.31x".
inline std::string ratio_text(double ratio) { return three_figures(ratio) + "x"; }

}  // namespace searchbench::cli
