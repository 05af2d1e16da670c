#!/usr/bin/env bash
# The query families of issue 26 (n4n_scenes.py) at n and 4n, each binary in turn, RUNS
# rounds: wall, user CPU and peak RSS. Every family must scale about 4x from n to 4n, apart
# from the size of its answer. Figures: tests/bench/README.md.
#
#   bash tests/bench/n4n_bench.sh [--runs N] [--n N] FAMILY [BIN...]    # default build/cli/collide
#   FAMILY: near-probe near-probe-rule near-probe-rule-all near-grid moves-early moves-huge-body
#           sweep-polygon
set -euo pipefail
runs=3
n_given=
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --n) n_given=$2; shift 2 ;;  # instead of the family's n
    *) break ;;
  esac
done
family=${1:?family}
shift
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/cli/collide)
case $family in
  near-probe) n=20000; args=(--near 1e7 --pairs probe:w) ;;
  near-probe-rule|near-probe-rule-all) n=20000; args=() ;;
  near-grid) n=16384; args=(--near 1e9 --pairs '*:g') ;;
  moves-early) n=20000; args=(--threads 1) ;;
  moves-huge-body) n=5000; args=(--threads 1) ;;
  sweep-polygon) n=100000; args=(--threads 1) ;;
  *) echo "unknown family $family" >&2; exit 2 ;;
esac
n=${n_given:-$n}
dir=${TMPDIR:-/tmp}/collide-n4n
mkdir -p "$dir"
here=$(dirname "$0")
for size in "$n" $((4 * n)); do python3 "$here/n4n_scenes.py" "$family" "$size" > "$dir/$family-$size.json"; done
for i in $(seq "$runs"); do
  for size in "$n" $((4 * n)); do
    for b in "${bins[@]}"; do
      # exit 1 (a rule that fails) is the answer, not an error
      /usr/bin/time -f "$b $family n=$size %e s wall %U s user %M KB" "$b" check -q -f jsonl "${args[@]}" \
        "$dir/$family-$size.json" > /dev/null 2> "$dir/err" || [ $? -eq 1 ]
      tail -n 1 "$dir/err"
    done
  done
done
