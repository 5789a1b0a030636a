// The engine list of the plug-in test's build: the suite's engines and one more.
#pragma once

#include "tests/plugins/key_map_bfs.hpp"

namespace searchbench {
using AllEngines = BuiltinEngines::With<test_plugins::KeyMapBfs>;
}  // namespace searchbench
