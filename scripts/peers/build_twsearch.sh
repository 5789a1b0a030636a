#!/usr/bin/env bash
# Builds Tomas Rokicki's twsearch (its C++ command-line program, cubing/twsearch) from a local
# git copy into OUT_DIR, with the sample definition files it ships (OUT_DIR/samples/*.tws),
# and prints the program's path. The C++ source lives in the repository's history before the
# commit that removed it (d7042aa, November 2025); TWSEARCH_REV picks another commit. The
# peer's code stays outside searchbench's tree.
#   TWSEARCH_MIRROR=<a git clone or git directory of cubing/twsearch> scripts/peers/build_twsearch.sh OUT_DIR
set -euo pipefail
: "${TWSEARCH_MIRROR:?set TWSEARCH_MIRROR to a git clone or git directory of cubing/twsearch}"
out=$(mkdir -p "${1:?folder to build in}" && cd "$1" && pwd)
if [[ ! -x "$out/twsearch" ]]; then
  git_dir=$TWSEARCH_MIRROR
  [[ -d "$git_dir/.git" ]] && git_dir=$git_dir/.git
  rev=$(git --git-dir="$git_dir" rev-parse --verify "${TWSEARCH_REV:-d7042aa991d06439d12e410634f92ab4b8da6869^}^{commit}")
  src=$(mktemp -d "${TMPDIR:-/tmp}/searchbench-twsearch.XXXXXX")
  trap 'rm -rf "$src"' EXIT
  git --git-dir="$git_dir" archive "$rev" src/cpp Makefiles/cpp.Makefile samples/main | tar -x -C "$src"
  flags="-DTWSEARCH_VERSION=git-${rev:0:12} -DUSE_PTHREADS"
  [[ -f "$src/src/cpp/vendor/ppqsort/ppqsort.h" ]] && flags+=" -DUSE_PPQSORT"
  make -C "$src" -f Makefiles/cpp.Makefile -j"${JOBS:-2}" build/bin/twsearch FLAGS="$flags" \
       TWSEARCH_VERSION="git-${rev:0:12}" >"$out/build.log" 2>&1 || { tail -20 "$out/build.log" >&2; exit 1; }
  rm -rf "$out/samples"
  cp -r "$src/samples/main" "$out/samples"
  cp "$src/build/bin/twsearch" "$out/twsearch"
  echo "$rev" >"$out/revision"   # the commit built, which the mirror's HEAD is not
fi
echo "$out/twsearch"
