#!/usr/bin/env python3
"""Seed inputs for fuzz_map (tests/fuzz/fuzz_map.cpp), written into the folder given.

An input is one byte for the format (0 TMX, 1 TMJ, 2 LDtk), the map, then up to three files
the map refers to, each after a line "%%file NAME". The seeds: the samples (the dungeon map
with its tileset; each level of the LDtk platformer on its own, minified to fit -max_len,
and one saved as an external level file), and small hand-made maps covering what the
samples do not: TMJ in every encoding, external .tsj tilesets and .tj templates, infinite
maps' chunks, group layers, XML <tile> data, gzip and zstd.

    python3 tests/fuzz/seed_fuzz_map.py tests/fuzz/corpus/fuzz_map
"""
import base64
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TMX, TMJ, LDTK = 0, 1, 2


def pack(fmt, map_text, files=()):
    out = bytes([fmt]) + map_text.encode()
    for name, text in files:
        out += b"\n%%file " + name.encode() + b"\n" + text.encode()
    return out


def gids_bytes(gids):
    return struct.pack("<%dI" % len(gids), *gids)


def b64(data):
    return base64.b64encode(data).decode()


def zstd(data):
    """zstd-compressed bytes, or None without the zstd program."""
    if not shutil.which("zstd"):
        return None
    return subprocess.run(["zstd", "-q", "-c"], input=data, stdout=subprocess.PIPE, check=True).stdout


def minified(value):
    return json.dumps(value, separators=(",", ":"))


def sample_seeds():
    seeds = {}
    with open(os.path.join(ROOT, "samples/tiled/dungeon.tmx")) as f:
        tmx = f.read()
    with open(os.path.join(ROOT, "samples/tiled/dungeon-tiles.tsx")) as f:
        tsx = f.read()
    seeds["dungeon"] = pack(TMX, tmx, [("dungeon-tiles.tsx", tsx)])

    with open(os.path.join(ROOT, "samples/ldtk/platformer.ldtk")) as f:
        project = json.load(f)
    for k, level in enumerate(project["levels"]):
        one = dict(project, levels=[level])
        seeds["platformer-level-%d" % k] = pack(LDTK, minified(one))
    # The first level saved in its own file, as LDtk does with "Save levels to separate files".
    level = dict(project["levels"][0])
    ext = dict(level)
    level.pop("layerInstances")
    level["externalRelPath"] = "l.ldtkl"
    one = dict(project, externalLevels=True, levels=[level])
    seeds["platformer-external-level"] = pack(LDTK, minified(one), [("l.ldtkl", minified(ext))])
    return seeds


TSJ = {
    "type": "tileset", "name": "walls", "tilewidth": 16, "tileheight": 16, "tilecount": 4, "columns": 4,
    "objectalignment": "bottomleft",
    "tiles": [
        {"id": 1, "type": "ledge", "objectgroup": {"type": "objectgroup", "objects": [
            {"id": 1, "x": 0, "y": 0, "width": 4, "height": 16}]}},
        {"id": 3, "class": "spikes", "objectgroup": {"type": "objectgroup", "objects": [
            {"id": 1, "x": 0, "y": 0, "polygon": [{"x": 0, "y": 16}, {"x": 8, "y": 4}, {"x": 16, "y": 16}]},
            {"id": 2, "x": 4, "y": 4, "width": 8, "height": 8, "ellipse": True}]}},
    ],
}

