#!/usr/bin/env bash
# Scale benchmark of the performance issue: collide against a Box2D 2.4 peer and a simdjson
# parse floor on shape scenes of 10k, 100k and 1M shapes, a clustered 100k scene, and 1,000
# files of 500 shapes against one file of 500,000.
#
#   bash tests/bench/scale_bench.sh [--runs 5] [--big-runs 3] [--dir DIR] [--bin PATH]
#        [--no-install] [--perf] [--skip-1m]
#
# Steps: installs what is missing (Debian, as root: libbox2d-dev libsimdjson-dev
# nlohmann-json3-dev time); builds collide (Release, CLI only) and the peers (tests/bench/peers)
# in DIR (default ${TMPDIR:-/tmp}/collide-scale), unless --bin names a collide binary; generates
# the scenes with gen_scene.py (fixed seeds; kept in DIR and reused while gen_scene.py is
# unchanged); then, per scene, one untimed warm-up run of collide that counts its output, and
# RUNS timed runs (BIG-RUNS for 1M, the clustered scene and the 500k/1,000-file pair), each
# run alternating the programs, all under /usr/bin/time -v (wall, user + sys CPU, peak RSS):
#   collide check FILE... -f jsonl -v > /dev/null     (-v: two phase lines on stderr)
#   box2d_peer FILE...                                (tests/bench/peers/box2d_peer.cpp)
#   box2d_peer --sorted FILE...                       (the same, tree built in Z-curve order)
#   parse_floor FILE...                               (tests/bench/peers/parse_floor.cpp)
# (box2d_peer in file order takes ~30 s on 500k shapes, so it runs once there and on the
# 1,000 files.) Prints Markdown tables: medians, collide/Box2D and collide/parse floor, peak
# RSS against the file size, phase splits, the 100k->1M time ratio, the clustered scene
# against its output size, the 1,000 files against the single file, the issue's targets met
# or not; then one run each of `collide validate` and `collide check --no-points` on the
# 100k, clustered and 1M scenes. --perf adds a `perf record -g` profile of collide on the
# 100k scene. Raw figures stay in DIR/results.tsv. About 6 minutes on 2 quiet cores, plus
# ~2 minutes to generate the scenes the first time; more when the cores are shared.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/collide-scale}
RUNS=5 BIG_RUNS=3 BIN= INSTALL=1 PERF=0 SKIP_1M=0
START_S=$(date +%s)

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --big-runs) BIG_RUNS=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --no-install) INSTALL=0; shift ;;
    --perf) PERF=1; shift ;;
    --skip-1m) SKIP_1M=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "scale_bench.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

# --- what is needed ---------------------------------------------------------------------
need=(libbox2d-dev libsimdjson-dev nlohmann-json3-dev time cmake g++ pkg-config)
[ -n "$BIN" ] || need+=(libcli11-dev libspdlog-dev)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$INSTALL" = 0 ] || [ "$(id -u)" -ne 0 ]; then
    echo "scale_bench.sh: missing Debian packages: ${missing[*]} (run as root, or apt-get install them)" >&2; exit 2
  fi
  echo "== installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi

# --- builds -------------------------------------------------------------------------------
if [ -z "$BIN" ]; then
  echo "== building collide (Release, CLI only) in $DIR/build-collide"
  cmake -S "$ROOT" -B "$DIR/build-collide" -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_TESTS=OFF >"$DIR/build-collide.log" 2>&1 \
    && cmake --build "$DIR/build-collide" --target collide_cli -j"$(nproc)" >>"$DIR/build-collide.log" 2>&1 \
    || { tail -20 "$DIR/build-collide.log" >&2; exit 1; }
  BIN=$DIR/build-collide/cli/collide
fi
[ -x "$BIN" ] || { echo "scale_bench.sh: no collide binary at $BIN" >&2; exit 2; }
echo "== building the peers in $DIR/build-peers"
cmake -S "$HERE/peers" -B "$DIR/build-peers" -DCMAKE_BUILD_TYPE=Release >"$DIR/build-peers.log" 2>&1 \
  && cmake --build "$DIR/build-peers" -j"$(nproc)" >>"$DIR/build-peers.log" 2>&1 \
  || { tail -20 "$DIR/build-peers.log" >&2; exit 1; }
