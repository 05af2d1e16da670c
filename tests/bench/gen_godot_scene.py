#!/usr/bin/env python3
"""Write a big Godot 4 project for the Godot scene benchmark (issue 30).

    python3 tests/bench/gen_godot_scene.py --out /tmp/godot4096        # 4096x4096, 100,000 bodies
    python3 tests/bench/gen_godot_scene.py --size 256 --bodies 1000 --out small
    options: --size N (cells a side, default 4096) --bodies N (default 100000) --seed S (default 1)
             --solid F (wanted share of solid cells, default 0.25) --decor F (share of cells
             holding a tile without collision, default 0.05) --partial N (slopes and half tiles
             on the surfaces, default 20000) --per-parent N (bodies in Room nodes of N under their
             kind's parent, default 0: all siblings)

Writes DIR/project.godot and DIR/level.tscn. The same options give the same bytes
(random.Random(seed)). Python stdlib only.

The TileSet is inline (sub_resources): 16x16 px square tiles, one physics layer (layer 1, mask 0),
one atlas source whose tile 0:0 is solid (a polygon filling the cell), 1:0 a slope and 2:0 a half
tile (partial polygons), 3:0 decoration without collision. The TileMapLayer "Walls" has SIZE x
SIZE cells, as tile_map_data = PackedByteArray("BASE64"): a u16 format 0, then 12 bytes a set
cell (int16 x, int16 y, u16 source, u16 atlas x, u16 atlas y, u16 alternative), row by row; empty
cells are not written, as Godot does not write them.

The level: solid borders, then blocks and hollow rooms with door gaps until about --solid of the
cells are solid (as gen_tiled_map.py), then decoration in random patches of empty cells, then
--partial slopes and half tiles on solid cells with an empty cell above (a fifth of the slopes
flipped: alternative 0 with Godot's TRANSFORM_FLIP_H bit, 4096). Each solid cell is one grid
cell for collide; each partial tile one compound.

The bodies, under four Node2D parents (with --per-parent N, in Room1, Room2, ... of N under them), each with one CollisionShape2D child (5% with two),
sharing 40 shape sub_resources of each kind:
  coins     40%  Area2D, layer 3 (4), mask 2, group "coins", CircleShape2D
  enemies   20%  CharacterBody2D, layer 2, mask 1, group "enemies", CapsuleShape2D, 10% scaled
  crates    25%  StaticBody2D, layer 1, mask 1, RectangleShape2D, 10% rotated, 5% scaled
  triggers  15%  Area2D, layer 4 (8), mask 2, ConvexPolygonShape2D (3-6 points on an ellipse),
                 half of them rotated
90% are placed where their rough box covers only empty cells (up to 20 tries), the rest
anywhere, so some overlap walls. Pairs (collide's mask-N:layer-N): mask-1:layer-1 (enemies and
crates against the walls, the partial tiles and crates), mask-2:layer-2 (coins and triggers
against enemies).

Prints one JSON line on stderr: cells, solid, decor, partial, bodies, tile_map_data base64 bytes,
level.tscn bytes.
"""
import argparse
import base64
import math
import os
import random
import re
import sys

TILE = 16
EMPTY, SOLID, DECOR, SLOPE, HALF = 0, 1, 2, 3, 4
ATLAS_X = bytes([0, 0, 3, 1, 2] + [0] * 251)  # cell kind -> atlas x (atlas y is 0)
SHAPES = 40  # sub_resources of each kind
SET_RUNS = re.compile(rb"[^\x00]+")


