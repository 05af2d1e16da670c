#!/usr/bin/env python3
"""An independent reference importer of Godot 4 text scenes (.tscn) into collide scenes.

It is written from SPEC.md §1.6 (and §1 for the output) only, not from
lib/src/maps/godot_*.cpp, so that the two can check each other on real scenes.

    reference_import.py SCENE.tscn          print the scene SCENE becomes (exit 2 on a bad
                                            scene, exit 3 "skipped: ..." on a feature this
                                            script does not do)
    reference_import.py --compare A B       compare two scene files by meaning (exit 1 when
                                            they differ): tests/maps/reference_import.py's
                                            comparison, plus the scenes' `pairs`

Choices made where SPEC leaves room are marked "CHOICE" below and listed in README.md.
"""
import base64
import importlib.util
import math
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from godot_text import Ctor, Parser, Ref, SceneError  # noqa: E402  (the grammar, beside this file)

SHAPE_BODIES = ("StaticBody2D", "AnimatableBody2D", "CharacterBody2D", "RigidBody2D",
                "PhysicalBone2D", "Area2D")
# CHOICE: these classes, and every class whose name ends in "2D", are CanvasItems whose
# transform is a Node2D's; Control classes (below) count as CanvasItems placed by `position`
# only; every other class (Node, CanvasLayer, ParallaxBackground, Timer, 3D, ...) stops the chain.
NODE2D_EXTRA = ("Node2D", "TileMap", "TileMapLayer", "CanvasGroup", "ParallaxLayer",
                "Parallax2D", "Polygon2D", "Line2D", "Marker2D", "Skeleton2D", "Bone2D")
CONTROLS = ("Control", "Container", "Label", "Button", "Panel", "TextureRect", "ColorRect",
            "MarginContainer", "VBoxContainer", "HBoxContainer", "CenterContainer",
            "RichTextLabel", "LineEdit", "TextureButton", "NinePatchRect", "ReferenceRect",
            "GridContainer", "PanelContainer", "ScrollContainer", "SubViewportContainer")
MODEL_SCENES = (".glb", ".gltf", ".blend", ".fbx", ".obj", ".dae")


class Skip(Exception):
    pass


# ============================================================================ files

class Resource:
    def __init__(self, rtype, props, path, line):
        self.type, self.props, self.path, self.line = rtype, props, path, line

    def get(self, key, default=None):
        for k, v, _ in reversed(self.props):
            if k == key:
                return v
        return default


class Doc:
    """One .tscn or .tres file: its sections, external and internal resources."""

    def __init__(self, loader, path):
        self.loader, self.path = loader, path
        try:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
        except OSError as e:
            raise SceneError(f"{path}: cannot read: {e.strerror}")
        self.sections = Parser(text, path).sections(self)
        head = self.sections[1] if len(self.sections) > 1 else None
        if not head or head[0] not in ("gd_scene", "gd_resource"):
            raise SceneError(f"{path}:1:1: not a Godot text scene or resource")
        if head[1].get("format") in (1, 2):
            raise SceneError(f"{path}:1:1: a Godot 3 file (format={head[1]['format']}); "
                             "collide reads Godot 4 scenes")
        self.ext, self.sub = {}, {}
        for tag, attrs, props, line in self.sections:
            if tag == "ext_resource":
                self.ext[str(attrs.get("id"))] = (attrs, line)
            elif tag == "sub_resource":
                self.sub[str(attrs.get("id"))] = Resource(attrs.get("type"), props, path, line)
            elif tag == "resource":
                self.main = Resource(head[1].get("type"), props, path, line)

    def resolve(self, v):
        if isinstance(v, Ref):
            if v.kind == "SubResource":
                if str(v.rid) not in self.sub:
                    raise SceneError(f"{self.path}:{v.line}: no sub_resource id \"{v.rid}\"")
                return self.sub[str(v.rid)]
            if str(v.rid) not in self.ext:
                raise SceneError(f"{self.path}:{v.line}: no ext_resource id \"{v.rid}\"")
            attrs, line = self.ext[str(v.rid)]
            return self.loader.external(self, attrs.get("path", ""), line)
        return v


