// xxHash (Debian's libxxhash-dev), header-only: the checksums of the suite's own files (the
// out-of-core engine's work state, the pattern database cache).
#pragma once

// xxHash's AVX-512 path trips gcc 12's -Wmaybe-uninitialized and -Wuninitialized inside the
// compiler's own intrinsics headers (a false positive: the intrinsics' "undefined" operands).
// (clang, which builds the fuzz target, knows no -Wmaybe-uninitialized and would warn of it.)
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#pragma GCC diagnostic ignored "-Wuninitialized"
#define XXH_INLINE_ALL
#include <xxhash.h>
#pragma GCC diagnostic pop
