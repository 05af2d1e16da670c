#!/usr/bin/env bash
# Issue 26, item 7: `--near 1e9 --pairs '*:g'` with k^2 small circles over a k x k grid that
# has one solid cell; n = k^2 shapes, 4n at 2k. Prints one line per binary and k: wall, user
# CPU, peak RSS and the near pairs found. The nearest solid cell must not cost O(cells) a shape.
#
#   bash tests/bench/near_grid_bench.sh [--runs N] [BIN...]     # default build/cli/collide
set -euo pipefail
runs=3
if [ "${1:-}" = --runs ]; then runs=$2; shift 2; fi
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/cli/collide)
dir=${TMPDIR:-/tmp}/collide-near-grid
mkdir -p "$dir"
for k in 128 256; do
  python3 - "$k" > "$dir/k$k.json" <<'PY'
import json, sys
k = int(sys.argv[1])
rows = ["." * k for _ in range(k)]
rows[k // 3] = "." * (k // 5) + "#" + "." * (k - k // 5 - 1)
shapes = [{"id": f"c{i}", "type": "circle", "center": [10 * (i % k) + 5, 10 * (i // k) + 5], "radius": 2}
          for i in range(k * k)]
print(json.dumps({"shapes": shapes, "grids": [{"id": "g", "tile_size": 10, "rows": rows, "outside": "empty"}]}))
PY
done
for i in $(seq "$runs"); do
  for k in 128 256; do
    for b in "${bins[@]}"; do
      /usr/bin/time -f "$b k=$k n=$((k * k)) %e s wall %U s user %M KB" \
        "$b" check -f jsonl --near 1e9 --pairs '*:g' "$dir/k$k.json" > "$dir/out.jsonl"
      echo "  near pairs: $(grep -c '"type": "near"' "$dir/out.jsonl")"
    done
  done
done
