#!/usr/bin/env python3
"""Write a big orthogonal Tiled map (TMX) for the map import benchmark (issue 14).

    python3 tests/bench/gen_tiled_map.py --out /tmp/map4096.tmx            # 4096x4096, 100,000 objects
    python3 tests/bench/gen_tiled_map.py --size 256 --objects 1000 --out small.tmx
    options: --size N (tiles a side, default 4096) --objects N (default 100000) --seed S (default 1)
             --solid F (wanted share of solid cells, default 0.3) --collision-tiles N (default 0)

The same options give the same bytes (random.Random(seed), zlib level 6). Python stdlib only.

The map: 16x16 px tiles; one inline tileset (firstgid 1, 64 tiles, 8 columns) whose tiles 48-63
carry a collision rectangle (Tiled's tile collision editor); one tile layer "walls" of SIZE x SIZE
cells, <data encoding="base64" compression="zlib">, as Tiled writes it (one base64 line); and
one object layer "things" with the objects.

The level: solid borders, then filled blocks and hollow rooms (walls 1-2 thick, with door
gaps) at random until about --solid of the cells are solid. Solid cells hold gids 1-48 (mostly 1; 1% of
them flipped with Tiled's flip bits), so by default no placed tile has collision shapes: 16M
compounds would be silly. --collision-tiles N puts N tiles of gids 49-64 (the ones with a
collision rectangle) on random cells, each of which becomes one compound shape.

The objects (ids 1..N in file order; names repeat, so collide names them NAME#ID):
rectangles 70% (coin, chest, enemy, trigger), rotated rectangles 3% (door), ellipses 10%
(light, round; pond, oval), points 8% (spawn), polygons of 3-6 points 9% (zone, star-shaped
so simple). 90% are placed where their bounding box covers only empty cells (up to 20 tries),
the rest anywhere, so some overlap walls.
"""
import argparse
import base64
import math
import random
import struct
import sys
import zlib

TILE = 16


