#!/usr/bin/env bash
# Grid benchmark: time and peak memory of `collide check` on a big tile grid with many moves
# and shapes, and whether memory is "about the grid's bits plus the shapes".
#
#   bash tests/bench/grid_bench.sh [--cols 4096] [--rows 4096] [--moves 100000]
#        [--shapes 100000] [--seed 1] [--runs 3] [--grid-format rows|cells]
#        [--no-breakdown] [--bin PATH] [--dir DIR]
#
# Steps: generates the scene with gen_scene.py (kept in DIR, default
# ${TMPDIR:-/tmp}/collide-bench, and reused while the generator is unchanged); runs
# `collide check SCENE -f jsonl > /dev/null` RUNS times under /usr/bin/time -v; runs it once
# more with -v for collide's own phase times (parse / check / write); then, unless
# --no-breakdown, once each on the grid alone, the grid with the moves only and the grid
# with the shapes only, to show which part costs what, and on 2,000 moves of each body
# (point, circle, rect) and kind (short path, long path, destination). Prints wall time, CPU time, peak RSS,
# the scene file size, the grid's bit size (cols*rows/8 bytes) and an estimate of the
# shapes' and moves' in-memory size.
#
# The report goes to stdout redirected to /dev/null, NOT to `-o /dev/null`: collide writes
# -o PATH through a temporary file renamed onto PATH, which would replace /dev/null itself
# with a regular file when run as root.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${COLLIDE:-$ROOT/build-rel/cli/collide}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/collide-bench}
COLS=4096 ROWS=4096 MOVES=100000 SHAPES=100000 SEED=1 RUNS=3 BREAKDOWN=1 GFMT=rows MK=2000

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --cols) COLS=$2; shift 2 ;;
    --rows) ROWS=$2; shift 2 ;;
    --moves) MOVES=$2; shift 2 ;;
    --shapes) SHAPES=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --grid-format) GFMT=$2; shift 2 ;;
    --no-breakdown) BREAKDOWN=0; shift ;;
    --bin) BIN=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "grid_bench.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done

if [ ! -x /usr/bin/time ]; then
  echo "grid_bench.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2; exit 2
fi
if [ ! -x "$BIN" ]; then
  echo "== building $BIN (Release)"
  cmake -S "$ROOT" -B "$ROOT/build-rel" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$ROOT/build-rel" -j"$(nproc)" >/dev/null
fi
mkdir -p "$DIR"
# Time a private copy: others may rebuild build-rel while the benchmark runs.
cp "$BIN" "$DIR/collide.bin"
BUILT_FROM="$BIN ($(date -u -r "$BIN" '+%Y-%m-%d %H:%M UTC'))"
COMMIT=$(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-72 || echo "?")
DIRTY=$(git -C "$ROOT" status --porcelain -- lib cli 2>/dev/null | wc -l || echo "?")
BIN="$DIR/collide.bin"

GEN="$HERE/gen_scene.py"
# Generate $1 (a scene file) with the remaining arguments, unless it is there and newer
# than the generator.
gen() {
  local out=$1; shift
  if [ ! -s "$out" ] || [ "$GEN" -nt "$out" ] || [ ! -s "$out.stats" ]; then
    echo "== generating $(basename "$out")"
    /usr/bin/time -f "   (generated in %e s, peak RSS %M KB)" \
      python3 "$GEN" -o "$out" --stats "$out.stats" --seed "$SEED" "$@" 2>"$out.gen.log" \
      || { cat "$out.gen.log" >&2; exit 1; }
    tail -1 "$out.gen.log"
  fi
}

# A value from the stats JSON of gen_scene.py: stat FILE python-expression-on-s
stat() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1.stats"; }

