"""A worker that dies never hangs a run (backends.py): every chunk it may
have been playing is played again alone, in a fresh process. A chunk that
dies again ends the run with an error naming its configuration and seeds; a
death that does not come back (a kill, memory pressure) costs a retry and
changes nothing in the results. For `simulate --jobs`, `sweep` on local
processes, and a Dask cluster (the backend, under `sweep --dask`)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, game_for, rulelang

from interpreter.agents.registry import load_plugin
from interpreter.analysis.backends import Dask, InProcess, WorkerDied
from interpreter.analysis.work import Chunk, Setup

PLUGIN = str(ROOT / "tests" / "helpers" / "misbehaving_agents.py")
EXITING = ["--agents-from", PLUGIN, "--agent", "challenger=exiting:at=2,every=97"]  # seeds 0, 97, 194, ...
SWEEP = ["sweep", "twenty-trials-small-hand", "--grid", "hand_size=3,4", "--games", "150", "--seed", "1"]


def without_speed(stdout: str) -> dict:
    return json.loads(stdout) | {"games_per_second": None}


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    if not path.exists():
        pytest.skip("needs Linux's /proc to find the worker processes")
    return [int(p) for p in path.read_text().split()]


def kill_a_worker_half_way(args: list[str], out: Path) -> tuple[subprocess.CompletedProcess, float]:
    """Run the command; once `out` holds some rows, SIGKILL one of its worker processes; let it finish."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "cli", *args, "--out", str(out)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        while proc.poll() is None and not (out.exists() and out.read_bytes().count(b"\n") > 50):
            time.sleep(0.01)
        assert proc.poll() is None, "the run finished before a worker could be killed: play more games"
        os.kill(children(proc.pid)[0], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr), time.monotonic() - start


# ------------------------------------------------------------------ an agent that ends its process


def test_a_worker_stopped_before_it_sets_its_own_signals_ends_quietly():
    # the pool may be shut down (SIGTERM) while a worker it just forked still has the command's
    # handler: that worker ends as SIGTERM ends a process, with no traceback on the shared stderr
    code = """
import os, signal, sys, time
from cli.main import _on_sigterm
with _on_sigterm():
    pid = os.fork()
    if pid == 0:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.stdout.strip() == "True" and "Traceback" not in r.stderr, r.stderr


def test_simulate_stops_with_an_error_naming_the_seeds(tmp_path):
    out = tmp_path / "rows.csv"
    start = time.monotonic()
    r = rulelang("simulate", "twenty-trials", "--games", "300", "--jobs", "2", *EXITING, "--out", str(out))
    assert time.monotonic() - start < 30  # seconds, not a hang
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "a worker process died playing seeds 0..18, and died again (exit code 3)" in r.stderr, r.stderr
    assert f"The games before are in {out}" in r.stderr and "--resume" in r.stderr
    assert ",seed,outcome," in out.read_text().splitlines()[0]  # a valid file, ready for --resume


def test_sweep_stops_with_an_error_naming_the_configuration_and_seeds():
    start = time.monotonic()
    r = rulelang(*SWEEP, "--jobs", "2", *EXITING)
    assert time.monotonic() - start < 30
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert ("a worker process died playing configuration 0 (twenty-trials-small-hand hand_size=3 "
            "challenger=exiting:at=2,every=97), seeds 96..114, and died again (exit code 3)") in r.stderr, r.stderr


# ------------------------------------------------------------------ a worker killed from outside


def test_simulate_plays_on_when_a_worker_is_killed(tmp_path):
    args = ["simulate", "twenty-trials", "--games", "2000", "--jobs", "2", "--json"]
    whole = rulelang(*args)
    assert whole.returncode == 0, whole.stderr
    r, seconds = kill_a_worker_half_way(args, tmp_path / "rows.jsonl")
    assert r.returncode == 0, r.stderr
    assert "a worker process died; the games it may have been playing" in r.stderr and "finished" in r.stderr
    assert without_speed(r.stdout) == without_speed(whole.stdout)  # the retry changed nothing
    assert len((tmp_path / "rows.jsonl").read_text().splitlines()) == 2000


def test_sweep_plays_on_when_a_worker_is_killed(tmp_path):
    args = [*SWEEP[:-4], "--games", "1000", "--jobs", "2"]
    whole = tmp_path / "whole.csv"
    assert rulelang(*args, "--out", str(whole)).returncode == 0
    r, _ = kill_a_worker_half_way(args, tmp_path / "rows.csv")
    assert r.returncode == 0 and "were played again, each chunk alone, and finished" in r.stderr, r.stderr
    assert (tmp_path / "rows.csv").read_bytes() == whole.read_bytes()


# ------------------------------------------------------------------ Dask


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    load_plugin(PLUGIN)
    backend = Dask(workers=2)
    yield backend
    backend.close()


@pytest.mark.slow  # a Dask cluster starts in seconds: the slow run
def test_a_dask_worker_killed_mid_run_changes_nothing(cluster):
    setup = Setup.of(game_for(), {"challenger": "random"})
    chunks = [Chunk(0, s, 100) for s in range(0, 2000, 100)]
    expected = list(InProcess().run([setup], chunks))
    results, victim = [], next(iter(cluster.client.run(os.getpid).values()))
    for chunk, chunk_results in cluster.run([setup], chunks):
        results.append((chunk, chunk_results))
        if len(results) == 3:
            os.kill(victim, signal.SIGKILL)  # a lost worker, whatever it was playing
    assert results == expected


@pytest.mark.slow
def test_an_agent_that_ends_a_dask_worker_is_named(cluster):
    setup = Setup.of(game_for(), {"challenger": "exiting:at=2,every=150"}, label="configuration 4 (exits)")
    start = time.monotonic()
    with pytest.raises(WorkerDied) as died:
        list(cluster.run([setup], [Chunk(0, s, 50) for s in range(1, 301, 50)]))
    assert time.monotonic() - start < 30
    assert "died playing configuration 4 (exits), seeds 101..150, and died again (exit code 3)" in str(died.value)

