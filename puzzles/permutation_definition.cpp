// Reading permutation-puzzle definitions: the `.tws` text format of ksolve and twsearch and
// cubing.js's KPuzzle JSON, both into PermutationDefinition (the model is described in the
// header). Everything the reader refuses says the file, the line and why.
#include "puzzles/permutation_definition.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/xxhash.hpp"

namespace searchbench {

int PermutationDefinition::move_index(std::string_view wanted) const {
  for (std::size_t m = 0; m < moves.size(); ++m)
    if (moves[m].name == wanted) return static_cast<int>(m);
  return -1;
}

int PermutationDefinition::set_index(std::string_view wanted) const {
  for (std::size_t s = 0; s < sets.size(); ++s)
    if (sets[s].name == wanted) return static_cast<int>(s);
  return -1;
}

DefinitionMove PermutationDefinition::then(const DefinitionMove& a, const DefinitionMove& b) const {
  DefinitionMove c;
  c.source.resize(static_cast<std::size_t>(slots));
  c.twist.resize(static_cast<std::size_t>(slots));
  for (int i = 0; i < slots; ++i) {
    const int from = b.source[i];
    c.source[i] = a.source[from];
    c.twist[i] = static_cast<std::uint8_t>((a.twist[from] + b.twist[i]) % modulus[i]);
  }
  return c;
}

bool PermutationDefinition::is_identity(const DefinitionMove& m) const {
  for (int i = 0; i < slots; ++i)
    if (m.source[i] != i || m.twist[i] != 0) return false;
  return true;
}

bool names_definition_file(std::string_view name) {
  return name.ends_with(".tws") || name.ends_with(".json");
}

namespace {

// Files larger than this are refused before reading (the largest real definitions, big
// cubes' with every slice move, are a few hundred kilobytes).
constexpr std::size_t kMaxDefinitionBytes = std::size_t{4} << 20;

std::string checksum_of(std::string_view text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH64(text.data(), text.size(), 0)));
  return hex;
}

[[noreturn]] void fail(const std::string& file, int line, const std::string& why) {
  throw InputError(file + ":" + std::to_string(line) + ": " + why);
}

// A number in [lo, hi] or a failure naming `what`.
int number(const std::string& file, int line, const std::string& token, int lo, int hi, const std::string& what) {
  int value = 0;
  if (token.empty() || token.size() > 9 || !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }))
    fail(file, line, what + " \"" + printable(token) + "\" is not a number");
  value = std::stoi(token);
  if (value < lo || value > hi)
    fail(file, line, what + " " + token + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return value;
}

// A whole-puzzle rotation as twsearch names them (x, y2, z', or capitals then `v`).
bool is_rotation_name(std::string_view name) {
  if (!name.empty() && (name[0] == 'x' || name[0] == 'y' || name[0] == 'z'))
    if (name.size() == 1 || (name.size() == 2 && (name[1] == '2' || name[1] == '\''))) return true;
  std::size_t i = 0;
  while (i < name.size() && (name[i] == '_' || (name[i] >= 'A' && name[i] <= 'Z'))) ++i;
  return i > 0 && i + 1 == name.size() && name[i] == 'v';
}

// Moves and sequences as read, before their powers are expanded.
struct BaseMove {
  std::string name;
  DefinitionMove move;
  int line = 0;
};
struct Sequence {
  std::string name, text;
  bool alias = false;
  int line = 0;
};

class Builder {
 public:
  Builder(PermutationDefinition& d, const std::string& file) : d_(d), file_(file) {}

