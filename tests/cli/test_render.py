#!/usr/bin/env python3
"""`collide render` through the real binary and a real browser (SPEC §3 `render`).

    python3 tests/cli/test_render.py --bin build/cli/collide --out build/tests/render [--no-browser] [--no-big]

Every sample scene and map is rendered to SVG; each SVG must be well-formed (`xmllint`), give
every shape, grid and move a <title>, and exit as `collide check` does. Then headless
Chromium draws the SVGs (one page of them all, one browser run) and each picture's PNG is kept
in --out as an artefact of the run; Pillow (Debian's python3-pil) reads the pixels, checked against what `collide check` reports: every intersection point of an overlapping pair
shows the overlap colour, every one of a touching pair the touch colour, and places where the
scene has nothing (found by asking collide which probe circles meet nothing) stay background
white. The pixel of a scene point comes from the `data-view` of the SVG and the scene's own
y axis, so a picture drawn upside down fails. Failed rules: every violating shape and grid has
a title naming the rule and an id label, and its outline shows the violation colour; a scene of
its own (a wide level with a clearance rule) shows a violator that collides with nothing
hatched rather than grey, and its legend whole in a 1200 px wide window, as every sample's.
Last, a 1000×1000 grid with 100,000 shapes must stay a few MB and open in the browser.

--no-browser --no-big (the sanitizer build) keeps the SVG checks of the samples and the rule scene.
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

try:
    from PIL import Image  # Debian's python3-pil; run with /usr/bin/python3
except ImportError:
    Image = None

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
OVERLAP, TOUCH, WHITE = (0xD6, 0x27, 0x28), (0xE6, 0x9F, 0x00), (255, 255, 255)
VIOLATION = (0xC5, 0x1B, 0x7D)  # lib/src/render/render_svg.cpp: .violation, the hatch's stripes
HATCH = (220, 118, 177)  # a stripe of the hatch: VIOLATION at fill-opacity .6 on white
SOLID = (0x3E, 0x4C, 0x59)
DOT_RADIUS_PX = 3.5  # lib/src/render/render_svg.cpp: .dot-* stroke-width 7, round caps
RING_PX = 8  # lib/src/render/render_svg.cpp: ring_if_small, around shapes of 8 px or less
LABEL_CHAR_PX, LABEL_CHARS = 6.6, 24  # lib/src/render/picture_notes.cpp: kLabelCharWidth, kLabelChars
PICTURE_WIDTH, LEGEND_WIDTH = 1200, 290  # lib/src/render/picture.hpp: kPictureWidth, kLegendWidth
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(*args, stdin=None):
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, text=True, timeout=300)


def inputs():
    """(name, argument, scene JSON) for every sample: scenes as they are, maps imported."""
    out = []
    for f in sorted((ROOT / "samples").glob("*.json")):
        out.append((f.stem, str(f), json.loads(f.read_text())))
    for arg in [ROOT / "samples/tiled/dungeon.tmx", ROOT / "samples/tiled/dungeon.tmj", str(ROOT / "samples/ldtk/platformer.ldtk") + "#Level_0"]:
        r = run(BIN, "import", arg)
        check(r.returncode == 0, f"collide import {arg}: exit {r.returncode}: {r.stderr[:300]}")
        name = Path(str(arg).split("#")[0]).name.replace(".", "-")
        out.append((name, str(arg), json.loads(r.stdout) if r.returncode == 0 else {}))
    return out


# --- SVG ------------------------------------------------------------------------------------

def svg_checks(name, arg, scene, svg_path):
    r = run("xmllint", "--noout", svg_path)
    check(r.returncode == 0, f"{name}: xmllint: {r.stderr[:300]}")
    root = ET.parse(svg_path).getroot()
    titles = [t.text or "" for t in root.iter(SVG + "title")]
    ids = [s["id"] for s in scene.get("shapes", [])] + [g["id"] for g in scene.get("grids", [])]
    for i in ids:
        check(any(t.startswith(i + " (") for t in titles), f"{name}: no <title> for {i!r}")
    for m in scene.get("moves", []):
        check(any(t.startswith(f"move {m['id']}: ") for t in titles), f"{name}: no <title> for move {m['id']!r}")
    check_view_box(name, root)
    return [float(v) for v in root.get("data-view").split()], root


def check_view_box(name, root):
    """The picture, legend included, lies in its declared view, at most PICTURE_WIDTH wide."""
    w, h = float(root.get("width")), float(root.get("height"))
    check(root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}", f"{name}: viewBox {root.get('viewBox')!r}")
    check(w <= PICTURE_WIDTH + 0.05, f"{name}: the picture is {w} px wide")
    legend = next(g for g in root.iter(SVG + "g") if g.get("id") == "legend")
    x = float(legend.get("transform").split("(")[1].split()[0])
    check(x + LEGEND_WIDTH <= w + 0.05, f"{name}: the legend at x {x} does not fit {w} px")
    last = max(float(t.get("y")) for t in legend.iter(SVG + "text"))
    check(last + 4 <= h, f"{name}: the legend's last line at y {last} does not fit {h} px")


def labels(root):
    """{text: (left, top, right, bottom)} of the id labels, as render places and measures them."""
    out = {}
    for g in root.iter(SVG + "g"):
        if g.get("id") == "labels":
            for t in g.iter(SVG + "text"):
                x, y = float(t.get("x")), float(t.get("y"))
                out[t.text] = (x, y - 10, x + len(t.text) * LABEL_CHAR_PX + 2, y + 3)
    return out


def label_of(object_id):
    return object_id if len(object_id) <= LABEL_CHARS else object_id[:LABEL_CHARS - 1] + "…"


def violators(report):
    """{id: [rule names]} of the shapes and grids in failed rules' violations."""
    out = {}
    for rule in report.get("rules", []):
        if not rule["passed"]:
            for v in rule["violations"]:
                for side in ("a", "b"):
                    if side in v:
                        out.setdefault(v[side], []).append(rule["name"])
    return out


