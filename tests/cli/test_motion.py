#!/usr/bin/env python3
"""Moves against shapes, distances and clearance, and separation through the real binary
(SPEC §1.3, §1.4, §2.5–§2.7, §3 `--near`, `--separation`, §4).

    python3 tests/cli/test_motion.py --bin build/cli/collide [-k TEXT]

Uses the runner and assertions of test_cli.py. Expected values are worked out here by hand or
with exact rational arithmetic (fractions, and decimal for square roots), never taken from
the program.
"""
import json
import math
import random
import sys
import tempfile
from decimal import Decimal, getcontext
from fractions import Fraction
from pathlib import Path

import test_cli as t
from test_cli import bad_input, check, collide, csv_rows, eq, jsonl, status, write

getcontext().prec = 60
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def report(*args):
    r = collide("check", *args)
    check(r.code in (0, 1), f"collide check {' '.join(map(str, args))}: exit {r.code}: {r.err[:300]}")
    return json.loads(r.out)["scenes"][0]


def moves_by_id(scene_report):
    return {m["id"]: m for m in scene_report["moves"]}


# ---------------------------------------------------------------------------------------
# Moves against shapes (SPEC §2.5)

def box_corners_as_read(sample, shape_id):
    """The corners a box is read as, from `check -v` (SPEC §2.5 gives them; test_cli checks
    them): what follows is exact for those doubles."""
    r = collide("check", "-v", sample)
    for line in r.err.splitlines():
        if f"shape '{shape_id}' (box) is read as polygon of 4 points " in line:
            return [[Fraction(v) for v in p] for p in json.loads(line.split(" points ", 1)[1])]
    raise t.Failure(f"no -v line for {shape_id}")


def lowest_in_slab(poly, x0, x1):
    """The greatest y of a convex polygon over the vertical slab x0 <= x <= x1, exactly."""
    ys = [y for x, y in poly if x0 <= x <= x1]
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        for x in (x0, x1):
            if min(ax, bx) <= x <= max(ax, bx) and ax != bx:
                ys.append(ay + (by - ay) * (x - ax) / (bx - ax))
    return max(ys)


@test
def shmup_frame_bullets_stop_at_the_first_enemy_and_the_destination_check_tunnels():
    sample = "samples/shmup-frame.json"
    r = collide("check", sample)
    status(r, 0)  # every move meets its expectation
    m = moves_by_id(json.loads(r.out)["scenes"][0])
    # A point bolt 500 px in one frame, through a drone 2 px thick (y 300 to 302): it enters the
    # drone's interior at y = 302, after 318 of 500.
    eq(m["laser-bolt"], {"id": "laser-bolt", "allowed": False, "t": 0.636, "stop": [100, 302], "hit": "drone",
                         "passed": True}, "laser-bolt")
    eq(m["laser-bolt-destination-only"]["allowed"], True, "the destination-only check tunnels")
    # A radius-4 ball meets the radius-16 saucer when the centres are 20 apart: y = 320.
    eq((m["plasma-ball"]["t"], m["plasma-ball"]["stop"], m["plasma-ball"]["hit"]), (0.56, [200, 320], "saucer"),
       "plasma-ball")
    # Centres exactly 16 + 4 apart all along: tangent, flush, allowed.
    eq(m["plasma-grazes-lookout"]["allowed"], True, "a ball grazing the lookout")
    # A 4 x 12 missile flying up (y decreasing) into the gunship, a box turned 45 degrees: its
    # top edge (y - 6) meets the gunship's lowest point over x in [398, 402].
    f = lowest_in_slab(box_corners_as_read(sample, "gunship"), Fraction(398), Fraction(402))
    t_missile = (Fraction(600) - 6 - f) / 500
    eq((m["missile"]["t"], m["missile"]["stop"], m["missile"]["hit"]),
       (float(t_missile), [400, float(6 + f)], "gunship"), "missile (t and stop correctly rounded)")
    # A radius-2 shot on x + y = 240 toward the serpent, a capsule of radius 6 around the axis
    # y = x + 130 (perpendicular to the path): it stops 8 short of the axis,
    # t = (370 - 8 sqrt 2) / 480, at (55 + 4 sqrt 2, 185 - 4 sqrt 2).
    r2 = Decimal(2).sqrt()
    eq((m["homing-shot"]["t"], m["homing-shot"]["stop"], m["homing-shot"]["hit"]),
       (float((370 - 8 * r2) / 480), [float(55 + 4 * r2), float(185 - 4 * r2)], "serpent"), "homing-shot")
    # A point crosses a segment's interior; at its end point it only grazes.
    eq((m["shot-behind-shield"]["t"], m["shot-behind-shield"]["stop"], m["shot-behind-shield"]["hit"]),
       (0.36, [200, 420], "shield"), "shot-behind-shield")
    eq(m["shot-past-shield-end"]["allowed"], True, "a point grazing a segment's end")


