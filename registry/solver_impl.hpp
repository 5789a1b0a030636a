// Adapts one engine over one puzzle and encoder to the type-erased Solver interface.
// Only the registry's per-family translation units include this.
#pragma once

#include <concepts>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "registry/puzzle_instance.hpp"
#include "registry/registry.hpp"

namespace searchbench {

// Stands in for the encoder of engines that keep whole states (naive).
template <class P>
struct NoEncoder {
  static constexpr std::string_view kName = "none";
  explicit NoEncoder(const P&) {}
  bool dense() const { return false; }
  Key key_bound() const { return 0; }
};

template <class P, class E, class Engine>
class SolverImpl final : public Solver {
 public:
  using State = typename P::State;

  SolverImpl(std::shared_ptr<const PuzzleInstance> instance, P puzzle, State start, SearchOptions options,
             const OptionValues& engine_options)
      : instance_(std::move(instance)),
        puzzle_(std::move(puzzle)),
        enc_(puzzle_),
        start_(start),
        engine_(make_engine(options, engine_options)) {}

  const PuzzleInstance& puzzle() const override { return *instance_; }

  std::string encoder_name() const override { return std::string(E::kName); }

  std::uint64_t estimate_explore_bytes() const override {
    if constexpr (requires(const Engine& e) { e.estimate_explore_bytes(start_); }) {
      return engine_.estimate_explore_bytes(start_);
    } else {
      return 0;  // point-query engines: no whole-space run to guard
    }
  }

  SearchResult explore() override {
    if constexpr (requires(Engine& e) { e.explore(start_); }) {
      return engine_.explore(start_);
    } else {
      throw InputError("engine '" + std::string(Engine::kName) + "' answers point queries only (give --target)");
    }
  }
  SearchResult search(std::string_view target) override { return engine_.search(start_, puzzle_.parse(target)); }
  std::optional<std::string> table_path(std::string_view target) override {
    if constexpr (requires(Engine& e) { e.path_to(start_); }) {
      return engine_.path_to(puzzle_.parse(target));
    } else {
      throw InputError("engine '" + std::string(Engine::kName) + "' keeps no table of paths");
    }
  }
 private:
  // The engine, with its declared options (Engine::Options) read from the text given.
  Engine make_engine(const SearchOptions& options, const OptionValues& given) {
    if constexpr (requires { typename Engine::Options; }) {
      auto settings = options_from<typename Engine::Options>(given, "engine '" + std::string(Engine::kName) + "'");
      if constexpr (std::constructible_from<Engine, const P&, const E&, SearchOptions>)
        return Engine(puzzle_, enc_, options, std::move(settings));
      else return Engine(puzzle_, options, std::move(settings));
    } else {
      (void)options_from<NoOptions>(given, "engine '" + std::string(Engine::kName) + "'");
      if constexpr (std::constructible_from<Engine, const P&, const E&, SearchOptions>) return Engine(puzzle_, enc_, options);
      else return Engine(puzzle_, options);
    }
  }

  std::shared_ptr<const PuzzleInstance> instance_;
  P puzzle_;
  E enc_;
  State start_;
  Engine engine_;
};

}  // namespace searchbench