def rule_checks(name, root, report):
    """Each violator's title names its failed rules; it and each object in a collision has a label."""
    titles = [t.text or "" for t in root.iter(SVG + "title")]
    for object_id, rules in violators(report).items():
        title = next((t for t in titles if t.startswith(object_id + " (")), "")
        for rule in rules:
            check(f"\nviolates '{rule}'" in title, f"{name}: the title of {object_id!r} does not name rule {rule!r}: {title!r}")
    named = set(violators(report)) | {c[k] for c in report["collisions"] for k in ("a", "b")}
    placed = labels(root)
    for object_id in named:
        check(label_of(object_id) in placed, f"{name}: no label for {object_id!r}")


def to_px(view, y_up, p):
    cx, cy, upp, w, h = view
    x = w / 2 + (p[0] - cx) / upp
    y = h / 2 + (p[1] - cy) / upp * (-1 if y_up else 1)
    return x, y


# --- the browser --------------------------------------------------------------------------

def svg_size(svg_path):
    root = ET.parse(svg_path).getroot()
    return int(float(root.get("width")) + 0.999), int(float(root.get("height")) + 0.999)


def screenshot(page, png_path, width, height):
    """Headless Chromium draws `page` in a window of width × height px into png_path."""
    with tempfile.TemporaryDirectory() as profile:  # a profile of its own: runs may overlap
        r = run(BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                f"--user-data-dir={profile}", f"--window-size={width},{height}", f"--screenshot={png_path}",
                Path(page).resolve().as_uri())
    return r.returncode == 0 and Path(png_path).exists(), r.stderr[-500:]


