// The family list of the plug-in test's build: the test tree's own family only, so that
// the build compiles one family (every engine over it).
#pragma once

#include "tests/plugins/dial.hpp"

namespace searchbench {
using AllFamilies = FamilyList<
    Family<test_plugins::Dial, test_plugins::DialPosition>>;
}  // namespace searchbench
