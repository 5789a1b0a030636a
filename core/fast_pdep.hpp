// SEARCHBENCH_FAST_PDEP: defined where the BMI2 bit deposit and extract (pdep, pext) are
// fast. They take a cycle or three on Intel and on AMD since Zen 3, but Zen 1 and 2 (which
// GCC's -march=native names) run them as microcode, several cycles per set bit of the
// mask: there the encoders' plain loops are faster.
#pragma once

#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#define SEARCHBENCH_FAST_PDEP 1
#include <immintrin.h>
#endif