@test
def moves_against_shapes_in_every_format_carry_hit_and_no_cell():
    sample = "samples/shmup-frame.json"
    moves = report(sample)["moves"]
    eq([{k: v for k, v in rec.items() if k not in ("type", "scene")} for rec in jsonl(collide("check", "-f", "jsonl", sample))
         if rec["type"] == "move"], moves, "JSONL moves vs JSON")
    rows = [row for row in csv_rows(collide("check", "-f", "csv", sample)) if row["type"] == "move"]
    eq([(row["a"], row["allowed"], row["t"] and float(row["t"]), row["hit"], row["cell_col"], row["cell_row"])
        for row in rows],
       [(m["id"], "true" if m["allowed"] else "false", m.get("t", ""), m.get("hit", ""), "", "") for m in moves],
       "CSV move rows vs JSON")
    check(all("cell" not in m for m in moves), "a move that hits a shape has no cell")


@test
def a_body_slides_flush_along_a_wall_and_grazes_a_corner():
    scene = {"shapes": [{"id": "wall", "type": "rect", "min": [-10, 0], "max": [200, 10]},
                        {"id": "pillar", "type": "rect", "min": [300, -100], "max": [310, -50]}],
             "moves": [
                 # a circle whose bottom runs along the wall's top face
                 {"id": "slide", "against": "*", "from": [0, -5], "to": [100, -5], "body": {"type": "circle", "radius": 5}},
                 # a rect body whose bottom face runs along it
                 {"id": "slide-rect", "against": "*", "from": [0, -2], "to": [100, -2], "body": {"type": "rect", "size": [4, 4]}},
                 # a point running along the top face (the rect's boundary, not its interior)
                 {"id": "slide-point", "against": "*", "from": [0, 0], "to": [150, 0]},
                 # a rect body moving right and down (y down) past the pillar's bottom-left corner
                 # (300, -50): its top-right corner (x + 2, y - 2) passes through that corner,
                 # from the pillar's left side to below it
                 {"id": "corner", "against": "*", "from": [290, -56], "to": [320, -26], "body": {"type": "rect", "size": [4, 4]}},
                 # the same, one unit lower: it cuts the corner
                 {"id": "corner-cut", "against": "*", "from": [290, -37], "to": [320, -67], "body": {"type": "rect", "size": [4, 4]}},
                 # a circle pressed into the wall from the start
                 {"id": "stuck", "against": "wall", "from": [50, -4], "to": [60, -20], "body": {"type": "circle", "radius": 5}},
             ]}
    with tempfile.TemporaryDirectory() as d:
        m = moves_by_id(report(write(d, "slide.json", scene)))
    for k in ("slide", "slide-rect", "slide-point", "corner"):
        eq(m[k]["allowed"], True, f"{k}: flush contact does not block")
    # corner-cut: the body's max corner (x + 2, y + 2) reaches the pillar's corner region;
    # its top-right corner (x + 2, y - 2)... the body [x-2, x+2] x [y-2, y+2] meets the open
    # pillar [300, 310] x (-100, -50) once x + 2 > 300 and y - 2 < -50 with y + 2 > -100:
    # x = 290 + 30 t > 298 and y = -37 - 30 t < -48: t > 11/30 (the later of 8/30 and 11/30).
    eq((m["corner-cut"]["t"], m["corner-cut"]["hit"]), (float(Fraction(11, 30)), "pillar"), "corner-cut")
    eq((m["stuck"]["t"], m["stuck"]["stop"], m["stuck"]["hit"]), (0, [50, -4], "wall"), "stuck at the start")


