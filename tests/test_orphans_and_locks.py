"""A run's workers die with it, however it ends (SIGKILL too), and its lock
on `--out` is its own: a worker never holds it, so `--resume` after a kill
finds the file free. The lock is portable: the command line imports and
locks where there is no `fcntl` (Windows)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT

from interpreter.analysis.locks import LockHeld, locked, release


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    if not path.exists():
        pytest.skip("needs Linux's /proc to find the worker processes")
    return [int(p) for p in path.read_text().split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")  # a zombie is dead, waiting for its reaper


@pytest.mark.parametrize("command", [
    ["simulate", "twenty-trials", "--games", "100000", "--jobs", "2"],
    pytest.param(["sweep", "twenty-trials-small-hand", "--grid", "hand_size=3,4", "--games", "50000", "--jobs", "2"],
                 marks=pytest.mark.slow),
])
def test_workers_die_with_a_killed_parent_and_leave_the_file_free(tmp_path, command):
    out = tmp_path / "rows.csv"
    proc = subprocess.Popen([sys.executable, "-m", "cli", *command, "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while proc.poll() is None and not (out.exists() and out.read_bytes().count(b"\n") > 20):
            time.sleep(0.01)
        workers = children(proc.pid)
        assert proc.poll() is None and len(workers) >= 2, "the run ended before its parent could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(w) for w in workers), "a worker outlived its parent"
    finally:
        proc.kill()
    # the lock went with the parent: a resumed run would not be refused as "another run is writing"
    release(locked(str(out)))


def test_a_forked_child_does_not_hold_the_lock(tmp_path):
    path = str(tmp_path / "rows.csv")
    fd = locked(path)
    ready, told = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child lives on after the parent lets go: the file must be free then
        os.write(told, b".")  # (fork's hooks have run by the time the child's own code runs)
        time.sleep(2)
        os._exit(0)
    try:
        os.read(ready, 1)  # the child has let go: without this, the parent may look before it does
        release(fd)
        again = locked(path)  # the child still runs, and holds no lock
        release(again)
    finally:
        os.waitpid(pid, 0)
        os.close(ready)
        os.close(told)
    fd = locked(path)
    with pytest.raises(LockHeld):
        locked(path)
    release(fd)


def test_the_command_line_imports_and_locks_without_fcntl(tmp_path):
    # as on Windows: no fcntl module at all (an import of it fails)
    out = tmp_path / "rows.csv"
    code = f"""
import sys
sys.modules["fcntl"] = None
from cli.main import main
from interpreter.analysis import locks
assert locks.fcntl is None
sys.exit(main(["simulate", "kuhn-poker", "--games", "5", "--jobs", "1", "--out", {str(out)!r}, "--json"]))
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.read_text().count("\n") == 6
