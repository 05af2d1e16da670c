#!/usr/bin/env python3
"""The collide command line, tested through the real binary.

    python3 tests/cli/test_cli.py --bin build/cli/collide [--update-golden] [--quick] [-k TEXT]

Each test runs `collide` with subprocess (stdin is empty unless the test feeds it) from the
repository root, so reports name the samples as `samples/NAME.json`. A failing test prints
one line; the last line is "N passed, M failed" and the exit status is 1 on any failure.

--update-golden  rewrite tests/cli/golden/ from the binary's output (read the diff before
                 committing it: a golden must agree with samples/README.md and SPEC.md)
--quick          a 20,000-shape random scene instead of 100,000 (for sanitizer builds)
-k TEXT          run only the tests whose name contains TEXT
"""
import argparse
import csv
import io
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.json"))
GOLDEN = Path(__file__).resolve().parent / "golden"
FORMATS = ["json", "jsonl", "csv", "text"]

BIN = None            # set from --bin
UPDATE_GOLDEN = False
BIG_SCENE_SHAPES = 100_000
BRUTE_BIG = False
READ_FAULT = ""       # set from --read-fault
TEST_HOOKS = False    # set by --test-hooks: the binary has COLLIDE_TEST_OOM_SCENE


# ---------------------------------------------------------------------------------------
# Running the binary and asserting

class Failure(Exception):
    pass


class Result:
    def __init__(self, args, proc):
        self.args = args
        self.code = proc.returncode
        self.out = proc.stdout            # bytes: reports are compared byte for byte
        self.err = proc.stderr.decode("utf-8", "replace")

    @property
    def text(self):
        return self.out.decode("utf-8")


def collide(*args, stdin=None, cwd=ROOT, timeout=600, env=None):
    """Runs `collide ARGS...`; `stdin` (bytes) is fed to it, else its stdin is empty. `env`:
    variables to set on top of this process's environment."""
    args = [str(a) for a in args]
    proc = subprocess.run([BIN, *args], cwd=cwd, timeout=timeout, capture_output=True,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
                          env=dict(os.environ, **env) if env else None)
    r = Result(args, proc)
    if "Sanitizer" in r.err or "runtime error:" in r.err:
        raise Failure(f"collide {' '.join(args)}: sanitizer report: {r.err[:300]}")
    return r


def check(cond, message):
    if not cond:
        raise Failure(message)


def eq(actual, expected, what):
    if actual != expected:
        raise Failure(f"{what}: expected {expected!r}, got {actual!r}")


def same_bytes(actual, expected, what):
    if actual == expected:
        return
    a, e = actual.split(b"\n"), expected.split(b"\n")
    for n, (la, le) in enumerate(zip(a, e), 1):
        if la != le:
            raise Failure(f"{what}: line {n} differs: expected {le[:160]!r}, got {la[:160]!r}")
    raise Failure(f"{what}: expected {len(e)} lines, got {len(a)}")


def status(r, code):
    eq(r.code, code, f"exit status of collide {' '.join(r.args)} (stderr {r.err.strip()[:200]!r})")


def bad_input(r):
    """Exit 2 with nothing on stdout, one error on stderr: what every invalid input gets."""
    status(r, 2)
    eq(r.out, b"", "stdout on exit 2")
    check(r.err.startswith("collide: error: "), f"stderr on exit 2 has no error line: {r.err!r}")


def jsonl(r):
    return [json.loads(line) for line in r.text.splitlines()]


def csv_rows(r):
    return list(csv.DictReader(io.StringIO(r.text, newline="")))


def write(directory, name, scene):
    """Writes a scene (a dict, or text as it is) and returns its path."""
    path = Path(directory) / name
    path.write_text(scene if isinstance(scene, str) else json.dumps(scene), encoding="utf-8")
    return path


def circle(id, x, y, r, **extra):
    return {"id": id, "type": "circle", "center": [x, y], "radius": r, **extra}


# Three small scenes that say what they are.
CLEAR = {"shapes": [circle("left", 0, 0, 1), circle("right", 10, 0, 1)]}
OVERLAPPING = {"shapes": [circle("left", 0, 0, 1), circle("right", 1, 0, 1)]}
TOUCHING = {"shapes": [circle("left", 0, 0, 1), circle("right", 2, 0, 1)]}  # centres 2 apart


# ---------------------------------------------------------------------------------------
# The test registry: @test for a plain test, add_test for generated ones.

TESTS = []


def add_test(name, fn):
    TESTS.append((name, fn))


def test(fn):
    add_test(fn.__name__, fn)
    return fn


HOOK_TESTS = set()  # tests that need the binary's test hooks (--test-hooks)


def hooks_test(fn):
    """A test that makes a check fail on demand (COLLIDE_TEST_OOM_SCENE): run only against a
    binary built with -DCOLLIDE_TEST_HOOKS=ON; main() says how many were left out otherwise."""
    HOOK_TESTS.add(fn.__name__)
    return test(fn)


# ---------------------------------------------------------------------------------------
# 1. Golden reports of the samples

def expected_exit(sample):
    """SPEC §3: 1 when a rule or move expectation failed (the report's rules_failed), else 0."""
    report = json.loads(collide("check", f"samples/{sample.name}").out)
    return 1 if report["scenes"][0]["summary"]["rules_failed"] > 0 else 0


def golden_test(sample, fmt):
    def run():
        r = collide("check", "-f", fmt, f"samples/{sample.name}")
        status(r, expected_exit(sample))
        golden = GOLDEN / f"{sample.stem}.{fmt}"
        if UPDATE_GOLDEN:
            GOLDEN.mkdir(exist_ok=True)
            if not golden.exists() or golden.read_bytes() != r.out:
                golden.write_bytes(r.out)
                print(f"updated {golden.relative_to(ROOT)}")
        check(golden.exists(), f"no golden {golden.relative_to(ROOT)} (run with --update-golden)")
        same_bytes(r.out, golden.read_bytes(), f"{sample.name} -f {fmt} vs golden")
    return run


for _sample in SAMPLES:
    for _fmt in FORMATS:
        add_test(f"golden[{_sample.name} -f {_fmt}]", golden_test(_sample, _fmt))


def csv_numbers(field):
    """'x y;x y' -> [[x, y], ...] as floats."""
    return [[float(v) for v in item.split(" ")] for item in field.split(";")] if field else []


def floats(points):
    return [[float(v) for v in p] for p in points]


def formats_agree(sample):
    """JSON, JSONL and CSV carry the same records: one wrong golden cannot hide in one format."""
    def run():
        path = f"samples/{sample.name}"
        scene = json.loads(collide("check", path).out)["scenes"][0]
        records = jsonl(collide("check", "-f", "jsonl", path))
        by_type = {t: [{k: v for k, v in rec.items() if k not in ("type", "scene")}
                       for rec in records if rec["type"] == t] for t in ("collision", "move", "rule", "summary")}
        eq(by_type["collision"], scene["collisions"], "JSONL collisions vs JSON")
        eq(by_type["move"], scene["moves"], "JSONL moves vs JSON")
        eq(by_type["rule"], scene["rules"], "JSONL rules vs JSON")
        eq(by_type["summary"], [scene["summary"]], "JSONL summary vs JSON")
        rows = csv_rows(collide("check", "-f", "csv", path))
        eq({row["scene"] for row in rows} | {path}, {path}, "CSV scene column")
        eq([(r["a"], r["b"], r["relation"], csv_numbers(r["points"]), csv_numbers(r["cells"]), r["outside"])
            for r in rows if r["type"] == "collision"],
           [(c["a"], c["b"], c["relation"], floats(c.get("points", [])), floats(c.get("cells", [])),
             {True: "true", False: "false", None: ""}[c.get("outside", False if "cells" in c else None)])
            for c in scene["collisions"]], "CSV collisions vs JSON")
        eq([(r["a"], r["allowed"], r["t"] and float(r["t"]), r["cell_col"], r["cell_row"], r["hit"])
            for r in rows if r["type"] == "move"],
           [(m["id"], str(m["allowed"]).lower(), m.get("t", ""), str(m["cell"][0]) if "cell" in m else "",
             str(m["cell"][1]) if "cell" in m else "", m.get("hit", "")) for m in scene["moves"]], "CSV moves vs JSON")
    return run


for _sample in SAMPLES:
    add_test(f"json_jsonl_and_csv_agree[{_sample.name}]", formats_agree(_sample))


@test
def every_golden_belongs_to_a_sample():
    expected = {f"{s.stem}.{fmt}" for s in SAMPLES for fmt in FORMATS}
    stray = sorted(p.name for p in GOLDEN.iterdir() if p.is_file() and p.name not in expected)  # maps/: test_maps.py
    eq(stray, [], "golden files without a sample")


# ---------------------------------------------------------------------------------------
# 2. Broad phases and threads never change a byte

