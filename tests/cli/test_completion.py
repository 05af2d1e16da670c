#!/usr/bin/env python3
"""The bash completion (cli/completion/collide.bash) against the real binary: it offers every
option `collide SUBCOMMAND --help` lists and nothing more, the values the program accepts,
and file names, with plain bash (no bash-completion package).

    python3 tests/cli/test_completion.py --bin build/cli/collide [-k TEXT]

Uses the runner and assertions of test_cli.py.
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import test_cli as t
from test_cli import ROOT, check, collide, eq, status

SCRIPT = ROOT / "cli/completion/collide.bash"
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def complete(*words, cwd=ROOT):
    """What _collide offers for the command line `words`, the cursor at the end of the last
    word (pass "" for a fresh word), as bash would call it on Tab."""
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
              'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _collide; printf "%s\\n" "${COMPREPLY[@]}"')
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", script, "bash", str(SCRIPT), *words],
                          cwd=cwd, capture_output=True, text=True, timeout=60)
    eq((proc.returncode, proc.stderr), (0, ""), f"_collide for {words}")
    return [w for w in proc.stdout.split("\n") if w]


def help_options(*args):
    """The option names in the Options: section of `collide ARGS --help`."""
    r = collide(*args, "--help")
    status(r, 0)
    section = r.text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    return {name for line in section.splitlines() for name in line.split()[0].split(",")}


def subcommands():
    """The subcommands `collide --help` lists."""
    section = collide("--help").text.split("\nSubcommands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip()]


def accepted_values(option):
    """The values `check OPTION` accepts, from the program's own usage error."""
    r = collide("check", option, "no-such-value", "samples/spec-example.json")
    status(r, 2)
    return re.search(r"is not one of (.*)\n", r.err).group(1).split(", ")


@test
def the_subcommands_offered_are_those_of_collide_help():
    offered = complete("collide", "")
    eq(sorted(offered), sorted(subcommands()), "subcommands offered vs collide --help")
    eq(sorted(complete("collide", "help", "")), sorted(complete("collide", "")), "after `collide help`")
    eq(complete("collide", "ch"), ["check"], "collide ch")


@test
def each_subcommand_offers_exactly_the_options_its_help_lists():
    eq(set(complete("collide", "-")), help_options(), "collide -")
    for sub in subcommands():
        if sub == "help":  # its one argument is a subcommand, tested above; its options are the common ones
            eq(set(complete("collide", "help", "-")), help_options("help"), "collide help -")
            continue
        eq(set(complete("collide", sub, "-")), help_options(sub), f"collide {sub} -")


@test
def render_offers_the_options_of_check_but_format():
    # The report's own options are check's alone: render writes one SVG picture of one file.
    check_only = {"-f", "--format", "--locations", "--strict", "--baseline", "--write-baseline", "--config",
                  "--no-config", "--exclude"}
    offered = set(complete("collide", "render", "-"))
    eq(offered, set(complete("collide", "check", "-")) - check_only, "collide render -")
    eq(complete("collide", "render", "--"), [w for w in complete("collide", "check", "--") if w not in check_only],
       "collide render --")


@test
def options_and_their_values_complete():
    eq(complete("collide", "check", "--for"), ["--format"], "collide check --for")
    eq(complete("collide", "check", "--color", ""), ["auto", "always", "never"], "collide check --color")
    eq(complete("collide", "check", "--no-"), ["--no-config", "--no-touch", "--no-points"], "collide check --no-")
    formats = accepted_values("--format")
    eq(sorted(complete("collide", "check", "--format", "")), formats, "collide check --format")
    eq(sorted(complete("collide", "check", "-f", "")), formats, "collide check -f")
    eq(complete("collide", "check", "--format", "js"), ["json", "jsonl"], "collide check --format js")
    # `--format=c`: bash hands the function `--format`, `=`, `c`.
    eq(complete("collide", "check", "--format", "=", "c"), ["csv"], "collide check --format=c")
    eq(sorted(complete("collide", "check", "--format", "=")), formats, "collide check --format=")
    eq(sorted(complete("collide", "check", "--broadphase", "")), accepted_values("--broadphase"),
       "collide check --broadphase")
    # Free values: a number or a pair spec, nothing to offer (not file names).
    for option in ["--near", "--threads", "--pairs", "--max-collisions"]:
        eq(complete("collide", "check", option, ""), [], f"collide check {option}")


@test
def files_complete_where_a_file_is_expected():
    with tempfile.TemporaryDirectory() as d:
        for name in ["level one.json", "level.tmx", "rules.json"]:
            (Path(d) / name).write_text("{}")
        (Path(d) / "maps").mkdir()
        for words in [("check", "lev"), ("check", "-o", "lev"), ("check", "--rules", "lev"), ("render", "lev"),
                      ("render", "--output", "lev"), ("validate", "lev"), ("import", "lev"), ("check", "--", "lev")]:
            eq(sorted(complete("collide", *words, cwd=d)), ["level one.json", "level.tmx"], " ".join(words))
        eq(complete("collide", "check", "m", cwd=d), ["maps"], "a directory")
        eq(complete("collide", "check", "--", "--f", cwd=d), [], "after --, an option-like word is a file")
        eq(complete("collide", "schema", "", cwd=d), [], "schema takes no file")
        eq(complete("collide", "nosuch", "", cwd=d), [], "an unknown subcommand")


@test
def sourcing_the_script_registers_the_function_for_collide():
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", 'source "$1" && complete -p collide', "bash",
                           str(SCRIPT)], capture_output=True, text=True, timeout=60)
    eq((proc.returncode, proc.stdout, proc.stderr), (0, "complete -F _collide collide\n", ""), "complete -p collide")


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
