"""`rulelang solve` is bounded by positions and by memory, whatever the game:
past a bound it stops, says which, and exits 1 (the answer is unknown). A
position it remembers costs a digest, not the position; the line it searches
is a list, so a game deeper than Python's recursion limit is searched too."""
import json
import os
import subprocess
import sys
import tempfile

from helpers import ROOT

from interpreter.analysis.solver import solve
from interpreter.engine.game import Game
from rulelang import load_text

# one player keeps the chips of a heap one at a time, in any order, and can never win: every order is a
# position of its own, so the search has no end in sight
HEAP = """\
game: heap
roles: [solo]
cards:
  chip: {count: CHIPS}
zones:
  heap: {}
  kept: {}
setup: |
  move box to heap
modes:
  solo:
    round:
      - step: Keep
        do: |
          solo chooses c in heap as keep:
            move c to kept
          if size(heap) == 0:
            lose solo as empty
"""


def heap(tmp_path, chips: int = 900):
    path = tmp_path / "heap.yaml"
    path.write_text(HEAP.replace("CHIPS", str(chips)))
    return path


PEAK = """
import sys
from cli.main import main
code = main(sys.argv[1:])
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print("peak", int(peak.split()[1]) * 1024, file=sys.stderr)
sys.exit(code)
"""


def solved(*args) -> tuple[subprocess.CompletedProcess, float, int]:
    """The command, its CPU seconds and its peak resident memory (bytes), as a process of its own
    (the peak of its own image: a forked child's first pages, its parent's, are not counted)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-c", PEAK, "solve", *map(str, args)], cwd=ROOT, text=True,
                                stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        err.seek(0)
        lines = err.read().splitlines()
        peak = int(lines.pop().split()[1]) if lines and lines[-1].startswith("peak ") else 0
        result = subprocess.CompletedProcess(args, os.waitstatus_to_exitcode(status), out.read(),
                                             "\n".join(lines) + "\n" if lines else "")
    return result, usage.ru_utime + usage.ru_stime, peak


def test_the_memory_bound_stops_the_search_and_says_so(tmp_path):
    r, seconds, peak = solved(heap(tmp_path), "--max-memory", "8", "--json")
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    assert data["winnable"] is None and data["stopped"] == "memory" and data["megabytes"] <= 8.5
    assert "--max-memory" in r.stderr and "stopped" in r.stderr
    assert seconds < 5  # CPU seconds, start-up included
    if peak:  # Linux: the interpreter, the compiled game and 8 MB of search
        assert peak < 120 * 2**20


def test_the_position_bound_stops_the_search_and_says_so(tmp_path):
    r, seconds, _ = solved(heap(tmp_path), "--max-positions", "500")
    assert r.returncode == 1
    assert "unknown (500 positions searched)" in r.stdout
    assert "it searched 500 positions (--max-positions) without an answer" in r.stderr
    assert seconds < 5


def test_a_position_costs_a_digest_not_the_position(tmp_path):
    game = Game(load_text(HEAP.replace("CHIPS", "900"), str(tmp_path / "heap.yaml")))
    result = solve(game, 0, max_positions=3000)
    assert result.stopped == "positions"
    # 3,000 positions of 900 chips: the line searched (900 states at most) and a digest per position
    assert result.held < 25 * 2**20


def test_a_line_deeper_than_pythons_recursion_limit_is_searched(tmp_path):
    game = Game(load_text(HEAP.replace("CHIPS", "300"), str(tmp_path / "heap.yaml")))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(150)  # the line is 300 decisions deep
    try:
        result = solve(game, 0, max_positions=400)
    finally:
        sys.setrecursionlimit(limit)
    assert result.stopped == "positions"