class Loader:
    def __init__(self, scene_path):
        self.scene_path = os.path.abspath(scene_path)
        self.root = None
        d = os.path.dirname(self.scene_path)
        while True:  # res:// is the nearest folder above holding project.godot
            if os.path.isfile(os.path.join(d, "project.godot")):
                self.root = d
                break
            if os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
        self.docs = {}
        self.warnings = []

    def file(self, doc, path, line):
        if path.startswith("res://"):
            if not self.root:
                raise SceneError(f"{doc.path}:{line}: {path}: no project.godot above the scene")
            return os.path.join(self.root, path[6:])
        if path.startswith("uid://") or not path:  # CHOICE: uid:// alone is not resolved
            raise SceneError(f"{doc.path}:{line}: ext_resource without a path")
        return os.path.join(os.path.dirname(doc.path), path)

    def doc(self, path):
        path = os.path.normpath(path)
        if path not in self.docs:
            self.docs[path] = Doc(self, path)
        return self.docs[path]

    def external(self, doc, rpath, line):
        full = self.file(doc, rpath, line)
        if full.endswith(".tscn"):
            return ("scene", full, doc.path, line)
        if full.endswith(".tres"):
            if not os.path.isfile(full):
                raise SceneError(f"{doc.path}:{line}: missing resource {rpath}")
            d = self.doc(full)
            if not hasattr(d, "main"):
                raise SceneError(f"{full}: no [resource] section")
            return d.main
        return ("other", full)


# ============================================================================ node tree

class Node:
    def __init__(self, name, cls, path, line):
        self.name, self.cls, self.file, self.line = name, cls, path, line
        self.props, self.groups, self.children = [], [], []
        self.parent, self.doc_of = None, {}

    def get(self, key, default=None):
        for k, v, doc in reversed(self.props):
            if k == key:
                return doc.resolve(v) if doc else v
        return default

    def child(self, name):
        for c in self.children:
            if c.name == name:
                return c
        return None

    def where(self):
        return f"{self.file}:{self.line}:1"


def node_path(node):
    """The node's path from the root, root name included (Level/Walls/Shape)."""
    names = []
    while node is not None:
        names.append(node.name)
        node = node.parent
    return "/".join(reversed(names))


def add_unique(lst, items):
    for g in items:
        if g not in lst:
            lst.append(g)


def load_scene(loader, path, stack):
    if path in stack:
        raise SceneError(f"{path}: instancing cycle: " + " -> ".join(stack + [path]))
    if not os.path.isfile(path):
        raise SceneError(f"{stack[-1] if stack else path}: missing instanced scene {path}")
    doc = Doc(loader, path)  # a fresh copy each time: overrides change the tree
    if doc.sections[1][0] != "gd_scene":
        raise SceneError(f"{path}:1:1: not a scene")
    root = None
    for tag, attrs, props, line in doc.sections:
        if tag == "node":
            root = place_node(loader, doc, root, attrs, props, line, stack + [path])
        elif tag == "editable":  # CHOICE: read, not needed: overrides of any node apply
            pass  # editable children: the outer file's overrides below apply anyway
    if root is None:
        raise SceneError(f"{path}: a scene without nodes")
    return root


def place_node(loader, doc, root, attrs, props, line, stack):
    name = attrs.get("name")
    parent_path = attrs.get("parent")
    where = f"{doc.path}:{line}:1"
    if not isinstance(name, str):
        raise SceneError(f"{where}: node without a name")
    if parent_path is not None and not isinstance(parent_path, str):
        raise SceneError(f"{where}: node '{name}': parent= is not a string")
    if parent_path is None and root is not None:
        raise SceneError(f"{where}: node '{name}': a second root")
    parent = None
    if parent_path is not None:
        if root is None:
            raise SceneError(f"{where}: node '{name}': a parent before the root")
        parent = root
        for part in ([] if parent_path == "." else parent_path.split("/")):
            if getattr(parent, "model", False):
                return root  # inside an imported model (3D): skipped with it
            parent = parent.child(part)
            if parent is None:
                raise SceneError(f"{where}: node '{name}': no parent '{parent_path}'")
    node = parent.child(name) if parent else None
    inst = attrs.get("instance")
    if "instance_placeholder" in attrs:
        loader.warnings.append(f"{where}: node '{name}': instance_placeholder skipped")
        node = Node(name, "InstancePlaceholder", doc.path, line)
    elif inst is not None:
        target = doc.resolve(inst)
        model = isinstance(target, tuple) and target[0] == "other" and \
            os.path.splitext(target[1])[1].lower() in MODEL_SCENES
        if model:
            # CHOICE: an instanced imported model (.glb, .gltf, .blend, .fbx, .obj, .dae) is
            # a 3D scene: a Node3D, skipped with the 3D nodes' warning
            node = Node(name, "Node3D", doc.path, line)
            node.model = True
        elif isinstance(target, tuple) and target[0] == "other" and target[1].endswith(".scn"):
            raise SceneError(f"{where}: node '{name}': {target[1]} is a binary scene; save it as .tscn")
        elif not (isinstance(target, tuple) and target[0] == "scene"):
            raise SceneError(f"{where}: node '{name}': instance= is not a scene")
        else:
            node = load_scene(loader, target[1], stack)
        node.name, node.line, node.file = name, line, doc.path
    elif node is None:
        # CHOICE: a node without type= that overrides nothing is a plain Node
        node = Node(name, attrs.get("type") or "Node", doc.path, line)
    elif attrs.get("type"):
        node.cls = attrs["type"]
    node.line, node.file = line, doc.path
    g = attrs.get("groups", [])
    add_unique(node.groups, [x for x in g if isinstance(x, str)])
    node.props.extend((k, v, doc) for k, v, _ in props)
    if parent is not None and node.parent is None:
        node.parent = parent
        old = parent.child(name)
        idx = attrs.get("index")
        if old is not None and old is not node:
            parent.children[parent.children.index(old)] = node
        elif isinstance(idx, str) and idx.isdigit() and int(idx) < len(parent.children):
            parent.children.insert(int(idx), node)  # index="N": its place among the children
        else:
            parent.children.append(node)
    return root if root is not None else node


