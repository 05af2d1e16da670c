#!/usr/bin/env python3
"""Every point, move `t` and `stop` that `collide check` writes is the exact value correctly
rounded to the nearest double, ties to even (SPEC §2.3, §2.4); an integral value below 2^53 is
written without an exponent (SPEC §4).

    python3 tests/cli/test_exact_points.py --bin build/cli/collide [--corpus DIR]... [-k TEXT]

"Correctly rounded" means: take the true crossing of the two outlines (a rational number,
or one with square roots when a circle or a capsule is involved), and write the double
nearest to it; when it lies exactly half way between two doubles, the one whose last mantissa
bit is 0. Not "close to", not "what a careful formula gives": one answer, bit for bit. The
expectations come from exact_reference.py (Fractions and exact square roots, written from
SPEC only); the scenes are random but seeded, and chosen near the cases where floating point
goes wrong: crossings at tiny angles, nearly parallel or collinear pieces, near-tangent
circles, small shapes far from the origin, and crossings that fall exactly on a tie.

--corpus DIR  also check the reference itself against a conformance corpus (expected reports
              whose points are correctly rounded): it must reproduce every point and move.
"""
import argparse
import json
import math
import random
import re
import sys
import tempfile
from collections import Counter
from decimal import Decimal, getcontext
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import exact_reference as X
import test_cli as t
from test_cli import check, collide, eq, write

ROOT = t.ROOT
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def hexes(points):
    return [(float(x).hex(), float(y).hex()) for x, y in points]


# ---------------------------------------------------------------------------------------
# 1. The reference, checked where an independent answer exists


@test
def reference_rounds_a_fraction_as_python_float_does():
    # CPython's int / int (hence float(Fraction)) is correctly rounded, ties to even.
    rng = random.Random(1)
    for _ in range(3000):
        q = Fraction(rng.randrange(-10**30, 10**30), rng.randrange(1, 10**rng.randrange(1, 40)))
        eq(X.round_to_double(q).hex(), float(q).hex(), f"rounding {q}")


@test
def reference_ties_go_to_the_even_neighbour():
    two53 = 2**53
    cases = [
        (Fraction(two53 + 1), float(two53)),              # 2^53 and 2^53 + 2: 2^53 is even
        (Fraction(two53 + 3), float(two53 + 4)),          # 2^53 + 2 is odd, 2^53 + 4 even
        (1 + Fraction(1, 2**53), 1.0),
        (1 + Fraction(3, 2**53), 1 + 2.0**-51),
        (-1 - Fraction(3, 2**53), -(1 + 2.0**-51)),
        (Fraction(1, 2**1075), 0.0),                      # half the least subnormal
        (Fraction(3, 2**1075), 2.0**-1073),
        (Fraction(1, 10), 0.1),
    ]
    for exact, want in cases:
        eq(X.round_to_double(exact).hex(), want.hex(), f"rounding {exact}")


@test
def reference_square_roots_agree_with_ieee_sqrt():
    # IEEE 754 sqrt is correctly rounded, so math.sqrt is an independent answer.
    rng = random.Random(2)
    for _ in range(2000):
        x = rng.choice([rng.uniform(0, 1e-6), rng.uniform(0, 10), rng.uniform(1e12, 1e18)])
        eq(X.round_to_double(X.sqrt(Fraction(x))).hex(), math.sqrt(x).hex(), f"sqrt({x!r})")
    # A root inside a root: sqrt(5 + 2 sqrt 6) is sqrt 2 + sqrt 3, exactly.
    nested = X.sqrt(X.add(Fraction(5), X.mul(Fraction(2), X.sqrt(Fraction(6)))))
    eq(X.cmp(nested, X.add(X.sqrt(Fraction(2)), X.sqrt(Fraction(3)))), 0, "sqrt(5 + 2 sqrt 6) - sqrt 2 - sqrt 3")
    check(X.cmp(nested, X.add(X.sqrt(Fraction(2)), X.sqrt(Fraction(3) + Fraction(1, 10**30)))) < 0,
          "sqrt(5 + 2 sqrt 6) < sqrt 2 + sqrt(3 + 1e-30)")


