#!/usr/bin/env bash
# Issue 26, item 4: n moves against n small obstacles scattered over a square field (side
# 10 sqrt(n)), each move starting beside an obstacle and crossing the whole field, so it is
# blocked near its start. The cost of a move must follow the distance to its first hit, not
# its path's length: n -> 4n about 4x (the path, and the obstacles along it, grow by 2x too).
#
#   bash tests/bench/moves_early_bench.sh [--runs N] [BIN...]     # default build/cli/collide
set -euo pipefail
runs=3
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/cli/collide)
dir=${TMPDIR:-/tmp}/collide-moves-early
mkdir -p "$dir"
for n in 20000 80000; do
  python3 - "$n" > "$dir/n$n.json" <<'PY'
import json, random, sys
n = int(sys.argv[1])
rng = random.Random(5)
side = 10 * int(n ** 0.5)
shapes = [{"id": f"o{i}", "type": "rect", "min": [x, y], "max": [x + 2, y + 2]}
          for i, (x, y) in enumerate((rng.uniform(0, side), rng.uniform(0, side)) for _ in range(n))]
moves = [{"id": f"m{i}", "against": "*", "from": [s["min"][0] - 1, s["min"][1] + 1],
          "to": [s["min"][0] + side, s["min"][1] + 1]} for i, s in enumerate(shapes)]
print(json.dumps({"shapes": shapes, "moves": moves, "pairs": []}))
PY
done
for i in $(seq "$runs"); do
  for n in 20000 80000; do
    for b in "${bins[@]}"; do
      /usr/bin/time -f "$b n=$n %e s wall %U s user %M KB" "$b" check -f jsonl --threads 1 "$dir/n$n.json" > /dev/null
    done
  done
done
