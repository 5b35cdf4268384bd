"""A progress bar for long runs: games done, games per second, time left.

Shown only to a person watching a terminal: not when the output is piped
or redirected, and not with `--json`.
"""
from __future__ import annotations

import sys
import threading
import time


def wanted(json_output: bool) -> bool:
    return not json_output and sys.stdout.isatty() and sys.stderr.isatty()


class Progress:
    """Counts games (`step`, usable as `on_game`); a background thread redraws
    the bar a few times a second, so it moves even while results arrive in
    bursts from worker processes."""

    def __init__(self, total: int, stream=None, width: int = 28, every: float = 0.2):
        self.total, self.width, self.every = total, width, every
        self.stream = stream or getattr(sys.stderr, "raw", sys.stderr)  # its \r is ours: not escaped (output.py)
        self.done, self.start = 0, time.perf_counter()
        self.stop = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def step(self, *_) -> None:
        self.done += 1

    def _tick(self) -> None:
        while not self.stop.wait(self.every):
            self.draw()

    def draw(self) -> None:
        self.stream.write("\r" + self.line(time.perf_counter() - self.start))
        self.stream.flush()

    def line(self, elapsed: float) -> str:
        done = self.done
        filled = self.width * done // self.total
        rate = done / elapsed if elapsed > 0 else 0.0
        left = _duration((self.total - done) / rate) if rate > 0 else "?"
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] {done:,}/{self.total:,} games  "
                f"{rate:,.0f} games/s  {left} left ")

    def close(self) -> None:
        self.stop.set()
        self.ticker.join()
        self.stream.write("\r" + " " * (len(self.line(1.0)) + 8) + "\r")
        self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"
