#!/bin/sh
# Import Godot scenes with collide and with the independent reference importer, compare the
# two scenes by meaning, then compare `collide check SCENE` with `collide check` of the
# reference scene. Prints one table row per scene.
#   tests/godot/compare.sh [COLLIDE] SCENE...
# COLLIDE defaults to build/cli/collide. A folder stands for every .tscn under it. Work files
# go to $TMPDIR/collide-godot. When `collide import` fails (a collide without the Godot
# reader says the file is not a map), the row says so and the next scene is compared.
here=$(cd "$(dirname "$0")" && pwd)
collide=build/cli/collide
if [ -x "$1" ] && [ ! -d "$1" ]; then collide=$1; shift; fi
ref="python3 $here/reference_import.py"
work=${TMPDIR:-/tmp}/collide-godot
mkdir -p "$work"
printf '| scene | collide import | reference | scenes | check reports |\n|---|---|---|---|---|\n'
for arg in "$@"; do
    if [ -d "$arg" ]; then find "$arg" -type f -name '*.tscn' | sort; else printf '%s\n' "$arg"; fi
done | while read -r scene; do
    key=$(printf '%s' "$scene" | tr '/ ' '__')
    $collide import "$scene" >"$work/$key.collide.json" 2>"$work/$key.collide.err"; crc=$?
    $ref "$scene" >"$work/$key.ref.json" 2>"$work/$key.ref.err"; rrc=$?
    cmsg=$(grep -m1 -e 'error' -e 'not a' "$work/$key.collide.err" | cut -c1-150)
    rmsg=$(grep -m1 -e 'error' -e 'skipped:' "$work/$key.ref.err" | cut -c1-150)
    scenes=-; reports=-
    if [ $crc -eq 0 ] && [ $rrc -eq 0 ]; then
        if $ref --compare "$work/$key.collide.json" "$work/$key.ref.json" >"$work/$key.diff"; then
            scenes=ok
        else
            scenes="DIFF ($(wc -l <"$work/$key.diff") lines, $work/$key.diff)"
        fi
        $collide check -q "$scene" >"$work/$key.check-scene.json" 2>/dev/null
        $collide check -q "$work/$key.ref.json" >"$work/$key.check-ref.json" 2>/dev/null
        if python3 - "$work/$key.check-scene.json" "$work/$key.check-ref.json" <<'PY'
import json, sys
def load(p):
    try:
        d = json.load(open(p))
    except ValueError:
        return None
    for s in d.get("scenes", []):
        s.pop("file", None)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if a is not None and a == b else 1)
PY
        then reports=same; else reports=DIFFERENT; fi
    fi
    printf '| %s | %s | %s | %s | %s |\n' "$scene" "exit $crc${cmsg:+: $cmsg}" "exit $rrc${rmsg:+: $rmsg}" "$scenes" "$reports"
done
