#!/usr/bin/env bash
# The main job (the README's first command): install what is missing, build Release, run the
# benchmark set into a folder of its own, and write that run's report from its files alone:
#   results/runs/<UTC date-time>-<commit>-<host>/
#     bench.json.gz         Google Benchmark's JSON with every repetition (round 1), compressed
#     bench-round2.json.gz  more repetitions of the cases whose CV was above 5% (when any fit)
#     scale.json         whole-process wall time and peak RSS (scripts/scale_runs.py)
#     judges.json        searchbench's judges against the classic programs (scripts/judge_speed.py)
#     peers.json         with --peers: searchbench beside PuzzleSearch, gapbs and twsearch (scripts/peer_runs.py)
#     run.json           command, commit, uncommitted files, machine, governor, load, rounds, completion
#     registry.json      `searchbench list --json`: the engines and puzzle families measured (the
#                        report reads the families' classic encoders from it)
#     report.md, benchmarks.csv, tables/*.csv, *.png, *.svg, *.pdf    (scripts/report.py run)
# Unless the run was filtered, results/README.md (the newest complete run's report and an index
# of every run) and results/long-runs.md are then regenerated (scripts/report.py index results).
#   scripts/reproduce.sh                      default set (about 18 minutes on 2 cores)
#   scripts/reproduce.sh --full               adds the large runs (msquare-2x6, checkers-25, checkers-27,
#                                             and msquare-2x7 out of core to depth 33, 27 GB of disk)
#   scripts/reproduce.sh --threads 1,2,4,8,16 thread counts of the parallel engines' whole-space
#                                             benchmarks and whole-process runs (default: 1 and
#                                             the powers of two up to the core count)
#   scripts/reproduce.sh --filter REGEX       only the benchmarks, whole-process cases and judge
#                                             inputs whose names match; the run gets its own
#                                             report, results/README.md is left as it is
#   scripts/reproduce.sh --allow-dirty        measure a tree with changes outside results/ (refused
#                                             otherwise); every page of the run's report says so
#   scripts/reproduce.sh --peers              also builds the peers from local git copies of their
#                                             repositories (PEER_MIRROR: lightln2/PuzzleSearch,
#                                             GAPBS_MIRROR: sbeamer/gapbs, TWSEARCH_MIRROR:
#                                             cubing/twsearch) outside the tree and runs
#                                             them beside searchbench on the same work (about 6 more
#                                             minutes on 2 cores); a peer whose variable is unset is
#                                             skipped, and the report says so
# Statistics (scripts/reporting/stats.py): 5 repetitions of every case in random order
# (--benchmark_enable_random_interleaving), then a second round of 10 more for the cases
# whose CV was above 5%, most spread first, as many as fit the time left of an 18-minute
# plan (at least 60 s, at most 300 s). bench_search records the load around each repetition;
# the run records the CPU frequency governor and the load before and after.
# Packages: scripts/deps.sh, which ends after one dpkg-query when every package is installed.
# The load: the build's own compiling leaves the 1-minute load high for a minute, which would
# make the run's "load before" say others use the machine. So the load is read before the
# build, and after a build that compiled something the run waits (60 s at most) only while the
# load is more than half a core above that reading; load that was there before is others'
# work, which waiting would not end, and the run records it instead.
# SEARCHBENCH_BUILD_LOCK=FILE builds under `flock FILE`, for a machine where others build too.
# SEARCHBENCH_LOADAVG=FILE reads the load from FILE instead of /proc/loadavg (the tests' stand-in).
set -euo pipefail
cd "$(dirname "$0")/.."
full=""
threads=""
filter=""
allow_dirty=""
peers=""
usage="usage: scripts/reproduce.sh [--full] [--threads 1,2,4,...] [--filter REGEX] [--allow-dirty] [--peers]"
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
    --allow-dirty) allow_dirty=1 ;;
    --peers) peers=1 ;;
    -h|--help) echo "$usage"; sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;  # the header above is the manual
    *) echo "reproduce.sh: unknown argument '$1' ($usage)" >&2; exit 2 ;;
  esac
  shift
done
if [[ -n "$filter" ]] && ! /usr/bin/python3 -c 'import re, sys; re.compile(sys.argv[1])' "$filter" 2>/dev/null; then
  echo "reproduce.sh: --filter '$filter' is not a regular expression" >&2
  exit 2
fi
if [[ -n "$threads" && ! "$threads" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]]; then
  echo "reproduce.sh: --threads needs a comma-separated list of positive integers like 1,2,4, got '$threads'" >&2
  exit 2
fi

# A run measures one commit. Changes under results/ (earlier runs) do not count; untracked
# files do, since a new source file is compiled in as soon as CMake lists it.
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ "$revision" == unknown ]]; then
  changes="(not a git checkout: the commit is unknown)"
