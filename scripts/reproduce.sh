#!/usr/bin/env bash
# The main job (the README's first command): install what is missing, build Release, run
# the benchmark set, save the raw JSON under results/raw/ stamped with the commit, the
# versions and the machine (CPU model, cores, memory, kernel), and regenerate
# results/README.md and its plots from every raw file there.
#   scripts/reproduce.sh                      default set (about 12 minutes on 2 cores)
#   scripts/reproduce.sh --full               adds the large runs (msquare-2x6, checkers-25, checkers-27)
#   scripts/reproduce.sh --threads 1,2,4,8,16 thread counts of the parallel engines' whole-space
#                                             benchmarks and whole-process runs (default: 1 and
#                                             the powers of two up to the core count)
#   scripts/reproduce.sh --filter REGEX       only the benchmarks whose names match (the report
#                                             keeps the other figures from older raw files)
# Then whole-process runs of the large searches (scripts/scale_runs.py: wall time and peak
# resident memory), also saved under results/raw/.
# The new raw files are new, and results/README.md and the plots change: the script ends
# by printing how to commit the run or discard it.
set -euo pipefail
cd "$(dirname "$0")/.."
full=""
threads=""
filter=""
usage="usage: scripts/reproduce.sh [--full] [--threads 1,2,4,...] [--filter REGEX]"
while (($#)); do
  case "$1" in
    --full) full="--full" ;;
    --threads)
      (($# >= 2)) || { echo "reproduce.sh: --threads needs a list like 1,2,4 ($usage)" >&2; exit 2; }
      threads="$2"; shift ;;
    --threads=*) threads="${1#--threads=}" ;;
    --filter)
      (($# >= 2)) || { echo "reproduce.sh: --filter needs a regular expression ($usage)" >&2; exit 2; }
      filter="$2"; shift ;;
    --filter=*) filter="${1#--filter=}" ;;
    -h|--help) echo "$usage"; exit 0 ;;
    *) echo "reproduce.sh: unknown argument '$1' ($usage)" >&2; exit 2 ;;
  esac
  shift
done
if [[ -n "$threads" && ! "$threads" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]]; then
  echo "reproduce.sh: --threads needs a comma-separated list of positive integers like 1,2,4, got '$threads'" >&2
  exit 2
fi
scripts/deps.sh

cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j "$(nproc)" --target searchbench bench_search sicily1151_classic fzu1603_classic

revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
# Changes under results/ (an earlier run's files) do not make the measured code dirty.
dirty=$(git status --porcelain -- . ':(exclude)results' 2>/dev/null | grep -qv '^??' && echo "+dirty" || true)
compiler=$(c++ --version | head -1)
tbb=$(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null || echo unknown)
gbench=$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo unknown)
mapfile -t machine < <(/usr/bin/python3 scripts/machine_info.py --benchmark-context)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mkdir -p results/raw
stamp="$(date -u +%Y%m%d-%H%M%S)-${revision}${full:+-full}${threads:+-t${threads//,/-}}"
out="results/raw/bench-${stamp}.json"
scale="results/raw/scale-${stamp}.json"
# Written under a temporary name and renamed when complete, so an interrupted run leaves
# no half file for the report to read.
trap 'rm -f "$out.partial" "$scale.partial"' EXIT

command="scripts/reproduce.sh${full:+ $full}${threads:+ --threads $threads}${filter:+ --filter '$filter'}"
echo "== running benchmarks -> $out"
build/release/bench/bench_search $full ${threads:+--threads=$threads} ${filter:+--benchmark_filter=$filter} \
  --benchmark_repetitions=3 --benchmark_min_time=0.05 \
  --benchmark_out="$out.partial" --benchmark_out_format=json \
  --benchmark_context=git_revision="${revision}${dirty}" \
  --benchmark_context=compiler="$compiler" \
  --benchmark_context=onetbb="$tbb" \
  --benchmark_context=google_benchmark="$gbench" \
  "${machine[@]}" \
  --benchmark_context=date="$date" \
  --benchmark_context=command="${command//,/;}" ${filter:+"--benchmark_context=benchmark_filter=${filter//,/;}"}
mv "$out.partial" "$out"

echo "== whole-process runs -> $scale"
/usr/bin/python3 scripts/scale_runs.py build/release "$scale.partial" $full ${threads:+--threads $threads} \
  --git-revision "${revision}${dirty}" --command "$command"
mv "$scale.partial" "$scale"

echo "== judges against the classic programs -> results/raw/judges-${stamp}.json"
/usr/bin/python3 scripts/judge_speed.py build/release --runs 5 --json "results/raw/judges-${stamp}.json"

echo "== regenerating results/README.md"
/usr/bin/python3 scripts/report.py results/raw results/README.md
cat <<MSG
done: new raw files $out and $scale;
results/README.md and its plots are regenerated from every raw file under results/raw/.
  keep this run:    git add results && git commit -m "Results: $command at ${revision}${dirty}"
  discard this run: git checkout results && git clean -fd results
MSG
