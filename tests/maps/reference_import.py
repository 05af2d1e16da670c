#!/usr/bin/env python3
"""An independent reference importer of Tiled maps (TMX and TMJ) into collide scenes.

It is written from SPEC.md §1.5 and README.md "How a map becomes a scene" only, not from
lib/src/tiled_*.cpp, so that the two can check each other on real maps.

    reference_import.py MAP                 print the scene MAP becomes (exit 2 on a bad map)
    reference_import.py --compare A B       compare two scene files shape by shape (exit 1
                                            when they differ), see compare() below

Choices made where SPEC and README leave room are marked "CHOICE" below; they are the
places to look first when the two importers disagree.
"""
import base64
import gzip
import json
import math
import os
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

try:
    import zstandard  # optional: only maps with zstd-compressed layers need it
except ImportError:  # pragma: no cover
    zstandard = None

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
GID_MASK = 0x0FFFFFFF  # the fourth flag bit (hexagonal 120 degrees) is masked too


class MapError(Exception):
    pass


class SkipMap(Exception):
    """The map needs something this script lacks (zstd without the zstandard module)."""


# ----------------------------------------------------------------------------- numbers

def num(v, default=0.0):
    if v is None or v == "":
        return default
    return float(v)


def cos_sin(angle):
    """SPEC §2.5: angle mod 360 = fmod(angle, 360), plus 360 when negative; exact 0/±1 at
    multiples of 90, else cos/sin of (angle mod 360)·π/180."""
    a = math.fmod(angle, 360.0)
    if a < 0:
        a += 360.0
    if math.fmod(a, 90.0) == 0:
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(a) // 90 % 4]
    r = a * math.pi / 180.0
    return math.cos(r), math.sin(r)


def turn(anchor, d, c, s):
    """anchor + R·d, each product rounded, sums left to right (as SPEC §2.5 evaluates boxes)."""
    return [anchor[0] + d[0] * c - d[1] * s, anchor[1] + d[0] * s + d[1] * c]


# ----------------------------------------------------------------------------- local shapes
#
# A shape in a local frame is a dict as in the scene format, plus "angle" on rect-likes.
# Tile collision shapes are built in the tile's box and then mapped by flips, a scale and
# a placement; objects are built directly in map coordinates.

def rect_like(kind, x, y, w, h, angle):
    """A Tiled rectangle / ellipse / capsule with top-left (x, y), turned by angle about (x, y)."""
    c, s = cos_sin(angle)
    if w == 0 and h == 0:
        return {"type": "point", "at": [x, y]}
    if w == 0 or h == 0:
        # README: one zero side is the segment along the other
        if kind == "rect":
            a, b = turn([x, y], [0.0, 0.0], c, s), turn([x, y], [w, h], c, s)
        else:  # ellipse/capsule: the segment through the middle
            a, b = turn([x, y], [0.0, h / 2], c, s), turn([x, y], [w, h / 2], c, s)
            if w == 0:
                a, b = turn([x, y], [w / 2, 0.0], c, s), turn([x, y], [w / 2, h], c, s)
        return {"type": "segment", "a": a, "b": b}
    center = turn([x, y], [w / 2, h / 2], c, s)
    if kind == "rect":
        if angle == 0:
            return {"type": "rect", "x": x, "y": y, "width": w, "height": h}
        return {"type": "box", "center": center, "size": [w, h], "angle": angle}
    if kind == "ellipse":
        if w == h:
            return {"type": "circle", "center": center, "radius": w / 2}
        return {"type": "ellipse", "center": center, "radii": [w / 2, h / 2], "angle": angle}
    # capsule: the stadium inscribed in the rectangle, along its longer side
    r = min(w, h) / 2
    if w >= h:
        a, b = turn([x, y], [r, h / 2], c, s), turn([x, y], [w - r, h / 2], c, s)
    else:
        a, b = turn([x, y], [w / 2, r], c, s), turn([x, y], [w / 2, h - r], c, s)
    return {"type": "capsule", "a": a, "b": b, "radius": r}


def map_points(shape, f):
    """Apply a point map f to a point-list shape."""
    out = dict(shape)
    for key in ("at", "a", "b", "center"):
        if key in out:
            out[key] = f(out[key])
    if "points" in out:
        out["points"] = [f(p) for p in out["points"]]
    return out


