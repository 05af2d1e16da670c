#!/usr/bin/env python3
"""What `cmake --install build --prefix PREFIX` puts in place (README "Installing"): the
program, the library, its headers and CMake package, the bash completion and the man page,
each where it belongs and each working.

    python3 tests/install/check_install.py --prefix PREFIX [-k TEXT]

tests/install/run.cmake installs, then runs this; tests/consumer builds against the same
prefix with find_package.
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
import test_cli as t  # noqa: E402
from test_cli import ROOT, check, collide, eq, same_bytes, status  # noqa: E402

PREFIX = None  # set from --prefix
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def installed(pattern):
    """The installed files matching a glob pattern under the prefix, as relative paths."""
    return sorted(str(p.relative_to(PREFIX)) for p in PREFIX.glob(pattern))


@test
def the_program_runs_from_the_prefix():
    eq(installed("bin/*"), ["bin/collide"], "bin/")
    r = collide("--version")
    status(r, 0)
    version = re.search(r"project\(collide VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
    eq(r.text, f"collide {version}\n", "collide --version")
    # The sample fails one of its own rules on purpose: exit 1 and the golden report.
    r = collide("check", "samples/spec-example.json")
    status(r, 1)
    same_bytes(r.out, (ROOT / "tests/cli/golden/spec-example.json").read_bytes(), "check samples/spec-example.json")


@test
def the_library_headers_and_cmake_package_are_in_place():
    libs = installed("lib*/libcollide.*")
    check(libs in (["lib/libcollide.a"], ["lib/libcollide.so"]), f"the library: {libs}")
    eq(installed("include/collide/*"),
       sorted(f"include/collide/{p.name}" for p in (ROOT / "lib/include/collide").iterdir()), "the headers")
    eq([Path(p).name for p in installed("lib/cmake/collide/*")],
       ["collideConfig.cmake", "collideConfigVersion.cmake", "collideTargets-release.cmake", "collideTargets.cmake"],
       "lib/cmake/collide")


@test
def the_bash_completion_loads_from_its_directory():
    path = PREFIX / "share/bash-completion/completions/collide"
    eq(path.read_bytes(), (ROOT / "cli/completion/collide.bash").read_bytes(), str(path))
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", 'source "$1" && type -t _collide && complete -p collide',
                           "bash", str(path)], capture_output=True, text=True, timeout=60)
    eq((proc.returncode, proc.stdout, proc.stderr), (0, "function\ncomplete -F _collide collide\n", ""), "sourcing it")


@test
def the_man_page_covers_every_subcommand_and_renders_cleanly():
    eq(installed("share/man/*/*"), ["share/man/man1/collide.1"], "share/man")
    page = (PREFIX / "share/man/man1/collide.1").read_text(encoding="utf-8")
    check(page.startswith('.\\" '), f"no roff comment first: {page[:60]!r}")
    check(re.search(r'^\.TH COLLIDE "1" "[^"]+" "collide [0-9.]+"', page, re.M), "no .TH line naming collide 1")
    for section in ["NAME", "SYNOPSIS", "OPTIONS", "SUBCOMMANDS", '"EXIT STATUS"', "EXAMPLES", '"SEE ALSO"']:
        check(f"\n.SH {section}\n" in page, f"no {section} section")
    subs = [line.split()[0] for line in collide("--help").text.split("\nSubcommands:\n")[1].split("\n\n")[0].splitlines() if line]
    check("render" in subs, f"collide --help lists no render: {subs}")
    for sub in subs:
        check(f'\n.SS "collide {sub}:"\n' in page, f"no sub-section for {sub}")
    # the options of check and render
    eq(page.count("\n\\fB\\-\\-near\\fR D\n"), 2, "--near in the man page")
    # each subcommand's exit statuses and examples are the page's own sections, not repeated in it
    check("Exit status:" not in page, "a --help footer in the man page")
    if shutil.which("groff"):
        proc = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(PREFIX / "share/man/man1/collide.1")],
                              capture_output=True, text=True, timeout=60)
        eq((proc.returncode, proc.stderr), (0, ""), "groff -man -ww")


def main():
    global PREFIX
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prefix", required=True, help="where the project was installed")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    PREFIX = Path(args.prefix).resolve()
    t.BIN = str(PREFIX / "bin/collide")
    return t.run_tests(TESTS, args.k)


if __name__ == "__main__":
    sys.exit(main())
