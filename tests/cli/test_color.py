#!/usr/bin/env python3
"""`--color auto|always|never` (SPEC §3) through the real binary: the text report and the
diagnostics (errors, warnings, failed rules) in ANSI colours on a terminal, never in a pipe,
never with NO_COLOR set, and always when asked.

    python3 tests/cli/test_color.py --bin build/cli/collide [-k TEXT]

Terminals are pseudo-terminals (test_progress.run).
"""
import re
import sys
from pathlib import Path

import test_cli as t
import test_progress as p
from test_cli import bad_input, check, collide, eq, status

TESTS = []
SGR = re.compile(r"\x1b\[[0-9;]*m")
FAILING = "samples/rules-fail.json"  # three failed rules and a failed move expectation: exit 1


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def plain(text):
    return SGR.sub("", text)


@test
def always_colours_the_text_report_and_the_diagnostics_even_in_a_pipe():
    r = collide("check", "-f", "text", "--color", "always", FAILING)
    status(r, 1)
    out = r.text
    check(f"\x1b[1m{FAILING}\x1b[0m: " in out, f"the scene's file is not bold: {out[:120]!r}")
    check("\x1b[31moverlap\x1b[0m" in out and "\x1b[33mtouch\x1b[0m" in out, "relations are not coloured")
    check("\x1b[1;31mFAILED\x1b[0m" in out and "\x1b[32mpassed\x1b[0m" in out, "rule verdicts are not coloured")
    check("(\x1b[1;31mEXPECTATION FAILED\x1b[0m)" in out, "a failed expectation is not coloured")
    for line in r.err.splitlines():
        check(line.startswith("collide: \x1b[31m") and line.endswith("\x1b[0m"), f"failure line not red: {line!r}")
    # The same text under the colours: the columns stay aligned as without them.
    eq(plain(out), collide("check", "-f", "text", FAILING).text, "the report without its colours")
    r = collide("check", "--color", "always", "no-such-file.json")
    status(r, 2)
    check(r.err.startswith("collide: \x1b[1;31merror:\x1b[0m no-such-file.json"), f"error not coloured: {r.err!r}")
    r = collide("import", "--color", "always", "samples/tiled/no-such-map.tmx")
    check("\x1b[1;31merror:\x1b[0m" in r.err, f"import's error not coloured: {r.err!r}")


@test
def auto_colours_a_terminal_only_and_never_with_no_color():
    r = p.run("check", "-f", "text", FAILING, stdout_tty=True)
    eq(r.code, 1, "exit status")
    check("\x1b[1;31mFAILED\x1b[0m" in r.tty and "collide: \x1b[31mrule " in r.tty, "no colours on a terminal")
    for env in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        r = p.run("check", "-f", "text", FAILING, stdout_tty=True, env=env)
        eq(SGR.findall(r.tty), [], f"colours on a terminal with {env}")
    r = p.run("check", "-f", "text", "--color", "never", FAILING, stdout_tty=True)
    eq(SGR.findall(r.tty), [], "colours with --color never")
    r = p.run("check", "-f", "text", "--color", "always", FAILING, stdout_tty=True, env={"NO_COLOR": "1"})
    check("\x1b[1;31mFAILED\x1b[0m" in r.tty, "--color always loses to NO_COLOR")
    # Pipes: the report and the diagnostics, by default.
    r = collide("check", "-f", "text", FAILING)
    eq(SGR.findall(r.text + r.err), [], "colours in a pipe")
    # stderr on a terminal, the report in a pipe: only the diagnostics are coloured.
    r = p.run("check", "-f", "text", FAILING)
    check("collide: \x1b[31mrule " in r.tty, "diagnostics on the terminal not coloured")
    eq(SGR.findall(r.out.decode()), [], "the piped report is coloured")


@test
def other_formats_and_files_get_no_colours_unless_always():
    r = p.run("check", "-f", "json", FAILING, stdout_tty=True)
    eq(SGR.findall(r.tty.split("collide: ")[0]), [], "JSON on a terminal")
    with p.tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.txt"
        r = p.run("check", "-f", "text", "-o", out, FAILING, stdout_tty=True)
        eq(SGR.findall(out.read_text()), [], "a report file written from a terminal")


@test
def a_bad_value_is_a_usage_error():
    for sub in ["check", "validate", "import", "render"]:
        r = collide(sub, "--color", "sometimes", FAILING)
        bad_input(r)
        eq(r.err, "collide: error: --color: 'sometimes' is not one of always, auto, never\n", sub)


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