def num(v):
    """Godot-like number text: at most three decimals, no trailing zeros."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def fill(cells, size, x0, y0, w, h, value):
    x1, y1 = min(size, x0 + w), min(size, y0 + h)
    x0, y0 = max(0, x0), max(0, y0)
    if x0 >= x1 or y0 >= y1:
        return
    run = bytes([value]) * (x1 - x0)
    for y in range(y0, y1):
        cells[y * size + x0:y * size + x1] = run


def make_level(rng, size, solid, decor, partial):
    """A bytearray of size*size cell kinds, row by row."""
    cells = bytearray(size * size)
    for x0, y0, w, h in ((0, 0, size, 1), (0, size - 1, size, 1), (0, 0, 1, size), (size - 1, 0, 1, size)):
        fill(cells, size, x0, y0, w, h, SOLID)
    target = int(solid * size * size)
    while cells.count(SOLID) < target:
        for _ in range(max(16, size * size // 4000)):
            x, y = rng.randrange(size), rng.randrange(size)
            if rng.random() < 0.6:  # a block of rock
                fill(cells, size, x, y, rng.randint(2, 24), rng.randint(2, 24), SOLID)
            else:  # a hollow room with a door gap in each wall
                w, h, t = rng.randint(8, 48), rng.randint(8, 32), rng.randint(1, 2)
                for box in ((x, y, w, t), (x, y + h - t, w, t), (x, y, t, h), (x + w - t, y, t, h)):
                    fill(cells, size, *box, SOLID)
                for box in ((x + w // 2 - 1, y, 3, t), (x + w // 2 - 1, y + h - t, 3, t),
                            (x, y + h // 2 - 1, t, 3), (x + w - t, y + h // 2 - 1, t, 3)):
                    fill(cells, size, *box, EMPTY)
    # decoration: patches where only the empty cells take the decoration tile
    to_decor = bytes([DECOR if b == EMPTY else b for b in range(256)])
    target = int(decor * size * size)
    placed = 0
    while placed < target:
        x, y, w, h = rng.randrange(size), rng.randrange(size), rng.randint(4, 32), rng.randint(2, 8)
        x1, y1 = min(size, x + w), min(size, y + h)
        for yy in range(y, y1):
            row = cells[yy * size + x:yy * size + x1]
            cells[yy * size + x:yy * size + x1] = row.translate(to_decor)
            placed += row.count(EMPTY)
    # slopes and half tiles on surfaces: a solid cell under an empty one
    surfaces = 0
    tries = 0
    while surfaces < partial and tries < 50 * partial + 1000:
        tries += 1
        i = rng.randrange(size, size * size)
        if cells[i] == SOLID and cells[i - size] == EMPTY:
            cells[i] = SLOPE if rng.random() < 0.6 else HALF
            surfaces += 1
    return cells


def tile_data(rng, cells, size):
    """The raw tile_map_data: format 0, then the 12-byte records of the set cells, row by row.

    Bulk byte operations (16M cells): a row's records for every x are made with strided slice
    assignments, then the runs of set cells are cut out of it."""
    out = bytearray(b"\x00\x00")
    xs = bytearray(12 * size)
    xs[0::12] = bytes(x & 0xFF for x in range(size))
    xs[1::12] = bytes(x >> 8 for x in range(size))
    for y in range(size):
        row_cells = cells[y * size:(y + 1) * size]
        if not any(row_cells):
            continue
        rec = bytearray(xs)
        rec[2::12] = bytes([y & 0xFF]) * size
        rec[3::12] = bytes([y >> 8]) * size
        rec[6::12] = row_cells.translate(ATLAS_X)
        # a fifth of the slopes flipped horizontally (alternative 0 | TRANSFORM_FLIP_H = 0x1000)
        x = row_cells.find(SLOPE)
        while x >= 0:
            if rng.random() < 0.2:
                rec[12 * x + 11] = 0x10
            x = row_cells.find(SLOPE, x + 1)
        for run in SET_RUNS.finditer(row_cells):
            out += rec[12 * run.start():12 * run.end()]
    return bytes(out)


def free_box(cells, size, x, y, w, h):
    """Whether the pixel box [x, x+w] x [y, y+h] covers only empty or decoration cells."""
    c0, r0 = int(x // TILE), int(y // TILE)
    c1, r1 = int((x + w) // TILE), int((y + h) // TILE)
    if c0 < 0 or r0 < 0 or c1 >= size or r1 >= size:
        return False
    for r in range(r0, r1 + 1):
        row = cells[r * size + c0:r * size + c1 + 1]
        if row.count(EMPTY) + row.count(DECOR) != len(row):
            return False
    return True


def shape_resources(rng):
    """(text, {kind: [(id, half extent)]}): the shared shape sub_resources."""
    text, pool = [], {"circle": [], "capsule": [], "rect": [], "polygon": []}
    for k in range(SHAPES):
        r = rng.choice((4, 5, 6, 8))
        pool["circle"].append((f"CircleShape2D_c{k}", r))
        text.append(f'[sub_resource type="CircleShape2D" id="CircleShape2D_c{k}"]\nradius = {r}.0\n')
        r, h = rng.randint(5, 10), rng.randint(24, 40)
        pool["capsule"].append((f"CapsuleShape2D_e{k}", h / 2))
        text.append(f'[sub_resource type="CapsuleShape2D" id="CapsuleShape2D_e{k}"]\nradius = {r}.0\n'
                    f'height = {h}.0\n')
        w, h = rng.randint(8, 48), rng.randint(8, 32)
        pool["rect"].append((f"RectangleShape2D_r{k}", math.hypot(w, h) / 2))
        text.append(f'[sub_resource type="RectangleShape2D" id="RectangleShape2D_r{k}"]\nsize = Vector2({w}, {h})\n')
        n, r, squash = rng.randint(3, 6), rng.uniform(12, 48), rng.uniform(0.5, 1.0)
        # one vertex in each of n equal sectors, jittered inside it, on an ellipse: convex, as a
        # ConvexPolygonShape2D must be (Godot does not check it, nor does collide)
        pts = []
        for i in range(n):
            a = (i + rng.uniform(-0.3, 0.3)) * 2 * math.pi / n
            pts += [num(r * math.cos(a)), num(squash * r * math.sin(a))]
        pool["polygon"].append((f"ConvexPolygonShape2D_t{k}", r))
        text.append(f'[sub_resource type="ConvexPolygonShape2D" id="ConvexPolygonShape2D_t{k}"]\n'
                    f'points = PackedVector2Array({", ".join(pts)})\n')
    return "\n".join(text), pool


KINDS = (  # (share, parent, name, type, layer, mask, group, shape kind)
    (0.40, "Coins", "Coin", "Area2D", 4, 2, "coins", "circle"),
    (0.20, "Enemies", "Enemy", "CharacterBody2D", 2, 1, "enemies", "capsule"),
    (0.25, "Crates", "Crate", "StaticBody2D", 1, 1, None, "rect"),
    (0.15, "Triggers", "Trigger", "Area2D", 8, 2, None, "polygon"),
)


def body_text(rng, counts, cells, size, pool, per_parent):
    k = rng.random()
    for share, parent, name, typ, layer, mask, group, kind in KINDS:
        if k < share:
            break
        k -= share
    counts[parent] = counts.get(parent, 0) + 1
    sid, extent = rng.choice(pool[kind])
    extra = []
    scale = 1.0
    if kind == "capsule" and rng.random() < 0.1:
        scale = rng.choice((1.5, 2.0))
    elif kind == "rect" and rng.random() < 0.05:
        scale = rng.choice((0.5, 2.0))
    if (kind == "rect" and rng.random() < 0.1) or (kind == "polygon" and rng.random() < 0.5):
        extra.append(f"rotation = {num(rng.uniform(-math.pi, math.pi))}\n")
    if scale != 1.0:
        extra.append(f"scale = Vector2({num(scale)}, {num(scale)})\n")
    reach = extent * scale + 12  # the rough box's half size (with a possible second shape)
    world = size * TILE
    want_free = rng.random() < 0.9
    for _ in range(20 if want_free else 1):
        x = round(rng.uniform(reach, world - reach), 2)
        y = round(rng.uniform(reach, world - reach), 2)
        if not want_free or free_box(cells, size, x - reach, y - reach, 2 * reach, 2 * reach):
            break
    groups = f' groups=["{group}"]' if group else ""
    node = f"{name}{counts[parent]}"
    text = []
    if per_parent:  # the bodies of a kind in rooms of per_parent each, a room made by its first body
        room, first = divmod(counts[parent] - 1, per_parent)
        if first == 0:
            text.append(f'[node name="Room{room + 1}" type="Node2D" parent="{parent}"]\n\n')
        parent = f"{parent}/Room{room + 1}"
    text += [f'[node name="{node}" type="{typ}" parent="{parent}"{groups}]\n',
            f"position = Vector2({num(x)}, {num(y)})\n", *extra]
    if layer != 1:
        text.append(f"collision_layer = {layer}\n")
    if mask != 1:
        text.append(f"collision_mask = {mask}\n")
    text.append(f'\n[node name="Shape" type="CollisionShape2D" parent="{parent}/{node}"]\n'
                f'shape = SubResource("{sid}")\n')
    if rng.random() < 0.05:  # a second shape, offset: the body becomes a compound
        text.append(f'\n[node name="Shape2" type="CollisionShape2D" parent="{parent}/{node}"]\n'
                    f'position = Vector2({rng.randint(-8, 8)}, {rng.randint(-8, 8)})\n'
                    f'shape = SubResource("{rng.choice(pool["circle"])[0]}")\n')
    text.append("\n")
    return "".join(text)


TILESET = """[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_tiles"]
texture_region_size = Vector2i(16, 16)
0:0/0 = 0
0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)
1:0/0 = 0
1:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(8, -8, 8, 8, -8, 8)
2:0/0 = 0
2:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, 0, 8, 0, 8, 8, -8, 8)
3:0/0 = 0

