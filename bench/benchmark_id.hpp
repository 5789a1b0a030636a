// One benchmark's identity: its fields make the name Google Benchmark prints
// (kind/engine/encoder/puzzle/param) and the label written into the JSON
// ("kind=bfs engine=ring ..."), which scripts/report.py reads field by field.
#pragma once

#include <benchmark/benchmark.h>

#include <exception>
#include <string>
#include <utility>

namespace searchbench {

struct BenchmarkId {
  std::string kind;     // bfs | point | judge | codec
  std::string engine;   // the engine or yardstick; for codec, the operation (encode | decode)
  std::string encoder;  // "none" for engines that keep whole states
  std::string puzzle;   // the puzzle; for judge, the judge's name
  std::string param;    // threads:N | depth:D | random:N, or a variant (table, all-40320, ...)

  std::string name() const { return kind + "/" + engine + "/" + encoder + "/" + puzzle + "/" + param; }
  std::string label() const {
    return "kind=" + kind + " engine=" + engine + " encoder=" + encoder + " puzzle=" + puzzle + " param=" + param;
  }
};

// Registers fn(state, args...) under id's name, labelled with id's fields. A benchmark that
// throws (a combination the registry refuses) is reported as that benchmark's error in the
// output, and the run goes on with the others.
template <class Fn, class... Args>
benchmark::internal::Benchmark* register_benchmark(const BenchmarkId& id, Fn fn, Args... args) {
  return benchmark::RegisterBenchmark(id.name().c_str(), [id, fn, args...](benchmark::State& state) {
    try {
      fn(state, args...);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
    }
    state.SetLabel(id.label());
  });
}

}  // namespace searchbench
