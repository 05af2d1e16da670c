#!/usr/bin/env bash
# Selection benchmark: time and peak memory of `collide check` when a scene has many pair
# specs or rules, selectors that select nothing, or a rule with millions of violations, at
# n and 4n (issue 12, item 12). Each case should cost about 4x (not 16x) from n to 4n.
#
#   bash tests/bench/selection_bench.sh [--n 20000] [--bin PATH] [--dir DIR]
#
# Cases (N = --n; the 4n run uses 4N):
#   specs    N points (ids s0.., group "things"), N specs "sK:things"
#   rules    N points, N rules "sK:things" expect none
#   nothing  N points, N specs "ghostK:spookK" (selectors that select nothing)
#   violations  C circles that all overlap, pairs "none:none" and one rule "*:*" expect none,
#            so the rule has C(C-1)/2 violations: C = 2500 (3.1M) and 5000 (12.5M)
# Scenes are generated into DIR (default ${TMPDIR:-/tmp}/collide-selbench). The report goes
# to stdout redirected to /dev/null (see grid_bench.sh on -o /dev/null).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${COLLIDE:-$ROOT/build/cli/collide}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/collide-selbench}
N=20000

while [ $# -gt 0 ]; do
  case $1 in
    --n) N=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "selection_bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ ! -x /usr/bin/time ]; then
  echo "selection_bench.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2; exit 2
fi
mkdir -p "$DIR"

gen() {  # gen CASE SIZE FILE
  python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
case, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
scene = {}
if case == "violations":
    scene["shapes"] = [{"id": f"c{i}", "type": "circle", "center": [i * 1e-3, 0], "radius": 10} for i in range(n)]
    scene["pairs"] = ["none:none"]
    scene["rules"] = [{"name": "apart", "pairs": "*:*", "expect": "none"}]
else:
    # points 2 apart in a row: nothing collides, so only the selection costs
    scene["shapes"] = [{"id": f"s{i}", "type": "point", "at": [2 * i, 0], "groups": ["things"]} for i in range(n)]
    if case == "specs":
        scene["pairs"] = [f"s{i}:things" for i in range(n)]
    elif case == "rules":
        scene["pairs"] = ["none:none"]
        scene["rules"] = [{"name": f"r{i}", "pairs": f"s{i}:things", "expect": "none"} for i in range(n)]
    elif case == "nothing":
        scene["pairs"] = [f"ghost{i}:spook{i}" for i in range(n)]
with open(path, "w") as f:
    json.dump(scene, f)
EOF
}

run() {  # run LABEL FILE
  local out
  out=$( { /usr/bin/time -f '%e %M' "$BIN" check -q -f jsonl --no-points "$2" > /dev/null; } 2>&1 | tail -n 1 ) || true
  printf '%-28s %8s s %8.1f MB\n' "$1" "${out% *}" "$(echo "${out#* }" | awk '{print $1 / 1024}')"
}

echo "binary: $BIN"
for c in specs rules nothing; do
  for m in 1 4; do
    size=$((N * m))
    f="$DIR/$c-$size.json"
    [ -f "$f" ] || gen "$c" "$size" "$f"
    run "$c n=$size" "$f"
  done
done
for size in 2500 5000; do
  f="$DIR/violations-$size.json"
  [ -f "$f" ] || gen violations "$size" "$f"
  run "violations $((size * (size - 1) / 2))" "$f"
done
