// The family list of the plug-in test's build: the test tree's own family only, so that
// the build compiles one family (every engine over it). The same shape as
// registry/families.hpp: the family headers' #includes, then one family type to a line.
#pragma once

#include "tests/plugins/families/dial.hpp"

namespace searchbench {
using AllFamilies = FamilyList<
    test_plugins::DialFamily>;
}  // namespace searchbench
