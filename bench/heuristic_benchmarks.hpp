// The heuristic-search benchmarks: each family's heuristic sets (core/benchmark_plan.hpp),
// named heuristic/<engine>/<heuristic>/<puzzle>/<set>[:threads:N].
#pragma once

namespace searchbench {

void register_heuristic_sets(bool full);

}  // namespace searchbench
