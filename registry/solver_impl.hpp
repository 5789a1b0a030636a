// Adapts one engine over one puzzle and encoder to the type-erased Solver interface.
// Only the registry's per-family translation units include this.
#pragma once

#include <concepts>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/errors.hpp"
#include "core/heuristic.hpp"
#include "core/timer.hpp"
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

// The heuristics built in this process, the last few per type, so that queries to one
// target (Korf's 100 all end at the goal; compare's and the benchmarks' repetitions) build
// a pattern database once. Keyed by puzzle, declared options and target.
template <class P, class H>
class BuiltHeuristics {
 public:
  using State = typename P::State;
  // The heuristic for this target, built now (its build timed in `stats`) or reused.
  static std::shared_ptr<const H> get(const P& puzzle, const State& target, const OptionValues& given,
                                      const SearchOptions& search, HeuristicStats& stats) {
    std::string key = puzzle.name() + "|" + puzzle.format(target);
    for (const auto& [name, text] : given) key += "|" + name + "=" + text;
    std::lock_guard lock(mutex());
    auto& built = list();
    stats.name = std::string(H::kName);
    for (auto it = built.begin(); it != built.end(); ++it)
      if (it->first == key) {
        built.splice(built.begin(), built, it);
        stats.reused = true;
        stats.bytes = it->second->bytes();
        stats.note = build_note_of(*it->second);
        return it->second;
      }
    const auto options = options_from<typename H::Options>(given, "heuristic '" + std::string(H::kName) + "'");
    Timer timer;
    auto h = std::make_shared<const H>(puzzle, target, options, search);
    stats.build_seconds = timer.seconds();
    stats.bytes = h->bytes();
    stats.note = build_note_of(*h);
    built.emplace_front(std::move(key), h);
    if (built.size() > kKept) built.pop_back();
    return h;
  }

 private:
  static constexpr std::size_t kKept = 2;
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::list<std::pair<std::string, std::shared_ptr<const H>>>& list() {
    static std::list<std::pair<std::string, std::shared_ptr<const H>>> l;
    return l;
  }
};

// H: the heuristic of a heuristic engine (void for the others).
template <class P, class E, class Engine, class H = void>
class SolverImpl final : public Solver {
 public:
  using State = typename P::State;

  SolverImpl(std::shared_ptr<const PuzzleInstance> instance, P puzzle, State start, SearchOptions options,
             const OptionValues& engine_options, OptionValues heuristic_options = {})
      : instance_(std::move(instance)),
        puzzle_(std::move(puzzle)),
        enc_(puzzle_),
        start_(start),
        search_options_(options),
        heuristic_options_(std::move(heuristic_options)),
        engine_(make_engine(options, engine_options)) {
    if constexpr (!std::is_void_v<H>)  // refuse a bad heuristic option now, not at the first query
      (void)options_from<typename H::Options>(heuristic_options_, "heuristic '" + std::string(H::kName) + "'");
  }

  const PuzzleInstance& puzzle() const override { return *instance_; }

  std::string encoder_name() const override { return std::string(E::kName); }

  std::uint64_t estimate_explore_bytes() const override {
    if constexpr (Engine::kCapabilities.whole_space) {
      return engine_.estimate_explore_bytes(start_);
    } else {
      return 0;  // point-query engines: no whole-space run to guard
    }
  }

  SearchResult explore() override {
    if constexpr (Engine::kCapabilities.whole_space) {
      return engine_.explore(start_);
    } else {
      throw InputError("engine '" + std::string(Engine::kName) + "' answers point queries only (give --target)");
    }
  }
  SearchResult search(std::string_view target) override {
    if constexpr (std::is_void_v<H>) {
      return engine_.search(start_, puzzle_.parse(target));
    } else {
      const State goal = puzzle_.parse(target);
      HeuristicStats stats;
      const auto h = BuiltHeuristics<P, H>::get(puzzle_, goal, heuristic_options_, search_options_, stats);
      stats.initial = h->estimate(start_);
      SearchResult r = engine_.search(start_, goal, *h);
      r.heuristic = std::move(stats);
      return r;
    }
  }
  std::optional<std::string> table_path(std::string_view target) override {
    if constexpr (Engine::kCapabilities.whole_space && !Engine::kCapabilities.counts_only) {
      return engine_.path_to(puzzle_.parse(target));
    } else {
      throw InputError("engine '" + std::string(Engine::kName) + "' keeps no table of paths");
    }
  }
 private:
  // The engine, with its declared options (Engine::Options) read from the text given.
  Engine make_engine(const SearchOptions& options, const OptionValues& given) {
    if constexpr (!std::is_same_v<typename Engine::Options, NoOptions>) {
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
  SearchOptions search_options_;
  OptionValues heuristic_options_;
  Engine engine_;
};

}  // namespace searchbench
