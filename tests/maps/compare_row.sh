# Sourced by tests/maps/compare.sh and tests/godot/compare.sh: one table row comparing
# `$collide import FILE` with the reference importer `$ref FILE` (work files in $work).
#   compare_row FILE GREP_ARGS...
# GREP_ARGS pick the line of collide's stderr the row quotes on a failure. The row says each
# side's exit status (and first error), whether the two scenes mean the same (`ok`, or the
# diff's size and file), and whether `collide check` gives the same report for FILE and for the
# reference scene (`same`).
compare_row() {
    file=$1; shift
    key=$(printf '%s' "$file" | tr '/ ' '__')
    $collide import "$file" >"$work/$key.collide.json" 2>"$work/$key.collide.err"; crc=$?
    $ref "$file" >"$work/$key.ref.json" 2>"$work/$key.ref.err"; rrc=$?
    cmsg=$(grep -m1 "$@" "$work/$key.collide.err" | cut -c1-150)
    rmsg=$(grep -m1 -e 'error' -e 'skipped:' "$work/$key.ref.err" | cut -c1-150)
    scenes=-; reports=-
    if [ $crc -eq 0 ] && [ $rrc -eq 0 ]; then
        if $ref --compare "$work/$key.collide.json" "$work/$key.ref.json" >"$work/$key.diff"; then
            scenes=ok
        else
            scenes="DIFF ($(wc -l <"$work/$key.diff") lines, $work/$key.diff)"
        fi
        $collide check -q "$file" >"$work/$key.check-file.json" 2>/dev/null
        $collide check -q "$work/$key.ref.json" >"$work/$key.check-ref.json" 2>/dev/null
        if python3 - "$work/$key.check-file.json" "$work/$key.check-ref.json" <<'PY'
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
    printf '| %s | %s | %s | %s | %s |\n' "$file" "exit $crc${cmsg:+: $cmsg}" "exit $rrc${rmsg:+: $rmsg}" "$scenes" "$reports"
}
