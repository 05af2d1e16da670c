#!/usr/bin/env python3
"""The README's CI jobs run as written (docs/ci/github-actions.yml, docs/ci/gitlab-ci.yml), so
that they cannot rot: each job's shell lines run with bash in a fresh workspace that stands in
for a user's repository -- levels/ with one good and one bad copy of samples/tiled/dungeon.tmx,
and collide at this repository's HEAD cloned into tools/collide as its submodule. What the
runner does instead of shell lines is done here: actions/checkout is that workspace, the caches
are a folder per key, the SARIF upload and the JUnit report are read back. The README must hold
each file verbatim.

The build step runs, but by default with the cache already holding collide (the --bin binary):
a cache hit, as on every push after the first, where the step has nothing to do. A cold build
takes minutes (--build runs one: the first job builds, with ccache when installed, the next
ones hit the cache the first one saved).

    python3 tests/cli/test_ci_examples.py --bin build/cli/collide [--build] [-k TEXT]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

import test_cli as t
from test_cli import check, eq

ROOT = t.ROOT
GITHUB = ROOT / "docs/ci/github-actions.yml"
GITLAB = ROOT / "docs/ci/gitlab-ci.yml"
BUILD = False
TESTS = []
GIT_ENV = {"GIT_AUTHOR_NAME": "level designer", "GIT_AUTHOR_EMAIL": "levels@example.org",
           "GIT_COMMITTER_NAME": "level designer", "GIT_COMMITTER_EMAIL": "levels@example.org"}


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, env=dict(os.environ, **GIT_ENV), check=True,
                          capture_output=True, text=True).stdout.strip()


def workspace(tmp, name, bad):
    """A user's repository after checkout with submodules: levels/ (good.tmx, and with `bad`
    bad.tmx: the sample, whose coin#3 sits in a wall at line 38) and tools/collide."""
    ws = Path(tmp) / name
    (ws / "levels").mkdir(parents=True)
    dungeon = (ROOT / "samples/tiled/dungeon.tmx").read_text()
    coin3 = re.search(r' <object id="3" name="coin".*?</object>\n', dungeon, re.S)
    check(coin3, "samples/tiled/dungeon.tmx: no coin#3 to take out")
    (ws / "levels/good.tmx").write_text(dungeon.replace(coin3.group(0), ""))
    if bad:
        (ws / "levels/bad.tmx").write_text(dungeon)
    for f in ["dungeon-tiles.tsx", "level-rules.json"]:
        shutil.copy(ROOT / "samples/tiled" / f, ws / "levels" / f)
    git("init", "-q", cwd=ws)
    git("clone", "-q", str(ROOT), "tools/collide", cwd=ws)
    git("add", "levels", "tools/collide", cwd=ws)  # tools/collide: a gitlink, as a submodule is
    git("commit", "-q", "-m", "levels", cwd=ws)
    return ws


def tool_env(tmp):
    """PATH with `sudo` (the hosted runner's is passwordless; root here needs none) when there is
    none, and ccache for a real build (the jobs' cmake honours CMAKE_CXX_COMPILER_LAUNCHER)."""
    env = dict(os.environ)
    if not shutil.which("sudo"):
        shim = Path(tmp) / "shim"
        shim.mkdir(exist_ok=True)
        (shim / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
        (shim / "sudo").chmod(0o755)
        env["PATH"] = f"{shim}:{env['PATH']}"
    if BUILD and shutil.which("ccache"):
        env["CMAKE_CXX_COMPILER_LAUNCHER"] = "ccache"
        env["CCACHE_BASEDIR"] = str(tmp)
    return env


def seeded(caches, key, files):
    """The cache at `key` holding collide as a previous job saved it, unless --build."""
    if BUILD or key in caches:
        return
    caches[key].mkdir(parents=True)
    for rel, make in files.items():
        (caches[key] / rel).parent.mkdir(parents=True, exist_ok=True)
        make(caches[key] / rel)


def copy_bin(dest):
    shutil.copy2(t.BIN, dest)


class Caches(dict):
    """A cache store: key -> folder, in the test's temporary folder."""

    def __init__(self, tmp):
        super().__init__()
        self.root = Path(tmp) / "caches"

    def __missing__(self, key):
        return self.root / re.sub(r"[^\w.-]", "_", key)

    def __contains__(self, key):
        return self[key].is_dir()


# ---------------------------------------------------------------- GitHub Actions


def expand(value, ctx):
    """${{ runner.os }} and ${{ steps.ID.outputs.NAME }}: all this workflow uses; anything else
    is an error, so that the workflow does not quietly outgrow what is tested."""
    def one(m):
        expr = m.group(1).strip()
        if expr == "runner.os":
            return "Linux"
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        check(step, f"an expression this test does not know: {expr}")
        return ctx["steps"][step.group(1)][step.group(2)]
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def condition(cond, ctx, failed):
    """The `if:` forms this workflow uses: always(), success() (the default) and a step output
    compared with a string; anything else is an error."""
    if cond == "always()":
        return True
    if cond == "success()":
        return not failed
    m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+) (==|!=) '([^']*)'", cond)
    check(m, f"an if this test does not know: {cond}")
    value = ctx["steps"].get(m.group(1), {}).get(m.group(2), "")
    return not failed and (value == m.group(4)) == (m.group(3) == "==")


