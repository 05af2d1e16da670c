#!/usr/bin/env python3
"""The progress line of a long run (SPEC §3, README "Progress"), through the real binary with
its standard error on a pseudo-terminal.

    python3 tests/cli/test_progress.py --bin build/cli/collide [-k TEXT]

A run would have to last a second to show the line; the test hook
COLLIDE_TEST_PROGRESS_DELAY_MS=0 draws it at once instead (before anything is read), and
draws the final counts once more just before erasing it, so that a test reads them. One test
runs without the hook: a short run under a terminal shows nothing.
"""
import errno
import fcntl
import os
import re
import struct
import subprocess
import sys
import tempfile
import termios
import threading
from pathlib import Path

import test_cli as t
from test_cli import check, eq, write

TESTS = []
HOOK = {"COLLIDE_TEST_PROGRESS_DELAY_MS": "0"}


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


# Five nested square outlines and a segment from their centre out through all of them: every
# bounding box overlaps every other, so all 6 * 5 / 2 = 15 pairs are tested, and 5 collide.
SQUARES = {"shapes": [
    *({"id": f"square{k}", "type": "polyline", "groups": ["squares"],
       "points": [[-k, -k], [k, -k], [k, k], [-k, k], [-k, -k]]} for k in range(1, 6)),
    {"id": "cut", "type": "segment", "a": [0, 0], "b": [6, 0]},
]}

# One drawn frame: carriage return, the text, erase to the end of the line.
FRAME = re.compile(r"\r(collide: [^\r\n\x1b]*)\x1b\[K")
ERASE = "\r\x1b[K"


class Run:
    def __init__(self, code, out, tty):
        self.code = code
        self.out = out or b""  # stdout bytes (a pipe)
        self.tty = tty    # what reached the terminal, decoded

    def frames(self):
        return FRAME.findall(self.tty)


