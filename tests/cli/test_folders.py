#!/usr/bin/env python3
"""A folder as input (SPEC §3: "a FILE that is a directory stands for every map and scene file
under it, in sorted order"), through the real binary: `collide check DIR` and `collide
validate DIR`, `--exclude GLOB`, and the files a folder holds that are not inputs.

    python3 tests/cli/test_folders.py --bin build/cli/collide [-k TEXT]
"""
import json
import shutil
import sys
import tempfile
from pathlib import Path

import test_cli as t
from test_cli import ROOT, bad_input, check, collide, eq, status

TESTS = []
SAMPLES = ROOT / "samples"


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def levels(tmp):
    """A folder of levels as a game keeps them: maps in sub-folders, a Tiled tileset beside
    them (in JSON and XML), a hidden folder, a project file; names chosen so that sorting by
    path differs from sorting by name and from the order the file system lists them."""
    root = Path(tmp) / "levels"
    for sub in ["b-town", "a-caves/deep", ".cache", "Z-upper"]:
        (root / sub).mkdir(parents=True)
    shutil.copy(SAMPLES / "tiled/dungeon.tmx", root / "b-town/dungeon.tmx")
    shutil.copy(SAMPLES / "tiled/dungeon-tiles.tsx", root / "b-town/dungeon-tiles.tsx")
    shutil.copy(SAMPLES / "tiled/dungeon.tmj", root / "a-caves/deep/dungeon.tmj")
    shutil.copy(SAMPLES / "tiled/dungeon-tiles.tsj", root / "a-caves/deep/dungeon-tiles.tsj")
    shutil.copy(SAMPLES / "ldtk/platformer.ldtk", root / "Z-upper/platformer.LDTK")
    shutil.copy(SAMPLES / "spec-example.json", root / "a-caves/spec.json")
    shutil.copy(SAMPLES / "crates.json", root / "a-caves/deep/crates.json")
    shutil.copy(SAMPLES / "crates.json", root / ".cache/stale.json")   # hidden folder: skipped
    shutil.copy(SAMPLES / "crates.json", root / "b-town/.draft.json")  # hidden file: skipped
    (root / "b-town/notes.txt").write_text("not a level\n")
    (root / "collide.json").write_text(json.dumps({"inputs": ["**/*.tmx"]}))  # the project file
    tileset = json.loads((SAMPLES / "tiled/dungeon-tiles.tsj").read_text())
    (root / "b-town/tiles.json").write_text(json.dumps(tileset))  # a Tiled tileset saved as .json
    return root


EXPECTED = ["a-caves/deep/crates.json", "a-caves/deep/dungeon.tmj", "a-caves/spec.json", "b-town/dungeon.tmx"]


def files_of(report):
    return [s["file"] for s in json.loads(report)["scenes"]]


@test
def a_folder_is_its_maps_and_scenes_in_sorted_order():
    with tempfile.TemporaryDirectory() as tmp:
        root = levels(tmp)
        r = collide("check", "--no-config", str(root))
        check(r.code in (0, 1), f"exit {r.code}: {r.err}")
        listed = [str(root / f) for f in EXPECTED]
        # The LDtk project holds several levels: one scene each, all from the one file.
        got = files_of(r.out)
        ldtk = [f for f in got if "platformer" in f]
        check(ldtk and all(f.startswith(str(root / "Z-upper/platformer.LDTK")) for f in ldtk), f"LDtk levels: {got}")
        eq([f for f in got if "platformer" not in f], listed, "scenes, in sorted order of their paths")
        # Byte order of the paths: 'Z-upper' (upper case) before 'a-caves'.
        eq(got[len(ldtk):], listed, "the LDtk project first, then the rest")
        # The same report as the files named one by one, in that order.
        named = collide("check", "--no-config", str(root / "Z-upper/platformer.LDTK"), *listed)
        eq(r.out, named.out, "check DIR vs check FILE...")
        # A trailing slash and a relative path list the same files, as given.
        r = collide("check", "--no-config", "levels/", cwd=tmp)
        eq(files_of(r.out)[-len(EXPECTED):], ["levels/" + f for f in EXPECTED], "relative folder")


@test
def exclude_leaves_out_files_by_name_folder_or_path():
    with tempfile.TemporaryDirectory() as tmp:
        root = levels(tmp)
        for globs, gone in [(["*.tmj"], ["a-caves/deep/dungeon.tmj"]),
                            (["deep"], ["a-caves/deep/crates.json", "a-caves/deep/dungeon.tmj"]),
                            (["a-caves/*.json"], ["a-caves/deep/crates.json", "a-caves/spec.json"]),
                            (["*/spec.json", "*.LDTK"], ["a-caves/spec.json"])]:
            args = [a for g in globs for a in ("--exclude", g)]
            r = collide("check", "--no-config", *args, str(root))
            got = [f for f in files_of(r.out) if "platformer" not in f]
            eq(got, [str(root / f) for f in EXPECTED if f not in gone], f"--exclude {globs}")
            check(("*.LDTK" in globs) != any("platformer" in f for f in files_of(r.out)), f"LDtk with {globs}")


@test
def a_json_file_of_neither_kind_is_an_error_naming_it_unless_excluded():
    with tempfile.TemporaryDirectory() as tmp:
        root = levels(tmp)
        (root / "b-town/package.json").write_text('{"name": "game", "version": "1.0.0"}\n')
        for sub in ["check", "validate"]:
            r = collide(sub, "--no-config", str(root)) if sub == "check" else collide(sub, str(root))
            bad_input(r)
            eq(r.err, f"collide: error: {root}/b-town/package.json: neither a scene nor a Tiled map (found in {root}; "
                      "--exclude GLOB leaves files out)\n", sub)
            eq(r.out, b"", f"{sub}: nothing on stdout")
        r = collide("validate", "--exclude", "package.json", str(root))
        status(r, 0)
        eq(len(r.text.splitlines()), len(EXPECTED) + 2, f"validate lines (the LDtk project's two levels): {r.text}")
        check(all(": valid" in line for line in r.text.splitlines()), r.text)


@test
def the_files_a_run_reads_for_itself_are_not_inputs():
    with tempfile.TemporaryDirectory() as tmp:
        root = levels(tmp)
        shutil.copy(SAMPLES / "tiled/level-rules.json", root / "rules.json")
        r = collide("check", "--no-config", "--rules", str(root / "rules.json"), "--write-baseline",
                    str(root / "baseline.json"), str(root))
        check(str(root / "rules.json") not in files_of(r.out), "the rules file was checked as a scene")
        r = collide("check", "--no-config", "--rules", str(root / "rules.json"), "--baseline", str(root / "baseline.json"),
                    str(root))
        check(r.code in (0, 1), f"the baseline in the folder: exit {r.code}: {r.err}")
        check(str(root / "baseline.json") not in files_of(r.out), "the baseline was checked")


@test
def a_folder_without_levels_is_an_error():
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "empty/.hidden").mkdir(parents=True)
        (Path(tmp) / "empty/.hidden/level.json").write_text("{}")
        for sub in ["check", "validate"]:
            r = collide(sub, str(Path(tmp) / "empty"))
            bad_input(r)
            eq(r.err, f"collide: error: {tmp}/empty: no map or scene file in this folder (.tmx, .tmj, .ldtk, .tscn, .json)\n", sub)


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
