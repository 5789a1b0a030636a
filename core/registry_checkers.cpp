// The checkers line family: its four encoders.
#include "core/registry_family.hpp"
#include "encoders/checkers_bitpack.hpp"
#include "encoders/checkers_combinatorial.hpp"
#include "encoders/checkers_decimal.hpp"
#include "encoders/checkers_maskhole.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

using CheckersFamily =
    Family<CheckersLine, CheckersDecimal, CheckersBitpack, CheckersMaskHole, CheckersCombinatorial>;

std::vector<EncoderInfo> checkers_encoders(const PuzzleSpec& spec) {
  return CheckersFamily::encoders(CheckersLine(spec.size));
}

std::unique_ptr<Solver> make_checkers_solver(const PuzzleSpec& spec, const SolverConfig& config) {
  // The instance takes its piece counts from the start board (the encoders rank by them).
  const CheckersLine shape(spec.size);
  const auto start = config.start ? shape.parse(*config.start) : shape.start();
  const CheckersLine line(spec.size, shape.count(start, CheckersLine::kHash));
  return CheckersFamily::make(config.engine, config.encoder, line, start, config.options);
}

}  // namespace searchbench
