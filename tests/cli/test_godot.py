#!/usr/bin/env python3
"""Godot scenes through the real binary (SPEC §1.6, README "Checking Godot scenes in CI"), on
the sample project samples/godot: `check` of the scene equals `check` of its import, the CI
formats place findings at the node's line (found here in the scene's text), the scene's
`metadata/collide_ignore`, `validate` and `render`, a folder of scenes, and the errors.

    python3 tests/cli/test_godot.py --bin build/cli/collide [-k TEXT]
"""
import json
import re
import sys
import tempfile
from pathlib import Path

import test_cli as t
from test_cli import bad_input, check, collide, eq, status, write

LEVEL = "samples/godot/levels/level.tscn"
RULES = "samples/godot/rules.json"
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def node_line(path, name):
    """The 1-based line of `[node name="NAME" ...]` in the scene's text."""
    lines = (t.ROOT / path).read_text().splitlines()
    return next(k + 1 for k, line in enumerate(lines) if line.startswith(f'[node name="{name}"'))


@test
def check_of_the_scene_equals_check_of_its_import():
    imported = collide("import", LEVEL)
    status(imported, 0)
    scene = json.loads(imported.out)
    eq(scene["pairs"], ["mask-1:layer-1", "mask-2:layer-2", "mask-3:layer-3"], "pairs from the layers and masks")
    ids = [s["id"] for s in scene["shapes"]]
    check("Level/Player" in ids and "Level/Coins/Coin3" in ids and "Level/Plank#one-way" in ids, f"ids: {ids}")
    check("Level/Walls@11,7" in ids and "Level/Walls@16,7" in ids, f"the slopes' compounds: {ids}")
    eq([g["id"] for g in scene["grids"]], ["Level/Walls"], "grids")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(write(tmp, "level.json", imported.text))
        for fmt in ["json", "jsonl", "csv", "text"]:
            a = collide("check", "-f", fmt, "--rules", RULES, LEVEL)
            b = collide("check", "-f", fmt, "--rules", RULES, path)
            eq(a.code, b.code, f"{fmt}: exit status")
            eq(a.text.replace(LEVEL, "X"), b.text.replace(path, "X"), f"{fmt}: check MAP vs check (import MAP)")


@test
def findings_are_placed_at_their_nodes():
    r = collide("check", "-f", "gcc", "--rules", RULES, LEVEL)
    status(r, 1)
    coin, walls = node_line(LEVEL, "Coin3"), node_line(LEVEL, "Walls")
    eq(r.text, f"{LEVEL}:{coin}:1: error: 'Level/Coins/Coin3' collides with 'Level/Walls' ({LEVEL}:{walls}:1) "
               "[coins clear of walls]\n", "gcc")
    r = collide("check", "-f", "github", "--rules", RULES, LEVEL)
    check(r.text.startswith(f"::error file={LEVEL},line={coin},col=1,"), f"github: {r.text!r}")
    sarif = json.loads(collide("check", "-f", "sarif", "--rules", RULES, LEVEL).out)
    result = sarif["runs"][0]["results"][0]
    eq(result["locations"][0]["physicalLocation"]["region"], {"startLine": coin, "startColumn": 1}, "SARIF region")
    eq(result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "Level/Coins/Coin3", "SARIF: the node path")
    # Coin4 sits in a wall too, but its node says metadata/collide_ignore = "coins clear of walls".
    report = json.loads(collide("check", "--rules", RULES, LEVEL).out)
    eq(report["scenes"][0]["summary"]["ignored"], 1, "summary.ignored")
    r = collide("check", "-f", "jsonl", "--locations", "--rules", RULES, LEVEL)
    player = next(json.loads(line) for line in r.text.splitlines() if '"Level/Player"' in line) if '"Level/Player"' in r.text else None
    check(player is None, "the player collides with nothing in the sample")


@test
def validate_render_and_a_folder():
    r = collide("validate", "samples/godot")
    status(r, 0)
    eq([line.split(":")[0] for line in r.text.splitlines()],
       ["samples/godot/actors/coin.tscn", "samples/godot/actors/player.tscn", "samples/godot/levels/level.tscn",
        "samples/godot/rules.json"], "validate a folder: its scenes in sorted order")
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "level.svg"
        r = collide("render", "--rules", RULES, "-o", str(svg), LEVEL)
        status(r, 1)
        text = svg.read_text()
        check(text.startswith("<svg") or text.startswith("<?xml"), "not an SVG")
        check("Level/Coins/Coin3" in text and "coins clear of walls" in text, "the violator and its rule are not in the picture")


