#!/usr/bin/env bash
# Broad-phase hostile benchmark (issue 12, items 7, 9, 10): each scene of
# hostile_scenes.py at N and 4N shapes, one run each, with wall and CPU time and the 4N/N
# ratio of the wall times (near-linear: about 4; quadratic: 16).
#
#   bash tests/bench/broadphase_hostile.sh [--n 25000] [--kinds "outlier lines ..."] [--bin PATH]
#
# Kinds: outlier outlier-cluster outlier-rect outlier-segment outlier-tiny lines grids (see
# hostile_scenes.py). Scenes are written to ${TMPDIR:-/tmp}/collide-bench; the report goes
# to /dev/null through stdout (-f jsonl).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${COLLIDE:-$ROOT/build/cli/collide}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/collide-bench}
N=25000
KINDS="outlier outlier-cluster outlier-rect outlier-segment outlier-tiny lines grids"
while [ $# -gt 0 ]; do
  case $1 in
    --n) N=$2; shift 2 ;;
    --kinds) KINDS=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
mkdir -p "$DIR"

run() {  # scene -> "wall cpu collisions"
  local t
  t=$( { /usr/bin/time -f "%e %U %S" "$BIN" check -f jsonl "$1" | tail -n 1 > "$DIR/summary.json"; } 2>&1 | tail -n 1)
  local coll
  coll=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["collisions"])' "$DIR/summary.json")
  echo "$t" | awk -v c="$coll" '{printf "%s %.2f %s", $1, $2 + $3, c}'
}

printf '%-16s %9s %9s %9s %11s %9s %9s %9s %11s %7s\n' kind N wall_s cpu_s collisions 4N wall_s cpu_s collisions ratio
for kind in $KINDS; do
  for n in "$N" $((4 * N)); do
    f="$DIR/hostile-$kind-$n.json"
    [ -s "$f" ] && [ "$f" -nt "$HERE/hostile_scenes.py" ] || python3 "$HERE/hostile_scenes.py" "$kind" "$n" -o "$f"
  done
  read -r w1 c1 k1 <<<"$(run "$DIR/hostile-$kind-$N.json")"
  read -r w4 c4 k4 <<<"$(run "$DIR/hostile-$kind-$((4 * N)).json")"
  printf '%-16s %9s %9s %9s %11s %9s %9s %9s %11s %7s\n' "$kind" "$N" "$w1" "$c1" "$k1" $((4 * N)) "$w4" "$c4" "$k4" \
    "$(awk -v a="$w1" -v b="$w4" 'BEGIN { printf "%.1f", (a > 0 ? b / a : 0) }')"
done