@test
def moves_against_shapes_at_extreme_magnitudes_find_their_obstacle():
    """The cells a move walks hold float boxes rounded outward: shapes beyond the float range
    (1e300) or in its subnormals (1e-44) must not be lost."""
    cases = [
        ({"id": "huge", "type": "rect", "min": [1e300, 0], "max": [2e300, 1]}, {"from": [2, 0.5], "to": [1.5e300, 0.5]}),
        ({"id": "huge", "type": "rect", "min": [-2e300, 0], "max": [-1e300, 1]}, {"from": [-2, 0.5], "to": [-1.5e300, 0.5]}),
        ({"id": "tiny", "type": "rect", "min": [2.1e-44, 0], "max": [3e-44, 1e-44]}, {"from": [2.1005e-44, 5e-45], "to": [2.1005e-44, 5e-45]}),
        ({"id": "tiny", "type": "rect", "min": [2.1e-44, 0], "max": [3e-44, 1e-44]}, {"from": [1.5e-44, 5e-45], "to": [1e-43, 5e-45]}),
    ]
    for obstacle, path in cases:
        scene = {"shapes": [{"id": "small", "type": "rect", "min": [0, 0], "max": [1e-44 if "tiny" == obstacle["id"] else 1] * 2},
                            obstacle],
                 "moves": [dict(path, id="all", against="*"), dict(path, id="alone", against=obstacle["id"])]}
        with tempfile.TemporaryDirectory() as d:
            m = moves_by_id(report(write(d, "far.json", scene)))
        eq(m["all"]["allowed"], False, f"{obstacle} {path}: blocked")
        eq({k: v for k, v in m["all"].items() if k != "id"}, {k: v for k, v in m["alone"].items() if k != "id"},
           f"{obstacle} {path}: against * as against the obstacle alone")


@test
def moves_against_a_grid_report_hit_and_cell_as_grid_moves_do():
    grid = {"id": "maze", "tile_size": 20, "rows": ["#####", "#...#", "#.#.#", "#...#", "#####"], "groups": ["walls"]}
    on_grid = {"id": "on-grid", "grid": "maze", "from": [30, 50], "to": [70, 50], "body": {"type": "circle", "radius": 4}}
    against = dict(on_grid, id="against", against="walls")
    del against["grid"]
    with tempfile.TemporaryDirectory() as d:
        m = moves_by_id(report(write(d, "maze.json", {"grids": [grid], "moves": [on_grid, against]})))
    eq(m["on-grid"], {"id": "on-grid", "allowed": False, "t": 0.15, "stop": [36, 50], "cell": [2, 2]}, "grid move (SPEC §4)")
    eq(m["against"], {"id": "against", "allowed": False, "t": 0.15, "stop": [36, 50], "hit": "maze", "cell": [2, 2]},
       "the same move against the grid's group")


@test
def the_first_obstacle_wins_and_a_tie_goes_to_the_lower_index():
    scene = {"shapes": [{"id": "far", "type": "rect", "min": [50, -5], "max": [60, 5]},
                        {"id": "near-b", "type": "segment", "a": [20, -5], "b": [20, 5]},
                        {"id": "near-a", "type": "circle", "center": [25, 0], "radius": 5}],
             "moves": [{"id": "m", "against": "*", "from": [0, 0], "to": [100, 0]},
                       {"id": "back", "against": "*", "from": [100, 0], "to": [0, 0]}]}
    with tempfile.TemporaryDirectory() as d:
        m = moves_by_id(report(write(d, "tie.json", scene)))
    # Both near-b (a segment at x = 20) and near-a (a circle reaching x = 20) are entered at
    # t = 0.2; near-b has the lower index.
    eq((m["m"]["t"], m["m"]["hit"]), (0.2, "near-b"), "tie")
    eq((m["back"]["t"], m["back"]["stop"], m["back"]["hit"]), (0.4, [60, 0], "far"), "the nearest first")


def random_moves_scene(seed, n_shapes=40, n_moves=30):
    rng = random.Random(seed)
    q = lambda v: round(v * 4) / 4  # quarter units: exact touches happen
    shapes = []
    for k in range(n_shapes):
        x, y = q(rng.uniform(0, 60)), q(rng.uniform(0, 60))
        kind = k % 6
        if kind == 0:
            s = {"type": "circle", "center": [x, y], "radius": q(rng.uniform(0.5, 4))}
        elif kind == 1:
            s = {"type": "rect", "min": [x, y], "max": [x + q(rng.uniform(0, 6)), y + q(rng.uniform(0, 6))]}
        elif kind == 2:
            s = {"type": "segment", "a": [x, y], "b": [q(x + rng.uniform(-6, 6)), q(y + rng.uniform(-6, 6))]}
        elif kind == 3:
            s = {"type": "polygon", "points": [[x, y], [x + 4, y], [x + 4, y + 4], [x + 2, y + 1], [x, y + 4]]}
        elif kind == 4:
            s = {"type": "capsule", "a": [x, y], "b": [q(x + rng.uniform(-6, 6)), y], "radius": q(rng.uniform(0.5, 2))}
        else:
            s = {"type": "point", "at": [x, y]}
        s["id"] = f"s{k}"
        shapes.append(s)
    bodies = [None, {"type": "circle", "radius": 1.5}, {"type": "rect", "size": [2, 3]}]
    moves = []
    for k in range(n_moves):
        m = {"id": f"m{k}", "against": "*", "from": [q(rng.uniform(0, 60)), q(rng.uniform(0, 60))],
             "to": [q(rng.uniform(0, 60)), q(rng.uniform(0, 60))]}
        if bodies[k % 3]:
            m["body"] = bodies[k % 3]
        moves.append(m)
    return {"shapes": shapes, "moves": moves}


