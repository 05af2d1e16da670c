# Sourced by map_bench.sh and godot_bench.sh: one untimed run of each program (the page cache,
# the floor's phases, collide's -v phases and summary, the import's size), then RUNS rounds
# alternating floor, `collide check INPUT > /dev/null` and `collide import INPUT > /dev/null`
# under /usr/bin/time, and a Markdown table of the medians with the ratios to the floor.
#
#   floor_rounds INPUT KIND PROG TARGET     # KIND: "map" or "scene"; PROG names the script in
#                                           # messages; TARGET: the issue whose 2x is checked
# Uses BIN, FLOOR, DIR, RUNS and ROOT from the script.
floor_rounds() {
local INPUT=$1 KIND=$2 PROG=$3 TARGET=$4
echo "== $KIND $INPUT ($(stat -c %s "$INPUT") bytes)"
[ -s "$INPUT.stats" ] && echo "   generator: $(cat "$INPUT.stats")"
echo "== collide $BIN, built $(date -u -r "$BIN" '+%Y-%m-%d %H:%M UTC')"
echo "   source: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-80 || echo '?')"
echo "== load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# Untimed: warm the page cache, show the phases, and stop early if collide cannot read the $KIND.
echo "== floor phases (untimed run): $("$FLOOR" "$INPUT")"
rc=0
"$BIN" check -v "$INPUT" > "$DIR/check.out" 2> "$DIR/check.err" || rc=$?
if [ "$rc" -gt 1 ]; then  # 1 is a failed rule or expectation: the report was still written
  echo "$PROG: collide check failed (exit $rc):" >&2; grep -v ' is read as ' "$DIR/check.err" | tail -5 >&2; exit 1
fi
echo "== collide check -v (untimed run): $(grep -E '^collide: (parse|check and write) [0-9.]+ ms' "$DIR/check.err" | sed 's/^collide: //' | paste -sd ';' -)"
echo "   report: $(stat -c %s "$DIR/check.out") bytes; summary: $(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["scenes"][0]["summary"]
print(", ".join(f"{k} {v}" for k, v in s.items() if not isinstance(v, (dict, list))))' "$DIR/check.out" 2>/dev/null || echo '?')"
"$BIN" import "$INPUT" > "$DIR/import.out"
echo "   import: $(stat -c %s "$DIR/import.out") bytes of scene text"

# name command... : time one run, appending "name wall user sys rss_kb" to the results
: > "$DIR/times.tsv"
timed() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$DIR/time.one" "$@" > /dev/null
  echo "$name $(cat "$DIR/time.one")" >> "$DIR/times.tsv"
}
for ((i = 1; i <= RUNS; i++)); do
  timed floor "$FLOOR" "$INPUT"
  timed check "$BIN" check "$INPUT"
  timed import "$BIN" import "$INPUT"
  echo "   round $i/$RUNS: $(tail -3 "$DIR/times.tsv" | awk '{printf "%s %s s  ", $1, $2}')"
done
echo "== load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$DIR/times.tsv" "$TARGET" <<'EOF'
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
print(f"target ({sys.argv[2]}): check / floor wall <= 2x: {'met' if med['check'][0] <= 2 * f[0] else 'NOT met'}")
EOF
}
