#!/usr/bin/env bash
# Coordinate magnitude benchmark (issue 12 item 8): the same scene near 0, translated by
# +1e9, and scaled by 2^990 (about 1e298: coordinates up to ~1e302), at n and 4n shapes, for
# circles only and for the default mix; prints the times of `collide check -f jsonl` and
# their ratios to the scene near 0 and to n.
#
#   bash tests/bench/magnitude_bench.sh [--n 100000] [--runs 3] [--bin PATH] [--dir DIR]
#
# The scenes come from gen_scene.py (seed 1) and are translated or scaled by a few lines of
# Python (every point and vertex; radii too when scaling). A translation by 1e9 rounds the
# 2-decimal coordinates to the doubles near 1e9, so its counts may differ by a few from the
# scene near 0; scaling by a power of two is exact, so the scaled scene has the same
# collisions. Each time is the median of RUNS runs, programs alternating; collisions counted
# once. Builds collide (Release) in DIR unless --bin names a binary.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${TMPDIR:-/tmp}/collide-magnitude
N=100000 RUNS=3 BIN=
while [ $# -gt 0 ]; do
  case $1 in
    --n) N=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "magnitude_bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$DIR"
if [ -z "$BIN" ]; then
  cmake -S "$ROOT" -B "$DIR/build" -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_TESTS=OFF >/dev/null
  cmake --build "$DIR/build" -j2 --target collide_cli >/dev/null
  BIN=$DIR/build/cli/collide
fi

# transform SRC DST translate|scale VALUE
transform() {
  python3 - "$@" <<'PY'
import json, math, sys
src, dst, mode, val = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
move = (lambda v: v + val) if mode == "translate" else (lambda v: math.ldexp(v, int(val)))
doc = json.load(open(src))
for s in doc["shapes"]:
    for k in ("center", "at", "min", "max", "a", "b", "origin"):
        if k in s:
            s[k] = [move(s[k][0]), move(s[k][1])]
    if "points" in s:
        s["points"] = [[move(x), move(y)] for x, y in s["points"]]
    if mode == "scale":
        if "radius" in s:
            s["radius"] = math.ldexp(s["radius"], int(val))
        if "direction" in s:
            s["direction"] = [math.ldexp(c, int(val)) for c in s["direction"]]
json.dump(doc, open(dst, "w"))
PY
}

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
seconds() {  # wall seconds of one run
  local t0 t1
  t0=$(date +%s.%N)
  "$BIN" check -f jsonl "$1" -o "$DIR/out.jsonl"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

declare -A T C
mixes=("circle=1" "circle=4,rect=3,point=1,segment=1,polygon=1")
names=(circles mixed)
variants=(near0 t1e9 s2e990)
for m in 0 1; do
  for n in "$N" $((4 * N)); do
    base=$DIR/${names[$m]}-$n
    [ -f "$base-near0.json" ] || python3 "$HERE/gen_scene.py" -o "$base-near0.json" --shapes "$n" --mix "${mixes[$m]}" --seed 1 2>/dev/null
    [ -f "$base-t1e9.json" ] || transform "$base-near0.json" "$base-t1e9.json" translate 1e9
    [ -f "$base-s2e990.json" ] || transform "$base-near0.json" "$base-s2e990.json" scale 990
    for v in "${variants[@]}"; do
      "$BIN" check -f jsonl "$base-$v.json" -o "$DIR/out.jsonl"
      C[${names[$m]},$n,$v]=$(wc -l < "$DIR/out.jsonl")
    done
    declare -A runs=()
    for ((r = 0; r < RUNS; ++r)); do
      for v in "${variants[@]}"; do runs[$v]+="$(seconds "$base-$v.json") "; done
    done
    for v in "${variants[@]}"; do T[${names[$m]},$n,$v]=$(tr ' ' '\n' <<<"${runs[$v]}" | grep . | median); done
    unset runs
  done
done

printf '| scene | n | near 0 (s) | +1e9 (s) | x2^990 (s) | +1e9 / near 0 | x2^990 / near 0 | collisions (0, 1e9, 2^990) |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---|\n'
for name in "${names[@]}"; do
  for n in "$N" $((4 * N)); do
    a=${T[$name,$n,near0]} b=${T[$name,$n,t1e9]} c=${T[$name,$n,s2e990]}
    printf '| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %s, %s, %s |\n' "$name" "$n" "$a" "$b" "$c" \
      "$(echo "$b / $a" | bc -l)" "$(echo "$c / $a" | bc -l)" \
      "${C[$name,$n,near0]}" "${C[$name,$n,t1e9]}" "${C[$name,$n,s2e990]}"
  done
done
printf '\n| scene | 4n / n near 0 | 4n / n +1e9 | 4n / n x2^990 |\n|---|---:|---:|---:|\n'
for name in "${names[@]}"; do
  printf '| %s |' "$name"
  for v in "${variants[@]}"; do printf ' %.2f |' "$(echo "${T[$name,$((4 * N)),$v]} / ${T[$name,$N,$v]}" | bc -l)"; done
  printf '\n'
done
