// The declared options every pattern-database heuristic shares (--pattern, --pdb-cache), and
// how a pattern list is written: patterns split by '/', the members of one by ','
// ("1,2,3/4,5,6"); the heuristic reads each member (a tile number, a cell value, a corner
// name) and says what it takes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"

namespace searchbench {

struct PdbOptions {
  std::string pattern;    // empty: the puzzle's default
  std::string pdb_cache;  // empty: $XDG_CACHE_HOME/searchbench, else $HOME/.cache/searchbench; "none": memory only

  template <class V>
  void declare(V& v) {
    v(pattern, {.name = "pattern",
                .help = "the pattern databases: members split by ',', patterns by '/' (e.g. 1,2,3/4,5,6), or a named split",
                .default_text = "the puzzle's default"});
    v(pdb_cache, {.name = "pdb-cache",
                  .help = "folder of pattern database files, reused by later runs ('none': build in memory only)",
                  .default_text = "$XDG_CACHE_HOME/searchbench, else ~/.cache/searchbench"});
  }
};

// "1,2/3" -> {{"1","2"},{"3"}}: spaces around members are dropped; an empty pattern or member
// is refused (one line naming the text).
inline std::vector<std::vector<std::string>> split_pattern_list(std::string_view text) {
  std::vector<std::vector<std::string>> patterns(1);
  std::string member;
  const auto end_member = [&] {
    if (member.empty()) throw InputError("--pattern '" + std::string(text) + "' has an empty member or pattern");
    patterns.back().push_back(member);
    member.clear();
  };
  for (const char ch : text) {
    if (ch == ' ' || ch == '\t') continue;
    if (ch == ',' || ch == '/') {
      end_member();
      if (ch == '/') patterns.emplace_back();
    } else {
      member += ch;
    }
  }
  end_member();
  return patterns;
}

// Appends `item` to the list `out`, after `separator` unless it is the first.
inline void append_listed(std::string& out, std::string_view separator, std::string_view item) {
  if (!out.empty()) out += separator;
  out += item;
}

// A pattern written back as the cache key and notes show it: "1,2,5,6".
inline std::string pattern_text(const std::vector<int>& members) {
  std::string out;
  for (const int m : members) append_listed(out, ",", std::to_string(m));
  return out;
}

// A member that must be a whole number in [low, high].
inline int pattern_number(const std::string& member, int low, int high, std::string_view what, std::string_view text) {
  int v = 0;
  bool digits = !member.empty() && member.size() <= 3;
  for (const char ch : member) digits = digits && ch >= '0' && ch <= '9';
  if (digits) v = std::stoi(member);
  if (!digits || v < low || v > high)
    throw InputError("--pattern '" + std::string(text) + "': '" + member + "' is not a " + std::string(what) + " (" +
                     std::to_string(low) + ".." + std::to_string(high) + ")");
  return v;
}

}  // namespace searchbench
