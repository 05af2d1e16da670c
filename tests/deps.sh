#!/usr/bin/env bash
# Installs what building and testing collide needs, when it is missing (Debian; run as root).
# With --fuzz (the whole test suite), also clang, libFuzzer and ninja for the fuzz targets
# (tests/fuzz), and xmllint, headless Chromium and Pillow for the pictures of `collide render`
# (tests/cli/test_render.py); Chromium without its recommended packages (printing, desktop
# integration), which a headless screenshot does not use.
set -euo pipefail
need=(cmake g++ make python3 libcli11-dev nlohmann-json3-dev libspdlog-dev doctest-dev python3-jsonschema
      pkgconf libpugixml-dev zlib1g-dev libdeflate-dev libzstd-dev help2man groff-base  # the last two: the man page and its test
      lintian dpkg-dev man-db file  # the Debian packages' test (tests/package): lintian, dpkg-shlibdeps, man -w
      git python3-yaml pre-commit)  # the CI examples' and pre-commit hooks' tests (tests/cli/test_ci_examples.py)
lean=()
if [ "${1:-}" = --fuzz ]; then
  need+=(clang libclang-rt-14-dev ninja-build libxml2-utils python3-pil libicu72)  # ICU: the SARIF Multitool (.NET)
  lean+=(chromium)
  command -v npm >/dev/null || need+=(npm)
fi
missing=() missing_lean=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in "${need[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${lean[@]}"; do installed "$p" || missing_lean+=("$p"); done
if ((${#missing[@]} + ${#missing_lean[@]})); then
  echo "installing Debian packages: ${missing[*]} ${missing_lean[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "  apt-get update (quiet)..." >&2
  $SUDO apt-get update -qq
  if ((${#missing[@]})); then
    echo "  apt-get install ${#missing[@]} packages and what they depend on (quiet; a minute or more)..." >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if ((${#missing_lean[@]})); then
    echo "  apt-get install --no-install-recommends ${missing_lean[*]} (quiet; a minute or more)..." >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing_lean[@]}" >/dev/null
  fi
  echo "  installed" >&2
else
  echo "Debian packages: all ${#need[@]}${lean:+ + ${#lean[@]}} present" >&2
fi
# With --fuzz (the whole test suite): Microsoft's SARIF Multitool, which validates `-f sarif`
# logs (tests/cli/test_ci_formats.py), from npm into tests/.tools (not committed).
if [ "${1:-}" = --fuzz ]; then
  tools=$(cd "$(dirname "$0")" && pwd)/.tools
  multitool=$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  if [ ! -x "$multitool" ]; then
    echo "installing @microsoft/sarif-multitool (npm, into tests/.tools; quiet, a minute or so)..." >&2
    npm install --prefix "$tools" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0 >/dev/null
    chmod u+x "$multitool"  # its postinstall step, which npm may not run
  fi
fi
