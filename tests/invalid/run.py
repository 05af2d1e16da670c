#!/usr/bin/env python3
"""Invalid-input corpus for collide.

    python3 tests/invalid/run.py --bin PATH [--jobs N] [--only REGEX] [--no-hostile] [--pending]

Every NNN-*.json file beside this script is a malformed scene. For each one the runner runs

    collide check FILE
    collide check -o OUT FILE        (OUT in a fresh temporary directory)
    collide validate FILE

and asserts: exit status 2; nothing on stdout; exactly one line on stderr, valid UTF-8, at
most 4096 bytes, of the form "collide: error: FILE:LINE:COLUMN: /json/pointer: message"
with the location and pointer that expected.json gives (null there means "must be
absent") and a message containing message_contains; no OUT and no temporary file left
in the temporary directory.

Then the generated hostile inputs (too big to commit), each run in its own helper process
so that resource.getrusage(RUSAGE_CHILDREN) measures that one collide alone, with a
watchdog that kills it when its resident set passes the bound (see BOUNDS below):
100 MiB of '[' on standard input, a 50 MB string at an unknown key, a valid polygon of
10^6 vertices (must pass), the same polygon crossing itself at its last vertex, a BOM
before valid JSON (must pass), polygons of 10^5 vertices that defeat an x-sorted
simplicity check (a comb, valid and with one crossing far in, and a spiral), a 10^5-vertex
polygon against a 10^5-point polyline crossing it 10^5 times (one pair), and an object
with 10^5 unknown keys.

expected.json entries with "pending" describe a known problem (see the reason there): by
default only the safety contract is checked for them (exit 2, empty stdout, one error line
naming the file, no files left behind); --pending checks the wanted location and message
too, and also runs the pending hostile inputs. In a pending entry a key that is left out is
not checked; message_contains may be a list (any one must occur).

Prints one line per failed check and, last, "N passed, M failed" (cases, not checks).
"""

import argparse
import base64
import concurrent.futures
import json
import math
import os
import random
import re
import resource
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PREFIX = "collide: error: "
MAX_STDERR = 4096  # one diagnostic line; never the offending input echoed back whole
MiB = 1024 * 1024


# ---------------------------------------------------------------------------------------
# The committed corpus


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout after %ss" % timeout, e.stdout or b"", e.stderr or b""


def check_error(arg, rc, out, err, exp, full):
    """Problems with one invocation that should have failed on input `arg`."""
    bad = []
    if rc != 2:
        bad.append("exit status %s, expected 2" % rc)
    if out:
        bad.append("stdout not empty: %r" % out[:200])
    if len(err) > MAX_STDERR:
        bad.append("stderr is %d bytes (more than %d): %r..." % (len(err), MAX_STDERR, err[:200]))
        err = err[:MAX_STDERR]
    if err.count(b"\n") != 1 or not err.endswith(b"\n"):
        bad.append("stderr is not exactly one line: %r" % err[:400])
    if full:
        try:
            err.decode("utf-8")
        except UnicodeDecodeError as e:
            bad.append("stderr is not valid UTF-8 (%s): %r" % (e.reason, err[:200]))
    text = err.decode("utf-8", "backslashreplace").split("\n")[0]
    if "[json.exception" in text:
        bad.append("library internals leak into the message: %r" % text)
    head = PREFIX + arg
    if not text.startswith(head):
        bad.append("stderr does not start with %r: %r" % (head, text))
        return bad
    if not full:
        return bad
    rest = text[len(head):]
    m = re.match(r":(\d+):(\d+): ", rest)
    if "line" in exp:
        if exp["line"] is None:
            if m:
                bad.append("expected no line:column, got %s:%s in %r" % (m.group(1), m.group(2), text))
        else:
            want = ":%d:%d: " % (exp["line"], exp["column"]) if "column" in exp else ":%d:" % exp["line"]
            if not rest.startswith(want):
                bad.append("expected location %s, got %r" % (want.strip(": "), text))
    if m:
        body = rest[m.end():]
    elif rest.startswith(": "):
        body = rest[2:]
    else:
        bad.append("no ': ' after the file name: %r" % text)
        return bad
    msg = body
    if "path" in exp:
        if exp["path"] is None:
            if body.startswith("/"):
                bad.append("expected no JSON pointer, got %r" % text)
        elif not body.startswith(exp["path"] + ": "):
            bad.append("expected JSON pointer %r, got %r" % (exp["path"], text))
        else:
            msg = body[len(exp["path"]) + 2:]
    want = exp.get("message_contains")
    if want is not None:
        alternatives = want if isinstance(want, list) else [want]
        if not any(w in msg for w in alternatives):
            bad.append("message does not contain %s: %r" % (" or ".join(repr(w) for w in alternatives), text))
    unwanted = exp.get("message_not_contains")
    if unwanted is not None and unwanted in msg:
        bad.append("message contains %r: %r" % (unwanted, text))
    return bad


