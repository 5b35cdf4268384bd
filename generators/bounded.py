"""Work on untrusted input, in a child process that can be stopped.

A card template is a program, and the SVG it writes is drawn by cairo, in C:
a loop in a loop, or a shape cairo takes hours to draw, cannot be stopped
from inside Python. So cards are rendered in a child process under limits
the operating system enforces — CPU seconds (`RLIMIT_CPU`) and address space
(`RLIMIT_AS`) — and the parent also stops it (SIGKILL) when it runs past a
wall-clock allowance. The child says which card it is working on, so that a
card that costs too much is named, and located at its card type.

    run(work, args, bound, where) -> what work(*args, progress) returns

`progress(text, kind)` tells the parent what the child is doing. Where the
platform has no `fork` (Windows), the child is spawned and the limits that
cannot be set there are left to the wall clock.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
import traceback
from dataclasses import dataclass

from rulelang.errors import Crosses, RulesetError

try:
    import resource
except ImportError:  # Windows
    resource = None


@dataclass(frozen=True)
class Bound:
    cpu_seconds: float  # of the child's own CPU time
    memory: int = 2 * 1024**3  # bytes the child may add to what the parent had


class TooCostly(Crosses, Exception):
    """The child ran past its bound; `doing` is what it was doing then, `kind` its card type."""

    def __init__(self, message: str, doing: str, kind: str | None):
        super().__init__(message)
        self.doing, self.kind = doing, kind


def run(work, args: tuple, bound: Bound):
    """`work(*args, progress)` in a child process under `bound`; its result, or its
    exception raised again here (a RulesetError with its diagnostics); TooCostly if
    the child ran out of time or memory, or died."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, args, bound, send), daemon=True)
    child.start()
    send.close()
    doing, kind = "starting", None
    wall = 3 * bound.cpu_seconds + 60  # the CPU bound is the real one; this catches a child that waits
    try:
        while True:
            if not receive.poll(wall):
                child.kill()
                raise TooCostly(f"it took more than {wall:.0f} s", doing, kind)
            try:
                message, *rest = receive.recv()
            except EOFError:  # the child died without a word: killed at its CPU limit, or by the system
                child.join()
                raise TooCostly(_death(child.exitcode, bound), doing, kind) from None
            if message == "doing":
                doing, kind = rest
            elif message == "done":
                return rest[0]
            elif message == "ruleset error":
                raise RulesetError(rest[0])
            elif message == "memory":
                raise TooCostly(f"it needed more than {bound.memory // 1024**2:,} MB of memory", doing, kind)
            else:  # "failed": an exception that was not the input's fault
                raise rest[0] if isinstance(rest[0], BaseException) else RuntimeError(rest[0])
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _death(exitcode: int | None, bound: Bound) -> str:
    killed = {-signal.SIGKILL} | ({-signal.SIGXCPU} if hasattr(signal, "SIGXCPU") else set())
    if exitcode in killed:
        return f"it took more than {bound.cpu_seconds:g} s of CPU time"
    return f"the process drawing it ended unexpectedly (exit code {exitcode})"


def _child(work, args, bound: Bound, send) -> None:
    _limit(bound)

    def progress(doing: str, kind: str | None) -> None:
        send.send(("doing", doing, kind))

    try:
        send.send(("done", work(*args, progress)))
    except RulesetError as exc:
        send.send(("ruleset error", exc.diagnostics))
    except MemoryError:
        send.send(("memory",))
    except Exception as exc:  # noqa: BLE001 - reported in the parent, as it would have been there
        try:
            send.send(("failed", exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            send.send(("failed", "".join(traceback.format_exception(exc))))
    finally:
        send.close()


def _limit(bound: Bound) -> None:
    """The operating system's limits on this process: CPU seconds and address space."""
    if resource is None:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    seconds = math.ceil(used.ru_utime + used.ru_stime + bound.cpu_seconds)  # a spawned child has used some
    _set(resource.RLIMIT_CPU, seconds, seconds + 1)  # SIGXCPU at the first, SIGKILL at the second
    _set(resource.RLIMIT_CORE, 0, 0)  # SIGXCPU dumps core: not a file of a gigabyte, nor its time
    size = _address_space()
    if size is not None:
        _set(resource.RLIMIT_AS, size + bound.memory, size + bound.memory)


def _set(which: int, soft: int, hard: int) -> None:
    old_soft, old_hard = resource.getrlimit(which)
    if old_hard != resource.RLIM_INFINITY:
        soft, hard = min(soft, old_hard), min(hard, old_hard)
    if old_soft == resource.RLIM_INFINITY or soft < old_soft:
        resource.setrlimit(which, (soft, hard))


def _address_space() -> int | None:
    """This process's virtual memory size in bytes (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
