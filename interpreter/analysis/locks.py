"""A lock on a file a run writes, held while the run lives — and only by it.

    fd = locked(path)      # the file open for writing, not emptied, locked; LockHeld if another run has it
    os.close(fd)           # the lock goes with the last descriptor

The lock is `flock` where there is one (Linux, macOS, the BSDs), and
`msvcrt.locking` on Windows, which has no `fcntl`: the import is guarded, so
the command line loads everywhere. Where neither exists, files are written
unlocked (a second run is then not refused).

A lock held with `flock` belongs to the open file, which a forked process
shares: a worker forked while the run writes its rows would hold the lock
as long as it lives, and keep the lock after its parent was killed. So a
forked child lets go of every lock at once: its copy of each locked
descriptor is pointed at the null device (the number stays valid for any
object of the parent's that holds it, and names the locked file no more).
"""
from __future__ import annotations

import io
import os
import stat

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
try:
    import msvcrt
except ImportError:  # everywhere but Windows
    msvcrt = None


class LockHeld(Exception):
    """Another run holds the lock on the file."""


_HELD: set[int] = set()  # descriptors this process locked


def locked(path: str) -> int:
    """`path` open for reading and writing (created if need be, not emptied), locked
    for this run; LockHeld if another run holds it, or replaced the file while we opened it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
    try:
        if _try_lock(fd) and os.path.samestat(os.fstat(fd), os.stat(path)):
            _HELD.add(fd)
            return fd
    except FileNotFoundError:
        pass  # replaced (a resumed run renames its new file over the old) while we opened it
    os.close(fd)
    raise LockHeld(path)


def release(fd: int) -> None:
    """Close a descriptor `locked` gave: the lock goes with it."""
    _HELD.discard(fd)
    os.close(fd)


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if msvcrt is not None:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # the first byte: a lock on a region, even past the end
        except OSError:
            return False
        return True
    return True  # no locks on this platform


def _let_go_in_child() -> None:
    """After a fork, in the child: the locks are the parent's alone."""
    if not _HELD:
        return
    null = os.open(os.devnull, os.O_RDWR)
    for fd in _HELD:
        os.dup2(null, fd)
    os.close(null)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_let_go_in_child)


class LockedText(io.TextIOWrapper):
    """A text file written from empty, under a lock held until it is closed (`run --log`)."""

    def __init__(self, path: str):
        self._fd = locked(path)
        if stat.S_ISREG(os.fstat(self._fd).st_mode):  # a device (/dev/full, a terminal) has nothing to empty
            os.ftruncate(self._fd, 0)
        super().__init__(io.FileIO(self._fd, "w", closefd=False), encoding="utf-8", write_through=True)

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._fd is not None:
                fd, self._fd = self._fd, None
                release(fd)
