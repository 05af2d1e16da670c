#!/usr/bin/env bash
# Sets up everything collide needs and builds it into build/ (Release).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "built build/cli/collide" >&2