def to_decimal(x):
    """x to 100 digits: a + b*sqrt(d) read as it is written, with none of the reference's
    arithmetic."""
    if isinstance(x, X.Root):
        return to_decimal(x.a) + to_decimal(x.b) * to_decimal(x.d).sqrt()
    return Decimal(x.numerator) / Decimal(x.denominator)


@test
def reference_arithmetic_and_signs_agree_with_100_digit_decimals():
    rng = random.Random(3)
    getcontext().prec = 100

    def number(level):
        q = Fraction(rng.randrange(-10**6, 10**6), rng.randrange(1, 10**6))
        if level == 0:
            return q
        x, y = number(level - 1), number(level - 1)
        choice = rng.randrange(4)
        if choice == 0:
            return X.add(x, X.mul(q, X.sqrt(abs(q) + rng.randrange(0, 50))))
        if choice == 1:  # a root inside a root, the radicand kept positive
            return X.add(q, X.sqrt(X.add(Fraction(10**6), X.mul(x, Fraction(1, 10**7)))))
        return X.add(x, y) if choice == 2 else X.mul(x, y)

    agreed = 0
    for _ in range(400):
        x, y = number(rng.randrange(1, 3)), number(rng.randrange(1, 3))
        for value, exact in [(to_decimal(x) + to_decimal(y), X.add(x, y)),
                             (to_decimal(x) * to_decimal(y), X.mul(x, y)),
                             (to_decimal(x) - to_decimal(y), X.sub(x, y))]:
            scale = abs(to_decimal(x)) + abs(to_decimal(y)) + 1
            check(abs(to_decimal(exact) - value) <= scale * Decimal(10) ** -80, f"arithmetic on {x} and {y}")
            if abs(value) > scale * Decimal(10) ** -80:
                eq(X.sign(exact), 1 if value > 0 else -1, f"sign of {exact}")
                eq(X.round_to_double(exact), float(value), f"rounding {exact}")  # not near a tie
                agreed += 1
    # Values equal but written differently: sqrt(8) - 2 sqrt(2), (1 + sqrt 3)^2 - 4 - 2 sqrt 3.
    eq(X.sign(X.sub(X.sqrt(Fraction(8)), X.mul(Fraction(2), X.sqrt(Fraction(2))))), 0, "sqrt 8 - 2 sqrt 2")
    s3 = X.add(Fraction(1), X.sqrt(Fraction(3)))
    eq(X.sign(X.sub(X.mul(s3, s3), X.add(Fraction(4), X.mul(Fraction(2), X.sqrt(Fraction(3)))))), 0, "(1 + sqrt 3)^2")
    check(agreed > 1000, f"only {agreed} signs compared")


def distance_to_segment(p, a, b):
    """In 100-digit decimals, from the plain definition (closest point of the segment)."""
    ax, ay, bx, by = (Decimal(v) for v in (*a, *b))
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    s = max(Decimal(0), min(Decimal(1), ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2)) if length2 else 0
    return ((ax + s * dx - p[0]) ** 2 + (ay + s * dy - p[1]) ** 2).sqrt()


def off_outline(p, shape):
    """How far p is from the outline of a capsule, circle, segment or rect (min/max form)."""
    if shape["type"] == "capsule":
        return abs(distance_to_segment(p, shape["a"], shape["b"]) - Decimal(shape["radius"]))
    if shape["type"] == "circle":
        return abs(distance_to_segment(p, shape["center"], shape["center"]) - Decimal(shape["radius"]))
    if shape["type"] == "segment":
        return distance_to_segment(p, shape["a"], shape["b"])
    (x0, y0), (x1, y1) = shape["min"], shape["max"]
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return min(distance_to_segment(p, corners[i], corners[i - 1]) for i in range(4))


