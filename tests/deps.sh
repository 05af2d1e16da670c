#!/usr/bin/env bash
# Installs what building and testing collide needs, when it is missing (Debian; run as root).
# With --fuzz, also clang, libFuzzer and ninja for the fuzz targets (tests/fuzz).
set -euo pipefail
need=(cmake g++ make python3 libcli11-dev nlohmann-json3-dev libspdlog-dev doctest-dev python3-jsonschema
      libpugixml-dev zlib1g-dev libzstd-dev)
[ "${1:-}" = --fuzz ] && need+=(clang libclang-rt-14-dev ninja-build)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
