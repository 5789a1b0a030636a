// What the front ends ask of a puzzle, apart from any engine: its text formats (with the
// family's own options, such as a magic board's --order), random and enumerated states, its
// state graph as an edge list, and its encoders' key bounds. Type-erased, built by
// make_puzzle from a name; each family's implementation is compiled in the family's own
// translation unit (registry/family_puzzle.hpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/declared_options.hpp"
#include "core/edge_list.hpp"

namespace searchbench {

// One way an encoder ranks or unranks, timed on a fixed sample of keys (an encoder's
// decode_variants() and encode_variants(): its fast paths against the textbook ones).
struct CodecLoop {
  std::string operation;  // "decode" or "encode"
  std::string variant;    // the encoder's name for it: "table", "division", ...
  std::function<std::uint64_t()> run;  // one pass over the sample; a value to keep alive
  std::size_t items = 0;                // keys or states per pass
};

class PuzzleInstance {
 public:
  virtual ~PuzzleInstance() = default;
  virtual std::string name() const = 0;    // canonical: "msquare" is "msquare-2x4"
  virtual std::string family() const = 0;  // the family's name
  virtual int move_count() const = 0;
  virtual std::string start_text() const = 0;
  virtual std::uint64_t component_size() const = 0;  // states reachable from the start
  // Canonical text of a state the user wrote, read with the family's text options (for a
  // magic board: rows split by '/', or --order); `what` names it in errors ("--target").
  virtual std::string read_state(std::string_view text, std::string_view what) const = 0;
  // Canonical text of a state in the puzzle's own format (validates it).
  virtual std::string normalize_state(std::string_view text) const = 0;
  // A state in the start's component: the end of a seeded random walk of 1,000 moves.
  virtual std::string random_state(std::uint64_t seed) const = 0;
  // A scramble: the end of a seeded random walk of `moves` moves from the start, none undoing
  // the one before it.
  virtual std::string random_walk(std::uint64_t seed, int moves) const = 0;
  // The state the moves of `path` (their letters) lead to from the start, in the puzzle's
  // own format; nullopt when a letter names no move or a move does not apply on the way.
  virtual std::optional<std::string> follow(std::string_view path) const = 0;
  // A path of move letters as the user reads it: the letters themselves, or for a puzzle
  // whose moves have names (a definition file's "R U2 F'"), the names separated by spaces.
  virtual std::string path_text(std::string_view path) const = 0;
  // Every state within `depth` moves of the start, in breadth-first order: a plain search
  // over the puzzle's moves, for spaces too large to list whole.
  virtual std::vector<std::string> states_within(int depth) const = 0;
  // The encoder `encoder` names (empty: the family's default, its perfect ranking), as
  // resolved for this puzzle; InputError when unknown or not fitting.
  virtual std::string encoder_name(std::string_view encoder) const = 0;
  virtual std::uint64_t key_bound(std::string_view encoder) const = 0;
  // Every state of the start's component, in key order of `encoder`. Throws InputError
  // unless every key of the encoder is a state (the keys are what enumerates them).
  virtual std::vector<std::string> component_states(std::string_view encoder = {}) const = 0;
  // The state graph as an edge list of `encoder`'s keys (core/edge_list.hpp). Throws
  // InputError unless every key of the encoder is a state.
  virtual EdgeListSummary export_edge_list(std::string_view encoder, std::FILE* out) const = 0;
  // The same graph in memory (out-edges, or in-edges when `inverse`), and the start's key.
  virtual CsrGraph csr_graph(std::string_view encoder, bool inverse) const = 0;
  virtual std::uint64_t start_key(std::string_view encoder) const = 0;
  // The encoder's codec variants over `count` keys drawn by `seed` (none when it declares none).
  virtual std::vector<CodecLoop> codec_loops(std::string_view encoder, std::size_t count, std::uint64_t seed) const = 0;
};

struct PuzzleConfig {
  std::string puzzle = "msquare";
  std::optional<std::string> start;  // default: the puzzle's start (read with normalize_state's format)
  OptionValues text_options;         // the family's declared text options (FamilyInfo::options)
};

// Throws InputError for an unknown name, a bad start, or an option the family does not declare.
std::unique_ptr<PuzzleInstance> make_puzzle(const PuzzleConfig& config);
inline std::unique_ptr<PuzzleInstance> make_puzzle(const std::string& name) { return make_puzzle(PuzzleConfig{name, {}, {}}); }

}  // namespace searchbench