@test
def reference_capsule_points_lie_on_both_outlines():
    """The capsule scenes of section 2: every exact point the reference finds (roots inside
    roots) is on both outlines to 90 digits, by distances computed from the definition."""
    getcontext().prec = 100
    rng, points = random.Random(15), 0
    for _ in range(40):
        for a, b in combinations(capsules(rng), 2):
            for p in X.exact_points(a, b):
                q = (to_decimal(p[0]), to_decimal(p[1]))
                scale = abs(q[0]) + abs(q[1]) + 1
                for shape in (a, b):
                    check(off_outline(q, shape) <= scale * Decimal(10) ** -90, f"{q} off {json.dumps(shape)}")
                points += 1
    check(points > 300, f"only {points} points")


def shape_index(scene):
    return {s.get("id", str(i)): s for i, s in enumerate(scene.get("shapes", []))}


def corpus_test(directory):
    def run():
        cases = sorted(Path(directory).glob("*.scene.json"))
        check(cases, f"no *.scene.json in {directory}")
        compared, wrong = Counter(), []
        for path in cases:
            scene = json.loads(path.read_text())
            expected = json.loads(path.with_name(path.name.replace(".scene.", ".expected.")).read_text())
            shapes, grids = shape_index(scene), {g["id"]: g for g in scene.get("grids", [])}
            for report in expected["scenes"]:
                for c in report["collisions"]:
                    if "points" in c and c["b"] in shapes:
                        compared["points"] += 1
                        got = X.rounded_points(shapes[c["a"]], shapes[c["b"]])
                        if hexes(got) != hexes(c["points"]):
                            wrong.append(f"{path.name} {c['a']}×{c['b']}: {hexes(got)} vs {hexes(c['points'])}")
                y_up = scene.get("settings", {}).get("y_axis") == "up"
                for n, (move, record) in enumerate(zip(scene.get("moves", []), report["moves"])):
                    if "grid" in move and move.get("check", "path") == "path" and \
                            move.get("body", {"type": "point"})["type"] in ("point", "rect"):
                        compared["moves"] += 1
                        got = hex_record(move_record(grids[move["grid"]], move, y_up))
                        want = hex_record(record)
                        if got != want:
                            wrong.append(f"{path.name} move {n}: {got} vs {want}")
        print(f"  {directory}: {compared['points']} point lists and {compared['moves']} moves compared, "
              f"{len(wrong)} differ")
        check(compared["points"] > 100, f"only {compared['points']} point lists compared")
        eq(wrong, [], "the reference vs the corpus")
    return run


# ---------------------------------------------------------------------------------------
# 2. Random near-degenerate scenes through the binary


def kind(a, b):
    return "/".join(sorted([a["type"], b["type"]]))


def run_scenes(scenes):
    """The JSON report of each scene, from one run of collide over all of them."""
    with tempfile.TemporaryDirectory() as d:
        paths = [write(d, f"{n:04}.json", scene) for n, scene in enumerate(scenes)]
        r = collide("check", "-f", "json", *paths)
        check(r.code in (0, 1), f"exit status {r.code}: {r.err[:300]}")
        return json.loads(r.out)["scenes"]


def assert_points(scenes, least_pairs=1):
    """Every pair of shapes of every scene: the binary's points are the reference's, bit for
    bit; a pair whose outlines meet is reported. Prints the number of differing pairs by kind."""
    pairs, wrong, first = Counter(), Counter(), {}
    for scene, report in zip(scenes, run_scenes(scenes)):
        records = {(c["a"], c["b"]): c for c in report["collisions"]}
        for a, b in combinations(scene["shapes"], 2):
            want = hexes(X.rounded_points(a, b))
            record = records.get((a["id"], b["id"]))
            if record is None and not want:
                continue  # apart, or one inside the other without meeting outlines
            pairs[kind(a, b)] += 1
            got = "not reported" if record is None else hexes(record.get("points", []))
            if got != want:
                wrong[kind(a, b)] += 1
                first.setdefault(kind(a, b), f"{json.dumps([a, b])}: got {got}, expected {want}")
    check(sum(pairs.values()) >= least_pairs, f"only {sum(pairs.values())} pairs meet: {dict(pairs)}")
    if wrong:
        for k in sorted(pairs):
            print(f"  {k}: {wrong[k]} of {pairs[k]} pairs differ" + (f"; first: {first[k]}" if k in first else ""))
        raise t.Failure(f"{sum(wrong.values())} of {sum(pairs.values())} pairs differ: "
                        + ", ".join(f"{k} {n}/{pairs[k]}" for k, n in sorted(wrong.items())))


