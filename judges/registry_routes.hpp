// The judges with the registry behind them: --engine and --encoder send a judge's cases
// through any engine and encoder of the registry that fit its puzzle. Without either option a
// judge answers with its own searches (judges/judges.hpp), as the registry-free
// searchbench-judge does.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "judges/judges.hpp"

namespace searchbench {

// --engine and --encoder of a judge.
struct JudgeOptions {
  std::string engine;   // empty: the judge's measured default
  std::string encoder;  // empty: the judge's measured default
};

// The registry's combinations for `options`; an engine or encoder left out takes the judge's
// route default (an engine that keeps whole states gets no encoder unless one is asked for).
class RegistryRoutes final : public JudgeRegistry {
 public:
  explicit RegistryRoutes(JudgeOptions options) : options_(std::move(options)) {}
  void validate(std::string_view puzzle, JudgeRoute defaults, bool prints_paths) const override;
  std::unique_ptr<RoutedSolver> solver(std::string puzzle, std::optional<std::string> start, JudgeRoute defaults) const override;
  // This registry where the options name an engine or an encoder; null where they name
  // neither: the judge's own searches.
  const JudgeRegistry* if_chosen() const { return options_.engine.empty() && options_.encoder.empty() ? nullptr : this; }

 private:
  JudgeOptions options_;
};

// Both as the JudgeRegistry overloads, with the registry where `options` names an engine or
// an encoder and the judge's own searches where it names neither.
void validate_judge(std::string_view name, const JudgeOptions& options);
std::string run_judge(std::string_view name, std::string_view input, const JudgeOptions& options = {});

}  // namespace searchbench
