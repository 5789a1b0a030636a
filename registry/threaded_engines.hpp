// The engines that run threads, and the serial ones the thread tests compare them with (ring,
// naive). The ThreadSanitizer pass of scripts/test.sh builds its core from this list
// (cmake -D SEARCHBENCH_ENGINE_LIST=registry/threaded_engines.hpp): a serial engine has no
// data race to find, and compiling every engine over every encoder under TSan costs more
// than the tests it would serve.
#pragma once

namespace searchbench {
using AllEngines = EngineList<RingBfs, ParallelBfs, NaiveBfs, ExternalBfs, FrontierBfs, IdaStar>;
}  // namespace searchbench
