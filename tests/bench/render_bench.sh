#!/usr/bin/env bash
# Issue 17's benchmark: what a picture costs beside the report, on big scenes.
#
#   bash tests/bench/render_bench.sh [--runs 3] [--dir DIR] [--bin PATH]
#
# Builds collide (Release, CLI only) in DIR (default ${TMPDIR:-/tmp}/collide-render) unless
# --bin names a binary; generates s1m.json (gen_scene.py --shapes 1000000 --seed 1, the scale
# benchmark's scene) and grid.json (a 1000x1000 grid, 30% solid, with 100,000 shapes: the
# issue's "big scene", made by tests/cli/test_render.py's big_scene_json); then RUNS rounds, each timing
# (under /usr/bin/time) on both scenes:
#   check:  collide check -f json SCENE > /dev/null
#   render: collide render SCENE -o DIR/SCENE.svg
# and prints the medians of wall and CPU time, the ratio render / check, and the SVG's size.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${TMPDIR:-/tmp}/collide-render
RUNS=3 BIN=
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "render_bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$DIR"
command -v /usr/bin/time >/dev/null || { echo "render_bench.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
if [ -z "$BIN" ]; then
  echo "== building collide (Release, CLI only) in $DIR/build"
  cmake -S "$ROOT" -B "$DIR/build" -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_TESTS=OFF >"$DIR/build.log" 2>&1 \
    && cmake --build "$DIR/build" --target collide_cli -j"$(nproc)" >>"$DIR/build.log" 2>&1 \
    || { tail -20 "$DIR/build.log" >&2; exit 1; }
  BIN=$DIR/build/cli/collide
fi
cp "$BIN" "$DIR/collide.bin"  # a private copy: others may rebuild meanwhile
C=$DIR/collide.bin
if [ ! -s "$DIR/s1m.json" ] || [ "$HERE/gen_scene.py" -nt "$DIR/s1m.json" ]; then
  echo "== generating s1m.json"
  python3 "$HERE/gen_scene.py" -o "$DIR/s1m.json" --shapes 1000000 --seed 1 2>/dev/null
fi
if [ ! -s "$DIR/grid.json" ]; then
  echo "== generating grid.json"
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import test_render; open(sys.argv[2], "w").write(test_render.big_scene_json())' \
    "$ROOT/tests/cli" "$DIR/grid.json"
fi

RES=$DIR/results.tsv
: >"$RES"
timed() {  # timed NAME COMMAND...: one run; appends NAME wall cpu
  local name=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$DIR/time.txt" "$@" >/dev/null
  read -r wall user sys <"$DIR/time.txt"
  echo "$name $wall $(echo "$user + $sys" | bc)" >>"$RES"
}
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$RUNS"); do
  echo "== round $r of $RUNS"
  for s in s1m grid; do
    timed "check-$s" "$C" check -f json "$DIR/$s.json"
    timed "render-$s" "$C" render "$DIR/$s.json" -o "$DIR/$s.svg"
  done
done
python3 - "$RES" "$DIR" "$LOAD" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import os, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {n: (statistics.median(float(r[1]) for r in rows if r[0] == n), statistics.median(float(r[2]) for r in rows if r[0] == n))
       for n in {r[0] for r in rows}}
print(f"load {sys.argv[3]} -> {sys.argv[4]}; medians of wall and CPU seconds")
print("| scene | check wall | render wall | render / check (wall) | render / check (CPU) | SVG |")
print("|---|---|---|---|---|---|")
for s, what in (("s1m", "1M shapes (s1m.json)"), ("grid", "1000x1000 grid + 100,000 shapes")):
    c, r = med[f"check-{s}"], med[f"render-{s}"]
    mb = os.path.getsize(os.path.join(sys.argv[2], s + ".svg")) / 1e6
    print(f"| {what} | {c[0]:.2f} | {r[0]:.2f} | {r[0] / c[0]:.2f}x | {r[1] / c[1]:.2f}x | {mb:.1f} MB |")
PY