def screenshot_all(out, svgs):
    """All the pictures in one browser run (starting Chromium costs more than drawing): a page
    that stacks them as images, one screenshot, cut back into one PNG a picture. Returns
    {name: PIL image} (empty when the browser failed)."""
    top, places, items = 0, {}, []
    for name, svg in svgs:
        w, h = svg_size(svg)
        items.append(f'<img src="{svg.name}" style="position:absolute;left:0;top:{top}px;width:{w}px;height:{h}px">')
        places[name] = (top, w, h)
        top += h
    page = out / "all-samples.html"
    page.write_text('<!DOCTYPE html><html><body style="margin:0;background:#fff">' + "".join(items) + "</body></html>\n")
    width = max(w for _, w, _ in places.values())
    ok, err = screenshot(page, out / "all-samples.png", width, top)
    if not check(ok, f"chromium drew no PNG of the samples: {err}"):
        return {}
    whole = Image.open(out / "all-samples.png").convert("RGB")
    shots = {}
    for name, (y, w, h) in places.items():
        shots[name] = whole.crop((0, y, w, y + h))
        shots[name].save(out / f"{name}.png")  # the artefacts
    return shots


def near(colour, want, tolerance=24):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, want))


def empty_probes(name, scene, view, y_up):
    """Scene points at least 12 px from everything drawn: probe circles on a lattice, kept
    when collide says they meet no shape, no solid cell and no move's path; each with whether
    it lies in a grid (where faint cell lines may pass)."""
    cx, cy, upp, w, h = view
    r = 12 * upp
    shapes = [dict(s, groups=["scene"]) for s in scene.get("shapes", [])]
    extents = []
    for g in scene.get("grids", []):
        tw, th = (g["tile_size"], g["tile_size"]) if isinstance(g["tile_size"], (int, float)) else g["tile_size"]
        cols, rows = max(len(row) for row in g["rows"]), len(g["rows"])
        ox, oy = g.get("origin", [0, 0])
        extents.append((ox, oy, ox + cols * tw, oy + rows * th))
        x0, y0, x1, y1 = extents[-1]  # its border is drawn
        shapes.append({"id": f"border-{g['id']}", "type": "polyline", "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]], "groups": ["scene"]})
    # the grids' solid cells, but not their outside: a probe in an open cell is empty too
    grids = [dict(g, groups=["scene"], outside="empty") for g in scene.get("grids", [])]
    for m in scene.get("moves", []):
        body = m.get("body", {"type": "point"})
        reach = body.get("radius", 0) + 0.5 * (sum(x * x for x in body.get("size", [0, 0])) ** 0.5)
        shapes.append({"id": f"path-{m['id']}", "type": "capsule", "a": m["from"], "b": m["to"], "radius": reach + 4 * upp, "groups": ["scene"]})
    probes = []
    for py in range(40, int(h) - 40, 47):
        for px in range(40, int(w) - 40, 47):
            x = cx + (px - w / 2) * upp
            y = cy + (py - h / 2) * upp * (-1 if y_up else 1)
            probes.append((px, py, any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in extents)))
            shapes.append({"id": f"probe-{px}-{py}", "type": "circle", "center": [x, y], "radius": r, "groups": ["probe"]})
    probe_scene = {"settings": scene.get("settings", {}), "shapes": shapes, "grids": grids, "pairs": ["probe:scene"]}
    res = run(BIN, "check", "--no-points", "-", stdin=json.dumps(probe_scene))
    if not check(res.returncode == 0, f"{name}: probe scene: exit {res.returncode}: {res.stderr[:300]}"):
        return []
    hit = {c["a"] for c in json.loads(res.stdout)["scenes"][0]["collisions"]}
    return [p for p in probes if f"probe-{p[0]}-{p[1]}" not in hit]


def pixel_checks(name, scene, view, image, report, placed):
    y_up = scene.get("settings", {}).get("y_axis") == "up"
    pixel = lambda x, y: image.getpixel((x, y))
    points = {"overlap": [], "touch": []}
    for c in report["collisions"]:
        points["touch" if c["relation"] == "touch" else "overlap"] += [to_px(view, y_up, p) for p in c.get("points", [])]
    for kind, want in (("overlap", OVERLAP), ("touch", TOUCH)):
        for x, y in points[kind]:
            if kind == "touch" and any(abs(x - a) < 3 * DOT_RADIUS_PX and abs(y - b) < 3 * DOT_RADIUS_PX for a, b in points["overlap"]):
                continue  # an overlap dot is drawn over it
            got = pixel(int(x), int(y))
            check(near(got, want), f"{name}: {kind} point at pixel ({x:.1f}, {y:.1f}) is {got}, not {want}")
    # an id label is drawn where the scene has nothing: the places under one are not empty
    under_label = lambda x, y: any(l - 2 <= x <= r + 2 and t - 2 <= y <= b + 2 for l, t, r, b in placed.values())
    empty = [p for p in empty_probes(name, scene, view, y_up) if not under_label(p[0], p[1])]
    check(len(empty) >= 3, f"{name}: only {len(empty)} empty places to look at")
    for px, py, in_grid in empty:
        got = pixel(px, py)
        # an open cell of a grid is white, or the faint line between cells (#cbd2d9)
        ok = min(got) >= 200 and max(got) - min(got) <= 24 if in_grid else near(got, WHITE, 3)
        check(ok, f"{name}: nothing is at pixel ({px}, {py}), but it is {got}")
    return len(points["overlap"]) + len(points["touch"]), len(empty)


def outline_pixels(scene, view, y_up, object_id):
    """Pixels along the outline of a shape or grid (a ring of RING_PX around a speck), or []
    for the types this test does not trace."""
    shape = next((x for x in scene.get("shapes", []) if x["id"] == object_id), None)
    grid = next((g for g in scene.get("grids", []) if g["id"] == object_id), None)
    n = 48
    if grid:
        tw, th = (grid["tile_size"], grid["tile_size"]) if isinstance(grid["tile_size"], (int, float)) else grid["tile_size"]
        ox, oy = grid.get("origin", [0, 0])
        shape = {"type": "rect", "min": [ox, oy], "max": [ox + max(len(r) for r in grid["rows"]) * tw, oy + len(grid["rows"]) * th]}
    if not shape:
        return []
    kind = shape["type"]
    if kind == "circle":
        (cx, cy), r = shape["center"], shape["radius"]
        corners = [(cx - r, cy - r), (cx + r, cy + r)]
        scene_points = [(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n)) for k in range(n)]
    elif kind in ("rect", "polygon", "point"):
        pts = {"rect": lambda: [shape["min"], [shape["max"][0], shape["min"][1]], shape["max"], [shape["min"][0], shape["max"][1]]],
               "polygon": lambda: shape["points"], "point": lambda: [shape["at"]]}[kind]()
        corners = pts
        scene_points = [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
                        for a, b in zip(pts, pts[1:] + pts[:1]) for k in range(n)]
    else:
        return []
    px = [to_px(view, y_up, p) for p in corners]
    xs, ys = [p[0] for p in px], [p[1] for p in px]
    if max(xs) - min(xs) <= RING_PX and max(ys) - min(ys) <= RING_PX:
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        return [(cx + RING_PX * math.cos(2 * math.pi * k / n), cy + RING_PX * math.sin(2 * math.pi * k / n)) for k in range(n)]
    return [to_px(view, y_up, p) for p in scene_points]