@test
def errors_name_the_file_line_and_node():
    with tempfile.TemporaryDirectory() as tmp:
        bad = write(tmp, "bad.tscn", '[gd_scene format=3]\n\n[node name="Level" type="Node2D"]\n\n'
                                     '[node name="Wall" type="StaticBody2D" parent="."]\nposition = Vector2(1, "2")\n')
        r = collide("check", bad)
        bad_input(r)
        eq(r.err, f"collide: error: {bad}:6:23: node 'Level/Wall': position: a string where a number belongs\n", "bad")
        eq(r.out, b"", "nothing on stdout")
        old = write(tmp, "old.tscn", '[gd_scene load_steps=1 format=2]\n\n[node name="Level" type="Node2D"]\n')
        r = collide("import", old)
        bad_input(r)
        check("a Godot 3 scene (format=2)" in r.err, r.err)
        binary = write(tmp, "level.scn", "RSRC")
        r = collide("check", binary)
        bad_input(r)
        check("a binary Godot scene" in r.err and "save it as .tscn" in r.err, r.err)


def big_layer_scene(cells, data_suffix=b""):
    """A scene whose TileMapLayer holds `cells` full cells in rows of 300 (12 bytes a cell after
    the format's two, 1.4 MB of base64 for 90,000: a file collide maps into memory and whose
    layer it decodes on a second thread), then a coin on the grid and one off it."""
    import base64
    import struct
    data = b"\0\0" + b"".join(struct.pack("<hhHHHH", k % 300, k // 300, 0, 0, 0, 0) for k in range(cells))
    text = (b'[gd_scene format=3]\n\n[sub_resource type="TileSetAtlasSource" id="a"]\n'
            b"0:0/0 = 0\n0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)\n\n"
            b'[sub_resource type="TileSet" id="t"]\nsources/0 = SubResource("a")\n\n'
            b'[sub_resource type="CircleShape2D" id="c"]\nradius = 4.0\n\n[node name="Level" type="Node2D"]\n\n'
            b'[node name="Walls" type="TileMapLayer" parent="."]\ntile_set = SubResource("t")\ntile_map_data = PackedByteArray("'
            + base64.b64encode(data) + data_suffix + b'")\n')
    for name, x in [(b"In", 40), (b"Out", 9000)]:
        text += (b'\n[node name="' + name + b'" type="Area2D" parent="."]\nposition = Vector2(' + str(x).encode() + b", 40)\n"
                 b'\n[node name="S" type="CollisionShape2D" parent="' + name + b'"]\nshape = SubResource("c")\n')
    return text


@test
def a_big_scene_is_read_as_a_small_one():
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.tscn"
        big.write_bytes(big_layer_scene(90000))
        check(big.stat().st_size > 1 << 20, "the scene is over 1 MiB")
        imported = collide("import", str(big))
        status(imported, 0)
        scene = json.loads(imported.out)
        eq(scene["grids"][0]["rows"], ["#" * 300] * 300, "the layer's 90,000 cells")
        path = str(write(tmp, "big.json", imported.text))
        a, b = collide("check", "-f", "jsonl", str(big)), collide("check", "-f", "jsonl", path)
        status(a, 0)  # collisions, and no rule to fail
        eq(a.text.replace(str(big), "X"), b.text.replace(path, "X"), "check MAP vs check (import MAP)")
        check('"Level/In"' in a.text and '"Level/Out"' not in a.text, a.text[:300])
        # A bad byte in the big base64 string: the error of a small one, at the value's place.
        text = big_layer_scene(90000, b"*AAA")
        big.write_bytes(text)
        line = next(k + 1 for k, l in enumerate(text.split(b"\n")) if l.startswith(b"tile_map_data = "))
        r = collide("check", str(big))
        bad_input(r)
        check(re.fullmatch(rf"collide: error: {re.escape(str(big))}:{line}:17: PackedByteArray: base64 data holds '\*' at byte \d+\n", r.err),
              r.err)


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
