"""Simulations the page starts: each a process of its own (job.py), its
progress read as it plays, cancelled by ending its process group.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path

from .charts import charts

MOST_RUNNING = 2  # simulations at once (the machine's cores are what they share)
KEPT = 20  # finished simulations whose results are kept
ROOT = Path(__file__).resolve().parent.parent


class Busy(Exception):
    pass


class Job:
    def __init__(self, request: dict):
        self.total = request["games"] * len(request["entries"])
        self.done, self.result, self.error, self.state = 0, None, None, "running"
        self.started = time.monotonic()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        self.proc = subprocess.Popen([sys.executable, "-m", "playground.job"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     start_new_session=True, env=env)
        self.proc.stdin.write(json.dumps(request))
        self.proc.stdin.close()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if "progress" in record:
                self.done = record["progress"]
            elif "result" in record:
                self.result = record["result"]
                self.result["charts"] = charts(self.result)
            elif "error" in record:
                self.error = record["error"]
        self.proc.wait()
        if self.state == "running":
            if self.result is not None:
                self.state = "done"
            else:
                self.state = "failed"
                self.error = self.error or f"the simulation's process ended without a result (exit code " \
                                           f"{self.proc.returncode})"

    def cancel(self) -> None:
        if self.state != "running":
            return
        self.state = "cancelled"
        _end(self.proc)

    def status(self) -> dict:
        out = {"state": self.state, "done": self.done, "total": self.total,
               "seconds": round(time.monotonic() - self.started, 1)}
        if self.state == "done":
            out["result"] = self.result
        if self.error:
            out["error"] = self.error
        return out


def _end(proc: subprocess.Popen) -> None:
    """End a job's process group: its workers go with it."""
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


class Jobs:
    def __init__(self):
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, request: dict) -> str:
        with self._lock:
            if sum(j.state == "running" for j in self._jobs.values()) >= MOST_RUNNING:
                raise Busy(f"{MOST_RUNNING} simulations are running: wait for one, or cancel it")
            key = secrets.token_hex(8)
            self._jobs[key] = Job(request)
            finished = [k for k, j in self._jobs.items() if j.state != "running"]
            for k in finished[:max(0, len(finished) - KEPT)]:
                del self._jobs[k]
        return key

    def get(self, key: str) -> Job | None:
        with self._lock:
            return self._jobs.get(key)

    def close(self) -> None:
        """Cancel every running simulation (the server is stopping)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()