else
  changes=$(git status --porcelain --untracked-files=normal -- . ':(exclude)results' | cut -c4-)
fi
dirty=""
if [[ -n "$changes" ]]; then
  dirty="+dirty"
  if [[ -z "$allow_dirty" ]]; then
    echo "reproduce.sh: the tree has changes outside results/; commit them, or measure anyway with --allow-dirty" \
         "(the report then says so on every page):" >&2
    head -20 <<<"$changes" | sed 's/^/  /' >&2
    exit 2
  fi
fi

scripts/deps.sh
loadavg_file=${SEARCHBENCH_LOADAVG:-/proc/loadavg}
load1() { awk '{print $1}' "$loadavg_file"; }
above() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a > b)}'; }  # whether a > b, as decimals
lock=()
[[ -n "${SEARCHBENCH_BUILD_LOCK:-}" ]] && lock=(flock "$SEARCHBENCH_BUILD_LOCK")
load_before_build=$(load1)
built=$(date +%s)
"${lock[@]}" cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
"${lock[@]}" cmake --build build/release -j "$(nproc)" --target searchbench searchbench-judge bench_search sicily1151_classic fzu1603_classic

# Only the load this build added is waited for (the header says why): back to within half a
# core of the load before it, or 60 s at most.
if (($(date +%s) - built > 5)); then
  settled=$(awk -v b="$load_before_build" 'BEGIN {print b + 0.5}')
  if above "$(load1)" "$settled"; then
    echo "== the build left the 1-minute load at $(load1) ($load_before_build before it): waiting up to 60 s for $settled"
    for _ in $(seq 60); do
      sleep 1
      above "$(load1)" "$settled" || break
    done
    if above "$(load1)" "$settled"; then
      echo "== the load is still $(load1) after 60 s: measuring anyway (the run records it)"
    fi
  else
    echo "== the 1-minute load after the build, $(load1), is within half a core of the $load_before_build before it: no wait"
  fi
fi

host=$(hostname -s 2>/dev/null || hostname 2>/dev/null || echo unknown)
id="$(date -u +%Y%m%dT%H%M%SZ)-${revision}${dirty}-${host//[^A-Za-z0-9.-]/_}"
final="results/runs/$id"
run="$final.partial"  # renamed when complete; an interrupted run leaves nothing behind
mkdir -p "$run"
trap 'rm -rf "$run"' EXIT
loadavg() { awk '{printf "[%s, %s, %s]", $1, $2, $3}' "$loadavg_file"; }
governor=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo unknown)
command="scripts/reproduce.sh${full:+ $full}${threads:+ --threads $threads}${filter:+ --filter '$filter'}${allow_dirty:+ --allow-dirty}${peers:+ --peers}"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
bench_flags="--benchmark_repetitions=5 --benchmark_enable_random_interleaving=true --benchmark_min_time=0.05"
manifest() { /usr/bin/python3 scripts/run_manifest.py "$run/run.json" "$@"; }
{ grep -v '^$' <<<"$changes" || true; } | manifest --machine --lines dirty_files run_id="$id" command="$command" git_revision="$revision$dirty" \
  dirty:="$([[ -n "$dirty" ]] && echo true || echo false)" filter="$filter" started_utc="$started" host="$host" \
  cpu_governor="$governor" bench_flags="$bench_flags" load_before:="$(loadavg)" complete:=false
build/release/searchbench list --json >"$run/registry.json"
# The vector path the build's byte permutations compiled to (its JSON context's "simd"), for
# the benchmarks' context: bench_search is the same build.
simd=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("context", {}).get("simd", "unknown"))' "$run/registry.json")

compiler=$(c++ --version | head -1)
tbb=$(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null || echo unknown)
gbench=$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo unknown)
mapfile -t machine < <(/usr/bin/python3 scripts/machine_info.py --benchmark-context)
bench_search() {  # bench_search with the run's choice of cases (--full, --threads), then "$@"
  build/release/bench/bench_search $full ${threads:+--threads=$threads} "$@"
}
bench() {  # output file, round, extra flags...
  local out=$1 round=$2; shift 2
  bench_search "$@" \
    --benchmark_out="$out" --benchmark_out_format=json \
    --benchmark_context=git_revision="${revision}${dirty}" --benchmark_context=compiler="$compiler" \
    --benchmark_context=onetbb="$tbb" --benchmark_context=google_benchmark="$gbench" --benchmark_context=simd="$simd" "${machine[@]}" \
    --benchmark_context=run_date_utc="$(date -u +%Y-%m-%dT%H:%M:%SZ)" --benchmark_context=run_id="$id" \
    --benchmark_context=round="$round" --benchmark_context=cpu_governor="$governor" \
    --benchmark_context=command="${command//,/;}" ${filter:+"--benchmark_context=benchmark_filter=${filter//,/;}"}
}
cases() { /usr/bin/python3 -c 'import json, sys; print(len({b["run_name"] for b in json.load(open(sys.argv[1]))["benchmarks"]}))' "$1"; }

