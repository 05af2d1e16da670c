#!/usr/bin/python3
"""Check the JSON Schemas in schemas/ against the samples and the conformance corpus.

    /usr/bin/python3 tests/schema/validate.py [--cases DIR... | --no-cases] [--report FILE]... [-v]

Needs the `jsonschema` module (Debian: apt-get install python3-jsonschema; a pyenv or venv
python3 on PATH may lack it, hence /usr/bin/python3).

Checks, one pass or fail each:
  * both schemas are valid draft 2020-12 schemas, every definition with a title and a description;
  * they accept and reject the small inline examples below (SCENE_ACCEPT, SCENE_REJECT, ...),
    among them the report example of SPEC.md section 4;
  * every samples/*.json is valid against schemas/scene.schema.json and passes the semantic
    checks a schema cannot express (unique ids, move ids and rule names; rect min <= max;
    simple polygons; equal-length grid rows; moves naming an existing grid; every selector
    selecting something, since collide warns otherwise); no object has a duplicate key;
  * samples/shmup-bullets.json is exactly what samples/generate_shmup.py prints;
  * every valid corpus scene (*.scene.json) is accepted by the schema and the semantic checks;
  * every invalid corpus scene (*.invalid.json) listed in STRUCTURAL is rejected by the schema,
    every one listed in SEMANTIC by the semantic checks, and any other invalid scene by one of
    them (otherwise it must be classified here); the lists are per corpus (CORPUS_LISTS:
    cases, cases-v2);
  * every reference report in the corpus (*.expected.json, *.notouch.json, without their
    "_oracle" notes) is valid against schemas/report.schema.json, and so are the JSON Lines
    records made from it;
  * each --report FILE (a JSON report, or JSON Lines) is valid against report.schema.json.

Prints one line per failure, then "N passed, M failed"; exits 1 when anything failed, 2 on a
usage error.
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys
from fractions import Fraction

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
except ImportError:
    sys.stderr.write("validate.py: error: the jsonschema module is missing "
                     "(apt-get install python3-jsonschema, and run with /usr/bin/python3)\n")
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMAS = os.path.join(ROOT, "schemas")
SAMPLES = os.path.join(ROOT, "samples")
DEFAULT_CASES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "conformance", "cases"))

# Invalid corpus cases (by name, without the "NNNN-" prefix) that are wrong in structure
# alone: the scene schema must reject them. One list per corpus (the name of its directory).
STRUCTURAL = [
    "invalid-circle-extra-key-raduis",      # unknown key next to the right one
    "invalid-circle-typo-raduis",           # typo'd key (and so a missing required one)
    "invalid-grid-missing-id",              # missing required field
    "invalid-move-body-typo-raduis",
    "invalid-number-1e400",                 # not finite as a double: outside the number bounds
    "invalid-polygon-2-points",             # minItems 3
    "invalid-polyline-1-point",             # minItems 2
    "invalid-rule-missing-name",
    "invalid-tile-size-zero",               # exclusiveMinimum 0
    "invalid-unknown-key-in-grid",
    "invalid-unknown-key-in-move",
    "invalid-unknown-key-in-move-body",
    "invalid-unknown-key-in-rule",
    "invalid-unknown-key-in-settings",
    "invalid-unknown-key-in-shape",
    "invalid-unknown-shape-type",           # type enum
    "invalid-wrong-format",                 # format const
]

# Invalid corpus cases a schema cannot catch; the semantic checks below must.
SEMANTIC = [
    "invalid-duplicate-id-explicit-0-vs-default",
    "invalid-duplicate-move-id",
    "invalid-duplicate-move-id-default",
    "invalid-grid-id-equals-default-shape-id",
    "invalid-inverted-rect-min-max",
    "invalid-polygon-2-distinct-after-repeats",
    "invalid-polygon-spike-back-along-edge",
    "invalid-rows-unequal-length",
    "invalid-rule-duplicate-name",
    "invalid-self-intersecting-polygon",
]

# The second corpus (issue 13: capsules, boxes, ellipses, compounds): every invalid case in
# it is wrong in structure.
STRUCTURAL_V2 = [
    "invalid-box-angle-string",
    "invalid-box-size-negative",
    "invalid-box-size-not-a-pair",
    "invalid-box-size-zero",                # positivePair: exclusiveMinimum 0
    "invalid-capsule-a-equals-b-radius-zero",
    "invalid-capsule-missing-b",
    "invalid-capsule-radius-negative",
    "invalid-capsule-radius-zero",
    "invalid-compound-4097-parts",          # maxItems 4096
    "invalid-compound-empty-parts",         # minItems 1
    "invalid-compound-missing-parts",
    "invalid-compound-nested",              # a part's type enum has no compound
    "invalid-compound-part-invalid",
    "invalid-compound-part-typo",
    "invalid-compound-part-unknown-type",
    "invalid-compound-part-with-groups",    # "groups": false in a part
    "invalid-compound-part-with-id",
    "invalid-compound-parts-not-array",
    "invalid-compound-unknown-key",
    "invalid-ellipse-radius-negative",
    "invalid-ellipse-radius-zero",
    "invalid-ellipse-round-vertices-3",     # minimum 8, round or not
    "invalid-ellipse-vertices-fraction",    # type integer
    "invalid-ellipse-vertices-string",
]
SEMANTIC_V2 = []

CORPUS_LISTS = {"cases": (STRUCTURAL, SEMANTIC), "cases-v2": (STRUCTURAL_V2, SEMANTIC_V2)}


# Small scenes that pin down the scene schema's edges: (what, scene).
_C = {"type": "circle", "center": [0, 0], "radius": 1}
_G = {"id": "g", "tile_size": 8, "rows": ["#."]}
SCENE_ACCEPT = [
    ("an empty scene", {}),
    ("format and version", {"format": "collide-scene", "version": 1}),
    ("rect as min/max", {"shapes": [{"type": "rect", "min": [0, 0], "max": [1, 1]}]}),
    ("rect as x/y/width/height", {"shapes": [{"type": "rect", "x": 0, "y": 0, "width": 1, "height": 0}]}),
    ("rect as left/top/right/bottom", {"shapes": [{"type": "rect", "left": 0, "top": 0, "right": 1, "bottom": 1}]}),
    ("circle of radius 0", {"shapes": [dict(_C, radius=0)]}),
    ("polygon closed by repeating its first vertex", {"shapes": [{"type": "polygon", "points": [[0, 0], [1, 0], [0, 1], [0, 0]]}]}),
    ("tile_size [w, h]", {"grids": [dict(_G, tile_size=[16, 8])]}),
    ("grid given as cells", {"grids": [{"id": "g", "tile_size": 1, "cells": [[0, 1], [2, 0]]}]}),
    ("move with a point body", {"grids": [_G], "moves": [{"grid": "g", "from": [0, 0], "to": [1, 1], "body": {"type": "point"}}]}),
    ("rule with touching ignored", {"rules": [{"name": "r", "pairs": "*:*", "expect": "each", "touching": "ignored"}]}),
    ("a pair spec split at its first colon", {"pairs": ["player:door:1"]}),
    ("capsule", {"shapes": [{"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 1}]}),
    ("capsule with a == b", {"shapes": [{"type": "capsule", "a": [1, 1], "b": [1, 1], "radius": 0.5}]}),
    ("box without angle", {"shapes": [{"type": "box", "center": [0, 0], "size": [2, 1]}]}),
    ("box at a negative fractional angle", {"shapes": [{"type": "box", "center": [0, 0], "size": [2, 1], "angle": -22.5}]}),
    ("round ellipse", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [2, 2]}]}),
    ("ellipse with angle and vertices 8 and 4096", {"shapes": [
        {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "angle": 30, "vertices": 8},
        {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 4096}]}),
    ("ellipse vertices written 16.0 (an integer)", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 16.0}]}),
    ("compound of every simple type", {"shapes": [{"id": "c", "groups": ["boss"], "type": "compound", "parts": [
        {"type": "point", "at": [0, 0]}, _C, {"type": "rect", "left": 0, "top": 0, "right": 1, "bottom": 1},
        {"type": "segment", "a": [0, 0], "b": [1, 1]}, {"type": "line", "a": [0, 0], "b": [1, 1]},
        {"type": "ray", "origin": [0, 0], "direction": [1, 0]},
        {"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]]}, {"type": "polyline", "points": [[0, 0], [1, 0]]},
        {"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 1}, {"type": "box", "center": [0, 0], "size": [1, 1]},
        {"type": "ellipse", "center": [0, 0], "radii": [2, 1]}]}]}),
    ("compound of 4096 parts", {"shapes": [{"type": "compound", "parts": [_C] * 4096}]}),
]
SCENE_REJECT = [
    ("a top-level $schema key", {"$schema": "x"}),
    ("version 2", {"version": 2}),
    ("version true", {"version": True}),
    ("y_axis sideways", {"settings": {"y_axis": "sideways"}}),
    ("a position of 3 numbers", {"shapes": [{"type": "point", "at": [0, 0, 0]}]}),
    ("a position given as an object", {"shapes": [{"type": "point", "at": {"x": 0, "y": 0}}]}),
    ("a numeric string", {"shapes": [{"type": "point", "at": ["0", 0]}]}),
    ("a negative radius", {"shapes": [dict(_C, radius=-1)]}),
    ("a numeric id", {"shapes": [dict(_C, id=3)]}),
    ("an empty id", {"shapes": [dict(_C, id="")]}),
    ("a negative width", {"shapes": [{"type": "rect", "x": 0, "y": 0, "width": -1, "height": 1}]}),
    ("groups as a string", {"shapes": [dict(_C, groups="enemies")]}),
    ("a shape without type", {"shapes": [{"center": [0, 0], "radius": 1}]}),
    ("a shape type from a later format (triangle)", {"shapes": [{"type": "triangle", "points": [[0, 0], [1, 0], [0, 1]]}]}),
    ("capsule of radius 0", {"shapes": [{"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 0}]}),
    ("capsule without radius", {"shapes": [{"type": "capsule", "a": [0, 0], "b": [1, 0]}]}),
    ("capsule with a center", {"shapes": [{"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 1, "center": [0, 0]}]}),
    ("box of width 0", {"shapes": [{"type": "box", "center": [0, 0], "size": [0, 1]}]}),
    ("box of negative height", {"shapes": [{"type": "box", "center": [0, 0], "size": [1, -1]}]}),
    ("box size of one number", {"shapes": [{"type": "box", "center": [0, 0], "size": 2}]}),
    ("box size of three numbers", {"shapes": [{"type": "box", "center": [0, 0], "size": [1, 1, 1]}]}),
    ("box angle as a string", {"shapes": [{"type": "box", "center": [0, 0], "size": [1, 1], "angle": "45"}]}),
    ("box given as min/max", {"shapes": [{"type": "box", "min": [0, 0], "max": [1, 1]}]}),
    ("box with vertices", {"shapes": [{"type": "box", "center": [0, 0], "size": [1, 1], "vertices": 8}]}),
    ("ellipse of radius 0", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [0, 1]}]}),
    ("ellipse with one radius", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": 1}]}),
    ("ellipse with 7 vertices", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [2, 1], "vertices": 7}]}),
    ("ellipse with 4097 vertices", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [2, 1], "vertices": 4097}]}),
    ("ellipse with 3.5 vertices", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [2, 1], "vertices": 3.5}]}),
    ("ellipse with vertices as a string", {"shapes": [{"type": "ellipse", "center": [0, 0], "radii": [2, 1], "vertices": "32"}]}),
    ("compound without parts", {"shapes": [{"type": "compound"}]}),
    ("compound with no parts", {"shapes": [{"type": "compound", "parts": []}]}),
    ("compound with parts as an object", {"shapes": [{"type": "compound", "parts": _C}]}),
    ("compound of 4097 parts", {"shapes": [{"type": "compound", "parts": [_C] * 4097}]}),
    ("compound inside a compound", {"shapes": [{"type": "compound", "parts": [{"type": "compound", "parts": [_C]}]}]}),
    ("a part with an id", {"shapes": [{"type": "compound", "parts": [dict(_C, id="core")]}]}),
    ("a part with groups", {"shapes": [{"type": "compound", "parts": [dict(_C, groups=["weak"])]}]}),
    ("a part with a typo", {"shapes": [{"type": "compound", "parts": [{"type": "circle", "center": [0, 0], "raduis": 1}]}]}),
    ("a part without type", {"shapes": [{"type": "compound", "parts": [{"center": [0, 0], "radius": 1}]}]}),
    ("a part that is a grid", {"shapes": [{"type": "compound", "parts": [_G]}]}),
    ("a compound with an unknown key", {"shapes": [{"type": "compound", "parts": [_C], "angle": 0}]}),
    ("rect mixing min/max and x", {"shapes": [{"type": "rect", "min": [0, 0], "max": [1, 1], "x": 0}]}),
    ("rect mixing x/y/w/h and left", {"shapes": [{"type": "rect", "x": 0, "y": 0, "width": 1, "height": 1, "left": 0}]}),
    ("rect with only min", {"shapes": [{"type": "rect", "min": [0, 0]}]}),
    ("rect with no corners", {"shapes": [{"type": "rect"}]}),
    ("segment missing b", {"shapes": [{"type": "segment", "a": [0, 0]}]}),
    ("ray with a key of a line", {"shapes": [{"type": "ray", "origin": [0, 0], "direction": [1, 0], "b": [1, 1]}]}),
    ("grid with rows and cells", {"grids": [dict(_G, cells=[[1]])]}),
    ("grid with neither rows nor cells", {"grids": [{"id": "g", "tile_size": 8}]}),
    ("grid without tile_size", {"grids": [{"id": "g", "rows": ["#"]}]}),
    ("a grid of no rows", {"grids": [dict(_G, rows=[])]}),
    ("a grid of empty rows", {"grids": [dict(_G, rows=["", ""])]}),
    ("a grid of empty cell rows", {"grids": [{"id": "g", "tile_size": 1, "cells": [[]]}]}),
    ("tile_size [16, 0]", {"grids": [dict(_G, tile_size=[16, 0])]}),
    ("tile_size negative", {"grids": [dict(_G, tile_size=-8)]}),
    ("cells with a fraction", {"grids": [{"id": "g", "tile_size": 1, "cells": [[0, 1.5]]}]}),
    ("outside blocked", {"grids": [dict(_G, outside="blocked")]}),
    ("move without grid", {"moves": [{"from": [0, 0], "to": [1, 1]}]}),
    ("move body capsule", {"grids": [_G], "moves": [{"grid": "g", "from": [0, 0], "to": [1, 1], "body": {"type": "capsule"}}]}),
    ("rect body without size", {"grids": [_G], "moves": [{"grid": "g", "from": [0, 0], "to": [1, 1], "body": {"type": "rect"}}]}),
    ("check everything", {"grids": [_G], "moves": [{"grid": "g", "from": [0, 0], "to": [1, 1], "check": "everything"}]}),
    ("expect collides", {"grids": [_G], "moves": [{"grid": "g", "from": [0, 0], "to": [1, 1], "expect": "collides"}]}),
    ("pair spec without colon", {"pairs": ["player"]}),
    ("pair spec with empty side", {"pairs": ["player:"]}),
    ("pairs as a string", {"pairs": "a:b"}),
    ("rule expect all", {"rules": [{"name": "r", "pairs": "*:*", "expect": "all"}]}),
    ("rule touching counted", {"rules": [{"name": "r", "pairs": "*:*", "expect": "none", "touching": "counted"}]}),
    ("rule pairs as a list", {"rules": [{"name": "r", "pairs": ["a:b"], "expect": "none"}]}),
]

# The JSON report of SPEC.md section 4, verbatim.
SPEC_REPORT = {"scenes": [{"file": "level1.json",
    "collisions": [{"a": "player", "b": "crate", "relation": "touch", "points": [[48, 40]]},
                   {"a": "player", "b": "maze", "relation": "overlap", "cells": [[2, 2]]}],
    "moves": [{"id": "step-right", "allowed": False, "t": 0.15, "stop": [36, 50], "cell": [2, 2]}],
    "rules": [{"name": "player starts clear", "passed": False,
               "violations": [{"a": "player", "b": "crate"}, {"a": "player", "b": "maze"}]}],
    "summary": {"shapes": 2, "grids": 1, "collisions": 2, "moves": 1, "blocked": 1, "rules_failed": 1}}]}


def _report_with(**changes):
    """SPEC_REPORT's scene with some entries replaced."""
    scene = dict(SPEC_REPORT["scenes"][0], **changes)
    return {"scenes": [scene]}