@test
def a_move_against_everything_stops_at_the_earliest_of_its_moves_against_each_shape():
    """The broad phase must not lose an obstacle: the move against `*` equals the first of the
    same move against each shape alone (by id), earliest t, ties to the lower index."""
    for seed in (1, 2, 3):
        scene = random_moves_scene(seed)
        singles = [dict(m, id=f"{m['id']}@{s['id']}", against=s["id"]) for m in scene["moves"] for s in scene["shapes"]]
        with tempfile.TemporaryDirectory() as d:
            together = moves_by_id(report(write(d, "all.json", scene)))
            alone = moves_by_id(report(write(d, "one.json", dict(scene, moves=singles))))
        blocked = 0
        for m in scene["moves"]:
            hits = [(alone[f"{m['id']}@{s['id']}"]["t"], k, s["id"]) for k, s in enumerate(scene["shapes"])
                    if not alone[f"{m['id']}@{s['id']}"]["allowed"]]
            got = together[m["id"]]
            if not hits:
                eq(got["allowed"], True, f"seed {seed} {m['id']}: blocked by nothing alone")
                continue
            blocked += 1
            t_min = min(h[0] for h in hits)
            first = min(h for h in hits if h[0] == t_min)
            eq((got["t"], got["hit"]), (first[0], first[2]), f"seed {seed} {m['id']}")
            eq(got["stop"], alone[f"{m['id']}@{first[2]}"]["stop"], f"seed {seed} {m['id']} stop")
        check(blocked >= 5, f"seed {seed}: only {blocked} moves blocked; the test needs more")


# ---------------------------------------------------------------------------------------
# Distance, near pairs and clearance (SPEC §1.4, §2.6)

@test
def near_pairs_of_the_coins_sample_with_their_distances():
    r = collide("check", "--pairs", "coins:solid", "--near", "16", "samples/platformer-coins.json")
    status(r, 0)
    scene = json.loads(r.out)["scenes"][0]
    eq(scene["collisions"], [], "no coin touches the level")
    # Radius-6 coins: 200 - 184 - 6 above the floor; 120 - 98 - 6 above the ledge (exactly 16:
    # "at most D" includes it); 150 - 136 - 6 under it; 20 - 6 from the ramp's slope (the
    # centre (260, 160) is 20 from the line through (240, 200) and (320, 140)).
    eq(scene["near"], [{"a": "coin-floor", "b": "floor", "distance": 10},
                       {"a": "coin-on-ledge", "b": "ledge", "distance": 16},
                       {"a": "coin-under-ledge", "b": "ledge", "distance": 8},
                       {"a": "coin-by-ramp", "b": "ramp", "distance": 14}], "near records")
    eq(scene["summary"]["near"], 4, "summary.near")
    records = jsonl(collide("check", "--pairs", "coins:solid", "--near", "16", "-f", "jsonl", "samples/platformer-coins.json"))
    eq([{k: v for k, v in x.items() if k not in ("type", "scene")} for x in records if x["type"] == "near"],
       scene["near"], "JSONL near records")
    rows = csv_rows(collide("check", "--pairs", "coins:solid", "--near", "16", "-f", "csv", "samples/platformer-coins.json"))
    eq([(x["a"], x["b"], float(x["distance"])) for x in rows if x["type"] == "near"],
       [(n["a"], n["b"], n["distance"]) for n in scene["near"]], "CSV near rows")
    without = report("--pairs", "coins:solid", "samples/platformer-coins.json")
    check("near" not in without and "near" not in without["summary"], "no near list or count without --near")


