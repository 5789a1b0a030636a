#!/usr/bin/env bash
# Installs a configured build to a temporary prefix and builds a program outside the tree
# against it (tests/install_consumer: find_package(searchbench CONFIG), searchbench::core),
# then runs that program and the installed executables.
#   scripts/test_install.sh [BUILD_DIR]   (default build/release, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/searchbench bin/searchbench-judge bin/bench_search include/searchbench/core include/searchbench/engines \
         lib/cmake/searchbench/searchbenchConfig.cmake lib/cmake/searchbench/searchbenchTargets.cmake; do
  [[ -e "$prefix/$f" ]] || { echo "test_install: $f missing from the install prefix" >&2; exit 1; }
done
"$prefix/bin/searchbench" list >/dev/null
[[ "$(printf '1\n##&@@ @@&##\n' | "$prefix/bin/searchbench-judge" fzu1603)" == 8 ]]
"$prefix/bin/bench_search" --benchmark_list_tests --benchmark_filter='^bfs/ring/cantor/msquare-2x3/' | grep -q msquare-2x3

cmake -S tests/install_consumer -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
echo "test_install: installed package, executables and consumer OK"
