#!/usr/bin/env python3
"""Alternating wall-time runs of a few commands, finer than /usr/bin/time's 10 ms ticks.

    python3 tests/bench/ab_runs.py [--runs 21] [--map FILE] "CMD ARGS..." "CMD ARGS..." ...

Each round runs every command once, in the order given, its stdout and stderr to /dev/null,
timed with time.perf_counter() around the process; the rounds alternate so that a slow spell of
a shared machine falls on all commands alike. `MAP` in a command is replaced by --map (default:
map_bench.sh's map). Prints each command's min and median and its median over the first
command's (put the floor first). Builds nothing.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--map", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "collide-mapbench",
                                                  "map-4096-100000-s1.tmx"))
    ap.add_argument("commands", nargs="+")
    args = ap.parse_args()
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