def seg(id, a, b):
    return {"id": id, "type": "segment", "a": list(a), "b": list(b)}


def circ(id, c, r):
    return {"id": id, "type": "circle", "center": list(c), "radius": r}


def far(rng):
    """An offset with many bits: 0, 0.1 + k*2^-50, up to 1e3, around 1e6 or around 1e9."""
    return rng.choice([0.0, 0.1 + rng.randrange(1, 1000) * 2.0**-50, rng.uniform(-1e3, 1e3), rng.uniform(1e6, 2e6),
                       -rng.uniform(1e8, 1e9)])


def point_near(rng, base, size):
    return (base[0] + rng.uniform(-size, size), base[1] + rng.uniform(-size, size))


def scene_test(name, make, count, seed, least_pairs):
    def run():
        rng = random.Random(seed)
        assert_points([{"shapes": make(rng)} for _ in range(count)], least_pairs)
    TESTS.append((name, run))


@test
def boxes_and_ellipses_are_read_as_the_polygons_of_spec_2_5():
    """The corners the reference computes are those the binary reads (its -v says), so the
    crossings with their edges compare like for like; angles of either sign, beyond 360."""
    rng = random.Random(18)
    shapes = []
    for n in range(40):
        angle = rng.choice([rng.uniform(-1000, 1000), -45.0, 30.0, 405.0, -0.5])
        center = list(point_near(rng, (far(rng), far(rng)), 10))
        if n % 2:
            shapes.append({"id": f"s{n}", "type": "box", "center": center, "angle": angle,
                           "size": [rng.uniform(0.1, 50), rng.uniform(0.1, 50)]})
        else:
            shapes.append({"id": f"s{n}", "type": "ellipse", "center": center, "angle": angle,
                           "radii": [rng.uniform(0.1, 50), rng.uniform(0.1, 50)], "vertices": rng.randrange(8, 40)})
    with tempfile.TemporaryDirectory() as d:
        r = collide("check", "-v", write(d, "scene.json", {"shapes": shapes}))
    read = dict(re.findall(r"shape '(s\d+)' \((?:box|ellipse)\) is read as polygon of \d+ points (\[.*\])", r.err))
    eq(sorted(read), sorted(s["id"] for s in shapes), "shapes read as polygons (-v)")
    for s in shapes:
        mine = X.box_corners(s) if s["type"] == "box" else X.ellipse_vertices(s)
        eq(hexes(json.loads(read[s["id"]])), hexes(mine), f"the polygon of {json.dumps(s)}")


def tiny_angle_crossings(rng):
    """Straight pieces through nearly the same point at angles from 1e-3 to 1e-12 radians."""
    base, size = (far(rng), far(rng)), rng.choice([1e-3, 1.0, 100.0])
    p = point_near(rng, base, size / 10)
    theta, delta = rng.uniform(0, 2 * math.pi), 10 ** -rng.uniform(3, 12)
    ends = []
    for angle in (theta, theta + delta):
        q = point_near(rng, p, size * 1e-9)
        u = (math.cos(angle) * size, math.sin(angle) * size)
        ends.append(((q[0] - u[0], q[1] - u[1]), (q[0] + u[0], q[1] + u[1])))
    (a0, a1), (b0, b1) = ends
    return [seg("s0", a0, a1), seg("s1", b0, b1),
            {"id": "s2", "type": "line", "a": list(b0), "b": list(b1)},
            {"id": "s3", "type": "ray", "origin": list(a1), "direction": [a0[0] - a1[0], a0[1] - a1[1]]},
            {"id": "s4", "type": "polyline", "points": [list(b0), list(p), list(b1)]}]