def same_for_every_broadphase_and_thread_count(sample):
    def run():
        reference = collide("check", f"samples/{sample.name}")
        for bp in ["brute", "grid", "sweep", "auto"]:
            for threads in ["1", "2"]:
                r = collide("check", "--broadphase", bp, "--threads", threads, f"samples/{sample.name}")
                status(r, reference.code)
                same_bytes(r.out, reference.out, f"--broadphase {bp} --threads {threads} vs default")
    return run


for _sample in SAMPLES:
    add_test(f"same_report_for_every_broadphase_and_thread_count[{_sample.name}]",
             same_for_every_broadphase_and_thread_count(_sample))


def random_scene(n, seed):
    """n shapes, about one collision each: circles, rects, points, segments, polylines,
    convex and concave polygons on a quarter-unit lattice (so exact touches happen), a tenth
    of them in dense clusters, a few lines and rays across everything, and a tile grid."""
    rng = random.Random(seed)
    side = math.sqrt(n) * 3.5
    clusters = [(rng.uniform(0, side), rng.uniform(0, side)) for _ in range(max(1, n // 1000))]

    def q(v):
        return round(v * 4) / 4

    def size():
        return q(rng.uniform(0.5, 2.5))

    shapes = []
    for _ in range(n - 6):
        if rng.random() < 0.1:
            cx, cy = rng.choice(clusters)
            x, y = q(rng.gauss(cx, 10)), q(rng.gauss(cy, 10))
        else:
            x, y = q(rng.uniform(0, side)), q(rng.uniform(0, side))
        k = rng.random()
        w, h = size(), size()
        if k < 0.3:
            s = {"type": "circle", "center": [x, y], "radius": size()}
        elif k < 0.55:
            s = {"type": "rect", "min": [x, y], "max": [x + q(rng.uniform(0, 4)), y + q(rng.uniform(0, 4))]}
        elif k < 0.65:
            s = {"type": "point", "at": [x, y]}
        elif k < 0.83:
            s = {"type": "segment", "a": [x, y], "b": [q(x + rng.uniform(-4, 4)), q(y + rng.uniform(-4, 4))]}
        elif k < 0.85:
            s = {"type": "polyline", "points": [[x, y], [x + w, y + h], [x + 2 * w, y]]}
        elif k < 0.9:
            s = {"type": "polygon", "points": [[x, y], [x + w, y], [x, y + h]]}
        elif k < 0.95:
            s = {"type": "polygon", "points": [[x, y - h], [x + w, y], [x, y + h], [x - w, y]]}
        else:  # an L: concave
            s = {"type": "polygon", "points": [[x, y], [x + 2 * w, y], [x + 2 * w, y + h],
                                               [x + w, y + h], [x + w, y + 2 * h], [x, y + 2 * h]]}
        shapes.append(s)
    for j in range(3):
        y = q(rng.uniform(0, side))
        shapes.append({"type": "line", "a": [0, y], "b": [side, q(y + rng.uniform(-20, 20))]})
        shapes.append({"type": "ray", "origin": [q(rng.uniform(0, side)), q(rng.uniform(0, side))],
                       "direction": [rng.choice([-1, 1]), q(rng.uniform(-0.5, 0.5))]})
    rows = ["".join("#" if rng.random() < 0.15 else "." for _ in range(40)) for _ in range(40)]
    grid = {"id": "tiles", "tile_size": 4, "origin": [q(side / 3), q(side / 3)], "outside": "empty", "rows": rows}
    return {"shapes": shapes, "grids": [grid]}


def assert_same_report_for_broadphases(n, seed, broadphases):
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "random.json", random_scene(n, seed))
        # Independent runs: two at a time on two cores.
        with ThreadPoolExecutor(max_workers=2) as pool:
            runs = list(pool.map(lambda args: collide("check", "-f", "jsonl", *args, scene, cwd=d),
                                 [bp.split() for bp in broadphases]))
    for bp, r in zip(broadphases, runs):
        status(r, 0)
    summary = json.loads(runs[0].out.rsplit(b"\n", 2)[-2])
    eq(summary["shapes"], n, "shapes in the random scene")
    check(n // 2 < summary["collisions"] < 2 * n,
          f"the random scene should give about one collision per shape; got {summary['collisions']} for {n}")
    for bp, r in zip(broadphases[1:], runs[1:]):
        same_bytes(r.out, runs[0].out, f"{n} shapes: {bp} vs {broadphases[0]}")


def big_random_scene_same_report_with_grid_sweep_and_auto():
    broadphases = ["--broadphase grid", "--broadphase sweep", "--broadphase auto --threads 2"]
    if BRUTE_BIG:  # quadratic: about a minute of CPU at 100,000 shapes
        broadphases.append("--broadphase brute --threads 2")
    assert_same_report_for_broadphases(BIG_SCENE_SHAPES, 1, broadphases)


@test
def random_scene_of_3000_same_report_with_brute_force():
    assert_same_report_for_broadphases(3000, 2, ["--broadphase brute", "--broadphase grid",
                                                 "--broadphase sweep", "--broadphase auto"])


def hostile_scene(n, seed):
    """What once made the broad phase quadratic (issue 12): small shapes with far outliers
    (a point at 1e9, points at +-1e30, a rect and a segment 1e9 across), a family of
    exactly parallel lines and rays crossing the level steeply (some collinear), lines in
    every direction, and n/20 small grids, most with outside empty, a few solid."""
    rng = random.Random(seed)
    side = math.sqrt(n) * 3.0

    def q(v):
        return round(v * 4) / 4

    shapes = []
    for _ in range(n):
        x, y = q(rng.uniform(0, side)), q(rng.uniform(0, side))
        k = rng.random()
        if k < 0.5:
            shapes.append({"type": "circle", "center": [x, y], "radius": q(rng.uniform(0.5, 2))})
        elif k < 0.8:
            shapes.append({"type": "rect", "min": [x, y], "max": [x + q(rng.uniform(0, 3)), y + q(rng.uniform(0, 3))]})
        else:
            shapes.append({"type": "point", "at": [x, y]})
    shapes += [{"type": "point", "at": [1e9, 1e9]}, {"type": "point", "at": [1e30, -1e30]},
               {"type": "point", "at": [-1e30, 3]},
               {"type": "rect", "min": [-5e8, -5e8], "max": [5e8, 5e8]},
               {"type": "segment", "a": [-5e8, -5e8 + 3], "b": [5e8, 5e8]}]
    for k in range(n // 20):
        x = q(rng.uniform(-10, side))
        if k % 3 == 0:
            shapes.append({"type": "ray", "origin": [x, -5], "direction": [1, 7]})
        else:
            shapes.append({"type": "line", "a": [x, 0], "b": [x + 2, 14]})
    for k in range(10):
        shapes.append({"type": "line", "a": [q(rng.uniform(0, side)), q(rng.uniform(0, side))],
                       "b": [q(rng.uniform(0, side)), q(rng.uniform(0, side))]})
    for i, s in enumerate(shapes):
        s["id"] = f"s{i}"
    grids = []
    for k in range(n // 20):
        rows = ["".join("#" if rng.random() < 0.4 else "." for _ in range(3)) for _ in range(3)]
        grids.append({"id": f"g{k}", "tile_size": q(rng.uniform(0.5, 2)),
                      "origin": [q(rng.uniform(0, side)), q(rng.uniform(0, side))],
                      "outside": "solid" if k % 25 == 0 else "empty", "rows": rows})
    return {"shapes": shapes, "grids": grids}


@test
def hostile_scene_same_report_for_every_broadphase_and_thread_count():
    runs = [["--broadphase", bp, "--threads", t] for bp in ("brute", "grid", "sweep", "auto") for t in ("1", "2")]
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "hostile.json", hostile_scene(2000, 5))
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda args: collide("check", "-f", "jsonl", *args, scene, cwd=d), runs))
    for r in results:
        status(r, 0)
    records = [json.loads(line) for line in results[0].out.splitlines()]
    grid_hits = sum(1 for r in records if r.get("type") == "collision" and r["b"].startswith("g"))
    line_hits = sum(1 for r in records if r.get("type") == "collision" and r["b"] in ("s2005", "s2006"))
    check(grid_hits > 100, f"the hostile scene should hit grids; got {grid_hits}")
    check(line_hits > 0, "the hostile scene's lines should meet shapes")
    for args, r in zip(runs[1:], results[1:]):
        same_bytes(r.out, results[0].out, f"hostile scene: {' '.join(args)} vs brute")


# ---------------------------------------------------------------------------------------
# 3. Exit status

@test
def exit_0_when_nothing_fails():
    with tempfile.TemporaryDirectory() as d:
        r = collide("check", write(d, "clear.json", CLEAR))
    status(r, 0)
    eq(json.loads(r.out)["scenes"][0]["summary"]["collisions"], 0, "collisions")
    eq(r.err, "", "stderr")


@test
def exit_1_when_a_rule_fails_and_stderr_says_which():
    r = collide("check", "samples/spec-example.json")
    status(r, 1)
    eq(r.err, "collide: rule 'player starts clear' failed: player × crate, player × maze "
              "(samples/spec-example.json)\n", "stderr")


@test
def exit_1_when_a_move_expectation_fails():
    room = {"grids": [{"id": "room", "tile_size": 10, "rows": ["###", "#.#", "###"]}],
            "moves": [{"id": "walk-into-wall", "grid": "room", "from": [15, 15], "to": [25, 15],
                       "expect": "allowed"}]}
    with tempfile.TemporaryDirectory() as d:
        r = collide("check", write(d, "room.json", room).name, cwd=d)
    status(r, 1)
    eq(json.loads(r.out)["scenes"][0]["moves"],
       [{"id": "walk-into-wall", "allowed": False, "t": 0.5, "stop": [20, 15], "cell": [2, 1], "passed": False}],
       "moves")
    eq(r.err, "collide: move 'walk-into-wall' expected allowed, was blocked (room.json)\n", "stderr")


@test
def exit_1_with_fail_on_collision_when_shapes_overlap():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "overlapping.json", OVERLAPPING)
        status(collide("check", scene), 0)
        status(collide("check", "--fail-on-collision", scene), 1)