def transform_local(shape, W, H, flip_h, flip_v, flip_d, sx, sy):
    """Flip a tile-local shape inside the tile's W x H box (diagonal, then horizontal, then
    vertical, README) and scale it by (sx, sy). Returns a shape still in tile-local frame."""
    shape = to_general(shape)
    w, h = W, H

    def step(shape, f, angle_f, swap):
        shape = map_points(shape, f)
        if "angle" in shape:
            shape["angle"] = angle_f(shape["angle"])
        if swap:
            if "size" in shape:
                shape["size"] = [shape["size"][1], shape["size"][0]]
            if "radii" in shape:
                shape["radii"] = [shape["radii"][1], shape["radii"][0]]
        return shape

    if flip_d:
        # CHOICE: after the diagonal flip the box is H x W, and the horizontal and vertical
        # flips mirror inside that box (the same as Tiled for square tiles)
        shape = step(shape, lambda p: [p[1], p[0]], lambda a: 90 - a if a else 0, True)
        w, h = h, w
    if flip_h:
        if shape["type"] == "arect":
            shape["at"] = [w - shape["at"][0] - shape["size"][0], shape["at"][1]]
        else:
            shape = step(shape, lambda p, w=w: [w - p[0], p[1]], lambda a: -a if a else 0, False)
    if flip_v:
        if shape["type"] == "arect":
            shape["at"] = [shape["at"][0], h - shape["at"][1] - shape["size"][1]]
        else:
            shape = step(shape, lambda p, h=h: [p[0], h - p[1]], lambda a: -a if a else 0, False)
    if sx != 1 or sy != 1:
        if shape["type"] in ("box", "ellipse", "circle", "capsule") and sx != sy:
            if shape["type"] == "circle":
                shape = {"type": "ellipse", "center": shape["center"],
                         "radii": [shape["radius"], shape["radius"]], "angle": 0}
            if shape.get("angle", 0) % 180 == 0 and shape["type"] in ("box", "ellipse"):
                key = "size" if shape["type"] == "box" else "radii"
                shape[key] = [shape[key][0] * sx, shape[key][1] * sy]
            elif shape.get("angle", 0) % 90 == 0 and shape["type"] in ("box", "ellipse"):
                key = "size" if shape["type"] == "box" else "radii"
                shape[key] = [shape[key][0] * sy, shape[key][1] * sx]
            else:
                raise MapError("a tile collision shape turned or round, scaled unevenly: "
                               "not handled by the reference importer")
        shape = map_points(shape, lambda p: [p[0] * sx, p[1] * sy])
        if shape["type"] == "arect":
            shape["size"] = [shape["size"][0] * sx, shape["size"][1] * sy]
        elif sx == sy:
            for key in ("radius",):
                if key in shape:
                    shape[key] = shape[key] * sx
            for key in ("size", "radii"):
                if key in shape:
                    shape[key] = [shape[key][0] * sx, shape[key][1] * sy]
    return to_simple(shape)


def to_general(shape):
    """rect in either form -> "arect": min corner and size, as Tiled stores a rectangle, so
    that moving it moves only the corner (the size is never re-derived from two corners)."""
    if shape["type"] == "rect" and "min" in shape:
        (x0, y0), (x1, y1) = shape["min"], shape["max"]
        return {"type": "arect", "at": [x0, y0], "size": [x1 - x0, y1 - y0]}
    if shape["type"] == "rect":
        return {"type": "arect", "at": [shape["x"], shape["y"]], "size": [shape["width"], shape["height"]]}
    return dict(shape)


def to_simple(shape):
    if shape["type"] == "arect":
        return {"type": "rect", "x": shape["at"][0], "y": shape["at"][1],
                "width": shape["size"][0], "height": shape["size"][1]}
    return shape


def place(shape, f, dangle):
    """Map a tile-local shape to the map by a rigid map f (translation, then a turn of dangle)."""
    shape = to_general(shape)
    if dangle % 360 != 0 and shape["type"] == "arect":
        (x0, y0), (w, h) = shape["at"], shape["size"]
        shape = {"type": "box", "center": [x0 + w / 2, y0 + h / 2], "size": [w, h], "angle": 0}
    shape = map_points(shape, f)
    if "angle" in shape:
        shape["angle"] = shape["angle"] + dangle
    elif dangle % 360 != 0 and shape["type"] == "ellipse":
        shape["angle"] = dangle
    return to_simple(shape)


# ----------------------------------------------------------------------------- map model

class Tileset:
    def __init__(self, firstgid):
        self.firstgid = firstgid
        self.tilewidth = self.tileheight = 0.0
        self.offset = (0.0, 0.0)
        self.alignment = "unspecified"
        self.tiles = {}  # local id -> {"class", "shapes" (tile-local), "w", "h"}

    def tile(self, local):
        # CHOICE: a gid that lands in a tileset but names a tile it does not define is a
        # tile without collision shapes, of the tileset's tile size (Tiled draws it as missing).
        return self.tiles.get(local, {})

    def tile_size(self, local):
        t = self.tile(local)
        return t.get("w", self.tilewidth), t.get("h", self.tileheight)


