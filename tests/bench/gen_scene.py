#!/usr/bin/env python3
"""Generate collide scene files for benchmarks (python3 standard library only).

The output depends only on the arguments: the same --seed and options give the same bytes.

Shape mode (no --grid): N shapes of the --mix types, sizes (diameters) spread
log-uniformly from 4 units up by a factor --size-spread, placed at random in a square world
sized so that the expected number of colliding pairs is about --overlaps per shape (default
1: about N collisions in all; the estimate is within ~10% for the default mix); --cluster F
packs that fraction of the shapes into one hot spot of --cluster-area of the world (there
they overlap far more often). Every shape is in group "things"; pairs: "things:things".

    gen_scene.py -o shapes.json --shapes 100000 --mix circle=4,rect=3,point=1,segment=1,polygon=1

Issue 13's mix (capsule characters, rotated boxes, compound ships of a box and two capsules):

    gen_scene.py -o mixed.json --shapes 1000000 --mix capsule=25,box=25,compound=10,circle=20,rect=20

Grid mode (--grid COLSxROWS): one grid "level" (group "walls", --tile-size 8, y down) of
random walls (about --solid of the cells, default 0.2) written as `rows` strings (or, with
--grid-format cells, as `cells` arrays of 0 and 1); --moves M random moves of point, circle
and rect bodies (--bodies) starting clear inside free cells, short (up to 2 tiles) and, for
--long-fraction of them, long (2 tiles to a quarter of the grid, log-uniform), a
--path-fraction of them with check "path" and the rest "destination"; --shapes N shapes of
the --mix types (about 1/4 to 1 tile across with the default spread) scattered over the
grid, in group "things", with pairs "things:walls".

    gen_scene.py -o grid.json --grid 4096x4096 --moves 100000 --shapes 100000

A summary (counts, world size, expected collisions) is printed on stderr, and written as
JSON to --stats FILE when given.
"""
import argparse
import json
import math
import random
import sys

TYPES = ("point", "circle", "rect", "segment", "polygon", "polyline", "ray", "line", "capsule", "box", "ellipse",
         "compound")
DEFAULT_MIX = "circle=4,rect=3,point=1,segment=1,polygon=1"


def parse_mix(text):
    mix = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, weight = part.partition("=")
        name = name.strip()
        if name not in TYPES:
            raise argparse.ArgumentTypeError("unknown shape type %r in --mix (known: %s)" % (name, ", ".join(TYPES)))
        try:
            w = float(weight) if weight else 1.0
        except ValueError:
            raise argparse.ArgumentTypeError("bad weight %r for %s in --mix" % (weight, name))
        if w < 0 or not math.isfinite(w):
            raise argparse.ArgumentTypeError("bad weight %r for %s in --mix" % (weight, name))
        if w > 0:
            mix.append((name, w))
    if not mix:
        raise argparse.ArgumentTypeError("--mix selects no shape type")
    return mix


def parse_grid(text):
    try:
        c, r = text.lower().split("x")
        cols, rows = int(c), int(r)
    except ValueError:
        raise argparse.ArgumentTypeError("--grid wants COLSxROWS, e.g. 4096x4096")
    if cols < 1 or rows < 1:
        raise argparse.ArgumentTypeError("--grid needs at least one column and one row")
    return cols, rows


def fraction(text):
    v = float(text)
    if not 0 <= v <= 1:
        raise argparse.ArgumentTypeError("%s is not in [0, 1]" % text)
    return v


class Writer:
    """Numbers rounded to a fixed number of decimals, written in their shortest form."""

    def __init__(self, decimals):
        self.decimals = decimals

    def num(self, x):
        v = round(x, self.decimals)
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return repr(v)

    def pos(self, p):
        return "[%s, %s]" % (self.num(p[0]), self.num(p[1]))


def pick_type(rng, mix, total):
    u = rng.random() * total
    for name, w in mix:
        u -= w
        if u < 0:
            return name
    return mix[-1][0]