  void add_set(const std::string& name, int size, int orientations, int line) {
    if (d_.set_index(name) >= 0) fail(file_, line, "set " + name + " is defined twice");
    if (d_.slots + size > kMaxDefinitionSlots)
      fail(file_, line, "the sets hold more than " + std::to_string(kMaxDefinitionSlots) + " slots in all (the most this suite supports)");
    d_.sets.push_back({name, size, orientations, d_.slots});
    d_.slots += size;
    for (int i = 0; i < size; ++i) d_.modulus.push_back(static_cast<std::uint8_t>(orientations));
  }
  DefinitionMove identity() const {
    DefinitionMove m;
    m.source.resize(static_cast<std::size_t>(d_.slots));
    std::iota(m.source.begin(), m.source.end(), 0);
    m.twist.assign(static_cast<std::size_t>(d_.slots), 0);
    return m;
  }
  void add_move(BaseMove m) {
    check_new_name(m.name, m.line);
    if (d_.is_identity(m.move)) fail(file_, m.line, "move " + m.name + " changes nothing");
    bases_.push_back(std::move(m));
  }
  void add_sequence(Sequence s) {
    check_new_name(s.name, s.line);
    sequences_.push_back(std::move(s));
  }
  // Expands the sequences and every power; the moves in search order.
  void finish() {
    if (d_.sets.empty()) fail(file_, 0, "the definition has no Set");
    if (d_.solved_piece.empty()) fail(file_, 0, "the definition has no Solved block");
    std::vector<bool> done(sequences_.size(), false);
    std::vector<DefinitionMove> products(sequences_.size());
    for (std::size_t left = sequences_.size(); left > 0;) {  // passes until nothing more resolves
      std::size_t resolved = 0;
      for (std::size_t i = 0; i < sequences_.size(); ++i) {
        if (done[i]) continue;
        if (auto product = resolve(sequences_[i], products, done)) {
          products[i] = *product;
          done[i] = true;
          ++resolved;
        }
      }
      if (resolved == 0) {
        for (std::size_t i = 0; i < sequences_.size(); ++i)
          if (!done[i])
            fail(file_, sequences_[i].line,
                 "cannot expand " + sequences_[i].name + " = \"" + printable(sequences_[i].text) +
                     "\": it names an unknown move or depends on itself");
      }
      left -= resolved;
    }
    for (auto& b : bases_) expand(b.name, b.move, b.line, d_.moves);
    for (std::size_t i = 0; i < sequences_.size(); ++i) {
      if (d_.is_identity(products[i])) fail(file_, sequences_[i].line, "move " + sequences_[i].name + " changes nothing");
      expand(sequences_[i].name, products[i], sequences_[i].line, sequences_[i].alias ? d_.aliases : d_.moves);
    }
    if (d_.moves.empty()) fail(file_, 0, "the definition has no Move");
    if (static_cast<int>(d_.moves.size()) > kMaxDefinitionMoves)
      fail(file_, 0, "the moves and their powers number " + std::to_string(d_.moves.size()) + "; at most " +
                         std::to_string(kMaxDefinitionMoves) + " are supported");
    std::vector<std::string> names;
    for (const auto& m : d_.moves) names.push_back(m.name);
    for (const auto& m : d_.aliases) names.push_back(m.name);
    std::sort(names.begin(), names.end());
    if (auto dup = std::adjacent_find(names.begin(), names.end()); dup != names.end())
      fail(file_, 0, "two moves are named " + *dup + " (a power's name clashes with a move's)");
    d_.inverse.assign(d_.moves.size(), -1);
    for (std::size_t m = 0; m < d_.moves.size(); ++m)
      for (std::size_t n = 0; n < d_.moves.size(); ++n)
        if (d_.moves[n].base == d_.moves[m].base && d_.moves[n].source.size() &&
            (d_.moves[n].power + d_.moves[m].power) % base_order_[d_.moves[m].base] == 0)
          d_.inverse[m] = static_cast<int>(n);
  }

