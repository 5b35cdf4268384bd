"""Benchmark: how fast, and in how much memory, hostile rulesets are refused.

    python benchmarks/bench_hostile_inputs.py [--repeat N]

Each case of `tests/hostile.py` (alias bombs, huge scalars, thousands of
cards, deep nesting, ...) is written to a file and read by a fresh Python
process exactly as `rulelang check` reads it (load, check, compile every
mode). The process reports the time from reading the file to the error and
its peak resident memory (VmHWM); a small valid ruleset read the same way gives the
baseline (Python, the libraries and rulelang itself). Prints a Markdown
table (medians of N runs) for docs/reliability.md.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers.hostile import CASES, rules  # noqa: E402

CHILD = """
import json, resource, sys, time
from interpreter.engine.game import Game
from rulelang import RulesetError, load_ruleset
start = time.perf_counter()
try:
    rs = load_ruleset(sys.argv[1])
    for mode in rs.modes:
        Game(rs, mode)
    error = None
except RulesetError as exc:
    error = exc.diagnostics[0].message
seconds = time.perf_counter() - start
try:  # this process's own peak (ru_maxrss would include the parent's, inherited across exec)
    with open("/proc/self/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "rss_mb": peak / 1024, "error": error}))
"""


def measure(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    if out.returncode != 0:
        return {"seconds": float("nan"), "rss_mb": float("nan"), "error": "CRASHED: " + out.stderr[-200:]}
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("(baseline)", "a small valid ruleset", lambda: rules("x += 1"), None)] + CASES
        print("| input | what it is | refused in (s) | peak memory (MB) | error |")
        print("|---|---|---|---|---|")
        for name, what, make, _ in cases:
            data = make()
            path = Path(tmp) / f"{name.strip('()')}.yaml"
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
            runs = [measure(path) for _ in range(args.repeat)]
            seconds = statistics.median(r["seconds"] for r in runs)
            rss = statistics.median(r["rss_mb"] for r in runs)
            error = (runs[0]["error"] or "accepted").replace("|", "\\|")
            if len(error) > 70:
                error = error[:67] + "…"
            print(f"| `{name}` | {what} ({len(data) / 1e6:.2f} MB) | {seconds:.3f} | {rss:.0f} | {error} |",
                  flush=True)


if __name__ == "__main__":
    main()
