#!/usr/bin/env bash
# Godot scene benchmark (issue 30): `collide check level.tscn` and `collide import level.tscn` on
# a generated project (a 4096x4096 TileMapLayer, ~30% of its cells set, and 100,000 bodies),
# against godot_floor (read, one tokenizing pass, base64 decode of the tile data, a walk over its
# cells, the numbers of every position). Target: check within 2x of the floor, the ratio taken
# in one run.
#
#   bash tests/bench/godot_bench.sh [--bin build/cli/collide] [--floor build/godot_floor]
#        [--runs 5] [--scene FILE.tscn] [--size 4096] [--bodies 100000] [--seed 1]
#
# Builds nothing. The floor is built with the benchmarks:
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_BENCH=ON
#   cmake --build build -j2 --target collide_cli godot_floor
# Generates the project with gen_godot_scene.py (default ${TMPDIR:-/tmp}/collide-godotbench/
# godot-SIZE-BODIES-sSEED/, reused while its level.tscn is newer than the generator). Then one
# untimed run of each (page cache; the floor's phases; collide's -v phases and summary), then
# RUNS rounds alternating floor, `collide check level.tscn > /dev/null`, `collide import
# level.tscn > /dev/null` under /usr/bin/time -f '%e %U %S %M'. Prints a Markdown table of the
# medians (wall, user, sys, peak RSS) and the ratios check/floor and import/floor. For finer
# alternating timings: python3 tests/bench/ab_runs.py --map FILE.tscn "FLOOR MAP" "BIN check MAP".
#
# The reports go to stdout redirected to /dev/null, NOT to `-o /dev/null`: collide writes
# -o PATH through a temporary file renamed onto PATH, which would replace /dev/null itself
# with a regular file when run as root.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$ROOT/build/cli/collide FLOOR=$ROOT/build/godot_floor
RUNS=5 SIZE=4096 BODIES=100000 SEED=1 SCENE=

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin) BIN=$2; shift 2 ;;
    --floor) FLOOR=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --scene) SCENE=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --bodies) BODIES=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "godot_bench.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done

[ -x /usr/bin/time ] || { echo "godot_bench.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2; exit 2; }
for b in "$BIN" "$FLOOR"; do
  [ -x "$b" ] || { echo "godot_bench.sh: $b is not built (see the header of $0)" >&2; exit 2; }
done

DIR=${TMPDIR:-/tmp}/collide-godotbench
mkdir -p "$DIR"
GEN=$HERE/gen_godot_scene.py
if [ -z "$SCENE" ]; then
  PROJECT=$DIR/godot-$SIZE-$BODIES-s$SEED
  SCENE=$PROJECT/level.tscn
  if [ ! -s "$SCENE" ] || [ "$GEN" -nt "$SCENE" ]; then
    echo "== generating $PROJECT"
    mkdir -p "$PROJECT"
    python3 "$GEN" --size "$SIZE" --bodies "$BODIES" --seed "$SEED" --out "$PROJECT" 2>"$SCENE.stats"
  fi
fi
[ -s "$SCENE" ] || { echo "godot_bench.sh: no scene $SCENE" >&2; exit 2; }

# shellcheck source=floor_rounds.sh
source "$HERE/floor_rounds.sh"
floor_rounds "$SCENE" scene godot_bench.sh "issue 30"

