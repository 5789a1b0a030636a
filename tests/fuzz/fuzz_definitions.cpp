// libFuzzer target for the definition readers: the input is a `.tws` file (first byte even)
// or a KPuzzle JSON file (odd). Bad input must end in InputError (one line naming the file);
// a definition that reads must give a puzzle whose states print and parse back to
// themselves, whose moves and their inverses undo each other, and whose coordinate keys
// round-trip, within limits that keep each input fast.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "encoders/definition_coordinate.hpp"
#include "puzzles/definition_puzzle.hpp"
#include "puzzles/permutation_definition.hpp"

using namespace searchbench;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    auto d = std::make_shared<const PermutationDefinition>(data[0] % 2 ? read_kpuzzle_json(text, "fuzz.json") : read_tws(text, "fuzz.tws"));
    const DefinitionPuzzle p(d);
    DefinitionState s = p.start(), next, back;
    for (int m = 0; m < p.move_count(); ++m) {
      p.apply(s, m, next);
      p.apply_inverse(next, m, back);
      if (back != s) std::abort();
      s = next;
    }
    if (p.parse(p.format(s)) != s) std::abort();
    if (DefinitionCoordinate::fits(p).empty() && p.component_size(s) < (1u << 16)) {
      const DefinitionCoordinate enc(p);
      if (enc.decode(enc.encode(p.start())) != p.start()) std::abort();
    }
  } catch (const InputError&) {
  }
  return 0;
}