# Time private copies: others may rebuild while the benchmark runs.
cp "$BIN" "$DIR/collide.bin"
BUILT_FROM="$BIN ($(date -u -r "$BIN" '+%Y-%m-%d %H:%M UTC'))"
COMMIT=$(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-72 || echo "?")
DIRTY=$(git -C "$ROOT" status --porcelain -- lib cli 2>/dev/null | wc -l || echo "?")
COLLIDE=$DIR/collide.bin
B2=$DIR/build-peers/box2d_peer
FLOOR=$DIR/build-peers/parse_floor

# --- scenes -------------------------------------------------------------------------------
GEN="$HERE/gen_scene.py"
SD="$DIR/scenes"
mkdir -p "$SD/many"
# gen NAME [gen_scene.py options...]: $SD/NAME.json, unless it is there and newer than the generator.
gen() {
  local out="$SD/$1.json"; shift
  if [ ! -s "$out" ] || [ "$GEN" -nt "$out" ]; then
    echo "== generating $(basename "$out") ($*)"
    python3 "$GEN" -o "$out" --stats "$out.stats" "$@" 2>"$out.gen.log" || { cat "$out.gen.log" >&2; exit 1; }
  fi
}
gen s10k --shapes 10000 --seed 1
gen s100k --shapes 100000 --seed 1
gen c100k --shapes 100000 --seed 1 --cluster 0.3
gen s500k --shapes 500000 --seed 2
[ "$SKIP_1M" = 1 ] || gen s1m --shapes 1000000 --seed 1
if [ ! -e "$SD/many/.done" ] || [ "$GEN" -nt "$SD/many/.done" ]; then
  echo "== generating 1,000 files of 500 shapes (seeds 1001-2000)"
  # One interpreter for all of them: gen_scene.py's main() with sys.argv set per file.
  python3 - "$GEN" "$SD/many" <<'EOF'
import contextlib, io, runpy, sys
gen, out = sys.argv[1], sys.argv[2]
for i in range(1, 1001):
    sys.argv = [gen, "-o", "%s/f%04d.json" % (out, i), "--shapes", "500", "--seed", str(1000 + i)]
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            runpy.run_path(gen, run_name="__main__")
        except SystemExit as e:
            if e.code:
                raise
EOF
  touch "$SD/many/.done"
fi
MANY=("$SD"/many/f*.json)
[ "${#MANY[@]}" = 1000 ] || { echo "scale_bench.sh: expected 1000 files in $SD/many" >&2; exit 1; }

# --- runs ---------------------------------------------------------------------------------
RES="$DIR/results.tsv"   # scene prog run wall_s cpu_s rss_kib ph1 ph2 ph3 (phase ms, wall)
OUTS="$DIR/outputs.tsv"  # scene out_bytes out_lines collisions (collide's warm-up run)
SUMS="$DIR/peer-summaries.txt"
: >"$RES"; : >"$OUTS"; : >"$SUMS"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
DATE_START=$(date -u '+%Y-%m-%d %H:%M UTC')