def nearly_parallel_and_collinear(rng):
    """Collinear pieces (points base + k*step with few-bit steps: exactly collinear unless a
    sum leaves base's binade) that overlap or meet at an end, and pieces off them by a hair."""
    base = (far(rng), far(rng))
    step = (rng.randrange(-64, 65) / 64, rng.randrange(-64, 65) / 64) if rng.random() < 0.9 else (1.0, 0.0)
    if step == (0.0, 0.0):
        step = (0.5, 0.25)
    k = sorted(rng.sample(range(-20, 21), 4))
    on = [(base[0] + i * step[0], base[1] + i * step[1]) for i in k]
    hair = 10 ** -rng.uniform(4, 12) * max(1.0, abs(base[0]) + abs(base[1]))
    tilt = (on[3][0] + hair * step[1], on[3][1] - hair * step[0])
    return [seg("s0", on[0], on[2]), seg("s1", on[1], on[3]), seg("s2", on[1], tilt),
            {"id": "s3", "type": "ray", "origin": list(on[2]), "direction": [-step[0], -step[1]]},
            {"id": "s4", "type": "line", "a": list(on[3]), "b": list(on[0])},
            {"id": "s5", "type": "polyline", "points": [list(on[0]), list(on[1]), list(tilt)]}]


def polygons_rects_and_boxes(rng):
    """Edges of rects (also in the x/y/width/height form with decimals), a triangle and a box
    (corners in doubles, SPEC §2.5) crossing each other."""
    base, size = (far(rng), far(rng)), rng.choice([1e-2, 3.0, 250.0])
    corner = lambda: point_near(rng, base, size)
    lo, hi = corner(), corner()
    rects = [{"id": "s0", "type": "rect", "min": [min(lo[0], hi[0]), min(lo[1], hi[1])],
              "max": [max(lo[0], hi[0]), max(lo[1], hi[1])]},
             {"id": "s1", "type": "rect", "x": round(base[0] + rng.uniform(-size, 0), 2),
              "y": round(base[1] + rng.uniform(-size, 0), 2), "width": round(rng.uniform(0.01, size), 2),
              "height": round(rng.uniform(0.01, size), 2)}]
    a, b = corner(), corner()
    c = (a[0] + b[0] - base[0] + rng.uniform(-size, size) / 1e6, a[1] + b[1] - base[1])
    triangle = {"id": "s2", "type": "polygon", "points": [list(a), list(b), list(c)]}
    box = {"id": "s3", "type": "box", "center": list(corner()),
           "size": [rng.uniform(size / 10, 2 * size), rng.uniform(size / 10, 2 * size)],
           "angle": rng.choice([rng.uniform(-360, 360), 30.0, -45.0, 90.0])}
    return rects + [triangle, box]


def segments_and_circles_nearly_tangent(rng):
    """Straight pieces at distance r (1 ± 1e-4..1e-13) from a circle's centre, and across it."""
    base = (far(rng), far(rng))
    r = rng.choice([rng.uniform(1e-3, 1), rng.uniform(1, 1e3), 0.1 + rng.randrange(1, 99) * 2.0**-50])
    c = point_near(rng, base, r)
    theta = rng.uniform(0, 2 * math.pi)
    n, u = (math.cos(theta), math.sin(theta)), (-math.sin(theta), math.cos(theta))
    shapes = [circ("s0", c, r)]
    for i, dist in enumerate([r * (1 + rng.choice([-1, 1]) * 10 ** -rng.uniform(4, 13)), rng.uniform(0, r)]):
        foot = (c[0] + dist * n[0], c[1] + dist * n[1])
        a = (foot[0] - 2 * r * u[0], foot[1] - 2 * r * u[1])
        b = (foot[0] + rng.uniform(-0.5, 2) * r * u[0], foot[1] + rng.uniform(-0.5, 2) * r * u[1])
        shapes.append(seg(f"s{1 + 3 * i}", a, b))
        shapes.append({"id": f"s{2 + 3 * i}", "type": "line", "a": list(a), "b": list(b)})
        shapes.append({"id": f"s{3 + 3 * i}", "type": "ray", "origin": list(b), "direction": [-u[0], -u[1]]})
    return shapes


