#!/usr/bin/env bash
# Issue 26, item 8: n/100 moves against one comb polygon of n vertices (n = 100,000 and
# 400,000): each move short and local (up into the comb from below), so only the edges near
# its path matter. With the polygon's edge index a move costs about log n plus those edges;
# reading every edge, n a move (16x from n to 4n).
#
#   bash tests/bench/sweep_polygon_bench.sh [--runs N] [BIN...]     # default build/cli/collide
set -euo pipefail
runs=3
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/cli/collide)
dir=${TMPDIR:-/tmp}/collide-sweep-polygon
mkdir -p "$dir"
for n in 100000 400000; do
  python3 - "$n" > "$dir/n$n.json" <<'PY'
import json, random, sys
n = int(sys.argv[1])
teeth = (n - 2) // 4
pts = []
for k in range(teeth):  # a tooth 2 wide and 10 tall every 4 units, on a spine y in [-5, 0]
    x = 4 * k
    pts += [[x, 0], [x, 10], [x + 2, 10], [x + 2, 0]]
pts += [[4 * teeth - 2, -5], [0, -5]]
rng = random.Random(8)
moves = []
for i in range(n // 100):
    x = rng.uniform(0, 4 * teeth)
    moves.append({"id": f"m{i}", "against": "comb", "from": [x, 30], "to": [x + rng.uniform(-3, 3), 5],
                  "body": {"type": "circle", "radius": 0.5}})
print(json.dumps({"shapes": [{"id": "comb", "type": "polygon", "points": pts}], "moves": moves, "pairs": []}))
PY
done
for i in $(seq "$runs"); do
  for n in 100000 400000; do
    for b in "${bins[@]}"; do
      /usr/bin/time -f "$b n=$n %e s wall %U s user %M KB" "$b" check -f jsonl --threads 1 "$dir/n$n.json" > /dev/null
    done
  done
done
