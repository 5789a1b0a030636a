// The ksolve/twsearch `.tws` reader (the format is described in docs/definitions.md): lines
// of tokens, `#` comments, Set/Solved/Move/MoveTransformation/MoveAlias/MoveSequence and this
// suite's MovePowers, each refusal naming the file and the line.
#include <string>
#include <string_view>
#include <vector>

#include "puzzles/definition_builder.hpp"

namespace searchbench {

using namespace definition_reading;

namespace {

struct Line {
  int number = 0;
  std::vector<std::string> tokens;
};

std::vector<Line> tokenize(std::string_view text, const std::string& file) {
  std::vector<Line> lines;
  int number = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    ++number;
    std::size_t end = text.find('\n', i);
    if (end == std::string_view::npos) end = text.size();
    Line line{number, {}};
    std::string token;
    for (std::size_t j = i; j <= end; ++j) {
      const char c = j < end ? text[j] : ' ';
      if (c == '\0') fail(file, number, "the file holds a NUL byte (not a text definition)");
      if (c == '#' && token.empty()) break;  // a comment to the end of the line
      if (static_cast<unsigned char>(c) <= ' ') {
        if (!token.empty()) line.tokens.push_back(std::move(token));
        token.clear();
      } else {
        token += c;
      }
    }
    if (!token.empty()) line.tokens.push_back(std::move(token));
    if (!line.tokens.empty()) lines.push_back(std::move(line));
    i = end + 1;
  }
  return lines;
}

bool starts_number(const std::string& t) { return !t.empty() && ((t[0] >= '0' && t[0] <= '9') || t[0] == '?'); }

// Reads a position block (Solved, StartState, Move, MoveTransformation) up to its End line.
// `kind`: 's' a state, 'm' a move (a permutation of sources, twists by source slot),
// 't' a move in the new style (0-based sources, twists by destination slot).
void read_block(const std::vector<Line>& lines, std::size_t& at, char kind, bool zero_based, const PermutationDefinition& d,
                const std::string& file, const std::string& what, int opened, std::vector<std::uint8_t>& piece,
                std::vector<std::uint8_t>& twist) {
  std::vector<bool> given(d.sets.size(), false);
  int set = -1, rows = 0;
  for (;; ++at) {
    if (at >= lines.size()) fail(file, opened, what + " has no End");
    const Line& line = lines[at];
    const auto& t = line.tokens;
    if (t[0] == "End") {
      if (t.size() != 1) fail(file, line.number, "End takes nothing after it");
      if (set >= 0 && rows == 0) fail(file, line.number, "set " + d.sets[set].name + " is named with no numbers after it");
      ++at;
      break;
    }
    if (starts_number(t[0])) {
      if (set < 0) fail(file, line.number, "numbers before any set name in " + what);
      const DefinitionSet& s = d.sets[set];
      if (rows == 2) fail(file, line.number, "set " + s.name + " has a third line of numbers in " + what);
      if (static_cast<int>(t.size()) != s.size)
        fail(file, line.number, "set " + s.name + " has " + std::to_string(s.size) + " slots, the line lists " + std::to_string(t.size()));
      for (int i = 0; i < s.size; ++i) {
        if (t[i] == "?") fail(file, line.number, "'?' (an unknown piece or orientation) is not supported");
        if (rows == 0) {
          const int lo = zero_based ? 0 : 1;
          const int v = number(file, line.number, t[i], lo, kind == 's' ? 255 + lo : s.size - 1 + lo, "piece") - lo;
          piece[s.offset + i] = static_cast<std::uint8_t>(v);
        } else {
          twist[s.offset + i] = static_cast<std::uint8_t>(number(file, line.number, t[i], 0, s.orientations - 1, "orientation"));
        }
      }
      if (rows == 0 && kind != 's') {  // a move's sources: each slot of the set exactly once
        std::vector<bool> seen(static_cast<std::size_t>(s.size), false);
        for (int i = 0; i < s.size; ++i) {
          if (seen[piece[s.offset + i]]) fail(file, line.number, "set " + s.name + " of " + what + " is not a permutation: " + t[i] + " appears twice");
          seen[piece[s.offset + i]] = true;
        }
      }
      ++rows;
      continue;
    }
    if (t.size() != 1) fail(file, line.number, "expected a set name or End in " + what + ", got \"" + printable(t[0]) + " ...\"");
    if (set >= 0 && rows == 0) fail(file, line.number, "set " + d.sets[set].name + " is named with no numbers after it");
    set = d.set_index(t[0]);
    if (set < 0) fail(file, line.number, "unknown set \"" + printable(t[0]) + "\" in " + what);
    if (given[set]) fail(file, line.number, "set " + t[0] + " appears twice in " + what);
    given[set] = true;
    rows = 0;
  }
  // Moves: sources made global, twists moved to the destination slot.
  if (kind == 's') return;
  for (std::size_t g = 0; g < d.sets.size(); ++g) {
    if (!given[g]) continue;  // left out: unchanged (already the identity)
    const DefinitionSet& s = d.sets[g];
    std::vector<std::uint8_t> by_source(twist.begin() + s.offset, twist.begin() + s.offset + s.size);
    for (int i = 0; i < s.size; ++i) {
      const int from = piece[s.offset + i];
      if (kind == 'm') twist[s.offset + i] = by_source[from];
      piece[s.offset + i] = static_cast<std::uint8_t>(s.offset + from);
    }
  }
}


}  // namespace