# files_of SCENE: the file arguments of a scene key.
files_of() {
  case $1 in
    many) printf '%s\n' "${MANY[@]}" ;;
    *) echo "$SD/$1.json" ;;
  esac
}
# timed SCENE PROG RUN: one run under /usr/bin/time -v, a line in $RES.
timed() {
  local scene=$1 prog=$2 run=$3 tfile="$DIR/time.txt" efile="$DIR/stderr.txt" ofile="$DIR/stdout.txt" rc=0
  local -a files; mapfile -t files < <(files_of "$scene")
  case $prog in
    collide) /usr/bin/time -v -o "$tfile" "$COLLIDE" check "${files[@]}" -f jsonl -v >/dev/null 2>"$efile" || rc=$? ;;
    box2d) /usr/bin/time -v -o "$tfile" "$B2" "${files[@]}" >"$ofile" 2>"$efile" || rc=$? ;;
    b2sort) /usr/bin/time -v -o "$tfile" "$B2" --sorted "${files[@]}" >"$ofile" 2>"$efile" || rc=$? ;;
    floor) /usr/bin/time -v -o "$tfile" "$FLOOR" "${files[@]}" >"$ofile" 2>"$efile" || rc=$? ;;
  esac
  if [ "$rc" -ne 0 ]; then
    echo "scale_bench.sh: $prog exited $rc on $scene:" >&2; tail -5 "$efile" >&2; exit 1
  fi
  local wall cpu rss ph
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tfile")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$tfile")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tfile")
  case $prog in
    collide) ph=$(awk '/collide: parse/ { p = $3 } /collide: check and write/ { c = $5 } END { printf "%s\t%s\t-", p, c }' "$efile") ;;
    box2d|b2sort) ph=$(tr ' ' '\n' <"$ofile" | awk -F= '$1 == "parse_ms" { a = $2 } $1 == "tree_ms" { b = $2 } $1 == "query_ms" { c = $2 } END { printf "%s\t%s\t%s", a, b, c }') ;;
    floor) ph=$(tr ' ' '\n' <"$ofile" | awk -F= '$1 == "read_ms" { a = $2 } $1 == "parse_ms" { b = $2 } $1 == "visit_ms" { c = $2 } END { printf "%s\t%s\t%s", a, b, c }') ;;
  esac
  [ "$prog" = collide ] || { printf '%s %s run %s: ' "$scene" "$prog" "$run"; cat "$ofile"; } >>"$SUMS"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scene" "$prog" "$run" "$wall" "$cpu" "$rss" "$ph" >>"$RES"
  printf '   %-6s %-8s run %d: wall %7.2f s  cpu %7.2f s  peak RSS %6.0f MB\n' "$scene" "$prog" "$run" "$wall" "$cpu" "$(awk -v k="$rss" 'BEGIN { print k * 1.024 / 1000 }')"
}
# warmup SCENE: collide once, untimed, counting its output (bytes, lines, collisions).
warmup() {
  local -a files; mapfile -t files < <(files_of "$1")
  local counts
  counts=$("$COLLIDE" check "${files[@]}" -f jsonl -q | LC_ALL=C awk '{ b += length($0) + 1 }
      /"type": "summary"/ { if (match($0, /"collisions": [0-9]+/)) c += substr($0, RSTART + 14, RLENGTH - 14) }
      END { printf "%d\t%d\t%d", b, NR, c }')
  printf '%s\t%s\n' "$1" "$counts" >>"$OUTS"
}

SCENES=(s10k s100k c100k)
[ "$SKIP_1M" = 1 ] || SCENES+=(s1m)
SCENES+=(s500k many)
echo "== machine: $(nproc) cores, $(uname -srm), load average $LOAD_START, $DATE_START"
echo "== collide: $BUILT_FROM; HEAD $COMMIT; $DIRTY changed files in lib/ and cli/"
for scene in "${SCENES[@]}"; do
  case $scene in s10k|s100k) n=$RUNS ;; *) n=$BIG_RUNS ;; esac
  echo "== $scene: warm-up, then $n runs of collide, box2d_peer, box2d_peer --sorted, parse_floor in turn"
  warmup "$scene"
  for r in $(seq 1 "$n"); do
    for prog in collide box2d b2sort floor; do
      case $scene:$prog:$r in s500k:box2d:[2-9]|many:box2d:[2-9]) continue ;; esac
      timed "$scene" "$prog" "$r"
    done
  done
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report -------------------------------------------------------------------------------
# med SCENE PROG COLUMN (4 wall, 5 cpu, 6 rss, 7-9 phases): the median over the runs.
med() {
  awk -F'\t' -v s="$1" -v p="$2" -v c="$3" '$1 == s && $2 == p { print $c }' "$RES" | sort -g |
    awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
maxcol() { awk -F'\t' -v s="$1" -v p="$2" -v c="$3" '$1 == s && $2 == p && $c > m { m = $c } END { print m + 0 }' "$RES"; }
nruns() { awk -F'\t' -v s="$1" -v p="$2" '$1 == s && $2 == p' "$RES" | wc -l; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
# div FORMAT A B: A / B, with B of 0 (below /usr/bin/time's 10 ms step) taken as 0.005
div() { awk -v a="$2" -v b="$3" "BEGIN { printf \"$1\", a / (b > 0 ? b : 0.005) }"; }
bytes_of() {
  local -a files; mapfile -t files < <(files_of "$1")
  cat "${files[@]}" | wc -c
}
out_of() { awk -F'\t' -v s="$1" -v c="$2" '$1 == s { print $c }' "$OUTS"; }
peer() {  # peer SCENE PROG KEY: the value of KEY in the peer's first summary line for SCENE
  awk -v s="$1" -v p="$2" -v k="$3" '$1 == s && $2 == p { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$SUMS"
}
label() {
  case $1 in
    s10k) echo "10k shapes" ;; s100k) echo "100k shapes" ;; s1m) echo "1M shapes" ;;
    c100k) echo "100k clustered" ;; s500k) echo "500k shapes, one file" ;;
    many) echo "1,000 files × 500 shapes" ;;
  esac
}
# ratio A B PROG COLUMN: med(A) / med(B)
ratio() { div %.2f "$(med "$1" "$3" "$4")" "$(med "$2" "$3" "$4")"; }
verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { ok = (op == "<=") ? v <= t : v >= t; print ok ? "met" : "**not met**" }'; }

