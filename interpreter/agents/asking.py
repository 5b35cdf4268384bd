"""Asking an agent for a decision, trusting nothing it does.

Agents are code other people write. An answer that is not one of the
offered options, an exception, or no answer within the time allowed
(`--decision-timeout`) ends in an `AgentError` naming the agent, the role
and the decision — never a traceback, and never a change to the game: the
answer is checked before the engine applies it.

Only Ctrl-C (KeyboardInterrupt, and the command line's SIGTERM, which is
one) passes through an agent: anything else it raises, `SystemExit` too,
is its failure.

The time limit interrupts an agent that hangs with a timer signal (SIGALRM,
where the platform has it and we are in the main thread), raised as a
`BaseException` so an agent's `except Exception:` cannot swallow it; an
answer that arrives late all the same is refused too. A timed-out game
depends on the machine's speed, so it is reported, never replayed.
"""
from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

from ..runtime.errors import RuleError
from .base import Agent, PlayerView


class AgentError(Exception):
    """An agent failed a decision; the game state is as it was before it was asked."""

    def __init__(self, agent: str, role: str, label: str, number: int, problem: str):
        super().__init__(f"agent '{agent}' playing {role} failed decision {number + 1} ('{label}'): {problem}")
        self.agent, self.role, self.label, self.number, self.problem = agent, role, label, number, problem


class _OutOfTime(BaseException):
    """Raised into an agent by the timer; not an Exception, so agents do not catch it."""


def agent_name(agent: Agent) -> str:
    return getattr(agent, "spec", None) or agent.name


def ask(agent: Agent, view: PlayerView, timeout: float | None = None) -> int:
    """The agent's answer to the decision `view` shows, checked."""
    if not getattr(agent, "guarded", True):  # a person at the terminal: no clock, its own exits
        return agent.choose(view)
    try:
        if timeout is None:  # the common case costs one call and one check (simulations ask millions)
            index = agent.choose(view)
        else:
            start = time.monotonic()
            with deadline(timeout):
                index = agent.choose(view)
            took = time.monotonic() - start
            if took > timeout:
                raise _failed(agent, view, f"it answered after {took:.2f} s, more than the {timeout:g} s allowed "
                                           "(--decision-timeout)")
    except _OutOfTime:
        raise _failed(agent, view, f"no answer within {timeout:g} s (--decision-timeout)") from None
    except (RuleError, AgentError, KeyboardInterrupt):
        raise  # a RuleError: the rules failed while a search agent played ahead, the ruleset's mistake
    except BaseException as exc:  # noqa: BLE001 - any failure of someone else's code, sys.exit() too
        raise _failed(agent, view, f"it raised {type(exc).__name__}: {exc}") from exc
    if type(index) is not int or not 0 <= index < view.count:
        raise _failed(agent, view, f"it answered {index!r}, which is not an option (options are 0..{view.count - 1})")
    return index


def _failed(agent: Agent, view: PlayerView, problem: str) -> AgentError:
    return AgentError(agent_name(agent), view.role, view.label, view.number, problem)


@contextmanager
def deadline(seconds: float | None, error: type[BaseException] = _OutOfTime):
    """Raise `error` in the block after `seconds` (no limit when None, or off
    the main thread, where signals cannot reach)."""
    usable = seconds is not None and hasattr(signal, "SIGALRM") \
        and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def out_of_time(signum, frame):
        raise error(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, out_of_time)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