PermutationDefinition read_tws(std::string_view text, const std::string& file) {
  PermutationDefinition d;
  d.file = file;
  d.name = "Unnamed";
  d.checksum = checksum_of(text);
  Builder builder(d, file);
  const std::vector<Line> lines = tokenize(text, file);
  enum { kHeader, kSets, kMoves } stage = kHeader;
  for (std::size_t at = 0; at < lines.size();) {
    const Line& line = lines[at];
    const auto& t = line.tokens;
    const std::string& word = t[0];
    auto expect = [&](std::size_t count) {
      if (t.size() != count) fail(file, line.number, word + " takes " + std::to_string(count - 1) + " value(s), got " + std::to_string(t.size() - 1));
    };
    if (word == "Name") {
      if (stage != kHeader) fail(file, line.number, "Name must come first");
      expect(2);
      d.name = t[1];
      stage = kSets;
      ++at;
    } else if (word == "Set") {
      if (stage == kMoves) fail(file, line.number, "Set after the Solved block");
      expect(4);
      stage = kSets;
      builder.add_set(t[1], number(file, line.number, t[2], 1, 255, "set size"), number(file, line.number, t[3], 1, 127, "orientation count"),
                      line.number);
      ++at;
    } else if (word == "Solved" || word == "StartState") {
      if (stage != kSets || d.sets.empty()) fail(file, line.number, word + " must follow the Set lines, once");
      expect(1);
      d.solved_piece.assign(static_cast<std::size_t>(d.slots), 0);
      d.solved_twist.assign(static_cast<std::size_t>(d.slots), 0);
      for (const auto& s : d.sets)
        for (int i = 0; i < s.size; ++i) d.solved_piece[s.offset + i] = static_cast<std::uint8_t>(i);
      const int opened = line.number;
      read_block(lines, ++at, 's', word == "StartState", d, file, word, opened, d.solved_piece, d.solved_twist);
      stage = kMoves;
    } else if (word == "Move" || word == "MoveTransformation") {
      if (stage != kMoves) fail(file, line.number, word + " before the Solved block");
      expect(2);
      BaseMove m{t[1], builder.identity(), line.number};
      const int opened = line.number;
      read_block(lines, ++at, word == "Move" ? 'm' : 't', word != "Move", d, file, "move " + t[1], opened, m.move.source, m.move.twist);
      builder.add_move(std::move(m));
    } else if (word == "MoveAlias" || word == "MoveSequence") {
      if (stage != kMoves) fail(file, line.number, word + " before the Solved block");
      if (t.size() < 3 || (word == "MoveAlias" && t.size() != 3))
        fail(file, line.number, word + " takes a name and " + (word == "MoveAlias" ? "one move" : "a sequence of moves"));
      std::string seq;
      for (std::size_t i = 2; i < t.size(); ++i) seq += (i > 2 ? " " : "") + t[i];
      builder.add_sequence({t[1], seq, word == "MoveAlias", line.number});
      ++at;
    } else if (word == "MovePowers") {
      if (stage != kMoves) fail(file, line.number, word + " before the Solved block");
      if (t.size() < 3) fail(file, line.number, "MovePowers takes a move's name and the exponents of its powers to keep as moves");
      std::vector<int> exponents;
      for (std::size_t i = 2; i < t.size(); ++i) exponents.push_back(number(file, line.number, t[i], 1, kMaxDefinitionMoves, "exponent"));
      builder.keep_powers(t[1], std::move(exponents), line.number);
      ++at;
    } else if (word == "Illegal") {
      fail(file, line.number, "Illegal (pieces barred from slots) is not supported");
    } else {
      fail(file, line.number, "unexpected \"" + printable(word) + "\" at the start of a line");
    }
  }
  builder.finish();
  return d;
}


}  // namespace searchbench