# ============================================================================ transforms
# A transform is (xx, xy, yx, yy, ox, oy): x column, y column, origin, as Godot's Transform2D.

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def xform(t, p):
    return (t[0] * p[0] + t[2] * p[1] + t[4], t[1] * p[0] + t[3] * p[1] + t[5])


def mul(a, b):
    """a × b as Godot's Transform2D::operator*: origin = a.xform(b.origin), columns tdot."""
    o = xform(a, (b[4], b[5]))
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3], o[0], o[1])


def rss(rot, scale, skew, pos):
    """Transform2D.set_rotation_scale_and_skew, then the origin."""
    return (math.cos(rot) * scale[0], math.sin(rot) * scale[0],
            -math.sin(rot + skew) * scale[1], math.cos(rot + skew) * scale[1], pos[0], pos[1])


def vec(v, node, key):
    if isinstance(v, Ctor) and v.name in ("Vector2", "Vector2i") and len(v.args) == 2:
        return (float(v.args[0]), float(v.args[1]))
    raise SceneError(f"{node.where()}: node '{node_path(node)}': {key} is not a Vector2")


def num(v, node, key):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    raise SceneError(f"{node.where()}: node '{node_path(node)}': {key} is not a number")


def length(x, y):
    """Vector2::length as Godot writes it: sqrt(x*x + y*y), not the more careful hypot."""
    return math.sqrt(x * x + y * y)


def decompose(t):
    det = t[0] * t[3] - t[2] * t[1]
    sign = 1.0 if det >= 0 else -1.0
    lx, ly = length(t[0], t[1]), length(t[2], t[3])
    rot = math.atan2(t[1], t[0])
    skew = 0.0
    if lx and ly:
        d = (t[0] / lx) * (sign * t[2] / ly) + (t[1] / lx) * (sign * t[3] / ly)
        skew = math.acos(max(-1.0, min(1.0, d))) - math.pi * 0.5
    return rot, (lx, sign * ly), skew, (t[4], t[5])


def local_transform(node):
    """Node2D's properties in file order, as its setters apply them."""
    if node.cls in CONTROLS:
        p = node.get("position")
        return (1.0, 0.0, 0.0, 1.0) + (vec(p, node, "position") if p is not None else (0.0, 0.0))
    rot, scale, skew, pos = 0.0, (1.0, 1.0), 0.0, (0.0, 0.0)
    matrix = None
    for k, v, _ in node.props:
        if k == "transform":
            if not (isinstance(v, Ctor) and v.name == "Transform2D" and len(v.args) == 6):
                raise SceneError(f"{node.where()}: node '{node_path(node)}': transform is not a Transform2D")
            matrix = tuple(float(a) for a in v.args)
            continue
        if k not in ("position", "rotation", "scale", "skew"):
            continue
        if matrix is not None:
            rot, scale, skew, pos = decompose(matrix)
            matrix = None
        if k == "position":
            pos = vec(v, node, k)
        elif k == "rotation":
            rot = num(v, node, k)
        elif k == "scale":
            scale = vec(v, node, k)
        else:
            skew = num(v, node, k)
    return matrix if matrix is not None else rss(rot, scale, skew, pos)


def is_canvas_item(node):
    return node.cls.endswith("2D") or node.cls in NODE2D_EXTRA or node.cls in CONTROLS


def global_transform(node, root):
    if node is root:
        return IDENTITY  # the root's own transform is not applied
    t = local_transform(node)
    if node.get("top_level") is True:
        return t
    p = node.parent
    if p is None or not is_canvas_item(p):
        return t
    return mul(global_transform(p, root), t)


# ============================================================================ shapes

def finite(node, pts):
    for p in pts:
        for c in p:
            if not math.isfinite(c):
                raise SceneError(f"{node.where()}: node '{node_path(node)}': non-finite coordinate")


