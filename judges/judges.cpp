// Judge front ends: each judge's input and output format, the one list of judges, and
// nothing of the search: the cases go to the judges' own searches or the registry's
// engines (judges/routes.hpp).
#include "judges/judges.hpp"

#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "judges/plain_sicily.hpp"
#include "judges/routes.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

namespace {

using judge_routes::CheckersOracle;
using judge_routes::FixedStartPaths;

constexpr std::size_t kFzuMaxLength = 20;
static_assert(kFzuMaxLength <= CheckersMeet::kMaxCells, "the meeting search takes every line fzu1603 allows");

// Whitespace-separated tokens with the line each starts on.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}

  std::optional<std::string_view> next() {
    while (pos_ < text_.size() && is_judge_space(text_[pos_])) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= text_.size()) return std::nullopt;
    token_line_ = line_;
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && !is_judge_space(text_[pos_])) ++pos_;
    return text_.substr(begin, pos_ - begin);
  }
  // Reads an integer; nullopt at end of input; InputError for anything else.
  std::optional<long long> next_int(const char* what) {
    auto t = next();
    if (!t) return std::nullopt;
    long long v = 0;
    auto [ptr, ec] = std::from_chars(t->data(), t->data() + t->size(), v);
    if (ec != std::errc() || ptr != t->data() + t->size())
      fail("expected " + std::string(what) + ", got '" + printable(t->substr(0, 20)) + "'");
    return v;
  }
  std::int64_t line() const { return token_line_; }
  // The judge's output so far, carried by the error so that answers already computed are
  // not lost.
  void keep_answers(const std::string& answers) { answers_ = &answers; }
  // The error at the last token's line, or at line `at` where given.
  [[noreturn]] void fail(const std::string& message, std::int64_t at = 0) const {
    throw JudgeInputError("line " + std::to_string(at > 0 ? at : token_line_) + ": " + message, answers_ ? *answers_ : std::string());
  }
  bool at_end() {
    const std::size_t p = pos_;
    const std::int64_t l = line_;
    const bool end = !next().has_value();
    pos_ = p;
    line_ = l;
    return end;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 1;  // 64 bits: an input of more than 2^31 lines is only slow
  std::int64_t token_line_ = 1;
  const std::string* answers_ = nullptr;
};

std::string cases(long long n) { return std::to_string(n) + (n == 1 ? " case" : " cases"); }

// Reads 2K cell values into a row-order board (`clockwise`: the input lists them clockwise).
MagicState read_board(Tokens& in, const MagicBoard& board, bool clockwise) {
  int values[16];
  for (int i = 0; i < board.cells(); ++i) {
    auto v = in.next_int("a cell value");
    if (!v) in.fail("input ended inside a board: expected " + std::to_string(board.cells()) + " numbers, got " + std::to_string(i));
    if (*v < 1 || *v > board.cells()) in.fail("cell value " + std::to_string(*v) + " is out of range 1.." + std::to_string(board.cells()));
    values[i] = static_cast<int>(*v);
  }
  try {
    const MagicState s = board.from_row_values(values, board.cells());
    return clockwise ? board.from_clockwise(s) : s;
  } catch (const InputError& e) {
    in.fail(e.what());
  }
}

}  // namespace

std::string judge_sicily(std::string_view input, bool sicily1515, const JudgeRegistry* registry) {
  const MagicBoard board(4, sicily1515 ? MagicRules::sicily1515 : MagicRules::msquare);
  std::optional<FixedStartPaths> oracle;  // built at the first case
  if (!registry)
    if (auto out = answer_plain_sicily(input, [&]() -> const MagicPathTable& {
          if (!oracle) oracle.emplace(board, registry);
          return *oracle->table();
        }))
      return std::move(*out);
  Tokens in(input);
  if (in.at_end()) throw InputError("line 1: empty input: expected a move limit N");
  std::string out;
  out.reserve(input.size() + input.size() / 4);  // an answer line is about as long as its case
  in.keep_answers(out);
  while (true) {
    auto limit = in.next_int("a move limit N");
    if (!limit) break;
    if (*limit == -1) {
      if (!in.at_end()) {
        in.next();
        in.fail("unexpected input after the -1 that ends the input");
      }
      break;
    }
    if (*limit < 0) in.fail("move limit " + std::to_string(*limit) + " is negative (only -1 ends the input)");
    const MagicState target = read_board(in, board, false);
    if (!oracle) oracle.emplace(board, registry);
    const auto path = oracle->path(target);
    if (!path || static_cast<long long>(path->size()) > *limit) {
      out += "-1\n";
    } else {
      out += std::to_string(path->size());
      out += ' ';
      out += *path;
      out += '\n';
    }
  }
  return out;
}

std::string judge_msquare(std::string_view input, const JudgeRegistry* registry) {
  Tokens in(input);
  const MagicBoard board(4, MagicRules::msquare);
  if (in.at_end()) throw InputError("line 1: empty input: expected 8 numbers");
  const MagicState target = read_board(in, board, true);
  if (!in.at_end()) {
    in.next();
    in.fail("unexpected extra input after the 8 numbers");
  }
  FixedStartPaths oracle(board, registry);
  const auto path = oracle.path(target);
  if (!path) throw std::logic_error("msquare: every board is reachable, yet no path was found");
  std::string out = std::to_string(path->size()) + "\n";
  if (path->empty()) return out + "\n";
  for (std::size_t i = 0; i < path->size(); i += 60) out += path->substr(i, 60) + "\n";
  return out;
}