[sub_resource type="TileSet" id="TileSet_level"]
physics_layer_0/collision_layer = 1
physics_layer_0/collision_mask = 0
sources/0 = SubResource("TileSetAtlasSource_tiles")
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=4096, help="cells a side (default 4096)")
    ap.add_argument("--bodies", type=int, default=100000, help="bodies (default 100000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--solid", type=float, default=0.25, help="share of solid cells (default 0.25)")
    ap.add_argument("--decor", type=float, default=0.05, help="share of decoration cells (default 0.05)")
    ap.add_argument("--partial", type=int, default=20000, help="slopes and half tiles (default 20000)")
    ap.add_argument("--per-parent", type=int, default=0,
                    help="bodies per Room node under their kind's parent (default 0: all directly under it)")
    ap.add_argument("--out", required=True, help="the project folder to write (made if missing)")
    a = ap.parse_args()
    if not 4 <= a.size <= 32767 or a.bodies < 0 or not 0 <= a.solid < 0.9 or not 0 <= a.decor < 0.5 \
            or a.solid + a.decor >= 0.95 or a.partial < 0:
        ap.error("need 4 <= --size <= 32767, --bodies >= 0, 0 <= --solid < 0.9, 0 <= --decor < 0.5, "
                 "--solid + --decor < 0.95, --partial >= 0")

    rng = random.Random(a.seed)
    cells = make_level(rng, a.size, a.solid, a.decor, a.partial)
    raw = tile_data(rng, cells, a.size)
    data = base64.b64encode(raw)
    del raw
    shapes, pool = shape_resources(rng)

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "project.godot"), "w", encoding="utf-8", newline="\n") as f:
        f.write("; Generated by tests/bench/gen_godot_scene.py: collide resolves res:// from here.\n"
                'config_version=5\n\n[application]\n\nconfig/name="collide benchmark"\n')
    level = os.path.join(a.out, "level.tscn")
    counts = {}
    with open(level + ".part", "w", encoding="utf-8", newline="\n") as f:
        f.write(f"[gd_scene format=3]\n\n{TILESET}\n{shapes}\n")
        f.write('[node name="Level" type="Node2D"]\n\n'
                '[node name="Walls" type="TileMapLayer" parent="."]\ntile_map_data = PackedByteArray("')
        f.write(data.decode("ascii"))
        f.write('")\ntile_set = SubResource("TileSet_level")\n\n')
        for _, parent, *_ in KINDS:
            f.write(f'[node name="{parent}" type="Node2D" parent="."]\n\n')
        chunk = []
        for _ in range(a.bodies):
            chunk.append(body_text(rng, counts, cells, a.size, pool, a.per_parent))
            if len(chunk) == 10000:
                f.write("".join(chunk))
                chunk.clear()
        f.write("".join(chunk))
    os.replace(level + ".part", level)
    n = a.size * a.size
    print(f'{{"size": {a.size}, "cells": {n}, "solid": {cells.count(SOLID)}, "decor": {cells.count(DECOR)}, '
          f'"partial": {cells.count(SLOPE) + cells.count(HALF)}, "set_cells": {n - cells.count(EMPTY)}, '
          f'"bodies": {a.bodies}, "bodies_by_parent": {{{", ".join(f"{chr(34)}{k}{chr(34)}: {v}" for k, v in counts.items())}}}, '
          f'"base64_bytes": {len(data)}, "level_bytes": {os.path.getsize(level)}}}', file=sys.stderr)


if __name__ == "__main__":
    main()
