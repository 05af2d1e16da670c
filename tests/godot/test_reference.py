#!/usr/bin/env python3
"""Self-test of reference_import.py: hand-written .tscn snippets in temporary folders, with
the scenes SPEC §1.6 says they become, derived by hand (the numbers below are worked out on
paper, not by running the script).

    python3 tests/godot/test_reference.py
    GODOT_REF_KEEP=/tmp/snippets python3 tests/godot/test_reference.py   # keep the projects,
    tests/godot/compare.sh build/cli/collide /tmp/snippets                # then compare them
"""
import base64
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "reference_import.py")


def run(files, scene="level.tscn", project=True):
    with tempfile.TemporaryDirectory() as d:
        if project:
            with open(os.path.join(d, "project.godot"), "w") as f:
                f.write('; Engine configuration file.\nconfig_version=5\n\n[application]\n'
                        'config/name="T"\nconfig/features=PackedStringArray("4.3")\n')
        for name, text in files.items():
            p = os.path.join(d, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        keep = os.environ.get("GODOT_REF_KEEP")
        if keep:  # keep each snippet's project, to run `compare.sh` on them too
            import shutil
            shutil.copytree(d, os.path.join(keep, "%03d" % len(os.listdir(keep)) if
                                            os.path.isdir(keep) else "000"))
        r = subprocess.run([sys.executable, SCRIPT, os.path.join(d, scene)],
                           capture_output=True, text=True)
        out = json.loads(r.stdout) if r.returncode == 0 else None
        return r.returncode, out, r.stderr.replace(d + os.sep, "")


def by_id(scene):
    return {s["id"]: s for s in scene["shapes"] + scene["grids"]}


HEAD = '[gd_scene format=3]\n\n'


class Bodies(unittest.TestCase):
    def test_quarter_turned_rectangle_is_its_polygon(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="RectangleShape2D" id="R"]
size = Vector2(20, 10)

[node name="Level" type="Node2D"]
position = Vector2(1000, 1000)

[node name="Walls" type="StaticBody2D" parent="." groups=["walls"]]
transform = Transform2D(0, 1, -1, 0, 100, 50)

[node name="Shape" type="CollisionShape2D" parent="Walls"]
shape = SubResource("R")
'''})
        self.assertEqual(rc, 0, err)
        s = by_id(out)["Level/Walls"]
        self.assertEqual(s["type"], "polygon")
        # corners (-10,-5) (10,-5) (10,5) (-10,5); x column (0,1), y column (-1,0), origin (100,50)
        self.assertEqual(s["points"], [[105, 40], [105, 60], [95, 60], [95, 40]])
        self.assertEqual(s["groups"], ["walls", "StaticBody2D", "Walls", "layer-1", "mask-1"])
        self.assertEqual(out["pairs"], ["mask-1:layer-1"])

    def test_rotation_property_turns_about_the_position(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="RectangleShape2D" id="R"]
size = Vector2(20, 10)

[node name="Level" type="Node2D"]

[node name="Box" type="RigidBody2D" parent="."]
position = Vector2(30, 40)
rotation = 0.5

[node name="Shape" type="CollisionShape2D" parent="Box"]
shape = SubResource("R")
'''})
        self.assertEqual(rc, 0, err)
        pts = by_id(out)["Level/Box"]["points"]
        for p in pts:  # every corner at distance sqrt(10^2 + 5^2) from the position
            self.assertAlmostEqual(math.hypot(p[0] - 30, p[1] - 40), math.sqrt(125), places=9)
        # the first edge (-10,-5)->(10,-5) points along the turned x axis
        self.assertAlmostEqual(math.atan2(pts[1][1] - pts[0][1], pts[1][0] - pts[0][0]), 0.5, places=9)

    def test_axis_aligned_rect_default_size_and_circle(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="RectangleShape2D" id="R"]
[sub_resource type="CircleShape2D" id="C"]

[node name="Level" type="Node2D"]

[node name="A" type="Area2D" parent="."]
position = Vector2(10, 20)
scale = Vector2(2, 2)
collision_layer = 5
collision_mask = 2

[node name="Shape" type="CollisionShape2D" parent="A"]
position = Vector2(1, 1)
shape = SubResource("R")

[node name="Round" type="CollisionShape2D" parent="A"]
shape = SubResource("C")