def pts_of(v, node, key):
    if isinstance(v, Ctor) and v.name in ("PackedVector2Array", "PackedVector2iArray"):
        a = [float(x) for x in v.args]
        if len(a) % 2:
            raise SceneError(f"{node.where()}: node '{node_path(node)}': {key}: odd number count")
        return [(a[i], a[i + 1]) for i in range(0, len(a), 2)]
    if isinstance(v, list):
        return [vec(x, node, key) for x in v]
    raise SceneError(f"{node.where()}: node '{node_path(node)}': {key} is not a PackedVector2Array")


def P(p):
    return [p[0], p[1]]


def check_polygon(node, pts):
    """SPEC §1.1: repeated vertices dropped, then >= 3 vertices, non-zero area, no edges
    crossing; exact, in rationals."""
    from fractions import Fraction as F
    ring = []
    for p in pts:
        if not ring or ring[-1] != p:
            ring.append(p)
    while len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    bad = f"{node.where()}: node '{node_path(node)}': invalid polygon"
    if len(ring) < 3:
        raise SceneError(f"{bad}: fewer than 3 vertices")
    q = [(F(x), F(y)) for x, y in ring]
    n = len(q)
    if sum(q[i][0] * q[(i + 1) % n][1] - q[(i + 1) % n][0] * q[i][1] for i in range(n)) == 0:
        raise SceneError(f"{bad}: zero area")

    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)

    def on(a, b, c):
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])

    def meet(a, b, c, d):
        o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
        if o1 != o2 and o3 != o4 and 0 not in (o1, o2, o3, o4):
            return True
        return (o1 == 0 and on(a, b, c)) or (o2 == 0 and on(a, b, d)) or \
            (o3 == 0 and on(c, d, a)) or (o4 == 0 and on(c, d, b))

    for i in range(n):
        for j in range(i + 1, n):
            a, b, c, d = q[i], q[(i + 1) % n], q[j], q[(j + 1) % n]
            if j == i + 1 or (i == 0 and j == n - 1):
                # consecutive edges share one vertex; they may not fold back over each other
                shared, u, v = (b, a, d) if j == i + 1 else (a, b, c)
                if orient(u, shared, v) == 0 and \
                        (u[0] - shared[0]) * (v[0] - shared[0]) + (u[1] - shared[1]) * (v[1] - shared[1]) > 0:
                    raise SceneError(f"{bad}: edges fold back")
                continue
            if meet(a, b, c, d):
                raise SceneError(f"{bad}: edges cross")


def shape_parts(node, res, m):
    """The collide shapes a Shape2D resource stands for under transform m (a list)."""
    t = res.type if isinstance(res, Resource) else None
    g = res.get if isinstance(res, Resource) else None
    # CHOICE: the lengths of M's columns as Godot's Vector2::length computes them
    xlen = length(m[0], m[1])
    ylen = length(m[2], m[3])
    uniform = xlen == ylen and m[0] * m[2] + m[1] * m[3] == 0
    if t == "RectangleShape2D":
        w, h = vec(g("size", Ctor("Vector2", [20, 20])), node, "size")
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        pts = [xform(m, c) for c in corners]
        finite(node, pts)
        if m[1] == 0 and m[2] == 0 and m[0] > 0 and m[3] > 0:
            return [{"type": "rect", "min": P(pts[0]), "max": P(pts[2])}]
        return [{"type": "polygon", "points": [P(p) for p in pts]}]
    if t == "CircleShape2D":
        r = num(g("radius", 10.0), node, "radius")
        c = (m[4], m[5])
        finite(node, [c, (r, xlen)])
        if uniform:
            return [{"type": "circle", "center": P(c), "radius": r * xlen}]
        # the image of a circle of radius r under the linear part: an ellipse whose radii are
        # r times the singular values of [[xx, yx], [xy, yy]] (CHOICE: computed in doubles)
        a, b, cc, d = m[0], m[2], m[1], m[3]
        e, f = (a + d) / 2, (a - d) / 2
        gg, hh = (cc + b) / 2, (cc - b) / 2
        q, rr = math.hypot(e, hh), math.hypot(f, gg)
        s1, s2 = q + rr, abs(q - rr)
        ang = (math.atan2(gg, f) + math.atan2(hh, e)) / 2
        return [{"type": "ellipse", "center": P(c), "radii": [r * s1, r * s2],
                 "angle": math.degrees(ang)}]
    if t == "CapsuleShape2D":
        r, h = 10.0, 30.0
        for k, v, _ in res.props:  # the setters clamp each other, in file order
            if k == "radius":
                r = num(v, node, k)
                if h < r * 2:
                    h = r * 2
            elif k == "height":
                h = num(v, node, k)
                if r > h * 0.5:
                    r = h * 0.5
            elif k == "mid_height":  # CHOICE: Godot 4.4's mid_height sets height = mid + 2r
                h = num(v, node, k) + r * 2
        if not uniform:
            raise SceneError(f"{node.where()}: node '{node_path(node)}': a capsule under a "
                             "non-uniform scale")
        half = h / 2 - r
        a, b = xform(m, (0.0, -half)), xform(m, (0.0, half))
        finite(node, [a, b])
        return [{"type": "capsule", "a": P(a), "b": P(b), "radius": r * xlen}]
    if t == "SegmentShape2D":
        a = vec(g("a", Ctor("Vector2", [0, 0])), node, "a")
        b = vec(g("b", Ctor("Vector2", [0, 10])), node, "b")
        a, b = xform(m, a), xform(m, b)
        finite(node, [a, b])
        return [{"type": "segment", "a": P(a), "b": P(b)}]
    if t == "SeparationRayShape2D":
        ln = num(g("length", 20.0), node, "length")
        a, b = xform(m, (0.0, 0.0)), xform(m, (0.0, ln))
        finite(node, [a, b])
        return [{"type": "segment", "a": P(a), "b": P(b)}]
    if t == "WorldBoundaryShape2D":
        n = vec(g("normal", Ctor("Vector2", [0, -1])), node, "normal")
        dist = num(g("distance", 0.0), node, "distance")
        p = (n[0] * dist, n[1] * dist)
        # CHOICE: the line through normal*distance and that point plus normal.orthogonal()
        # = (n.y, -n.x), as Godot draws it
        a, b = xform(m, p), xform(m, (p[0] + n[1], p[1] - n[0]))
        finite(node, [a, b])
        if a == b:
            raise SceneError(f"{node.where()}: node '{node_path(node)}': a zero world-boundary normal")
        return [{"type": "line", "a": P(a), "b": P(b), "_group": "world-boundary"}]
    if t == "ConvexPolygonShape2D":
        pts = [xform(m, p) for p in pts_of(g("points", Ctor("PackedVector2Array", [])), node, "points")]
        finite(node, pts)
        check_polygon(node, pts)
        return [{"type": "polygon", "points": [P(p) for p in pts]}]
    if t == "ConcavePolygonShape2D":
        pts = [xform(m, p) for p in pts_of(g("segments", Ctor("PackedVector2Array", [])), node, "segments")]
        finite(node, pts)
        # CHOICE: one segment part per pair of points; an odd last point is dropped
        return [{"type": "segment", "a": P(pts[i]), "b": P(pts[i + 1])}
                for i in range(0, len(pts) - 1, 2)]
    if res is None:
        return []  # a CollisionShape2D without a shape collides with nothing
    raise Skip(f"{node.where()}: node '{node_path(node)}': shape type {t}")