@test
def fail_on_collision_counts_touches_unless_no_touch():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "touching.json", TOUCHING)
        status(collide("check", "--fail-on-collision", scene), 1)
        r = collide("check", "--fail-on-collision", "--no-touch", scene)
    status(r, 0)
    eq(json.loads(r.out)["scenes"][0]["collisions"], [], "collisions with --no-touch")


@test
def exit_2_for_a_missing_file():
    bad_input(collide("check", "samples/no-such-level.json"))


@test
def exit_2_for_invalid_json():
    with tempfile.TemporaryDirectory() as d:
        bad_input(collide("check", write(d, "broken.json", '{"shapes": [')))


@test
def exit_2_for_an_invalid_scene():
    with tempfile.TemporaryDirectory() as d:
        bad_input(collide("check", write(d, "negative.json", {"shapes": [circle("c", 0, 0, -1)]})))


@test
def exit_2_for_an_invalid_scene_after_a_valid_one():
    with tempfile.TemporaryDirectory() as d:
        bad_input(collide("check", "samples/concave-terrain.json",
                          write(d, "negative.json", {"shapes": [circle("c", 0, 0, -1)]})))


@test
def many_files_read_in_parallel_report_the_first_bad_one_in_argument_order():
    with tempfile.TemporaryDirectory() as d:
        files = []
        for k in range(24):
            scene = {"shapes": [circle("c", 0, 0, 1), circle("d", 1, 0, 1)]}
            if k in (6, 15):
                scene["shapes"][1]["radius"] = -k  # invalid; the message quotes the radius
            files.append(write(d, f"f{k:02d}.json", scene))
        for threads in ("1", "2", "4"):
            for _ in range(3):
                r = collide("check", "--threads", threads, *files)
                bad_input(r)
                check("f06.json" in r.err and "-6" in r.err and "f15.json" not in r.err,
                      f"--threads {threads}: names f06.json only: {r.err!r}")
        good = [f for k, f in enumerate(files) if k not in (6, 15)]
        one = collide("check", "--threads", "1", "-f", "jsonl", *good)
        status(one, 0)
        same_bytes(collide("check", "--threads", "4", "-f", "jsonl", *good).out, one.out, "--threads 4 vs 1")


@test
def exit_2_for_an_unknown_option():
    r = collide("check", "--bogus", "samples/spec-example.json")
    bad_input(r)
    eq(r.err, "collide: error: unknown option '--bogus' (run 'collide check --help' for usage)\n", "stderr")


@test
def exit_2_for_a_bad_format():
    r = collide("check", "-f", "xml", "samples/spec-example.json")
    bad_input(r)
    check("--format" in r.err and "xml" in r.err, f"the error should name --format and 'xml': {r.err!r}")


@test
def exit_2_for_a_bad_pairs_spec():
    for spec in ["player", ":props", "player:"]:
        r = collide("check", "--pairs", spec, "samples/spec-example.json")
        bad_input(r)
        eq(r.err, f"collide: error: --pairs: pair spec '{spec}' is not of the form A:B "
                  "(selectors: a group, an id or *)\n", "stderr")


@test
def exit_2_without_a_file_or_subcommand():
    bad_input(collide("check"))
    bad_input(collide())


# ---------------------------------------------------------------------------------------
# 4. Error messages, word for word: file:line:column: JSON path: what is wrong

def error_of(name, text):
    with tempfile.TemporaryDirectory() as d:
        r = collide("check", write(d, name, text).name, cwd=d)
    bad_input(r)
    return r.err


@test
def message_for_a_syntax_error_gives_line_and_column():
    err = error_of("trailing-comma.json",
                   '{"shapes": [\n  {"id": "c", "type": "circle", "center": [0, 0], "radius": 1,}\n]}\n')
    eq(err, "collide: error: trailing-comma.json:2:63: /shapes/0/radius: syntax error while parsing "
            "object key - unexpected '}'; expected string literal\n", "stderr")


@test
def message_for_an_unknown_key_suggests_the_right_one():
    err = error_of("typo.json", '{"shapes": [\n  {"id": "c", "type": "circle", "center": [0, 0], "raduis": 1}\n]}\n')
    eq(err, "collide: error: typo.json:2:61: /shapes/0/raduis: unknown key 'raduis' for a circle "
            "(did you mean 'radius'?); allowed here: id, type, groups, ignore, center, radius\n", "stderr")


@test
def message_for_a_number_that_is_not_a_finite_double():
    err = error_of("huge.json", '{"shapes": [\n  {"id": "c", "type": "circle", "center": [1e400, 0], "radius": 1}\n]}\n')
    eq(err, "collide: error: huge.json:2:44: /shapes/0/center/0: number 1e400 is out of range "
            "(not a finite double)\n", "stderr")


@test
def message_for_a_duplicate_id_names_both_places():
    err = error_of("twins.json", '{"shapes": [\n  {"id": "a", "type": "point", "at": [0, 0]},\n'
                                 '  {"id": "a", "type": "point", "at": [1, 0]}\n]}\n')
    eq(err, "collide: error: twins.json:3:3: /shapes/1: duplicate id 'a' (also /shapes/0)\n", "stderr")


@test
def message_for_a_self_intersecting_polygon_names_the_edges():
    err = error_of("bowtie.json", '{"shapes": [\n  {"id": "bowtie", "type": "polygon", '
                                  '"points": [[0, 0], [10, 10], [10, 0], [0, 10]]}\n]}\n')
    eq(err, "collide: error: bowtie.json:2:49: /shapes/0/points: the polygon intersects itself: "
            "the edge from point 0 to point 1 and the edge from point 2 to point 3 meet\n", "stderr")


@test
def message_for_a_missing_file():
    r = collide("check", "samples/no-such-level.json")
    eq(r.err, "collide: error: samples/no-such-level.json: cannot open: No such file or directory\n", "stderr")


# ---------------------------------------------------------------------------------------
# 5. -o/--output: whole or not at all

@test
def output_file_holds_the_same_bytes_as_stdout():
    stdout_run = collide("check", "samples/platformer-lasers.json")
    with tempfile.TemporaryDirectory() as d:
        r = collide("check", "-o", Path(d) / "report.json", "samples/platformer-lasers.json")
        status(r, 0)
        eq(r.out, b"", "stdout with -o")
        same_bytes((Path(d) / "report.json").read_bytes(), stdout_run.out, "-o file vs stdout")
        eq(os.listdir(d), ["report.json"], "files in the output directory")


@test
def output_is_written_when_a_rule_fails():
    with tempfile.TemporaryDirectory() as d:
        r = collide("check", "--output", Path(d) / "report.csv", "-f", "csv", "samples/spec-example.json")
        status(r, 1)
        same_bytes((Path(d) / "report.csv").read_bytes(), (GOLDEN / "spec-example.csv").read_bytes(),
                   "-o file vs golden")


@test
def output_not_created_when_an_input_is_invalid():
    with tempfile.TemporaryDirectory() as d:
        bad = write(d, "bad.json", {"shapes": [circle("c", 0, 0, -1)]})
        bad_input(collide("check", "-o", Path(d) / "report.json", "samples/spec-example.json", bad))
        eq(sorted(os.listdir(d)), ["bad.json"], "files in the output directory")


