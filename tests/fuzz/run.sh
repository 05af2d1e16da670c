#!/usr/bin/env bash
# Build the libFuzzer targets, replay every saved crasher, then fuzz each target for
# FUZZ_SECONDS (default 60). Prints one line per target; exits non-zero on any finding.
#
#   bash tests/fuzz/run.sh                                  # all targets, 60 s each
#   FUZZ_SECONDS=600 FUZZ_TARGETS=fuzz_grid bash tests/fuzz/run.sh
#   FUZZ_SKIP_KNOWN=1 bash tests/fuzz/run.sh               # fuzz past reported, open issues
#   FUZZ_SEED=1 bash tests/fuzz/run.sh                      # reproducible: fixed seed and run count
#
# With FUZZ_SEED set, each target runs a fixed number of inputs (FUZZ_RUNS, default: about
# 30 s of the CI machine) from that seed, with FUZZ_SECONDS as a cap: the same commit then
# fuzzes the same inputs every time, so a red run is never luck. The CI does this; leave
# FUZZ_SEED unset to explore new inputs.
#
# Needs clang and libFuzzer (Debian: apt-get install -y clang libclang-rt-14-dev).
# See tests/fuzz/README.md.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${FUZZ_BUILD_DIR:-$here/build}
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-fuzz_scene fuzz_pairs fuzz_grid fuzz_polygon fuzz_map fuzz_godot fuzz_sweep}
conformance=${COLLIDE_CONFORMANCE:-$root/../shared/conformance/cases}
# The second corpus (capsules, boxes, ellipses, compounds), beside the first.
conformance_v2=${COLLIDE_CONFORMANCE_V2:-$conformance-v2}

# Inputs a reproducible run tries: about 20-40 s of each target on the CI machine (the first N
# inputs of a longer run from the same seed), so that the whole CI stays under 25 minutes.
fixed_runs() {
    case $1 in
        # 20% fewer each than before issue 17, whose picture, progress and install tests took the
        # time (CI 11-26: 26.6 min before the cut)
        fuzz_scene) echo 32000 ;;   # 50000 in ~45 s in CI (11-26, with the --near and --separation checks); now the SVG too
        fuzz_pairs) echo 10000 ;;   # 20000 took about 55 s in CI (11-26: rounding near 1e308 is Exact's; distance, separation)
        fuzz_grid) echo 52000 ;;
        fuzz_polygon) echo 36000 ;;
        fuzz_map) echo 12000 ;;    # 20000 took 18.3 s of CPU here (load 6 on 2 cores)
        fuzz_godot) echo 12000 ;;  # 12000 in about 15 s here (11-29, two cores shared)
        fuzz_sweep) echo 11000 ;;  # from an empty corpus here (11-26): 22000 in 10 s at load 2, 25000 took 17 s at load 4
    esac
}

max_len() {
    case $1 in
        fuzz_scene) echo 16384 ;;  # the samples are up to 30 kB; longer inputs only slow it down
        fuzz_pairs) echo 256 ;;    # two shapes of up to 7 points
        fuzz_grid) echo 512 ;;     # a 12 x 12 grid and six queries
        fuzz_polygon) echo 2048 ;; # a ring of up to 80 free points or a comb of 100 teeth
        fuzz_map) echo 8192 ;;     # the seeds are up to 6.5 kB (an LDtk level, minified)
        fuzz_godot) echo 8192 ;;   # the sample level with its TileSet and scenes is about 3.5 kB
        fuzz_sweep) echo 256 ;;    # a body, a path and one shape (a compound of up to 3 parts)
    esac
}

echo "building fuzz targets in $build" >&2
mkdir -p "$build"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="${CXX:-clang++}" >"$build/configure.log" 2>&1 \
    || { cat "$build/configure.log" >&2; echo "fuzz: configure failed" >&2; exit 2; }
cmake --build "$build" >"$build/build.log" 2>&1 || { cat "$build/build.log" >&2; echo "fuzz: build failed" >&2; exit 2; }

