#!/usr/bin/env bash
# Builds and runs every test (the README's second command).
#   scripts/test.sh                  sanitizer passes, then the whole suite in Release
#   scripts/test.sh --sanitize asan  the whole suite under AddressSanitizer + UBSan
#   scripts/test.sh --sanitize tsan  the whole suite under ThreadSanitizer
#   scripts/test.sh --quick          Release suite only
#   scripts/test.sh --fuzz SECONDS   each libFuzzer target for SECONDS (clang build)
# The default run, three builds and their tests (the builds take most of its time on 2 cores):
# the threaded engines' tests under TSan (in a build whose core has only those engines, with
# the unit tests they live in as a binary of their own); the CLI, judge and parser tests under ASan+UBSan in the clang build that also
# links the libFuzzer targets (one build for both), with a 5 s smoke run of every parser
# target (with the fault-injection family, label "faults": damaged, shared and linked work
# folders, exports into devices and FIFOs, signals); then everything in Release; then `cmake --install` to a temporary prefix with a
# program built against the installed package (scripts/test_install.sh). The sanitizer
# builds (CMakePresets.json) keep line tables and inlined frames but skip gcc's variable
# tracking (clang: -gline-tables-only), which halves their compile time; TSan's
# suppressions (tests/tsan.supp) match inlined TBB frames, so TSan keeps gcc's -g.
# Each build compiles one vector path (core/simd_level.hpp), so the default run checks all
# three without a build of its own: the sanitizer builds are for -march=x86-64-v3 (AVX2;
# the TSan pass runs the vector primitives' test and the pancake gap matrix cases), the
# libFuzzer build for plain x86-64 (the portable path, its unit tests under ASan+UBSan),
# Release for this machine (-march=native: AVX-512 where it has it).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
mode=default
case "${1:-}" in
  --sanitize) mode="${2:?asan or tsan}" ;;
  --quick) mode=quick ;;
  --fuzz) mode=fuzz; fuzz_seconds="${2:?seconds}" ;;
  "") ;;
  -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;  # the header above is the manual
  *) echo "usage: scripts/test.sh [--quick | --sanitize asan|tsan | --fuzz SECONDS | --help]" >&2; exit 2 ;;
esac
scripts/deps.sh clang libclang-rt-14-dev

build() {  # preset, targets...  (configure arguments in $configure, if any)
  local preset=$1; shift
  cmake --preset "$preset" ${configure:-} >/dev/null
  cmake --build --preset "$preset" -j "$jobs" ${1:+--target "$@"}
}

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

fuzz() {  # seconds: every libFuzzer target over its seed corpus (new inputs go to a temp dir)
  build fuzz fuzz_judges fuzz_states fuzz_definitions fuzz_pdb_header
  local work
  work=$(mktemp -d)
  for target in judges states definitions pdb_header; do
    mkdir -p "$work/$target"
    build/fuzz/tests/fuzz/fuzz_$target -max_total_time="$1" -timeout=5 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$work/" "$work/$target" "tests/fuzz/corpus/$target" 2>&1 | grep -E "Done|number_of_executed_units|ERROR|SUMMARY"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "fuzz_$target found a problem; inputs kept in $work" >&2; exit 1; }
  done
  rm -rf "$work"
}

case "$mode" in
  fuzz) fuzz "$fuzz_seconds"; exit ;;
  asan|tsan)
    configure=-DSEARCHBENCH_ENGINE_LIST= build "$mode"
    ctest --preset "$mode" -j "$jobs"
    exit ;;
  quick) ;;
  default)
    echo "== ThreadSanitizer: the threaded engines =="
    # The core of this build has only the engines that run threads and their serial
    # references (registry/threaded_engines.hpp).
    configure=-DSEARCHBENCH_ENGINE_LIST=registry/threaded_engines.hpp build tsan cross_engine_tests threaded_unit_tests external_tests
    # The matrix of this build holds each threaded engine's cases with threads, as the
    # engines declare them (tests/test_cross_engine.cpp); the rest are the thread tests.
    ctest --preset tsan -j "$jobs" -L matrix
    ctest --preset tsan -j "$jobs" -R 'Determinism|CountsOnly.*Checkers15|ExternalCounts.*(msquare_2x4|sicily1515|checkers_15)_t2|ParallelThreads|HelperTeam|IdaStarShare|PancakeLabels'
    echo "== AddressSanitizer + UBSan (clang, the libFuzzer build): CLI, judges, parsers, encoders, pattern database files =="
    build fuzz unit_tests cli_tests external_tests fault_tests pdb_cache_tests searchbench fuzz_judges fuzz_states fuzz_definitions fuzz_pdb_header
    ctest --preset fuzz -j "$jobs" -R 'DefinitionReader|DefinitionPuzzle|DefinitionCoordinate|PdbCache|Faults|Cli|Judges|StaticJudge|MagicBoard|CheckersLine|Encoder|Registry|Checkers|CountsOnly|ByteTable|TwoBitCells|External|MemoryLimit|DeclaredOptions|PointQueries|PermutationRank|TilesParse|TilesMoves|PancakeParse|PancakeCounts|PancakeLabels|CubeParse|CubeMoves|OffsetRuns|IdaStarShare'
    echo "== libFuzzer smoke run: every parser target, 5 s each =="
    fuzz 5
    ;;
esac
echo "== Release: every test =="
build release
ctest --preset release -j "$jobs"
echo "== cmake --install and a program built against the installed package =="
scripts/test_install.sh build/release
