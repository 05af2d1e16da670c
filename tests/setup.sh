#!/usr/bin/env bash
# Sets up everything collide needs and builds it into build/ (Release), saying each step: the
# packages it installs, configuring, the build's own progress lines ([ NN%] ..., no compiler
# command lines) and how long it all took. A tree already built is only brought up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
jobs=$(nproc)
echo "== checking Debian packages (tests/deps.sh)" >&2
bash tests/deps.sh
echo "== configuring build/ (Release)" >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "== building ($jobs jobs; a first build takes several minutes)" >&2
cmake --build build -j"$jobs" >&2
elapsed=$((SECONDS - start))
echo "built build/cli/collide in $((elapsed / 60))m$((elapsed % 60))s" >&2