def violator_pixels(name, scene, view, image, report):
    """The outline of each shape and grid in a failed rule's violations is drawn dashed in the
    violation colour: a fifth of the pixels along it at least (dashes 8 on, 4 off; other
    marks drawn over it take some)."""
    y_up = scene.get("settings", {}).get("y_axis") == "up"
    traced = 0
    for object_id in violators(report):
        pixels = outline_pixels(scene, view, y_up, object_id)
        if not pixels:
            continue
        traced += 1
        hits = sum(near(image.getpixel((int(x), int(y))), VIOLATION, 40) for x, y in pixels
                   if 0 <= x < image.width and 0 <= y < image.height)
        check(hits >= len(pixels) / 5, f"{name}: {object_id} violates a rule, but {hits} of {len(pixels)} pixels on its outline have the violation colour")
    return traced


def legend_pixels(name, root, image):
    """The legend's swatches show in the picture, to the right of the drawing."""
    legend = next(g for g in root.iter(SVG + "g") if g.get("id") == "legend")
    x = int(float(legend.get("transform").split("(")[1].split()[0]))
    box = image.crop((x, 0, min(image.width, x + LEGEND_WIDTH), image.height))
    colours = list(box.getdata())
    for what, want in (("overlap", OVERLAP), ("touch", TOUCH), ("violation", VIOLATION), ("solid cell", SOLID)):
        n = sum(near(c, want, 16) for c in colours)
        check(n >= 20, f"{name}: the legend's {what} swatch is not in the picture ({n} pixels of its colour)")


