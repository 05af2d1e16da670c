#!/usr/bin/env python3
"""The library's includes run only downward (issue 27, in the spirit of Chromium's checkdeps).

lib/src is split into folders, one per layer, listed below from the bottom up; the public
headers of lib/include/collide each belong to a layer too. A file may include headers of its
own layer and of the layers below it, never one above, and no chain of includes may come back
to where it started. Prints each violation (file:line: what and why) and exits 1 if any.

    python3 tests/layering/check_layers.py [ROOT]      # ROOT: the repository (default: here)
"""
import re
import sys
from pathlib import Path

# Bottom first. A folder may include only from itself and the folders before it.
LAYERS = ["api", "support", "numeric", "geometry", "queries", "grids", "scene", "maps", "check",
          "report", "render", "top"]

# The public headers: which layer each belongs to (the layer of what implements it).
PUBLIC = {
    "collide/types.hpp": "api", "collide/error.hpp": "api", "collide/text.hpp": "api",
    "collide/geometry.hpp": "queries", "collide/scene.hpp": "scene", "collide/maps.hpp": "maps",
    "collide/check.hpp": "check", "collide/findings.hpp": "report", "collide/report.hpp": "report",
    "collide/render.hpp": "render",
    "collide/collide.hpp": "top",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    src, inc = root / "lib" / "src", root / "lib" / "include"
    problems = []
    layer_of = {}   # include name as written -> layer
    files = {}      # include name -> path
    for name, layer in PUBLIC.items():
        if not (inc / name).exists():
            problems.append(f"lib/include/{name}: listed in PUBLIC but missing")
            continue
        layer_of[name], files[name] = layer, inc / name
    for p in sorted(inc.glob("collide/*.hpp")):
        name = f"collide/{p.name}"
        if name not in PUBLIC:
            problems.append(f"lib/include/{name}: a public header no layer owns (add it to PUBLIC)")
    for p in sorted(src.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(src)
        if len(rel.parts) != 2 or rel.parts[0] not in LAYERS:
            problems.append(f"lib/src/{rel}: not in a layer folder ({', '.join(LAYERS[1:-1])})")
            continue
        layer_of[str(rel)], files[str(rel)] = rel.parts[0], p
    graph = {}
    for name, path in files.items():
        here = LAYERS.index(layer_of[name])
        graph[name] = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            where = f"{path.relative_to(root)}:{n}"
            if target not in layer_of:
                problems.append(f"{where}: includes \"{target}\", which is no layer's header "
                                "(write the path from lib/src, as \"layer/file.hpp\")")
                continue
            graph[name].append(target)
            if LAYERS.index(layer_of[target]) > here:
                problems.append(f"{where}: {layer_of[name]} includes \"{target}\" of {layer_of[target]}, "
                                "a layer above it")
    # Cycles: a depth-first walk that meets a file on its own path.
    state, stack = {}, []

    def walk(f):
        state[f] = 1
        stack.append(f)
        for t in graph.get(f, []):
            if state.get(t) == 1:
                problems.append("include cycle: " + " -> ".join(stack[stack.index(t):] + [t]))
            elif t not in state:
                walk(t)
        stack.pop()
        state[f] = 2

    for f in sorted(graph):
        if f not in state:
            walk(f)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering problem(s); the layers, bottom first: {', '.join(LAYERS)}")
        return 1
    print(f"layering: {len(files)} files, every include downward, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