echo
echo "### Scenes and answers"
echo
echo "| scene | file(s) | collide collisions | collide output (jsonl) | Box2D overlapping pairs | Box2D candidates | concave polygons Box2D hulled / shapes it skipped |"
echo "|---|---|---|---|---|---|---|"
for s in "${SCENES[@]}"; do
  printf '| %s | %s MB | %s | %s MB | %s | %s | %s / %s |\n' "$(label "$s")" "$(calc %.1f "$(bytes_of "$s") / 1e6")" \
    "$(out_of "$s" 4)" "$(calc %.1f "$(out_of "$s" 2) / 1e6")" "$(peer "$s" box2d overlapping_pairs)" \
    "$(peer "$s" box2d candidates)" "$(peer "$s" box2d hulled_concave)" \
    "$(( $(peer "$s" box2d skipped_polygon) + $(peer "$s" box2d skipped_line) + $(peer "$s" box2d skipped_ray) + $(peer "$s" box2d skipped_other) ))"
done

echo
echo "### Time: medians, wall s / CPU s (CPU = user + sys)"
echo
echo "| scene | runs | collide | Box2D peer | Box2D, Z-order | parse floor | collide / Box2D (wall; CPU) | collide / Box2D Z-order (CPU) | collide / floor (wall; CPU) |"
echo "|---|---|---|---|---|---|---|---|---|"
for s in "${SCENES[@]}"; do
  cw=$(med "$s" collide 4) cc=$(med "$s" collide 5) bw=$(med "$s" box2d 4) bc=$(med "$s" box2d 5)
  zw=$(med "$s" b2sort 4) zc=$(med "$s" b2sort 5) fw=$(med "$s" floor 4) fc=$(med "$s" floor 5)
  printf '| %s | %s | %.2f / %.2f | %.2f / %.2f (%s run%s) | %.2f / %.2f | %.3f / %.3f | %s; %s | %s | %s; %s |\n' "$(label "$s")" "$(nruns "$s" collide)" \
    "$cw" "$cc" "$bw" "$bc" "$(nruns "$s" box2d)" "$([ "$(nruns "$s" box2d)" = 1 ] || echo s)" "$zw" "$zc" "$fw" "$fc" \
    "$(div %.2f "$cw" "$bw")" "$(div %.2f "$cc" "$bc")" "$(div %.2f "$cc" "$zc")" "$(div %.1f "$cw" "$fw")" "$(div %.1f "$cc" "$fc")"
done
echo
echo "/usr/bin/time counts CPU in 10 ms steps: a CPU figure of 0.00 is under 10 ms, and ratios over it use 5 ms."

echo
echo "### Memory: largest peak RSS of the runs (MB = 10^6 bytes; /usr/bin/time reports KiB)"
echo
echo "| scene | file(s) | collide | collide RSS / file size | Box2D peer | parse floor |"
echo "|---|---|---|---|---|---|"
for s in "${SCENES[@]}"; do
  fb=$(bytes_of "$s")
  cr=$(maxcol "$s" collide 6) br=$(maxcol "$s" box2d 6) fr=$(maxcol "$s" floor 6)
  printf '| %s | %.1f MB | %.1f MB | %.2f | %.1f MB | %.1f MB |\n' "$(label "$s")" "$(calc %.3f "$fb / 1e6")" \
    "$(calc %.3f "$cr * 1024 / 1e6")" "$(calc %.4f "$cr * 1024 / $fb")" "$(calc %.3f "$br * 1024 / 1e6")" "$(calc %.3f "$fr * 1024 / 1e6")"
done

