#!/usr/bin/env bash
# Installs the Debian packages searchbench needs, only those missing (run as root).
set -euo pipefail
packages=(g++ cmake ninja-build libtbb-dev libbenchmark-dev libgtest-dev libcli11-dev nlohmann-json3-dev libxxhash-dev
          python3 python3-matplotlib git libopenmpi-dev openmpi-bin "$@")
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