t0=$(date +%s)
# A filter may name only whole-process, judge or peer cases: then there is no benchmark round
# (and no bench.json), rather than an empty benchmark file the report cannot read.
# shellcheck disable=SC2086
listed=$(bench_search --benchmark_list_tests ${filter:+"--benchmark_filter=$filter"} 2>/dev/null || true)
if [[ -z "$listed" ]]; then
  echo "== no benchmark matches the filter: no benchmark rounds"
else
  echo "== round 1: every case, 5 repetitions in random order -> $final/bench.json"
  # shellcheck disable=SC2086
  bench "$run/bench.json" 1 $bench_flags ${filter:+"--benchmark_filter=$filter"}
  manifest --append rounds="{\"repetitions\": 5, \"cases\": $(cases "$run/bench.json"), \"seconds\": $(($(date +%s) - t0))}"

  # Round 2 gets what the plan leaves after round 1 and a reserve for the whole-process runs
  # and the judges (about a minute on 2 cores).
  elapsed=$(($(date +%s) - t0))
  budget=$((18 * 60 - elapsed - 90))
  ((budget < 60)) && budget=60
  ((budget > 300)) && budget=300
  noisy=$(/usr/bin/python3 scripts/report.py noisy "$run/bench.json" "$budget" 10)
  if [[ -n "$noisy" ]]; then
    echo "== round 2: 10 more repetitions of the cases whose CV was above 5% -> $final/bench-round2.json"
    t1=$(date +%s)
    bench "$run/bench-round2.json" 2 --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true \
      --benchmark_min_time=0.05 --benchmark_filter="$noisy"
    manifest --append rounds="{\"repetitions\": 10, \"cases\": $(cases "$run/bench-round2.json"), \"seconds\": $(($(date +%s) - t1)), \"why\": \"CV above 5% in round 1\"}"
  fi
fi

echo "== whole-process runs -> $final/scale.json"
/usr/bin/python3 scripts/scale_runs.py build/release "$run/scale.json" $full ${threads:+--threads $threads} \
  ${filter:+--filter "$filter"} --git-revision "${revision}${dirty}" --command "$command"

echo "== judges against the classic programs -> $final/judges.json"
/usr/bin/python3 scripts/judge_speed.py build/release --runs 5 --json "$run/judges.json" ${filter:+--filter "$filter"}

if [[ -n "$peers" ]]; then
  echo "== beside the peers -> $final/peers.json"
  /usr/bin/python3 scripts/peer_runs.py build/release "$run/peers.json" $full ${filter:+--filter "$filter"} \
    --git-revision "${revision}${dirty}" --command "$command"
fi

# A filter that matched nothing measured nothing: no run folder for it.
measured=$(/usr/bin/python3 - "$run" <<'PY'
import glob, json, os, sys
count = 0
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    if os.path.basename(path) not in ("run.json", "registry.json"):
        doc = json.load(open(path))
        count += sum(len(doc.get(k, [])) for k in ("benchmarks", "runs", "inputs"))
print(count)
PY
)
if [[ "$measured" == 0 ]]; then
  echo "reproduce.sh: --filter '$filter' matches no benchmark, whole-process case, judge input or peer case" >&2
  exit 2
fi

manifest complete:=true finished_utc="$(date -u +%Y-%m-%dT%H:%M:%SZ)" load_after:="$(loadavg)" \
  measured_seconds:=$(($(date +%s) - t0))
mv "$run" "$final"
trap - EXIT
/usr/bin/python3 scripts/report.py compress "$final"  # raw JSON kept as .json.gz: the repository stays small
echo "== the run's report -> $final/report.md"
/usr/bin/python3 scripts/report.py run "$final"
if [[ -z "$filter" ]]; then
  echo "== regenerating results/README.md (the newest complete run and the index of runs) and results/long-runs.md"
  /usr/bin/python3 scripts/report.py index results
  discard="rm -rf '$final' && git checkout -- results/README.md results/long-runs.md results/tables"
else
  echo "== filtered run: results/README.md is left as it is"
  discard="rm -rf '$final'"
fi
cat <<MSG
done in $(($(date +%s) - t0)) s of measuring: $final/report.md
  keep this run:    git add results && git commit -m "Results: $command at ${revision}${dirty}"
  discard this run: $discard
MSG