def shape_node_parts(node, m):
    if node.cls == "CollisionShape2D":
        return shape_parts(node, node.get("shape"), m)
    v = node.get("polygon", Ctor("PackedVector2Array", []))
    pts = [xform(m, p) for p in pts_of(v, node, "polygon")]
    finite(node, pts)
    if not pts:
        return []
    mode = node.get("build_mode", 0)
    if mode == 1:
        return [{"type": "polyline", "points": [P(p) for p in pts + [pts[0]]]}]
    check_polygon(node, pts)
    return [{"type": "polygon", "points": [P(p) for p in pts]}]


def bits(v, n):
    return [f"{n}-{i + 1}" for i in range(32) if (int(v) >> i) & 1]


def one_shape(sid, parts, groups):
    extra = [p.pop("_group") for p in parts if "_group" in p]
    groups = list(groups)
    add_unique(groups, extra)  # CHOICE: world-boundary goes after the body's groups
    if len(parts) == 1:
        s = {"id": sid}
        s.update(parts[0])
    else:
        s = {"id": sid, "type": "compound", "parts": parts}
    s["groups"] = groups
    return s


# ============================================================================ the importer

class Importer:
    def __init__(self, path):
        self.path = path
        self.loader = Loader(path)
        self.shapes, self.grids = [], []
        self.layers, self.masks = set(), set()
        self.warnings = self.loader.warnings

    def run(self):
        if self.path.lower().endswith(".scn"):
            raise SceneError(f"{self.path}: a binary scene; save it as .tscn")
        root = load_scene(self.loader, os.path.abspath(self.path), [])
        self.root = root
        self.walk(root, root.name)
        return self

    def groups(self, node, layer, mask):
        # CHOICE: the order is the node's groups (an instanced scene's root's own, then the
        # instancing tag's), its class, its name, layer-N ascending, mask-N ascending; each
        # name once
        for v, what in ((layer, "collision_layer"), (mask, "collision_mask")):
            if not isinstance(v, int) or isinstance(v, bool):
                raise SceneError(f"{node.where()}: node '{node_path(node)}': {what} is not an integer")
        g = []
        add_unique(g, node.groups)
        add_unique(g, [node.cls, node.name])
        add_unique(g, bits(layer, "layer") + bits(mask, "mask"))
        for i in range(32):
            if (int(layer) >> i) & 1:
                self.layers.add(i + 1)
            if (int(mask) >> i) & 1:
                self.masks.add(i + 1)
        return g

    def walk(self, node, path):
        # CHOICE: shapes in node order (depth first, children in file order), a body's PATH
        # before its PATH#one-way; a tile layer's compounds where the layer stands
        if node.cls.endswith("3D"):
            self.warnings.append(f"{node.where()}: 3D node '{path}' skipped")
            return
        if node.cls in ("SubViewport", "Viewport", "InstancePlaceholder"):
            self.warnings.append(f"{node.where()}: {node.cls} '{path}' skipped")
            return
        if node.cls in SHAPE_BODIES:
            self.body(node, path)
        elif node.cls in ("CollisionShape2D", "CollisionPolygon2D") and \
                (node.parent is None or node.parent.cls not in SHAPE_BODIES):
            self.warnings.append(f"{node.where()}: shape '{path}' outside a collision object skipped")
        elif node.cls == "TileMapLayer":
            self.tile_layer(node, path)
        elif node.cls == "TileMap":
            self.old_tilemap(node, path)
        for c in node.children:
            self.walk(c, path + "/" + c.name)

    def body(self, node, path):
        m0 = global_transform(node, self.root)
        normal, oneway = [], []
        for c in node.children:
            if c.cls not in ("CollisionShape2D", "CollisionPolygon2D") or c.get("disabled") is True:
                continue
            parts = shape_node_parts(c, mul(m0, local_transform(c)))
            (oneway if c.get("one_way_collision") is True else normal).extend(parts)
        g = self.groups(node, node.get("collision_layer", 1), node.get("collision_mask", 1))
        if normal:
            self.shapes.append(one_shape(path, normal, g))
        if oneway:
            self.shapes.append(one_shape(path + "#one-way", oneway, g + ["one-way"]))

    # ------------------------------------------------------------------ tiles

    def tileset(self, node, path):
        ts = node.get("tile_set")
        if ts is None:
            return None
        if not isinstance(ts, Resource) or ts.type != "TileSet":
            raise SceneError(f"{node.where()}: node '{path}': tile_set is not a TileSet")
        if ts.get("tile_shape", 0) != 0:
            raise SceneError(f"{node.where()}: layer '{path}': tile_shape {ts.get('tile_shape')} "
                             "is not square; only square tiles have a plain x/y geometry")
        return ts

    def tile_layer(self, node, path):
        if node.get("enabled", True) is False:
            self.warnings.append(f"{node.where()}: disabled layer '{path}' skipped")
            return
        ts = self.tileset(node, path)
        data = node.get("tile_map_data")
        if ts is None or data is None:
            return
        if node.get("collision_enabled", True) is False:
            return  # CHOICE: collision_enabled = false: the layer collides with nothing
        raw = packed_bytes(data, node, path)
        if len(raw) < 2 or struct.unpack_from("<H", raw)[0] != 0 or (len(raw) - 2) % 12:
            raise SceneError(f"{node.where()}: layer '{path}': corrupt tile_map_data")
        cells = {}
        for i in range(2, len(raw), 12):
            x, y, src, ax, ay, alt = struct.unpack_from("<hhHHHH", raw, i)
            cells[(x, y)] = (src, ax, ay, alt)
        self.tile_cells(node, path, ts, cells, global_transform(node, self.root))

    def old_tilemap(self, node, path):
        ts = self.tileset(node, path)
        if ts is None:
            return
        if node.get("format", 2) != 2:
            raise Skip(f"{node.where()}: TileMap '{path}' format {node.get('format')}")
        idx = sorted({int(k.split("/")[0][6:]) for k, _, _ in node.props
                      if re.match(r"layer_\d+/", k)})
        m_map = global_transform(node, self.root)
        for n in idx:
            name = node.get(f"layer_{n}/name", "")
            lpath = path if len(idx) == 1 else f"{path}/{name or '#' + str(n)}"
            if node.get(f"layer_{n}/enabled", True) is False:
                self.warnings.append(f"{node.where()}: disabled layer '{lpath}' skipped")
                continue
            data = node.get(f"layer_{n}/tile_data", Ctor("PackedInt32Array", []))
            ints = data.args if isinstance(data, Ctor) else None
            if ints is None or len(ints) % 3:
                raise SceneError(f"{node.where()}: layer '{lpath}': corrupt tile_data")
            cells = {}
            for i in range(0, len(ints), 3):
                raw = struct.pack("<iii", *(int(v) for v in ints[i:i + 3]))
                x, y, src, ax, ay, alt = struct.unpack("<hhHHHH", raw)
                cells[(x, y)] = (src, ax, ay, alt)
            self.tile_cells(node, lpath, ts, cells, m_map)

    def tile_cells(self, node, path, ts, cells, m):
        tw, th = vec(ts.get("tile_size", Ctor("Vector2i", [16, 16])), node, "tile_size")
        nphys = physics_layer_count(ts)
        grid_ok = m[1] == 0 and m[2] == 0 and m[0] > 0 and m[3] > 0
        for k in range(nphys):
            suffix = f"#p{k}" if nphys > 1 else ""
            g = self.groups(node, ts.get(f"physics_layer_{k}/collision_layer", 1),
                            ts.get(f"physics_layer_{k}/collision_mask", 1))
            solid, compounds = set(), []
            for (x, y) in sorted(cells, key=lambda c: (c[1], c[0])):
                polys = tile_polygons(ts, cells[(x, y)], k, node, path)
                if not polys:
                    continue
                full = [p for p, ow in polys if not ow]
                ow = [p for p, o in polys if o]
                # CHOICE: the cell's centre is ((x + 0.5) * tw, (y + 0.5) * th) in the layer
                cm = mul(m, (1.0, 0.0, 0.0, 1.0, (x + 0.5) * tw, (y + 0.5) * th))
                if grid_ok and len(full) == 1 and fills_cell(full[0], tw, th):
                    solid.add((x, y))
                elif full:
                    compounds.append(self.tile_compound(f"{path}{suffix}@{x},{y}", full, cm, g, node))
                if ow:
                    compounds.append(self.tile_compound(f"{path}{suffix}@{x},{y}#one-way", ow, cm,
                                                        g, node, one_way=True))
            if solid:  # CHOICE: a layer without a solid cell has no grid
                self.grids.append(make_grid(path + suffix, solid, tw, th, m, g))
            self.shapes.extend(compounds)

    def tile_compound(self, sid, polys, cm, groups, node, one_way=False):
        parts = []
        for poly in polys:
            pts = [xform(cm, p) for p in poly]
            finite(node, pts)
            check_polygon(node, pts)
            parts.append({"type": "polygon", "points": [P(p) for p in pts]})
        # CHOICE: always a compound, even of one polygon; tile-collision after the layer's groups,
        # then one-way (last, as on a body's PATH#one-way; settled with collide's reader)
        return {"id": sid, "type": "compound", "parts": parts,
                "groups": groups + ["tile-collision"] + (["one-way"] if one_way else [])}