def run(*args, env=None, stderr_tty=True, stdout_tty=False, columns=0):
    """Runs collide with stderr (and with stdout_tty stdout too) on a new pseudo-terminal of
    `columns` columns (0: the size unset); returns the exit status, stdout and the terminal's
    bytes. With stderr_tty=False stderr is a pipe, and its bytes are `tty`."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COLLIDE_TEST_")}
    environ["TERM"] = "xterm"
    environ.update(env or {})
    master, slave = os.openpty()
    if columns:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    stdout = slave if stdout_tty else subprocess.PIPE
    stderr = slave if stderr_tty else subprocess.PIPE
    proc = subprocess.Popen([t.BIN, *map(str, args)], cwd=t.ROOT, env=environ, stdin=subprocess.DEVNULL,
                            stdout=stdout, stderr=stderr)
    os.close(slave)
    tty = bytearray()

    def drain():  # the terminal's bytes, read as they come, until the child's end closes it
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError as e:  # EIO on Linux once no process holds the terminal
                if e.errno != errno.EIO:
                    raise
                return
            if not chunk:
                return
            tty.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    out, err = proc.communicate(timeout=120)
    reader.join(timeout=120)
    os.close(master)
    text = (bytes(tty) if stderr_tty or stdout_tty else err or b"").decode("utf-8")
    check("Sanitizer" not in text and "runtime error:" not in text, f"sanitizer report: {text[:300]!r}")
    return Run(proc.returncode, out, text)


def squares(tmp, copies=1):
    return [write(tmp, f"squares{k}.json", SQUARES) for k in range(copies)]


@test
def the_line_counts_files_shapes_pairs_and_collisions_and_is_erased_at_the_end():
    with tempfile.TemporaryDirectory() as tmp:
        files = squares(tmp, 2)
        r = run("check", *files, env=HOOK)
        eq(r.code, 0, "exit status")
        frames = r.frames()
        check(len(frames) >= 2, f"expected the first and the final frame, got {r.tty!r}")
        check(re.fullmatch(r"collide: 0/2 files read · 0 shapes · 0 pairs tested · 0 collisions · \d+\.\d s",
                           frames[0]), f"first frame: {frames[0]!r}")
        check(re.fullmatch(r"collide: 2/2 files read · 12 shapes · 30 pairs tested · 10 collisions · \d+\.\d s",
                           frames[-1]), f"final frame: {frames[-1]!r}")
        # Nothing but frames, then one erase: the terminal is left on a clean, empty line.
        check(r.tty.endswith("\x1b[K" + ERASE), f"the line is not erased at the end: {r.tty[-120:]!r}")
        eq(FRAME.sub("", r.tty), ERASE, "what the terminal got besides the frames")


@test
def render_shows_the_line_too_and_draws_the_same_picture():
    with tempfile.TemporaryDirectory() as tmp:
        f = squares(tmp)[0]
        plain = t.collide("render", f)
        r = run("render", f, env=HOOK)
        eq(r.code, 0, "exit status")
        check(len(r.frames()) >= 2, f"expected the first and the final frame, got {r.tty!r}")
        check(re.fullmatch(r"collide: 1/1 files read · 6 shapes · 15 pairs tested · 5 collisions · \d+\.\d s",
                           r.frames()[-1]), f"final frame: {r.frames()[-1]!r}")
        eq(FRAME.sub("", r.tty), ERASE, "what the terminal got besides the frames")
        eq(r.out, plain.out, "the SVG on stdout")
        q = run("render", "-q", f, env=HOOK)
        eq(q.tty, "", "render -q on a terminal")


@test
def singular_counts_and_thousands_separators():
    scene = {"shapes": [{"id": f"p{k}", "type": "point", "at": [k * 10, 0]} for k in range(1233)]
             + [t.circle("a", 0.5, 5, 1), t.circle("b", 1.5, 5, 1)]}
    with tempfile.TemporaryDirectory() as tmp:
        r = run("check", write(tmp, "s.json", scene), env=HOOK)
        check(len(r.frames()) >= 2, f"expected the first and the final frame, got {r.tty!r}")
        check(re.fullmatch(r"collide: 1/1 files read · 1,235 shapes · 1 pair tested · 1 collision · \d+\.\d s",
                           r.frames()[-1]), f"final frame: {r.frames()[-1]!r}")


@test
def the_report_on_stdout_is_the_same_with_and_without_a_terminal_on_stderr():
    with tempfile.TemporaryDirectory() as tmp:
        files = squares(tmp, 2)
        for fmt in ("json", "jsonl", "csv", "text"):
            plain = t.collide("check", "-f", fmt, *files)
            r = run("check", "-f", fmt, *files, env=HOOK)
            check(len(r.frames()) >= 2, f"-f {fmt}: no progress line")
            eq(r.out, plain.out, f"-f {fmt}: stdout")


@test
def no_progress_bytes_when_stderr_is_a_pipe():
    with tempfile.TemporaryDirectory() as tmp:
        r = run("check", *squares(tmp, 2), env=HOOK, stderr_tty=False)
        eq(r.code, 0, "exit status")
        eq(r.tty, "", "stderr, a pipe")


@test
def no_line_with_quiet():
    with tempfile.TemporaryDirectory() as tmp:
        for q in ("-q", "--quiet"):
            r = run("check", q, *squares(tmp), env=HOOK)
            eq(r.tty, "", f"the terminal with {q}")


@test
def no_line_in_a_run_shorter_than_a_second():
    # The real delay, without the test hook: a small scene is checked in milliseconds.
    with tempfile.TemporaryDirectory() as tmp:
        r = run("check", *squares(tmp, 2))
        eq(r.code, 0, "exit status")
        eq(r.tty, "", "the terminal")


@test
def no_line_on_a_dumb_terminal():
    with tempfile.TemporaryDirectory() as tmp:
        r = run("check", *squares(tmp), env={**HOOK, "TERM": "dumb"})
        eq(r.tty, "", "the terminal with TERM=dumb")


@test
def no_line_while_records_stream_to_the_same_terminal():
    # JSON Lines and CSV on a terminal show their own progress; a line drawn between their
    # records would garble them. JSON and text are held until complete, so the line shows.
    with tempfile.TemporaryDirectory() as tmp:
        files = squares(tmp)
        for fmt in ("jsonl", "csv"):
            r = run("check", "-f", fmt, *files, env=HOOK, stdout_tty=True)
            eq(r.frames(), [], f"-f {fmt}: frames on the terminal")
            check('"cut"' in r.tty or "cut" in r.tty, f"-f {fmt}: the report is not on the terminal: {r.tty!r}")
        r = run("check", "-f", "json", *files, env=HOOK, stdout_tty=True)
        check(len(r.frames()) >= 2, f"-f json on the terminal: no progress line: {r.tty!r}")
        report = r.tty[r.tty.rindex(ERASE) + len(ERASE):]
        check(report.startswith('{"'), f"-f json: the report does not start on a clean line: {r.tty[-300:]!r}")


@test
def diagnostics_erase_the_line_first():
    scene = dict(SQUARES, rules=[{"name": "nothing cuts a square", "pairs": "cut:squares", "expect": "none"}])
    with tempfile.TemporaryDirectory() as tmp:
        r = run("check", write(tmp, "rules.json", scene), env=HOOK)
        eq(r.code, 1, "exit status")
        # The pty turns "\n" into "\r\n". The failure line follows an erase, never a frame.
        # On a terminal the failure is red (--color auto): "\x1b[31m" ... "\x1b[0m".
        line = ("collide: \x1b[31mrule 'nothing cuts a square' failed: square1 × cut, square2 × cut, square3 × cut, "
                f"square4 × cut, square5 × cut ({Path(tmp) / 'rules.json'})\x1b[0m\r\n")
        check(ERASE + line in r.tty, f"the diagnostic is not on a line of its own: {r.tty!r}")
        check(r.tty.endswith(ERASE), f"the line is not erased at the end: {r.tty[-120:]!r}")


@test
def cut_to_the_terminal_width():
    with tempfile.TemporaryDirectory() as tmp:
        r = run("check", *squares(tmp, 2), env=HOOK, columns=40)
        check(r.frames(), "no frames")
        eq(r.frames()[0], "collide: 0/2 files read · 0 shapes · 0 ", "first frame")
        for f in r.frames():
            check(len(f) == 39, f"frame of {len(f)} characters on a 40-column terminal: {f!r}")


@test
def no_colour_whatever_no_color_says():
    # The line has no colour, so NO_COLOR has nothing to turn off: the only escape sequence
    # written is erase-to-end-of-line, with NO_COLOR set or not.
    with tempfile.TemporaryDirectory() as tmp:
        files = squares(tmp, 2)
        for env in (HOOK, {**HOOK, "NO_COLOR": "1"}):
            r = run("check", *files, env=env)
            check(len(r.frames()) >= 2, f"no progress line with {env}")
            eq(set(re.findall(r"\x1b\[[0-9;]*[A-Za-z]", r.tty)), {"\x1b[K"}, f"escape sequences with {env}")


if __name__ == "__main__":
    sys.exit(t.main_of(__doc__, TESTS))
