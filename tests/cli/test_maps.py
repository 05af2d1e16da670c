#!/usr/bin/env python3
"""Level-editor maps through the real binary: `collide check`, `validate` and `import` on Tiled
and LDtk maps, and `--rules FILE` (SPEC §1.4, §1.5, §3).

    python3 tests/cli/test_maps.py --bin build/cli/collide [--update-golden] [-k TEXT]

Uses the runner and assertions of test_cli.py. Goldens are in tests/cli/golden/maps/.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import test_cli as t
from test_cli import bad_input, check, collide, eq, same_bytes, status, write

ROOT = t.ROOT
GOLDEN = Path(__file__).resolve().parent / "golden" / "maps"
RULES = "samples/tiled/level-rules.json"
# Each map sample with the options its golden is made with.
MAP_SAMPLES = [
    ("tiled/dungeon.tmx", ["--rules", RULES]),
    ("ldtk/platformer.ldtk", []),
]
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def golden_name(sample, fmt):
    return sample.replace("/", "-") + "." + fmt


def golden_test(sample, options, fmt):
    def run():
        r = collide("check", "-f", fmt, *options, f"samples/{sample}")
        check(r.code in (0, 1), f"exit status {r.code}: {r.err[:300]}")
        golden = GOLDEN / golden_name(sample, fmt)
        if t.UPDATE_GOLDEN:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            if not golden.exists() or golden.read_bytes() != r.out:
                golden.write_bytes(r.out)
                print(f"updated {golden.relative_to(ROOT)}")
        check(golden.exists(), f"no golden {golden.relative_to(ROOT)} (run with --update-golden)")
        same_bytes(r.out, golden.read_bytes(), f"{sample} -f {fmt} vs golden")
    return run


for _sample, _options in MAP_SAMPLES:
    for _fmt in t.FORMATS:
        TESTS.append((f"golden[{_sample} -f {_fmt}]", golden_test(_sample, _options, _fmt)))


def scenes_of(r):
    return json.loads(r.out)["scenes"]


def imported_checks_the_same(map_arg, options=()):
    """`collide import MAP` is a scene whose report is the map's, but for the file's name."""
    with tempfile.TemporaryDirectory() as d:
        r = collide("import", map_arg)
        status(r, 0)
        scene = Path(d) / "imported.json"
        scene.write_bytes(r.out)
        from_map = scenes_of(collide("check", *options, map_arg))
        from_scene = scenes_of(collide("check", *options, scene))
        eq(len(from_map), 1, "scenes of one map or level")
        from_map[0]["file"] = from_scene[0]["file"]
        eq(from_scene, from_map, f"report of the imported scene vs of {map_arg}")
        return json.loads(r.out)


@test
def the_tiled_sample_imports_to_a_scene_that_checks_the_same():
    scene = imported_checks_the_same("samples/tiled/dungeon.tmx", ["--rules", RULES])
    ids = [s["id"] for s in scene["shapes"]]
    # One shape per object but the text object; one compound per tile with collision shapes.
    check("player" in ids and "coin#2" in ids and "coin#3" in ids and "hint#11" not in ids, f"ids {ids}")
    check("Hazards@6,6" in ids and "Ledges@10,3" in ids, f"tile compounds in {ids}")
    eq([g["id"] for g in scene["grids"]], ["Walls", "Ledges", "Hazards"], "one grid per tile layer")


@test
def each_ldtk_level_imports_to_a_scene_that_checks_the_same():
    for level in ["Level_0", "Level_1"]:
        imported_checks_the_same(f"samples/ldtk/platformer.ldtk#{level}")


@test
def imported_scenes_follow_the_scene_schema():
    import jsonschema
    schema = json.loads((ROOT / "schemas" / "scene.schema.json").read_text())
    for arg in ["samples/tiled/dungeon.tmx", "samples/ldtk/platformer.ldtk#Level_0",
                "samples/ldtk/platformer.ldtk#Level_1"]:
        r = collide("import", arg)
        status(r, 0)
        jsonschema.validate(json.loads(r.out), schema)


@test
def the_rules_file_fails_the_tiled_sample_for_the_coin_in_the_wall():
    r = collide("check", "--rules", RULES, "samples/tiled/dungeon.tmx")
    status(r, 1)
    rules = {rule["name"]: rule for rule in scenes_of(r)[0]["rules"]}
    eq(rules["pickups are not inside walls"]["violations"], [{"a": "coin#3", "b": "Walls"}], "violations")
    eq(rules["the player starts clear of everything"]["passed"], True, "the player's rule")
    check("rule 'pickups are not inside walls' failed: coin#3 × Walls (samples/tiled/dungeon.tmx)" in r.err,
          f"stderr {r.err!r}")


@test
def a_coin_on_a_ledge_tile_touches_the_ledge_not_its_cell_and_once():
    # SPEC §1.5: a tile with collision shapes is its shapes; its cell is not solid. coin#12 is
    # the circle (22, 56) r 4 resting on the ledge of cell (1, 3), the strip x 16..28, y 60..64.
    r = collide("check", "--rules", RULES, "--near", "10", "samples/tiled/dungeon.tmx")
    scene = scenes_of(r)[0]
    eq([c for c in scene["collisions"] if "coin#12" in (c["a"], c["b"])],
       [{"a": "coin#12", "b": "Ledges@1,3", "relation": "touch", "points": [[22, 60]], "parts_b": [0]}],
       "coin#12's collisions: the ledge, once; not the grid Ledges")
    rules = {rule["name"]: rule["passed"] for rule in scene["rules"]}
    eq(rules["pickups rest on ledges, never inside them"], True, "the ledge rule")
    # Clearance is measured to the spike triangles, not to their cells: the slime's lowest
    # point (107, 94) is 2 above the cells, more than 4 from the triangles.
    eq(rules["enemies keep 4 px clear of the spikes"], True, "the clearance rule")
    slime = [n for n in scene["near"] if n["a"] == "slime"]
    eq([n["b"] for n in slime], ["Hazards@6,6"], "the slime's near pairs")
    check(4 < slime[0]["distance"] < 7, f"slime to the spikes: {slime[0]['distance']}")
    grids = {g["id"]: g["rows"] for g in json.loads(collide("import", "samples/tiled/dungeon.tmx").out)["grids"]}
    eq(grids["Ledges"], ["." * 12] * 8, "the Ledges grid: every cell's tile has shapes")


BAD_TILES_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset name="tiles" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <tile id="1">
  <objectgroup>
   <object id="1" x="0" y="0">
    <polygon points="0,0 16,16 16,0 0,16"/>
   </object>
  </objectgroup>
 </tile>
</tileset>
"""


