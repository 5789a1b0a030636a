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
inline int parse_number_list(std::string_view text, int* values, int capacity, bool slash_separates,
                             std::string_view item, std::string_view whole) {
  int count = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ',' || (slash_separates && ch == '/')) {
      ++i;
      continue;
    }
    if (ch < '0' || ch > '9')
      throw InputError("unexpected character '" + printable(text.substr(i, 1)) + "' in " + std::string(whole) + " \"" + printable(text) + "\"");
    int v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + (text[i] - '0');
      if (v > 99)
        throw InputError(std::string(item) + " is out of range in " + std::string(whole) + " \"" + printable(text) + "\"");
      ++i;
    }
    if (count < capacity) values[count] = v;
    ++count;
  }
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
