#!/usr/bin/env bash
# Every test: installs what is missing, builds from scratch (Release with warnings as
# errors, then Debug with AddressSanitizer + UBSan) and runs the whole CTest suite on both:
# unit tests, CLI tests, the conformance corpus in ../shared/conformance, schema
# validation and the find_package consumer; then replays every saved fuzz finding and runs
# each libFuzzer target on a fixed number of inputs from a fixed seed (FUZZ_SEED, default 1;
# 20 to 40 s a target, capped at FUZZ_SECONDS, default 60), so that the same commit gives the
# same verdict every time. `FUZZ_SEED= bash tests/run-all.sh` fuzzes new inputs instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/deps.sh --fuzz
jobs=$(nproc)
for cfg in "build-test:-DCMAKE_BUILD_TYPE=Release -DCOLLIDE_WERROR=ON" \
           "build-asan:-DCMAKE_BUILD_TYPE=Debug -DCOLLIDE_WERROR=ON -DCOLLIDE_SANITIZE=ON"; do
  dir=${cfg%%:*}; flags=${cfg#*:}
  echo "== $dir ($flags)"
  rm -rf "$dir"
  cmake -S . -B "$dir" $flags >/dev/null
  cmake --build "$dir" -j"$jobs" 2>&1 | grep -E "warning|error" || true
  test -x "$dir/cli/collide"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$dir" --output-on-failure -j"$jobs"
done
echo "== fuzz (seed ${FUZZ_SEED-1}, at most ${FUZZ_SECONDS:-60} s a target)"
rm -rf build-fuzz
FUZZ_SEED=${FUZZ_SEED-1} FUZZ_SECONDS=${FUZZ_SECONDS:-60} FUZZ_BUILD_DIR=$PWD/build-fuzz bash tests/fuzz/run.sh
