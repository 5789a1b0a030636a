#include <gtest/gtest.h>
#include "core/registry.hpp"
TEST(Smoke, Builds) { EXPECT_EQ(searchbench::parse_puzzle("msquare").size, 4); }