def rule_scene():
    """A level 2000 units wide and 300 high, whose picture is as wide as a picture gets: coins
    that must keep 40 units from the walls. coin-in-wall overlaps wall-1; coin-near-wall is 30
    from wall-2 and collides with nothing (a clearance violator); coin-free is clear."""
    coin = lambda i, x, y: {"id": i, "type": "circle", "center": [x, y], "radius": 20, "groups": ["coins"]}
    return {
        "shapes": [
            {"id": "wall-1", "type": "rect", "min": [0, 250], "max": [2000, 300], "groups": ["walls"]},
            {"id": "wall-2", "type": "rect", "min": [900, 0], "max": [950, 200], "groups": ["walls"]},
            coin("coin-in-wall", 300, 260), coin("coin-near-wall", 1000, 100), coin("coin-free", 1500, 100),
        ],
        "pairs": ["coins:walls"],
        "rules": [{"name": "coins clear of walls", "pairs": "coins:walls", "expect": "none", "clearance": 40}],
    }


def rule_failures(out):
    """The rule scene through the binary: exit 1, the same bytes for every --threads and
    --broadphase, violators titled with the rule and labelled, the view holding the legend."""
    src, svg = out / "rule-failures.json", out / "rule-failures.svg"
    src.write_text(json.dumps(rule_scene()))
    r = run(BIN, "render", src, "-o", svg)
    check(r.returncode == 1, f"rule-failures: render exits {r.returncode}, not 1: {r.stderr[:300]}")
    for args in (["--threads", "2", "--broadphase", "sweep"], ["--broadphase", "brute"]):
        again = run(BIN, "render", *args, src)
        check(again.stdout == svg.read_text(), f"rule-failures: render {' '.join(args)} draws other bytes")
    root = ET.parse(svg).getroot()
    check_view_box("rule-failures", root)
    check(float(root.get("width")) > 1100, f"rule-failures: a wide level gives a picture {root.get('width')} px wide")
    titles = [t.text or "" for t in root.iter(SVG + "title")]
    want = "coin-near-wall (circle; groups coins)\nviolates 'coins clear of walls' with wall-2 (distance 30)"
    check(want in titles, f"rule-failures: no title {want!r}")
    placed = labels(root)
    check(set(placed) == {"coin-in-wall", "wall-1", "coin-near-wall", "wall-2"}, f"rule-failures: labels {sorted(placed)}")
    return svg