std::string judge_fzu1603(std::string_view input, const JudgeRegistry* registry) {
  Tokens in(input);
  auto count = in.next_int("the case count T");
  if (!count) throw InputError("line 1: empty input: expected the case count T");
  if (*count < 0) in.fail("case count " + std::to_string(*count) + " is negative");
  CheckersOracle oracle(registry);
  std::string out;
  in.keep_answers(out);
  for (long long c = 0; c < *count; ++c) {
    auto a = in.next();
    if (!a) in.fail("the case count is " + std::to_string(*count) + " but only " + cases(c) + (c == 1 ? " is" : " are") + " given");
    const std::int64_t line = in.line();
    auto b = in.next();
    if (!b || in.line() != line) in.fail("case " + std::to_string(c + 1) + " needs two boards on one line", line);
    if (a->size() != b->size())
      in.fail("boards '" + printable(a->substr(0, 40)) + "' and '" + printable(b->substr(0, 40)) + "' differ in length");
    // The judge promises N < 21. Longer lines grow without bound for bidir (an antipodal
    // N=32 pair passes 150 MB and keeps going): `searchbench run` takes those, with its
    // memory guard.
    if (a->empty() || a->size() > kFzuMaxLength)
      in.fail("board length " + std::to_string(a->size()) + " is outside fzu1603's 1.." + std::to_string(kFzuMaxLength) +
              " (longer lines: searchbench run --puzzle checkers-N)");
    try {
      out += std::to_string(oracle.distance(*a, *b));
      out += '\n';
    } catch (const InputError& e) {
      in.fail(e.what());
    }
  }
  if (!in.at_end()) {
    in.next();
    in.fail("unexpected extra input after " + cases(*count));
  }
  return out;
}

namespace {

// The one list of judges: name, help text, the function that answers it, and the registry
// puzzle and route its engine and encoder options are checked against before any input.
struct Judge {
  JudgeInfo info;
  std::string (*run)(std::string_view input, const JudgeRegistry* registry);
  std::string_view probe_puzzle;
  JudgeRoute route;
  bool prints_paths;  // the output holds paths, not only their lengths
};

constexpr Judge kJudges[] = {
    {{"sicily1151",
      "msquare rules, 2x4. Repeated blocks: a move limit N, then the target's 8 numbers\n"
      "in row order (top row, then bottom row). N = -1 or the end of input stops;\n"
      "nothing may follow the -1. Output per block: \"M PATH\" (e.g. \"2 AB\"), or -1\n"
      "when the shortest solution needs more than N moves."},
     [](std::string_view input, const JudgeRegistry* registry) { return judge_sicily(input, false, registry); },
     "msquare", judge_routes::kFixedStart, true},
    {{"sicily1515", "the same format under the sicily1515 rules (start 1 2 3 4 / 5 6 7 8)."},
     [](std::string_view input, const JudgeRegistry* registry) { return judge_sicily(input, true, registry); },
     "sicily1515", judge_routes::kFixedStart, true},
    {{"msquare",
      "USACO Magic Squares: 8 numbers, the target in clockwise order (top row left to\n"
      "right, then bottom row right to left). Output: the length, then the smallest\n"
      "shortest path, 60 moves per line (an empty line when the length is 0)."},
     judge_msquare,
     "msquare", judge_routes::kFixedStart, true},
    {{"fzu1603",
      "T, then T lines of two checkers lines A and B of equal length 1..20 ('#', '@'\n"
      "and one hole '&'). Output: the fewest moves from A to B per line, -1 when\n"
      "unreachable."},
     judge_fzu1603,
     "checkers-5", judge_routes::kCheckers, false},
};

const Judge& find_judge(std::string_view name) {
  for (const Judge& j : kJudges)
    if (j.info.name == name) return j;
  throw InputError("unknown judge '" + printable(name) + "' (choose " + judge_names(", ", " or ") + ")");
}

}  // namespace

std::span<const JudgeInfo> judges() {
  static const std::vector<JudgeInfo> list = [] {
    std::vector<JudgeInfo> out;
    for (const Judge& j : kJudges) out.push_back(j.info);
    return out;
  }();
  return list;
}

std::string judge_names(std::string_view separator, std::string_view last) {
  std::string out;
  const std::size_t n = std::size(kJudges);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n && !last.empty() ? last : separator;
    out += kJudges[i].info.name;
  }
  return out;
}

std::string judge_formats() {
  constexpr std::size_t kColumn = 12;  // the names' column width; the formats start after it
  std::string out = "Judges (input on stdin, output on stdout, in the judge's exact format):\n";
  for (const Judge& j : kJudges) {
    out += "  " + std::string(j.info.name) + std::string(kColumn - j.info.name.size(), ' ');
    for (const char ch : j.info.format) {
      out += ch;
      if (ch == '\n') out.append(kColumn + 2, ' ');
    }
    out += '\n';
  }
  return out + "A bad case prints the answers before it, then one error line with its line number (exit 2).";
}

void validate_judge(std::string_view name, const JudgeRegistry* registry) {
  const Judge& judge = find_judge(name);
  if (registry) registry->validate(judge.probe_puzzle, judge.route, judge.prints_paths);
}

std::string run_judge(std::string_view name, std::string_view input, const JudgeRegistry* registry) {
  return find_judge(name).run(input, registry);
}

}  // namespace searchbench