class Importer:
    def __init__(self, path):
        self.path = path
        self.shapes = []
        self.grids = []
        self.warnings = []
        self.tilesets = []
        self.pending_objects = []  # (layer_fullname, layer_groups, object dict, layer offset)

    # ---------------------------------------------------------------- gid lookup
    def find_tileset(self, gid, tilesets=None):
        tilesets = self.tilesets if tilesets is None else tilesets
        best = None
        for ts in tilesets:
            if ts.firstgid <= gid and (best is None or ts.firstgid > best.firstgid):
                best = ts
        if best is None:  # SPEC §1.5: Tiled opens it; a tileset that defines nothing
            return Tileset(gid + 1)
        return best

    # ---------------------------------------------------------------- tile layers
    def add_tile_layer(self, name, layer_class, offset, width, height, cells_by_pos,
                       origin_cell, layer_id):
        """cells_by_pos: dict (col, row) -> raw gid (Tiled's tile coordinates)."""
        gid_id = name
        self.grid_names.append((name, layer_id))
        # CHOICE: a grid's groups are its full name and class only (SPEC §1.5); collide_groups
        # is read for objects, as the README says.
        groups = dedupe([name, layer_class])
        ox, oy = origin_cell
        # SPEC §1.5: a tile with collision shapes is its compound, not a solid cell
        def solid(raw):
            gid = raw & GID_MASK
            if not gid:
                return False
            ts = self.find_tileset(gid)
            return not ts.tile(gid - ts.firstgid).get("shapes")
        rows = []
        for r in range(height):
            rows.append("".join("#" if solid(cells_by_pos.get((ox + c, oy + r), 0)) else "."
                                for c in range(width)))
        tw, th = self.tilewidth, self.tileheight
        grid = {"id": gid_id, "groups": groups, "tile_size": [tw, th],
                "origin": [offset[0] + ox * tw, offset[1] + oy * th] if ox or oy else
                          [offset[0] + 0.0, offset[1] + 0.0],
                "outside": "empty", "rows": rows}
        self.grids.append(grid)
        # tile collision compounds, in row-major order of the layer
        for r in range(height):
            for c in range(width):
                raw = cells_by_pos.get((ox + c, oy + r), 0)
                gid = raw & GID_MASK
                if not gid:
                    continue
                ts = self.find_tileset(gid)
                local = gid - ts.firstgid
                tile = ts.tile(local)
                if not tile.get("shapes"):
                    continue
                W, H = ts.tile_size(local)
                col, row = ox + c, oy + r
                # drawn from the bottom-left of its cell plus the tileset's tile offset; a
                # diagonal flip turns the W x H box into H x W, still standing on that corner
                left = offset[0] + col * tw + ts.offset[0]
                top = offset[1] + (row + 1) * th - (W if raw & FLIP_D else H) + ts.offset[1]
                parts = []
                if not raw & (FLIP_H | FLIP_V | FLIP_D):
                    # the object's own position moved first, then its shape built from there,
                    # so a turned rectangle is rounded once (as SPEC 2.5 evaluates a box)
                    for n, goff in tile["objects"]:
                        parts.append(Importer.object_shape(None, n, (left + goff[0], top + goff[1])))
                for sh in tile["shapes"] if not parts else []:
                    loc = transform_local(sh, W, H, raw & FLIP_H, raw & FLIP_V, raw & FLIP_D, 1, 1)
                    parts.append(place(loc, lambda p: [left + p[0], top + p[1]], 0))
                # CHOICE: shapes come in document order: each layer's tile compounds (row by
                # row), then each object layer's objects, as the layers are written.
                self.shapes.append({"id": f"{name}@{col},{row}", "type": "compound",
                                    "parts": parts,
                                    "groups": dedupe([name, "tile-collision", tile.get("class", "")])})

    # ---------------------------------------------------------------- objects
    def object_shape(self, o, offset):
        """o: normalised object dict. Returns a shape (without id/groups) or None (text)."""
        x = o["x"] + offset[0]
        y = o["y"] + offset[1]
        w, h, rot = o["width"], o["height"], o["rotation"]
        kind = o["kind"]
        if kind == "text":
            return None
        if kind == "point":
            return {"type": "point", "at": [x, y]}
        if kind in ("polygon", "polyline"):
            c, s = cos_sin(rot)
            pts = [turn([x, y], p, c, s) for p in o["points"]]
            return {"type": kind, "points": pts}
        if kind == "tile":
            return self.tile_object_shape(o, x, y)
        return rect_like(kind, x, y, w, h, rot)

    def tile_object_shape(self, o, x, y):
        raw = o["gid"]
        gid = raw & GID_MASK
        ts = self.find_tileset(gid, o.get("tilesets"))
        local = gid - ts.firstgid
        tile = ts.tile(local)
        W, H = ts.tile_size(local)
        w = o["width"] if o["has_w"] else W
        h = o["height"] if o["has_h"] else H
        rot = o["rotation"]
        align = ts.alignment if ts.alignment != "unspecified" else "bottomleft"
        ax = {"left": 0, "topleft": 0, "bottomleft": 0, "top": 0.5, "center": 0.5, "bottom": 0.5,
              "right": 1, "topright": 1, "bottomright": 1}[align]
        ay = {"top": 0, "topleft": 0, "topright": 0, "left": 0.5, "center": 0.5, "right": 0.5,
              "bottom": 1, "bottomleft": 1, "bottomright": 1}[align]
        c, s = cos_sin(rot)
        # top-left of the tile's box, relative to the anchor (x, y). CHOICE: the tileset's
        # tile offset moves a tile object too, in the object's own frame (scaled to its size
        # and turned with it), as Tiled draws it
        dx0 = -ax * w + ts.offset[0] * (w / W)
        dy0 = -ay * h + ts.offset[1] * (h / H)
        if not tile.get("shapes"):
            if rot % 360 == 0:
                return {"type": "rect", "min": [x + dx0, y + dy0], "max": [x + dx0 + w, y + dy0 + h]}
            return {"type": "box", "center": turn([x, y], [dx0 + w / 2, dy0 + h / 2], c, s),
                    "size": [w, h], "angle": rot}
        parts = []
        if not raw & (FLIP_H | FLIP_V | FLIP_D) and w == W and h == H and rot % 360 == 0:
            for n, goff in tile["objects"]:
                parts.append(Importer.object_shape(None, n, (x + dx0 + goff[0], y + dy0 + goff[1])))
            return {"type": "compound", "parts": parts}
        for sh in tile["shapes"]:
            loc = transform_local(sh, W, H, raw & FLIP_H, raw & FLIP_V, raw & FLIP_D, w / W, h / H)
            if rot % 360 == 0:
                f = (lambda p: [x + (dx0 + p[0]), y + (dy0 + p[1])])
            else:
                f = (lambda p: turn([x, y], [dx0 + p[0], dy0 + p[1]], c, s))
            parts.append(place(loc, f, rot))
        return {"type": "compound", "parts": parts}

    # ---------------------------------------------------------------- finish
    def finish(self):
        """Ids of objects and grids, once every layer and object is known."""
        taken_layers = {}
        for name, lid in self.grid_names:
            taken_layers[name] = taken_layers.get(name, 0) + 1
        seen = set()
        grid_ids = []
        for (name, lid), grid in zip(self.grid_names, self.grids):
            gid = name if name not in seen else f"{name}#{lid}"
            seen.add(name)
            grid["id"] = gid
            grid_ids.append(gid)
        # tile-collision ids follow their layer's (possibly renamed) id
        name_count = {}
        for lay, grp, o, off in self.pending_objects:
            if o["name"]:
                name_count[o["name"]] = name_count.get(o["name"], 0) + 1
        layer_names = set(self.all_layer_names)
        for index, (lay, grp, o, off) in self.object_slots:
            shape = self.object_shape(o, off)
            oid = o["name"]
            if not oid:
                ident = f"#{o['id']}"
            elif name_count[oid] > 1 or oid in layer_names:
                ident = f"{oid}#{o['id']}"
            else:
                ident = oid
            if shape is None:
                self.warnings.append(f"object '{ident}' in layer '{lay}' is a text object: skipped")
                continue
            cls = o["class"]
            if not cls and o["kind"] == "tile":
                ts = self.find_tileset(o["gid"] & GID_MASK, o.get("tilesets"))
                cls = ts.tile(( o["gid"] & GID_MASK) - ts.firstgid).get("class", "")
            groups = dedupe([lay, cls] + grp + split_groups(o["props"].get("collide_groups")))
            shape = dict(shape)
            out = {"id": ident}
            out.update(shape)
            out["groups"] = groups
            self.shapes[index] = out
        self.shapes = [s for s in self.shapes if s is not None]

    def scene(self):
        return {"format": "collide-scene", "version": 1, "shapes": self.shapes, "grids": self.grids}