def circles_nearly_tangent(rng):
    """Pairs of circles whose centres are r1 + r2 or |r1 - r2| apart, give or take a hair,
    exactly tangent ones (3-4-5 triangles), and plainly crossing ones."""
    base = (far(rng), far(rng))
    r1, r2 = rng.uniform(1e-3, 50), rng.uniform(1e-3, 50)
    c1 = point_near(rng, base, 10)
    theta = rng.uniform(0, 2 * math.pi)
    shapes = [circ("s0", c1, r1)]
    for i, dist in enumerate([(r1 + r2) * (1 + rng.uniform(-1, 1) * 10 ** -rng.uniform(5, 15)),
                              abs(r1 - r2) * (1 + rng.uniform(-1, 1) * 10 ** -rng.uniform(5, 15)),
                              rng.uniform(abs(r1 - r2), r1 + r2)]):
        shapes.append(circ(f"s{i + 1}", (c1[0] + dist * math.cos(theta), c1[1] + dist * math.sin(theta)), r2))
    k = 2.0 ** rng.randrange(-20, 6)  # exact tangency: centres 5k apart, radii summing to 5k
    c = (math.floor(base[0]), math.floor(base[1]))
    shapes.append(circ("s4", c, 2 * k))
    shapes.append(circ("s5", (c[0] + 3 * k, c[1] + 4 * k), 3 * k))
    shapes.append(circ("s6", (c[0] - 4 * k, c[1] + 3 * k), 7 * k))  # s4 inside it, tangent: 5k = 7k - 2k
    return shapes


def capsules(rng):
    """Capsules (sides are the core moved by r, caps half circles) against each other and the
    other pieces: side crossings need sqrt(|b - a|^2), cap crossings a root inside it."""
    base, size = (far(rng), far(rng)), rng.choice([1e-2, 3.0, 100.0])
    pt = lambda: list(point_near(rng, base, size))
    shapes = [{"id": f"s{i}", "type": "capsule", "a": pt(), "b": pt(), "radius": rng.uniform(size / 20, size)}
              for i in range(2)]
    return shapes + [seg("s2", pt(), pt()), circ("s3", pt(), rng.uniform(size / 20, size)),
                     {"id": "s4", "type": "rect", "min": [base[0], base[1]], "max": [base[0] + size, base[1] + size]}]


scene_test("straight_pieces_crossing_at_tiny_angles", tiny_angle_crossings, 150, 10, 600)
scene_test("nearly_parallel_and_collinear_pieces", nearly_parallel_and_collinear, 150, 11, 600)
scene_test("polygon_rect_and_box_edges", polygons_rects_and_boxes, 120, 12, 160)
scene_test("segments_rays_and_lines_nearly_tangent_to_circles", segments_and_circles_nearly_tangent, 120, 13, 400)
scene_test("circles_nearly_tangent", circles_nearly_tangent, 120, 14, 300)
scene_test("capsules", capsules, 80, 15, 120)


def is_tie(exact):
    """exact lies half way between two consecutive doubles."""
    r = X.round_to_double(exact)
    other = math.nextafter(r, math.inf if exact > Fraction(r) else -math.inf)
    return exact != Fraction(r) and exact - Fraction(r) == (Fraction(other) - Fraction(r)) / 2


