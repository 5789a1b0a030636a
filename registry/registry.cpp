// The registry's lookups over the two type lists. Building a solver is left to the
// per-family translation units (registry/family_solvers.hpp).
#include "registry/registry.hpp"

#include <stdexcept>

#include "core/closest_names.hpp"

#include "core/errors.hpp"
#include "puzzles/permutation_definition.hpp"
#include "registry/engines.hpp"
#include "registry/families.hpp"
// Generated beside the family units (cmake/searchbench_core.cmake): asserts that the
// families with a unit of their own are this list's, in its order.
#include "family_units.hpp"

namespace searchbench {

namespace {

// "a, b, c or d" (last " or "), "a, b and c" (last " and ").
std::string listed(const std::vector<std::string>& names, const char* last = " or ") {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
  return out;
}

// Whether a family's puzzles are named by a definition file's path.
template <class P>
constexpr bool reads_files() {
  return P::kHooks.reads_files;
}

// Calls fn.template operator()<F>(instance) for the family whose puzzle answers to `name`.
template <class Fn>
void with_family(std::string_view name, Fn&& fn) {
  bool found = false;
  // A file's name (FILE.tws, FILE.json) goes to the families that read files alone, so that
  // "pancake-8.tws" is never taken for a size of the pancake family.
  const bool file = names_definition_file(name);
  AllFamilies::for_each([&]<class F>() {
    if (found || file != reads_files<typename F::Puzzle>()) return;
    if (auto puzzle = F::Puzzle::from_name(name)) {
      found = true;
      fn.template operator()<F>(*puzzle);
    }
  });
  if (!found) {
    std::vector<std::string> names, stems;
    for (const auto& f : families()) {
      names.push_back(f.names);
      for (std::size_t at = 0, end; at < f.names.size(); at = end + 2) {  // "msquare, msquare-2xK": stems msquare
        end = std::min(f.names.find(", ", at), f.names.size());
        const std::string one = f.names.substr(at, end - at);
        stems.push_back(one.substr(0, one.find('-')));
      }
    }
    // A misspelled family with a size ("msqare-2x3"): the nearest family stem, size kept.
    const std::string given(name);
    const std::size_t dash = given.find('-');
    std::string hint;
    for (const auto& stem : closest_names(given.substr(0, dash), stems)) {
      const std::string guess = stem + (dash == std::string::npos ? "" : given.substr(dash));
      if (hint.find("'" + guess + "'") == std::string::npos) hint += (hint.empty() ? "" : " or ") + ("'" + guess + "'");
    }
    throw InputError("unknown puzzle '" + given + "' (" + (hint.empty() ? "" : "did you mean " + hint + "? ") + "choose " +
                     listed(names) + ")");
  }
}

}  // namespace

PuzzleSpec parse_puzzle(std::string_view name) {
  PuzzleSpec spec;
  with_family(name, [&]<class F>(const typename F::Puzzle& puzzle) { spec = {std::string(F::kName), puzzle.name()}; });
  return spec;
}

template <class P>
std::string default_puzzle_of() {
  return P::kHooks.default_puzzle.empty() ? P::examples().front() : std::string(P::kHooks.default_puzzle);
}

std::string default_puzzle() { return default_puzzle_of<AllFamilies::At<0>::Puzzle>(); }

const std::vector<FamilyInfo>& families() {
  static const std::vector<FamilyInfo> list = [] {
    std::vector<FamilyInfo> out;
    AllFamilies::for_each([&]<class F>() { out.push_back(F::info()); });
    return out;
  }();
  return list;
}

const std::vector<EngineInfo>& engines() {
  // Capabilities read off each engine over the first family's puzzle and last encoder.
  using Probe = AllFamilies::At<0>;
  static const std::vector<EngineInfo> list = [] {
    std::vector<EngineInfo> out;
    AllEngines::for_each([&]<template <class, class> class Engine>() {
      using T = EngineTraits<Engine, typename Probe::Puzzle, typename Probe::LastEncoder>;
      static_assert(!T::counts_only || T::whole_space, "kCapabilities.counts_only is a kind of whole-space engine");
      out.push_back({T::name, T::summary, T::whole_space, T::uses_encoder, T::threaded, T::counts_only, T::perfect_only, T::distributed,
                     T::needs_inverse_moves, T::uses_heuristic, T::any_optimal_path, T::options(),
                     T::same_configuration_everywhere(), T::end_job_on_error()});
    });
    return out;
  }();
  return list;
}

const EngineInfo& engine_info(std::string_view name) {
  for (const auto& e : engines())
    if (e.name == name) return e;
  std::vector<std::string> names;
  for (const auto& e : engines()) names.emplace_back(e.name);
  throw InputError("unknown engine '" + std::string(name) + "' (" + did_you_mean(name, names) + "choose " + listed(names) + ")");
}

namespace {
template <class Pick>
const EngineInfo& first_engine(Pick pick, const char* what) {
  for (const auto& e : engines())
    if (pick(e)) return e;
  throw std::logic_error(std::string("the engine list has no ") + what);
}
}  // namespace

const EngineInfo& reference_table_engine() {
  return first_engine([](const EngineInfo& e) { return e.whole_space && !e.counts_only && !e.threaded && e.uses_encoder; },
                      "serial whole-space engine that keeps a table");
}

const EngineInfo& reference_point_query_engine() {
  return first_engine([](const EngineInfo& e) { return !e.whole_space && !e.uses_heuristic; }, "blind point-query engine");
}

std::string engine_elsewhere(std::string_view name) {
  // The distributed engine is kept out of the searchbench executable (registry/engines.hpp)
  // so that no other run loads the MPI libraries.
  for (const auto& e : engines())
    if (e.name == name) return "";
  if (name == "mpi") return "the mpi engine is in the searchbench-mpi executable (built when CMake finds MPI)";
  return "";
}

std::vector<EncoderInfo> encoders(const PuzzleSpec& puzzle) {
  std::vector<EncoderInfo> out;
  with_family(puzzle.name, [&]<class F>(const typename F::Puzzle& p) { out = F::encoders(p); });
  return out;
}

namespace {
// encoders() without building any (the key bounds and dense flags left out).
std::vector<EncoderInfo> encoder_fits(const PuzzleSpec& puzzle) {
  std::vector<EncoderInfo> out;
  with_family(puzzle.name, [&]<class F>(const typename F::Puzzle& p) { out = F::encoder_fits(p); });
  return out;
}
}  // namespace

bool is_perfect_encoder(const PuzzleSpec& puzzle, std::string_view encoder) {
  for (const auto& e : encoder_fits(puzzle))
    if (e.name == encoder) return e.perfect;
  return false;
}

bool every_move_has_inverse(const PuzzleSpec& puzzle) {
  bool all = false;
  with_family(puzzle.name, [&]<class F>(const typename F::Puzzle& p) { all = moves_without_inverse(p).empty(); });
  return all;
}

std::vector<std::string> applicable_encoders(const PuzzleSpec& puzzle, std::string_view engine) {
  const EngineInfo& info = engine_info(engine);
  if (info.needs_inverse_moves && !every_move_has_inverse(puzzle)) return {};
  if (!info.uses_encoder) return {"none"};
  std::vector<std::string> names;
  for (const auto& e : encoder_fits(puzzle))
    if (e.fit.empty() && (e.perfect || !info.perfect_only)) names.push_back(e.name);
  return names;
}

std::vector<std::pair<std::string, std::string>> heuristic_fits(const PuzzleSpec& puzzle) {
  std::vector<std::pair<std::string, std::string>> out;
  with_family(puzzle.name, [&]<class F>(const typename F::Puzzle& p) { out = F::heuristic_fits(p); });
  return out;
}

std::vector<std::string> applicable_heuristics(const PuzzleSpec& puzzle) {
  std::vector<std::string> names;
  for (const auto& [name, fit] : heuristic_fits(puzzle))
    if (fit.empty()) names.push_back(name);
  return names;
}

std::uint64_t state_space_size(const PuzzleSpec& puzzle) {
  std::uint64_t size = 0;
  with_family(puzzle.name, [&]<class F>(const typename F::Puzzle& p) { size = p.component_size(p.start()); });
  return size;
}

Selection resolve_selection(std::string_view puzzle, std::string_view engine, std::string_view encoder,
                            std::string_view heuristic) {
  Selection s;
  s.engine = &engine_info(engine);
  with_family(puzzle, [&]<class F>(const typename F::Puzzle& p) {
    s.puzzle = {std::string(F::kName), p.name()};
    for (const auto& f : families())
      if (f.name == F::kName) s.family = &f;
    s.encoder = s.engine->uses_encoder ? F::chosen_encoder(p, encoder) : "none";
    if (s.engine->uses_heuristic) s.heuristic = F::chosen_heuristic(p, heuristic);
    s.states = p.component_size(p.start());
  });
  return s;
}

SolverConfig Combination::config(const std::string& puzzle) const {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = engine;
  c.encoder = encoder;
  c.options.threads = threads;
  c.heuristic = heuristic;
  return c;
}

std::vector<Combination> combinations(const PuzzleSpec& puzzle, const std::vector<int>& threads, bool whole_space_only,
                                      bool every_heuristic) {
  std::vector<Combination> out;
  for (const auto& engine : engines()) {
    if (whole_space_only && !engine.whole_space) continue;
    if (engine.distributed) continue;  // keeps no table; one MPI job per process, tested under mpirun
    std::vector<std::string> heuristics{""};
    if (engine.uses_heuristic) {
      heuristics = applicable_heuristics(puzzle);
      // With blind as its only heuristic a tree search grows exponentially with the distance:
      // left out unless every heuristic is asked for.
      if (!every_heuristic && heuristics.size() < 2) continue;
      if (!every_heuristic) heuristics = {resolve_selection(puzzle.name, engine.name).heuristic};  // the default
    }
    for (const auto& encoder : applicable_encoders(puzzle, engine.name))
      for (int t : engine.threaded ? threads : std::vector<int>{1})
        for (const auto& h : heuristics) out.push_back({std::string(engine.name), encoder, t, h});
  }
  return out;
}

namespace {

// The one check of a thread count, for every engine.
void check_threads(const EngineInfo& engine, int threads) {
  if (threads < 1 || threads > kMaxThreads)
    throw InputError("thread count must be 1.." + std::to_string(kMaxThreads) + " (got " + std::to_string(threads) + ")");
  if (!engine.threaded && threads > 1) {
    std::vector<std::string> threaded;
    for (const auto& e : engines())
      if (e.threaded) threaded.push_back("'" + std::string(e.name) + "'");
    throw InputError("engine '" + std::string(engine.name) + "' is serial; --threads applies to " + listed(threaded, " and ") +
                     " only");
  }
}

// An engine that keeps keys needs an encoder that fits (past 20 pancakes none does: N!
// exceeds 2^64); said before any solver is built, with why each encoder does not fit and
// which engines keep whole states instead. A named encoder is checked where it is chosen.
void check_some_encoder_fits(const EngineInfo& engine, const std::string& encoder, const std::string& puzzle,
                             const std::vector<std::pair<std::string, std::string>>& fits) {
  if (!engine.uses_encoder || !encoder.empty()) return;
  std::string why;
  std::vector<std::string> whole_states;
  for (const auto& [name, fit] : fits) {
    if (fit.empty()) return;
    why += (why.empty() ? "" : "; ") + name + ": " + fit;
  }
  for (const auto& e : engines())
    if (!e.uses_encoder && !e.distributed) whole_states.push_back("'" + std::string(e.name) + "'");
  throw InputError("engine '" + std::string(engine.name) + "' keeps states as keys, and no encoder fits " + puzzle + " (" + why +
                   "); engines that keep whole states need none: " + listed(whole_states, " and "));
}

}  // namespace

std::unique_ptr<Solver> make_solver(const SolverConfig& config) {
  std::unique_ptr<Solver> solver;
  with_family(config.puzzle, [&]<class F>(const typename F::Puzzle& shape) {
    check_threads(engine_info(config.engine), config.options.threads);
    std::vector<std::pair<std::string, std::string>> fits;  // each encoder's name and why it does not fit
    F::for_each_encoder([&]<class E>() { fits.emplace_back(std::string(E::kName), E::fits(shape)); });
    check_some_encoder_fits(engine_info(config.engine), config.encoder, shape.name(), fits);
    solver = make_family_solver<F>(shape, config);
  });
  return solver;
}

std::unique_ptr<PuzzleInstance> make_puzzle(const PuzzleConfig& config) {
  std::unique_ptr<PuzzleInstance> puzzle;
  with_family(config.puzzle, [&]<class F>(const typename F::Puzzle& shape) { puzzle = make_family_puzzle<F>(shape, config); });
  return puzzle;
}

}  // namespace searchbench