@test
def an_error_in_a_tileset_names_the_tileset_line_first_then_the_map_and_layer():
    # The bow-tie polygon is tile 1's collision shape in tiles.tsx, line 5; the map places it
    # in layer 'Spikes' (its <layer> on line 4) and as object 'spiky#3' (line 8).
    bow_tie = ("the polygon intersects itself: the edge from point 0 to point 1 and the edge from "
               "point 2 to point 3 meet")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "tiles.tsx").write_text(BAD_TILES_TSX)
        Path(d, "level.tmx").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<map orientation="orthogonal" width="2" height="1" tilewidth="16" tileheight="16">\n'
            ' <tileset firstgid="1" source="tiles.tsx"/>\n'
            ' <layer id="1" name="Spikes" width="2" height="1">\n'
            '  <data encoding="csv">0,2</data>\n'
            ' </layer>\n'
            ' <objectgroup id="2" name="Props">\n'
            '  <object id="3" name="spiky" gid="2" x="0" y="32" width="16" height="16"/>\n'
            ' </objectgroup>\n'
            '</map>\n')
        r = collide("check", "level.tmx", cwd=d)
        bad_input(r)
        eq(r.err, "collide: error: tiles.tsx:5:4: tile 1 of tileset 'tiles', collision shape 0, placed as tile "
                  f"'Spikes@1,0' in layer 'Spikes' (level.tmx:4:2): {bow_tie}\n", "stderr")
        Path(d, "level.tmx").write_text(Path(d, "level.tmx").read_text().replace("0,2", "0,0"))
        r = collide("check", "level.tmx", cwd=d)
        bad_input(r)
        eq(r.err, "collide: error: tiles.tsx:5:4: tile 1 of tileset 'tiles', collision shape 0, placed as object "
                  f"'spiky#3' in layer 'Props' (level.tmx:8:3): {bow_tie}\n", "stderr for a tile object")