# run LABEL FILE [collide options...]: one timed run; sets WALL USER SYS RSS_KB, and with -v
# PHASES and CHECK_MS; SUMMARY is the report's last line.
run() {
  local label=$1 file=$2; shift 2
  local tfile="$DIR/time.$label" efile="$DIR/stderr.$label" rc=0
  /usr/bin/time -v -o "$tfile" "$BIN" check "$file" -f jsonl "$@" >"$DIR/out.$label" 2>"$efile" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "grid_bench.sh: collide exited $rc on $file:" >&2; tail -5 "$efile" >&2; exit 1
  fi
  WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tfile")
  USER=$(awk -F': ' '/User time/ { print $2 }' "$tfile")
  SYS=$(awk -F': ' '/System time/ { print $2 }' "$tfile")
  RSS_KB=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tfile")
  # collide -v prints "parse N ms" and either "check N ms, write N ms" (older builds) or
  # "check and write N ms" (the check streams its report).
  PHASES=$(awk '/collide: parse/ { p = $3 }
                /collide: check and write/ { cw = $5 }
                /collide: check [0-9]/ { c = $3; w = $6 }
                END { if (cw != "") printf "parse %.2f s, check+write %.2f s", p / 1000, cw / 1000
                      else if (c != "") printf "parse %.2f s, check %.2f s, write %.2f s", p / 1000, c / 1000, w / 1000 }' "$efile")
  CHECK_MS=$(awk '/collide: check and write/ { print $5 } /collide: check [0-9]/ { print $3 }' "$efile")
  SUMMARY=$(tail -n 1 "$DIR/out.$label")
  rm -f "$DIR/out.$label"
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

case $GFMT in rows) SUF= ;; cells) SUF=-cells ;; *) echo "grid_bench.sh: --grid-format rows|cells" >&2; exit 2 ;; esac
SCENE="$DIR/grid-${COLS}x${ROWS}${SUF}-m${MOVES}-s${SHAPES}-seed${SEED}.json"
gen "$SCENE" --grid "${COLS}x${ROWS}" --grid-format "$GFMT" --moves "$MOVES" --shapes "$SHAPES"

# Sizes of the in-memory records, from the library's own headers when a compiler is at hand.
SIZES="scene_shape=96 move=112 vec2=16 string=32 vector=24"
if command -v c++ >/dev/null 2>&1 && c++ -std=c++17 -I"$ROOT/lib/include" "$HERE/sizeof_scene.cpp" -o "$DIR/sizeof_scene" 2>/dev/null; then
  SIZES=$("$DIR/sizeof_scene")
fi
sz() { echo "$SIZES" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print $2 }'; }
SHAPE_REC=$(sz scene_shape); MOVE_REC=$(sz move); VEC2=$(sz vec2)

FILE_BYTES=$(stat "$SCENE" 's["bytes"]')
GRID_BITS=$(( (COLS * ROWS + 7) / 8 ))
VERTS=$(stat "$SCENE" 's.get("polygon_vertices", 0)')
NPOLY=$(stat "$SCENE" 's["types"].get("polygon", 0) + s["types"].get("polyline", 0)')
# Per shape: the SceneShape record, plus one heap block for its groups vector holding one
# short string ("things": 32 bytes + ~16 of malloc overhead); ids fit the small-string buffer.
# Polygons and polylines add a vertex array (16 bytes a vertex + ~16 of overhead).
SHAPES_EST=$(( SHAPES * (SHAPE_REC + 48) + VERTS * VEC2 + NPOLY * 16 ))
MOVES_EST=$(( MOVES * MOVE_REC ))

echo "== machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== collide: $BUILT_FROM; HEAD $COMMIT; $DIRTY changed files in lib/ and cli/"
echo "== scene: $SCENE"
echo "   grid ${COLS}x${ROWS} ($(stat "$SCENE" 's["grid"]["solid_share"]') solid), $MOVES moves, $SHAPES shapes ($(stat "$SCENE" '", ".join("%s %d" % kv for kv in sorted(s["types"].items()))'))"
echo
echo "== $RUNS runs: collide check SCENE -f jsonl > /dev/null"
walls=() rsss=()
for i in $(seq 1 "$RUNS"); do
  run "r$i" "$SCENE"
  printf "   run %d: wall %7.2f s   cpu %6.2f s user + %5.2f s sys   peak RSS %s\n" "$i" "$WALL" "$USER" "$SYS" "$(mb $((RSS_KB * 1000)))"
  walls+=("$WALL"); rsss+=("$RSS_KB")
done
echo "   $SUMMARY"
run verbose "$SCENE" -v
printf "   with -v: wall %7.2f s   cpu %6.2f s user + %5.2f s sys   peak RSS %s   phases: %s\n" "$WALL" "$USER" "$SYS" "$(mb $((RSS_KB * 1000)))" "$PHASES"
MIN_WALL=$(printf '%s\n' "${walls[@]}" | sort -g | head -1)
MED_WALL=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
MAX_RSS=$(printf '%s\n' "${rsss[@]}" | sort -g | tail -1)