echo
echo "### Phases: medians, wall ms"
echo
echo "| scene | collide parse | collide check+write | Box2D parse (DOM, shapes) | Box2D build tree | Box2D query+narrow | Z-order build tree | Z-order query+narrow | floor read | floor parse | floor visit |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for s in "${SCENES[@]}"; do
  printf '| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n' "$(label "$s")" \
    "$(med "$s" collide 7)" "$(med "$s" collide 8)" "$(med "$s" box2d 7)" "$(med "$s" box2d 8)" "$(med "$s" box2d 9)" \
    "$(med "$s" b2sort 8)" "$(med "$s" b2sort 9)" "$(med "$s" floor 7)" "$(med "$s" floor 8)" "$(med "$s" floor 9)"
done

echo
echo "### The issue's targets"
echo
echo "Two verdicts: on the wall-time medians (end to end, what a user waits for: collide reads and"
echo "tests on two threads, the peers on one) and on the CPU medians (user + sys of all threads:"
echo "the work done, and steadier on a shared machine)."
echo
echo "| target | measured: wall; CPU | verdict: wall | verdict: CPU |"
echo "|---|---|---|---|"
if [ "$SKIP_1M" = 0 ]; then
  printf '| 1M shapes end to end >= 20x faster than the Box2D peer | Box2D / collide = %s; %s (Box2D in Z-order: %s; %s) | %s | %s |\n' \
    "$(div %.2f "$(med s1m box2d 4)" "$(med s1m collide 4)")" "$(div %.2f "$(med s1m box2d 5)" "$(med s1m collide 5)")" \
    "$(div %.2f "$(med s1m b2sort 4)" "$(med s1m collide 4)")" "$(div %.2f "$(med s1m b2sort 5)" "$(med s1m collide 5)")" \
    "$(verdict "$(div %.3f "$(med s1m box2d 4)" "$(med s1m collide 4)")" 20 ">=")" \
    "$(verdict "$(div %.3f "$(med s1m box2d 5)" "$(med s1m collide 5)")" 20 ">=")"
  r1=$(div %.2f "$(med s1m collide 4)" "$(med s1m floor 4)") r2=$(div %.2f "$(med s1m collide 5)" "$(med s1m floor 5)")
  printf '| 1M shapes within 2x the parse floor | collide / floor = %s; %s | %s | %s |\n' \
    "$r1" "$r2" "$(verdict "$r1" 2 "<=")" "$(verdict "$r2" 2 "<=")"
  r1=$(ratio s1m s100k collide 4) r2=$(ratio s1m s100k collide 5)
  printf '| 10x the shapes (100k -> 1M) costs <= 11x the time | %s; %s (Box2D %s; %s, Z-order %s; %s, floor %s; %s) | %s | %s |\n' \
    "$r1" "$r2" "$(ratio s1m s100k box2d 4)" "$(ratio s1m s100k box2d 5)" \
    "$(ratio s1m s100k b2sort 4)" "$(ratio s1m s100k b2sort 5)" "$(ratio s1m s100k floor 4)" "$(ratio s1m s100k floor 5)" \
    "$(verdict "$r1" 11 "<=")" "$(verdict "$r2" 11 "<=")"
  r=$(calc %.3f "$(maxcol s1m collide 6) * 1024 / $(bytes_of s1m)")
  printf '| 1M shapes: peak RSS <= 3x the scene file | %.1f MB for a %.1f MB file: %sx | %s | (same) |\n' "$(calc %.2f "$(maxcol s1m collide 6) * 1024 / 1e6")" \
    "$(calc %.1f "$(bytes_of s1m) / 1e6")" "$r" "$(verdict "$r" 3 "<=")"
fi
r1=$(ratio s100k s10k collide 4) r2=$(ratio s100k s10k collide 5)
printf '| (for reference: 10k -> 100k <= 11x; the 10k CPU times are a few 10 ms steps) | %s; %s | %s | %s |\n' "$r1" "$r2" "$(verdict "$r1" 11 "<=")" "$(verdict "$r2" 11 "<=")"
# Clustered: CPU time against the uniform 100k scene, over the output each writes.
ob_c=$(out_of c100k 2) ob_u=$(out_of s100k 2) col_c=$(out_of c100k 4) col_u=$(out_of s100k 4)
tc=$(med c100k collide 5) tu=$(med s100k collide 5)
per=$(calc %.3f "($tc / $ob_c) / ($tu / $ob_u)")
perw=$(calc %.3f "($(med c100k collide 4) / $ob_c) / ($(med s100k collide 4) / $ob_u)")
printf '| clustered 100k bounded by its output size | %.1fx the CPU of the uniform 100k scene for %.1fx its output (%.0f vs %.0f MB; %s vs %s collisions); per output byte %sx (wall), %sx (CPU) the uniform scene'"'"'s; check+write %.1f vs %.1f µs a collision | %s | %s |\n' \
  "$(calc %.3f "$tc / $tu")" "$(calc %.3f "$ob_c / $ob_u")" "$(calc %.1f "$ob_c / 1e6")" "$(calc %.1f "$ob_u / 1e6")" "$col_c" "$col_u" "$perw" "$per" \
  "$(calc %.3f "$(med c100k collide 8) * 1000 / $col_c")" "$(calc %.3f "$(med s100k collide 8) * 1000 / $col_u")" \
  "$(verdict "$perw" 1.25 "<=")" "$(verdict "$per" 1.25 "<=") (taken as: per output byte within 1.25x of the uniform scene)"