def run_github(ws, caches, env):
    """Runs the job's steps as the runner does; returns [(step name, exit code, output)] and the
    job's verdict."""
    wf = yaml.safe_load(GITHUB.read_text())
    (job,) = wf["jobs"].values()
    eq(job.get("runs-on"), "ubuntu-latest", "runs-on")
    check("container" not in job, "a container: actions/checkout needs git in it for submodules")
    env = dict(env, CI="true", GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(ws), RUNNER_OS="Linux",
               **{k: str(v) for k, v in job.get("env", {}).items()})
    ctx = {"steps": {}}
    results, failed = [], False
    for step in job["steps"]:
        if not condition(step.get("if", "success()"), ctx, failed):
            continue
        name = step.get("name") or step.get("uses")
        if "uses" in step:
            code, out = uses(step, ws, caches, ctx)
        else:
            code, out = run_step(step, ws, env, ctx)
        results.append((name, code, out))
        failed = failed or (code != 0 and not step.get("continue-on-error"))
    return results, not failed


def uses(step, ws, caches, ctx):
    action, _, _ = step["uses"].partition("@")
    with_ = {k: expand(v, ctx) for k, v in step.get("with", {}).items()}
    if action == "actions/checkout":
        eq(with_.get("submodules"), "True", "checkout with submodules")
        check((ws / "tools/collide/CMakeLists.txt").is_file(), "the workspace has no tools/collide")
        return 0, "the workspace"
    if action == "actions/cache/restore":
        key, path = with_["key"], ws / with_["path"]
        seeded(caches, key, {"bin/collide": copy_bin})
        hit = key in caches
        ctx["steps"][step["id"]] = {"cache-hit": "true" if hit else "false", "cache-primary-key": key}
        if hit:
            shutil.copytree(caches[key], path)
            return 0, f"Cache restored from key: {key}"
        return 0, f"Cache not found for input keys: {key}"
    if action == "actions/cache/save":
        key, path = with_["key"], ws / with_["path"]
        check(key and key not in caches, f"saving over an existing cache: {key!r}")
        shutil.copytree(path, caches[key])
        return 0, f"Cache saved with key: {key}"
    if action == "github/codeql-action/upload-sarif":
        log = json.loads((ws / with_["sarif_file"]).read_text())
        eq(log.get("version"), "2.1.0", "the uploaded SARIF log's version")
        return 0, f"{len(log['runs'][0]['results'])} results"
    raise t.Failure(f"an action this test does not stand in for: {step['uses']}")


def run_step(step, ws, env, ctx):
    with tempfile.TemporaryDirectory() as files:
        out_file, path_file = Path(files) / "output", Path(files) / "path"
        out_file.touch(), path_file.touch()
        script = Path(files) / "step.sh"
        script.write_text(expand(step["run"], ctx))
        step_env = dict(env, GITHUB_OUTPUT=str(out_file), GITHUB_PATH=str(path_file),
                        **{k: expand(v, ctx) for k, v in step.get("env", {}).items()})
        # `bash -e {0}`: the runner's shell for `run` when the job names none
        proc = subprocess.run(["bash", "-e", str(script)], cwd=ws, env=step_env, capture_output=True, text=True,
                              timeout=3600)
        if "id" in step:
            ctx["steps"][step["id"]] = dict(line.split("=", 1) for line in out_file.read_text().splitlines())
        for line in reversed(path_file.read_text().splitlines()):
            env["PATH"] = f"{line}:{env['PATH']}"
    return proc.returncode, proc.stdout + proc.stderr


def step_named(results, start):
    hits = [r for r in results if r[0].startswith(start)]
    check(len(hits) == 1, f"no step '{start}...' ran: {[r[0] for r in results]}")
    return hits[0]


def show(results):
    return "\n".join(f"--- {name}: exit {code}\n{out[-3000:]}" for name, code, out in results)