 private:
  void check_new_name(const std::string& name, int line) {
    if (is_rotation_name(name)) fail(file_, line, "whole-puzzle rotations (" + name + ") are not supported");
    if (name.find_first_of("\"\\") != std::string::npos) fail(file_, line, "move name " + printable(name) + " has a quote or backslash");
    for (const auto& b : bases_)
      if (b.name == name) fail(file_, line, "move " + name + " is defined twice (first on line " + std::to_string(b.line) + ")");
    for (const auto& s : sequences_)
      if (s.name == name) fail(file_, line, "move " + name + " is defined twice (first on line " + std::to_string(s.line) + ")");
  }
  // The named move or power among the base moves and the sequences resolved so far.
  std::optional<DefinitionMove> named(std::string_view token, const std::vector<DefinitionMove>& products,
                                      const std::vector<bool>& done) const {
    for (const auto& b : bases_)
      if (auto m = power_named(b.name, b.move, token)) return m;
    for (std::size_t i = 0; i < sequences_.size(); ++i)
      if (done[i])
        if (auto m = power_named(sequences_[i].name, products[i], token)) return m;
    return std::nullopt;
  }
  std::optional<DefinitionMove> power_named(const std::string& name, const DefinitionMove& move, std::string_view token) const {
    if (!token.starts_with(name)) return std::nullopt;
    DefinitionMove p = move;
    for (int k = 1; k <= kMaxDefinitionMoves + 1 && !d_.is_identity(p); ++k) {
      if (token == power_name(name, k, order_of(move))) return p;
      p = d_.then(p, move);
    }
    return std::nullopt;
  }
  std::optional<DefinitionMove> resolve(const Sequence& s, const std::vector<DefinitionMove>& products, const std::vector<bool>& done) const {
    DefinitionMove product = identity();
    std::string token;
    for (std::size_t i = 0; i <= s.text.size(); ++i) {
      const char c = i < s.text.size() ? s.text[i] : ' ';
      if (c > ' ' && c != ',') {
        token += c;
        continue;
      }
      if (token.empty()) continue;
      auto m = named(token, products, done);
      if (!m) return std::nullopt;
      product = d_.then(product, *m);
      token.clear();
    }
    return product;
  }
  int order_of(const DefinitionMove& move) const {
    DefinitionMove p = move;
    int order = 1;
    while (!d_.is_identity(p)) {
      if (++order > kMaxDefinitionMoves + 1) return 0;
      p = d_.then(p, move);
    }
    return order;
  }
  static std::string power_name(const std::string& name, int k, int order) {
    int turn = k;
    if (order - turn < turn) turn -= order;  // the shorter way round, as twsearch names it
    if (turn == 1) return name;
    if (turn == -1) return name + "'";
    return name + std::to_string(std::abs(turn)) + (turn < 0 ? "'" : "");
  }
  void expand(const std::string& name, const DefinitionMove& move, int line, std::vector<DefinitionMove>& out) {
    const int order = order_of(move);
    if (order == 0)
      fail(file_, line, "move " + name + " has an order above " + std::to_string(kMaxDefinitionMoves) + " (too many powers to list)");
    const int base = static_cast<int>(base_order_.size());
    base_order_.push_back(order);
    DefinitionMove p = move;
    for (int k = 1; k < order; ++k) {
      p.name = power_name(name, k, order);
      p.base = base;
      p.power = k;
      p.order = order / std::gcd(order, k);
      out.push_back(p);
      p = d_.then(p, move);
    }
  }

  PermutationDefinition& d_;
  const std::string& file_;
  std::vector<BaseMove> bases_;
  std::vector<Sequence> sequences_;
  std::vector<int> base_order_;
};

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
    } else if (word == "Illegal") {
      fail(file, line.number, "Illegal (pieces barred from slots) is not supported");
    } else {
      fail(file, line.number, "unexpected \"" + printable(word) + "\" at the start of a line");
    }
  }
  builder.finish();
  return d;
}