@test
def output_left_untouched_when_an_input_is_invalid():
    with tempfile.TemporaryDirectory() as d:
        bad = write(d, "bad.json", "{not json")
        old = Path(d) / "report.json"
        old.write_bytes(b"yesterday's report\n")
        bad_input(collide("check", "-o", old, "samples/spec-example.json", bad))
        eq(old.read_bytes(), b"yesterday's report\n", "the old report")
        eq(sorted(os.listdir(d)), ["bad.json", "report.json"], "files in the output directory")


@test
def output_replaces_an_existing_file_whole():
    with tempfile.TemporaryDirectory() as d:
        old = Path(d) / "report.jsonl"
        old.write_bytes(b"x" * 100_000)
        status(collide("check", "-f", "jsonl", "-o", old, "samples/concave-terrain.json"), 0)
        same_bytes(old.read_bytes(), (GOLDEN / "concave-terrain.jsonl").read_bytes(), "-o file vs golden")
        eq(os.listdir(d), ["report.jsonl"], "files in the output directory")


@test
def output_into_a_missing_directory_is_an_error():
    with tempfile.TemporaryDirectory() as d:
        target = Path(d) / "no-such-dir" / "report.json"
        r = collide("check", "-o", target, "samples/concave-terrain.json")
    bad_input(r)
    eq(r.err, f"collide: error: {target}: cannot create output: No such file or directory\n", "stderr")


# ---------------------------------------------------------------------------------------
# 6. Inputs, options and the other subcommands

@test
def dash_reads_the_scene_from_stdin():
    sample = ROOT / "samples/spec-example.json"
    r = collide("check", "-", stdin=sample.read_bytes())
    status(r, 1)
    expected = (GOLDEN / "spec-example.json").read_bytes().replace(b'"samples/spec-example.json"', b'"-"')
    same_bytes(r.out, expected, "report of stdin")


@test
def several_files_give_one_json_document():
    r = collide("check", "samples/concave-terrain.json", "samples/spec-example.json")
    status(r, 1)  # one failing scene fails the run
    scenes = json.loads(r.out)["scenes"]
    eq([s["file"] for s in scenes], ["samples/concave-terrain.json", "samples/spec-example.json"], "files")
    eq([s["summary"]["collisions"] for s in scenes], [9, 2], "collisions per scene")


@test
def several_files_in_jsonl_every_record_names_its_scene():
    r = collide("check", "-f", "jsonl", "samples/spec-example.json", "samples/platformer-lasers.json")
    status(r, 1)
    records = jsonl(r)
    check(all("scene" in rec for rec in records), "a JSONL record without 'scene'")
    summaries = [(rec["scene"], rec["collisions"]) for rec in records if rec["type"] == "summary"]
    eq(summaries, [("samples/spec-example.json", 2), ("samples/platformer-lasers.json", 8)], "summaries")
    eq(records[-1]["type"], "summary", "last record")


@test
def several_files_in_csv_share_one_header():
    r = collide("check", "-f", "csv", "samples/spec-example.json", "samples/platformer-lasers.json")
    lines = r.text.splitlines()
    eq(lines[0], "scene,type,a,b,relation,allowed,t,cell_col,cell_row,points,cells,outside,distance,hit,parts_a,parts_b,normal,depth,rule", "header")
    eq(lines.count(lines[0]), 1, "header rows")
    # spec-example: 2 collisions, 1 move, and 2 violations of its failed rule; platformer-lasers: 12 rows
    eq(len(lines), 1 + 3 + 2 + 12, "rows (3 + 2 + 12 after the header)")
    eq(sum(1 for line in lines if ",violation," in line), 2, "violation rows")


@test
def csv_violation_rows_are_the_json_violations():
    # SPEC §4: each violation of a failed rule is a CSV row, its rule last; the same pairs, in
    # the same order, as the JSON report's violations (clearance rules with their distance).
    for sample in ("samples/rules-fail.json", "samples/spec-example.json"):
        j = json.loads(collide("check", sample).out)["scenes"][0]
        expected = [(rule["name"], v["a"], v.get("b", ""), v.get("distance"))
                    for rule in j["rules"] if not rule["passed"] for v in rule["violations"]]
        rows = [row for row in csv_rows(collide("check", "-f", "csv", sample)) if row["type"] == "violation"]
        got = [(row["rule"], row["a"], row["b"], float(row["distance"]) if row["distance"] else None) for row in rows]
        eq(got, expected, f"{sample}: violation rows")
        check(expected, f"{sample}: no violation to compare")
        check(all(row["relation"] == "" and row["points"] == "" for row in rows), "violation rows: other columns empty")


@test
def locations_place_each_side_at_its_line_and_column():
    # --locations: the line and byte column of the shape's '{' in the scene file, found here
    # in the text itself.
    text = (ROOT / "samples/rules-fail.json").read_text()
    def place(obj_id):
        at = text.index('"id": "%s"' % obj_id)
        at = text.rindex("{", 0, at)
        line = text.count("\n", 0, at) + 1
        return line, at - (text.rfind("\n", 0, at) + 1) + 1
    r = collide("check", "--locations", "samples/rules-fail.json")
    scene = json.loads(r.out)["scenes"][0]
    for c in scene["collisions"]:
        for side in ("a", "b"):
            src = c["source_" + side]
            eq(src["file"], "samples/rules-fail.json", "file")
            eq((src["line"], src["column"]), place(c[side]), f"{c[side]} line, column")
    for m in scene["moves"]:
        eq((m["source"]["line"], m["source"]["column"]), place(m["id"]), f"move {m['id']}")
    for rule in scene["rules"]:
        for v in rule["violations"]:
            eq((v["source_a"]["line"], v["source_a"]["column"]), place(v["a"]), f"violation {v['a']}")
    rows = csv_rows(collide("check", "--locations", "-f", "csv", "samples/rules-fail.json"))
    for row in rows:
        if row["type"] == "collision":
            eq((int(row["line_a"]), int(row["col_a"])), place(row["a"]), f"CSV {row['a']}")
    # Without the option, no record carries a source.
    check("source_a" not in collide("check", "samples/rules-fail.json").text, "a source without --locations")
    # JSON Lines: the same sources as JSON.
    lines = [rec for rec in jsonl(collide("check", "--locations", "-f", "jsonl", "samples/rules-fail.json"))
             if rec["type"] == "collision"]
    eq([(rec["source_a"], rec["source_b"]) for rec in lines],
       [(c["source_a"], c["source_b"]) for c in scene["collisions"]], "JSONL sources")


@test
def pairs_option_replaces_the_scene_pairs():
    r = collide("check", "--pairs", "player:props", "samples/spec-example.json")
    eq([(c["a"], c["b"]) for c in json.loads(r.out)["scenes"][0]["collisions"]], [("player", "crate")], "pairs")


@test
def an_empty_pairs_list_pairs_nothing_where_no_pairs_key_pairs_everything():
    # SPEC §1.4: absent "pairs" is *:*; "pairs": [] pairs nothing (rules still see their pairs).
    two = {"shapes": [{"id": "a", "type": "point", "at": [0, 0]}, {"id": "b", "type": "point", "at": [0, 0]}]}
    with tempfile.TemporaryDirectory() as d:
        default = json.loads(collide("check", write(d, "default.json", two)).out)["scenes"][0]
        empty = collide("check", write(d, "empty.json", dict(two, pairs=[],
                        rules=[{"name": "apart", "pairs": "a:b", "expect": "none"}])))
    eq([(c["a"], c["b"]) for c in default["collisions"]], [("a", "b")], "collisions without a pairs key")
    status(empty, 1)
    scene = json.loads(empty.out)["scenes"][0]
    eq(scene["collisions"], [], "collisions with \"pairs\": []")
    eq(scene["rules"][0]["violations"], [{"a": "a", "b": "b"}], "the rule still sees its pair")


@test
def pairs_option_repeats_and_its_left_side_is_a():
    r = collide("check", "--pairs", "props:player", "--pairs", "walls:player", "samples/spec-example.json")
    got = [(c["a"], c["b"]) for c in json.loads(r.out)["scenes"][0]["collisions"]]
    # In a shape-grid pair the shape is always a.
    eq(got, [("player", "maze"), ("crate", "player")], "collisions (ordered by the index of a)")


@test
def every_option_takes_one_value_each_time_and_the_files_after_it_are_files():
    # `--pairs a:b level.tmx` checks level.tmx (SPEC §3): no option swallows the files after it.
    files = ["samples/spec-example.json", "samples/crates.json"]
    with tempfile.TemporaryDirectory() as d:
        rules = write(d, "rules.json", {"rules": [{"name": "r", "pairs": "*:*", "expect": "some"}]})
        report = Path(d) / "report.json"
        for option, value in [("--pairs", "player:props"), ("--rules", rules), ("-f", "json"),
                              ("--format", "json"), ("-o", report), ("--output", report),
                              ("--broadphase", "grid"), ("--threads", "2"), ("--max-collisions", "0"),
                              ("--near", "1")]:
            for args in ([option, value, *files], [files[0], option, value, files[1]]):
                r = collide("check", *args)
                check(r.code in (0, 1), f"collide check {' '.join(map(str, args))}: exit {r.code}: {r.err}")
                out = report.read_bytes() if option in ("-o", "--output") else r.out
                eq([s["file"] for s in json.loads(out)["scenes"]], files, f"scenes of check {' '.join(map(str, args))}")
        r = collide("check", "--pairs", "player:props", "--pairs", "player:walls", *files)
        eq([(c["a"], c["b"]) for c in json.loads(r.out)["scenes"][0]["collisions"]],
           [("player", "crate"), ("player", "maze")], "two --pairs")