@test
def crossings_on_a_rounding_midpoint_round_to_even():
    """A segment from (x0, y - h) to (x1, y + h) crosses the horizontal through y at
    (x0 + x1) / 2: with x0 and x1 of one binade and odd last bits summing odd, that is a
    double and a half (54 significant bits), a tie, and must go to the even neighbour. The
    same across a vertical, a rect's edge, a circle (a 3-4-5 crossing a half ulp off a
    double), and far from the origin."""
    rng = random.Random(16)
    scenes, ties = [], 0
    for _ in range(100):
        exponent = rng.randrange(-20, 30)
        x0 = math.ldexp(rng.randrange(2**52, 2**53), exponent - 52)
        x1 = math.ldexp(rng.randrange(2**52, 2**53) | 1, exponent - 52)
        if (x0 / math.ulp(x0)) % 2 == 1:
            x0 = math.nextafter(x0, math.inf)  # x0 even, x1 odd: their sum is odd
        y, h = rng.choice([0.0, 7.5, -1e6 - 0.25]), rng.choice([1.0, 0.5, 3.0])
        mid = (min(x0, x1) - 1, max(x0, x1) + 1)
        ties += is_tie((Fraction(x0) + Fraction(x1)) / 2)
        shapes = [seg("s0", (x0, y - h), (x1, y + h)), seg("s1", (mid[0], y), (mid[1], y)),
                  seg("s2", (y - h, x0), (y + h, x1)), {"id": "s3", "type": "line", "a": [y, 0], "b": [y, 1]},
                  {"id": "s4", "type": "rect", "min": [mid[0], y], "max": [mid[1], y + 2 * h]}]
        # A circle of radius 5s about (cx, cy) crosses y = cy + 3s at x = cx ± 4s: a tie when
        # 4s is half of cx's ulp.
        cx = math.ldexp(rng.randrange(2**52, 2**53) | 1, exponent - 52)
        s = math.ulp(cx) / 8
        cy = rng.choice([0.0, -16 * s])
        shapes += [circ("s5", (cx, cy), 5 * s), seg("s6", (cx - 6 * s, cy + 3 * s), (cx + 6 * s, cy + 3 * s))]
        ties += is_tie(Fraction(cx) + 4 * Fraction(s))
        scenes.append({"shapes": shapes})
    check(ties >= 180, f"only {ties} ties among the crossings")
    assert_points(scenes, 400)


# ---------------------------------------------------------------------------------------
# 3. Grid moves: t and stop (SPEC §2.4)


def move_record(grid, move, y_up):
    """The move record's allowed, t, stop and cell as SPEC §2.4 asks, from the exact t."""
    hit = X.move_stop(grid, move, y_up)
    if hit is None:
        return {"allowed": True}
    exact_t, cells = hit
    f, to = X.vec(move["from"]), X.vec(move["to"])
    stop = [X.round_to_double(f[k] + exact_t * (to[k] - f[k])) for k in (0, 1)]
    return {"allowed": False, "t": X.round_to_double(exact_t), "stop": stop, "cell": cells[0]}


def hex_record(record):
    return {k: (float(v).hex() if k == "t" else [float(x).hex() for x in v] if k == "stop" else v)
            for k, v in record.items() if k in ("allowed", "t", "stop", "cell")}


@test
def grid_moves_stop_at_the_exact_t_correctly_rounded():
    rng = random.Random(17)
    scenes, blocked = [], 0
    for n in range(60):
        tile = rng.choice([16.0, 10.3, 0.1 + rng.randrange(1, 99) * 2.0**-50, rng.uniform(0.5, 40)])
        origin = [far(rng) if n % 3 == 0 else rng.uniform(-50, 50), rng.uniform(-50, 50)]
        rows = ["".join(rng.choice("#....") for _ in range(6)) for _ in range(5)]
        grid = {"id": "g", "tile_size": tile, "origin": origin, "rows": rows, "outside": rng.choice(["solid", "empty"])}
        moves = []
        for m in range(8):
            inside = lambda: [origin[0] + rng.uniform(-0.5, 6.5) * tile, origin[1] + rng.uniform(-0.5, 5.5) * tile]
            start, end = inside(), inside()
            if m % 4 == 1:  # along a cell edge line (the edge value origin + k*tile, rounded)
                start[1] = end[1] = origin[1] + rng.randrange(0, 6) * tile
            body = rng.choice([{"type": "point"}, {"type": "rect", "size": [rng.uniform(0.01, 1.5) * tile,
                                                                             rng.uniform(0.01, 1.5) * tile]}])
            moves.append({"id": f"m{m}", "grid": "g", "from": start, "to": end, "body": body})
        scenes.append({"settings": {"y_axis": rng.choice(["down", "up"])}, "grids": [grid], "moves": moves})
    wrong = []
    for scene, report in zip(scenes, run_scenes(scenes)):
        y_up = scene["settings"]["y_axis"] == "up"
        for move, record in zip(scene["moves"], report["moves"]):
            want = hex_record(move_record(scene["grids"][0], move, y_up))
            blocked += not want["allowed"]
            if hex_record(record) != want:
                wrong.append(f"{json.dumps([scene['grids'][0], move])}: got {hex_record(record)}, expected {want}")
    check(blocked >= 150, f"only {blocked} blocked moves")
    if wrong:
        print(f"  {len(wrong)} of {sum(len(s['moves']) for s in scenes)} moves differ; first: {wrong[0]}")
    eq(len(wrong), 0, "moves whose allowed, t, stop or cell differ (first above)")


