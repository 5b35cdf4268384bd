"""Type-check rulelang/, interpreter/ and generators/ with mypy, against a
baseline that may only shrink.

    python scripts/typecheck.py            # what CI runs (.ci/run)
    python scripts/typecheck.py --update   # take errors you fixed off the baseline

It fails on any error not in the baseline (a new one, anywhere) and on any
baseline entry that no longer occurs (a fixed one must be taken off, so the
baseline only shrinks). `--update` only takes entries off; it never adds one.
The baseline (scripts/typecheck-baseline.txt) names each error by its file,
code and message, without its line, as many times as it occurs: code that
moves within a file does not disturb it, and a new error in a file is caught
even where an old one there was fixed. mypy's settings are in pyproject.toml.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "scripts" / "typecheck-baseline.txt"
PACKAGES = ("rulelang", "interpreter", "generators")
ERROR = re.compile(r"^(?P<file>[^:\s]+\.py):(?P<line>\d+):(?:\d+:)? error: (?P<message>.*?)"
                   r"(?:  \[(?P<code>[\w-]+)\])?$")


def run_mypy() -> tuple[list[tuple[str, str]], list[str]]:
    """(entry, the line mypy printed) for each error; and whatever else it printed that is not a note."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes", "--no-pretty",
                           "--no-color-output", *PACKAGES], cwd=ROOT, capture_output=True, text=True)
    errors, other = [], []
    for line in (done.stdout + done.stderr).splitlines():
        m = ERROR.match(line)
        if m:
            message = re.sub(r"\bline \d+", "line N", m["message"])  # ("already defined on line 40")
            errors.append((f"{m['file']}: [{m['code'] or 'misc'}] {message}", line))
        elif line.strip() and ": note: " not in line:
            other.append(line)
    if done.returncode not in (0, 1) or other and not errors:
        other.append(f"mypy exited with {done.returncode}")
    return errors, other


def read_baseline() -> collections.Counter[str]:
    if not BASELINE.exists():
        return collections.Counter()
    return collections.Counter(line for line in BASELINE.read_text().splitlines() if line and not line.startswith("#"))


def write_baseline(entries: collections.Counter[str]) -> None:
    header = ("# mypy errors not fixed yet: scripts/typecheck.py fails on any error not listed here, and on\n"
              "# any listed that no longer occurs (`python scripts/typecheck.py --update` takes those off).\n")
    BASELINE.write_text(header + "".join(f"{e}\n" for e in sorted(entries.elements())))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="take fixed errors off the baseline (never adds one)")
    ap.add_argument("--start", action="store_true", help=argparse.SUPPRESS)  # write the first baseline
    args = ap.parse_args(argv)
    errors, other = run_mypy()
    if other:
        print("\n".join(other), file=sys.stderr)
        return 2
    current = collections.Counter(entry for entry, _ in errors)
    if args.start:
        write_baseline(current)
        print(f"baseline: {sum(current.values())} errors")
        return 0
    baseline = read_baseline()
    new, fixed = current - baseline, baseline - current
    if args.update and fixed:
        write_baseline(baseline & current)
        print(f"took {sum(fixed.values())} fixed errors off {os.path.relpath(BASELINE, ROOT)}")
        fixed = collections.Counter()
    if new:
        shown = collections.Counter(new)
        print("new type errors (fix them; the baseline only shrinks):")
        for entry, line in errors:
            if shown[entry] > 0:  # (which of a repeated entry is the new one cannot be told: all are shown)
                print("  " + line)
    if fixed:
        print("fixed, and still on the baseline: run `python scripts/typecheck.py --update` to take them off:")
        for entry in sorted(fixed.elements()):
            print("  " + entry)
    if not new and not fixed:
        print(f"types: {sum(current.values())} errors, all on the baseline (none new)")
    return 1 if new or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
