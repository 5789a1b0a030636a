// "Did you mean": the registered names nearest to a misspelled one, by the optimal string
// alignment distance (Levenshtein's insertions, deletions and substitutions, plus swaps of
// two neighbouring letters, each one edit), for the messages that refuse an unknown puzzle,
// engine, encoder or heuristic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace searchbench {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: edits from a's first i letters to b's first j; three rows are all it reads.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

// The known names nearest to `given`, when they are near enough to be a slip: at most a
// third of the longer name's letters away (and at least one edit allowed). Empty otherwise.
inline std::vector<std::string> closest_names(std::string_view given, const std::vector<std::string>& known) {
  std::vector<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& name : known) {
    const std::size_t d = edit_distance(given, name);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(given.size(), name.size()) / 3);
    if (d == 0 || d > allowed) continue;
    if (best.empty() || d < best_distance) best = {name}, best_distance = d;
    else if (d == best_distance) best.push_back(name);
  }
  return best;
}

// "did you mean 'parallel'? " (or "'a' or 'b'"), to lead a refusal's list of choices; "" when
// no known name is near.
inline std::string did_you_mean(std::string_view given, const std::vector<std::string>& known) {
  const std::vector<std::string> near = closest_names(given, known);
  if (near.empty()) return "";
  std::string text = "did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i) text += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + ("'" + near[i] + "'");
  return text + "? ";
}

}  // namespace searchbench