echo
echo "== memory"
printf "   %-56s %s\n" "scene file" "$(mb "$FILE_BYTES")"
printf "   %-56s %s\n" "grid bits (${COLS}*${ROWS}/8)" "$(mb "$GRID_BITS")"
printf "   %-56s %s\n" "shapes, estimated (${SHAPE_REC} B record + groups + vertices)" "$(mb "$SHAPES_EST")"
printf "   %-56s %s\n" "moves, estimated (${MOVE_REC} B a move)" "$(mb "$MOVES_EST")"
printf "   %-56s %s\n" "grid bits + shapes + moves" "$(mb $((GRID_BITS + SHAPES_EST + MOVES_EST)))"
printf "   %-56s %s\n" "peak RSS (largest of the runs)" "$(mb $((MAX_RSS * 1000)))"
printf "   %-56s %s\n" "peak RSS - (bits + shapes + moves)" "$(mb $((MAX_RSS * 1000 - GRID_BITS - SHAPES_EST - MOVES_EST)))"
printf "   wall time: min %.2f s, median %.2f s over %d runs\n" "$MIN_WALL" "$MED_WALL" "$RUNS"

if [ "$BREAKDOWN" = 1 ]; then
  echo
  echo "== breakdown (one run each, with -v; same grid, same seed)"
  G0="$DIR/grid-${COLS}x${ROWS}${SUF}-m0-s0-seed${SEED}.json"
  GM="$DIR/grid-${COLS}x${ROWS}${SUF}-m${MOVES}-s0-seed${SEED}.json"
  GS="$DIR/grid-${COLS}x${ROWS}${SUF}-m0-s${SHAPES}-seed${SEED}.json"
  gen "$G0" --grid "${COLS}x${ROWS}" --grid-format "$GFMT" --moves 0 --shapes 0
  gen "$GM" --grid "${COLS}x${ROWS}" --grid-format "$GFMT" --moves "$MOVES" --shapes 0
  gen "$GS" --grid "${COLS}x${ROWS}" --grid-format "$GFMT" --moves 0 --shapes "$SHAPES"
  G0CPU=
  for f in "$G0:grid only" "$GM:grid + $MOVES moves" "$GS:grid + $SHAPES shapes"; do
    run part "${f%%:*}" -v -q
    [ -n "$G0CPU" ] || G0CPU=$(awk -v u="$USER" -v s="$SYS" 'BEGIN { print u + s }')
    printf "   %-24s file %9s  wall %7.2f s  cpu %6.2f s  peak RSS %9s  %s\n" "${f#*:}" \
      "$(mb "$(stat "${f%%:*}" 's["bytes"]')")" "$WALL" "$(awk -v u="$USER" -v s="$SYS" 'BEGIN { print u + s }')" \
      "$(mb $((RSS_KB * 1000)))" "$PHASES"
  done
  echo
  echo "== moves by body and kind ($MK moves each on the same grid): wall time of the -v check"
  echo "   phase per move, and CPU per move = (CPU of the run - CPU of the grid-only run) / $MK"
  for body in point circle rect; do
    for kind in "short-path:0:1" "long-path:1:1" "destination:0.3:0"; do
      IFS=: read -r kname lf pf <<<"$kind"
      F="$DIR/grid-${COLS}x${ROWS}${SUF}-$body-$kname-m$MK-seed${SEED}.json"
      gen "$F" --grid "${COLS}x${ROWS}" --grid-format "$GFMT" --moves "$MK" --shapes 0 \
        --bodies "$body" --long-fraction "$lf" --path-fraction "$pf" >/dev/null
      run part "$F" -v -q
      per=$(awk -v ms="$CHECK_MS" -v n="$MK" 'BEGIN { printf "%.1f", ms * 1000 / n }')
      blocked=$(echo "$SUMMARY" | python3 -c "import json,sys; print(json.load(sys.stdin)['blocked'])")
      cpu=$(awk -v u="$USER" -v s="$SYS" 'BEGIN { print u + s }')
      cpuper=$(awk -v c="$cpu" -v b="$G0CPU" -v n="$MK" 'BEGIN { v = (c - b) * 1e6 / n; printf "%.0f", v < 0 ? 0 : v }')
      printf "   %-7s %-12s wall %8s us a move   cpu %6s us a move   (%s of %s blocked; run cpu %.2f s)\n" \
        "$body" "$kname" "$per" "$cpuper" "$blocked" "$MK" "$cpu"
    done
  done
fi
echo
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (wall times above ~2x the CPU times mean the 2 cores were shared)"
