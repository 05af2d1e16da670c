#!/usr/bin/env python3
"""Alternating wall-time runs of a few commands, finer than /usr/bin/time's 10 ms ticks.

    python3 tests/bench/ab_runs.py [--runs 21] [--map FILE] "CMD ARGS..." "CMD ARGS..." ...
    python3 tests/bench/ab_runs.py --runs 5 "build/map_floor MAP" "build/cli/collide check MAP"
    python3 tests/bench/ab_runs.py --runs 5 --map SCENE.tscn "build/godot_floor MAP" "build/cli/collide check MAP"

Each round runs every command once, in the order given, its stdout and stderr to /dev/null,
timed with time.perf_counter() around the process; the rounds alternate so that a slow spell of
a shared machine falls on all commands alike. `MAP` in a command is replaced by --map (default:
map_bench.sh's map; for godot_bench.sh's, give its level.tscn,
${TMPDIR:-/tmp}/collide-godotbench/godot-4096-100000-s1/level.tscn). Prints each command's min and
median and its median over the first command's (put the floor first). Builds nothing.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=21, help="rounds (default 21)")
    ap.add_argument("--map", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "collide-mapbench",
                                                  "map-4096-100000-s1.tmx"),
                    help="the file that replaces MAP in the commands (default: map_bench.sh's map)")
    ap.add_argument("commands", nargs="+", help="one quoted command line each, the floor first")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if any("MAP" in c for c in args.commands) and not os.path.exists(args.map):
        ap.error(f"no file {args.map} for MAP (give --map)")
    commands = [[w.replace("MAP", args.map) for w in shlex.split(c)] for c in args.commands]
    times = [[] for _ in commands]
    for _ in range(args.runs):
        for k, command in enumerate(commands):
            start = time.perf_counter()
            rc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            times[k].append(time.perf_counter() - start)
            if rc not in (0, 1):
                sys.exit(f"ab_runs.py: {shlex.join(command)} exited {rc}")
    base = statistics.median(times[0])
    print("| command | runs | min (s) | median (s) | median / first |")
    print("|---|---|---|---|---|")
    for command, t in zip(args.commands, times):
        med = statistics.median(t)
        print(f"| `{command}` | {len(t)} | {min(t):.3f} | {med:.3f} | {med / base:.2f}x |")


if __name__ == "__main__":
    main()
