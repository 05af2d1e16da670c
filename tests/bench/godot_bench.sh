#!/usr/bin/env bash
# Godot scene benchmark (issue 30): `collide check level.tscn` and `collide import level.tscn` on
# a generated project (a 4096x4096 TileMapLayer, ~30% of its cells set, and 100,000 bodies),
# against godot_floor (read, one tokenizing pass, base64 decode of the tile data, a walk over its
# cells, the numbers of every position). Target: check within 2x of the floor, the ratio taken
# in one run.
#
#   bash tests/bench/godot_bench.sh [--bin build/cli/collide] [--floor build/godot_floor]
#        [--runs 5] [--scene FILE.tscn] [--size 4096] [--bodies 100000] [--seed 1]
#
# Builds nothing. The floor is built with the benchmarks:
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_BENCH=ON
#   cmake --build build -j2 --target collide_cli godot_floor
# Generates the project with gen_godot_scene.py (default ${TMPDIR:-/tmp}/collide-godotbench/
# godot-SIZE-BODIES-sSEED/, reused while its level.tscn is newer than the generator). Then one
# untimed run of each (page cache; the floor's phases; collide's -v phases and summary), then
# RUNS rounds alternating floor, `collide check level.tscn > /dev/null`, `collide import
# level.tscn > /dev/null` under /usr/bin/time -f '%e %U %S %M'. Prints a Markdown table of the
# medians (wall, user, sys, peak RSS) and the ratios check/floor and import/floor. For finer
# alternating timings: python3 tests/bench/ab_runs.py --map FILE.tscn "FLOOR MAP" "BIN check MAP".
#
# The reports go to stdout redirected to /dev/null, NOT to `-o /dev/null`: collide writes
# -o PATH through a temporary file renamed onto PATH, which would replace /dev/null itself
# with a regular file when run as root.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$ROOT/build/cli/collide FLOOR=$ROOT/build/godot_floor
RUNS=5 SIZE=4096 BODIES=100000 SEED=1 SCENE=

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin) BIN=$2; shift 2 ;;
    --floor) FLOOR=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --scene) SCENE=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --bodies) BODIES=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "godot_bench.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done

[ -x /usr/bin/time ] || { echo "godot_bench.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2; exit 2; }
for b in "$BIN" "$FLOOR"; do
  [ -x "$b" ] || { echo "godot_bench.sh: $b is not built (see the header of $0)" >&2; exit 2; }
done

DIR=${TMPDIR:-/tmp}/collide-godotbench
mkdir -p "$DIR"
GEN=$HERE/gen_godot_scene.py
if [ -z "$SCENE" ]; then
  PROJECT=$DIR/godot-$SIZE-$BODIES-s$SEED
  SCENE=$PROJECT/level.tscn
  if [ ! -s "$SCENE" ] || [ "$GEN" -nt "$SCENE" ]; then
    echo "== generating $PROJECT"
    mkdir -p "$PROJECT"
    python3 "$GEN" --size "$SIZE" --bodies "$BODIES" --seed "$SEED" --out "$PROJECT" 2>"$SCENE.stats"
  fi
fi
[ -s "$SCENE" ] || { echo "godot_bench.sh: no scene $SCENE" >&2; exit 2; }

echo "== scene $SCENE ($(stat -c %s "$SCENE") bytes)"
[ -s "$SCENE.stats" ] && echo "   generator: $(cat "$SCENE.stats")"
echo "== collide $BIN, built $(date -u -r "$BIN" '+%Y-%m-%d %H:%M UTC')"
echo "   source: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-80 || echo '?')"
echo "== load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# Untimed: warm the page cache, show the phases, and stop early if collide cannot read the scene.
echo "== floor phases (untimed run): $("$FLOOR" "$SCENE")"
rc=0
"$BIN" check -v "$SCENE" > "$DIR/check.out" 2> "$DIR/check.err" || rc=$?
if [ "$rc" -gt 1 ]; then  # 1 is a failed rule or expectation: the report was still written
  echo "godot_bench.sh: collide check failed (exit $rc):" >&2; grep -v ' is read as ' "$DIR/check.err" | tail -5 >&2; exit 1
fi
echo "== collide check -v (untimed run): $(grep -E '^collide: (parse|check and write) [0-9.]+ ms' "$DIR/check.err" | sed 's/^collide: //' | paste -sd ';' -)"
echo "   report: $(stat -c %s "$DIR/check.out") bytes; summary: $(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["scenes"][0]["summary"]
print(", ".join(f"{k} {v}" for k, v in s.items() if not isinstance(v, (dict, list))))' "$DIR/check.out" 2>/dev/null || echo '?')"
"$BIN" import "$SCENE" > "$DIR/import.out"
echo "   import: $(stat -c %s "$DIR/import.out") bytes of scene text"

# name command... : time one run, appending "name wall user sys rss_kb" to the results
: > "$DIR/times.tsv"
timed() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$DIR/time.one" "$@" > /dev/null
  echo "$name $(cat "$DIR/time.one")" >> "$DIR/times.tsv"
}
for ((i = 1; i <= RUNS; i++)); do
  timed floor "$FLOOR" "$SCENE"
  timed check "$BIN" check "$SCENE"
  timed import "$BIN" import "$SCENE"
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
print(f"target (issue 30): check / floor wall <= 2x: {'met' if med['check'][0] <= 2 * f[0] else 'NOT met'}")
EOF
