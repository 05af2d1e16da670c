#!/usr/bin/env python3
"""`collide --version` and `collide help [SUBCOMMAND]` through the real binary (SPEC §3).

    python3 tests/cli/test_help.py --bin build/cli/collide [-k TEXT]

Uses the runner and assertions of test_cli.py.
"""
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
    section = text.split("\nSubcommands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip()]


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
    eq(r.err, "collide: error: unknown option '--version' (an option of 'collide' itself: put it before the "
              "subcommand)\n", "stderr")


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
    eq(r.err, "collide: error: unexpected argument 'validate' (run 'collide help --help' for usage)\n",
       "help with two subcommands")


@test
def help_and_version_on_a_full_standard_output_are_exit_2():
    with open("/dev/full", "wb") as full:
        for args in [["help"], ["help", "check"], ["--version"]]:
            eq(run_with_stdout(args, full), (2, FULL), " ".join(args))


def long_options(sub):
    """The long options `collide SUB --help` lists in its Options: section."""
    section = collide(sub, "--help").text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    return [name for line in section.splitlines() for name in line.split()[0].split(",") if name.startswith("--")]


@test
def each_option_typo_suggests_the_option_meant():
    # A letter dropped from the middle, two swapped, one doubled: each is one or two edits
    # from the option and further from every other, so the hint names it.
    for sub in subcommands():
        for option in long_options(sub):
            name = option[2:]
            mid = len(name) // 2
            typos = {"--" + name[:mid] + name[mid + 1:], "--" + name[:mid - 1] + name[mid] + name[mid - 1] + name[mid + 1:],
                     "--" + name[:mid] + name[mid] + name[mid:]} - {option}
            for typo in sorted(typos):
                r = collide(sub, typo, "samples/spec-example.json")
                bad_input(r)
                eq(r.err, f"collide: error: unknown option '{typo}' (did you mean '{option}'?)\n", f"{sub} {typo}")
                eq(r.out, b"", f"{sub} {typo}: stdout")
    r = collide("check", "--fail-on-colision", "samples/spec-example.json")
    eq(r.err, "collide: error: unknown option '--fail-on-colision' (did you mean '--fail-on-collision'?)\n", "the issue's typo")
    r = collide("check", "--format=jsn", "samples/spec-example.json")  # a known option, a bad value: its own message
    eq(r.err, "collide: error: --format: 'jsn' is not one of csv, gcc, github, json, jsonl, junit, sarif, text\n", "--format=jsn")
    r = collide("check", "--fromat=json", "samples/spec-example.json")
    eq(r.err, "collide: error: unknown option '--fromat' (did you mean '--format'?)\n", "--fromat=json")


@test
def options_given_to_the_wrong_command_say_where_they_belong():
    r = collide("--no-touch", "check", "samples/spec-example.json")
    bad_input(r)
    eq(r.err, "collide: error: unknown option '--no-touch' (an option of 'collide check': put it after the subcommand)\n",
       "before the subcommand")
    r = collide("validate", "--no-touch", "samples/spec-example.json")
    eq(r.err, "collide: error: unknown option '--no-touch' (an option of 'collide check')\n", "another subcommand's")
    r = collide("check", "--zzzzzz", "samples/spec-example.json")
    eq(r.err, "collide: error: unknown option '--zzzzzz' (run 'collide check --help' for usage)\n", "nothing near")


@test
def a_missing_value_or_file_is_said_in_the_house_style():
    for args, message in [(["check", "--threads"], "option '--threads' needs a value (N)"),
                          (["check", "samples/spec-example.json", "--near"], "option '--near' needs a value (D)"),
                          (["validate"], "no FILE given (run 'collide validate --help' for usage)"),
                          (["import"], "no MAP given (run 'collide import --help' for usage)"),
                          (["render", "-o"], "option '--output' needs a value (PATH)")]:
        r = collide(*args)
        bad_input(r)
        eq(r.err, f"collide: error: {message}\n", " ".join(args))


@test
def each_help_ends_with_exit_statuses_and_three_examples():
    for sub in [None] + subcommands():
        args = [sub] if sub else []
        text = collide(*args, "--help").text
        what = f"collide {sub or ''} --help"
        check("\nExit status:\n" in text and "\nExamples:\n" in text, f"{what}: no exit statuses or examples")
        statuses = text.split("\nExit status:\n", 1)[1].split("\n\n", 1)[0]
        codes = [line.split()[0] for line in statuses.splitlines() if re.match(r"  [0-9] ", line)]
        check(codes[0] == "0" and codes[-1] == "2" and codes == sorted(codes), f"{what}: exit statuses {codes}")
        examples = text.split("\nExamples:\n", 1)[1].splitlines()
        eq(len(examples), 3, f"{what}: examples")
        for line in examples:
            check(line.startswith("  collide ") or "| collide " in line or "<(collide " in line, f"{what}: example {line!r}")
    # Value names say what a value is, not its C++ type.
    text = collide("check", "--help").text
    for shown in ["--threads N", "--near D", "--rules FILE", "-o,--output PATH", "--pairs A:B", "-f,--format FORMAT=json"]:
        check(shown in text, f"check --help does not show {shown!r}")
    check(" TEXT" not in text, "check --help still shows a TEXT value")


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
