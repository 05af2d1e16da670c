#!/usr/bin/env python3
"""The pre-commit hooks (.pre-commit-hooks.yaml) through Debian's pre-commit, offline: a scratch
repository of levels (a good and a bad copy of samples/tiled/dungeon.tmx, a scene, a
package.json), collide on PATH, PRE_COMMIT_HOME in a temporary folder. `pre-commit try-repo`
on this repository (uncommitted changes included, as try-repo takes them), and `pre-commit run`
with the README's .pre-commit-config.yaml pointed at a clone of HEAD: good files pass, the bad
map fails with its FILE:LINE:COL line in the output, package.json is never checked.

    python3 tests/cli/test_pre_commit.py --bin build/cli/collide [-k TEXT]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

import test_cli as t
from test_cli import check, eq

ROOT = t.ROOT
TESTS = []
GIT_ENV = {"GIT_AUTHOR_NAME": "level designer", "GIT_AUTHOR_EMAIL": "levels@example.org",
           "GIT_COMMITTER_NAME": "level designer", "GIT_COMMITTER_EMAIL": "levels@example.org"}
FINDING = "levels/bad.tmx:38:3: error: 'coin#3' collides with 'Walls'"


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def run(*args, cwd, env=None):
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env or dict(os.environ, **GIT_ENV),
                          capture_output=True, text=True, timeout=600)


def scratch(tmp):
    """A game's repository: levels/, scenes/ and a package.json, all committed; and the
    environment pre-commit runs in (collide on PATH, its home in `tmp`, no network proxy)."""
    repo = Path(tmp) / "game"
    (repo / "levels").mkdir(parents=True)
    dungeon = (ROOT / "samples/tiled/dungeon.tmx").read_text()
    coin3 = re.search(r' <object id="3" name="coin".*?</object>\n', dungeon, re.S)
    (repo / "levels/good.tmx").write_text(dungeon.replace(coin3.group(0), ""))
    (repo / "levels/bad.tmx").write_text(dungeon)
    for f in ["dungeon-tiles.tsx", "level-rules.json"]:
        shutil.copy(ROOT / "samples/tiled" / f, repo / "levels" / f)
    (repo / "scenes").mkdir()
    shutil.copy(ROOT / "samples/arena.json", repo / "scenes/arena.json")
    (repo / "scenes/rules.json").write_text('{"rules": []}\n')
    (repo / "package.json").write_text('{"name": "game", "version": "1.0.0"}\n')
    bindir = Path(tmp) / "bin"
    bindir.mkdir()
    os.symlink(t.BIN, bindir / "collide")
    env = dict(os.environ, **GIT_ENV, PRE_COMMIT_HOME=str(Path(tmp) / "pre-commit-home"),
               PATH=f"{bindir}:{os.environ['PATH']}", http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9")
    for step in [["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "levels"]]:
        r = run(*step, cwd=repo, env=env)
        eq(r.returncode, 0, f"{step}: {r.stderr}")
    return repo, env


def readme_config():
    readme = (ROOT / "README.md").read_text()
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if b.startswith("# .pre-commit-config.yaml")]
    eq(len(blocks), 1, "README blocks of .pre-commit-config.yaml")
    return yaml.safe_load(blocks[0])


@test
def try_repo_passes_good_maps_and_fails_a_bad_one():
    with tempfile.TemporaryDirectory() as tmp:
        repo, env = scratch(tmp)
        # try-repo cannot pass args: the rules come from a collide.json, as a project's would
        (repo / "collide.json").write_text('{"rules": "levels/level-rules.json"}\n')
        good = run("pre-commit", "try-repo", ROOT, "collide", "--files", "levels/good.tmx", "package.json",
                   cwd=repo, env=env)
        eq(good.returncode, 0, f"try-repo on the good map: {good.stdout}{good.stderr}")
        check(re.search(r"collide \(Tiled and LDtk maps\)\.+Passed", good.stdout), good.stdout)
        bad = run("pre-commit", "try-repo", ROOT, "collide", "--files", "levels/good.tmx", "levels/bad.tmx",
                  cwd=repo, env=env)
        eq(bad.returncode, 1, f"try-repo on the bad map: {bad.stdout}{bad.stderr}")
        check(re.search(r"collide \(Tiled and LDtk maps\)\.+Failed", bad.stdout), bad.stdout)
        check(FINDING in bad.stdout, f"no '{FINDING}' in:\n{bad.stdout}")
        check(not re.search(r"^levels/good\.tmx:\d+:\d+: error", bad.stdout, re.M), f"a finding in good.tmx:\n{bad.stdout}")


@test
def readme_config_runs_with_its_args():
    with tempfile.TemporaryDirectory() as tmp:
        repo, env = scratch(tmp)
        hooks = Path(tmp) / "collide"
        r = run("git", "clone", "-q", ROOT, hooks, cwd=tmp)
        eq(r.returncode, 0, r.stderr)
        config = readme_config()
        (entry,) = config["repos"]
        entry["repo"], entry["rev"] = str(hooks), run("git", "rev-parse", "HEAD", cwd=hooks).stdout.strip()
        (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
        ok = run("pre-commit", "run", "--files", "levels/good.tmx", "scenes/arena.json", "package.json",
                 cwd=repo, env=env)
        eq(ok.returncode, 0, f"pre-commit run on good files: {ok.stdout}{ok.stderr}")
        check(re.search(r"collide \(scenes\)\.+Passed", ok.stdout), f"the scene hook did not run:\n{ok.stdout}")
        only_json = run("pre-commit", "run", "--files", "package.json", cwd=repo, env=env)
        eq(only_json.returncode, 0, only_json.stdout)
        check(re.search(r"collide \(scenes\)\.+\(no files to check\)Skipped", only_json.stdout),
              f"package.json went to collide-scenes:\n{only_json.stdout}")
        bad = run("pre-commit", "run", "--files", "levels/bad.tmx", "scenes/arena.json", cwd=repo, env=env)
        eq(bad.returncode, 1, f"pre-commit run on the bad map: {bad.stdout}{bad.stderr}")
        check(FINDING in bad.stdout, f"no '{FINDING}' in:\n{bad.stdout}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    t.BIN = str(Path(args.bin).resolve())
    check(shutil.which("pre-commit"), "no pre-commit (tests/deps.sh installs Debian's)")
    return t.run_tests(TESTS, args.k)


if __name__ == "__main__":
    sys.exit(main())
