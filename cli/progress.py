"""A progress bar for long runs: games done, games per second, time left.

Shown only to a person watching a terminal: not when the output is piped
or redirected, and not with `--json`.
"""
from __future__ import annotations

import sys
import time


def wanted(json_output: bool) -> bool:
    return not json_output and sys.stdout.isatty() and sys.stderr.isatty()


class Progress:
    def __init__(self, total: int, label: str = "", stream=None, width: int = 28):
        self.total, self.label, self.width = total, label, width
        self.stream = stream or sys.stderr
        self.done, self.start, self.shown = 0, time.perf_counter(), 0.0

    def step(self, *_) -> None:
        """One more game (usable as `on_game`)."""
        self.done += 1
        now = time.perf_counter()
        if now - self.shown >= 0.1 or self.done == self.total:
            self.shown = now
            self.stream.write("\r" + self.line(now - self.start))
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        filled = self.width * self.done // self.total
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"{self.label}[{'#' * filled}{'.' * (self.width - filled)}] {self.done:,}/{self.total:,} games  "
                f"{rate:,.0f} games/s  {_duration(left)} left ")

    def close(self) -> None:
        self.stream.write("\r" + " " * (len(self.line(1.0)) + 8) + "\r")
        self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"
