// libFuzzer target for the state parsers: magic boards in row order and clockwise order
// (every width and both rule sets), checkers boards, and the CLI's --target argument
// through the registry (puzzle parse + engine query on small puzzles). The first byte
// picks the parser. Bad input must end in InputError; a parsed state must print and parse
// back to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "registry/registry.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/magic_board.hpp"

using namespace searchbench;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const unsigned pick = data[0], size_byte = data[1];
  const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
  try {
    switch (pick % 4) {
      case 0:
      case 1: {
        const int k = 2 + static_cast<int>(size_byte % 7);
        const MagicBoard board(k, (size_byte / 7) % 2 && k % 2 == 0 ? MagicRules::sicily1515 : MagicRules::msquare);
        const MagicState s = pick % 4 == 0 ? board.parse(text) : board.parse_clockwise(text);
        if (board.parse(board.format(s)) != s) std::abort();
        break;
      }
      case 2: {
        const CheckersLine line(1 + static_cast<int>(size_byte % 32));
        const CheckersState s = line.parse(text);
        if (line.parse(line.format(s)) != s) std::abort();
        break;
      }
      case 3: {  // --target on small puzzles, answered by the bidirectional engine
        SolverConfig c;
        c.puzzle = size_byte % 2 ? "msquare-2x3" : "checkers-" + std::to_string(1 + size_byte % 11);
        c.engine = "bidir";
        make_solver(c)->search(text);
        break;
      }
    }
  } catch (const InputError&) {
  }
  return 0;
}