def run_file(binary, name, exp, full, timeout):
    path = os.path.join(HERE, name)
    problems = []
    with tempfile.TemporaryDirectory(prefix="collide-invalid-") as tmp:
        out_path = os.path.join(tmp, "report.json")
        for label, cmd in (
            ("check", [binary, "check", path]),
            ("check -o", [binary, "check", "-o", out_path, path]),
            ("validate", [binary, "validate", path]),
        ):
            rc, out, err = run(cmd, timeout)
            problems += ["%s: %s" % (label, p) for p in check_error(path, rc, out, err, exp, full)]
            left = sorted(os.listdir(tmp))
            if left:
                problems.append("%s: files left in the output directory: %s" % (label, ", ".join(left)))
                for f in left:
                    os.remove(os.path.join(tmp, f))
    return problems


# ---------------------------------------------------------------------------------------
# Generated hostile inputs
#
# Memory bounds (peak resident set of the one collide process), and why:
#  - Any input: collide reads the whole text into one std::string. Grown by doubling, the
#    buffer and its predecessor coexist once, so the text costs at most 2.5x its size; add
#    64 MiB for the program, its libraries and small structures (a tiny scene peaks at
#    ~14 MiB in a Release build). A reader that builds a frame, a pointer token or a DOM
#    node per nesting level (10^8 of them here) is far beyond this.
#  - A polygon of n vertices: the element being read is held as nodes (3 per vertex, about
#    50 B each, plus links and keys, with vector doubling) and then as vertex arrays for the
#    simple-polygon check (~70 B); 640 B per vertex leaves room for that with a 1.5x margin
#    and still catches anything superlinear or a second full copy of the document.
#  - Under ASan the allocator keeps freed blocks in a quarantine (256 MiB by default), pads
#    every block with redzones and adds 1/8 of shadow memory; the 10^6-vertex polygon peaks
#    at 3.4x its Release figure (1.1 GiB against 0.32 GiB). The bound becomes 2 x bound + 256 MiB.
# Time limits are generous for a Release build (seconds where a correct program needs well
# under one) and scaled for the unoptimised sanitizer build.


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def circle_points(n, r=1000.0):
    return [(r * math.cos(2 * math.pi * i / n), r * math.sin(2 * math.pi * i / n)) for i in range(n)]


def write_polygon(path, pts, extra_shape=""):
    with open(path, "w") as f:
        f.write('{"shapes": [{"id": "big", "type": "polygon", "points": [')
        f.write(", ".join("[%r, %r]" % p for p in pts))
        f.write("]}" + extra_shape + "]}\n")


def gen_nesting(d):
    return None, b"[" * (100 * MiB)  # on stdin


class Padded:
    """Stdin made of head, `mib` MiB of spaces and tail, produced as it is written: a forked
    child counts its parent's memory until exec, so a big bytes object here would be
    measured as collide's."""

    def __init__(self, head, mib, tail):
        self.head, self.mib, self.tail = head, mib, tail

    def __len__(self):
        return len(self.head) + self.mib * MiB + len(self.tail)

    def chunks(self):
        yield self.head
        spaces = b" " * MiB
        for _ in range(self.mib):
            yield spaces
        yield self.tail


def gen_padded_stdin(d):
    # A valid scene padded to 256 MiB, through a pipe: the size is unknown until the end, and
    # growing the buffer must not cost a copy (peak memory about the input, not twice it).
    return None, Padded(b'{"shapes": [{"id": "a", "type": "point", "at": [0, 0]},', 256,
                        b'{"id": "b", "type": "circle", "center": [0, 0], "radius": 1}], "pairs": ["*:*"]}')


class Zeros:
    """Stdin of `gib` GiB of NUL bytes, produced as it is written (collide should stop reading
    at the first)."""

    def __init__(self, gib):
        self.gib = gib

    def __len__(self):
        return self.gib * 1024 * MiB

    def chunks(self):
        zeros = bytes(MiB)
        for _ in range(self.gib * 1024):
            yield zeros


def gen_nul_stdin(d):
    return None, Zeros(4)


def gen_dev_zero(d):
    return "/dev/zero", None


def gen_sparse_zeros(d):
    # 3 GiB of NUL bytes as a sparse file: costs no disk, reads as fast as memory.
    path = os.path.join(d, "zeros.json")
    with open(path, "wb") as f:
        f.truncate(3 * 1024 * MiB)
    return path, None