def packed_bytes(v, node, path):
    if isinstance(v, Ctor) and v.name == "PackedByteArray":
        if len(v.args) == 1 and isinstance(v.args[0], str):
            try:
                return base64.b64decode(v.args[0], validate=True)
            except ValueError:
                raise SceneError(f"{node.where()}: layer '{path}': bad base64 in tile_map_data")
        return bytes(int(a) & 0xFF for a in v.args)
    raise SceneError(f"{node.where()}: layer '{path}': tile_map_data is not a PackedByteArray")


def physics_layer_count(ts):
    # CHOICE: the TileSet's physics layers are 0..max K named by a `physics_layer_K/` property
    # of the TileSet or of any atlas tile; at least one when any tile has a polygon
    n = 0
    for k, _, _ in ts.props:
        mm = re.match(r"physics_layer_(\d+)/", k)
        if mm:
            n = max(n, int(mm.group(1)) + 1)
    for src in tileset_sources(ts).values():
        if isinstance(src, Resource):
            for k, _, _ in src.props:
                mm = re.search(r"/physics_layer_(\d+)/", k)
                if mm:
                    n = max(n, int(mm.group(1)) + 1)
    return n


def tileset_sources(ts):
    out = {}
    for k, v, _ in ts.props:
        mm = re.fullmatch(r"sources/(\d+)", k)
        if mm:
            out[int(mm.group(1))] = v
    return out


