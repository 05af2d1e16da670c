#!/usr/bin/env bash
# Output paths of two collide binaries on one scene, runs alternating (issue 12 items 1-2:
# checked writes, JSON held or cut back on a failure must not make the check slower).
#
#   bash tests/bench/output_bench.sh OLD_BIN NEW_BIN SCENE [RUNS]
#
# Per run and binary, under /usr/bin/time: `check SCENE -f jsonl > /dev/null` (what
# scale_bench.sh times), `-f jsonl > FILE`, `-f json > FILE` (a regular file: written
# straight) and `-f json | cat > /dev/null` (a pipe: held, beyond 8 MiB in a temporary file).
# Prints the medians of wall and CPU (user + sys) seconds and NEW/OLD ratios. RUNS defaults
# to 5. Output files go to ${TMPDIR:-/tmp}.
set -euo pipefail
OLD=$1 NEW=$2 SCENE=$3 RUNS=${4:-5}
OUT=${TMPDIR:-/tmp}/collide-output-bench.$$
trap 'rm -f "$OUT".*' EXIT
declare -A T
run() {  # run BIN LABEL CASE
  local bin=$1 label=$2 case=$3 tm=(/usr/bin/time -o "$OUT.time" -f '%e %U %S')
  case $case in
    jsonl-null) "${tm[@]}" "$bin" check "$SCENE" -f jsonl > /dev/null 2>/dev/null ;;
    jsonl-file) "${tm[@]}" "$bin" check "$SCENE" -f jsonl > "$OUT.jsonl" 2>/dev/null ;;
    json-file) "${tm[@]}" "$bin" check "$SCENE" -f json > "$OUT.json" 2>/dev/null ;;
    json-pipe) "${tm[@]}" bash -c '"$0" check "$1" -f json 2>/dev/null | cat > /dev/null' "$bin" "$SCENE" ;;
  esac
  T[$label,$case]+="$(cat "$OUT.time");"
}
median() { tr ';' '\n' | sed '/^$/d' | awk -v c="$1" '{ print (c == 1 ? $1 : $2 + $3) }' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
CASES="jsonl-null jsonl-file json-file json-pipe"
for ((r = 1; r <= RUNS; r++)); do
  for c in $CASES; do run "$OLD" old "$c"; run "$NEW" new "$c"; done
done
echo "| case | old wall s | new wall s | new/old | old CPU s | new CPU s | new/old |"
echo "|---|---|---|---|---|---|---|"
for c in $CASES; do
  ow=$(echo "${T[old,$c]}" | median 1) nw=$(echo "${T[new,$c]}" | median 1)
  oc=$(echo "${T[old,$c]}" | median 2) nc=$(echo "${T[new,$c]}" | median 2)
  printf '| %s | %s | %s | %.2f | %s | %s | %.2f |\n' "$c" "$ow" "$nw" "$(echo "$nw / $ow" | bc -l)" "$oc" "$nc" "$(echo "$nc / $oc" | bc -l)"
done