# Seed corpora (git-ignored; libFuzzer adds what it finds to the same folders).
mkdir -p "$here/corpus/fuzz_scene" "$here/corpus/fuzz_pairs" "$here/corpus/fuzz_grid" "$here/corpus/fuzz_polygon" "$here/corpus/fuzz_map" "$here/corpus/fuzz_godot" "$here/corpus/fuzz_sweep"
cp -n "$root"/samples/*.json "$here/corpus/fuzz_scene/" 2>/dev/null
if [ -d "$conformance" ]; then
    for f in "$conformance"/*.scene.json "$conformance"/*.invalid.json; do
        [ -e "$f" ] && cp -n "$f" "$here/corpus/fuzz_scene/conformance-$(basename "$f")"
    done
else
    echo "fuzz: no conformance corpus at $conformance; seeding fuzz_scene from samples only" >&2
fi
if [ -d "$conformance_v2" ]; then
    for f in "$conformance_v2"/*.scene.json "$conformance_v2"/*.invalid.json; do
        [ -e "$f" ] && cp -n "$f" "$here/corpus/fuzz_scene/conformance-v2-$(basename "$f")"
    done
fi

# fuzz_map: the Tiled and LDtk samples and small hand-made maps, in its input format.
python3 "$here/seed_fuzz_map.py" "$here/corpus/fuzz_map" \
    || echo "fuzz: could not seed fuzz_map (needs python3)" >&2
# fuzz_godot: the sample project and small hand-made scenes.
python3 "$here/seed_fuzz_godot.py" "$here/corpus/fuzz_godot" \
    || echo "fuzz: could not seed fuzz_godot (needs python3)" >&2

# A target's dictionary (tests/fuzz/TARGET.dict), when it has one.
dict_of() {
    [ -f "$here/$1.dict" ] && echo "-dict=$here/$1.dict"
}

# What went wrong, from a log: the property that failed, or the sanitizer's summary.
what_failed() {
    local w
    w=$(sed -n '/==== PROPERTY FAILED ====/{n;p;q}' "$1")
    [ -n "$w" ] || w=$(grep -m1 -E '^SUMMARY: |ERROR: libFuzzer: ' "$1" | sed 's/^==[0-9]*== //')
    echo "${w:-see the log}"
}

# On a machine that is thrown away (CI), the log and the input are all there is: print the
# end of the log and the input itself, base64, so the finding can be replayed elsewhere with
# `base64 -d > input`.
show_finding() {
    echo "---- last lines of $1"
    tail -n 40 "$1"
    if [ -n "$2" ] && [ -f "$2" ] && [ "$(stat -c %s "$2")" -le 65536 ]; then
        echo "---- the input, base64 ($(basename "$2"))"
        base64 "$2"
    fi
    echo "----"
}

status=0
mkdir -p "$build/logs"
for t in $targets; do
    bin=$build/$t
    log=$build/logs/$t.log
    if [ ! -x "$bin" ]; then echo "$t: FAILED: no such target"; status=1; continue; fi

    # 1. Replay every saved crasher, with every check on (FUZZ_SKIP_KNOWN unset).
    shopt -s nullglob
    regressions=("$here/regressions/$t"/*)
    shopt -u nullglob
    failing=()
    for f in "${regressions[@]}"; do
        if ! env -u FUZZ_SKIP_KNOWN timeout 120 "$bin" -timeout=10 "$f" >"$log.replay" 2>&1; then
            failing+=("$(basename "$f") ($(what_failed "$log.replay"))")
        fi
    done
    replay="${#regressions[@]} regressions pass"
    if [ ${#failing[@]} -gt 0 ]; then
        status=1
        replay="${#failing[@]} of ${#regressions[@]} regressions FAIL: $(printf '%s; ' "${failing[@]}")"
        if [ "${FUZZ_SKIP_KNOWN:-0}" = 0 ]; then
            echo "$t: FAILED: $replay not fuzzed (FUZZ_SKIP_KNOWN=1 fuzzes past known issues)"
            continue
        fi
    fi

    # 2. Fuzz.
    mkdir -p "$here/crashes/$t"
    fixed=()
    how="in ${seconds}s"
    if [ -n "${FUZZ_SEED:-}" ]; then
        want=${FUZZ_RUNS:-$(fixed_runs "$t")}
        fixed=(-seed="$FUZZ_SEED" -runs="$want")
        how="of $want from seed $FUZZ_SEED (cap ${seconds}s)"
    fi
    # shellcheck disable=SC2046  # no dictionary: no argument
    "$bin" "$here/corpus/$t" $(dict_of "$t") -max_len="$(max_len "$t")" -timeout=5 -rss_limit_mb=2048 "${fixed[@]}" \
        -max_total_time="$seconds" -print_final_stats=1 -print_funcs=0 -artifact_prefix="$here/crashes/$t/" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "$t: ok: ${runs:-?} runs $how, ${cov:-no coverage line}; $replay"
    else
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        echo "$t: FAILED after ${runs:-?} runs: $(what_failed "$log"); input ${artifact:-not saved}; log $log; $replay"
        show_finding "$log" "$artifact"
        status=1
    fi
done
exit $status