@test
def a_text_object_is_skipped_with_a_warning_that_quiet_hides():
    warning = ("collide: warning: samples/tiled/dungeon.tmx: object 'hint#11' in layer 'Objects' is a text "
               "object: skipped\n")
    r = collide("import", "samples/tiled/dungeon.tmx")
    eq(r.err, warning, "stderr of import")
    r = collide("check", "samples/tiled/dungeon.tmx")
    eq(r.err, warning, "stderr of check")
    eq(collide("check", "-q", "samples/tiled/dungeon.tmx").err, "", "stderr with -q")


@test
def validate_prints_a_line_per_scene_of_a_map():
    r = collide("validate", "-q", "samples/tiled/dungeon.tmx")
    status(r, 0)
    eq(r.out, b"", "stdout with -q")
    r = collide("validate", "samples/ldtk/platformer.ldtk")
    status(r, 0)
    eq(r.text, "samples/ldtk/platformer.ldtk#Level_0: valid (4 shapes, 1 grid, 0 moves, 0 rules)\n"
               "samples/ldtk/platformer.ldtk#Level_1: valid (4 shapes, 1 grid, 0 moves, 0 rules)\n", "stdout")


@test
def an_ldtk_level_is_checked_alone_as_file_hash_level():
    r = collide("check", "samples/ldtk/platformer.ldtk#Level_1")
    status(r, 0)
    eq([s["file"] for s in scenes_of(r)], ["samples/ldtk/platformer.ldtk#Level_1"], "scenes")
    r = collide("check", "samples/ldtk/platformer.ldtk")
    eq([s["file"] for s in scenes_of(r)],
       ["samples/ldtk/platformer.ldtk#Level_0", "samples/ldtk/platformer.ldtk#Level_1"], "scenes")


@test
def importing_a_project_of_several_levels_asks_for_one():
    r = collide("import", "samples/ldtk/platformer.ldtk")
    bad_input(r)
    eq(r.err, "collide: error: samples/ldtk/platformer.ldtk: the project has 2 levels: import one of them "
              "(samples/ldtk/platformer.ldtk#Level_0, samples/ldtk/platformer.ldtk#Level_1)\n", "stderr")
    r = collide("check", "samples/ldtk/platformer.ldtk#Level_9")
    bad_input(r)
    eq(r.err, "collide: error: samples/ldtk/platformer.ldtk: no level 'Level_9' (levels: Level_0, Level_1)\n",
       "stderr")


@test
def a_missing_tileset_is_exit_2_naming_the_map_and_the_tileset():
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(ROOT / "samples/tiled/dungeon.tmx", d)
        r = collide("check", Path(d) / "dungeon.tmx", "-o", Path(d) / "report.json")
        bad_input(r)
        check(f"{d}/dungeon.tmx:3:2: tileset 'dungeon-tiles.tsx': " in r.err, f"stderr {r.err!r}")
        check("cannot open: No such file or directory" in r.err, f"stderr {r.err!r}")
        check(not (Path(d) / "report.json").exists(), "no output file")


@test
def a_file_a_map_names_must_be_a_regular_file():
    # A tileset or template that is /dev/zero, a FIFO or a directory: refused at once (issue
    # 26), never read for ever, waited on, or taken for text.
    tmx = ('<?xml version="1.0"?>\n<map orientation="orthogonal" width="1" height="1" tilewidth="16" tileheight="16">\n'
           ' <tileset firstgid="1" source="{tileset}"/>\n'
           ' <objectgroup id="1" name="O"><object id="1" template="{template}" x="0" y="0"/></objectgroup>\n</map>\n')
    with tempfile.TemporaryDirectory() as d:
        Path(d, "t.tsx").write_text('<tileset name="t" tilewidth="16" tileheight="16" tilecount="1"/>')
        Path(d, "obj.tx").write_text('<template><object width="4" height="4"/></template>')
        os.mkfifo(Path(d, "fifo.tsx"))
        Path(d, "folder.tsx").mkdir()
        cases = [("/dev/zero", "obj.tx", "3:2: tileset '/dev/zero': cannot read: not a regular file"),
                 ("fifo.tsx", "obj.tx", "3:2: tileset 'fifo.tsx': cannot read: not a regular file"),
                 ("folder.tsx", "obj.tx", "3:2: tileset 'folder.tsx': cannot read: Is a directory"),
                 ("t.tsx", "/dev/urandom", "4:31: template '/dev/urandom': cannot read: not a regular file")]
        for tileset, template, message in cases:
            Path(d, "m.tmx").write_text(tmx.format(tileset=tileset, template=template))
            r = collide("check", "m.tmx", cwd=d, timeout=20)
            bad_input(r)
            eq(r.err, f"collide: error: m.tmx:{message}\n", f"stderr for {tileset}, {template}")
        Path(d, "m.tmx").write_text(tmx.format(tileset="t.tsx", template="obj.tx"))
        status(collide("check", "m.tmx", cwd=d), 0)