@test
def github_job_passes_good_levels_and_annotates_a_bad_one():
    with tempfile.TemporaryDirectory() as tmp:
        caches, env = Caches(tmp), tool_env(tmp)
        started = time.monotonic()
        ws = workspace(tmp, "good", bad=False)
        results, ok = run_github(ws, caches, env)
        check(ok, f"the job failed on good levels:\n{show(results)}")
        commit = git("rev-parse", "HEAD", cwd=ws / "tools/collide")
        _, _, out = step_named(results, "check the levels")
        check("::error" not in out, f"annotations on good levels: {out}")
        check(any(k.endswith(commit) for k in os.listdir(caches.root)), f"no cache keyed by {commit}")
        print(f"    first job: {time.monotonic() - started:.0f} s", file=sys.stderr)

        ws = workspace(tmp, "bad", bad=True)
        results, ok = run_github(ws, caches, env)
        check(not ok, "the job passed a level whose coin is in a wall")
        _, code, out = step_named(results, "check the levels")
        eq(code, 1, f"the check step's exit code ({out})")
        check(re.search(r"^::error file=levels/bad\.tmx,line=38,col=3,title=pickups are not inside walls::",
                        out, re.M), f"no annotation at levels/bad.tmx:38:3 in:\n{out}")
        check("::error file=levels/good.tmx" not in out, f"good.tmx annotated: {out}")
        check("Cache restored" in step_named(results, "actions/cache/restore")[2], "the second job missed the cache")
        check(not any(r[0].startswith("actions/cache/save") for r in results), "a hit saved the cache again")
        eq(step_named(results, "github/codeql-action/upload-sarif")[1:], (0, "1 results"), "the SARIF upload")


# ---------------------------------------------------------------- GitLab CI


def run_gitlab(ws, caches, env):
    """The job's script as a GitLab runner's bash runs it (set -eo pipefail, one shell), its cache
    restored before and saved after a success; returns (exit code, output)."""
    ci = yaml.safe_load(GITLAB.read_text())
    (job,) = ci.values()
    variables = {k: str(v) for k, v in job.get("variables", {}).items()}
    eq(variables.get("GIT_SUBMODULE_STRATEGY"), "recursive", "the submodule strategy")
    image = job.get("image", "")
    check(image.startswith("debian:"), f"an image this test does not stand for: {image}")
    key, (path,) = job["cache"]["key"], job["cache"]["paths"]
    stamp_line = next(line for line in job["script"] if line.startswith("stamp="))
    stamp = subprocess.run(["bash", "-c", f'{stamp_line}\nprintf %s "$stamp"'], cwd=ws, capture_output=True,
                           text=True, check=True).stdout
    seeded(caches, key, {"bin/collide": copy_bin, "stamp": lambda p: p.write_text(stamp + "\n")})
    if key in caches:
        shutil.copytree(caches[key], ws / path)
    env = dict(env, CI="true", GITLAB_CI="true", CI_PROJECT_DIR=str(ws), **variables)
    proc = subprocess.run(["bash", "-eo", "pipefail", "-c", "\n".join(job["script"])], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=3600)
    if proc.returncode == 0 or job["cache"].get("when") == "always":
        shutil.rmtree(caches[key], ignore_errors=True)
        shutil.copytree(ws / path, caches[key])
    return proc.returncode, proc.stdout + proc.stderr, job


def junit_failures(ws, job):
    (report,) = [job["artifacts"]["reports"]["junit"]]
    eq(job["artifacts"].get("when"), "always", "artifacts when (the report of a failed job is the one wanted)")
    root = ET.parse(ws / report).getroot()
    return [f.get("message", "") + (f.text or "") for f in root.iter("failure")]


@test
def gitlab_job_passes_good_levels_and_reports_a_bad_one():
    with tempfile.TemporaryDirectory() as tmp:
        caches, env = Caches(tmp), tool_env(tmp)
        started = time.monotonic()
        ws = workspace(tmp, "good", bad=False)
        code, out, job = run_gitlab(ws, caches, env)
        eq(code, 0, f"the job on good levels:\n{out[-3000:]}")
        eq(junit_failures(ws, job), [], "JUnit failures on good levels")
        print(f"    first job: {time.monotonic() - started:.0f} s", file=sys.stderr)

        ws = workspace(tmp, "bad", bad=True)
        built = (caches["collide-build"] / "bin/collide").stat().st_mtime
        code, out, job = run_gitlab(ws, caches, env)
        eq(code, 1, f"the job's exit code on a bad level:\n{out[-3000:]}")
        eq((ws / ".collide/bin/collide").stat().st_mtime, built, "collide rebuilt despite the cache")
        failures = junit_failures(ws, job)
        check(any("levels/bad.tmx:38:3" in f and "coin#3" in f for f in failures),
              f"no JUnit failure at levels/bad.tmx:38:3: {failures}")


# ---------------------------------------------------------------- the README's copies


@test
def readme_holds_each_job_verbatim():
    readme = (ROOT / "README.md").read_text()
    for f in [GITHUB, GITLAB]:
        check(f"```yaml\n{f.read_text()}```\n" in readme,
              f"README.md does not hold {f.relative_to(ROOT)} verbatim in a ```yaml block")


def main():
    global BUILD
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("--build", action="store_true", help="empty caches: the first job of each builds collide")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    t.BIN = str(Path(args.bin).resolve())
    BUILD = args.build
    return t.run_tests(TESTS, args.k)


if __name__ == "__main__":
    sys.exit(main())