def make_shape(rng, kind, size):
    """A shape of characteristic size `size` centred at the origin, as
    (kind, fields, area, perimeter); area and perimeter (of the convex hull, roughly) feed the
    density estimate. Positions are offsets from the centre, moved later."""
    if kind == "point":
        return {"at": (0.0, 0.0)}, 0.0, 0.0
    if kind == "circle":
        r = size / 2
        return {"radius": r}, math.pi * r * r, 2 * math.pi * r
    if kind == "rect":
        w = size * rng.uniform(0.5, 1.0)
        h = size * rng.uniform(0.5, 1.0)
        return {"min": (-w / 2, -h / 2), "max": (w / 2, h / 2)}, w * h, 2 * (w + h)
    if kind == "segment":
        a = rng.uniform(0, math.pi)
        dx, dy = math.cos(a) * size / 2, math.sin(a) * size / 2
        return {"a": (-dx, -dy), "b": (dx, dy)}, 0.0, 2 * size
    if kind == "polygon":
        # Star-shaped around the centre (angles strictly increasing with gaps of at least
        # 0.4 * 2pi/k, radii in [R/2, R]): simple, often concave, never degenerate.
        k = rng.randint(5, 8)
        big = size / 2
        pts = []
        for i in range(k):
            ang = 2 * math.pi * (i + rng.uniform(0, 0.6)) / k
            rad = big * rng.uniform(0.5, 1.0)
            pts.append((math.cos(ang) * rad, math.sin(ang) * rad))
        area = 0.5 * abs(sum(pts[i][0] * pts[i - 1][1] - pts[i - 1][0] * pts[i][1] for i in range(k)))
        return {"points": pts}, area, 2 * math.pi * big * 0.8
    if kind == "polyline":
        n = rng.randint(3, 5)
        step = size / 2
        x = y = 0.0
        pts = [(x, y)]
        for _ in range(n - 1):
            a = rng.uniform(0, 2 * math.pi)
            x += math.cos(a) * step
            y += math.sin(a) * step
            pts.append((x, y))
        cx = sum(p[0] for p in pts) / n
        cy = sum(p[1] for p in pts) / n
        return {"points": [(p[0] - cx, p[1] - cy) for p in pts]}, 0.0, 2 * step * (n - 1) * 0.6
    if kind == "ray":
        a = rng.uniform(0, 2 * math.pi)
        return {"origin": (0.0, 0.0), "direction": (math.cos(a), math.sin(a))}, 0.0, 0.0
    if kind == "line":
        a = rng.uniform(0, math.pi)
        return {"a": (0.0, 0.0), "b": (math.cos(a) * size, math.sin(a) * size)}, 0.0, 0.0
    if kind == "capsule":
        # A character: a core of 30-60% of the size, the radius making up the rest.
        a = rng.uniform(0, 2 * math.pi)
        core = size * rng.uniform(0.3, 0.6)
        r = (size - core) / 2
        dx, dy = math.cos(a) * core / 2, math.sin(a) * core / 2
        return {"a": (-dx, -dy), "b": (dx, dy), "radius": r}, 2 * r * core + math.pi * r * r, 2 * core + 2 * math.pi * r
    if kind == "box":
        w = size * rng.uniform(0.5, 1.0)
        h = size * rng.uniform(0.5, 1.0)
        return {"size": (w, h), "angle": rng.uniform(0, 360)}, w * h, 2 * (w + h)
    if kind == "ellipse":
        rx = size / 2 * rng.uniform(0.5, 1.0)
        ry = size / 2 * rng.uniform(0.5, 1.0)
        return {"radii": (rx, ry), "angle": rng.uniform(0, 360)}, math.pi * rx * ry, math.pi * (rx + ry)
    if kind == "compound":
        # A ship: a box hull and two capsule wings, about `size` across in all.
        hull, ha, hp = make_shape(rng, "box", size * 0.6)
        left, la, lp = make_shape(rng, "capsule", size * 0.4)
        right, ra, rp = make_shape(rng, "capsule", size * 0.4)
        off = size * 0.3
        parts = [("box", hull, (0.0, 0.0)), ("capsule", left, (-off, 0.0)), ("capsule", right, (off, 0.0))]
        return {"parts": parts}, ha + la + ra, max(hp, 2 * size + math.pi * size * 0.2)
    raise ValueError(kind)


def shape_json(w, sid, kind, fields, cx, cy, groups):
    parts = ['"id": "%s"' % sid, '"type": "%s"' % kind] + body_json(w, kind, fields, cx, cy)
    parts.append('"groups": ' + json.dumps(groups))
    return "{" + ", ".join(parts) + "}"