@test
def clearance_exactly_equal_to_the_distance_passes_and_a_larger_one_fails():
    status(collide("check", "samples/platformer-coins.json"), 0)  # coin-under-ledge is exactly 8 from the ledge
    with tempfile.TemporaryDirectory() as d:
        rules = write(d, "rules.json", {"rules": [
            {"name": "8.5 from the level", "pairs": "coins:solid", "expect": "none", "clearance": 8.5},
            {"name": "every coin within 12 of the level", "pairs": "coins:solid", "expect": "each", "clearance": 12}]})
        r = collide("check", "--rules", rules, "samples/platformer-coins.json")
    status(r, 1)
    rules = {x["name"]: x for x in json.loads(r.out)["scenes"][0]["rules"]}
    eq(rules["8.5 from the level"]["violations"], [{"a": "coin-under-ledge", "b": "ledge", "distance": 8}],
       "the one coin closer than 8.5")
    # within 12: coin-floor (10), coin-under-ledge (8); not coin-on-ledge (16), coin-by-ramp
    # (14) or coin-over-spikes (34 from the floor)
    eq(rules["every coin within 12 of the level"]["violations"],
       [{"a": "coin-on-ledge"}, {"a": "coin-by-ramp"}, {"a": "coin-over-spikes"}], "coins farther than 12")


@test
def clearance_counts_colliding_and_touching_pairs_at_distance_0():
    scene = {"shapes": [circle("coin", 0, 0, 1, groups=["coins"]), {"id": "wall", "type": "rect", "min": [1, -5], "max": [3, 5]},
                        circle("coin-in", 2, 0, 1, groups=["coins"])],
             "pairs": ["coins:coins"],
             "rules": [{"name": "clear", "pairs": "coins:*", "expect": "none", "clearance": 0.5, "touching": "ignored"}]}
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "touch.json", scene)
        for extra in ([], ["--no-touch"]):
            rule = report(*extra, path)["rules"][0]
            # by a, then b, in scene order (coin 0, wall 1, coin-in 2); sides as reported, else
            # as the rule orients them
            eq(rule["violations"], [{"a": "coin", "b": "wall", "distance": 0}, {"a": "coin", "b": "coin-in", "distance": 0},
                                    {"a": "coin-in", "b": "wall", "distance": 0}], f"violations {extra}")


def circle(id, x, y, r, **extra):
    return {"id": id, "type": "circle", "center": [x, y], "radius": r, **extra}


@test
def distance_to_a_grid_is_to_its_nearest_solid_cell_or_its_solid_outside():
    grid = {"id": "g", "tile_size": 10, "rows": ["#...."], "outside": "empty"}
    scene = {"shapes": [circle("c", 25, 5, 2)], "grids": [grid]}
    with tempfile.TemporaryDirectory() as d:
        empty = report("--near", "20", write(d, "empty.json", scene))
        solid = report("--near", "20", write(d, "solid.json", dict(scene, grids=[dict(grid, outside="solid")])))
    eq(empty["near"], [{"a": "c", "b": "g", "distance": 13}], "to cell [0, 0]: 25 - 10 - 2")
    eq(solid["near"], [{"a": "c", "b": "g", "distance": 3}], "to the solid outside: 5 - 2 above and below")


@test
def a_shape_flush_against_a_solid_cell_is_near_at_distance_0_and_a_touch_is_never_near():
    # SPEC §2.6: flush is no collision with a grid (§2.4) but distance 0; under --no-touch a
    # touching pair is in neither collisions nor near.
    scene = {"shapes": [{"id": "flush", "type": "rect", "min": [10, 0], "max": [14, 4]},
                        {"id": "a", "type": "rect", "min": [30, 0], "max": [32, 2]},
                        {"id": "b", "type": "rect", "min": [32, 0], "max": [34, 2]}],
             "grids": [{"id": "g", "tile_size": 10, "rows": ["#...."], "outside": "empty"}],
             "pairs": ["flush:g", "a:b"]}
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "flush.json", scene)
        for extra in ([], ["--no-touch"]):
            r = report("--near", "1", *extra, path)
            eq(r["near"], [{"a": "flush", "b": "g", "distance": 0}], f"near {extra}")
            eq([(c["a"], c["b"], c["relation"]) for c in r["collisions"]], [] if extra else [("a", "b", "touch")],
               f"collisions {extra}")


@test
def a_shared_arc_gives_its_two_end_points():
    # SPEC §2.3: the circle is the capsule's left cap; they share the half circle x <= 0,
    # whose ends are (0, -1) and (0, 1). Two identical circles share a whole circle: no points.
    scene = {"shapes": [circle("disk", 0, 0, 1), {"id": "pill", "type": "capsule", "a": [0, 0], "b": [5, 0], "radius": 1},
                        circle("twin", 0, 0, 1)],
             "pairs": ["disk:pill", "disk:twin"]}
    with tempfile.TemporaryDirectory() as d:
        r = report(write(d, "arc.json", scene))
    eq(r["collisions"], [{"a": "disk", "b": "pill", "relation": "within", "points": [[0, -1], [0, 1]]},
                         {"a": "disk", "b": "twin", "relation": "equal", "points": []}], "collisions")


