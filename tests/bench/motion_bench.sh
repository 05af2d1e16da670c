#!/usr/bin/env bash
# Issue 16's benchmark: 100,000 moves against 1,000,000 shapes, and --near on the 1M scene,
# each against the plain check of the same 1M shapes (the issue's bar: within 2x).
#
#   bash tests/bench/motion_bench.sh [--runs 3] [--near D] [--dir DIR] [--bin PATH]
#
# Builds collide (Release, CLI only) in DIR (default ${TMPDIR:-/tmp}/collide-motion) unless
# --bin names a binary; generates s1m.json (gen_scene.py --shapes 1000000 --seed 1, the scale
# benchmark's scene) and s1m-moves.json (the same shapes plus 100,000 moves against "things",
# add_moves.py --seed 1); then RUNS rounds, each running in turn (all -f jsonl > /dev/null,
# under /usr/bin/time):
#   plain:  collide check s1m.json
#   moves:  collide check -q --pairs none:none s1m-moves.json   (the 100,000 moves alone:
#           reading, the index over the 1M shapes, the sweeps; the spec selects no pair)
#   both:   collide check s1m-moves.json           (the pairs, then the 100,000 moves)
#   near:   collide check --near D s1m.json        (D default 2: about 0.6 near pairs a shape)
# and prints the medians of wall and CPU time, the ratios to plain, and the records written.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${TMPDIR:-/tmp}/collide-motion
RUNS=3 BIN= NEAR=2
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --near) NEAR=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "motion_bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$DIR"
command -v /usr/bin/time >/dev/null || { echo "motion_bench.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
if [ -z "$BIN" ]; then
  echo "== building collide (Release, CLI only) in $DIR/build"
  cmake -S "$ROOT" -B "$DIR/build" -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_TESTS=OFF >"$DIR/build.log" 2>&1 \
    && cmake --build "$DIR/build" --target collide_cli -j"$(nproc)" >>"$DIR/build.log" 2>&1 \
    || { tail -20 "$DIR/build.log" >&2; exit 1; }
  BIN=$DIR/build/cli/collide
fi
cp "$BIN" "$DIR/collide.bin"  # a private copy: others may rebuild meanwhile
C=$DIR/collide.bin
S=$DIR/s1m.json M=$DIR/s1m-moves.json
if [ ! -s "$S" ] || [ "$HERE/gen_scene.py" -nt "$S" ]; then
  echo "== generating $S"
  python3 "$HERE/gen_scene.py" -o "$S" --shapes 1000000 --seed 1 2>/dev/null
fi
if [ ! -s "$M" ] || [ "$HERE/add_moves.py" -nt "$M" ] || [ "$S" -nt "$M" ]; then
  echo "== generating $M"
  python3 "$HERE/add_moves.py" "$S" "$M" --moves 100000 --seed 1
fi

RES=$DIR/results.tsv
: >"$RES"
run() {  # run NAME ARGS...: one timed run; appends NAME wall cpu
  local name=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$DIR/time.txt" "$C" check -f jsonl "$@" >/dev/null
  read -r wall user sys <"$DIR/time.txt"
  echo "$name $wall $(echo "$user + $sys" | bc)" >>"$RES"
}
echo "== warm-up: records written by type"
counts() { grep -o '"type": "[a-z]*"' | sort | uniq -c | awk '{ printf "%s %s  ", $1, $3 }'; echo; }
echo "plain: $("$C" check -f jsonl "$S" | counts)"
echo "moves: $("$C" check -q -f jsonl --pairs none:none "$M" | counts)(blocked: $("$C" check -q -f jsonl --pairs none:none "$M" | grep -c '"allowed": false'))"
echo "both:  $("$C" check -f jsonl "$M" | counts)"
echo "near:  $("$C" check -f jsonl --near "$NEAR" "$S" | counts)"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$RUNS"); do
  echo "== round $r of $RUNS"
  run plain "$S"
  run moves -q --pairs none:none "$M"
  run both "$M"
  run near --near "$NEAR" "$S"
done
python3 - "$RES" "$NEAR" "$LOAD" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {}
names = ("plain", "moves", "both", "near")
for name in names:
    w = [float(r[1]) for r in rows if r[0] == name]
    c = [float(r[2]) for r in rows if r[0] == name]
    med[name] = (statistics.median(w), statistics.median(c), len(w))
print("\n| run | wall (s) | CPU (s) | wall / plain | CPU / plain |")
print("|---|---|---|---|---|")
label = {"plain": "check s1m.json (1M shapes)", "moves": "100,000 moves against the 1M shapes, alone",
         "both": "the pairs of the 1M shapes, then the 100,000 moves", "near": "check --near %s s1m.json" % sys.argv[2]}
for name in names:
    w, c, n = med[name]
    print("| %s | %.2f | %.2f | %.2fx | %.2fx |" % (label[name], w, c, w / med["plain"][0], c / med["plain"][1]))
print("\nmedians of %d rounds; load %s at the start, %s at the end" % (med["plain"][2], sys.argv[3], sys.argv[4]))
PY
