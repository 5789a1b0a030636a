#!/usr/bin/env bash
# Builds the GAP Benchmark Suite's bfs and converter (sbeamer/gapbs) from a local git copy into
# OUT_DIR and prints that folder. The peer's code stays outside searchbench's tree.
#   GAPBS_MIRROR=<a git clone or git directory of sbeamer/gapbs> scripts/peers/build_gapbs.sh OUT_DIR
set -euo pipefail
: "${GAPBS_MIRROR:?set GAPBS_MIRROR to a git clone or git directory of sbeamer/gapbs}"
out=${1:?folder to build in}
mkdir -p "$out"
[[ -d "$out/gapbs/.git" ]] || git clone -q "$GAPBS_MIRROR" "$out/gapbs"
make -s -C "$out/gapbs" bfs converter >/dev/null
echo "$out/gapbs"
