#!/usr/bin/env bash
# The main job (the README's first command): install what is missing, build Release, run
# the default benchmark set, save the raw JSON under results/raw/ stamped with the machine
# and versions, and regenerate results/README.md and its plots.
#   scripts/reproduce.sh          default set (<= 10 minutes on 2 cores)
#   scripts/reproduce.sh --full   adds the large runs (msquare-2x6, checkers-25, checkers-27)
# Then whole-process runs of the large searches (scripts/scale_runs.py: wall time and peak
# resident memory), also saved under results/raw/.
set -euo pipefail
cd "$(dirname "$0")/.."
full=""
[[ "${1:-}" == "--full" ]] && full="--full"
scripts/deps.sh

cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$(nproc)"

revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo "+dirty" || true)
compiler=$(c++ --version | head -1)
tbb=$(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null || echo unknown)
gbench=$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo unknown)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
cores=$(nproc)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mkdir -p results/raw
stamp="$(date -u +%Y%m%d-%H%M%S)-${revision}${full:+-full}"
out="results/raw/bench-${stamp}.json"

echo "== running benchmarks -> $out"
build/release/bench/bench_search $full \
  --benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out" --benchmark_out_format=json \
  --benchmark_context=git_revision="${revision}${dirty}" \
  --benchmark_context=compiler="$compiler" \
  --benchmark_context=onetbb="$tbb" \
  --benchmark_context=google_benchmark="$gbench" \
  --benchmark_context=cpu_model="$cpu" \
  --benchmark_context=cores="$cores" \
  --benchmark_context=date="$date" \
  --benchmark_context=command="scripts/reproduce.sh $full"

echo "== whole-process runs -> results/raw/scale-${stamp}.json"
/usr/bin/python3 scripts/scale_runs.py build/release "results/raw/scale-${stamp}.json" $full

echo "== judges against the classic programs -> results/raw/judges-${stamp}.json"
/usr/bin/python3 scripts/judge_speed.py build/release --runs 5 --json "results/raw/judges-${stamp}.json"

echo "== regenerating results/README.md"
/usr/bin/python3 scripts/report.py results/raw results/README.md
echo "done: results/README.md"