@test
def no_points_drops_the_points_key_and_empties_the_csv_column():
    sample = "samples/platformer-lasers.json"
    check(any("points" in rec for rec in jsonl(collide("check", "-f", "jsonl", sample))), "points by default")
    records = jsonl(collide("check", "-f", "jsonl", "--no-points", sample))
    eq(len([rec for rec in records if rec["type"] == "collision"]), 8, "collisions")
    eq([rec for rec in records if "points" in rec], [], "records with points")
    rows = csv_rows(collide("check", "-f", "csv", "--no-points", sample))
    eq([row["points"] for row in rows], [""] * 12, "the CSV points column")
    check(all("points" not in c for c in json.loads(collide("check", "--no-points", sample).out)
              ["scenes"][0]["collisions"]), "JSON collisions with points")


@test
def no_touch_drops_touches_from_report_and_summary():
    r = collide("check", "-f", "jsonl", "--no-touch", "samples/shmup-bullets.json")
    status(r, 0)
    records = jsonl(r)
    relations = sorted(rec["relation"] for rec in records if rec["type"] == "collision")
    eq(relations, ["overlap"] * 3 + ["within"] * 4, "relations")
    eq(records[-1]["collisions"], 7, "summary collisions")


@test
def no_touch_can_fail_a_rule_that_touches_satisfied():
    r = collide("check", "--no-touch", "samples/platformer-lasers.json")
    status(r, 1)
    rule = json.loads(r.out)["scenes"][0]["rules"][0]
    eq(rule, {"name": "crates rest on platforms", "passed": False, "violations": [{"a": "crate-1"}, {"a": "crate-2"}]},
       "rule")


@test
def warning_names_a_selector_that_selects_nothing_and_the_file():
    r = collide("check", "--pairs", "ghosts:player", "samples/platformer-lasers.json")
    status(r, 0)
    eq(r.err, "collide: warning: samples/platformer-lasers.json: selector 'ghosts' selects nothing\n", "stderr")


@test
def quiet_suppresses_the_warning():
    r = collide("check", "-q", "--pairs", "ghosts:player", "samples/platformer-lasers.json")
    status(r, 0)
    eq(r.err, "", "stderr with -q")


@test
def quiet_keeps_the_lines_that_say_why_the_exit_status_is_1():
    # -q hides warnings and the progress line, never a failed rule or move (SPEC §3): a CI log
    # must say why the job failed.
    r = collide("check", "-q", "-o", "/dev/null", "--pairs", "ghosts:player", "--pairs", "player:*",
                "samples/spec-example.json")
    status(r, 1)
    eq(r.err, "collide: rule 'player starts clear' failed: player × crate, player × maze "
              "(samples/spec-example.json)\n", "stderr with -q (no warning about 'ghosts')")
    with tempfile.TemporaryDirectory() as d:
        room = {"grids": [{"id": "room", "tile_size": 10, "rows": ["###", "#.#", "###"]}],
                "moves": [{"id": "m", "grid": "room", "from": [15, 15], "to": [25, 15], "expect": "allowed"}]}
        r = collide("check", "-q", write(d, "room.json", room).name, cwd=d)
    status(r, 1)
    eq(r.err, "collide: move 'm' expected allowed, was blocked (room.json)\n", "stderr with -q")


@test
def verbose_writes_to_stderr_only():
    r = collide("check", "-v", "samples/concave-terrain.json")
    status(r, 0)
    same_bytes(r.out, (GOLDEN / "concave-terrain.json").read_bytes(), "stdout with -v")
    check(r.err != "", "-v printed nothing on stderr")


# A crate at 45 degrees, a door at 90 (a rect), a round coin (a circle) and a boss whose
# part 1 is an oval of 8 points: what -v says each became.
CONVERTED = {"shapes": [
    {"id": "crate", "type": "box", "center": [10, 20], "size": [4, 2], "angle": 45},
    {"id": "door", "type": "box", "center": [10, 20], "size": [4, 2], "angle": 90},
    {"id": "coin", "type": "ellipse", "center": [0, 0], "radii": [2, 2]},
    {"id": "boss", "type": "compound", "parts": [{"type": "circle", "center": [0, 0], "radius": 1},
                                                {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 8}]},
    {"id": "hero", "type": "capsule", "a": [0, 0], "b": [0, 4], "radius": 1}]}
CONVERTED_LINES = [
    "collide: lv.json: shape 'crate' (box) is read as polygon of 4 points [[9.292893218813452, 17.878679656440358], "
    "[12.121320343559644, 20.70710678118655], [10.707106781186548, 22.121320343559642], [7.878679656440356, 19.29289321881345]]",
    "collide: lv.json: shape 'door' (box) is read as rect min [9, 18] max [11, 22]",
    "collide: lv.json: shape 'coin' (ellipse) is read as circle center [0, 0] radius 2",
    "collide: lv.json: part 1 of 'boss' (ellipse) is read as polygon of 8 points [[3, 0], [2.121320343559643, 1.414213562373095], "
    "[0, 2], [-2.1213203435596424, 1.4142135623730951], [-3, 0], "
    "[-2.121320343559643, -1.414213562373095], [0, -2], [2.121320343559642, -1.4142135623730954]]",
]


@test
def verbose_shows_what_each_box_and_ellipse_is_read_as():
    with tempfile.TemporaryDirectory() as d:
        write(d, "lv.json", CONVERTED)
        quiet = collide("check", "lv.json", cwd=d)
        r = collide("check", "-v", "lv.json", cwd=d)
        v = collide("validate", "-v", "lv.json", cwd=d)
    status(r, 0)
    eq(quiet.err, "", "stderr without -v")
    eq(r.out, quiet.out, "stdout with -v")
    lines = [line for line in r.err.splitlines() if "is read as" in line]
    eq(lines, CONVERTED_LINES, "the -v lines of check")
    status(v, 0)
    eq(v.text, "lv.json: valid (5 shapes, 0 grids, 0 moves, 0 rules)\n", "stdout of validate -v")
    eq(v.err.splitlines(), CONVERTED_LINES, "stderr of validate -v")


@test
def verbose_shows_the_first_100_boxes_and_counts_the_rest():
    oval = {"type": "ellipse", "center": [0, 50], "radii": [3, 1], "vertices": 100}
    scene = {"shapes": [{"type": "box", "center": [i * 10, 0], "size": [2, 2]} for i in range(103)] + [oval]}
    with tempfile.TemporaryDirectory() as d:
        write(d, "many.json", scene)
        r = collide("validate", "-v", "many.json", cwd=d)
    big = collide("validate", "-v", "-", stdin=json.dumps({"shapes": [oval]}).encode())
    status(r, 0)
    lines = r.err.splitlines()
    eq(len(lines), 101, "lines")
    eq(lines[0], "collide: many.json: shape '0' (box) is read as rect min [-1, -1] max [1, 1]", "first line")
    eq(lines[99], "collide: many.json: shape '99' (box) is read as rect min [989, -1] max [991, 1]", "line 100")
    eq(lines[100], "collide: many.json: 4 more boxes and ellipses (not shown)", "last line")
    status(big, 0)
    check(big.err.startswith("collide: -: shape '0' (ellipse) is read as polygon of 100 points [[3, 50], ")
          and big.err.endswith(", ... 36 more]\n"), f"an ellipse of 100 points is cut at 64: {big.err[-200:]!r}")


@test
def validate_prints_one_line_per_valid_file():
    r = collide("validate", "samples/spec-example.json", "samples/platformer-lasers.json")
    status(r, 0)
    eq(r.text, "samples/spec-example.json: valid (2 shapes, 1 grid, 1 move, 1 rule)\n"
               "samples/platformer-lasers.json: valid (20 shapes, 1 grid, 4 moves, 3 rules)\n", "stdout")
    eq(r.err, "", "stderr")