[node name="Off" type="CollisionShape2D" parent="A"]
disabled = true
shape = SubResource("C")

[node name="B" type="StaticBody2D" parent="."]
collision_mask = 4

[node name="Shape" type="CollisionShape2D" parent="B"]
shape = SubResource("C")
'''})
        self.assertEqual(rc, 0, err)
        a = by_id(out)["Level/A"]
        self.assertEqual(a["type"], "compound")
        # rect 20x20 at (1,1) under scale 2 at (10,20): min (10 + 2*(1-10), 20 + 2*(1-10))
        self.assertEqual(a["parts"], [{"type": "rect", "min": [-8, 2], "max": [32, 42]},
                                      {"type": "circle", "center": [10, 20], "radius": 20}])
        self.assertEqual(a["groups"], ["Area2D", "A", "layer-1", "layer-3", "mask-2"])
        # masks {2} of A and {3} of B; layers {1, 3} of A and {1} of B: only 3 meets
        self.assertEqual(by_id(out)["Level/B"]["groups"][-2:], ["layer-1", "mask-3"])
        self.assertEqual(out["pairs"], ["mask-3:layer-3"])

    def test_capsule_setters_clamp_in_file_order(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="CapsuleShape2D" id="K1"]
radius = 20.0
height = 30.0

[sub_resource type="CapsuleShape2D" id="K2"]
height = 10.0
radius = 4.0

[node name="Level" type="Node2D"]

[node name="P" type="CharacterBody2D" parent="."]
position = Vector2(10, 20)

[node name="S" type="CollisionShape2D" parent="P"]
shape = SubResource("K1")

[node name="Q" type="CharacterBody2D" parent="."]

[node name="S" type="CollisionShape2D" parent="Q"]
shape = SubResource("K2")
'''})
        self.assertEqual(rc, 0, err)
        # K1: radius 20 raises height to 40; height 30 lowers radius to 15: a circle
        self.assertEqual({k: v for k, v in by_id(out)["Level/P"].items() if k != "groups"},
                         {"id": "Level/P", "type": "capsule", "a": [10, 20], "b": [10, 20], "radius": 15})
        # K2: height 10 lowers radius 10 to 5; radius 4 keeps height 10: half = 5 - 4
        q = by_id(out)["Level/Q"]
        self.assertEqual((q["a"], q["b"], q["radius"]), ([0, -1], [0, 1], 4))

    def test_one_way_collision_polygon_segments_mode(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[node name="Level" type="Node2D"]

[node name="Plank" type="AnimatableBody2D" parent="."]

[node name="P" type="CollisionPolygon2D" parent="Plank"]
polygon = PackedVector2Array(0, 0, 10, 0, 10, 2)
build_mode = 1
one_way_collision = true
'''})
        self.assertEqual(rc, 0, err)
        ids = by_id(out)
        self.assertNotIn("Level/Plank", ids)
        s = ids["Level/Plank#one-way"]
        self.assertEqual(s["type"], "polyline")
        self.assertEqual(s["points"], [[0, 0], [10, 0], [10, 2], [0, 0]])
        self.assertEqual(s["groups"][-1], "one-way")

    def test_chain_stops_at_a_plain_node(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="SegmentShape2D" id="S"]

[node name="Level" type="Node2D"]

[node name="Mover" type="Node2D" parent="."]
position = Vector2(100, 0)

[node name="Holder" type="Node" parent="Mover"]

[node name="Body" type="StaticBody2D" parent="Mover/Holder"]
position = Vector2(1, 2)

[node name="S" type="CollisionShape2D" parent="Mover/Holder/Body"]
shape = SubResource("S")
'''})
        self.assertEqual(rc, 0, err)
        s = by_id(out)["Level/Mover/Holder/Body"]
        self.assertEqual((s["type"], s["a"], s["b"]), ("segment", [1, 2], [1, 12]))

    def test_bow_tie_polygon_is_an_error_naming_the_node(self):
        rc, _, err = run({"level.tscn": HEAD + '''
[node name="Level" type="Node2D"]

[node name="B" type="StaticBody2D" parent="."]

[node name="Poly" type="CollisionPolygon2D" parent="B"]
polygon = PackedVector2Array(0, 0, 10, 10, 10, 0, 0, 20)
'''})
        self.assertEqual(rc, 2)
        self.assertIn("level.tscn:8:1: node 'Level/B/Poly': invalid polygon: edges cross", err)

    def test_component_after_transform_replaces_only_itself(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="RectangleShape2D" id="R"]

