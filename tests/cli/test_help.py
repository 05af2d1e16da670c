#!/usr/bin/env python3
"""`collide --version` and `collide help [SUBCOMMAND]` through the real binary (SPEC §3).

    python3 tests/cli/test_help.py --bin build/cli/collide [-k TEXT]

Uses the runner and assertions of test_cli.py.
"""
import argparse
import re
import sys
from pathlib import Path

import test_cli as t
from test_cli import FULL, ROOT, bad_input, check, collide, eq, run_with_stdout, status

TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def project_version():
    """The one place the version is written: project(collide VERSION x.y.z) in CMake."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(collide VERSION ([0-9.]+)", text).group(1)


def subcommands():
    """The subcommands `collide --help` lists, in its order."""
    text = collide("--help").text
    return [line.split()[0] for line in text.split("\nSubcommands:\n", 1)[1].splitlines() if line.strip()]


@test
def version_prints_the_cmake_project_version():
    r = collide("--version")
    status(r, 0)
    eq(r.text, f"collide {project_version()}\n", "collide --version")
    eq(r.err, "", "stderr")
    check("--version" in collide("--help").text, "--help does not list --version")


@test
def version_belongs_before_the_subcommand():
    # Before a subcommand it wins, as --help does; after one it is not an option of that subcommand.
    r = collide("--version", "check", "samples/spec-example.json")
    status(r, 0)
    eq(r.text, f"collide {project_version()}\n", "collide --version check FILE")
    r = collide("check", "samples/spec-example.json", "--version")
    bad_input(r)
    eq(r.err, "collide: error: The following argument was not expected: --version "
              "(run 'collide --help' for usage)\n", "stderr")


@test
def usage_lines_name_collide_whatever_path_started_it():
    # BIN is an absolute path; the man page is made from these lines.
    eq(collide("--help").text.splitlines()[1], "Usage: collide [OPTIONS] SUBCOMMAND", "usage line")
    eq(collide("validate", "--help").text.splitlines()[1], "Usage: collide validate [OPTIONS] files...",
       "validate's usage line")


@test
def help_prints_the_same_bytes_as_the_help_flag():
    subs = subcommands()
    for sub in ["check", "validate", "import", "schema", "help"]:
        check(sub in subs, f"--help does not list {sub}: {subs}")
    r = collide("help")
    status(r, 0)
    for flag in ["--help", "-h"]:
        eq(r.out, collide(flag).out, f"collide help vs collide {flag}")
    for sub in subs:
        r = collide("help", sub)
        status(r, 0)
        eq(r.out, collide(sub, "--help").out, f"collide help {sub} vs collide {sub} --help")
    check("Usage: collide check [OPTIONS] [files...]" in collide("help", "check").text, "help check: no usage line")


@test
def help_of_an_unknown_subcommand_is_a_usage_error_naming_the_known_ones():
    subs = subcommands()
    known = ", ".join(subs[:-1]) + " or " + subs[-1]
    for args in [["help", "nosuch"], ["nosuch"]]:
        r = collide(*args)
        bad_input(r)
        eq(r.err, f"collide: error: unknown subcommand 'nosuch' (expected {known})\n", " ".join(args))
    r = collide("help", "check", "validate")
    bad_input(r)
    eq(r.err, "collide: error: The following argument was not expected: validate "
              "(run 'collide --help' for usage)\n", "help with two subcommands")


@test
def help_and_version_on_a_full_standard_output_are_exit_2():
    with open("/dev/full", "wb") as full:
        for args in [["help"], ["help", "check"], ["--version"]]:
            eq(run_with_stdout(args, full), (2, FULL), " ".join(args))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    t.BIN = str(Path(args.bin).resolve())
    return t.run_tests(TESTS, args.k)


if __name__ == "__main__":
    sys.exit(main())
