#!/usr/bin/env bash
# Installs the Debian packages searchbench needs, only those missing (run as root). When all
# are installed it ends after one dpkg-query call, without apt-get (no root needed then), so
# scripts/reproduce.sh and scripts/test.sh can run it every time. Extra packages: arguments.
set -euo pipefail
# libbenchmark-tools: Google Benchmark's compare.py (/usr/share/benchmark/compare.py), whose
# U-test needs python3-scipy.
packages=(g++ cmake ninja-build libtbb-dev libbenchmark-dev libbenchmark-tools libgtest-dev libcli11-dev nlohmann-json3-dev
          libxxhash-dev python3 python3-matplotlib python3-scipy git libopenmpi-dev openmpi-bin "$@")
if ! command -v dpkg-query >/dev/null; then
  echo "deps.sh: no dpkg-query here: this script installs Debian packages (Debian 12); install ${packages[*]} by hand" >&2
  exit 2
fi
# One call for the whole list; a package dpkg has never heard of prints nothing (and makes the
# status 1), so it counts as missing too.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null | awk '/ install ok installed$/ {print $1}' || true)
missing=()
for p in "${packages[@]}"; do
  grep -qxF -- "$p" <<<"$installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