@test
def a_corrupt_layer_is_exit_2_naming_the_layer():
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(ROOT / "samples/tiled/dungeon-tiles.tsx", d)
        text = (ROOT / "samples/tiled/dungeon.tmx").read_text()
        start = text.index('compression="zlib">') + len('compression="zlib">')
        data_start = text.index("eJ", start)
        broken = text[:data_start] + "eJzz" + text[data_start + 4:]  # the zlib header kept, the data not
        map_path = write(d, "dungeon.tmx", broken)
        r = collide("import", map_path)
        bad_input(r)
        check("layer 'Hazards': zlib data is corrupt" in r.err, f"stderr {r.err!r}")


def infinite_map(chunks, objects=""):
    """A TMJ infinite map whose layer 'Ground' holds solid 4 x 4 chunks at the (x, y) given."""
    layer = {"type": "tilelayer", "id": 1, "name": "Ground", "startx": min(x for x, _ in chunks),
             "starty": min(y for _, y in chunks), "width": max(x for x, _ in chunks) - min(x for x, _ in chunks) + 4,
             "height": max(y for _, y in chunks) - min(y for _, y in chunks) + 4,
             "chunks": [{"x": x, "y": y, "width": 4, "height": 4, "data": [1] * 16} for x, y in chunks]}
    return {"type": "map", "orientation": "orthogonal", "infinite": True, "width": 4, "height": 4,
            "tilewidth": 16, "tileheight": 16,
            "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 1, "columns": 1,
                          "image": "t.png", "imagewidth": 16, "imageheight": 16}],
            "layers": [layer, {"type": "objectgroup", "id": 2, "name": "Objects", "objects": objects or []}]}


@test
def chunks_far_apart_become_a_grid_each_and_near_chunks_one_grid():
    # Chunks 100,000 tiles apart: their bounding box is 10^10 cells, so each is a grid of its
    # own, named by its first tile, in the layer's group; chunks side by side stay one grid
    # named by the layer. A coin on the far chunk meets it at its cell; import writes the two
    # small grids and checks the same.
    coin = [{"id": 1, "name": "coin", "x": 1600008 + 20, "y": 1600008 + 4, "width": 4, "height": 4},
            {"id": 2, "name": "spark", "point": True, "x": 8, "y": 8}]
    with tempfile.TemporaryDirectory() as d:
        far = write(d, "far.tmj", infinite_map([(0, 0), (100000, 100000)], coin))
        r = collide("check", "--pairs", "*:Ground", "-f", "jsonl", far)
        status(r, 0)
        records = t.jsonl(r)
        eq([(x["a"], x["b"], x["cells"]) for x in records if x["type"] == "collision"],
           [("coin", "Ground[100000,100000]", [[1, 0]]), ("spark", "Ground[0,0]", [[0, 0]])], "collisions")
        eq(records[-1]["grids"], 2, "two grids")
        imported = imported_checks_the_same(far)
        eq([(g["id"], g["groups"], g["origin"], len(g["rows"]), len(g["rows"][0])) for g in imported["grids"]],
           [("Ground[0,0]", ["Ground"], [0, 0], 4, 4), ("Ground[100000,100000]", ["Ground"], [1600000, 1600000], 4, 4)],
           "the imported grids")
        near = write(d, "near.tmj", infinite_map([(0, 0), (4, 0), (40, 8)], coin))
        grids = scenes_of(collide("check", near))[0]["summary"]["grids"]
        eq(grids, 1, "chunks close together: one grid")
        eq([g["id"] for g in imported_checks_the_same(near)["grids"]], ["Ground"], "named by the layer")


