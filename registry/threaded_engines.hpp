// The engine list of the ThreadSanitizer build (scripts/test.sh builds its core with
// cmake -D SEARCHBENCH_ENGINE_LIST=registry/threaded_engines.hpp): the engines that run
// threads, and the serial whole-space engines that keep a table, which the thread tests
// compare them with. Read off each engine's kCapabilities, so a new threaded engine is in
// it with no line here: a serial point-query engine has no data race to find, and compiling
// every engine over every encoder under TSan costs more than the tests it would serve.
#pragma once

#include "registry/engines.hpp"
#include "registry/families/magic.hpp"

namespace searchbench {

template <template <class, class> class Engine>
struct RunsThreadsOrKeepsTheReferenceTable {
  // Capabilities do not depend on the puzzle: read them over one family, the magic board's,
  // from its header alone (as the engine list, this header is in every family's unit).
  using Probe = MagicFamily;
  static constexpr EngineCapabilities kCapabilities = Engine<typename Probe::Puzzle, typename Probe::LastEncoder>::kCapabilities;
  static constexpr bool value = kCapabilities.threaded || (kCapabilities.whole_space && !kCapabilities.counts_only);
};

using ThreadSanitizerEngines = BuiltinEngines::Where<RunsThreadsOrKeepsTheReferenceTable>;

}  // namespace searchbench

// Included by registry/engines.hpp as the build's engine list (a test may include it to
// read ThreadSanitizerEngines beside the full list).
#ifdef SEARCHBENCH_ENGINE_LIST
namespace searchbench {
using AllEngines = ThreadSanitizerEngines;
}  // namespace searchbench
#endif