r1=$(ratio many s500k collide 4) r2=$(ratio many s500k collide 5)
printf '| 1,000 files × 500 shapes in one call <= 2x one file of 500,000 | %s; %s (Box2D %s; %s, Z-order %s; %s, floor %s; %s) | %s | %s |\n' \
  "$r1" "$r2" "$(ratio many s500k box2d 4)" "$(ratio many s500k box2d 5)" \
  "$(ratio many s500k b2sort 4)" "$(ratio many s500k b2sort 5)" "$(ratio many s500k floor 4)" "$(ratio many s500k floor 5)" "$(verdict "$r1" 2 "<=")" "$(verdict "$r2" 2 "<=")"

# One run each of collide variants, to split its time: validate reads and checks the scene
# but tests no pair; --no-points skips the intersection points of the report.
echo
echo "### collide variants (one run each; CPU s, peak RSS)"
echo
echo "| scene | check -f jsonl (median above) | validate (parse only) | check --no-points | points' share of check+write |"
echo "|---|---|---|---|---|"
BK=(s100k c100k)
[ "$SKIP_1M" = 1 ] || BK+=(s1m)
for s in "${BK[@]}"; do
  f="$SD/$s.json"
  /usr/bin/time -v -o "$DIR/time.txt" "$COLLIDE" validate "$f" >/dev/null 2>&1
  v_cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { t = $2 } END { print u + t }' "$DIR/time.txt")
  v_rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$DIR/time.txt")
  /usr/bin/time -v -o "$DIR/time.txt" "$COLLIDE" check "$f" -f jsonl -v --no-points >/dev/null 2>"$DIR/stderr.txt"
  n_cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { t = $2 } END { print u + t }' "$DIR/time.txt")
  n_rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$DIR/time.txt")
  n_cw=$(awk '/collide: check and write/ { print $5 }' "$DIR/stderr.txt")
  printf '| %s | %.2f s, %.0f MB | %.2f s, %.0f MB | %.2f s, %.0f MB | %s%% (check+write %.0f ms with points, %.0f without) |\n' "$(label "$s")" \
    "$(med "$s" collide 5)" "$(calc %.1f "$(maxcol "$s" collide 6) * 1024 / 1e6")" "$v_cpu" "$(calc %.1f "$v_rss * 1024 / 1e6")" \
    "$n_cpu" "$(calc %.1f "$n_rss * 1024 / 1e6")" "$(calc %.0f "100 * (1 - $n_cw / $(med "$s" collide 8))")" "$(med "$s" collide 8)" "$n_cw"
done

if [ "$PERF" = 1 ]; then
  echo
  echo "### perf record -g: collide check s100k.json -f jsonl (self time, top symbols)"
  echo
  if command -v perf >/dev/null 2>&1; then
    perf record -q -g -o "$DIR/perf.data" "$COLLIDE" check "$SD/s100k.json" -f jsonl >/dev/null 2>"$DIR/perf.log" || true
    echo '```'
    perf report -i "$DIR/perf.data" --no-children --sort symbol --percent-limit 1 --stdio 2>/dev/null |
      grep -E '^ +[0-9.]+%' | cut -c1-150 | sed 's/ *$//' | head -30
    echo '```'
  else
    echo "(perf is not installed: Debian package linux-perf)"
  fi
fi

echo
echo "== load average: $LOAD_START at the start, $LOAD_END at the end; $(( $(date +%s) - START_S )) s in all; raw figures in $RES"