[node name="Level" type="Node2D"]

[node name="B" type="StaticBody2D" parent="."]
transform = Transform2D(2, 0, 0, 3, 10, 20)
position = Vector2(1, 1)

[node name="S" type="CollisionShape2D" parent="B"]
shape = SubResource("R")
'''})
        self.assertEqual(rc, 0, err)
        # scale (2, 3) kept, origin replaced: corners (+-10, +-10) -> (1 +- 20, 1 +- 30)
        s = by_id(out)["Level/B"]
        self.assertEqual((s["type"], s["min"], s["max"]), ("rect", [-19, -29], [21, 31]))

    def test_skew_and_top_level(self):
        rc, out, err = run({"level.tscn": HEAD + '''
[sub_resource type="SegmentShape2D" id="S"]

[node name="Level" type="Node2D"]

[node name="Far" type="Node2D" parent="."]
position = Vector2(500, 500)

[node name="B" type="StaticBody2D" parent="Far"]
skew = 0.3

[node name="S" type="CollisionShape2D" parent="Far/B"]
shape = SubResource("S")

[node name="T" type="StaticBody2D" parent="Far"]
top_level = true
position = Vector2(5, 0)

[node name="S" type="CollisionShape2D" parent="Far/T"]
shape = SubResource("S")
'''})
        self.assertEqual(rc, 0, err)
        b = by_id(out)["Level/Far/B"]
        # y axis = (-sin(0 + skew), cos(0 + skew)); b = (0, 10) on it, plus (500, 500)
        self.assertEqual(b["a"], [500, 500])
        self.assertAlmostEqual(b["b"][0], 500 - 10 * math.sin(0.3), places=9)
        self.assertAlmostEqual(b["b"][1], 500 + 10 * math.cos(0.3), places=9)
        t = by_id(out)["Level/Far/T"]
        self.assertEqual((t["a"], t["b"]), ([5, 0], [5, 10]))

    def test_circle_under_non_uniform_scale_is_an_ellipse_and_capsule_an_error(self):
        files = {"level.tscn": HEAD + '''
[sub_resource type="CircleShape2D" id="C"]

[node name="Level" type="Node2D"]

[node name="B" type="StaticBody2D" parent="."]
scale = Vector2(2, 1)

[node name="S" type="CollisionShape2D" parent="B"]
shape = SubResource("C")
'''}
        rc, out, err = run(files)
        self.assertEqual(rc, 0, err)
        e = by_id(out)["Level/B"]
        self.assertEqual((e["type"], e["center"], e["radii"], e["angle"]), ("ellipse", [0, 0], [20, 10], 0))
        files["level.tscn"] = files["level.tscn"].replace('id="C"]', 'id="C"]\n[sub_resource type="CapsuleShape2D" id="K"]').replace(
            'SubResource("C")', 'SubResource("K")')
        rc, _, err = run(files)
        self.assertEqual(rc, 2)
        self.assertIn("node 'Level/B/S': a capsule under a non-uniform scale", err)


class Instancing(unittest.TestCase):
    def test_instance_with_override_and_groups(self):
        rc, out, err = run({
            "coin.tscn": HEAD + '''
[sub_resource type="CircleShape2D" id="C"]
radius = 4.0

[node name="Coin" type="Area2D" groups=["coins"]]
position = Vector2(500, 500)

[node name="S" type="CollisionShape2D" parent="."]
shape = SubResource("C")
''',
            "level.tscn": '[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://coin.tscn" id="1_c"]\n'
                          '[node name="Level" type="Node2D"]\n'
                          '[node name="Gold" parent="." groups=["gold"] instance=ExtResource("1_c")]\n'
                          'position = Vector2(8, 9)\n'
                          '[node name="S" parent="Gold"]\nposition = Vector2(1, 0)\n'})
        self.assertEqual(rc, 0, err)
        s = by_id(out)["Level/Gold"]
        self.assertEqual((s["type"], s["center"], s["radius"]), ("circle", [9, 9], 4))
        self.assertEqual(s["groups"], ["coins", "gold", "Area2D", "Gold", "layer-1", "mask-1"])

    def test_index_places_an_added_node_among_the_instanced_children(self):
        rc, out, err = run({
            "body.tscn": HEAD + '''