@test
def near_pairs_are_the_same_for_every_broadphase_and_thread_count():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "random.json", t.random_scene(3000, 7))
        runs = [collide("check", "-f", "jsonl", "--near", "1.5", "--broadphase", bp, "--threads", th, scene, cwd=d)
                for bp, th in (("brute", "1"), ("grid", "1"), ("sweep", "2"), ("auto", "2"))]
    for r in runs:
        status(r, 0)
        t.same_bytes(r.out, runs[0].out, "report with --near vs --broadphase brute")
    near = sum(1 for x in jsonl(runs[0]) if x["type"] == "near")
    check(near > 500, f"the random scene should have many near pairs; got {near}")


@test
def many_near_pairs_stream_through_a_temporary_file_in_every_format():
    # 700 unit circles 10 apart in a row: every pair is near (245,350 records, megabytes of
    # them, more than the writer holds in memory), at distance 10 |i - j| - 2, in pair order.
    n = 700
    scene = {"shapes": [{"id": f"c{i}", "type": "circle", "center": [10 * i, 0], "radius": 1} for i in range(n)]}
    expected = [(f"c{i}", f"c{j}", 10 * (j - i) - 2) for i in range(n) for j in range(i + 1, n)]
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "row.json", scene)
        r = collide("check", "--near", "1e9", path)
        status(r, 0)
        doc = json.loads(r.out)["scenes"][0]
        eq([(x["a"], x["b"], x["distance"]) for x in doc["near"]] == expected, True, "JSON near records")
        eq(doc["summary"]["near"], len(expected), "summary.near")
        lines = jsonl(collide("check", "--near", "1e9", "-f", "jsonl", path))
        eq([(x["a"], x["b"], x["distance"]) for x in lines if x["type"] == "near"] == expected, True, "JSONL near records")
        eq(lines[-1]["type"], "summary", "the summary last, after every near record")
        rows = csv_rows(collide("check", "--near", "1e9", "-f", "csv", path))
        eq([(x["a"], x["b"], int(x["distance"])) for x in rows if x["type"] == "near"] == expected, True, "CSV near rows")
        text = collide("check", "--near", "1e9", "-f", "text", path).text.splitlines()
        eq(text[1], "  near c0 and c1: distance 8", "text: the first near line")
        eq(len([x for x in text if x.startswith("  near ")]), len(expected), "text near lines")
        # Nowhere to spool them: exit 2, the reason, and no partial report.
        bad = collide("check", "--near", "1e9", path, env={"TMPDIR": str(Path(d) / "missing")})
        status(bad, 2)
        check("temporary file" in bad.err and "missing" in bad.err, f"names the folder: {bad.err!r}")
        eq(bad.out, b"", "nothing on stdout")


def sided_scene(seed):
    """Random shapes in groups red, blue and green (some in two), a compound spread wide (its
    parts are indexed apart), a line, and two grids (one with a solid outside): every kind of
    object the broad phase holds, near each other and apart."""
    rng = random.Random(seed)
    q = lambda v: round(v * 4) / 4
    shapes = []
    for k in range(160):
        x, y = q(rng.uniform(0, 80)), q(rng.uniform(0, 80))
        kind = k % 4
        if kind == 0:
            s = {"type": "circle", "center": [x, y], "radius": q(rng.uniform(0.5, 3))}
        elif kind == 1:
            s = {"type": "rect", "min": [x, y], "max": [x + q(rng.uniform(0, 5)), y + q(rng.uniform(0, 5))]}
        elif kind == 2:
            s = {"type": "segment", "a": [x, y], "b": [q(x + rng.uniform(-5, 5)), q(y + rng.uniform(-5, 5))]}
        else:
            s = {"type": "point", "at": [x, y]}
        s["id"] = f"s{k}"
        s["groups"] = rng.choice([["red"], ["blue"], ["green"], ["red", "blue"], ["blue", "green"]])
        shapes.append(s)
    shapes.append({"id": "wide", "type": "compound", "groups": ["red"],
                   "parts": [{"type": "circle", "center": [5, 5], "radius": 1}, {"type": "circle", "center": [75, 75], "radius": 1}]})
    shapes.append({"id": "beam", "type": "line", "a": [0, 40], "b": [80, 42], "groups": ["green"]})
    rows = ["".join(rng.choice("..#") for _ in range(16)) for _ in range(16)]
    grids = [{"id": "gblue", "tile_size": 5, "rows": rows, "outside": "empty", "groups": ["blue"]},
             {"id": "gred", "tile_size": 8, "origin": [20, 20], "rows": ["....", ".#..", "....", "...#"], "groups": ["red"]}]
    return {"shapes": shapes, "grids": grids}


