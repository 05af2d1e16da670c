#!/usr/bin/env bash
# CTest `godot-oracle`: the independent reference importer (reference_import.py, written from
# SPEC §1.6 alone) against `collide import` and `collide check`, in CI, without the fetched demo
# scenes: on the oracle's own self-test scenes (test_reference.py keeps each in a folder of its
# own) and on samples/godot. Fails when a scene's exit status, scene or check report differ.
#   bash tests/godot/check_against_oracle.sh BUILD/cli/collide
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== the oracle's self-test (its scenes kept in $work/scenes)"
GODOT_REF_KEEP="$work/scenes" python3 "$here/test_reference.py"
echo "== collide against the oracle"
table=$(cd "$root" && TMPDIR="$work" bash "$here/compare.sh" "$bin" "$work"/scenes/*/level.tscn samples/godot/levels/level.tscn)
printf '%s\n' "$table"
# A row: | scene | exit A... | exit B... | scenes | reports |. Both must exit alike; when both
# read the scene, the scenes are `ok` and the reports `same`.
bad=$(printf '%s\n' "$table" | awk -F' [|] ' 'NR > 2 {
    a = $2; b = $3; sub(/:.*/, "", a); sub(/:.*/, "", b)
    if (a != b || (a == "exit 0" && ($4 != "ok" || $5 !~ /^same/))) print }')
rows=$(printf '%s\n' "$table" | awk 'NR > 2' | wc -l)
if [ -n "$bad" ]; then
    echo "== differences:"; printf '%s\n' "$bad"; exit 1
fi
[ "$rows" -ge 15 ] || { echo "== only $rows scenes compared"; exit 1; }
echo "== $rows scenes: collide and the oracle agree"