def body_json(w, kind, fields, cx, cy):
    """The fields of a shape (or a compound's part) centred at (cx, cy), as "key": value texts."""
    def at(p):
        return w.pos((cx + p[0], cy + p[1]))

    parts = []
    if kind == "point":
        parts.append('"at": ' + at(fields["at"]))
    elif kind == "circle":
        parts.append('"center": ' + w.pos((cx, cy)))
        parts.append('"radius": ' + w.num(fields["radius"]))
    elif kind == "rect":
        parts.append('"min": ' + at(fields["min"]))
        parts.append('"max": ' + at(fields["max"]))
    elif kind in ("segment", "line"):
        a, b = at(fields["a"]), at(fields["b"])
        if kind == "line" and a == b:  # cannot happen for size > 0, but never write an invalid line
            b = w.pos((cx + 1, cy))
        parts.append('"a": ' + a)
        parts.append('"b": ' + b)
    elif kind == "ray":
        parts.append('"origin": ' + at(fields["origin"]))
        d = fields["direction"]
        parts.append('"direction": [%s, %s]' % (Writer(6).num(d[0]), Writer(6).num(d[1])))
    elif kind in ("polygon", "polyline"):
        parts.append('"points": [' + ", ".join(at(p) for p in fields["points"]) + "]")
    elif kind == "capsule":
        parts.append('"a": ' + at(fields["a"]))
        parts.append('"b": ' + at(fields["b"]))
        parts.append('"radius": ' + w.num(max(fields["radius"], 10 ** -w.decimals)))
    elif kind in ("box", "ellipse"):
        parts.append('"center": ' + w.pos((cx, cy)))
        key = "size" if kind == "box" else "radii"
        lo = 10 ** -w.decimals
        parts.append('"%s": [%s, %s]' % (key, w.num(max(fields[key][0], lo)), w.num(max(fields[key][1], lo))))
        parts.append('"angle": ' + w.num(fields["angle"]))
    elif kind == "compound":
        parts.append('"parts": [' + ", ".join(
            "{" + ", ".join(['"type": "%s"' % k] + body_json(w, k, f, cx + o[0], cy + o[1])) + "}"
            for k, f, o in fields["parts"]) + "]")
    return parts


def gen_shapes(rng, args, n, base_size, world_fn):
    """Shapes as JSON strings. world_fn(expected_pair_area) -> (x0, y0, width, height) of
    the world they are scattered over."""
    mix = args.mix
    total = sum(wt for _, wt in mix)
    spread = args.size_spread
    made = []
    area_sum = perim_sum = 0.0
    counted = 0
    counts = {}
    vertices = 0
    for i in range(n):
        kind = pick_type(rng, mix, total)
        size = base_size * math.exp(rng.uniform(0, math.log(spread))) if spread > 1 else base_size
        fields, area, perim = make_shape(rng, kind, size)
        made.append((kind, fields))
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("polygon", "polyline"):
            vertices += len(fields["points"])
        if kind not in ("ray", "line"):
            area_sum += area
            perim_sum += perim
            counted += 1
    # Expected area of the Minkowski sum of two random shapes (random orientations):
    # a_i + a_j + p_i p_j / (2 pi); its mean is 2 E[a] + E[p]^2 / (2 pi).
    mean_a = area_sum / counted if counted else 0.0
    mean_p = perim_sum / counted if counted else 0.0
    pair_area = 2 * mean_a + mean_p * mean_p / (2 * math.pi)
    x0, y0, wx, wy = world_fn(pair_area)
    n_cluster = int(round(n * args.cluster))
    hot = math.sqrt(wx * wy * args.cluster_area)
    hot = min(hot, wx, wy)
    hx, hy = x0 + (wx - hot) * 0.3, y0 + (wy - hot) * 0.6
    w = Writer(args.decimals)
    out = []
    for i, (kind, fields) in enumerate(made):
        if i < n_cluster:
            cx, cy = hx + rng.random() * hot, hy + rng.random() * hot
        else:
            cx, cy = x0 + rng.random() * wx, y0 + rng.random() * wy
        out.append(shape_json(w, "%s-%d" % (kind, i), kind, fields, cx, cy, ["things"]))
    # Expected colliding pairs: uniform part, plus the hot spot (its own pairs and the
    # uniform shapes that fall into it), ignoring rays and lines.
    share = counted / n if n else 0.0
    m = n - n_cluster
    p_world = pair_area / (wx * wy) if wx * wy > 0 else 0.0
    p_hot = pair_area / (hot * hot) if hot > 0 else 0.0
    expected = share * share * (m * (m - 1) / 2 * p_world
                                + n_cluster * (n_cluster - 1) / 2 * p_hot
                                + n_cluster * m * args.cluster_area * p_hot)
    stats = {"shapes": n, "types": counts, "polygon_vertices": vertices,
             "mean_size": round(base_size * ((spread - 1) / math.log(spread) if spread > 1 else 1), 3),
             "world": [x0, y0, wx, wy], "hot_spot": [hx, hy, hot] if n_cluster else None,
             "clustered": n_cluster, "expected_collisions": round(expected)}
    return out, stats