def tile_polygons(ts, cell, k, node, path):
    """[(points, one_way)] of physics layer k of the tile a cell shows, flips applied."""
    src, ax, ay, alt = cell
    res = tileset_sources(ts).get(src)
    if res is None:
        return []  # CHOICE: a cell naming no source collides with nothing (Godot draws nothing)
    res = resolve_in(ts, res)
    if not isinstance(res, Resource) or res.type != "TileSetAtlasSource":
        return []  # CHOICE: scene-collection cells collide with nothing here
    a = alt & 0xFFF
    pre = f"{ax}:{ay}/{a}"
    tp = {}
    for key, v, _ in res.props:
        if key == pre or key.startswith(pre + "/"):
            tp[key[len(pre):]] = v
    if "" not in tp and not any(t.startswith("/") for t in tp):
        return []  # no such tile or alternative
    # CHOICE: the flip bits Godot 4.2+ keeps in the alternative id (1<<12 flip h, 1<<13 flip
    # v, 1<<14 transpose) are xor-ed with the alternative's own properties
    fh = bool(tp.get("/flip_h", False)) ^ bool(alt & 0x1000)
    fv = bool(tp.get("/flip_v", False)) ^ bool(alt & 0x2000)
    tr = bool(tp.get("/transpose", False)) ^ bool(alt & 0x4000)
    out = []
    i = 0
    while f"/physics_layer_{k}/polygon_{i}/points" in tp:
        pts = pts_of(tp[f"/physics_layer_{k}/polygon_{i}/points"], node, "tile polygon")
        pts = [flip(p, tr, fh, fv) for p in pts]
        if len(pts) >= 3:
            out.append((pts, tp.get(f"/physics_layer_{k}/polygon_{i}/one_way", False) is True))
        i += 1
    return out


