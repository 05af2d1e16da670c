#!/usr/bin/env python3
"""Scenes of the query families of issue 26, at a size n (stdlib only; the same n gives the
same bytes). n4n_bench.sh runs them at n and 4n.

    python3 tests/bench/n4n_scenes.py FAMILY N > scene.json

near-probe      one probe circle and N walls (group w), far apart (items 6)
near-probe-rule the same, no report pairs, a clearance rule of 1e7 on probe:w
near-probe-rule-all the rule beside the default *:* pairs
near-grid       N circles over a sqrt(N) x sqrt(N) grid g with one solid cell (item 7)
moves-early     N moves against N small obstacles, each crossing the field, blocked near its
                start (item 4)
sweep-polygon   N/100 short moves up into one comb polygon of N vertices (item 8)
moves-huge-body N moves of circle bodies of radius 1e6 against N small obstacles (item 5):
                a third start over the field (blocked at t = 0), a third come at it along x
                from outside (blocked later), a third pass it by (allowed)
"""
import json
import random
import sys


def near_probe(n, rule=False, default_pairs=False):
    walls = [{"id": f"w{i}", "type": "rect", "min": [(i % 400) * 10, (i // 400) * 10],
              "max": [(i % 400) * 10 + 4, (i // 400) * 10 + 4], "groups": ["w"]} for i in range(n)]
    scene = {"shapes": [{"id": "probe", "type": "circle", "center": [-50, -50], "radius": 3}] + walls}
    if rule:
        if not default_pairs:
            scene["pairs"] = []
        scene["rules"] = [{"name": "probe clear", "pairs": "probe:w", "expect": "none", "clearance": 1e7}]
    return scene


def near_grid(n):
    k = int(round(n ** 0.5))
    rows = ["." * k for _ in range(k)]
    rows[k // 3] = "." * (k // 5) + "#" + "." * (k - k // 5 - 1)
    shapes = [{"id": f"c{i}", "type": "circle", "center": [10 * (i % k) + 5, 10 * (i // k) + 5], "radius": 2}
              for i in range(k * k)]
    return {"shapes": shapes, "grids": [{"id": "g", "tile_size": 10, "rows": rows, "outside": "empty"}]}


def moves_early(n):
    rng = random.Random(5)
    side = 10 * int(n ** 0.5)
    shapes = [{"id": f"o{i}", "type": "rect", "min": [x, y], "max": [x + 2, y + 2]}
              for i, (x, y) in enumerate((rng.uniform(0, side), rng.uniform(0, side)) for _ in range(n))]
    moves = [{"id": f"m{i}", "against": "*", "from": [s["min"][0] - 1, s["min"][1] + 1],
              "to": [s["min"][0] + side, s["min"][1] + 1]} for i, s in enumerate(shapes)]
    return {"shapes": shapes, "moves": moves, "pairs": []}


def moves_huge_body(n):
    rng = random.Random(6)
    side = 10 * int(n ** 0.5)
    shapes = [{"id": f"o{i}", "type": "rect", "min": [x, y], "max": [x + 2, y + 2]}
              for i, (x, y) in enumerate((rng.uniform(0, side), rng.uniform(0, side)) for _ in range(n))]
    r = 1e6
    moves = []
    for i in range(n):
        y = rng.uniform(0, side)
        if i % 3 == 0:  # over the field from the start
            path = [rng.uniform(0, side), y], [rng.uniform(0, side), rng.uniform(0, side)]
        elif i % 3 == 1:  # from the left, into the field
            x = -r - rng.uniform(1, side)
            path = [x, y], [x + 2 * side, y]
        else:  # beside the field, along it
            path = [-r - rng.uniform(1, side), y], [-r - rng.uniform(1, side), y + rng.uniform(-side, side)]
        moves.append({"id": f"m{i}", "against": "*", "from": path[0], "to": path[1],
                      "body": {"type": "circle", "radius": r}})
    return {"shapes": shapes, "moves": moves, "pairs": []}


def sweep_polygon(n):
    teeth = (n - 2) // 4
    pts = []
    for k in range(teeth):  # a tooth 2 wide and 10 tall every 4 units, on a spine y in [-5, 0]
        x = 4 * k
        pts += [[x, 0], [x, 10], [x + 2, 10], [x + 2, 0]]
    pts += [[4 * teeth - 2, -5], [0, -5]]
    rng = random.Random(8)
    moves = []
    for i in range(n // 100):
        x = rng.uniform(0, 4 * teeth)
        moves.append({"id": f"m{i}", "against": "comb", "from": [x, 30], "to": [x + rng.uniform(-3, 3), 5],
                      "body": {"type": "circle", "radius": 0.5}})
    return {"shapes": [{"id": "comb", "type": "polygon", "points": pts}], "moves": moves, "pairs": []}


FAMILIES = {"near-probe": near_probe, "near-probe-rule": lambda n: near_probe(n, rule=True),
            "near-probe-rule-all": lambda n: near_probe(n, rule=True, default_pairs=True),
            "near-grid": near_grid, "moves-early": moves_early,
            "moves-huge-body": moves_huge_body, "sweep-polygon": sweep_polygon}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in FAMILIES:
        sys.exit(__doc__)
    print(json.dumps(FAMILIES[sys.argv[1]](int(sys.argv[2]))))
