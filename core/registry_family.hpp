// Builds solvers for one puzzle family over its list of encoder types. Each family's
// translation unit instantiates this once with its encoders.
#pragma once

#include <memory>
#include <string>

#include "core/solver_impl.hpp"
#include "engines/bidir_bfs.hpp"
#include "engines/iddfs.hpp"
#include "engines/naive_bfs.hpp"
#include "engines/parallel_bfs.hpp"
#include "engines/ring_bfs.hpp"
#ifdef SEARCHBENCH_HAVE_MPI
#include "engines/mpi_bfs.hpp"
#endif

namespace searchbench {

template <class P, class E>
std::unique_ptr<Solver> make_engine_solver(const std::string& engine, const P& puzzle,
                                           const typename P::State& start, const SearchOptions& options) {
  if (engine == "ring") return std::make_unique<SolverImpl<P, E, RingBfs<P, E>>>(puzzle, start, engine, options);
  if (engine == "parallel") return std::make_unique<SolverImpl<P, E, ParallelBfs<P, E>>>(puzzle, start, engine, options);
  if (engine == "bidir") return std::make_unique<SolverImpl<P, E, BidirBfs<P, E>>>(puzzle, start, engine, options);
  if (engine == "iddfs") return std::make_unique<SolverImpl<P, E, Iddfs<P, E>>>(puzzle, start, engine, options);
#ifdef SEARCHBENCH_HAVE_MPI
  if (engine == "mpi") return std::make_unique<SolverImpl<P, E, MpiBfs<P, E>>>(puzzle, start, engine, options);
#endif
  throw InputError("unknown engine '" + engine + "'");
}

template <class P, class... Encoders>
struct Family {
  static std::vector<EncoderInfo> encoders(const P& puzzle) {
    std::vector<EncoderInfo> out;
    (out.push_back(info<Encoders>(puzzle)), ...);
    return out;
  }

  static std::unique_ptr<Solver> make(const std::string& engine, const std::string& encoder, const P& puzzle,
                                      const typename P::State& start, const SearchOptions& options) {
    if (engine == "naive") {
      if (!encoder.empty() && encoder != "none")
        throw InputError("engine 'naive' keeps whole states and takes no encoder (got '" + encoder + "')");
      return std::make_unique<SolverImpl<P, NoEncoder<P>, NaiveBfs<P>>>(puzzle, start, engine, options);
    }
    std::unique_ptr<Solver> solver;
    std::string chosen = encoder;
    if (chosen.empty()) {  // default: the last listed that fits (the family's perfect ranking)
      for (const auto& e : encoders(puzzle))
        if (e.fit.empty()) chosen = e.name;
    }
    ((chosen == Encoders::kName ? (solver = make_one<Encoders>(engine, puzzle, start, options), 0) : 0), ...);
    if (!solver) {
      std::string known;
      for (const auto& e : encoders(puzzle)) known += (known.empty() ? "" : ", ") + e.name;
      throw InputError("unknown encoder '" + chosen + "' for " + puzzle.name() + " (choose one of: " + known + ")");
    }
    return solver;
  }

 private:
  template <class E>
  static EncoderInfo info(const P& puzzle) {
    EncoderInfo i{std::string(E::kName), E::fits(puzzle)};
    if (i.fit.empty()) {
      const E enc(puzzle);
      i.dense = enc.dense();
      i.key_bound = enc.key_bound();
    }
    return i;
  }
  template <class E>
  static std::unique_ptr<Solver> make_one(const std::string& engine, const P& puzzle, const typename P::State& start,
                                          const SearchOptions& options) {
    if (auto why = E::fits(puzzle); !why.empty())
      throw InputError("encoder '" + std::string(E::kName) + "' does not fit " + puzzle.name() + ": " + why);
    return make_engine_solver<P, E>(engine, puzzle, start, options);
  }
};

}  // namespace searchbench