# ---------------------------------------------------------------------------------------
# 4. Worked examples


def points_of(shapes):
    report = run_scenes([{"shapes": shapes}])[0]
    eq(len(report["collisions"]), 1, "collisions")
    return report["collisions"][0]["points"]


@test
def two_crossing_rects_meet_at_their_input_coordinates():
    # The left edge x = 2.41 of one crosses the bottom edge y = -8.58 of the other: the point
    # is made of those two inputs, whatever the path to it (not -8.579999999999998).
    shapes = [{"id": "a", "type": "rect", "min": [2.41, -10.5], "max": [7.3, -3.2]},
              {"id": "b", "type": "rect", "min": [0.7, -8.58], "max": [4.9, -1.1]}]
    want = [[2.41, -8.58], [4.9, -3.2]]
    eq(hexes(X.rounded_points(*shapes)), hexes(want), "the reference")
    eq(hexes(points_of(shapes)), hexes(want), "points")


@test
def a_segment_crossing_a_ray_rounds_to_the_nearest_double():
    # The true crossing is not a double; its nearest double is the one just below 1.84 (and
    # below -3.08): 1.8399999999999999 and -3.0799999999999996 as shortest round-trip text.
    shapes = [{"id": "a", "type": "segment", "a": [0.484, 0.304], "b": [3.309, -6.746]},
              {"id": "b", "type": "ray", "origin": [-3.138, -5.512], "direction": [2.62, 1.28]}]
    want = [[1.8399999999999999, -3.0799999999999996]]
    eq(hexes(X.rounded_points(*shapes)), hexes(want), "the reference")
    eq(hexes(points_of(shapes)), hexes(want), "points")


NUMBER = re.compile(r"(?<![\w.#@~-])-?\d+(?:\.\d+)?[eE][+-]?\d+(?![\w.])")


@test
def no_report_of_the_samples_writes_an_integral_value_below_2_53_with_an_exponent():
    inputs = sorted(p for p in (ROOT / "samples").rglob("*")
                    if p.suffix in (".json", ".tmx", ".tmj", ".ldtk"))
    check(len(inputs) >= 10, f"samples: {inputs}")
    bad = []
    for path in inputs:
        for fmt in t.FORMATS:
            r = collide("check", "-q", "-f", fmt, path.relative_to(ROOT))
            check(r.code in (0, 1), f"{path.name} -f {fmt}: exit {r.code} {r.err[:200]}")
            for token in NUMBER.findall(r.text):
                value = float(token)
                if value == math.floor(value) and abs(value) < 2**53:
                    bad.append(f"{path.name} -f {fmt}: {token}")
    eq(bad, [], "integral values written with an exponent")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("--corpus", action="append", default=[], help="a conformance corpus directory (repeatable)")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    t.BIN = str(Path(args.bin).resolve())
    for directory in args.corpus:
        TESTS.insert(3, (f"reference_reproduces_the_corpus[{Path(directory).name}]", corpus_test(directory)))
    return t.run_tests(TESTS, args.k)


if __name__ == "__main__":
    sys.exit(main())
