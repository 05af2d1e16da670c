#!/bin/sh
# Import every Tiled map under a folder with collide and with the independent reference
# importer, compare the two scenes shape by shape, then compare `collide check MAP` with
# `collide check` of the reference scene. Prints one table row per map.
#   tests/maps/compare.sh [COLLIDE] FOLDER...
# COLLIDE defaults to build/cli/collide. Work files go to $TMPDIR/collide-maps.
here=$(cd "$(dirname "$0")" && pwd)
collide=build/cli/collide
if [ -x "$1" ] && [ ! -d "$1" ]; then collide=$1; shift; fi
ref="python3 $here/reference_import.py"
work=${TMPDIR:-/tmp}/collide-maps
mkdir -p "$work"
status=0
printf '| map | collide import | reference | scenes | check reports |\n|---|---|---|---|---|\n'
find "$@" -type f \( -name '*.tmx' -o -name '*.tmj' -o -name '*.json' \) | sort | while read -r map; do
    case $map in
        *.json) grep -q '"type" *: *"map"' "$map" || continue ;;
    esac
    key=$(printf '%s' "$map" | tr '/ ' '__')
    $collide import "$map" >"$work/$key.collide.json" 2>"$work/$key.collide.err"; crc=$?
    $ref "$map" >"$work/$key.ref.json" 2>"$work/$key.ref.err"; rrc=$?
    cmsg=$(grep -m1 'error' "$work/$key.collide.err" | cut -c1-150)
    rmsg=$(grep -m1 -e 'error' -e 'skipped:' "$work/$key.ref.err" | cut -c1-150)
    scenes=-; reports=-
    if [ $crc -eq 0 ] && [ $rrc -eq 0 ]; then
        if $ref --compare "$work/$key.collide.json" "$work/$key.ref.json" >"$work/$key.diff"; then
            scenes=ok
        else
            scenes="DIFF ($(wc -l <"$work/$key.diff") lines, $work/$key.diff)"
        fi
        $collide check -q "$map" >"$work/$key.check-map.json" 2>/dev/null
        $collide check -q "$work/$key.ref.json" >"$work/$key.check-ref.json" 2>/dev/null
        if python3 - "$work/$key.check-map.json" "$work/$key.check-ref.json" <<'PY'
import json, sys
def load(p):
    d = json.load(open(p))
    for s in d["scenes"]:
        s.pop("file", None)
    return d
sys.exit(0 if load(sys.argv[1]) == load(sys.argv[2]) else 1)
PY
        then reports=same; else reports=DIFFERENT; fi
    fi
    printf '| %s | %s | %s | %s | %s |\n' "$map" "exit $crc${cmsg:+: $cmsg}" "exit $rrc${rmsg:+: $rmsg}" "$scenes" "$reports"
done
