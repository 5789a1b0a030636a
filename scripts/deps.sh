#!/usr/bin/env bash
# Installs the Debian packages searchbench needs, only those missing (run as root).
set -euo pipefail
# libbenchmark-tools: Google Benchmark's compare.py (/usr/share/benchmark/compare.py), whose
# U-test needs python3-scipy.
packages=(g++ cmake ninja-build libtbb-dev libbenchmark-dev libbenchmark-tools libgtest-dev libcli11-dev nlohmann-json3-dev
          libxxhash-dev python3 python3-matplotlib python3-scipy git libopenmpi-dev openmpi-bin "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
