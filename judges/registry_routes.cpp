// The registry's side of the judges: a judge's puzzle and route turned into a registry
// combination (judges/registry_routes.hpp).
#include "judges/registry_routes.hpp"

#include <optional>
#include <utility>

#include "core/errors.hpp"
#include "registry/registry.hpp"

namespace searchbench {

namespace {

SolverConfig config(std::string puzzle, std::optional<std::string> start, JudgeRoute defaults, const JudgeOptions& options) {
  SolverConfig c;
  c.puzzle = std::move(puzzle);
  c.start = std::move(start);
  c.engine = options.engine.empty() ? std::string(defaults.engine) : options.engine;
  c.encoder = options.encoder.empty() && engine_info(c.engine).uses_encoder ? std::string(defaults.encoder) : options.encoder;
  return c;
}

// A whole-space engine searches once and reads every case's path from its table; a point
// query engine searches once per case.
class RegistrySolver final : public RoutedSolver {
 public:
  explicit RegistrySolver(const SolverConfig& c) : solver_(make_solver(c)), point_queries_(!engine_info(c.engine).whole_space) {
    if (!point_queries_) solver_->explore();
  }
  std::optional<std::string> path(std::string_view target) override {
    if (!point_queries_) return solver_->table_path(target);
    solver_->puzzle().normalize_state(target);  // a bad board is refused before any search
    SearchResult r = solver_->search(target);
    return r.found ? std::optional<std::string>(std::move(r.path)) : std::nullopt;
  }

 private:
  std::unique_ptr<Solver> solver_;
  bool point_queries_;
};

}  // namespace

void RegistryRoutes::validate(std::string_view puzzle, JudgeRoute defaults, bool prints_paths) const {
  const SolverConfig c = config(std::string(puzzle), std::nullopt, defaults, options_);
  const EngineInfo& engine = engine_info(c.engine);
  if (engine.counts_only)
    throw InputError("engine '" + c.engine + "' only counts states: it keeps no paths to answer a judge's cases");
  if (prints_paths && engine.any_optimal_path)
    throw InputError("engine '" + c.engine + "' returns a shortest path, not always the lexicographically smallest " +
                     "one this judge prints (choose another --engine)");
  // Throws for an unknown engine or encoder, or one that does not fit.
  make_solver(c);
}

std::unique_ptr<RoutedSolver> RegistryRoutes::solver(std::string puzzle, std::optional<std::string> start, JudgeRoute defaults) const {
  return std::make_unique<RegistrySolver>(config(std::move(puzzle), std::move(start), defaults, options_));
}

void validate_judge(std::string_view name, const JudgeOptions& options) {
  const RegistryRoutes registry(options);
  validate_judge(name, registry.if_chosen());
}

std::string run_judge(std::string_view name, std::string_view input, const JudgeOptions& options) {
  const RegistryRoutes registry(options);
  return run_judge(name, input, registry.if_chosen());
}

}  // namespace searchbench