OBJECTS = [
    {"id": 1, "name": "player", "type": "player", "x": 20, "y": 10, "width": 8, "height": 12},
    {"id": 2, "name": "coin", "x": 30, "y": 10, "width": 6, "height": 6, "ellipse": True},
    {"id": 3, "name": "coin", "x": 36, "y": 10, "width": 6, "height": 4, "ellipse": True, "rotation": 45},
    {"id": 4, "name": "spawn", "x": 5, "y": 5, "point": True},
    {"id": 5, "name": "pit", "x": 10, "y": 30, "polygon": [{"x": 0, "y": 0}, {"x": 10, "y": 0}, {"x": 5, "y": 8}]},
    {"id": 6, "name": "rope", "x": 40, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": 20}],
     "properties": [{"name": "collide_groups", "type": "string", "value": "climbable, scenery"}]},
    {"id": 7, "name": "bat", "x": 50, "y": 20, "width": 12, "height": 6, "capsule": True},
    {"id": 8, "name": "hint", "x": 0, "y": 0, "width": 40, "height": 10, "text": {"text": "hi", "wrap": True}},
    {"id": 9, "name": "crate", "x": 70, "y": 40, "width": 10, "height": 10, "rotation": 30},
]


def tmj_map(layers, tilesets, infinite=False):
    return {"type": "map", "version": "1.10", "tiledversion": "1.11.0", "orientation": "orthogonal",
            "renderorder": "right-down", "width": 4, "height": 3, "tilewidth": 16, "tileheight": 16,
            "infinite": infinite, "nextlayerid": 9, "nextobjectid": 20, "tilesets": tilesets, "layers": layers}


def handmade_tmj():
    seeds = {}
    grid = [1, 1, 1, 1, 2, 0, 0, 0x80000002, 1, 4, 0x40000004, 1]
    inline = dict(TSJ, firstgid=1)
    inline.pop("type")
    layers = [
        {"type": "tilelayer", "id": 1, "name": "Walls", "class": "solid", "width": 4, "height": 3, "x": 0, "y": 0,
         "data": grid, "offsetx": 8, "offsety": -4},
        {"type": "objectgroup", "id": 2, "name": "Objects", "objects": OBJECTS + [
            {"id": 10, "name": "trap", "type": "hazard", "gid": 4, "x": 10, "y": 48, "width": 16, "height": 16}]},
    ]
    seeds["tmj-csv-inline-tileset"] = pack(TMJ, json.dumps(tmj_map(layers, [inline]), indent=1))

    encoded = [("base64", "", b64(gids_bytes(grid))),
               ("base64", "zlib", b64(zlib.compress(gids_bytes(grid)))),
               ("base64", "gzip", b64(gzip.compress(gids_bytes(grid), mtime=0)))]
    z = zstd(gids_bytes(grid))
    if z is not None:
        encoded.append(("base64", "zstd", b64(z)))
    for encoding, compression, data in encoded:
        layer = {"type": "tilelayer", "id": 1, "name": "Ground", "width": 4, "height": 3, "encoding": encoding,
                 "data": data}
        if compression:
            layer["compression"] = compression
        group = {"type": "group", "id": 3, "name": "Level", "offsetx": 16, "layers": [layer, {
            "type": "objectgroup", "id": 4, "name": "Things", "objects": [
                {"id": 11, "template": "o.tj", "x": 30, "y": 30},
                {"id": 12, "template": "o.tj", "name": "box", "x": 50, "y": 30, "rotation": 90}]}]}
        template = {"type": "template", "tileset": {"firstgid": 1, "source": "t.tsj"},
                    "object": {"name": "crate", "type": "prop", "gid": 2, "width": 16, "height": 16}}
        seeds["tmj-%s-%s-external-tileset-template" % (encoding, compression or "plain")] = pack(
            TMJ, json.dumps(tmj_map([group], [{"firstgid": 1, "source": "t.tsj"}])),
            [("t.tsj", json.dumps(TSJ)), ("o.tj", json.dumps(template))])

    chunks = [{"x": -4, "y": 0, "width": 4, "height": 2, "data": [1, 0, 0, 2, 0, 0, 1, 1]},
              {"x": 0, "y": 0, "width": 4, "height": 2, "data": b64(zlib.compress(gids_bytes([2, 2, 0, 0, 0, 1, 0, 4])))}]
    infinite = {"type": "tilelayer", "id": 1, "name": "Ground", "startx": -4, "starty": 0, "width": 8, "height": 2,
                "chunks": chunks[:1]}
    infinite_z = {"type": "tilelayer", "id": 2, "name": "More", "encoding": "base64", "compression": "zlib",
                  "startx": 0, "starty": 0, "width": 4, "height": 2, "chunks": chunks[1:]}
    seeds["tmj-infinite-chunks"] = pack(TMJ, json.dumps(tmj_map([infinite, infinite_z], [inline], infinite=True)))
    return seeds


TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="walls" tilewidth="16" tileheight="16" tilecount="4" columns="4" objectalignment="center">
 <tileoffset x="2" y="-2"/>
 <tile id="1" type="ledge"><objectgroup><object id="1" x="0" y="0" width="4" height="16"/></objectgroup></tile>
 <tile id="2" class="round"><objectgroup><object id="1" x="2" y="2" width="12" height="12"><ellipse/></object>
  <object id="2" x="0" y="8"><polyline points="0,0 16,0"/></object></objectgroup></tile>
 <tile id="3"><image source="big.png" width="32" height="48"/></tile>
</tileset>
"""

TX = """<?xml version="1.0" encoding="UTF-8"?>
<template>
 <tileset firstgid="1" source="t.tsx"/>
 <object name="crate" type="prop" gid="2" width="16" height="16">
  <properties><property name="collide_groups" value="props"/></properties>
 </object>
</template>
"""


def handmade_tmx():
    seeds = {}
    gids = [0, 1, 2, 0x20000003, 0, 0, 4, 0x80000002]
    chunk_gzip = b64(gzip.compress(gids_bytes(gids), mtime=0))
    z = zstd(gids_bytes(gids))
    chunk_zstd = b64(z) if z is not None else b64(gids_bytes(gids))
    tmx = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="16" tileheight="16" infinite="1">
 <tileset firstgid="1" source="t.tsx"/>
 <group id="1" name="Level" offsetx="4" offsety="8">
  <layer id="2" name="Chunks" class="solid" width="8" height="2">
   <data encoding="base64" compression="gzip">
    <chunk x="-4" y="0" width="4" height="2">%s</chunk>
    <chunk x="0" y="-2" width="4" height="2">%s</chunk>
   </data>
  </layer>
  <objectgroup id="3" name="Props">
   <properties><property name="collide_groups" value="level"/></properties>
   <object id="1" template="o.tx" x="16" y="32"/>
   <object id="2" template="o.tx" name="big" x="48" y="32" rotation="180"/>
   <object id="3" gid="3" x="0" y="0" width="16" height="16"/>
  </objectgroup>
 </group>
</map>
""" % (chunk_gzip, chunk_gzip)
    seeds["tmx-infinite-gzip-group-template"] = pack(TMX, tmx, [("t.tsx", TSX), ("o.tx", TX)])

    xml_tiles = "".join('<tile gid="%d"/>' % g for g in gids)
    tmx = """<map orientation="orthogonal" width="4" height="2" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="inline" tilewidth="16" tileheight="16" tilecount="4">
  <tile id="0"><objectgroup><object x="0" y="0"><polygon points="0,0 16,0 16,16"/></object></objectgroup></tile>
 </tileset>
 <layer id="1" name="Xml" width="4" height="2"><data>%s</data></layer>
 <layer id="2" name="Zstd" width="4" height="2"><data encoding="base64"%s>%s</data></layer>
 <imagelayer id="3" name="Sky"/>
 <objectgroup id="4" name="Xml"><object id="1" x="1" y="2" width="3" height="4"><capsule/></object></objectgroup>
</map>
""" % (xml_tiles, ' compression="zstd"' if z is not None else "", chunk_zstd)
    seeds["tmx-xml-tiles-zstd-inline-tileset"] = pack(TMX, tmx)
    return seeds


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: seed_fuzz_map.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {}
    seeds.update(sample_seeds())
    seeds.update(handmade_tmj())
    seeds.update(handmade_tmx())
    for name, data in seeds.items():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