PermutationDefinition read_kpuzzle_json(std::string_view text, const std::string& file) {
  using Json = nlohmann::ordered_json;
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    fail(file, 0, std::string("not valid JSON: ") + e.what());
  }
  PermutationDefinition d;
  d.file = file;
  d.checksum = checksum_of(text);
  Builder builder(d, file);
  auto field = [&](const Json& obj, const char* key, const std::string& where) -> const Json& {
    if (!obj.is_object() || !obj.contains(key)) fail(file, 0, where + " has no \"" + key + "\"");
    return obj.at(key);
  };
  auto small = [&](const Json& v, int lo, int hi, const std::string& what) {
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      fail(file, 0, what + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return static_cast<int>(v.get<long long>());
  };
  try {
    d.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "Unnamed";
    const Json& orbits = field(j, "orbits", "the puzzle");
    if (!orbits.is_object()) fail(file, 0, "\"orbits\" must be an object");
    for (const auto& [name, o] : orbits.items())
      builder.add_set(name, small(field(o, "numPieces", "orbit " + name), 1, 255, "numPieces of " + name),
                      small(field(o, "numOrientations", "orbit " + name), 1, 127, "numOrientations of " + name), 0);
    const Json& start = j.contains("defaultPattern") ? j["defaultPattern"] : field(j, "startStateData", "the puzzle");
    d.solved_piece.assign(static_cast<std::size_t>(d.slots), 0);
    d.solved_twist.assign(static_cast<std::size_t>(d.slots), 0);
    for (const auto& s : d.sets) {
      const Json& o = field(start, s.name.c_str(), "defaultPattern");
      const Json& pieces = field(o, "pieces", "defaultPattern of " + s.name);
      const Json& twists = field(o, "orientation", "defaultPattern of " + s.name);
      if (!pieces.is_array() || !twists.is_array() || static_cast<int>(pieces.size()) != s.size || static_cast<int>(twists.size()) != s.size)
        fail(file, 0, "defaultPattern of " + s.name + " must list " + std::to_string(s.size) + " pieces and orientations");
      for (int i = 0; i < s.size; ++i) {
        d.solved_piece[s.offset + i] = static_cast<std::uint8_t>(small(pieces[i], 0, 255, "a piece of " + s.name));
        d.solved_twist[s.offset + i] = static_cast<std::uint8_t>(small(twists[i], 0, s.orientations - 1, "an orientation of " + s.name));
      }
    }
    const Json& moves = field(j, "moves", "the puzzle");
    if (!moves.is_object()) fail(file, 0, "\"moves\" must be an object");
    for (const auto& [name, t] : moves.items()) {
      BaseMove m{name, builder.identity(), 0};
      if (!t.is_object()) fail(file, 0, "move " + name + " must be an object");
      for (const auto& [orbit, o] : t.items()) {
        const int set = d.set_index(orbit);
        if (set < 0) fail(file, 0, "move " + name + " names the unknown orbit " + orbit);
        const DefinitionSet& s = d.sets[set];
        const Json& perm = field(o, "permutation", "move " + name + " on " + orbit);
        const Json& twist = o.contains("orientationDelta") ? o["orientationDelta"] : field(o, "orientation", "move " + name + " on " + orbit);
        if (!perm.is_array() || !twist.is_array() || static_cast<int>(perm.size()) != s.size || static_cast<int>(twist.size()) != s.size)
          fail(file, 0, "move " + name + " on " + orbit + " must list " + std::to_string(s.size) + " sources and orientations");
        std::vector<bool> seen(static_cast<std::size_t>(s.size), false);
        for (int i = 0; i < s.size; ++i) {
          const int from = small(perm[i], 0, s.size - 1, "a source of move " + name);
          if (seen[from]) fail(file, 0, "move " + name + " on " + orbit + " is not a permutation");
          seen[from] = true;
          m.move.source[s.offset + i] = static_cast<std::uint8_t>(s.offset + from);
          m.move.twist[s.offset + i] = static_cast<std::uint8_t>(small(twist[i], 0, s.orientations - 1, "an orientation of move " + name));
        }
      }
      builder.add_move(std::move(m));
    }
    if (j.contains("derivedMoves") && j["derivedMoves"].is_object())
      for (const auto& [name, alg] : j["derivedMoves"].items()) {
        if (!alg.is_string()) fail(file, 0, "derived move " + name + " must be a string of moves");
        builder.add_sequence({name, alg.get<std::string>(), false, 0});
      }
  } catch (const Json::exception& e) {
    fail(file, 0, std::string("unexpected JSON: ") + e.what());
  }
  builder.finish();
  return d;
}

namespace {

// The text of a definition file, refusing what is no regular file or too large before
// reading it (a FIFO would block a plain read; a device could stream forever).
std::optional<std::string> read_file_text(const std::string& path, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) fail(path, 0, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(path, 0, "is a folder, not a definition file");
  if (!S_ISREG(st.st_mode)) fail(path, 0, "is not a regular file (a FIFO, socket or device is refused)");
  if (static_cast<std::size_t>(st.st_size) > kMaxDefinitionBytes)
    fail(path, 0, "is larger than " + std::to_string(kMaxDefinitionBytes >> 20) + " MiB; refused as no definition file");
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, 0, std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

}  // namespace

std::shared_ptr<const PermutationDefinition> load_definition(std::string_view name) {
  struct Cached {
    std::string text;
    std::shared_ptr<const PermutationDefinition> definition;
  };
  static std::mutex mutex;
  static std::map<std::string, Cached, std::less<>> cache;
  const std::string file(name);
  struct stat st {};
  std::optional<std::string> text = read_file_text(file, st);
  if (!text) {
    for (const auto& s : shipped_definitions())
      if (s.file == name) text = std::string(s.text);
    if (!text) fail(file, 0, "no such file (and no shipped definition of that name)");
  }
  const std::lock_guard lock(mutex);
  auto it = cache.find(file);
  if (it != cache.end() && it->second.text == *text) return it->second.definition;
  auto read = std::make_shared<const PermutationDefinition>(name.ends_with(".json") ? read_kpuzzle_json(*text, file)
                                                                                    : read_tws(*text, file));
  cache[file] = {std::move(*text), read};
  return read;
}

}  // namespace searchbench