def dedupe(names):
    out = []
    for n in names:
        if n and n not in out:
            out.append(n)
    return out


def split_groups(value):
    if not isinstance(value, str):
        return []
    return [p.strip() for p in value.split(",") if p.strip()]


def decode_gids(text, encoding, compression, count, where):
    """Layer data -> list of raw gids."""
    if encoding == "csv":
        vals = [v.strip() for v in text.replace("\n", ",").split(",") if v.strip()]
        gids = [int(v) for v in vals]
    elif encoding == "base64":
        try:
            raw = base64.b64decode("".join(text.split()), validate=True)
        except Exception as e:
            raise MapError(f"{where}: bad base64: {e}")
        if compression == "zlib":
            raw = zlib.decompress(raw)
        elif compression == "gzip":
            raw = gzip.decompress(raw)
        elif compression == "zstd":
            if zstandard is None:
                raise SkipMap(f"{where}: zstd compression and no zstandard module")
            raw = zstandard.ZstdDecompressor().decompress(raw, max_output_size=count * 4)
        elif compression not in (None, ""):
            raise MapError(f"{where}: unknown compression {compression}")
        if len(raw) != 4 * count:
            raise MapError(f"{where}: {len(raw)} bytes of data for {count} cells")
        gids = list(struct.unpack(f"<{count}I", raw))
    else:
        raise MapError(f"{where}: unknown encoding {encoding}")
    if len(gids) != count:
        raise MapError(f"{where}: {len(gids)} cells for {count}")
    return gids


# ----------------------------------------------------------------------------- TMX

def read_tmx(path):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        raise MapError(f"{path}: {e}")
    if root.tag != "map":
        raise MapError(f"{path}: not a map")
    imp = Importer(path)
    orient = root.get("orientation", "orthogonal")
    if orient != "orthogonal":
        raise MapError(f"{path}: {orient} map: only orthogonal maps are read")
    imp.tilewidth = num(root.get("tilewidth"))
    imp.tileheight = num(root.get("tileheight"))
    infinite = root.get("infinite") == "1"
    base = os.path.dirname(path)
    for el in root.findall("tileset"):
        imp.tilesets.append(tmx_tileset(el, base))
    imp.grid_names = []
    imp.all_layer_names = []
    imp.object_slots = []
    tmx_layers(imp, root, "", (0.0, 0.0), infinite, base)
    imp.finish()
    return imp


