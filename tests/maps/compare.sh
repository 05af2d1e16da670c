#!/bin/sh
# Import every Tiled map under a folder with collide and with the independent reference
# importer, compare the two scenes shape by shape, then compare `collide check MAP` with
# `collide check` of the reference scene. Prints one table row per map.
#   tests/maps/compare.sh [COLLIDE] FOLDER...
# COLLIDE defaults to build/cli/collide. Work files go to $TMPDIR/collide-maps.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/compare_row.sh"
collide=build/cli/collide
if [ -x "$1" ] && [ ! -d "$1" ]; then collide=$1; shift; fi
ref="python3 $here/reference_import.py"
work=${TMPDIR:-/tmp}/collide-maps
mkdir -p "$work"
printf '| map | collide import | reference | scenes | check reports |\n|---|---|---|---|---|\n'
find "$@" -type f \( -name '*.tmx' -o -name '*.tmj' -o -name '*.json' \) | sort | while read -r map; do
    case $map in
        *.json) grep -q '"type" *: *"map"' "$map" || continue ;;
    esac
    compare_row "$map" -e 'error'
done