REPORT_ACCEPT = [
    ("the SPEC section 4 example", SPEC_REPORT),
    ("no scenes", {"scenes": []}),
    ("--no-points: a collision without points", _report_with(collisions=[{"a": "x", "b": "y", "relation": "within"}])),
    ("a grid collision reaching only the outside", _report_with(collisions=[{"a": "x", "b": "g", "relation": "overlap", "cells": [], "outside": True}])),
    ("an allowed move with passed", _report_with(moves=[{"id": "m", "allowed": True, "passed": True}])),
    ("a blocked move leaving the grid", _report_with(moves=[{"id": "m", "allowed": False, "t": 1, "stop": [1, 2], "cell": [-1, 0]}])),
    ("compound parts on both sides", _report_with(collisions=[{"a": "boss", "b": "hero", "relation": "touch", "points": [[1, 2]], "parts_a": [0, 3], "parts_b": [1]}])),
    ("a compound against a grid", _report_with(collisions=[{"a": "boss", "b": "g", "relation": "overlap", "cells": [[0, 0]], "parts_a": [2]}])),
]
REPORT_REJECT = [
    ("an unknown relation", _report_with(collisions=[{"a": "x", "b": "y", "relation": "crosses"}])),
    ("outside false", _report_with(collisions=[{"a": "x", "b": "g", "relation": "overlap", "cells": [], "outside": False}])),
    ("a grid collision with points", _report_with(collisions=[{"a": "x", "b": "g", "relation": "overlap", "cells": [[0, 0]], "points": []}])),
    ("a grid collision that is not overlap", _report_with(collisions=[{"a": "x", "b": "g", "relation": "touch", "cells": [[0, 0]]}])),
    ("an allowed move with t", _report_with(moves=[{"id": "m", "allowed": True, "t": 0.5}])),
    ("a blocked move without cell", _report_with(moves=[{"id": "m", "allowed": False, "t": 0.5, "stop": [0, 0]}])),
    ("t above 1", _report_with(moves=[{"id": "m", "allowed": False, "t": 1.5, "stop": [0, 0], "cell": [0, 0]}])),
    ("a violation without a", _report_with(rules=[{"name": "r", "passed": False, "violations": [{"b": "y"}]}])),
    ("a summary without rules_failed", _report_with(summary={"shapes": 2, "grids": 1, "collisions": 2, "moves": 1, "blocked": 1})),
    ("a scene without file", {"scenes": [{k: v for k, v in SPEC_REPORT["scenes"][0].items() if k != "file"}]}),
    ("an unknown key", _report_with(warnings=[])),
    ("parts_a empty", _report_with(collisions=[{"a": "boss", "b": "y", "relation": "overlap", "parts_a": []}])),
    ("parts_b of a negative index", _report_with(collisions=[{"a": "x", "b": "boss", "relation": "overlap", "parts_b": [-1]}])),
    ("parts_a repeated", _report_with(collisions=[{"a": "boss", "b": "y", "relation": "overlap", "parts_a": [1, 1]}])),
]
JSONL_ACCEPT = [
    ("a collision record", {"type": "collision", "scene": "a.json", "a": "x", "b": "y", "relation": "touch", "points": [[0, 1]]}),
    ("a move record", {"type": "move", "scene": "a.json", "id": "m", "allowed": True}),
    ("a rule record", {"type": "rule", "scene": "a.json", "name": "r", "passed": True, "violations": []}),
    ("a collision record with parts", {"type": "collision", "scene": "a.json", "a": "boss", "b": "y", "relation": "overlap", "points": [], "parts_a": [0]}),
    ("a summary record", {"type": "summary", "scene": "a.json", "shapes": 2, "grids": 1, "collisions": 2, "moves": 1, "blocked": 1, "rules_failed": 1}),
]
JSONL_REJECT = [
    ("a record without scene", {"type": "move", "id": "m", "allowed": True}),
    ("a record of type warning", {"type": "warning", "scene": "a.json"}),
    ("a summary with a collision's key", {"type": "summary", "scene": "a.json", "shapes": 2, "grids": 1, "collisions": 2, "moves": 1, "blocked": 1, "rules_failed": 1, "a": "x"}),
]


