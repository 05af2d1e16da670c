#!/usr/bin/env python3
"""Seed inputs for fuzz_godot (tests/fuzz/fuzz_godot.cpp), written into the folder given.

An input is a `.tscn` scene, then up to four files it names, each after a line
"%%file NAME". The seeds: the sample project (samples/godot: its level with the TileSet and the
instanced scenes it names) and small hand-made scenes covering each shape class, transforms,
one-way shapes, a TileMap's int data, an isometric TileSet and a Godot 3 header.

    python3 tests/fuzz/seed_fuzz_godot.py tests/fuzz/corpus/fuzz_godot
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SAMPLE = os.path.join(ROOT, "samples", "godot")


def pack(scene, files=()):
    out = scene.encode()
    for name, text in files:
        out += b"\n%%file " + name.encode() + b"\n" + text.encode()
    return out


def read(*parts):
    with open(os.path.join(SAMPLE, *parts), encoding="utf-8") as f:
        return f.read()


HEAD = "[gd_scene format=3]\n\n"


def body(resource, props="", node_props="", shape_props=""):
    return (HEAD + f'[sub_resource type="{resource}" id="s"]\n{props}\n[node name="L" type="Node2D"]\n\n'
            f'[node name="B" type="StaticBody2D" parent="."]\n{node_props}\n'
            f'[node name="S" type="CollisionShape2D" parent="B"]\nshape = SubResource("s")\n{shape_props}')


def seeds():
    level = read("levels", "level.tscn").replace("res://", "")
    yield "sample-level", pack(level, [("tiles.tres", read("tiles.tres")), ("actors/player.tscn", read("actors", "player.tscn")),
                                       ("actors/coin.tscn", read("actors", "coin.tscn")), ("project.godot", read("project.godot"))])
    yield "rect-turned", pack(body("RectangleShape2D", "size = Vector2(8, 4)\n", "rotation = 0.5\nskew = 0.25\n"))
    yield "circle-scaled", pack(body("CircleShape2D", "radius = 3.0\n", "scale = Vector2(2, 1)\n"))
    yield "capsule-clamped", pack(body("CapsuleShape2D", "height = 4.0\nradius = 5.0\n", "", "one_way_collision = true\n"))
    yield "segments", pack(body("ConcavePolygonShape2D", "segments = PackedVector2Array(0, 0, 1, 1, 1, 1, 2, 0)\n"))
    yield "boundary", pack(body("WorldBoundaryShape2D", "normal = Vector2(0.6, -0.8)\ndistance = 3.0\n"))
    yield "polygon-node", pack(HEAD + '[node name="L" type="Node2D"]\n[node name="A" type="Area2D" parent="."]\n'
                               'collision_layer = 3\ncollision_mask = 5\n[node name="P" type="CollisionPolygon2D" parent="A"]\n'
                               'polygon = PackedVector2Array(0, 0, 4, 0, 0, 4)\nbuild_mode = 1\n')
    tiles = ('[sub_resource type="TileSetAtlasSource" id="a"]\n0:0/0 = 0\n'
             '0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)\n'
             '1:0/0 = 0\n1:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, -8, 0)\n1:0/1 = 1\n1:0/1/transpose = true\n'
             '[sub_resource type="TileSet" id="t"]\nphysics_layer_0/collision_layer = 2\nsources/0 = SubResource("a")\n')
    yield "tilemap-ints", pack(HEAD + tiles + '[node name="L" type="Node2D"]\n[node name="M" type="TileMap" parent="."]\n'
                               'tile_set = SubResource("t")\nformat = 2\nlayer_0/tile_data = PackedInt32Array(0, 0, 0, 1, 65536, 65536, 65537, 65536, 0)\n')
    yield "tilemaplayer", pack(HEAD + tiles + '[node name="L" type="Node2D"]\n[node name="W" type="TileMapLayer" parent="."]\n'
                               'tile_set = SubResource("t")\ntile_map_data = PackedByteArray("AAAAAAAAAAAAAAAAAAABAAAAAAABAAAAAQA=")\n')
    yield "isometric", pack(HEAD + '[sub_resource type="TileSet" id="t"]\ntile_shape = 1\n[node name="L" type="Node2D"]\n'
                            '[node name="W" type="TileMapLayer" parent="."]\ntile_set = SubResource("t")\n')
    yield "godot3", pack('[gd_scene load_steps=1 format=2]\n\n[node name="L" type="Node2D"]\n')


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
