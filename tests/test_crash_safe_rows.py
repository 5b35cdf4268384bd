"""`simulate --out` survives being killed: the file holds every game finished
so far and is valid at any moment, and `--resume` plays on to exactly the
file and summary an uninterrupted run gives."""
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import ROOT, rulelang

GAMES = 1200  # enough that the kill comes well before the end, even on a fast machine
COMMAND = ["simulate", "twenty-trials", "--games", str(GAMES), "--seed", "11", "--set", "action_modifiers=true"]


def parsed(path, kind) -> list[dict]:
    """The rows, parsed as a strict reader of the format would (raises if the file is not valid)."""
    text = path.read_text(encoding="utf-8")
    if kind == "csv":
        assert text.endswith("\n")
        return list(csv.DictReader(io.StringIO(text)))
    if kind == "jsonl":
        assert text.endswith("\n")
        return [json.loads(line) for line in text.splitlines()]
    return json.loads(text)


def summary(stdout: str) -> dict:
    data = json.loads(stdout)
    data.pop("games_per_second")
    return data


def killed_half_way(out, jobs: str) -> int:
    """Start the run, kill it (SIGKILL, the whole process group) once the file
    holds a hundred rows; how many it held when killed."""
    proc = subprocess.Popen([sys.executable, "-m", "cli", *COMMAND, "--jobs", jobs, "--out", str(out), "--json"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") > 100:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run finished before it could be killed: raise GAMES"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return out.read_bytes().count(b"\n")


# one format with two jobs by default (each run kills and resumes a simulation: ~6 s); every one in the slow run
@pytest.mark.parametrize("kind, jobs", [pytest.param("csv", "1", marks=pytest.mark.slow), ("jsonl", "2"),
                                        pytest.param("json", "2", marks=pytest.mark.slow)])
def test_a_killed_run_leaves_valid_rows_and_resumes_to_the_same_result(tmp_path, kind, jobs):
    whole = tmp_path / f"whole.{kind}"
    r = rulelang(*COMMAND, "--jobs", jobs, "--out", str(whole), "--json")
    assert r.returncode == 0, r.stderr
    expected = summary(r.stdout)

    out = tmp_path / f"rows.{kind}"
    killed_half_way(out, jobs)
    rows = parsed(out, kind)  # valid as it stands
    assert 90 < len(rows) < GAMES
    assert [int(row["seed"]) for row in rows] == list(range(11, 11 + len(rows)))  # the first games, in order
    assert rows == parsed(whole, kind)[:len(rows)]  # each exactly as the whole run wrote it

    r = rulelang(*COMMAND, "--jobs", jobs, "--out", str(out), "--json", "--resume")
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == whole.read_bytes()
    assert summary(r.stdout) == expected
    assert not (tmp_path / f"rows.{kind}.resuming").exists()


def test_a_torn_last_line_is_dropped_and_played_again(tmp_path):
    whole, out = tmp_path / "whole.jsonl", tmp_path / "rows.jsonl"
    assert rulelang(*COMMAND[:3], "40", *COMMAND[4:], "--out", str(whole)).returncode == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:17]) + lines[17][:25])  # killed in the middle of a row
    r = rulelang(*COMMAND[:3], "40", *COMMAND[4:], "--out", str(out), "--resume")
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("change, message", [
    (["--seed", "12"], "not the first games of this run"),
    (["--set", "action_modifiers=false"], "it was written by another run"),
    (["--agent", "challenger=first"], "it was written by another run"),
])
def test_resume_refuses_the_rows_of_another_run(tmp_path, change, message):
    out = tmp_path / "rows.csv"
    base = ["simulate", "twenty-trials", "--games", "30", "--seed", "11", "--set", "action_modifiers=true"]
    assert rulelang(*base[:3], "10", *base[4:], "--out", str(out)).returncode == 0
    before = out.read_bytes()
    args = base[:]
    if change[0] in args:
        args[args.index(change[0]) + 1] = change[1]
    else:
        args += change
    r = rulelang(*args, "--out", str(out), "--resume")
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert out.read_bytes() == before  # the file an interrupted run left is never spoilt