class Results:
    def __init__(self, verbose):
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def ok(self, what, note=""):
        self.passed += 1
        if self.verbose:
            print("ok   %s%s" % (what, ": " + note if note else ""))

    def fail(self, what, why):
        self.failed += 1
        print("FAIL %s: %s" % (what, why))


def display(path):
    """A path relative to the working directory when that is short, else absolute."""
    rel = os.path.relpath(path)
    return rel if not rel.startswith(os.path.join(os.pardir, os.pardir)) else os.path.abspath(path)


class DuplicateKey(ValueError):
    pass


def load_json(path, strict_keys=False):
    """Read JSON as collide does: UTF-8, a leading BOM skipped, NaN/Infinity literals refused."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]

    def pairs(items):
        keys = [k for k, _ in items]
        if strict_keys and len(keys) != len(set(keys)):
            dup = sorted({k for k in keys if keys.count(k) > 1})
            raise DuplicateKey("duplicate key %s" % ", ".join(repr(k) for k in dup))
        return dict(items)

    def no_constant(name):
        raise ValueError("%s is not JSON" % name)

    return json.loads(raw.decode("utf-8"), object_pairs_hook=pairs, parse_constant=no_constant)


def first_error(validator, doc):
    """The most relevant schema error as 'PATH: message', or None when valid."""
    err = best_match(validator.iter_errors(doc))
    if err is None:
        return None
    return "%s: %s" % (err.json_path, err.message)


# --------------------------------------------------------------------------------------
# Semantic checks: what SPEC.md requires and a JSON Schema cannot express.
# --------------------------------------------------------------------------------------
def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_meet(a, b, c, d):
    """Exact intersection of closed segments ab and cd: [] , [point] or [p, q] (shared piece)."""
    d1, d2, d3, d4 = cross(a, b, c), cross(a, b, d), cross(c, d, a), cross(c, d, b)
    if d1 == 0 and d2 == 0:
        axis = 0 if a[0] != b[0] else 1
        lo1, hi1 = sorted([a, b], key=lambda p: p[axis])
        lo2, hi2 = sorted([c, d], key=lambda p: p[axis])
        lo = lo1 if lo1[axis] >= lo2[axis] else lo2
        hi = hi1 if hi1[axis] <= hi2[axis] else hi2
        if lo[axis] > hi[axis]:
            return []
        return [lo] if lo == hi else [lo, hi]
    if (d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0) or (d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0):
        return []
    t = d3 / (d3 - d4)
    return [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)]


def polygon_problem(points):
    """Why a polygon is invalid per SPEC 1.1, or None. Exact rational arithmetic."""
    v = []
    for p in points:
        q = (Fraction(p[0]), Fraction(p[1]))
        if not v or v[-1] != q:
            v.append(q)
    while len(v) > 1 and v[0] == v[-1]:
        v.pop()
    n = len(v)
    if n < 3:
        return "needs >= 3 distinct vertices after dropping repeated ones (has %d)" % n
    if sum(cross((0, 0), v[i], v[(i + 1) % n]) for i in range(n)) == 0:
        return "zero area"
    for i in range(n):
        for j in range(i + 1, n):
            a, b, c, d = v[i], v[(i + 1) % n], v[j], v[(j + 1) % n]
            meet = segments_meet(a, b, c, d)
            if j == i + 1:
                allowed = [b]
            elif i == 0 and j == n - 1:
                allowed = [a]
            else:
                allowed = []
            if meet != allowed:
                return "self-intersection (edges %d and %d)" % (i, j)
    return None


def rect_problem(shape, y_axis):
    if "min" in shape:
        lo, hi = shape["min"], shape["max"]
    elif "x" in shape:
        lo = [shape["x"], shape["y"]]
        hi = [shape["x"] + shape["width"], shape["y"] + shape["height"]]  # IEEE addition
        if not all(math.isfinite(v) for v in hi):
            return "x + width or y + height overflows"
    else:
        top, bottom = shape["top"], shape["bottom"]
        if y_axis == "down" and top > bottom:
            return "top %r > bottom %r with y_axis down" % (top, bottom)
        if y_axis == "up" and top < bottom:
            return "top %r < bottom %r with y_axis up" % (top, bottom)
        lo = [shape["left"], min(top, bottom)]
        hi = [shape["right"], max(top, bottom)]
    if lo[0] > hi[0] or lo[1] > hi[1]:
        return "min > max"
    return None


def shape_problem(s, y_axis):
    """Why one shape (or a compound's part) is invalid beyond the schema, or None. The
    corners of a box and the points of an ellipse are not checked here: they fail only when
    the shape is far smaller than the spacing of doubles at its position."""
    t = s["type"]
    if t == "rect":
        return rect_problem(s, y_axis)
    if t == "polygon":
        why = polygon_problem(s["points"])
        return why and "polygon " + why
    if t == "line" and s["a"] == s["b"]:
        return "line needs a != b"
    if t == "ray" and s["direction"] == [0, 0]:
        return "ray needs a non-zero direction"
    if t == "compound":
        for k, part in enumerate(s["parts"]):
            why = shape_problem(part, y_axis)
            if why:
                return "parts[%d]: %s" % (k, why)
    return None


def selects(sel, ids_and_groups):
    return sel == "*" or any(sel == i or sel in g for i, g in ids_and_groups)


def semantic_problems(scene, check_selectors):
    """Everything SPEC.md rejects (or, for samples, warns about) beyond the schema."""
    problems = []
    y_axis = scene.get("settings", {}).get("y_axis", "down")
    ids = {}
    members = []
    for i, s in enumerate(scene.get("shapes", [])):
        sid = s.get("id", str(i))
        where = "shapes[%d]" % i
        if sid in ids:
            problems.append("%s: duplicate id %r (also %s)" % (where, sid, ids[sid]))
        ids.setdefault(sid, where)
        members.append((sid, s.get("groups", [])))
        why = shape_problem(s, y_axis)
        if why:
            problems.append("%s: %s" % (where, why))
    grid_ids = set()
    for i, g in enumerate(scene.get("grids", [])):
        where = "grids[%d]" % i
        if g["id"] in ids:
            problems.append("%s: duplicate id %r (also %s)" % (where, g["id"], ids[g["id"]]))
        ids.setdefault(g["id"], where)
        grid_ids.add(g["id"])
        members.append((g["id"], g.get("groups", [])))
        rows = g.get("rows", g.get("cells"))
        if len({len(r) for r in rows}) > 1:
            problems.append("%s: rows of unequal length" % where)
    move_ids = {}
    for i, m in enumerate(scene.get("moves", [])):
        mid = m.get("id", str(i))
        if mid in move_ids:
            problems.append("moves[%d]: duplicate move id %r (also %s)" % (i, mid, move_ids[mid]))
        move_ids.setdefault(mid, "moves[%d]" % i)
        if "grid" in m and m["grid"] not in grid_ids:
            problems.append("moves[%d]: no grid %r" % (i, m["grid"]))
    names = {}
    for i, r in enumerate(scene.get("rules", [])):
        if r["name"] in names:
            problems.append("rules[%d]: duplicate rule name %r (also %s)" % (i, r["name"], names[r["name"]]))
        names.setdefault(r["name"], "rules[%d]" % i)
    if check_selectors:
        specs = [("pairs[%d]" % i, p) for i, p in enumerate(scene.get("pairs", []))]
        specs += [("rules[%d].pairs" % i, r["pairs"]) for i, r in enumerate(scene.get("rules", []))]
        specs += [("moves[%d].against" % i, m["against"]) for i, m in enumerate(scene.get("moves", [])) if "against" in m]
        for where, spec in specs:
            for sel in spec.split(":"):
                if not selects(sel, members):
                    problems.append("%s: selector %r selects nothing" % (where, sel))
    return problems


# --------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------
def case_name(path, suffix):
    """'0176-invalid-circle-typo-raduis.invalid.json' -> 'invalid-circle-typo-raduis'."""
    base = os.path.basename(path)[: -len(suffix)]
    return re.sub(r"^\d+-", "", base)


def check_scene_file(res, path, scene_v, strict):
    """Schema + semantic checks of one scene that must be valid."""
    what = display(path)
    try:
        doc = load_json(path, strict_keys=strict)
    except (ValueError, UnicodeDecodeError) as e:
        res.fail(what, "not readable as JSON: %s" % e)
        return
    err = first_error(scene_v, doc)
    if err:
        res.fail(what, "rejected by scene.schema.json at " + err)
        return
    problems = semantic_problems(doc, check_selectors=strict)
    if problems:
        res.fail(what, "; ".join(problems))
        return
    res.ok(what)


def check_inline(res, scene_v, report_v, jsonl_v):
    """The schemas accept and reject exactly what the small inline examples say."""
    for schema, v, accept, reject in (("scene", scene_v, SCENE_ACCEPT, SCENE_REJECT),
                                      ("report", report_v, REPORT_ACCEPT, REPORT_REJECT),
                                      ("jsonl", jsonl_v, JSONL_ACCEPT, JSONL_REJECT)):
        for what, doc in accept:
            err = first_error(v, doc)
            if err:
                res.fail("%s schema accepts %s" % (schema, what), "rejected at " + err)
            else:
                res.ok("%s schema accepts %s" % (schema, what))
        for what, doc in reject:
            err = first_error(v, doc)
            if err:
                res.ok("%s schema rejects %s" % (schema, what), err)
            else:
                res.fail("%s schema rejects %s" % (schema, what), "accepted")


def check_samples(res, scene_v):
    files = sorted(glob.glob(os.path.join(SAMPLES, "*.json")))
    if not files:
        res.fail(display(SAMPLES), "no samples found")
    for path in files:
        check_scene_file(res, path, scene_v, strict=True)
    gen = os.path.join(SAMPLES, "generate_shmup.py")
    out = os.path.join(SAMPLES, "shmup-bullets.json")
    if os.path.exists(gen):
        what = display(out)
        run = subprocess.run([sys.executable, gen], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if run.returncode != 0:
            res.fail(display(gen), "exited %d: %s" % (run.returncode, run.stderr.decode()[-300:]))
        elif not os.path.exists(out) or open(out, "rb").read() != run.stdout:
            res.fail(what, "differs from the output of generate_shmup.py (regenerate it)")
        else:
            res.ok(what, "matches generate_shmup.py")


def check_corpus(res, cases, scene_v, report_v, jsonl_v):
    valid = sorted(glob.glob(os.path.join(cases, "*.scene.json")))
    invalid = sorted(glob.glob(os.path.join(cases, "*.invalid.json")))
    if not valid and not invalid:
        res.fail(display(cases), "no *.scene.json or *.invalid.json files")
        return
    for path in valid:
        check_scene_file(res, path, scene_v, strict=False)

    structural, semantic = CORPUS_LISTS.get(os.path.basename(os.path.normpath(cases)), ([], []))
    seen = set()
    for path in invalid:
        what = display(path)
        name = case_name(path, ".invalid.json")
        seen.add(name)
        try:
            doc = load_json(path)
        except (ValueError, UnicodeDecodeError) as e:
            res.ok(what, "not JSON: %s" % e)
            continue
        err = first_error(scene_v, doc)
        problems = None if err else semantic_problems(doc, check_selectors=False)
        if name in structural:
            if err:
                res.ok(what, "schema rejects it at " + err)
            else:
                res.fail(what, "structurally invalid, but scene.schema.json accepts it")
        elif name in semantic:
            if err or problems:
                res.ok(what, err and "schema rejects it at " + err or "; ".join(problems))
            else:
                res.fail(what, "semantically invalid, but the semantic checks accept it")
        elif err or problems:
            res.ok(what, "unlisted; rejected: " + (err or "; ".join(problems)))
        else:
            res.fail(what, "unlisted invalid case accepted by schema and semantic checks "
                           "(add it to STRUCTURAL or SEMANTIC in %s)" % os.path.basename(__file__))
    for name in structural + semantic:
        if name not in seen:
            res.fail(name, "listed in %s but not found in %s" % (os.path.basename(__file__), display(cases)))

    reports = sorted(glob.glob(os.path.join(cases, "*.expected.json")) +
                     glob.glob(os.path.join(cases, "*.notouch.json")))
    for path in reports:
        what = display(path)
        try:
            doc = load_json(path)
        except (ValueError, UnicodeDecodeError) as e:
            res.fail(what, "not readable as JSON: %s" % e)
            continue
        doc.pop("_oracle", None)
        if "scenes" not in doc:  # an invalid case: no report at all
            continue
        check_report_doc(res, what, doc, report_v, jsonl_v, also_jsonl=True)


def jsonl_records(doc):
    """The JSON Lines records equivalent to a JSON report."""
    for sc in doc["scenes"]:
        for kind, key in (("collision", "collisions"), ("move", "moves"), ("rule", "rules")):
            for rec in sc[key]:
                yield dict({"type": kind, "scene": sc["file"]}, **rec)
        yield dict({"type": "summary", "scene": sc["file"]}, **sc["summary"])


def check_report_doc(res, what, doc, report_v, jsonl_v, also_jsonl=False):
    err = first_error(report_v, doc)
    if err:
        res.fail(what, "rejected by report.schema.json at " + err)
        return
    if also_jsonl:
        for n, rec in enumerate(jsonl_records(doc), 1):
            err = first_error(jsonl_v, rec)
            if err:
                res.fail(what, "JSON Lines record %d rejected by $defs/jsonlRecord at %s" % (n, err))
                return
    res.ok(what)


def check_report_file(res, path, report_v, jsonl_v):
    what = display(path)
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        res.fail(what, "cannot read: %s" % e)
        return
    try:
        doc = json.loads(text)
        whole = not (isinstance(doc, dict) and "type" in doc and "scenes" not in doc)
    except ValueError:
        whole = False
    if whole:
        check_report_doc(res, what, doc, report_v, jsonl_v)
        return
    lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not lines:
        res.fail(what, "empty report")
        return
    last_type = {}
    for n, line in lines:
        try:
            rec = json.loads(line)
        except ValueError as e:
            res.fail(what, "line %d is not JSON: %s" % (n, e))
            return
        err = first_error(jsonl_v, rec)
        if err:
            res.fail(what, "line %d rejected by $defs/jsonlRecord at %s" % (n, err))
            return
        if last_type.get(rec["scene"]) == "summary":
            res.fail(what, "line %d: record after the summary of scene %r" % (n, rec["scene"]))
            return
        last_type[rec["scene"]] = rec["type"]
    unfinished = [s for s, t in last_type.items() if t != "summary"]
    if unfinished:
        res.fail(what, "no final summary record for scene(s) %s" % ", ".join(map(repr, unfinished)))
        return
    res.ok(what, "JSON Lines, %d records" % len(lines))


def check_binary_reports(res, binary, report_v, jsonl_v):
    """The reports of `collide check --locations` (sources in every record) for the samples."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    inputs = [["samples/rules-fail.json"], ["samples/maze-moves.json"],
              ["--rules", "samples/tiled/level-rules.json", "samples/tiled/dungeon.tmx"],
              ["--rules", "samples/tiled/level-rules.json", "samples/tiled/dungeon.tmj"],
              ["samples/ldtk/platformer.ldtk"], ["--near", "8", "samples/spec-example.json"]]
    for args in inputs:
        what = "collide check --locations " + " ".join(args)
        for fmt in ("json", "jsonl"):
            r = subprocess.run([binary, "check", "--locations", "-f", fmt] + args, cwd=root,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if r.returncode not in (0, 1):
                res.fail(what, "exit %d" % r.returncode)
                continue
            text = r.stdout.decode("utf-8")
            if "\"source" not in text:
                res.fail(what, "no source in the %s report" % fmt)
                continue
            if fmt == "json":
                check_report_doc(res, what + " (json)", json.loads(text), report_v, jsonl_v)
            else:
                for n, line in enumerate(text.splitlines(), 1):
                    err = first_error(jsonl_v, json.loads(line))
                    if err:
                        res.fail(what + " (jsonl)", "line %d rejected at %s" % (n, err))
                        break
                else:
                    res.ok(what + " (jsonl)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", metavar="DIR", action="append", default=[],
                    help="conformance cases directory; repeatable (default: %s)" % DEFAULT_CASES)
    ap.add_argument("--no-cases", action="store_true", help="skip the conformance corpus")
    ap.add_argument("--report", metavar="FILE", action="append", default=[],
                    help="a collide report (JSON or JSON Lines) to validate; repeatable")
    ap.add_argument("--bin", metavar="COLLIDE",
                    help="also validate what this binary writes with --locations for the samples and maps "
                         "(JSON and JSON Lines)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print passes too")
    args = ap.parse_args()

    res = Results(args.verbose)
    schemas = {}
    for name in ("scene", "report"):
        path = os.path.join(SCHEMAS, "%s.schema.json" % name)
        try:
            schemas[name] = load_json(path, strict_keys=True)
            Draft202012Validator.check_schema(schemas[name])
            res.ok(display(path))
            undocumented = [k for k, d in schemas[name]["$defs"].items()
                            if not (d.get("title") and d.get("description"))]
            if undocumented:
                res.fail(display(path), "$defs without title or description: " + ", ".join(undocumented))
            else:
                res.ok(display(path), "every definition has a title and a description")
        except (OSError, ValueError, jsonschema.exceptions.SchemaError) as e:
            res.fail(display(path), "not a valid draft 2020-12 schema: %s" % str(e).split("\n")[0])
    if len(schemas) != 2 or res.failed:
        print("%d passed, %d failed" % (res.passed, res.failed))
        return 1

    scene_v = Draft202012Validator(schemas["scene"])
    report_v = Draft202012Validator(schemas["report"])
    jsonl_schema = {"$schema": schemas["report"]["$schema"], "$defs": schemas["report"]["$defs"],
                    "$ref": "#/$defs/jsonlRecord"}
    jsonl_v = Draft202012Validator(jsonl_schema)

    check_inline(res, scene_v, report_v, jsonl_v)
    check_samples(res, scene_v)
    for cases in ([] if args.no_cases else args.cases or [DEFAULT_CASES]):
        if not os.path.isdir(cases):
            if args.cases:
                ap.error("--cases %s: not a directory" % cases)
            res.fail(display(cases), "conformance cases not found (use --cases DIR or --no-cases)")
        else:
            check_corpus(res, cases, scene_v, report_v, jsonl_v)
    for path in args.report:
        check_report_file(res, path, report_v, jsonl_v)
    if args.bin:
        check_binary_reports(res, args.bin, report_v, jsonl_v)

    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