def tmx_tileset(el, base):
    ts = Tileset(int(el.get("firstgid", "1")))
    src = el.get("source")
    if src:
        p = os.path.join(base, src)
        if p.endswith(".tsj") or p.endswith(".json"):
            try:
                with open(p, encoding="utf-8") as f:
                    return tmj_tileset_body(json.load(f), ts, os.path.dirname(p))
            except (OSError, ValueError) as e:
                raise MapError(f"{p}: {e}")
        try:
            el = ET.parse(p).getroot()
        except (ET.ParseError, OSError) as e:
            raise MapError(f"{p}: {e}")
    ts.tilewidth = num(el.get("tilewidth"))
    ts.tileheight = num(el.get("tileheight"))
    ts.alignment = el.get("objectalignment", "unspecified")
    off = el.find("tileoffset")
    if off is not None:
        ts.offset = (num(off.get("x")), num(off.get("y")))
    for t in el.findall("tile"):
        tid = int(t.get("id"))
        info = {"class": t.get("class", t.get("type", ""))}
        img = t.find("image")
        if t.get("width") is not None:
            info["w"], info["h"] = num(t.get("width")), num(t.get("height"))
        elif img is not None and img.get("width") is not None and el.get("columns") == "0":
            info["w"], info["h"] = num(img.get("width")), num(img.get("height"))
        og = t.find("objectgroup")
        if og is not None:
            shapes, objs = [], []
            for o in og.findall("object"):
                # a template in a tile's collision group is found beside the tileset
                n = tmx_object(o, base if src is None else os.path.dirname(os.path.join(base, src)))
                if n["kind"] in ("text", "tile"):
                    continue
                goff = (num(og.get("offsetx")), num(og.get("offsety")))
                sh = Importer.object_shape(None, n, goff)
                if sh is not None:
                    shapes.append(sh)
                    objs.append((n, goff))
            info["shapes"] = shapes
            info["objects"] = objs
        ts.tiles[tid] = info
    return ts


def tmx_props(el):
    props = {}
    p = el.find("properties")
    if p is not None:
        for q in p.findall("property"):
            props[q.get("name")] = q.get("value", q.text or "")
    return props


def tmx_object(o, base, imp=None):
    """Normalise a TMX <object> (templates merged)."""
    tmpl = None
    tmpl_tilesets = None
    if o.get("template") and base is not None:
        tpath = os.path.join(base, o.get("template"))
        try:
            troot = ET.parse(tpath).getroot()
        except (ET.ParseError, OSError) as e:
            raise MapError(f"{tpath}: {e}")
        tmpl = troot.find("object")
        tts = troot.find("tileset")
        if tts is not None:
            tmpl_tilesets = [tmx_tileset(tts, os.path.dirname(tpath))]

    def attr(name, default=None):
        v = o.get(name)
        if v is None and tmpl is not None:
            v = tmpl.get(name)
        return default if v is None else v

    def child(name):
        c = o.find(name)
        if c is None and tmpl is not None:
            c = tmpl.find(name)
        return c

    props = tmx_props(tmpl) if tmpl is not None else {}
    props.update(tmx_props(o))
    n = {"id": o.get("id", ""), "name": attr("name", ""),
         "class": attr("class", attr("type", "")),
         "x": num(attr("x")), "y": num(attr("y")),
         "width": num(attr("width")), "height": num(attr("height")),
         "has_w": attr("width") is not None, "has_h": attr("height") is not None,
         "rotation": num(attr("rotation")), "props": props}
    if attr("gid") is not None:
        n["kind"] = "tile"
        n["gid"] = int(attr("gid"))
        if o.get("gid") is None and tmpl_tilesets:
            n["tilesets"] = tmpl_tilesets
    elif child("text") is not None:
        n["kind"] = "text"
    elif child("ellipse") is not None:
        n["kind"] = "ellipse"
    elif child("point") is not None:
        n["kind"] = "point"
    elif child("capsule") is not None:
        n["kind"] = "capsule"
    elif child("polygon") is not None or child("polyline") is not None:
        c = child("polygon")
        n["kind"] = "polygon" if c is not None else "polyline"
        if c is None:
            c = child("polyline")
        pts = []
        for pair in c.get("points", "").split():
            a, b = pair.split(",")
            pts.append([float(a), float(b)])
        n["points"] = pts
    else:
        n["kind"] = "rect"
    return n


def tmx_layers(imp, parent, prefix, offset, infinite, base):
    for el in parent:
        if el.tag not in ("layer", "objectgroup", "group", "imagelayer"):
            continue
        name = el.get("name", "")
        full = prefix + name
        imp.all_layer_names.append(name)
        imp.all_layer_names.append(full)
        off = (offset[0] + num(el.get("offsetx")), offset[1] + num(el.get("offsety")))
        cls = el.get("class", "")
        if el.tag == "group":
            tmx_layers(imp, el, full + "/", off, infinite, base)
        elif el.tag == "layer":
            tmx_tile_layer(imp, el, full, cls, off, infinite)
        elif el.tag == "objectgroup":
            lprops = tmx_props(el)
            grp = [cls] + split_groups(lprops.get("collide_groups"))
            for o in el.findall("object"):
                n = tmx_object(o, base)
                imp.object_slots.append((len(imp.shapes), (full, grp, n, off)))
                imp.pending_objects.append((full, grp, n, off))
                imp.shapes.append(None)


