// A permutation puzzle given as data: the model that ksolve and twsearch `.tws` files and
// KPuzzle JSON files describe, read into one form that the `definition` family searches.
//
// A puzzle is a list of sets (orbits) of slots; a set has a size and an orientation modulus.
// A state says, for every slot, which piece sits there (a label from the solved state, so
// repeated labels are identical pieces) and its orientation. A move is a table over all
// slots: slot i receives the piece of slot source[i], turned by twist[i]:
//   piece'[i] = piece[source[i]],  orientation'[i] = (orientation[source[i]] + twist[i]) mod m.
// (A `.tws` move line lists the 1-based sources and the twists by source slot; reading turns
// those into twist by destination slot, as twsearch does.)
//
// Every power of a move that is not the identity is a move of its own, named as twsearch
// names them (order 4: F, F2, F'; order 3: F, F'; order 5: F, F2, F2', F'), and the search
// order of the moves is their order in the file, each base move's powers by increasing
// exponent. `MoveSequence NAME a b c` defines a move (with its powers) as a product of moves
// defined before or after it; `MoveAlias NAME a b` names a product that a state's text may
// use but that the search does not take as a move. `MovePowers NAME 1 3` (a line of this
// suite's, which twsearch does not read) keeps only those powers of NAME as moves, e.g. a
// quarter-turn metric or a board whose rotation turns one way only; the others stay names a
// state's text may use.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace searchbench {

// Slots in all (over every set), what a state holds inline.
inline constexpr int kMaxDefinitionSlots = 64;
// Moves after expanding the powers: each is written as one printable character in a path.
inline constexpr int kMaxDefinitionMoves = 94;

struct DefinitionSet {
  std::string name;
  int size = 0;          // slots
  int orientations = 1;  // the orientation modulus
  int offset = 0;        // its first slot among all the slots
};

struct DefinitionMove {
  std::string name;                 // "F", "F2", "F'"
  std::vector<std::uint8_t> source; // per slot: the slot whose piece it receives
  std::vector<std::uint8_t> twist;  // per slot: the orientation added to what it receives
  int base = 0;                     // index of the base move among the file's moves
  int power = 1;                    // this move is base^power
  int order = 1;                    // smallest n > 0 with move^n == identity
};

struct PermutationDefinition {
  std::string file;  // as the user named it
  std::string name;  // the file's `Name`
  std::string checksum;  // XXH64 of the file's text, 16 hex digits: what caches derived from it are keyed by
  std::vector<DefinitionSet> sets;
  int slots = 0;
  std::vector<std::uint8_t> solved_piece, solved_twist;  // per slot; labels 0-based
  std::vector<std::uint8_t> modulus;                     // per slot: its set's orientation modulus
  std::vector<DefinitionMove> moves;    // the search moves, powers expanded, in search order
  std::vector<DefinitionMove> aliases;  // names a state's text may use besides the moves
  std::vector<int> inverse;             // per move: the move that undoes it (-1: MovePowers left it out)
  std::vector<DefinitionMove> undo;     // per move: the permutation that undoes it, a move or not

  // The index of the move named `name` (-1 when none).
  int move_index(std::string_view name) const;
  // The set named `name` (-1 when none).
  int set_index(std::string_view name) const;
  // a then b as one move (names and powers left empty).
  DefinitionMove then(const DefinitionMove& a, const DefinitionMove& b) const;
  bool is_identity(const DefinitionMove& m) const;
};

// Reads a definition file: `.tws` (ksolve/twsearch text) unless the name ends in `.json`
// (KPuzzle JSON). A name that is no file here but a definition the suite ships
// (puzzles/definitions/) reads that one. Throws InputError "FILE:LINE: reason" (line 0: the
// file as a whole) for anything malformed, contradictory or unsupported. Each file is read
// once per process; later calls share the result while the file is unchanged.
std::shared_ptr<const PermutationDefinition> load_definition(std::string_view name);
// The same from text already in memory (`file` names it in errors).
PermutationDefinition read_tws(std::string_view text, const std::string& file);
PermutationDefinition read_kpuzzle_json(std::string_view text, const std::string& file);

// Whether a --puzzle name means a definition file: it ends in `.tws` or `.json`.
bool names_definition_file(std::string_view name);
// The definitions the suite ships, by file name ("2x2x2.tws"), and their text.
struct ShippedDefinition {
  std::string_view file, text;
};
const std::vector<ShippedDefinition>& shipped_definitions();

}  // namespace searchbench