@test
def validate_reports_every_bad_file_and_exits_2():
    with tempfile.TemporaryDirectory() as d:
        write(d, "typo.json", {"shapes": [{"type": "point", "att": [0, 0]}]})
        write(d, "broken.json", "{")
        r = collide("validate", "typo.json", str(ROOT / "samples/concave-terrain.json"), "broken.json", cwd=d)
    status(r, 2)
    eq(r.text, f"{ROOT}/samples/concave-terrain.json: valid (15 shapes, 0 grids, 0 moves, 2 rules)\n", "stdout")
    errors = r.err.splitlines()
    eq(len(errors), 2, f"error lines in {r.err!r}")
    check(errors[0].startswith("collide: error: typo.json:1:") and "unknown key 'att'" in errors[0], errors[0])
    check(errors[1].startswith("collide: error: broken.json:1:2: "), errors[1])


@test
def schema_prints_the_scene_schema():
    r = collide("schema")
    status(r, 0)
    eq(json.loads(r.out), json.loads((ROOT / "schemas/scene.schema.json").read_bytes()),
       "collide schema vs schemas/scene.schema.json")


@test
def help_lists_the_subcommands_and_exits_0():
    r = collide("--help")
    status(r, 0)
    for sub in ["check", "validate", "schema"]:
        check(sub in r.text, f"--help does not mention {sub}")
    r = collide("check", "--help")
    status(r, 0)
    for option in ["--format", "--output", "--pairs", "--broadphase", "--no-touch", "--no-points",
                   "--fail-on-collision", "--threads", "--quiet", "--verbose"]:
        check(option in r.text, f"check --help does not mention {option}")


# ---------------------------------------------------------------------------------------
# 7. Encoding

@test
def leading_utf8_bom_is_skipped():
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "bom.json").write_bytes(b"\xef\xbb\xbf" + (ROOT / "samples/spec-example.json").read_bytes())
        r = collide("check", "bom.json", cwd=d)
    status(r, 1)
    expected = (GOLDEN / "spec-example.json").read_bytes().replace(b"samples/spec-example.json", b"bom.json")
    same_bytes(r.out, expected, "report of the file with a BOM")


# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# Pipes, signals and early stops

