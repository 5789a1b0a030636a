// Reads a board or a stack written as whole numbers separated by spaces, tabs, newlines,
// commas or (where `slash_separates`) '/', as every puzzle's parse() accepts them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/printable.hpp"

namespace searchbench {

// Writes the numbers of `text` into values[0 .. capacity) and returns how many there were
// (past `capacity` they are counted but not kept, so the caller can report the count).
// `item` names one number and `whole` the text in error messages ("tile number", "board").
// A number is written as people write it, without leading zeros ("00" and "08" are refused
// rather than read as 0 and 8), and where '/' separates rows no row may be empty: a '/' at
// either end or two with no number between them are refused, not taken as spaces.
inline int parse_number_list(std::string_view text, int* values, int capacity, bool slash_separates,
                             std::string_view item, std::string_view whole) {
  const auto refuse = [&](const std::string& why) {
    throw InputError(why + " in " + std::string(whole) + " \"" + printable(text) + "\"");
  };
  const std::string empty_row = "an empty row (a '/' must stand between two rows of numbers)";
  int count = 0;
  bool slash_seen = false, row_has_number = false;
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (slash_separates && ch == '/') {
      if (!row_has_number) refuse(empty_row);
      slash_seen = true, row_has_number = false;
      ++i;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ',') {
      ++i;
      continue;
    }
    if (ch < '0' || ch > '9') refuse("unexpected character '" + printable(text.substr(i, 1)) + "'");
    std::size_t end = i;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    const std::string_view digits = text.substr(i, end - i);
    if (digits.size() > 1 && digits[0] == '0') refuse(std::string(item) + " \"" + std::string(digits) + "\" has a leading zero");
    if (digits.size() > 2) refuse(std::string(item) + " is out of range");  // more than 99
    const int v = digits.size() == 1 ? digits[0] - '0' : 10 * (digits[0] - '0') + (digits[1] - '0');
    if (count < capacity) values[count] = v;
    ++count;
    row_has_number = true;
    i = end;
  }
  if (slash_seen && !row_has_number) refuse(empty_row);
  return count;
}

// The number of entries in each '/'-separated row of `text` (one row when it has no '/'),
// for puzzles whose rows the separators must match.
inline std::vector<int> row_lengths(std::string_view text) {
  std::vector<int> rows{0};
  bool in_entry = false;
  for (const char ch : text) {
    const bool separator = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ',' || ch == '/';
    if (!separator && !in_entry) ++rows.back();
    in_entry = !separator;
    if (ch == '/') rows.push_back(0);
  }
  return rows;
}

// "4, 4 and 3": row lengths for a message.
inline std::string listed_lengths(const std::vector<int>& rows) {
  std::string sizes;
  for (std::size_t i = 0; i < rows.size(); ++i) sizes += (i == 0 ? "" : i + 1 == rows.size() ? " and " : ", ") + std::to_string(rows[i]);
  return sizes;
}

}  // namespace searchbench
