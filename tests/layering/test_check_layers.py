#!/usr/bin/env python3
"""check_layers.py on small made-up trees: it passes a tree whose includes run downward and
fails, naming the line, on an upward include, a cycle, a file outside the layer folders and a
bare include name."""
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def tree(d, files):
    for name, text in files.items():
        p = Path(d) / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for h in ("types", "error", "text", "geometry", "scene", "maps", "check", "findings", "report", "render", "collide"):
        p = Path(d) / "lib/include/collide" / f"{h}.hpp"
        if not p.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text("#pragma once\n")


def run(files):
    with tempfile.TemporaryDirectory() as d:
        tree(d, files)
        r = subprocess.run([sys.executable, str(HERE / "check_layers.py"), d], capture_output=True, text=True)
        return r.returncode, r.stdout


def expect(files, code, needles, what):
    got, out = run(files)
    if got != code or not all(n in out for n in needles):
        print(f"FAIL {what}: exit {got}, output:\n{out}")
        return 1
    print(f"ok   {what}")
    return 0


def main():
    fails = 0
    fails += expect({"lib/src/numeric/a.hpp": '#include "collide/types.hpp"\n',
                     "lib/src/check/b.cpp": '#include "numeric/a.hpp"\n#include "collide/check.hpp"\n'},
                    0, ["every include downward"], "downward includes pass")
    fails += expect({"lib/src/numeric/a.hpp": '#pragma once\n#include "collide/geometry.hpp"\n'},
                    1, ["lib/src/numeric/a.hpp:2: numeric includes \"collide/geometry.hpp\" of queries"],
                    "an upward include fails at its line")
    fails += expect({"lib/src/grids/a.hpp": '#include "grids/b.hpp"\n', "lib/src/grids/b.hpp": '#include "grids/a.hpp"\n'},
                    1, ["include cycle: grids/a.hpp -> grids/b.hpp -> grids/a.hpp"], "a cycle fails")
    fails += expect({"lib/src/loose.cpp": "int x;\n"}, 1, ["lib/src/loose.cpp: not in a layer folder"],
                    "a file outside the folders fails")
    fails += expect({"lib/src/scene/a.cpp": '#include "b.hpp"\n', "lib/src/scene/b.hpp": "\n"},
                    1, ["includes \"b.hpp\", which is no layer's header"], "a bare include name fails")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