def rule_failures_in_browser(out, svg):
    """The rule scene drawn alone in a 1200 px wide window: the legend whole, the clearance
    violator hatched in the violation colour (not grey as a shape with no result), the coin
    that breaks nothing plain grey."""
    png = out / "rule-failures.png"
    root = ET.parse(svg).getroot()
    height = int(float(root.get("height")) + 0.999)
    ok, err = screenshot(svg, png, PICTURE_WIDTH, height)
    if not check(ok, f"rule-failures: chromium drew no PNG: {err}"):
        return
    image = Image.open(png).convert("RGB")
    check(image.width == PICTURE_WIDTH, f"rule-failures: the window is {image.width} px wide")
    legend_pixels("rule-failures (1200 px window)", root, image)
    view = [float(v) for v in root.get("data-view").split()]
    report = json.loads(run(BIN, "check", out / "rule-failures.json").stdout)["scenes"][0]
    violator_pixels("rule-failures", rule_scene(), view, image, report)

    def inside(cx, cy, r):  # the pixels of a disc, well inside its outline
        x0, y0 = to_px(view, False, (cx, cy))
        rp = 0.6 * r / view[2]
        return [image.getpixel((int(x0 + dx), int(y0 + dy))) for dx in range(-int(rp), int(rp) + 1)
                for dy in range(-int(rp), int(rp) + 1) if dx * dx + dy * dy <= rp * rp]

    hatched = inside(1000, 100, 20)
    n = sum(near(c, HATCH, 40) for c in hatched)
    check(n >= len(hatched) / 6, f"rule-failures: coin-near-wall: {n} of {len(hatched)} pixels inside it are hatched")
    plain = inside(1500, 100, 20)
    check(not any(near(c, HATCH, 40) for c in plain), "rule-failures: coin-free, which breaks no rule, is hatched")
    print(f"rule-failures: hatched {n} of {len(hatched)} pixels; legend in a {PICTURE_WIDTH} px window")


def big_scene_json():
    """The issue's big scene: a 1000x1000 grid, 30% solid, with 100,000 shapes (fixed seed;
    tests/bench/render_bench.sh times the same one)."""
    rnd = random.Random(17)
    rows = ["".join("#" if rnd.random() < 0.3 else "." for _ in range(1000)) for _ in range(1000)]
    shapes = []
    for i in range(100000):
        x, y = round(rnd.uniform(0, 10000), 2), round(rnd.uniform(0, 10000), 2)
        if i % 2:
            shapes.append({"id": f"coin-{i}", "type": "circle", "center": [x, y], "radius": 3, "groups": ["coins"]})
        else:
            shapes.append({"id": f"crate-{i}", "type": "rect", "min": [x, y], "max": [round(x + 5, 2), round(y + 4, 2)], "groups": ["crates"]})
    scene = {"shapes": shapes, "grids": [{"id": "world", "tile_size": 10, "solid": "#", "rows": rows}], "pairs": ["coins:crates"]}
    return json.dumps(scene)


def big_scene(out):
    src = out / "big-scene.json"
    src.write_text(big_scene_json())
    svg = out / "big-scene.svg"
    r = run(BIN, "render", src, "-o", svg)
    check(r.returncode == 0, f"big scene: exit {r.returncode}: {r.stderr[:300]}")
    size = svg.stat().st_size
    check(size < 8_000_000, f"big scene: the SVG is {size} bytes")
    r = run("xmllint", "--noout", "--huge", svg)
    check(r.returncode == 0, f"big scene: xmllint: {r.stderr[:300]}")
    print(f"big scene: 1000x1000 grid and 100,000 shapes: {size / 1e6:.1f} MB")
    return svg


