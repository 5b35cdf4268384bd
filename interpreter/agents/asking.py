"""Asking an agent for a decision, trusting nothing it does.

Agents are code other people write. An answer that is not one of the
offered options, an exception, or no answer within the time allowed
(`--decision-timeout`) ends in an `AgentError` naming the agent, the role
and the decision — never a traceback, and never a change to the game: the
answer is checked before the engine applies it, against the decision as the
engine holds it (an agent may change the view it is given: `view.count`).

Only Ctrl-C (KeyboardInterrupt, and the command line's SIGTERM, which is
one) passes through an agent: anything else it raises, `SystemExit` and a
`RuleError` of its own too, is its failure. A `RuleError` raised while one
of rulelang's own search agents plays ahead is the ruleset's: the rules
failed, not the agent. An exception that cannot even say what it is (its
`__str__` raises) is named by its class.

The time limit interrupts an agent that hangs with a timer signal (SIGALRM,
where the platform has it and we are in the main thread), raised as a
`BaseException` so an agent's `except Exception:` cannot swallow it. An
agent that turns the signal off (`signal.signal(SIGALRM, SIG_IGN)`, its own
`setitimer`) is interrupted all the same a moment later, by a watchdog
thread that raises the same exception into it; an answer that arrives late
is refused too. A timed-out game depends on the machine's speed, so it is
reported, never replayed.
"""
from __future__ import annotations

import numbers
import signal
import threading
import time
from contextlib import contextmanager

from rulelang.errors import Crosses

from ..runtime.errors import RuleError
from .base import Agent, PlayerView

GRACE = 0.2  # seconds after the deadline at which the watchdog interrupts an agent the signal did not
SHOWN = 200  # characters of an answer or a message quoted in an error


class AgentError(Crosses, Exception):
    """An agent failed a decision; the game state is as it was before it was asked."""

    def __init__(self, agent: str, role: str, label: str, number: int, problem: str):
        super().__init__(f"agent '{agent}' playing {role} failed decision {number + 1} ('{label}'): {problem}")
        self.agent, self.role, self.label, self.number, self.problem = agent, role, label, number, problem


class _OutOfTime(BaseException):
    """Raised into an agent by the timer; not an Exception, so agents do not catch it."""


def agent_name(agent: Agent) -> str:
    try:
        name = getattr(agent, "spec", None) or agent.name
    except Exception:
        name = None
    return name if isinstance(name, str) else type(agent).__name__


def trusted(agent: Agent) -> bool:
    """Whether the agent is one of rulelang's own (its class exactly: a subclass
    from elsewhere may answer otherwise)."""
    if not _OWN:  # the registry imports this module: its classes are read at the first call (every game asks)
        from .registry import OWN
        _OWN.update(OWN)
    return type(agent) in _OWN


_OWN: set = set()  # registry.OWN, once read


def ask(agent: Agent, view: PlayerView, timeout: float | None = None) -> int:
    """The agent's answer to the decision `view` shows, checked."""
    # what the decision is, taken before the agent is asked: it may change the view it is given
    role, label, number, count = view.role, view.label, view.number, view.count
    if not getattr(agent, "guarded", True):  # a person at the terminal: no clock, its own exits
        index = option_index(agent.choose(view), count)
        if index is None:
            raise AgentError(agent_name(agent), role, label, number, "its answer is not an option")
        return index

    def failed(problem: str) -> AgentError:
        return AgentError(agent_name(agent), role, label, number, problem)
    try:
        if timeout is None:  # the common case costs one call and one check (simulations ask millions)
            answer = agent.choose(view)
        else:
            start = time.monotonic()
            with deadline(timeout):
                answer = agent.choose(view)
            took = time.monotonic() - start
            if took > timeout:
                raise failed(f"it answered after {took:.2f} s, more than the {timeout:g} s allowed "
                             "(--decision-timeout)")
    except _OutOfTime:
        raise failed(f"no answer within {timeout:g} s (--decision-timeout)") from None
    except (AgentError, KeyboardInterrupt):
        raise
    except RuleError as exc:
        if trusted(agent):
            raise  # the rules failed while one of our search agents played ahead: the ruleset's mistake
        raise failed(f"it raised {described(exc)}") from None
    except BaseException as exc:
        raise failed(f"it raised {described(exc)}") from exc
    index = option_index(answer, count)
    if index is None:
        raise failed(f"it answered {shown(answer)}, which is not an option (options are 0..{count - 1})")
    return index


def option_index(answer, count: int) -> int | None:
    """An answer as an option's index: a whole number (numpy's too, not a bool) in 0..count-1."""
    if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
        return None
    try:
        index = int(answer)
    except Exception:
        return None
    return index if 0 <= index < count else None


def described(exc: BaseException) -> str:
    """`ValueError: the message`, even when the exception's own `__str__` fails or says a great deal."""
    try:
        message = str(exc)
    except Exception:
        message = "(it cannot say what: its message raised an error too)"
    name = type(exc).__name__
    return f"{name}: {_cut(message)}" if message else name


def shown(value) -> str:
    try:
        return _cut(repr(value))
    except Exception:
        return f"a {type(value).__name__}"


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def checked_quick(agent: Agent, role: str, quick):
    """A plug-in agent's `quick(number, count, label)`, its answers checked as `ask`
    checks them (the engine calls it without a view, a clock or any check of its own)."""
    def answer(number: int, count: int, label: str) -> int | None:
        try:
            given = quick(number, count, label)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise AgentError(agent_name(agent), role, label, number,
                             f"its quick answer raised {described(exc)}") from exc
        if given is None:
            return None
        index = option_index(given, count)
        if index is None:
            raise AgentError(agent_name(agent), role, label, number,
                             f"its quick answer was {shown(given)}, which is not an option "
                             f"(options are 0..{count - 1})")
        return index
    return answer


@contextmanager
def deadline(seconds: float | None, error: type[BaseException] = _OutOfTime):
    """Raise `error` in the block after `seconds` (no limit when None, or off
    the main thread, where signals cannot reach): by SIGALRM, and if the block
    turned that off, by the watchdog `GRACE` seconds later."""
    usable = seconds is not None and hasattr(signal, "SIGALRM") \
        and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def out_of_time(signum, frame):
        raise error(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, out_of_time)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    watchdog = _Watchdog(threading.get_ident(), error, seconds + GRACE)
    try:
        yield
    finally:
        watchdog.stop()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Watchdog:
    """Raises `error` once into a thread still in the block after `seconds`
    (an exception raised from another thread: no signal handler needed);
    `stop`, in that thread, ends it. If the interruption lands after the
    block, before `stop`, it is still past the deadline: reported as such."""

    def __init__(self, ident: int, error: type[BaseException], seconds: float):
        self.ident, self.error = ident, error
        self.lock, self.inside = threading.Lock(), True
        self.done = threading.Event()
        threading.Thread(target=self._watch, args=(seconds,), daemon=True).start()

    def _watch(self, seconds: float) -> None:
        if not self.done.wait(seconds):
            with self.lock:
                if self.inside:
                    _raise_in(self.ident, self.error)

    def stop(self) -> None:
        self.done.set()
        with self.lock:
            self.inside = False
            _raise_in(self.ident, None)  # one set but not yet raised is not raised


def _raise_in(ident: int, error: type[BaseException] | None) -> None:
    import ctypes  # only with a time limit (a simulation without one is spared its start-up)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                               ctypes.py_object(error) if error is not None else None)
