#!/usr/bin/env bash
# Issue 26, item 6: one probe and n walls, `--near 1e7 --pairs probe:w` (and a clearance rule
# of 1e7 on probe:w): the answer is n records, so n -> 4n must cost about 4x, not 16x (every
# bound grown by D/2 used to make all n^2/2 wall pairs candidates before the spec filtered them).
# Prints wall, user CPU and peak RSS per binary, n and query.
#
#   bash tests/bench/near_probe_bench.sh [--runs N] [BIN...]     # default build/cli/collide
set -euo pipefail
runs=3
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/cli/collide)
dir=${TMPDIR:-/tmp}/collide-near-probe
mkdir -p "$dir"
for n in 20000 80000; do
  python3 - "$n" > "$dir/n$n.json" <<'PY'
import json, sys
n = int(sys.argv[1])
walls = [{"id": f"w{i}", "type": "rect", "min": [(i % 400) * 10, (i // 400) * 10], "max": [(i % 400) * 10 + 4, (i // 400) * 10 + 4],
          "groups": ["w"]} for i in range(n)]
print(json.dumps({"shapes": [{"id": "probe", "type": "circle", "center": [-50, -50], "radius": 3}] + walls}))
PY
  python3 - "$dir/n$n.json" > "$dir/rule$n.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["pairs"] = []
s["rules"] = [{"name": "probe clear", "pairs": "probe:w", "expect": "none", "clearance": 1e7}]
print(json.dumps(s))
PY
done
for i in $(seq "$runs"); do
  for n in 20000 80000; do
    for b in "${bins[@]}"; do
      /usr/bin/time -f "$b n=$n near    %e s wall %U s user %M KB" "$b" check -f jsonl --near 1e7 --pairs probe:w "$dir/n$n.json" > /dev/null
      /usr/bin/time -f "$b n=$n rule    %e s wall %U s user %M KB" "$b" check -f jsonl "$dir/rule$n.json" > /dev/null || true
    done
  done
done
