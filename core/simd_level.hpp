// The vector instruction set the byte-permuting code of this build is written for, decided
// once from the compiler's own macros so that the code that picks a path and the build
// context that reports it (cli/context.hpp: "simd") cannot disagree. Exactly one of
// SEARCHBENCH_SIMD_AVX512 (AVX-512 BW and VBMI: any permutation of 64 bytes is one
// instruction), SEARCHBENCH_SIMD_AVX2 (32-byte registers whose byte shuffle stays inside
// 16-byte lanes) and SEARCHBENCH_SIMD_SCALAR (portable code on 64-bit words) is defined.
#pragma once

#include <string_view>

#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
#define SEARCHBENCH_SIMD_AVX512 1
#elif defined(__AVX2__)
#define SEARCHBENCH_SIMD_AVX2 1
#else
#define SEARCHBENCH_SIMD_SCALAR 1
#endif

namespace searchbench {

#if defined(SEARCHBENCH_SIMD_AVX512)
inline constexpr std::string_view kSimdLevel = "avx512";
#elif defined(SEARCHBENCH_SIMD_AVX2)
inline constexpr std::string_view kSimdLevel = "avx2";
#else
inline constexpr std::string_view kSimdLevel = "scalar";
#endif

}  // namespace searchbench