[sub_resource type="CircleShape2D" id="C"]

[node name="Body" type="StaticBody2D"]

[node name="A" type="CollisionShape2D" parent="."]
shape = SubResource("C")
''',
            "level.tscn": '[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://body.tscn" id="1"]\n'
                          '[sub_resource type="SegmentShape2D" id="S"]\n'
                          '[node name="Level" type="Node2D"]\n'
                          '[node name="Body" parent="." instance=ExtResource("1")]\n'
                          '[node name="Z" type="CollisionShape2D" parent="Body" index="0"]\n'
                          'shape = SubResource("S")\n'})
        self.assertEqual(rc, 0, err)
        self.assertEqual([p["type"] for p in by_id(out)["Level/Body"]["parts"]], ["segment", "circle"])

    def test_cycle_is_an_error(self):
        rc, out, err = run({
            "a.tscn": '[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://level.tscn" id="1"]\n'
                      '[node name="A" type="Node2D"]\n[node name="L" parent="." instance=ExtResource("1")]\n',
            "level.tscn": '[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://a.tscn" id="1"]\n'
                          '[node name="Level" type="Node2D"]\n[node name="A" parent="." instance=ExtResource("1")]\n'})
        self.assertEqual(rc, 2)
        self.assertIn("instancing cycle", err)

    def test_godot3_file_is_an_error(self):
        rc, _, err = run({"level.tscn": '[gd_scene load_steps=2 format=2]\n[node name="L" type="Node2D"]\n'})
        self.assertEqual(rc, 2)
        self.assertIn("Godot 3", err)


POLY = "PackedVector2Array(-8, -8, 4, -8, -8, 2)"
# alternative n: flip_h = bit 0, flip_v = bit 1, transpose = bit 2; the polygon after
# transpose, then flip h, then flip v (worked by hand)
FLIPPED = {
    0: [[-8, -8], [4, -8], [-8, 2]],
    1: [[8, -8], [-4, -8], [8, 2]],
    2: [[-8, 8], [4, 8], [-8, -2]],
    3: [[8, 8], [-4, 8], [8, -2]],
    4: [[-8, -8], [-8, 4], [2, -8]],
    5: [[8, -8], [8, 4], [-2, -8]],
    6: [[-8, 8], [-8, -4], [2, 8]],
    7: [[8, 8], [8, -4], [-2, 8]],
}


def tileset(shape=0):
    lines = ['[sub_resource type="TileSetAtlasSource" id="A"]',
             '0:0/0 = 0', f'0:0/0/physics_layer_0/polygon_0/points = {POLY}']
    for n in range(1, 8):
        lines.append(f'0:0/{n} = {n}')
        for bit, name in ((1, "flip_h"), (2, "flip_v"), (4, "transpose")):
            if n & bit:
                lines.append(f'0:0/{n}/{name} = true')
        lines.append(f'0:0/{n}/physics_layer_0/polygon_0/points = {POLY}')
    lines += ['1:0/0 = 0', '1:0/0/physics_layer_0/polygon_0/points = '
              'PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)', '',
              '[sub_resource type="TileSet" id="T"]', f'tile_shape = {shape}',
              'physics_layer_0/collision_layer = 2', 'sources/0 = SubResource("A")', '']
    return "\n".join(lines)


class Tiles(unittest.TestCase):
    def test_eight_flips_and_a_full_cell(self):
        cells = b"".join(struct.pack("<hhHHHH", n, 0, 0, 0, 0, n) for n in range(8))
        cells += struct.pack("<hhHHHH", 0, 1, 0, 1, 0, 0)
        data = base64.b64encode(struct.pack("<H", 0) + cells).decode()
        rc, out, err = run({"level.tscn": HEAD + tileset() + f'''
[node name="Level" type="Node2D"]

