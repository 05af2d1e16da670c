#!/usr/bin/env bash
# Map import benchmark (issue 14): `collide check MAP` and `collide import MAP` on a 4096x4096
# tile layer (base64 + zlib) with 100,000 objects, against map_floor (pugixml parse, base64
# decode, inflate, a walk reading every object's x, y, width, height). Target: check within 2x
# of the floor, the ratio taken in one run.
#
#   bash tests/bench/map_bench.sh [--bin build/cli/collide] [--floor build/map_floor]
#        [--runs 3] [--map FILE] [--size 4096] [--objects 100000] [--seed 1]
#
# Builds nothing. The floor is built with the benchmarks:
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_BENCH=ON
#   cmake --build build -j2 --target collide_cli map_floor
# Generates the map with gen_tiled_map.py (default ${TMPDIR:-/tmp}/collide-mapbench/
# map-SIZE-OBJECTS-sSEED.tmx, reused while it is newer than the generator). Then one untimed
# run of each (page cache; the floor's phases; collide's -v phases and summary), then RUNS
# rounds alternating floor, `collide check MAP > /dev/null`, `collide import MAP > /dev/null`
# under /usr/bin/time -f '%e %U %S %M'. Prints a Markdown table of the medians (wall, user,
# sys, peak RSS) and the ratios check/floor and import/floor.
#
# The reports go to stdout redirected to /dev/null, NOT to `-o /dev/null`: collide writes
# -o PATH through a temporary file renamed onto PATH, which would replace /dev/null itself
# with a regular file when run as root.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$ROOT/build/cli/collide FLOOR=$ROOT/build/map_floor
RUNS=3 SIZE=4096 OBJECTS=100000 SEED=1 MAP=

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin) BIN=$2; shift 2 ;;
    --floor) FLOOR=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --map) MAP=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --objects) OBJECTS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "map_bench.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done

[ -x /usr/bin/time ] || { echo "map_bench.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2; exit 2; }
for b in "$BIN" "$FLOOR"; do
  [ -x "$b" ] || { echo "map_bench.sh: $b is not built (see the header of $0)" >&2; exit 2; }
done

DIR=${TMPDIR:-/tmp}/collide-mapbench
mkdir -p "$DIR"
GEN=$HERE/gen_tiled_map.py
if [ -z "$MAP" ]; then
  MAP=$DIR/map-$SIZE-$OBJECTS-s$SEED.tmx
  if [ ! -s "$MAP" ] || [ "$GEN" -nt "$MAP" ]; then
    echo "== generating $MAP"
    python3 "$GEN" --size "$SIZE" --objects "$OBJECTS" --seed "$SEED" --out "$MAP.part" 2>"$MAP.stats"
    mv "$MAP.part" "$MAP"
  fi
fi
[ -s "$MAP" ] || { echo "map_bench.sh: no map $MAP" >&2; exit 2; }

# shellcheck source=floor_rounds.sh
source "$HERE/floor_rounds.sh"
floor_rounds "$MAP" map map_bench.sh "issue 14"

