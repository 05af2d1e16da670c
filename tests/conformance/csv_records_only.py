#!/usr/bin/env python3
"""Runs collide and drops the `violation` rows from a CSV report, for the shared conformance
runner only.

SPEC §4 makes each violation of a failed rule a CSV row (`type` = `violation`, last column
`rule`). The shared runner (../shared/conformance/run.py) predates that sentence: it knows
`collision` and `move` rows and fails on any other type. Its CSV runs therefore see the report
without those rows -- every other byte as collide wrote it, the exit status and stderr as they
were -- and the violation rows are checked against the JSON report's violations by
tests/cli/test_cli.py (csv_violation_rows_are_the_json_violations).

    csv_records_only.py COLLIDE ARGS...
"""
import csv
import io
import subprocess
import sys


def main():
    collide, args = sys.argv[1], sys.argv[2:]
    r = subprocess.run([collide] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    out = r.stdout
    is_csv = any(a == "csv" and i > 0 and args[i - 1] in ("-f", "--format") for i, a in enumerate(args)) or \
        "--format=csv" in args
    if is_csv and out:
        text = out.decode("utf-8", "surrogateescape")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        kept = io.StringIO(newline="")
        w = csv.writer(kept, lineterminator="\r\n")
        for i, row in enumerate(rows):
            if i == 0 or len(row) < 2 or row[1] != "violation":
                w.writerow(row)
        out = kept.getvalue().encode("utf-8", "surrogateescape")
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