@test
def near_pairs_of_narrow_specs_are_those_of_star_star_on_the_same_objects():
    # With a reach, specs whose sides differ find their candidates from the left side into an
    # index of the right side (two-sided); `*:*` pairs everything with everything. The pairs a
    # spec selects must come out the same either way, with the same relations and distances.
    flip = {"contains": "within", "within": "contains"}
    def pairs(records, kind):  # by the unordered pair; the relation as seen from the lesser id
        return {frozenset((r["a"], r["b"])): (r.get("relation") if r["a"] < r["b"] else flip.get(r.get("relation"), r.get("relation")),
                                               r.get("distance"))
                for r in records if r["type"] == kind}
    with tempfile.TemporaryDirectory() as d:
        for seed in (1, 2):
            scene = sided_scene(seed)
            members = {o["id"]: set(o.get("groups", [])) | {o["id"]} for o in scene["shapes"] + scene["grids"]}
            path = write(d, f"sided{seed}.json", scene)
            every = jsonl(collide("check", "-f", "jsonl", "--near", "6", "--pairs", "*:*", path, cwd=d))
            for specs in (["red:blue"], ["blue:red"], ["red:gblue"], ["gred:blue"], ["s3:*"], ["green:red", "red:red"]):
                args = [a for spec in specs for a in ("--pairs", spec)]
                narrow = jsonl(collide("check", "-f", "jsonl", "--near", "6", *args, path, cwd=d))
                def selected(pair):
                    x, y = tuple(pair)
                    return any((l in members[x] or l == "*") and (r in members[y] or r == "*") or
                               (l in members[y] or l == "*") and (r in members[x] or r == "*")
                               for l, r in (spec.split(":") for spec in specs))
                for kind in ("collision", "near"):
                    want = {p: v for p, v in pairs(every, kind).items() if selected(p)}
                    eq(pairs(narrow, kind), want, f"seed {seed}, {specs}: {kind} records")
            # A clearance rule alone (no report spec selects its pairs): its violations are the
            # pairs of `*:*` closer than its clearance.
            rule_scene = dict(scene, pairs=[], rules=[{"name": "apart", "pairs": "green:blue", "expect": "none", "clearance": 3}])
            rule = jsonl(collide("check", "-f", "jsonl", write(d, f"rule{seed}.json", rule_scene), cwd=d))
            got = {frozenset((v["a"], v["b"])) for r in rule if r["type"] == "rule" for v in r["violations"]}
            # The same rule beside the default *:* pairs: the collisions are those of *:*, the
            # violations the same.
            both_scene = dict(scene, rules=rule_scene["rules"])
            both = jsonl(collide("check", "-f", "jsonl", write(d, f"both{seed}.json", both_scene), cwd=d))
            eq({frozenset((v["a"], v["b"])) for r in both if r["type"] == "rule" for v in r["violations"]}, got,
               f"seed {seed}: the rule's violations beside *:*")
            eq(pairs(both, "collision"), pairs(every, "collision"), f"seed {seed}: collisions beside the rule")
            green_blue = lambda p: any("green" in members[x] and "blue" in members[y] for x, y in (tuple(p), tuple(p)[::-1]))
            close = {p for p, (_, dist) in {**pairs(every, "near"), **pairs(every, "collision")}.items()
                     if (dist is None or dist < 3) and green_blue(p)}  # a collision is at distance 0
            check(len(close) > 10, f"seed {seed}: the scene should have green-blue pairs closer than 3")
            eq(got, close, f"seed {seed}: the clearance rule's violations")


# ---------------------------------------------------------------------------------------
# Separation (SPEC §2.7)