def num(v):
    """Tiled-like number text: at most two decimals, no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def make_level(rng, size, solid):
    """A bytearray of size*size cells, 1 = solid."""
    cells = bytearray(size * size)

    def fill(x0, y0, w, h):
        x1, y1 = min(size, x0 + w), min(size, y0 + h)
        if x0 >= x1 or y0 >= y1:
            return
        ones = b"\x01" * (x1 - x0)
        for y in range(y0, y1):
            cells[y * size + x0:y * size + x1] = ones

    fill(0, 0, size, 1)
    fill(0, size - 1, size, 1)
    fill(0, 0, 1, size)
    fill(size - 1, 0, 1, size)
    target = int(solid * size * size)
    while cells.count(1) < target:
        for _ in range(max(16, size * size // 4000)):
            x, y = rng.randrange(size), rng.randrange(size)
            if rng.random() < 0.6:  # a block of rock or pillars
                fill(x, y, rng.randint(2, 24), rng.randint(2, 24))
            else:  # a hollow room with a door gap in each wall
                w, h, t = rng.randint(8, 48), rng.randint(8, 32), rng.randint(1, 2)
                fill(x, y, w, t)
                fill(x, y + h - t, w, t)
                fill(x, y, t, h)
                fill(x + w - t, y, t, h)
                for gx, gy, gw, gh in ((x + w // 2 - 1, y, 3, t), (x + w // 2 - 1, y + h - t, 3, t),
                                       (x, y + h // 2 - 1, t, 3), (x + w - t, y + h // 2 - 1, t, 3)):
                    x1, y1 = min(size, gx + gw), min(size, gy + gh)
                    for yy in range(gy, y1):
                        cells[yy * size + gx:yy * size + x1] = bytes(max(0, x1 - gx))
    return cells


def layer_bytes(rng, cells, size, collision_tiles):
    """The layer's gids as little-endian uint32, row by row (bulk byte operations: 16M cells)."""
    n = size * size
    # a gid for every cell (mostly the plain wall, 1; a fifth of them one of the 48 variants,
    # as an autotiled level would vary), then masked by the solid cells (0x00 / 0xFF per cell)
    gid_of = bytes(1 if b < 205 else (b % 48) + 1 for b in range(256))
    gids = int.from_bytes(rng.randbytes(n).translate(gid_of), "little")
    mask = int.from_bytes(bytes(cells).translate(bytes([0x00] + [0xFF] * 255)), "little")
    out = bytearray(4 * n)
    out[0::4] = (gids & mask).to_bytes(n, "little")
    for _ in range(n // 100):  # about 1% of the solid cells get Tiled's flip bits (top byte)
        i = rng.randrange(n)
        if cells[i]:
            out[4 * i + 3] = rng.choice((0x80, 0x40, 0xC0, 0xA0))  # H, V, H+V, D+H
    for _ in range(collision_tiles):
        i = rng.randrange(n)
        out[4 * i:4 * i + 4] = struct.pack("<I", rng.randint(49, 64))
    return bytes(out)


def free_box(cells, size, x, y, w, h):
    """Whether the pixel box [x, x+w] x [y, y+h] covers only empty cells inside the map."""
    c0, r0 = int(x // TILE), int(y // TILE)
    c1, r1 = int((x + w) // TILE), int((y + h) // TILE)
    if c0 < 0 or r0 < 0 or c1 >= size or r1 >= size:
        return False
    for r in range(r0, r1 + 1):
        if any(cells[r * size + c0:r * size + c1 + 1]):
            return False
    return True


def make_object(rng):
    """(kind, name, type, w, h, extra): the object's shape at the origin."""
    k = rng.random()
    if k < 0.70:
        name, typ, w, h = rng.choice((("coin", "pickup", 8, 8), ("chest", "pickup", 16, 16),
                                       ("enemy", "enemy", 16, 24), ("trigger", "trigger", 0, 0)))
        if name == "trigger":
            w, h = rng.randint(32, 96), rng.randint(32, 96)
        return "rect", name, typ, w, h, None
    if k < 0.73:
        return "rect", "door", "door", rng.randint(16, 48), rng.randint(4, 8), rng.randint(1, 359)
    if k < 0.83:
        if rng.random() < 0.5:
            d = rng.randint(8, 32)
            return "ellipse", "light", "light", d, d, None
        return "ellipse", "pond", "water", rng.randint(16, 64), rng.randint(16, 64), None
    if k < 0.91:
        return "point", "spawn", "spawn", 0, 0, None
    n = rng.randint(3, 6)
    r = rng.uniform(8, 40)
    # one vertex in each of n equal sectors, jittered inside it: star-shaped about the
    # object's x, y, so simple
    angles = [(i + rng.uniform(-0.4, 0.4)) * 2 * math.pi / n for i in range(n)]
    pts = []
    for a in angles:
        d = r * rng.uniform(0.5, 1.0)
        pts.append((d * math.cos(a), d * math.sin(a)))
    return "polygon", "zone", "zone", 2 * r, 2 * r, pts


def object_xml(rng, oid, cells, size):
    kind, name, typ, w, h, extra = make_object(rng)
    world = size * TILE
    # box of the object relative to its x, y (polygons are centred on it; a rotated rect's
    # corner is its x, y and it may swing over its neighbours: a rough box is enough)
    if kind == "polygon":
        bx, by, bw, bh = -w / 2, -h / 2, w, h
    elif kind == "rect" and extra is not None:
        bx, by, bw, bh = -w, -w, 2 * w, 2 * w
    else:
        bx, by, bw, bh = 0, 0, w, h
    want_free = rng.random() < 0.9
    for _ in range(20 if want_free else 1):
        x = round(rng.uniform(0, world - max(bw, 1)) - bx, 2)
        y = round(rng.uniform(0, world - max(bh, 1)) - by, 2)
        if not want_free or free_box(cells, size, x + bx, y + by, bw, bh):
            break
    attrs = f'id="{oid}" name="{name}" type="{typ}" x="{num(x)}" y="{num(y)}"'
    if kind == "point":
        return f'  <object {attrs}>\n   <point/>\n  </object>\n'
    if kind == "polygon":
        pts = " ".join(f"{num(px)},{num(py)}" for px, py in extra)
        return f'  <object {attrs}>\n   <polygon points="{pts}"/>\n  </object>\n'
    attrs += f' width="{num(w)}" height="{num(h)}"'
    if kind == "ellipse":
        return f'  <object {attrs}>\n   <ellipse/>\n  </object>\n'
    if extra is not None:
        attrs += f' rotation="{extra}"'
    return f'  <object {attrs}/>\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=4096, help="tiles a side (default 4096)")
    ap.add_argument("--objects", type=int, default=100000, help="objects (default 100000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--solid", type=float, default=0.3, help="share of solid cells (default 0.3)")
    ap.add_argument("--collision-tiles", type=int, default=0,
                    help="cells holding a tile with a collision shape (default 0)")
    ap.add_argument("--out", required=True, help="the .tmx file to write")
    a = ap.parse_args()
    if a.size < 4 or a.objects < 0 or not 0 <= a.solid < 0.95 or a.collision_tiles < 0:
        ap.error("need --size >= 4, --objects >= 0, 0 <= --solid < 0.95, --collision-tiles >= 0")

    rng = random.Random(a.seed)
    cells = make_level(rng, a.size, a.solid)
    solid = cells.count(1)
    data = base64.b64encode(zlib.compress(layer_bytes(rng, cells, a.size, a.collision_tiles), 6))

    tiles = "".join(
        f'  <tile id="{t}">\n   <objectgroup draworder="index" id="2">\n'
        f'    <object id="1" x="0" y="{8 if t % 2 else 0}" width="16" height="{8 if t % 2 else 16}"/>\n'
        f'   </objectgroup>\n  </tile>\n' for t in range(48, 64))
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
                f'renderorder="right-down" width="{a.size}" height="{a.size}" tilewidth="{TILE}" '
                f'tileheight="{TILE}" infinite="0" nextlayerid="3" nextobjectid="{a.objects + 1}">\n'
                f' <tileset firstgid="1" name="dungeon" tilewidth="{TILE}" tileheight="{TILE}" '
                f'tilecount="64" columns="8">\n'
                f'  <image source="dungeon.png" width="128" height="128"/>\n{tiles} </tileset>\n'
                f' <layer id="1" name="walls" width="{a.size}" height="{a.size}">\n'
                '  <data encoding="base64" compression="zlib">\n   ')
        f.write(data.decode("ascii"))
        f.write('\n  </data>\n </layer>\n <objectgroup id="2" name="things">\n')
        chunk = []
        for oid in range(1, a.objects + 1):
            chunk.append(object_xml(rng, oid, cells, a.size))
            if len(chunk) == 10000:
                f.write("".join(chunk))
                chunk.clear()
        f.write("".join(chunk))
        f.write(" </objectgroup>\n</map>\n")
    print(f'{{"size": {a.size}, "cells": {a.size * a.size}, "solid": {solid}, '
          f'"solid_share": {solid / (a.size * a.size):.4f}, "objects": {a.objects}, '
          f'"collision_tiles": {a.collision_tiles}, "base64_bytes": {len(data)}}}', file=sys.stderr)


if __name__ == "__main__":
    main()