@test
def a_tiled_json_map_named_json_is_read_as_a_map():
    with tempfile.TemporaryDirectory() as d:
        tmj = ROOT / "samples/tiled/dungeon.tmj"
        shutil.copy(tmj, Path(d) / "dungeon.json")
        for f in tmj.parent.glob("dungeon-tiles.*"):
            shutil.copy(f, d)
        as_json = scenes_of(collide("check", "--rules", RULES, Path(d) / "dungeon.json"))
        as_tmx = scenes_of(collide("check", "--rules", RULES, "samples/tiled/dungeon.tmx"))
        as_json[0]["file"] = as_tmx[0]["file"]
        eq(as_json, as_tmx, "the same map as .json and as .tmx")
        # The text is read once, whole, whatever it turns out to be: through standard input
        # and through a FIFO (whose bytes cannot be read a second time) alike.
        text = (Path(d) / "dungeon.json").read_bytes()
        rules = str(ROOT / RULES)
        from_stdin = scenes_of(collide("check", "--rules", rules, "-", stdin=text, cwd=d))
        from_stdin[0]["file"] = as_tmx[0]["file"]
        eq(from_stdin, as_tmx, "the map through standard input")
        fifo = Path(d) / "fifo.json"
        os.mkfifo(fifo)
        writer = threading.Thread(target=lambda: fifo.write_bytes(text), daemon=True)
        writer.start()
        from_fifo = scenes_of(collide("check", "--rules", rules, fifo, cwd=d, timeout=60))
        writer.join(timeout=10)
        from_fifo[0]["file"] = as_tmx[0]["file"]
        eq(from_fifo, as_tmx, "the map through a FIFO")


@test
def the_tmj_and_tmx_samples_import_to_the_same_scene():
    tmx = collide("import", "samples/tiled/dungeon.tmx")
    tmj = collide("import", "samples/tiled/dungeon.tmj")
    status(tmj, 0)
    same_bytes(tmj.out, tmx.out, "import of dungeon.tmj vs dungeon.tmx")


@test
def a_rules_file_applies_to_every_input_after_its_own_rules():
    with tempfile.TemporaryDirectory() as d:
        rules = write(d, "rules.json", {"pairs": ["a:b"], "rules": [{"name": "apart", "pairs": "a:b", "expect": "none"}]})
        one = write(d, "one.json", {"shapes": [t.circle("x", 0, 0, 1, groups=["a"]), t.circle("y", 1, 0, 1, groups=["b"])]})
        two = write(d, "two.json", {"shapes": [t.circle("x", 0, 0, 1, groups=["a"]), t.circle("y", 5, 0, 1, groups=["b"])],
                                    "rules": [{"name": "mine", "pairs": "*:*", "expect": "none"}]})
        r = collide("check", "--rules", rules, one, two)
        status(r, 1)
        eq([[(x["name"], x["passed"]) for x in s["rules"]] for s in scenes_of(r)],
           [[("apart", False)], [("mine", True), ("apart", True)]], "rules per scene")


@test
def a_rules_file_with_shapes_or_a_taken_rule_name_is_exit_2():
    with tempfile.TemporaryDirectory() as d:
        scene = write(d, "level.json", {"shapes": [], "rules": [{"name": "r", "pairs": "*:*", "expect": "none"}]})
        shapes = write(d, "rules.json", '{"rules": [],\n "shapes": []}')
        r = collide("check", "--rules", shapes, scene)
        bad_input(r)
        eq(r.err, f"collide: error: {shapes}:2:12: /shapes: a rules file holds only \"pairs\" and \"rules\", "
                  "not \"shapes\"\n", "stderr")
        taken = write(d, "taken.json", {"rules": [{"name": "r", "pairs": "*:*", "expect": "some"}]})
        r = collide("check", "--rules", taken, scene)
        bad_input(r)
        eq(r.err, f"collide: error: {taken}: /rules/0/name: rule 'r' is also a rule of {scene}\n", "stderr")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("--update-golden", action="store_true", help="rewrite tests/cli/golden/maps/")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    t.BIN = str(Path(args.bin).resolve())
    t.UPDATE_GOLDEN = args.update_golden
    return t.run_tests(TESTS, args.k)

if __name__ == "__main__":
    sys.exit(main())