@test
def crates_sample_separations():
    sample = "samples/crates.json"
    scene = report("--separation", sample)
    got = {(c["a"], c["b"]): c.get("separation") for c in scene["collisions"]}
    # The scene pairs static:crates, so b is the crate, moved by depth * normal (y down: -y is up).
    up = [0, -1]
    expected = {("floor", "crate-sunk"): (up, 0.75),     # 100.75 - 100
                ("floor", "crate-in-wall"): (up, 0),      # resting on the floor: touch
                ("floor", "barrel"): (up, 0),             # radius 12 at y 88: touch
                ("wall", "crate-in-wall"): ([-1, 0], 4),  # 204 - 200
                ("crate-sunk", "crate-stacked"): (up, 0.25),  # 69 - 68.75
                ("barrel", "crate-on-barrel"): (up, 0)}   # on top of the barrel: touch
    for pair, (normal, depth) in expected.items():
        eq(got.get(pair), {"normal": normal, "depth": depth}, f"separation of {pair}")
    # The tilted crate (a box, 30 degrees) sinks into the floor by its lowest corner.
    corners = box_corners_as_read(sample, "crate-tilted")
    sep = got[("floor", "crate-tilted")]
    eq(sep["normal"], up, "tilted crate normal")
    depth = float(max(y for _, y in corners) - 100)
    check(abs(sep["depth"] - depth) <= 1e-12 * 120, f"tilted crate depth {sep['depth']} vs {depth}")
    eq(len(got), 7, "collisions of the crates sample")
    rows = csv_rows(collide("check", "--separation", "-f", "csv", sample))
    eq([(x["a"], x["b"], [float(v) for v in x["normal"].split()], float(x["depth"])) for x in rows],
       [(c["a"], c["b"], c["separation"]["normal"], c["separation"]["depth"]) for c in scene["collisions"]],
       "CSV normal and depth columns")
    check(all("separation" not in c for c in report(sample)["collisions"]), "no separation without --separation")


@test
def separation_of_two_unit_squares_overlapping_by_a_quarter():
    scene = {"shapes": [{"id": "a", "type": "rect", "min": [0, 0], "max": [1, 1]},
                        {"id": "b", "type": "rect", "min": [0.75, 0], "max": [1.75, 1]},
                        {"id": "line", "type": "line", "a": [0, 0.5], "b": [1, 0.5]}],
             "pairs": ["a:b", "a:line"]}
    with tempfile.TemporaryDirectory() as d:
        got = report("--separation", write(d, "squares.json", scene))["collisions"]
    eq(got[0]["separation"], {"normal": [1, 0], "depth": 0.25}, "squares")
    check("separation" not in got[1], "a line is not convex: no separation")


# ---------------------------------------------------------------------------------------
# Bad input: exit 2, a message naming the file, the JSON path and line:column

@test
def a_move_with_both_grid_and_against_or_neither_is_exit_2():
    with tempfile.TemporaryDirectory() as d:
        both = write(d, "both.json", '{"grids": [{"id": "g", "tile_size": 1, "rows": ["#"]}],\n "moves": [{"grid": "g", "against": "*", "from": [0, 0], "to": [1, 1]}]}')
        r = collide("check", both)
        bad_input(r)
        eq(r.err, f"collide: error: {both}:2:12: /moves/0: a move has either 'grid' or 'against', not both\n", "both")
        neither = write(d, "neither.json", '{"moves": [{"from": [0, 0], "to": [1, 1]}]}')
        r = collide("check", neither)
        bad_input(r)
        eq(r.err, f"collide: error: {neither}:1:12: /moves/0: missing required key 'grid' "
                  "(or 'against': a selector of shapes and grids)\n", "neither")


@test
def a_clearance_that_is_not_positive_is_exit_2():
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "zero.json", '{"rules": [{"name": "r", "pairs": "*:*", "expect": "none",\n "clearance": 0}]}')
        r = collide("check", path)
        bad_input(r)
        eq(r.err, f"collide: error: {path}:2:15: /rules/0/clearance: clearance must be > 0, got 0\n", "stderr")


@test
def near_must_be_a_finite_distance():
    for bad in ("-1", "abc", "inf", "nan", "", "1e999", "0x10", " 1", "1e-400", "+1"):
        r = collide("check", "--near", bad, "samples/crates.json")
        bad_input(r)
        eq(r.err, f"collide: error: --near: '{bad}' is not a finite distance >= 0\n", f"--near {bad!r}")


@test
def against_a_selector_that_selects_nothing_warns_and_allows():
    scene = {"shapes": [circle("c", 0, 0, 1)], "moves": [{"id": "m", "against": "ghosts", "from": [-5, 0], "to": [5, 0]}]}
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "ghosts.json", scene)
        r = collide("check", path)
    status(r, 0)
    eq(json.loads(r.out)["scenes"][0]["moves"], [{"id": "m", "allowed": True}], "the move")
    eq(r.err, f"collide: warning: {path}: selector 'ghosts' selects nothing\n", "stderr")


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