def dense_scene(n):
    """n unit circles on a tight lattice: every one overlaps its neighbours, so the report
    is long and takes a while to write."""
    side = int(math.sqrt(n)) + 1
    return {"shapes": [circle(f"c{i}", (i % side) * 1.5, (i // side) * 1.5, 1) for i in range(n)]}


@test
def a_closed_pipe_ends_the_program_quietly():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "dense.json", dense_scene(200_000))
        p = subprocess.Popen([BIN, "check", scene, "-f", "jsonl"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        first = p.stdout.readline()
        p.stdout.close()  # as `| head -n 1` does
        err = p.stderr.read().decode("utf-8", "replace")
        code = p.wait(timeout=120)
        check(first.startswith(b'{"type": "collision"'), f"first line {first[:80]!r}")
        eq(code, -signal.SIGPIPE, "exit (killed by SIGPIPE)")
        eq(err, "", "stderr")


@test
def sigterm_while_writing_output_leaves_no_file():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "dense.json", dense_scene(300_000))
        out = Path(d) / "out.json"
        p = subprocess.Popen([BIN, "check", "-v", scene, "-o", str(out)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        line = p.stderr.readline()  # "collide: parse ... ms": the output file is opened next
        check(b"parse" in line, f"verbose first line {line!r}")
        time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        code = p.wait(timeout=120)
        if code == 0:
            raise Failure("the check finished before the signal arrived: make the scene larger")
        eq(code, -signal.SIGTERM, "exit (killed by SIGTERM)")
        eq(sorted(x.name for x in Path(d).iterdir()), ["dense.json"], "files left in the directory")


@test
def max_collisions_stops_early_with_exit_1():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "dense.json", dense_scene(400))
        full = collide("check", scene, "-f", "jsonl")
        status(full, 0)
        cut = collide("check", scene, "-f", "jsonl", "--max-collisions", "10")
        status(cut, 1)
        check("--max-collisions" in cut.err, f"stderr names the option: {cut.err!r}")
        records = jsonl(cut)
        eq([r for r in records if r["type"] == "collision"], [r for r in jsonl(full) if r["type"] == "collision"][:10],
           "the first 10 collisions of the full report")
        eq(records[-1]["collisions"], 10, "summary.collisions")


@test
def a_read_error_part_way_through_a_file_is_exit_2():
    # tests/cli/read_fault.cpp, preloaded, fails the read of *.readfault.json half way.
    check(READ_FAULT, "needs --read-fault PATH (the collide_read_fault module the build makes)")
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "level.readfault.json", dense_scene(2000))
        out = Path(d) / "out.json"
        env = dict(os.environ, LD_PRELOAD=READ_FAULT,
                   ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
        for extra in ([], ["-o", str(out)]):
            proc = subprocess.run([BIN, "check", scene, *extra], capture_output=True, stdin=subprocess.DEVNULL,
                                  env=env, timeout=120)
            err = proc.stderr.decode("utf-8", "replace")
            eq(proc.returncode, 2, f"exit with {extra}")
            check(f"{scene}: cannot read" in err, f"stderr names the file and the failure: {err!r}")
            eq(proc.stdout, b"", "stdout")
            check(not out.exists(), "no output file")
        # The same file read whole (no shim) is a valid scene: the error was the read's.
        status(collide("check", scene, "-f", "jsonl", "--no-points"), 0)


@test
def a_big_file_is_read_while_parsing_and_still_fails_or_rereads_cleanly():
    # A regular file of 8 MiB or more is read in the background while its first part is
    # parsed (with two threads). A read error is still exit 2 with nothing on stdout; a file
    # that another program changes meanwhile (tests/cli/read_fault.cpp) is read again whole,
    # so the error is in what it holds now.
    check(READ_FAULT, "needs --read-fault PATH (the collide_read_fault module the build makes)")
    with tempfile.TemporaryDirectory() as d:
        text = json.dumps(dense_scene(130_000))
        check(len(text) > 8 << 20, f"scene of {len(text)} bytes")
        env = dict(os.environ, LD_PRELOAD=READ_FAULT,
                   ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")

        def run(name, *args):
            path = Path(d) / name
            path.write_text(text)
            proc = subprocess.run([BIN, *args, str(path), "--threads", "2"] if args[0] == "check"
                                  else [BIN, *args, str(path)], capture_output=True,
                                  stdin=subprocess.DEVNULL, env=env, timeout=300)
            return path, proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")

        path, code, out, err = run("big.readfault.json", "check", "-f", "jsonl", "--no-points")
        eq(code, 2, "exit on a read error")
        check(f"{path}: cannot read" in err, f"stderr names the file and the failure: {err!r}")
        eq(out, "", "stdout")
        # The shim appends "[]": read again whole, the text has content after its end.
        path, code, out, err = run("big.grows.json", "validate")
        eq(code, 2, "a file that grew: read again whole, and what was appended is an error")
        check(err.startswith(f"collide: error: {path}:1:{len(text) + 1}: "), f"stderr: {err!r}")
        eq(path.stat().st_size, len(text) + 2, "the shim did append")
        path, code, out, err = run("big.shrinks.json", "validate")
        eq(code, 2, "a file cut short: read again, and its (now broken) text is an error")
        check(err.startswith(f"collide: error: {path}:1:"), f"stderr: {err!r}")
        eq(path.stat().st_size, 1000, "the shim did cut it")

# ---------------------------------------------------------------------------------------
# 8. Write errors, partial output, signals, usage errors and escaping (issue 12, items 1-5)

def run_with_stdout(args, stdout, env=None, preexec_fn=None):
    """Runs collide with its standard output on `stdout` (a file object, or None: closed)."""
    closed = stdout is None
    proc = subprocess.run([BIN, *[str(a) for a in args]], cwd=ROOT, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL if closed else stdout, stderr=subprocess.PIPE,
                          env=env, timeout=300,
                          preexec_fn=(lambda: os.close(1)) if closed else preexec_fn)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


FULL = "collide: error: writing standard output: No space left on device\n"


@test
def a_full_standard_output_is_exit_2_in_every_format_and_subcommand():
    # /dev/full fails every write with ENOSPC, as a full file system does (tried by hand on
    # a 1 MiB tmpfs too: the same message and exit status in every format).
    with open("/dev/full", "wb") as full:
        for fmt in FORMATS:
            eq(run_with_stdout(["check", "-f", fmt, "samples/shmup-bullets.json"], full), (2, FULL), f"check -f {fmt}")
        eq(run_with_stdout(["validate", "samples/shmup-bullets.json"], full), (2, FULL), "validate")
        eq(run_with_stdout(["schema"], full), (2, FULL), "schema")
        eq(run_with_stdout(["--help"], full), (2, FULL), "--help")
        # A report of several MB (held in a temporary file first) fails the same way.
        with tempfile.TemporaryDirectory() as d:
            scene = write(d, "dense.json", dense_scene(60_000))
            eq(run_with_stdout(["check", scene], full), (2, FULL), "check of a big report")


@test
def a_closed_standard_output_is_exit_2():
    bad = "collide: error: writing standard output: Bad file descriptor\n"
    for fmt in FORMATS:
        eq(run_with_stdout(["check", "-f", fmt, "samples/shmup-bullets.json"], None), (2, bad), f"check -f {fmt}")
    eq(run_with_stdout(["validate", "samples/shmup-bullets.json"], None), (2, bad), "validate")
    eq(run_with_stdout(["validate", "-q", "samples/shmup-bullets.json"], None), (0, ""), "validate -q writes nothing")


@test
def output_onto_a_full_device_is_exit_2():
    r = collide("check", "samples/shmup-bullets.json", "-o", "/dev/full")
    bad_input(r)
    eq(r.err, "collide: error: /dev/full: cannot write output: No space left on device\n", "stderr")


@test
def standard_output_into_a_file_that_cannot_grow_is_exit_2():
    # RLIMIT_FSIZE stands in for a full disk without root: writing past it fails (EFBIG,
    # with SIGXFSZ ignored) after part of the report is written.
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "dense.json", dense_scene(5000))
        with open(Path(d) / "out.jsonl", "wb") as out:
            code, err = run_with_stdout(["check", scene, "-f", "jsonl"], out, preexec_fn=limit)
        eq((code, err), (2, "collide: error: writing standard output: File too large\n"), "exit and stderr")
        eq((Path(d) / "out.jsonl").stat().st_size, 100_000, "bytes written up to the limit")


def two_scenes(d, n=400):
    first = write(d, "level1.json", dense_scene(n))
    second = write(d, "level2.json", dense_scene(n))
    return first, second


def failing_second_scene(args, threads="1"):
    """Runs collide with the test hook that makes the check of the second scene run out of
    memory at its first collision (cli/cmd_check.cpp, COLLIDE_TEST_OOM_SCENE)."""
    env = dict(os.environ, COLLIDE_TEST_OOM_SCENE="2")
    proc = subprocess.run([BIN, *[str(a) for a in args], "--threads", threads], capture_output=True,
                          stdin=subprocess.DEVNULL, env=env, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


@hooks_test
def a_failure_after_the_first_scene_leaves_no_partial_json_or_text():
    with tempfile.TemporaryDirectory() as d:
        first, second = two_scenes(d)
        for fmt in ["json", "text"]:
            for threads in ["1", "2"]:
                code, out, err = failing_second_scene(["check", first, second, "-f", fmt], threads)
                eq((code, out, err), (2, b"", f"collide: error: {second}: out of memory\n"),
                   f"-f {fmt} --threads {threads}: exit, stdout, stderr")
        # The same with a first scene whose report outgrows memory (8 MiB) and is held in a
        # temporary file; that file is unlinked at once, so nothing stays behind in TMPDIR.
        big = write(d, "big.json", dense_scene(60_000))
        tmp = Path(d) / "tmp"
        tmp.mkdir()
        env = dict(os.environ, COLLIDE_TEST_OOM_SCENE="2", TMPDIR=str(tmp))
        proc = subprocess.run([BIN, "check", big, second], capture_output=True, stdin=subprocess.DEVNULL,
                              env=env, timeout=300)
        eq((proc.returncode, proc.stdout, proc.stderr.decode()), (2, b"", f"collide: error: {second}: out of memory\n"),
           "big first scene: exit, stdout, stderr")
        eq(list(tmp.iterdir()), [], "files left in TMPDIR")


@hooks_test
def a_failure_cuts_a_json_report_back_out_of_a_regular_file():
    # Into a regular file the report is written straight and cut back to where it began.
    with tempfile.TemporaryDirectory() as d:
        first, second = two_scenes(d, 20_000)
        env = dict(os.environ, COLLIDE_TEST_OOM_SCENE="2")
        report = Path(d) / "report.json"
        for mode, at in [("ab", None), ("r+b", 4)]:
            report.write_bytes(b"before\n")
            with open(report, mode) as out:
                if at is not None:
                    out.seek(at)
                proc = subprocess.run([BIN, "check", first, second, "-f", "json"], stdout=out,
                                      stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, timeout=300)
            eq((proc.returncode, proc.stderr.decode()), (2, f"collide: error: {second}: out of memory\n"), f"{mode}: exit, stderr")
            eq(report.read_bytes(), b"before\n" if at is None else b"before\n"[:at], f"{mode}: the file after the failure")
        # Shared with stderr (`> log 2>&1`), the file keeps the diagnostics and gets no partial report.
        with open(report, "wb") as out:
            proc = subprocess.run([BIN, "check", first, second, "-f", "json"], stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, env=env, timeout=300)
        eq((proc.returncode, report.read_text()), (2, f"collide: error: {second}: out of memory\n"), "2>&1: exit, file")
        # And a report that succeeds is appended as it was.
        report.write_bytes(b"before\n")
        with open(report, "ab") as out:
            eq(subprocess.run([BIN, "check", first], stdout=out, stdin=subprocess.DEVNULL, timeout=300).returncode, 0, "exit")
        same_bytes(report.read_bytes(), b"before\n" + collide("check", first).out, "appended report")


@test
def a_big_json_report_held_in_a_temporary_file_is_the_same_bytes():
    with tempfile.TemporaryDirectory() as d:
        big = write(d, "big.json", dense_scene(60_000))
        tmp = Path(d) / "tmp"
        tmp.mkdir()
        out = Path(d) / "out.json"
        proc = subprocess.run([BIN, "check", big], capture_output=True, stdin=subprocess.DEVNULL,
                              env=dict(os.environ, TMPDIR=str(tmp)), timeout=300)
        eq(proc.returncode, 0, "exit")
        check(len(proc.stdout) > 8 << 20, f"a report beyond what is held in memory: {len(proc.stdout)} bytes")
        status(collide("check", big, "-o", out), 0)
        same_bytes(proc.stdout, out.read_bytes(), "stdout against -o")
        eq(list(tmp.iterdir()), [], "files left in TMPDIR")


@hooks_test
def a_failure_after_the_first_scene_ends_jsonl_and_csv_at_a_record_boundary():
    with tempfile.TemporaryDirectory() as d:
        first, second = two_scenes(d)
        full = collide("check", first, "-f", "jsonl")
        code, out, err = failing_second_scene(["check", first, second, "-f", "jsonl"], "2")
        eq((code, err), (2, f"collide: error: {second}: out of memory\n"), "jsonl: exit and stderr")
        check(out.endswith(b"\n"), "jsonl ends with a whole line")
        records = [json.loads(line) for line in out.decode().splitlines()]
        eq(records, jsonl(full), "jsonl: the first scene whole, with its summary")
        check(all(r["type"] != "summary" or r["scene"] == str(first) for r in records), "no summary of the failed scene")
        code, out, err = failing_second_scene(["check", first, second, "-f", "csv"], "2")
        eq((code, err), (2, f"collide: error: {second}: out of memory\n"), "csv: exit and stderr")
        same_bytes(out, collide("check", first, "-f", "csv").out, "csv: the first scene's rows, whole")


def wait_for_temporary(directory, p):
    """Waits until `collide -o DIR/out.json` has created its temporary (its signal handlers
    are in place then); returns False if the program ended first."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(x.name.startswith("out.json.tmp-") for x in Path(directory).iterdir()):
            return True
        if p.poll() is not None:
            return False
        time.sleep(0.005)
    return False


@test
def every_terminating_signal_removes_the_temporary_output():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "dense.json", dense_scene(300_000))
        out = Path(d) / "out.json"
        for sig in [signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGXFSZ,
                    signal.SIGVTALRM, signal.SIGPROF, signal.SIGRTMIN]:
            p = subprocess.Popen([BIN, "check", scene, "-o", str(out), "--threads", "1"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
            check(wait_for_temporary(d, p), f"{sig.name}: the check finished before the temporary was seen")
            p.send_signal(sig)
            code = p.wait(timeout=120)
            p.stderr.close()
            eq(code, -sig, f"exit (killed by {sig.name})")
            eq(sorted(x.name for x in Path(d).iterdir()), ["dense.json"], f"{sig.name}: files left in the directory")


@test
def ignored_signals_stay_ignored_with_output():
    # As under `nohup` (SIGHUP ignored) or `trap '' INT`: the run goes on and writes the report.
    def ignore():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "dense.json", dense_scene(150_000))
        out = Path(d) / "out.jsonl"
        p = subprocess.Popen([BIN, "check", scene, "-f", "jsonl", "--no-points", "-o", str(out).replace(".jsonl", ".json"),
                              "--threads", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, preexec_fn=ignore)
        check(wait_for_temporary(d, p), "the check finished before the temporary was seen")
        p.send_signal(signal.SIGHUP)
        p.send_signal(signal.SIGINT)
        err = p.stderr.read().decode()
        eq((p.wait(timeout=300), err), (0, ""), "exit and stderr")
        report = (Path(d) / "out.json").read_text().splitlines()
        eq(json.loads(report[-1])["type"], "summary", "the report is whole")


@test
def bad_counts_and_an_empty_output_path_are_usage_errors():
    cases = [
        (["--max-collisions", "-1"], "--max-collisions: '-1' is not a whole number from 0 to 18446744073709551615"),
        (["--max-collisions", "18446744073709551616"],
         "--max-collisions: '18446744073709551616' is not a whole number from 0 to 18446744073709551615"),
        (["--max-collisions", "1.5"], "--max-collisions: '1.5' is not a whole number from 0 to 18446744073709551615"),
        (["--max-collisions", ""], "--max-collisions: '' is not a whole number from 0 to 18446744073709551615"),
        (["--threads", "0"], "--threads: '0' is not a whole number from 1 to 256"),
        (["--threads", "-1"], "--threads: '-1' is not a whole number from 1 to 256"),
        (["--threads", "257"], "--threads: '257' is not a whole number from 1 to 256"),
        (["--threads", "4294967297"], "--threads: '4294967297' is not a whole number from 1 to 256"),
        (["-o", ""], "--output: the path is empty"),
        (["--output", ""], "--output: the path is empty"),
    ]
    for extra, message in cases:
        r = collide("check", "samples/spec-example.json", *extra)
        bad_input(r)
        eq(r.err, f"collide: error: {message}\n", f"stderr for {extra}")
    status(collide("check", "samples/spec-example.json", "--max-collisions", "18446744073709551615"), 1)  # its rule fails


@test
def a_file_name_that_is_not_utf8_gets_u_fffd_in_json_and_csv():
    with tempfile.TemporaryDirectory() as d:
        scene = json.dumps(dense_scene(4)).encode()
        name = os.path.join(os.fsencode(d), b"lev\xffel\xc3.json")
        with open(name, "wb") as f:
            f.write(scene)
        shown = os.fsdecode(os.fsencode(d)) + "/lev\ufffdel\ufffd.json"
        r = collide_bytes(["check", name])
        status(r, 0)
        eq(json.loads(r.out.decode("utf-8"))["scenes"][0]["file"], shown, "json file")
        r = collide_bytes(["check", name, "-f", "jsonl"])
        check(all(rec["scene"] == shown for rec in jsonl(r)), "jsonl scene")
        r = collide_bytes(["check", name, "-f", "csv"])
        check(all(row["scene"] == shown for row in csv_rows(r)), "csv scene")
        r = collide_bytes(["check", name, "-f", "text"])
        check(r.text.startswith(os.fsdecode(os.fsencode(d)) + "/lev\\xffel\\xc3.json: "), f"text: {r.text[:200]!r}")


def collide_bytes(args):
    """collide with arguments that may be bytes (file names that are not UTF-8)."""
    proc = subprocess.run([BIN, *args], cwd=ROOT, capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    return Result([os.fsdecode(a) if isinstance(a, bytes) else a for a in args], proc)


@test
def control_characters_cannot_forge_diagnostics_or_text_lines():
    with tempfile.TemporaryDirectory() as d:
        # A file name with a newline and ESC: one error line, with both spelled out.
        name = Path(d) / "bad\ncollide: error: forged\x1b[31m.json"
        name.write_text("{")
        r = collide("check", name)
        bad_input(r)
        eq(r.err.count("\n"), 1, f"one line: {r.err!r}")
        check(r.err.startswith(f"collide: error: {d}/bad\\ncollide: error: forged\\x1b[31m.json:1:2: "), f"stderr {r.err!r}")
        # Ids and rule names with control characters: escaped on stderr and in text, \u-escaped in JSON.
        evil = "x\ncollide: error: forged\x1b]0;title\x07\u009b"
        scene = write(d, "level.json", {
            "shapes": [circle(evil, 0, 0, 1, groups=["g"]), circle("b\tc", 1, 0, 1, groups=["g"])],
            "rules": [{"name": "r\rule", "pairs": "g:g", "expect": "none"}]})
        r = collide("check", scene, "-f", "text")
        status(r, 1)
        spelled = "x\\ncollide: error: forged\\x1b]0;title\\x07\\u009b"
        eq(r.err, f"collide: rule 'r\\rule' failed: {spelled} × b\\tc ({scene})\n", "stderr")
        check(spelled in r.text and "b\\tc" in r.text and "rule 'r\\rule': FAILED" in r.text, f"text {r.text!r}")
        check(not any(ord(ch) < 0x20 and ch != "\n" or 0x7f <= ord(ch) < 0xa0 for ch in r.text),
              "no control character in the text report")
        r = collide("check", scene, "-f", "jsonl")
        check("\\u001b]0;title\\u0007" in r.text and "\\n" in r.text, f"jsonl escapes {r.text[:300]!r}")
        eq(jsonl(r)[0]["a"], evil, "the id read back")


@test
def a_huge_id_does_not_pad_every_text_line():
    with tempfile.TemporaryDirectory() as d:
        huge = "h" * 1_000_000
        scene = write(d, "level.json", {"shapes": [circle(huge, 0, 0, 1), circle("a", 1, 0, 1),
                                                   circle("b", 50, 0, 1), circle("c", 51, 0, 1)]})
        r = collide("check", scene, "-f", "text")
        status(r, 0)
        lines = r.text.splitlines()
        eq(len(lines), 3, "header and two collisions")
        check(lines[1].startswith(f"  {huge}  a  "), "the huge id written whole")
        # Columns are as wide as the longest id up to 40 characters, then two spaces.
        check(lines[2].startswith("  b" + " " * 41 + "c  overlap"), f"columns: {lines[2]!r}")
        check(len(lines[2]) < 160, f"the other line is not padded to the huge id: {len(lines[2])} chars")



def main_of(doc, tests):
    """The main() of a test file whose only options are --bin and -k: parses them, runs
    `tests` (name, fn) through run_tests, returns the exit status."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    global BIN
    BIN = str(Path(args.bin).resolve())
    return run_tests(tests, args.k)


def run_tests(tests, k, passed=0, failed=0):
    """Runs the (name, fn) tests whose name contains k; prints a line per failure and the
    totals; returns the exit status."""
    for name, fn in tests:
        if k not in name:
            continue
        start = time.monotonic()
        try:
            fn()
            passed += 1
        except Exception as e:  # a crash in a test is a failure of that test
            failed += 1
            detail = f"{type(e).__name__}: {e}" if not isinstance(e, Failure) else str(e)
            print(f"FAIL {name}: {' '.join(detail.split())[:600]}", flush=True)
        if os.environ.get("COLLIDE_TEST_TIMES"):
            print(f"  {time.monotonic() - start:6.2f} s {name}", file=sys.stderr)
    if passed + failed == 0:
        print(f"FAIL -k {k}: no test name contains it")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    global BIN, UPDATE_GOLDEN, BIG_SCENE_SHAPES, BRUTE_BIG, READ_FAULT, TEST_HOOKS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("--update-golden", action="store_true", help="rewrite tests/cli/golden/")
    ap.add_argument("--quick", action="store_true", help="a 20,000-shape random scene instead of 100,000")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    ap.add_argument("--read-fault", default="", help="the collide_read_fault module (tests read errors)")
    ap.add_argument("--test-hooks", action="store_true",
                    help="the binary was built with -DCOLLIDE_TEST_HOOKS=ON (the out-of-memory tests need it)")
    ap.add_argument("--brute-big", action="store_true",
                    help="also compare --broadphase brute on the big random scene (a minute of CPU)")
    args = ap.parse_args()
    BIN = str(Path(args.bin).resolve())
    READ_FAULT = str(Path(args.read_fault).resolve()) if args.read_fault else ""
    TEST_HOOKS = args.test_hooks
    UPDATE_GOLDEN = args.update_golden
    BRUTE_BIG = args.brute_big
    add_test("big_random_scene_same_report_with_" + ("grid_sweep_auto_and_brute" if BRUTE_BIG else "grid_sweep_and_auto"),
             big_random_scene_same_report_with_grid_sweep_and_auto)
    if args.quick:
        BIG_SCENE_SHAPES = 20_000
    if not os.access(BIN, os.X_OK):
        print(f"not an executable: {BIN}")
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    if not SAMPLES:
        print(f"FAIL samples: no {ROOT}/samples/*.json")
        failed += 1
    tests = TESTS
    if not TEST_HOOKS:
        tests = [(name, fn) for name, fn in TESTS if name not in HOOK_TESTS]
        print(f"not run: {len(TESTS) - len(tests)} tests that need a binary built with -DCOLLIDE_TEST_HOOKS=ON "
              "(pass --test-hooks)")
    return run_tests(tests, args.k, passed, failed)


if __name__ == "__main__":
    sys.exit(main())
