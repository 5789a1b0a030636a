// The dial's family, the plug-in test's family header (as registry/families/ holds the
// suite's): the puzzle type with its one encoder, the headers it needs and no other family's.
#pragma once

#include "registry/family.hpp"
#include "tests/plugins/dial.hpp"

namespace searchbench::test_plugins {
using DialFamily = Family<Dial, DialPosition>;
}  // namespace searchbench::test_plugins
