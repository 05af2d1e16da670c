#!/usr/bin/env python3
"""Scenes that made the broad phase quadratic (issue 12, items 7, 9 and 10).

    hostile_scenes.py KIND N -o FILE [--seed S]

KIND is one of
  outlier         N small circles spread over a square, one point at (1e9, 1e9)
  outlier-cluster 90% of N small circles packed in one corner, 10% spread over a square
                  100x wider, one point at (1e9, 1e9)
  outlier-rect    N small circles, one rect 1e9 wide over all of them
  outlier-segment N small circles, one segment 1e9 long across them
  outlier-tiny    N points 1e-6 apart near 0, one circle of radius 1 at (1e30, 1e30)
  lines           a level 100 units high and ~2N wide: N circles, N/2 lines and N/2 rays,
                  all crossing it steeply in one direction (parallel, so the answer is about
                  a few collisions per line, not N^2)
  grids           N small circles over a square, and N/100 small grids (outside empty) far
                  apart over the same square
The output depends only on the arguments.
"""
import argparse
import json
import random


def circle(i, x, y, r):
    return {"id": f"c{i}", "type": "circle", "center": [x, y], "radius": r}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind")
    ap.add_argument("n", type=int)
    ap.add_argument("-o", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n = a.n
    shapes, grids = [], []
    side = (n * 4.0) ** 0.5 * 2  # about one circle in 4 cells: ~n/2 collisions
    r3 = lambda v: round(v, 3)
    if a.kind.startswith("outlier"):
        if a.kind == "outlier-tiny":
            for i in range(n):
                shapes.append({"id": f"p{i}", "type": "point",
                               "at": [rng.randrange(n) * 1e-6, rng.randrange(n) * 1e-6]})
            shapes.append(circle("far", 1e30, 1e30, 1))
        else:
            for i in range(n):
                span = side * 100 if a.kind == "outlier-cluster" and i % 10 == 0 else side
                shapes.append(circle(i, r3(rng.uniform(0, span)), r3(rng.uniform(0, span)), 1))
            if a.kind in ("outlier", "outlier-cluster"):
                shapes.append({"id": "far", "type": "point", "at": [1e9, 1e9]})
            elif a.kind == "outlier-rect":
                shapes.append({"id": "huge", "type": "rect", "min": [-5e8, -5e8], "max": [5e8, 5e8]})
            else:
                shapes.append({"id": "long", "type": "segment", "a": [-5e8, -5e8 + 3], "b": [5e8, 5e8]})
    elif a.kind == "lines":
        width = 2.0 * n
        for i in range(n):
            shapes.append(circle(i, r3(rng.uniform(0, width)), r3(rng.uniform(0, 100)), 1))
        # All with direction (1, 7): parallel, crossing the 100-unit band over ~14 units.
        # Quarter units, so that b - a is exactly (1, 7) (else they meet far away).
        for k in range(n // 2):
            x = rng.randrange(-80, int(width) * 4) / 4
            shapes.append({"id": f"l{k}", "type": "line", "a": [x, 0], "b": [x + 1, 7]})
        for k in range(n // 2):
            x = rng.randrange(-80, int(width) * 4) / 4
            shapes.append({"id": f"r{k}", "type": "ray", "origin": [x, -10], "direction": [1, 7]})
    elif a.kind == "grids":
        for i in range(n):
            shapes.append(circle(i, r3(rng.uniform(0, side)), r3(rng.uniform(0, side)), 1))
        for k in range(max(1, n // 100)):
            grids.append({"id": f"g{k}", "tile_size": 2, "outside": "empty",
                          "origin": [r3(rng.uniform(0, side)), r3(rng.uniform(0, side))],
                          "rows": ["#.#", ".#.", "#.#"]})
    else:
        ap.error(f"unknown kind {a.kind}")
    scene = {"shapes": shapes}
    if grids:
        scene["grids"] = grids
    with open(a.o, "w") as f:
        json.dump(scene, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
