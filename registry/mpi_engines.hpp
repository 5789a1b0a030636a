// The engine list of the searchbench-mpi executable: the mpi engine alone. It is kept out of
// the searchbench executable so that a run of any other engine (or --version, or a judge
// case) does not load and start Open MPI's libraries; searchbench-mpi has the same front end
// over this list, and its results compare with the parallel engine's from searchbench.
#pragma once

#include "engines/mpi_bfs.hpp"

namespace searchbench {
using AllEngines = EngineList<MpiBfs>;
}  // namespace searchbench