def gen_sparse_after_start(d):
    # A valid start, then 1 GiB of NUL bytes (sparse): on two threads the reader fails in the
    # part read first, without waiting for the rest.
    path = os.path.join(d, "started.json")
    with open(path, "wb") as f:
        f.write(b'{"shapes": [')
        f.truncate(1024 * MiB)
    return path, None


def gen_cells_grid(d):
    # A 4096 x 4096 grid written as `cells` (33 MB): 16.7M numbers must not become 16.7M
    # doubles (the grid is 2 MB of bits).
    rng = random.Random(5)
    rows = ["[" + ",".join("1" if rng.random() < 0.2 else "0" for _ in range(4096)) + "]" for _ in range(61)]
    path = os.path.join(d, "cells.json")
    with open(path, "w") as f:
        f.write('{"grids": [{"id": "g", "tile_size": 1, "cells": [')
        f.write(",".join(rows[(r * 7) % 61] for r in range(4096)))
        f.write(']}]}')
    return path, None


def gen_all_pairs(d):
    # 1,200 circles of radius 100 with centres in a 10 x 10 square: every pair overlaps, so
    # the answer is n(n-1)/2 = 719,400 collisions (~105 MB of JSON Lines) that must stream
    # (held a block of shapes at a time, they would take ~70 MB).
    rng = random.Random(7)
    path = os.path.join(d, "all-pairs.json")
    shapes = [{"id": "c%d" % i, "type": "circle", "radius": 100,
               "center": [round(rng.uniform(0, 10), 3), round(rng.uniform(0, 10), 3)]} for i in range(1200)]
    with open(path, "w") as f:
        json.dump({"shapes": shapes, "pairs": ["*:*"]}, f)
    return path, None


def gen_near_row(d):
    # 1,200 unit circles 10 apart in a row: no pair collides and every pair is near under
    # --near 1e9, 719,400 near records (~80 MB of JSON Lines) that come after the collisions
    # and must not be held in memory (as records they took 2.7x the memory of collisions).
    path = os.path.join(d, "near-row.json")
    shapes = [{"id": "c%d" % i, "type": "circle", "radius": 1, "center": [10 * i, 0]} for i in range(1200)]
    with open(path, "w") as f:
        json.dump({"shapes": shapes}, f)
    return path, None


def zstd_zeros(n):
    """A zstd frame (RFC 8878) of n zero bytes made of RLE blocks of 128 KiB: 32 kB for 1 GiB,
    written by hand so that the test needs no zstd module."""
    out = bytearray(struct.pack("<I", 0xFD2FB528))
    out += bytes([0x00, 0x38])  # no content size, no checksum; window 2^17
    left = n
    while left > 0:
        size = min(131072, left)
        left -= size
        out += struct.pack("<I", (1 if left == 0 else 0) | (1 << 1) | (size << 3))[:3] + b"\x00"
    return bytes(out)


TMX_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
            'width="%d" height="%d" tilewidth="16" tileheight="16" infinite="%d">\n'
            ' <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="2">'
            '<image source="t.png" width="32" height="32"/></tileset>\n')


def gen_empty_zstd_layer(d):
    # A valid, empty 16384 x 16384 layer (2^28 cells) in 44 kB: its gids as 32-bit words
    # were 1 GiB, and through scene text 1.5 GB; the grid's own bits are 32 MiB.
    n = 16384
    path = os.path.join(d, "empty.tmx")
    data = base64.b64encode(zstd_zeros(n * n * 4)).decode()
    with open(path, "w") as f:
        f.write(TMX_HEAD % (n, n, 0))
        f.write(' <layer id="1" name="Ground" width="%d" height="%d">\n  <data encoding="base64" '
                'compression="zstd">%s</data>\n </layer>\n</map>\n' % (n, n, data))
    return path, None


def gen_sparse_chunks(d):
    # An infinite map of two solid 16 x 16 chunks 100,000 tiles apart (1.3 kB): their bounding
    # box is 10^10 cells, so the layer becomes two grids (README "Tiled maps"); a coin on the
    # far chunk meets it.
    path = os.path.join(d, "sparse.tmx")
    chunk = base64.b64encode(zlib.compress(struct.pack("<256I", *([1] * 256)))).decode()
    with open(path, "w") as f:
        f.write(TMX_HEAD % (30, 20, 1))
        f.write(' <layer id="1" name="Ground" width="30" height="20">\n  <data encoding="base64" compression="zlib">\n')
        for x in (0, 100000):
            f.write('   <chunk x="%d" y="%d" width="16" height="16">%s</chunk>\n' % (x, x, chunk))
        f.write('  </data>\n </layer>\n <objectgroup id="2" name="Objects">\n'
                '  <object id="1" name="coin" x="1600040" y="1600040" width="8" height="8"/>\n'
                ' </objectgroup>\n</map>\n')
    return path, None


