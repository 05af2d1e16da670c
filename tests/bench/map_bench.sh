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

echo "== map $MAP ($(stat -c %s "$MAP") bytes)"
[ -s "$MAP.stats" ] && echo "   generator: $(cat "$MAP.stats")"
echo "== collide $BIN, built $(date -u -r "$BIN" '+%Y-%m-%d %H:%M UTC')"
echo "   source: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-80 || echo '?')"
echo "== load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# Untimed: warm the page cache, show the phases, and stop early if collide cannot read the map.
echo "== floor phases (untimed run): $("$FLOOR" "$MAP")"
rc=0
"$BIN" check -v "$MAP" > "$DIR/check.out" 2> "$DIR/check.err" || rc=$?
if [ "$rc" -gt 1 ]; then  # 1 is a failed rule or expectation: the report was still written
  echo "map_bench.sh: collide check failed (exit $rc):" >&2; grep -v ' is read as ' "$DIR/check.err" | tail -5 >&2; exit 1
fi
echo "== collide check -v (untimed run): $(grep -E '^collide: (parse|check and write) [0-9.]+ ms' "$DIR/check.err" | sed 's/^collide: //' | paste -sd ';' -)"
echo "   report: $(stat -c %s "$DIR/check.out") bytes; summary: $(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["scenes"][0]["summary"]
print(", ".join(f"{k} {v}" for k, v in s.items() if not isinstance(v, (dict, list))))' "$DIR/check.out" 2>/dev/null || echo '?')"
"$BIN" import "$MAP" > "$DIR/import.out"
echo "   import: $(stat -c %s "$DIR/import.out") bytes of scene text"

# name command... : time one run, appending "name wall user sys rss_kb" to the results
: > "$DIR/times.tsv"
timed() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$DIR/time.one" "$@" > /dev/null
  echo "$name $(cat "$DIR/time.one")" >> "$DIR/times.tsv"
}
for ((i = 1; i <= RUNS; i++)); do
  timed floor "$FLOOR" "$MAP"
  timed check "$BIN" check "$MAP"
  timed import "$BIN" import "$MAP"
  echo "   round $i/$RUNS: $(tail -3 "$DIR/times.tsv" | awk '{printf "%s %s s  ", $1, $2}')"
done
echo "== load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$DIR/times.tsv" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
runs = {}
for name, wall, user, sys_, rss in rows:
    runs.setdefault(name, []).append((float(wall), float(user), float(sys_), int(rss)))
med = {n: [statistics.median(r[i] for r in v) for i in range(4)] for n, v in runs.items()}
print()
print("| program | runs | wall s (median; all) | user s | sys s | peak RSS MB |")
print("|---|---|---|---|---|---|")
for n in ("floor", "check", "import"):
    w, u, s, m = med[n]
    allw = " ".join(f"{r[0]:.2f}" for r in runs[n])
    print(f"| {n} | {len(runs[n])} | {w:.2f} ({allw}) | {u:.2f} | {s:.2f} | {m / 1024:.1f} |")
print()
f = med["floor"]
for n in ("check", "import"):
    w, u, s, m = med[n]
    cpu, fcpu = u + s, f[1] + f[2]
    print(f"{n} / floor: wall {w / f[0]:.2f}x, user+sys {cpu / max(fcpu, 0.005):.2f}x, "
          f"peak RSS {m / f[3]:.2f}x")
print(f"target (issue 14): check / floor wall < 2x: {'met' if med['check'][0] < 2 * f[0] else 'NOT met'}")
EOF
