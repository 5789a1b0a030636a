// The magic board family: its four encoders.
#include "core/registry_family.hpp"
#include "encoders/magic_cantor.hpp"
#include "encoders/magic_decimal.hpp"
#include "encoders/magic_octal.hpp"
#include "encoders/magic_octal7.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

using MagicFamily = Family<MagicBoard, MagicDecimal, MagicOctal, MagicOctal7, MagicCantor>;

MagicBoard make_magic_board(const PuzzleSpec& spec) {
  return MagicBoard(spec.size, spec.rules == "msquare" ? MagicRules::msquare : MagicRules::sicily1515);
}

std::vector<EncoderInfo> magic_encoders(const PuzzleSpec& spec) { return MagicFamily::encoders(make_magic_board(spec)); }

std::unique_ptr<Solver> make_magic_solver(const PuzzleSpec& spec, const SolverConfig& config) {
  const MagicBoard board = make_magic_board(spec);
  const auto start = config.start ? board.parse(*config.start) : board.start();
  return MagicFamily::make(config.engine, config.encoder, board, start, config.options);
}

}  // namespace searchbench
