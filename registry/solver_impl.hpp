// Adapts one engine over one puzzle and encoder to the type-erased Solver interface.
// Only the registry's per-family translation units include this.
#pragma once

#include <concepts>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/concepts.hpp"
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

  SolverImpl(P puzzle, State start, SearchOptions options)
      : puzzle_(std::move(puzzle)), enc_(puzzle_), start_(start), engine_(make_engine(options)) {}

  std::string puzzle_name() const override { return puzzle_.name(); }
  std::string encoder_name() const override { return std::string(E::kName); }
  std::string start_text() const override { return puzzle_.format(start_); }
  std::uint64_t component_size() const override { return puzzle_.component_size(start_); }

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
  EdgeListSummary export_edge_list(std::FILE* out) const override {
    if constexpr (Encoder<E, P>) return write_edge_list(puzzle_, enc_, start_, out);
    else throw InputError("export needs an encoder (cantor or combinatorial)");
  }
  std::vector<std::string> component_states() const override {
    if constexpr (every_key_is_state<E>()) {
      std::vector<std::string> out;
      for (Key k = 0; k < enc_.key_bound(); ++k) {
        const State s = enc_.decode(k);
        if (puzzle_.same_component(start_, s)) out.push_back(puzzle_.format(s));
      }
      return out;
    } else {
      throw InputError("encoder '" + std::string(E::kName) + "' has keys that are no state; enumerating needs a perfect one");
    }
  }
  std::vector<std::string> states_within(int depth) const override {
    std::vector<std::string> out{puzzle_.format(start_)};
    std::set<State> seen{start_};
    std::vector<State> level{start_}, next;
    State successor;
    for (int d = 0; d < depth && !level.empty(); ++d) {
      next.clear();
      for (const State& s : level)
        for (int m = 0; m < puzzle_.move_count(); ++m)
          if (puzzle_.apply(s, m, successor) && seen.insert(successor).second) {
            next.push_back(successor);
            out.push_back(puzzle_.format(successor));
          }
      level.swap(next);
    }
    return out;
  }
  std::string normalize_state(std::string_view text) const override { return puzzle_.format(puzzle_.parse(text)); }
  std::string random_state(std::uint64_t seed) const override {
    std::mt19937_64 rng(seed);
    State state = start_, next;
    for (int step = 0; step < 1000; ++step)
      if (puzzle_.apply(state, static_cast<int>(rng() % static_cast<unsigned>(puzzle_.move_count())), next)) state = next;
    return puzzle_.format(state);
  }

 private:
  Engine make_engine(const SearchOptions& options) {
    if constexpr (std::constructible_from<Engine, const P&, const E&, SearchOptions>) return Engine(puzzle_, enc_, options);
    else return Engine(puzzle_, options);
  }

  P puzzle_;
  E enc_;
  State start_;
  Engine engine_;
};

}  // namespace searchbench