[node name="Ground" type="TileMapLayer" parent="."]
tile_set = SubResource("T")
tile_map_data = PackedByteArray("{data}")
'''})
        self.assertEqual(rc, 0, err)
        ids = by_id(out)
        for n, pts in FLIPPED.items():
            s = ids[f"Level/Ground@{n},0"]
            self.assertEqual(s["type"], "compound")
            want = [[x + 16 * n + 8, y + 8] for x, y in pts]
            self.assertEqual(s["parts"], [{"type": "polygon", "points": want}], f"alternative {n}")
            self.assertEqual(s["groups"], ["TileMapLayer", "Ground", "layer-2", "mask-1", "tile-collision"])
        g = ids["Level/Ground"]
        self.assertEqual((g["tile_size"], g["origin"], g["rows"], g["outside"]), (16, [0, 16], ["#"], "empty"))
        self.assertEqual(out["pairs"], [])
        self.assertEqual([s["id"] for s in out["shapes"]], [f"Level/Ground@{n},0" for n in range(8)])

    def test_two_physics_layers_name_grids_pk(self):
        ts = tileset().replace("1:0/0/physics_layer_0/", "1:0/0/physics_layer_1/").replace(
            "physics_layer_0/collision_layer = 2", "physics_layer_0/collision_layer = 2\nphysics_layer_1/collision_mask = 8")
        data = base64.b64encode(struct.pack("<H", 0) + struct.pack("<hhHHHH", 3, -2, 0, 1, 0, 0)).decode()
        rc, out, err = run({"level.tscn": HEAD + ts + f'''
[node name="Level" type="Node2D"]

[node name="L" type="TileMapLayer" parent="."]
position = Vector2(0.5, 0)
scale = Vector2(2, 2)
tile_set = SubResource("T")
tile_map_data = PackedByteArray("{data}")
'''})
        self.assertEqual(rc, 0, err)
        self.assertEqual([g["id"] for g in out["grids"]], ["Level/L#p1"])
        g = out["grids"][0]
        # cell (3, -2) of 16 px under scale 2 at (0.5, 0): origin (0.5 + 96, -64), tile 32
        self.assertEqual((g["origin"], g["tile_size"], g["rows"]), ([96.5, -64], 32, ["#"]))
        self.assertEqual(g["groups"], ["TileMapLayer", "L", "layer-1", "mask-4"])

    def test_old_tilemap_int32_cells(self):
        # cell (-1, 2): (2 << 16) | 0xFFFF; source 0 | atlas x 1 << 16; atlas y 0 | alt 0 << 16
        rc, out, err = run({"level.tscn": HEAD + tileset() + '''
[node name="Level" type="Node2D"]

[node name="Map" type="TileMap" parent="."]
position = Vector2(100, 0)
tile_set = SubResource("T")
format = 2
layer_0/tile_data = PackedInt32Array(196607, 65536, 0)
'''})
        self.assertEqual(rc, 0, err)
        g = by_id(out)["Level/Map"]
        self.assertEqual((g["origin"], g["rows"]), ([84, 32], ["#"]))

    def test_non_square_tiles_are_an_error_naming_the_layer(self):
        rc, _, err = run({"level.tscn": HEAD + tileset(shape=3) + '''
[node name="Level" type="Node2D"]

[node name="Hex" type="TileMapLayer" parent="."]
tile_set = SubResource("T")
tile_map_data = PackedByteArray("AAA=")
'''})
        self.assertEqual(rc, 2)
        self.assertIn("'Level/Hex'", err)
        self.assertIn("tile_shape 3", err)


class Grammar(unittest.TestCase):
    def test_every_value_form_parses(self):
        rc, out, err = run({"level.tscn": HEAD + r'''
[sub_resource type="Resource" id="X"]
a = null
b = [true, false, 1, -2.5e3, inf, -inf, inf_neg, nan]
c = "q\"\t\u00e9\U01F600"
d = &"name"
e = ^"Path/To:prop"
f = {"k": Vector2i(1, 2), 3: [Rect2(0, 0, 1, 1)]}
g = Array[int]([1, 2])
h = Dictionary[String, int]({"a": 1})
i = Object(InputEventKey,"resource_local_to_scene":false,"keycode":65)
j = PackedStringArray("a", "b")
k = PackedByteArray(1, 2, 3)
l = Color(1, 0.5, 0, 1) ; a comment
"quoted/key" = 1

[node name="Level" type="Node2D"]
metadata/_x = SubResource("X")
'''})
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["shapes"], [])

    def test_bad_syntax_names_line_and_column(self):
        rc, _, err = run({"level.tscn": HEAD + '[node name="Level" type="Node2D"]\nposition = Vector2(1, @)\n'})
        self.assertEqual(rc, 2)
        self.assertIn("level.tscn:4:", err)


if __name__ == "__main__":
    unittest.main()
