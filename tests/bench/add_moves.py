#!/usr/bin/env python3
"""Add moves `against` a selector to a scene file (python3 standard library only).

    python3 tests/bench/add_moves.py IN.json OUT.json --moves 100000 [--seed 1] [--against things]

The moves are bullets of a shoot-'em-up frame: from a random point of the scene's extent, in a
random direction, 20 to 200 units long; a third are points, a third circles of radius 1 to 4,
a third rects of 2 to 8 units; one in ten checks only its destination. The output depends only
on the input and the arguments. The scene is copied as it is (its text, not re-written), with
its "moves" replaced.
"""
import argparse
import json
import math
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--moves", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", default="things")
    args = ap.parse_args()
    with open(args.input) as f:
        text = f.read()
    scene = json.loads(text)
    xs, ys = [], []
    for s in scene.get("shapes", [])[:: max(1, len(scene.get("shapes", [])) // 10000)]:
        for key in ("center", "min", "at", "a", "origin"):
            if key in s:
                xs.append(s[key][0])
                ys.append(s[key][1])
                break
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    rng = random.Random(args.seed)
    moves = []
    for k in range(args.moves):
        fx, fy = rng.uniform(lo_x, hi_x), rng.uniform(lo_y, hi_y)
        angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(20, 200)
        m = {"id": "m%d" % k, "against": args.against, "from": [round(fx, 2), round(fy, 2)],
             "to": [round(fx + length * math.cos(angle), 2), round(fy + length * math.sin(angle), 2)]}
        kind = k % 3
        if kind == 1:
            m["body"] = {"type": "circle", "radius": rng.choice([1, 2, 3, 4])}
        elif kind == 2:
            m["body"] = {"type": "rect", "size": [rng.choice([2, 4, 8]), rng.choice([2, 4, 8])]}
        if k % 10 == 9:
            m["check"] = "destination"
        moves.append(m)
    # The scene's text up to its last '}', then the moves (a scene of the generator has none).
    assert "moves" not in scene, "the input already has moves"
    body = text.rstrip()
    assert body.endswith("}")
    with open(args.output, "w") as f:
        f.write(body[:-1].rstrip())
        f.write(',\n"moves": [\n')
        f.write(",\n".join(json.dumps(m, separators=(",", ":")) for m in moves))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