def tmx_tile_layer(imp, el, full, cls, off, infinite):
    data = el.find("data")
    w, h = int(el.get("width")), int(el.get("height"))
    where = f"{imp.path}: layer '{full}'"
    cells = {}
    enc, comp = (data.get("encoding"), data.get("compression")) if data is not None else (None, None)

    def read(node, cw, ch):
        if enc is None:
            return [int(t.get("gid", "0")) for t in node.findall("tile")]
        return decode_gids(node.text or "", enc, comp, cw * ch, where)

    if data is None:
        pass
    elif data.findall("chunk"):
        minx = miny = None
        maxx = maxy = None
        for ch in data.findall("chunk"):
            cx, cy = int(ch.get("x")), int(ch.get("y"))
            cw, chh = int(ch.get("width")), int(ch.get("height"))
            gids = read(ch, cw, chh)
            for i, g in enumerate(gids):
                if g:
                    cells[(cx + i % cw, cy + i // cw)] = g
            minx = cx if minx is None else min(minx, cx)
            miny = cy if miny is None else min(miny, cy)
            maxx = cx + cw if maxx is None else max(maxx, cx + cw)
            maxy = cy + chh if maxy is None else max(maxy, cy + chh)
        imp.add_tile_layer(full, cls, off, maxx - minx, maxy - miny, cells, (minx, miny),
                           el.get("id", ""))
        return
    else:
        gids = read(data, w, h)
        for i, g in enumerate(gids):
            if g:
                cells[(i % w, i // w)] = g
    imp.add_tile_layer(full, cls, off, w, h, cells, (0, 0), el.get("id", ""))


# ----------------------------------------------------------------------------- TMJ

def read_tmj(path):
    try:
        with open(path, encoding="utf-8-sig") as f:
            root = json.load(f)
    except (OSError, ValueError) as e:
        raise MapError(f"{path}: {e}")
    if root.get("type", "map") != "map":
        raise MapError(f"{path}: not a map")
    imp = Importer(path)
    orient = root.get("orientation", "orthogonal")
    if orient != "orthogonal":
        raise MapError(f"{path}: {orient} map: only orthogonal maps are read")
    imp.tilewidth = float(root.get("tilewidth", 0))
    imp.tileheight = float(root.get("tileheight", 0))
    base = os.path.dirname(path)
    for t in root.get("tilesets", []):
        imp.tilesets.append(tmj_tileset(t, base))
    imp.grid_names = []
    imp.all_layer_names = []
    imp.object_slots = []
    tmj_layers(imp, root.get("layers", []), "", (0.0, 0.0), base)
    imp.finish()
    return imp


def tmj_tileset(t, base):
    ts = Tileset(int(t.get("firstgid", 1)))
    src = t.get("source")
    if src:
        p = os.path.join(base, src)
        if p.endswith(".tsx"):
            el = ET.Element("tileset", {"firstgid": str(ts.firstgid), "source": src})
            return tmx_tileset(el, base)
        try:
            with open(p, encoding="utf-8-sig") as f:
                t = json.load(f)
        except (OSError, ValueError) as e:
            raise MapError(f"{p}: {e}")
        base = os.path.dirname(p)
    return tmj_tileset_body(t, ts, base)


def tmj_tileset_body(t, ts, base):
    ts.tilewidth = float(t.get("tilewidth", 0))
    ts.tileheight = float(t.get("tileheight", 0))
    ts.alignment = t.get("objectalignment", "unspecified")
    off = t.get("tileoffset")
    if off:
        ts.offset = (float(off.get("x", 0)), float(off.get("y", 0)))
    for tile in t.get("tiles", []):
        info = {"class": tile.get("class", tile.get("type", ""))}
        if "width" in tile and "height" in tile:
            info["w"], info["h"] = float(tile["width"]), float(tile["height"])
        elif "imagewidth" in tile and t.get("columns", 1) == 0:
            info["w"], info["h"] = float(tile["imagewidth"]), float(tile["imageheight"])
        og = tile.get("objectgroup")
        if og:
            shapes, objs = [], []
            for o in og.get("objects", []):
                n = tmj_object(o, base)
                if n["kind"] in ("text", "tile"):
                    continue
                goff = (float(og.get("offsetx", 0)), float(og.get("offsety", 0)))
                sh = Importer.object_shape(None, n, goff)
                if sh is not None:
                    shapes.append(sh)
                    objs.append((n, goff))
            info["shapes"] = shapes
            info["objects"] = objs
        ts.tiles[int(tile["id"])] = info
    return ts


def tmj_props(o):
    return {p.get("name"): p.get("value") for p in o.get("properties", []) or []}


def tmj_object(o, base):
    tmpl = {}
    tmpl_tilesets = None
    if o.get("template") and base is not None:
        tpath = os.path.join(base, o["template"])
        try:
            with open(tpath, encoding="utf-8-sig") as f:
                troot = json.load(f)
        except (OSError, ValueError) as e:
            raise MapError(f"{tpath}: {e}")
        tmpl = troot.get("object", {})
        if troot.get("tileset"):
            tmpl_tilesets = [tmj_tileset(troot["tileset"], os.path.dirname(tpath))]
    m = dict(tmpl)
    m.update({k: v for k, v in o.items() if k != "properties"})
    props = tmj_props(tmpl)
    props.update(tmj_props(o))
    n = {"id": str(o.get("id", "")), "name": m.get("name", ""),
         "class": m.get("class", m.get("type", "")) or "",
         "x": float(m.get("x", 0)), "y": float(m.get("y", 0)),
         "width": float(m.get("width", 0)), "height": float(m.get("height", 0)),
         "has_w": "width" in m, "has_h": "height" in m,
         "rotation": float(m.get("rotation", 0)), "props": props}
    if "gid" in m:
        n["kind"] = "tile"
        n["gid"] = int(m["gid"])
        if "gid" not in o and tmpl_tilesets:
            n["tilesets"] = tmpl_tilesets
    elif "text" in m:
        n["kind"] = "text"
    elif m.get("ellipse"):
        n["kind"] = "ellipse"
    elif m.get("point"):
        n["kind"] = "point"
    elif m.get("capsule"):
        n["kind"] = "capsule"
    elif "polygon" in m or "polyline" in m:
        n["kind"] = "polygon" if "polygon" in m else "polyline"
        n["points"] = [[float(p["x"]), float(p["y"])] for p in m[n["kind"]]]
    else:
        n["kind"] = "rect"
    return n


def tmj_layers(imp, layers, prefix, offset, base):
    for el in layers:
        name = el.get("name", "")
        full = prefix + name
        imp.all_layer_names.append(name)
        imp.all_layer_names.append(full)
        off = (offset[0] + float(el.get("offsetx", 0)), offset[1] + float(el.get("offsety", 0)))
        cls = el.get("class", "") or ""
        kind = el.get("type")
        if kind == "group":
            tmj_layers(imp, el.get("layers", []), full + "/", off, base)
        elif kind == "tilelayer":
            tmj_tile_layer(imp, el, full, cls, off)
        elif kind == "objectgroup":
            lprops = tmj_props(el)
            grp = [cls] + split_groups(lprops.get("collide_groups"))
            for o in el.get("objects", []):
                n = tmj_object(o, base)
                imp.object_slots.append((len(imp.shapes), (full, grp, n, off)))
                imp.pending_objects.append((full, grp, n, off))
                imp.shapes.append(None)


def tmj_tile_layer(imp, el, full, cls, off):
    where = f"{imp.path}: layer '{full}'"
    enc = el.get("encoding", "csv")
    comp = el.get("compression", "")

    def read(data, cw, ch):
        if isinstance(data, list):
            return [int(g) for g in data]
        return decode_gids(data, "base64", comp, cw * ch, where)

    cells = {}
    if "chunks" in el:
        minx = miny = maxx = maxy = None
        for ch in el["chunks"]:
            cx, cy, cw, chh = int(ch["x"]), int(ch["y"]), int(ch["width"]), int(ch["height"])
            for i, g in enumerate(read(ch["data"], cw, chh)):
                if g:
                    cells[(cx + i % cw, cy + i // cw)] = g
            minx = cx if minx is None else min(minx, cx)
            miny = cy if miny is None else min(miny, cy)
            maxx = cx + cw if maxx is None else max(maxx, cx + cw)
            maxy = cy + chh if maxy is None else max(maxy, cy + chh)
        imp.add_tile_layer(full, cls, off, maxx - minx, maxy - miny, cells, (minx, miny),
                           str(el.get("id", "")))
        return
    w, h = int(el["width"]), int(el["height"])
    for i, g in enumerate(read(el.get("data", []), w, h)):
        if g:
            cells[(i % w, i // w)] = g
    imp.add_tile_layer(full, cls, off, w, h, cells, (0, 0), str(el.get("id", "")))


# ----------------------------------------------------------------------------- output

def fmt_num(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return str(int(v))
    return repr(v)


def dumps(v):
    if isinstance(v, float):
        return fmt_num(v)
    if isinstance(v, (int,)) and not isinstance(v, bool):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(dumps(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + dumps(x) for k, x in v.items()) + "}"
    return json.dumps(v, ensure_ascii=False)


def write_scene(scene, out):
    out.write('{"format": "collide-scene", "version": 1,\n "shapes": [\n')
    out.write(",\n".join("  " + dumps(s) for s in scene["shapes"]))
    out.write('\n ],\n "grids": [\n')
    out.write(",\n".join("  " + dumps(g) for g in scene["grids"]))
    out.write("\n ]}\n")


def import_map(path):
    low = path.lower()
    if low.endswith(".tmx"):
        return read_tmx(path)
    if low.endswith(".tmj") or low.endswith(".json"):
        return read_tmj(path)
    raise MapError(f"{path}: not a Tiled map (.tmx, .tmj, .json)")


# ----------------------------------------------------------------------------- compare

def box_corners(center, size, angle):
    c, s = cos_sin(angle)
    w2, h2 = size[0] / 2, size[1] / 2
    pts = []
    for sx, sy in ((-w2, -h2), (w2, -h2), (w2, h2), (-w2, h2)):
        pts.append((center[0] + sx * c - sy * s, center[1] + sx * s + sy * c))
    return pts


def normal(shape):
    """The geometry a scene shape stands for, in one canonical form (SPEC §1.1, §2.5)."""
    t = shape.get("type")
    if t == "rect":
        if "min" in shape:
            return ("rect", tuple(shape["min"]), tuple(shape["max"]))
        if "x" in shape:
            return ("rect", (shape["x"], shape["y"]),
                    (shape["x"] + shape["width"], shape["y"] + shape["height"]))
        return ("rect", (shape["left"], min(shape["top"], shape["bottom"])),
                (shape["right"], max(shape["top"], shape["bottom"])))
    if t == "box":
        pts = box_corners(shape["center"], shape["size"], shape.get("angle", 0))
        if shape.get("angle", 0) % 90 == 0:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            return ("rect", (min(xs), min(ys)), (max(xs), max(ys)))
        return ("polygon", cyclic(pts))
    if t == "ellipse":
        rx, ry = shape["radii"]
        if rx == ry:
            return ("circle", tuple(shape["center"]), rx)
        # the same ellipse: turned by 180, or turned by 90 with its radii swapped
        a = shape.get("angle", 0) % 180
        if a == 90:
            rx, ry, a = ry, rx, 0
        return ("ellipse", tuple(shape["center"]), (rx, ry), a, shape.get("vertices", 32))
    if t == "circle":
        if shape["radius"] == 0:
            return ("point", tuple(shape["center"]))
        return ("circle", tuple(shape["center"]), shape["radius"])
    if t == "capsule":
        if shape["a"] == shape["b"]:
            return ("circle", tuple(shape["a"]), shape["radius"])
        return ("capsule", tuple(sorted([tuple(shape["a"]), tuple(shape["b"])])), shape["radius"])
    if t == "point":
        return ("point", tuple(shape["at"]))
    if t == "segment":
        return ("segment", tuple(sorted([tuple(shape["a"]), tuple(shape["b"])])))
    if t == "polygon":
        return ("polygon", cyclic([tuple(p) for p in shape["points"]]))
    if t == "polyline":
        pts = [tuple(p) for p in shape["points"]]
        return ("polyline", tuple(min(pts, pts[::-1])))
    if t == "compound":
        return ("compound", tuple(normal(p) for p in shape["parts"]))
    return (t, json.dumps(shape, sort_keys=True))


def cyclic(pts):
    """A ring's vertices from its least vertex, in the direction whose second vertex is
    less: the same ring whatever its first vertex and winding (SPEC: either winding)."""
    n = len(pts)
    i = min(range(n), key=lambda k: pts[k])
    fwd = tuple(pts[(i + k) % n] for k in range(n))
    bwd = tuple(pts[(i - k) % n] for k in range(n))
    return min(fwd, bwd)


def ulps(a, b):
    if a == b:
        return 0
    ia = struct.unpack("<q", struct.pack("<d", a))[0]
    ib = struct.unpack("<q", struct.pack("<d", b))[0]
    if ia < 0:
        ia = -(2 ** 63) - ia
    if ib < 0:
        ib = -(2 ** 63) - ib
    return abs(ia - ib)


def diff_values(a, b):
    """None when equal; else the largest ulp distance (float('inf') for a structural change)."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return None if a == b else ulps(float(a), float(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            return float("inf")
        worst = None
        for x, y in zip(a, b):
            d = diff_values(x, y)
            if d is not None and (worst is None or d > worst):
                worst = d
        return worst
    return None if a == b else float("inf")


def compare(path_a, path_b, out=sys.stdout):
    with open(path_a, encoding="utf-8-sig") as f:
        a = json.load(f)
    with open(path_b, encoding="utf-8-sig") as f:
        b = json.load(f)
    problems = []

    def index(scene, key):
        return {str(s.get("id", i)): (i, s) for i, s in enumerate(scene.get(key, []))}

    for key in ("shapes", "grids"):
        ia, ib = index(a, key), index(b, key)
        for k in sorted(set(ia) - set(ib)):
            problems.append(f"{key[:-1]} '{k}' only in {os.path.basename(path_a)}")
        for k in sorted(set(ib) - set(ia)):
            problems.append(f"{key[:-1]} '{k}' only in {os.path.basename(path_b)}")
        order_a = [k for k in (str(s.get("id", i)) for i, s in enumerate(a.get(key, []))) if k in ib]
        order_b = [k for k in (str(s.get("id", i)) for i, s in enumerate(b.get(key, []))) if k in ia]
        if order_a != order_b:
            problems.append(f"{key}: same ids in another order")
        for k in sorted(set(ia) & set(ib)):
            sa, sb = ia[k][1], ib[k][1]
            if sorted(sa.get("groups", [])) != sorted(sb.get("groups", [])) or \
                    sa.get("groups", []) != sb.get("groups", []):
                problems.append(f"'{k}': groups {sa.get('groups', [])} vs {sb.get('groups', [])}")
            if key == "grids":
                for f in ("tile_size", "origin", "outside", "solid"):
                    va, vb = sa.get(f), sb.get(f)
                    if isinstance(va, (int, float)):
                        va = [va, va]
                    if isinstance(vb, (int, float)):
                        vb = [vb, vb]
                    if f == "origin":
                        va, vb = va or [0, 0], vb or [0, 0]
                    if va != vb:
                        problems.append(f"grid '{k}': {f} {va} vs {vb}")
                if grid_cells(sa) != grid_cells(sb):
                    problems.append(f"grid '{k}': cells differ")
                continue
            na, nb = normal(sa), normal(sb)
            if na[0] != nb[0]:
                problems.append(f"'{k}': {sa['type']} vs {sb['type']} "
                                f"({json.dumps(sa)[:160]} vs {json.dumps(sb)[:160]})")
                continue
            d = diff_values(na, nb)
            if d is not None:
                what = "differs" if d > 2 ** 20 else f"differs by up to {d} ulp"
                problems.append(f"'{k}' ({sa['type']}) {what}: {json.dumps(sa)[:200]} vs {json.dumps(sb)[:200]}")
    for p in problems:
        out.write(p + "\n")
    return problems


def grid_cells(g):
    if "cells" in g:
        return [[bool(v) for v in row] for row in g["cells"]]
    solid = g.get("solid", "#")
    return [[ch in solid for ch in row] for row in g.get("rows", [])]


def main(argv):
    if len(argv) == 4 and argv[1] == "--compare":
        return 1 if compare(argv[2], argv[3]) else 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        imp = import_map(argv[1])
    except SkipMap as e:
        sys.stderr.write(f"reference_import: skipped: {e}\n")
        return 3
    except (MapError, ValueError, zlib.error, OSError) as e:
        sys.stderr.write(f"reference_import: error: {e}\n")
        return 2
    for w in imp.warnings:
        sys.stderr.write(f"reference_import: warning: {argv[1]}: {w}\n")
    write_scene(imp.scene(), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
