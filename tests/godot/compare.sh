#!/bin/sh
# Import Godot scenes with collide and with the independent reference importer, compare the
# two scenes by meaning, then compare `collide check SCENE` with `collide check` of the
# reference scene. Prints one table row per scene.
#   tests/godot/compare.sh [COLLIDE] SCENE...
# COLLIDE defaults to build/cli/collide. A folder stands for every .tscn under it. Work files
# go to $TMPDIR/collide-godot. When `collide import` fails (a collide without the Godot
# reader says the file is not a map), the row says so and the next scene is compared.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../maps/compare_row.sh"
collide=build/cli/collide
if [ -x "$1" ] && [ ! -d "$1" ]; then collide=$1; shift; fi
ref="python3 $here/reference_import.py"
work=${TMPDIR:-/tmp}/collide-godot
mkdir -p "$work"
printf '| scene | collide import | reference | scenes | check reports |\n|---|---|---|---|---|\n'
for arg in "$@"; do
    if [ -d "$arg" ]; then find "$arg" -type f -name '*.tscn' | sort; else printf '%s\n' "$arg"; fi
done | while read -r scene; do
    compare_row "$scene" -e 'error' -e 'not a'
done