def command_line(out):
    """What render does with its arguments: one scene, check's options, whole output or none."""
    spec = ROOT / "samples/spec-example.json"
    to_file = out / "cli-spec.svg"
    r = run(BIN, "render", spec, "-o", to_file)
    s = run(BIN, "render", spec)
    check(r.returncode == 1 and s.returncode == 1, f"render of spec-example exits {r.returncode}/{s.returncode}, not 1 (its rule fails)")
    check(to_file.read_text() == s.stdout, "render -o and render to stdout differ")
    check("rule 'player starts clear' failed" in s.stderr, f"render says nothing of the failed rule: {s.stderr!r}")
    # check's options: --near draws the near pairs' links, --pairs chooses what is tested
    crates = ROOT / "samples/crates.json"
    r = run(BIN, "render", "--near", "1000", crates)
    check(r.returncode == 0 and '<path class="link"' in r.stdout, f"render --near: no near link: {r.returncode} {r.stderr[:200]}")
    r = run(BIN, "render", "--pairs", "nothing:nothing", crates)
    check(r.returncode == 0 and 'id="points"' not in r.stdout and 'id="points"' in run(BIN, "render", crates).stdout, "render --pairs nothing:nothing still draws intersection points")
    errors = [
        (["render", spec, spec], "collide: error: render draws one scene: give one FILE (got 2)\n"),
        (["render", "-f", "json", spec], None),
        (["render", ROOT / "samples/ldtk/platformer.ldtk"],
         f"collide: error: {ROOT / 'samples/ldtk/platformer.ldtk'}: render draws one scene, and this file holds 2 (name one level: FILE.ldtk#LEVEL)\n"),
        (["render", "--near", "-1", spec], "collide: error: --near: '-1' is not a finite distance >= 0\n"),
    ]
    for args, message in errors:
        kept = out / "kept.svg"
        kept.write_text("old")
        r = run(BIN, *args, "-o", kept)
        check(r.returncode == 2, f"collide {' '.join(map(str, args))}: exit {r.returncode}, not 2")
        check(message is None or r.stderr == message, f"collide {' '.join(map(str, args))}: said {r.stderr!r}")
        check(kept.read_text() == "old", f"collide {' '.join(map(str, args))}: wrote into -o")
    bad = out / "bad.json"
    bad.write_text('{"shapes": [{"id": "a", "type": "circle", "center": [0, 0], "raduis": 1}]}')
    r = run(BIN, "render", bad)
    check(r.returncode == 2 and r.stdout == "" and "raduis" in r.stderr, f"render of a bad scene: exit {r.returncode}, {r.stderr!r}")


def main():
    global BIN, BROWSER
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True, help="where the SVGs and PNGs are kept")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--no-big", action="store_true", help="leave out the 100,000-shape scene")
    a = ap.parse_args()
    BIN, out = Path(a.bin).resolve(), Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    BROWSER = None if a.no_browser else (shutil.which("chromium") or shutil.which("chromium-browser"))
    if not a.no_browser and not BROWSER:
        print("FAIL: chromium not found (tests/deps.sh installs it)", file=sys.stderr)
        return 1
    if BROWSER and Image is None:
        print("FAIL: PIL not found (tests/deps.sh installs python3-pil; run with /usr/bin/python3)", file=sys.stderr)
        return 1
    if not shutil.which("xmllint"):
        print("FAIL: xmllint not found (tests/deps.sh installs libxml2-utils)", file=sys.stderr)
        return 1
    command_line(out)
    rules_svg = rule_failures(out)
    jobs = []
    for name, arg, scene in inputs():
        svg = out / f"{name}.svg"
        r = run(BIN, "render", arg, "-o", svg)
        c = run(BIN, "check", arg)
        check(r.returncode == c.returncode, f"{name}: render exits {r.returncode}, check {c.returncode}: {r.stderr[:300]}")
        if not check(svg.exists(), f"{name}: no SVG"):
            continue
        view, root = svg_checks(name, arg, scene, svg)
        report = json.loads(c.stdout)["scenes"][0]
        rule_checks(name, root, report)
        jobs.append((name, scene, view, svg, report, root))
    big = None if a.no_big else big_scene(out)
    if BROWSER:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            big_shot = big and pool.submit(screenshot, big, out / "big-scene.png", *svg_size(big))
            shots = screenshot_all(out, [(name, svg) for name, _, _, svg, _, _ in jobs])
            for name, scene, view, svg, report, root in jobs:
                if check(name in shots, f"{name}: no picture from the browser"):
                    n_points, n_empty = pixel_checks(name, scene, view, shots[name], report, labels(root))
                    n_violators = violator_pixels(name, scene, view, shots[name], report)
                    legend_pixels(name, root, shots[name])
                    print(f"{name}: {n_points} intersection points, {n_violators} violators and {n_empty} empty places checked")
            rule_failures_in_browser(out, rules_svg)
            if big_shot:
                ok, err = big_shot.result()
                check(ok, f"big scene: chromium drew no PNG: {err}")
        print(f"PNGs in {out}")
    print(f"{len(jobs)} pictures, {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