def grid_rows(rng, cols, rows, solid):
    """Rows of '#' (solid, with probability ~solid) and '.', from random bytes."""
    threshold = int(round(solid * 256))
    table = bytes((35 if b < threshold else 46) for b in range(256))  # '#' or '.'
    data = rng.randbytes(cols * rows).translate(table)
    return [data[r * cols:(r + 1) * cols] for r in range(rows)]


def gen_moves(rng, args, rows_b, cols, rows, tile, w):
    """Moves starting from free cells: bodies point/circle/rect, path/destination."""
    out = []
    kinds = {"point": 0, "circle": 0, "rect": 0}
    checks = {"path": 0, "destination": 0}
    longest = max(2.0, min(cols, rows) / 4.0)
    free_tries = 0
    for i in range(args.moves):
        while True:
            c, r = rng.randrange(cols), rng.randrange(rows)
            free_tries += 1
            if rows_b[r][c] != 35:
                break
            if free_tries > 100 * (args.moves + 1):
                sys.exit("gen_scene.py: cannot find free cells (is --solid 1?)")
        body = args.bodies[rng.randrange(len(args.bodies))]
        kinds[body] += 1
        half = 0.0
        if body == "circle":
            rad = tile * rng.uniform(0.1, 0.4)
            half = rad
            body_json = ', "body": {"type": "circle", "radius": %s}' % w.num(rad)
        elif body == "rect":
            bw, bh = tile * rng.uniform(0.2, 0.8), tile * rng.uniform(0.2, 0.8)
            half = max(bw, bh) / 2
            body_json = ', "body": {"type": "rect", "size": [%s, %s]}' % (w.num(bw), w.num(bh))
        else:
            body_json = ""
        # Start inside the free cell, the body clear of its edges (y axis down: row r spans
        # [r*tile, (r+1)*tile)).
        slack = max(0.0, tile / 2 - half - tile * 0.01)
        fx = (c + 0.5) * tile + rng.uniform(-slack, slack)
        fy = (r + 0.5) * tile + rng.uniform(-slack, slack)
        if rng.random() < args.long_fraction:
            length = tile * math.exp(rng.uniform(math.log(2), math.log(longest)))
        else:
            length = tile * rng.uniform(0.05, 2.0)
        ang = rng.uniform(0, 2 * math.pi)
        tx, ty = fx + math.cos(ang) * length, fy + math.sin(ang) * length
        check = "path" if rng.random() < args.path_fraction else "destination"
        checks[check] += 1
        out.append('{"id": "move-%d", "grid": "level", "from": %s, "to": %s%s, "check": "%s"}'
                   % (i, w.pos((fx, fy)), w.pos((tx, ty)), body_json, check))
    return out, {"moves": args.moves, "bodies": kinds, "checks": checks}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True, help="scene file to write ('-' for stdout)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--shapes", type=int, default=None, help="number of shapes (default 1000 in shape mode, 0 in grid mode)")
    ap.add_argument("--mix", type=parse_mix, default=parse_mix(DEFAULT_MIX),
                    help="shape types and weights (default %s; also polyline, ray, line)" % DEFAULT_MIX)
    ap.add_argument("--size-spread", type=float, default=4.0,
                    help="ratio between the largest and smallest shape size (default 4)")
    ap.add_argument("--cluster", type=fraction, default=0.0,
                    help="fraction of the shapes packed into one hot spot (default 0)")
    ap.add_argument("--cluster-area", type=fraction, default=0.01,
                    help="the hot spot's share of the world's area (default 0.01)")
    ap.add_argument("--overlaps", type=float, default=1.0,
                    help="shape mode: expected colliding pairs per shape outside the hot spot (default 1)")
    ap.add_argument("--grid", type=parse_grid, default=None, metavar="COLSxROWS", help="grid mode")
    ap.add_argument("--grid-format", choices=("rows", "cells"), default="rows",
                    help="grid mode: write the cells as `rows` strings (default) or `cells` integer arrays")
    ap.add_argument("--tile-size", type=float, default=8.0, help="grid mode: tile size (default 8)")
    ap.add_argument("--solid", type=fraction, default=0.2, help="grid mode: share of solid cells (default 0.2)")
    ap.add_argument("--moves", type=int, default=0, help="grid mode: number of moves (default 0)")
    ap.add_argument("--long-fraction", type=fraction, default=0.3,
                    help="grid mode: share of long moves (2 tiles to a quarter of the grid; default 0.3)")
    ap.add_argument("--path-fraction", type=fraction, default=0.5,
                    help='grid mode: share of moves with check "path" (the rest "destination"; default 0.5)')
    ap.add_argument("--bodies", type=lambda t: [b.strip() for b in t.split(",") if b.strip()],
                    default=["point", "circle", "rect"],
                    help="grid mode: move bodies to draw from, equally likely (default point,circle,rect)")
    ap.add_argument("--pairs", action="append", default=None,
                    help='pair spec, repeatable (default "things:things", grid mode "things:walls")')
    ap.add_argument("--decimals", type=int, default=2, help="decimals of the coordinates (default 2)")
    ap.add_argument("--stats", metavar="FILE", help="also write the summary as JSON to FILE")
    args = ap.parse_args()
    if args.size_spread < 1:
        ap.error("--size-spread must be >= 1")
    if args.overlaps <= 0:
        ap.error("--overlaps must be > 0")
    if not args.bodies or any(b not in ("point", "circle", "rect") for b in args.bodies):
        ap.error("--bodies takes point, circle and/or rect")
    if args.moves and not args.grid:
        ap.error("--moves needs --grid")
    n = args.shapes if args.shapes is not None else (0 if args.grid else 1000)
    if n < 0 or args.moves < 0:
        ap.error("counts must be >= 0")

    rng = random.Random(args.seed)
    w = Writer(args.decimals)
    stats = {"seed": args.seed}
    lines = ['{"format": "collide-scene", "version": 1,', ' "settings": {"y_axis": "down"},']
    grid_lines = []
    move_lines = []
    if args.grid:
        cols, rows = args.grid
        tile = args.tile_size
        rows_b = grid_rows(rng, cols, rows, args.solid)
        solid_cells = sum(row.count(35) for row in rows_b)
        if args.grid_format == "rows":
            grid_lines = ['{"id": "level", "tile_size": %s, "origin": [0, 0], "solid": "#", "groups": ["walls"],' % w.num(tile),
                          ' "rows": [']
            grid_lines += ['  "%s"%s' % (row.decode("ascii"), "," if k + 1 < rows else "") for k, row in enumerate(rows_b)]
        else:
            to_ints = bytes.maketrans(b"#.", b"10")
            grid_lines = ['{"id": "level", "tile_size": %s, "origin": [0, 0], "groups": ["walls"],' % w.num(tile),
                          ' "cells": [']
            grid_lines += ['  [%s]%s' % (",".join(row.translate(to_ints).decode("ascii")), "," if k + 1 < rows else "")
                           for k, row in enumerate(rows_b)]
        grid_lines.append(' ]}')
        stats["grid"] = {"cols": cols, "rows": rows, "tile_size": tile, "solid_cells": solid_cells,
                         "solid_share": round(solid_cells / (cols * rows), 4), "bit_bytes": (cols * rows + 7) // 8}
        move_lines, mstats = gen_moves(rng, args, rows_b, cols, rows, tile, w)
        stats.update(mstats)
        del rows_b
        # Shapes about 1/4 to 1 tile across (default spread), anywhere on the grid.
        def world(_pair_area):
            return 0.0, 0.0, cols * tile, rows * tile
        base = tile / 4
        shape_lines, sstats = gen_shapes(rng, args, n, base, world)
        del sstats["expected_collisions"]  # against the grid, not each other
        stats.update(sstats)
        pairs = args.pairs or ["things:walls"]
    else:
        base = 4.0

        def world(pair_area):
            # Expected colliding pairs outside the hot spot: m^2/2 * pair_area / side^2 = k * m.
            m = max(n - int(round(n * args.cluster)), 2)
            side = math.sqrt(max(m - 1, 1) * pair_area / (2 * args.overlaps)) if pair_area > 0 else 100.0
            side = round(max(side, base * args.size_spread), 2)
            return 0.0, 0.0, side, side
        shape_lines, sstats = gen_shapes(rng, args, n, base, world)
        stats.update(sstats)
        pairs = args.pairs or ["things:things"]
    stats["pairs"] = pairs

    def block(key, items):
        if not items:
            return
        lines.append(' "%s": [' % key)
        for k, item in enumerate(items):
            lines.append("  " + item + ("," if k + 1 < len(items) else ""))
        lines.append(" ],")

    block("shapes", shape_lines)
    if grid_lines:
        lines.append(' "grids": [')
        lines.extend(grid_lines)
        lines.append(" ],")
    block("moves", move_lines)
    lines.append(' "pairs": %s' % json.dumps(pairs))
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    stats["bytes"] = len(text.encode("utf-8"))
    sys.stderr.write("gen_scene.py: %s\n" % json.dumps(stats, sort_keys=True))
    if args.stats:
        with open(args.stats, "w", encoding="utf-8") as f:
            json.dump(stats, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
