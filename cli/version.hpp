// The version line of the executables.
#pragma once

namespace searchbench::cli {

// "<version> (commit <12 hex digits>[-dirty])": the commit the build was made from (written
// at build time, cmake/write_commit.cmake).
const char* version();

}  // namespace searchbench::cli