def resolve_in(ts, v):
    if isinstance(v, Ref):
        return v.doc.resolve(v)
    return v


def flip(p, transpose, fh, fv):
    x, y = p
    if transpose:
        x, y = y, x
    if fh:
        x = -x
    if fv:
        y = -y
    return (x, y)


def fills_cell(poly, tw, th):
    # CHOICE: "exactly fills" = one polygon whose distinct vertices are the cell's 4 corners
    pts = []
    for p in poly:
        if not pts or pts[-1] != p:
            pts.append(p)
    while len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    corners = {(-tw / 2, -th / 2), (tw / 2, -th / 2), (tw / 2, th / 2), (-tw / 2, th / 2)}
    if len(pts) != 4 or set(pts) != corners:
        return False
    # the corners in ring order (not a bow tie): consecutive vertices share an x or a y
    return all(pts[i][0] == pts[i - 1][0] or pts[i][1] == pts[i - 1][1] for i in range(4))


def make_grid(gid, solid, tw, th, m, groups):
    xs = [c[0] for c in solid]
    ys = [c[1] for c in solid]
    x0, y0 = min(xs), min(ys)
    rows = ["".join("#" if (x, y) in solid else "." for x in range(x0, max(xs) + 1))
            for y in range(y0, max(ys) + 1)]
    # CHOICE: origin = M(x0*tw, y0*th), tile size (tw*sx, th*sy); one number when square
    o = xform(m, (x0 * tw, y0 * th))
    ts = [tw * m[0], th * m[3]]
    return {"id": gid, "tile_size": ts[0] if ts[0] == ts[1] else ts, "origin": P(o),
            "outside": "empty", "rows": rows, "groups": groups}


# ============================================================================ output, compare

def tiled_reference():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "tiled_reference", os.path.join(here, "..", "maps", "reference_import.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write_scene(imp, out):
    dumps = tiled_reference().dumps
    pairs = [f"mask-{n}:layer-{n}" for n in sorted(imp.masks & imp.layers)]
    out.write('{"format": "collide-scene", "version": 1,\n "settings": {"y_axis": "down"},\n')
    out.write(' "shapes": [\n' + ",\n".join("  " + dumps(s) for s in imp.shapes) + "\n ],\n")
    out.write(' "grids": [\n' + ",\n".join("  " + dumps(g) for g in imp.grids) + "\n ],\n")
    out.write(' "pairs": ' + dumps(pairs) + "\n}\n")


def compare(path_a, path_b, out=sys.stdout):
    """The Tiled reference's comparison, with lines compared as lines (a, and b - a up to
    its sign: the same line through the same point a, whichever way it is written), plus
    the scenes' `pairs`, in order."""
    import json
    tiled = tiled_reference()
    shape_normal = tiled.normal

    def normal(shape):
        if shape.get("type") == "line":
            a, b = shape["a"], shape["b"]
            d = (b[0] - a[0], b[1] - a[1])
            return ("line", tuple(a), max(d, (-d[0], -d[1])))
        return shape_normal(shape)

    tiled.normal = normal
    problems = tiled.compare(path_a, path_b, out)
    with open(path_a, encoding="utf-8-sig") as f:
        pa = json.load(f).get("pairs")
    with open(path_b, encoding="utf-8-sig") as f:
        pb = json.load(f).get("pairs")
    if pa != pb:
        msg = f"pairs {pa} vs {pb}"
        out.write(msg + "\n")
        problems = problems + [msg]
    return problems


def main(argv):
    if len(argv) == 4 and argv[1] == "--compare":
        return 1 if compare(argv[2], argv[3]) else 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        imp = Importer(argv[1]).run()
    except Skip as e:
        sys.stderr.write(f"reference_import: skipped: {e}\n")
        return 3
    except RecursionError:
        sys.stderr.write(f"reference_import: error: {argv[1]}: nesting too deep\n")
        return 2
    except SceneError as e:
        sys.stderr.write(f"reference_import: error: {e}\n")
        return 2
    for w in imp.warnings:
        sys.stderr.write(f"reference_import: warning: {w}\n")
    write_scene(imp, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