def gen_big_lattices(d):
    # A 1000 x 1000 grid (a fifth solid) crossed by 200 long moves and covered by a rect and a
    # diagonal segment; and a one-cell grid on a 1e-9 tile that bodies a million units wide
    # sweep across: 10^15 lattice cells a side, which must cost no more than the one cell.
    rng = random.Random(11)
    rows = ["".join("#" if rng.random() < 0.2 else "." for _ in range(1000)) for _ in range(1000)]
    moves = []
    for i in range(200):
        body = [{"type": "circle", "radius": 0.3}, {"type": "rect", "size": [0.5, 0.4]}, {"type": "point"}][i % 3]
        moves.append({"id": "m%d" % i, "grid": "big", "body": body,
                      "from": [rng.uniform(0, 1000), rng.uniform(0, 1000)],
                      "to": [rng.uniform(0, 1000), rng.uniform(0, 1000)]})
    moves.append({"id": "wide-rect", "grid": "tiny", "from": [-1e6, -1e6], "to": [1e6, 1e6],
                  "body": {"type": "rect", "size": [1e6, 1e6]}})
    moves.append({"id": "wide-circle", "grid": "tiny", "from": [1e6, -1e6], "to": [-1e6, 1e6],
                  "body": {"type": "circle", "radius": 1e5}})
    scene = {
        "shapes": [{"id": "cover", "type": "rect", "min": [-1, -1], "max": [1001, 1001]},
                   {"id": "diagonal", "type": "segment", "a": [0.5, 0.25], "b": [999.5, 999.75]},
                   {"id": "huge", "type": "circle", "center": [0, 0], "radius": 1e12}],
        "grids": [{"id": "big", "tile_size": 1, "rows": rows},
                  {"id": "tiny", "tile_size": 1e-9, "outside": "empty", "rows": ["."]}],
        "moves": moves,
        "pairs": ["*:big", "*:tiny"],
    }
    path = os.path.join(d, "big-lattices.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path, None


def gen_long_string(d):
    path = os.path.join(d, "long-string.json")
    with open(path, "w") as f:
        f.write('{"shapes": [], "notes": "')
        chunk = "lorem ipsum " * 1000
        for _ in range(50 * 1000 * 1000 // len(chunk)):
            f.write(chunk)
        f.write('"}\n')
    return path, None


def gen_polygon_valid(d):
    path = os.path.join(d, "polygon-1e6.json")
    write_polygon(path, circle_points(10**6), ', {"id": "p", "type": "point", "at": [0.5, 0.25]}')
    return path, None


def gen_polygon_crossing(d):
    path = os.path.join(d, "polygon-1e6-crossing.json")
    pts = circle_points(10**6)
    pts[-1] = (-2000.0, 0.0)  # its two edges cross the far side of the circle
    write_polygon(path, pts)
    return path, None


def gen_bom_valid(d):
    path = os.path.join(d, "bom-valid.json")
    with open(path, "wb") as f:
        f.write(b'\xef\xbb\xbf{"shapes": [{"id": "p", "type": "point", "at": [0, 0]}]}\n')
    return path, None


def comb_points(teeth):
    # Teeth whose edges each span the whole width: an x-sorted pairwise check compares
    # every pair of them (10^10 tests for 5*10^4 teeth).
    pts = []
    for i in range(teeth):
        pts += [(0.0, 2.0 * i), (1000.0, 2.0 * i + 1)]
    pts += [(1000.0, 2.0 * teeth + 10), (-10.0, 2.0 * teeth + 10)]
    return pts


def gen_polygon_comb(d):
    path = os.path.join(d, "polygon-comb.json")
    write_polygon(path, comb_points(50000))
    return path, None


def gen_polygon_comb_crossing(d):
    # Tooth 45000's tip pulled in to (900, 90003), inside the next tooth: the edge from
    # point 90000 to it crosses the edge from point 90002 to 90003, and nothing else does.
    path = os.path.join(d, "polygon-comb-crossing.json")
    pts = comb_points(50000)
    pts[90001] = (900.0, 90003.0)
    write_polygon(path, pts)
    return path, None


def gen_polygon_spiral(d):
    # A strip wound 250 times: out along r = 10 + t, back along r = 10 + pi + t (half way
    # between the turns), 5*10^4 vertices each way. The sweep line crosses ~1000 edges at
    # once and every vertical line crosses ~500 turns.
    path = os.path.join(d, "polygon-spiral.json")
    m = 50000
    step = 2 * math.pi / 200
    out = [((10 + i * step) * math.cos(i * step), (10 + i * step) * math.sin(i * step)) for i in range(m)]
    back = [((10 + math.pi + i * step) * math.cos(i * step), (10 + math.pi + i * step) * math.sin(i * step))
            for i in reversed(range(m))]
    write_polygon(path, out + back)
    return path, None


def gen_polygon_polyline(d):
    # A 10^5-vertex polygon and a 10^5-point polyline zig-zagging across its outline: each
    # piece crosses it, so the one pair has ~10^5 points. Reading every edge of one against
    # every piece of the other took 100 s; the edge index makes it O(n log n).
    path = os.path.join(d, "polygon-polyline-1e5.json")
    n = 10**5
    zig = [(1000.0 * (1.001 if i % 2 else 0.999) * math.cos(2 * math.pi * (i + 0.5) / n),
            1000.0 * (1.001 if i % 2 else 0.999) * math.sin(2 * math.pi * (i + 0.5) / n)) for i in range(n)]
    extra = ', {"id": "zig", "type": "polyline", "points": [' + ", ".join("[%r, %r]" % p for p in zig) + "]}"
    write_polygon(path, circle_points(n), extra)
    return path, None


def gen_many_keys(d):
    # One shape object with 10^5 unknown keys: the first must be reported at once.
    path = os.path.join(d, "many-keys.json")
    with open(path, "w") as f:
        f.write('{"shapes": [{"type": "point", "at": [0, 0]')
        f.write("".join(', "k%d": 0' % i for i in range(100000)))
        f.write("}]}\n")
    return path, None


def polygon_bound(size):
    return 640 * 10**6 + 2.5 * size + 64 * MiB


# name: (generator, command after the binary ('FILE' is replaced), what must hold,
#        memory bound from the input size, time limit release, time limit sanitized, pending)
HOSTILE = {
    "nesting-100MiB-stdin": dict(
        gen=gen_nesting, args=["check", "-"], arg="-", status=2,
        exp={"line": 1, "message_contains": ["too deep", "nested"]},
        bound=lambda size: 2.5 * size + 64 * MiB, limit=(10, 60)),
    "padded-256MiB-stdin": dict(
        gen=gen_padded_stdin, args=["check", "-", "-f", "jsonl"], arg="-", status=0,
        out_lines=2, out_contains=['"a": "a", "b": "b", "relation": "within"', '"collisions": 1'],
        bound=lambda size: 1.15 * size + 64 * MiB, limit=(20, 120)),
    # A byte that cannot start JSON ends the read at once: no gigabytes read first.
    "dev-zero": dict(
        gen=gen_dev_zero, args=["check", "FILE"], status=2,
        exp={"line": 1, "column": 1, "message_contains": "unexpected NUL byte (U+0000)"},
        bound=lambda size: 64 * MiB, limit=(5, 30)),
    "nul-4GiB-stdin": dict(
        gen=gen_nul_stdin, args=["check", "-"], arg="-", status=2,
        exp={"line": 1, "column": 1, "message_contains": "unexpected NUL byte (U+0000)"},
        bound=lambda size: 64 * MiB, limit=(5, 30)),
    "nul-3GiB-file-one-thread": dict(
        gen=gen_sparse_zeros, args=["check", "--threads", "1", "FILE"], status=2,
        exp={"line": 1, "column": 1, "message_contains": "unexpected NUL byte (U+0000)"},
        bound=lambda size: 64 * MiB, limit=(5, 30)),
    "nul-3GiB-file-two-threads": dict(
        gen=gen_sparse_zeros, args=["check", "--threads", "2", "FILE"], status=2,
        exp={"line": 1, "column": 1, "message_contains": "unexpected NUL byte (U+0000)"},
        bound=lambda size: 64 * MiB, limit=(5, 30)),
    "nul-1GiB-after-a-valid-start-two-threads": dict(
        gen=gen_sparse_after_start, args=["check", "--threads", "2", "FILE"], status=2,
        exp={"path": "/shapes/0", "line": 1, "column": 13, "message_contains": "unexpected NUL byte (U+0000)"},
        bound=lambda size: 64 * MiB, limit=(5, 30)),
    # The text, the cells as bytes while the grid is read (16.7 MB, up to twice that as the
    # array grows) and the program; as doubles they took 300 MB.
    "cells-grid-4096x4096": dict(
        gen=gen_cells_grid, args=["check", "FILE", "-f", "jsonl"], status=0,
        out_lines=1, out_contains=['"shapes": 0, "grids": 1, "collisions": 0'],
        bound=lambda size: size + 2 * 4096 * 4096 + 64 * MiB, limit=(20, 120)),
    "all-pairs-1200-circles": dict(
        gen=gen_all_pairs, args=["check", "FILE", "-f", "jsonl"], status=0,
        out_lines=719401, out_contains=['"relation": "overlap"', '"collisions": 719400'],
        bound=lambda size: 48 * MiB, limit=(30, 300)),
    "near-pairs-1200-circles": dict(
        gen=gen_near_row, args=["check", "FILE", "-f", "jsonl", "--near", "1e9"], status=0,
        out_lines=719401, out_contains=['"type": "near"', '"near": 719400'],
        bound=lambda size: 48 * MiB, limit=(30, 300)),
    # The picture of 719,400 overlapping pairs is the 1,200 circles (~160 kB): its memory
    # follows the picture (as held records it took 250 MB).
    "render-all-pairs-1200-circles": dict(
        gen=gen_all_pairs, args=["render", "--no-points", "FILE"], status=0,
        out_lines=1571, out_contains=['719400 collisions</text>', '</svg>'],  # a line a circle, 300 labels, the legend
        bound=lambda size: 48 * MiB, limit=(30, 300)),
    "tmx-empty-16384x16384-zstd-layer": dict(
        gen=gen_empty_zstd_layer, args=["check", "FILE", "-f", "jsonl"], status=0,
        out_lines=1, out_contains=['"shapes": 0, "grids": 1, "collisions": 0'],
        bound=lambda size: 32 * MiB + 64 * MiB, limit=(20, 120)),
    "tmx-chunks-100000-tiles-apart": dict(
        gen=gen_sparse_chunks, args=["check", "FILE", "-f", "jsonl"], status=0,
        out_lines=2, out_contains=['"a": "coin", "b": "Ground[100000,100000]", "relation": "overlap", "cells": [[2, 2]]',
                                   '"shapes": 1, "grids": 2, "collisions": 1'],
        bound=lambda size: 64 * MiB, limit=(5, 30)),
    "grid-1e6-cells-and-1e15-cell-bodies": dict(
        gen=gen_big_lattices, args=["check", "FILE", "-f", "jsonl"], status=0,
        out_lines=3 + 202 + 1, out_contains=['"id": "wide-rect", "allowed": true', '"shapes": 3, "grids": 2'],
        bound=lambda size: 4 * size + 64 * MiB, limit=(10, 120)),
    "string-50MB-unknown-key": dict(
        gen=gen_long_string, args=["validate", "FILE"], status=2,
        exp={"path": "/notes", "line": 1, "column": 25, "message_contains": "unknown key 'notes'"},
        bound=lambda size: 2.5 * size + 64 * MiB, limit=(10, 60)),
    "polygon-1e6-valid": dict(
        gen=gen_polygon_valid, args=["check", "FILE"], status=0, bound=polygon_bound, limit=(30, 300)),
    "polygon-1e6-crossing-at-end": dict(
        gen=gen_polygon_crossing, args=["check", "FILE"], status=2,
        exp={"path": "/shapes/0/points", "line": 1, "column": 56,
             "message_contains": "point 999999"},
        bound=polygon_bound, limit=(30, 300)),
    "bom-then-valid-json": dict(
        gen=gen_bom_valid, args=["validate", "FILE"], status=0, bound=lambda size: 64 * MiB, limit=(10, 30)),
    "polygon-comb-1e5-valid": dict(
        gen=gen_polygon_comb, args=["validate", "FILE"], status=0,
        bound=lambda size: 640 * 10**5 + 2.5 * size + 64 * MiB, limit=(10, 120)),
    "polygon-comb-1e5-one-crossing": dict(
        gen=gen_polygon_comb_crossing, args=["validate", "FILE"], status=2,
        exp={"path": "/shapes/0/points", "line": 1, "column": 56,
             "message_contains": "the polygon intersects itself: the edge from point 90000 to point 90001 and the "
                                 "edge from point 90002 to point 90003 meet"},
        bound=lambda size: 640 * 10**5 + 2.5 * size + 64 * MiB, limit=(10, 120)),
    "polygon-spiral-1e5-valid": dict(
        gen=gen_polygon_spiral, args=["validate", "FILE"], status=0,
        bound=lambda size: 640 * 10**5 + 2.5 * size + 64 * MiB, limit=(10, 120)),
    "polygon-1e5-x-polyline-1e5": dict(
        gen=gen_polygon_polyline, args=["check", "FILE", "-f", "jsonl"], status=0,
        out_lines=2, out_contains=['"a": "big", "b": "zig", "relation": "overlap"', '"collisions": 1'],
        bound=lambda size: 640 * 10**5 + 2.5 * size + 64 * MiB, limit=(10, 120)),
    "object-1e5-unknown-keys": dict(
        gen=gen_many_keys, args=["validate", "FILE"], status=2,
        exp={"path": "/shapes/0/k0", "message_contains": "unknown key 'k0'"},
        bound=lambda size: 2.5 * size + 64 * MiB, limit=(5, 30)),
}


def hostile_child(binary, name, sanitized):
    """Runs in a helper process: generate, run collide under a watchdog, print a JSON result."""
    case = HOSTILE[name]
    with tempfile.TemporaryDirectory(prefix="collide-hostile-") as d:
        path, stdin_data = case["gen"](d)
        size = len(stdin_data) if stdin_data is not None else os.path.getsize(path)
        bound = case["bound"](size)
        if sanitized:
            bound = 2 * bound + 256 * MiB
        limit = case["limit"][1 if sanitized else 0]
        out_dir = os.path.join(d, "out")
        os.mkdir(out_dir)
        cmd = [binary] + [path if a == "FILE" else a for a in case["args"]]
        start = time.monotonic()
        env = dict(os.environ)
        if sanitized:  # cap ASan's quarantine of freed blocks (256 MiB by default) at the bound's allowance
            env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=64"
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=out_dir)
        # kept prefix, bytes, lines; and the last line (a report's summary comes last)
        captured = {"stdout": [b"", 0, 0, b""], "stderr": [b"", 0, 0, b""]}

        def drain(stream, key):
            keep = 64 * 1024
            while True:
                chunk = stream.read(1 << 16)
                if not chunk:
                    break
                slot = captured[key]
                if len(slot[0]) < keep:
                    slot[0] += chunk[:keep - len(slot[0])]
                slot[1] += len(chunk)
                slot[2] += chunk.count(b"\n")
                slot[3] = (slot[3] + chunk)[-4096:]

        def feed():
            try:
                if hasattr(stdin_data, "chunks"):
                    for chunk in stdin_data.chunks():
                        proc.stdin.write(chunk)
                else:
                    view = memoryview(stdin_data)
                    for i in range(0, len(view), MiB):
                        proc.stdin.write(view[i:i + MiB])
                proc.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass

        threads = [threading.Thread(target=drain, args=(proc.stdout, "stdout")),
                   threading.Thread(target=drain, args=(proc.stderr, "stderr"))]
        if stdin_data is not None:
            threads.append(threading.Thread(target=feed))
        for t in threads:
            t.daemon = True
            t.start()
        killed = None
        while proc.poll() is None:
            elapsed = time.monotonic() - start
            rss = rss_kib(proc.pid) * 1024
            if rss > bound:
                killed = "killed: resident set %.0f MiB passed the bound of %.0f MiB after %.1f s" % (
                    rss / MiB, bound / MiB, elapsed)
            elif elapsed > limit:
                killed = "killed: still running after the limit of %d s" % limit
            if killed:
                proc.kill()
                proc.wait()
                break
            time.sleep(0.02)
        elapsed = time.monotonic() - start
        for t in threads:
            t.join(timeout=10)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # Linux: KiB
        left = sorted(os.listdir(out_dir))
    print(json.dumps({
        "status": proc.returncode, "killed": killed, "seconds": elapsed, "peak": peak, "bound": bound,
        "limit": limit, "input_bytes": size, "arg": path if path else "-", "left": left,
        "stdout": captured["stdout"][0].decode("utf-8", "backslashreplace"), "stdout_bytes": captured["stdout"][1],
        "stdout_lines": captured["stdout"][2],
        "stdout_tail": captured["stdout"][3].decode("utf-8", "backslashreplace"),
        "stderr": captured["stderr"][0].decode("latin-1"), "stderr_bytes": captured["stderr"][1],
    }))


def run_hostile(binary, name, sanitized, verbose):
    case = HOSTILE[name]
    cmd = [sys.executable, os.path.abspath(__file__), "--bin", binary, "--hostile-child", name]
    if sanitized:
        cmd.append("--sanitized")
    r = subprocess.run(cmd, capture_output=True)
    if r.returncode != 0:
        return ["the helper failed: %s" % r.stderr.decode("utf-8", "replace")[-2000:]]
    res = json.loads(r.stdout)
    problems = []
    if verbose:
        print("  %s: exit %s, %.1f s (limit %d s), peak %.0f MiB (bound %.0f MiB), input %.0f MB" % (
            name, res["status"], res["seconds"], res["limit"], res["peak"] / MiB, res["bound"] / MiB,
            res["input_bytes"] / 1e6), file=sys.stderr)
    if res["killed"]:
        problems.append(res["killed"])
    elif res["peak"] > res["bound"]:
        problems.append("peak resident set %.0f MiB is above the bound of %.0f MiB" % (res["peak"] / MiB, res["bound"] / MiB))
    if res["left"]:
        problems.append("files left in the working directory: %s" % ", ".join(res["left"]))
    err = res["stderr"].encode("latin-1")
    if res["stderr_bytes"] > len(err):
        problems.append("stderr is %d bytes" % res["stderr_bytes"])
    if res["killed"]:
        return problems
    if case["status"] == 0:
        if res["status"] != 0:
            problems.append("exit status %s, expected 0; stderr: %r" % (res["status"], err[:400]))
        if "out_lines" in case and res["status"] == 0:
            seen = res["stdout"] + res["stdout_tail"]
            if res["stdout_lines"] != case["out_lines"] or not all(w in seen for w in case["out_contains"]):
                problems.append("expected %d line(s) holding %r, got %d: %r ... %r" % (
                    case["out_lines"], case["out_contains"], res["stdout_lines"], res["stdout"][:300],
                    res["stdout_tail"][-300:]))
        if name == "polygon-1e6-valid" and res["status"] == 0:
            try:
                scene = json.loads(res["stdout"])["scenes"][0]
                got = [(c["a"], c["b"], c["relation"]) for c in scene["collisions"]]
                if got != [("big", "p", "contains")]:
                    problems.append("expected one collision big contains p, got %r" % got[:5])
            except (ValueError, KeyError, IndexError) as e:
                problems.append("stdout is not the expected report (%s): %r" % (e, res["stdout"][:200]))
    else:
        exp = case.get("exp", {})
        problems += check_error(res["arg"], res["status"], res["stdout"].encode(), err, exp, True)
    return problems


# ---------------------------------------------------------------------------------------


def is_sanitized(binary):
    try:
        with open(binary, "rb") as f:
            data = f.read()
    except OSError:
        return False
    return b"AddressSanitizer" in data or b"__asan_init" in data or b"__ubsan_handle" in data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="corpus files run in parallel")
    ap.add_argument("--only", help="only cases whose name matches this regular expression")
    ap.add_argument("--no-hostile", action="store_true", help="skip the generated hostile inputs")
    ap.add_argument("--hostile-only", action="store_true", help="only the generated hostile inputs")
    ap.add_argument("--pending", action="store_true",
                    help="also check the wanted behaviour of pending entries, and run pending hostile inputs")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per corpus invocation")
    ap.add_argument("--sanitized", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--hostile-child", help=argparse.SUPPRESS)
    ap.add_argument("-v", "--verbose", action="store_true", help="timings and peak memory of hostile inputs")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    if args.hostile_child:
        hostile_child(binary, args.hostile_child, args.sanitized)
        return 0
    if not os.access(binary, os.X_OK):
        print("not an executable: %s" % binary)
        return 2
    sanitized = is_sanitized(binary)

    with open(os.path.join(HERE, "expected.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    files = sorted(n for n in os.listdir(HERE) if re.match(r"\d{3}-.*\.json$", n))
    passed = failed = pending_skipped = 0
    for n in files:
        if n not in manifest:
            print("%s: no entry in expected.json" % n)
            failed += 1
    for n in manifest:
        if not n.startswith("_") and n not in files:
            print("%s: in expected.json but no such file" % n)
            failed += 1
    only = re.compile(args.only) if args.only else None
    todo = [n for n in files if n in manifest and (not only or only.search(n)) and not args.hostile_only]

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {}
        for n in todo:
            exp = manifest[n]
            full = "pending" not in exp or args.pending
            if "pending" in exp and not args.pending:
                pending_skipped += 1
            futures[n] = pool.submit(run_file, binary, n, exp, full, args.timeout)
        for n in todo:
            problems = futures[n].result()
            for p in problems:
                print("%s: %s" % (n, p))
            if problems:
                failed += 1
            else:
                passed += 1
            sys.stdout.flush()

    if not args.no_hostile:
        for name, case in HOSTILE.items():
            if only and not only.search(name):
                continue
            if case.get("pending") and not args.pending:
                pending_skipped += 1
                continue
            problems = run_hostile(binary, name, sanitized, args.verbose)
            for p in problems:
                print("%s: %s" % (name, p))
            if problems:
                failed += 1
            else:
                passed += 1
            sys.stdout.flush()

    if pending_skipped:
        print("(%d pending: known problems, checked only for exit status and output safety or, for hostile "
              "inputs, not run; --pending checks them whole)" % pending_skipped)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
