"""Decisions: where the rules ask one, and the one waiting for an answer.

A `DecisionSite` is made once, when the rules are compiled: the label, what
its options bind, and the line of the ruleset that asks. A `Decision` is
made each time play stops there: who decides and the options, enumerated
by the engine (never taken from an agent).

An answer enters a game one way, whoever asked for it: its names are bound,
then `answered` counts it and keeps it among the game's moves and events.
The engine (`Game.apply`, and the quick agents it answers itself) calls
`bind`, which does both; the generated code's quick path (blocks.suspend)
writes the names as it writes every local of the rules, and `answered` too,
calling only its `recorded` when the game keeps events (a call to `bind`
there cost 6% of a Twenty Trials game, and one to `answered` 2%). The same answer is
the same game on every path (tests/test_naive_reference.py, and the engine's
path against the generated one in tests/test_agents.py).
"""
from __future__ import annotations

from typing import NamedTuple

from rulelang.errors import Span
from rulelang.files import location
from rulelang.records import record

from .chance import Decided

_new = tuple.__new__


@record
class DecisionSite:
    index: int  # in the game's table of sites (a saved decision names its site by it)
    label: str
    names: tuple[str, ...]  # what each option binds, in order (a menu binds nothing)
    is_card: tuple[bool, ...]  # which of them are cards
    span: Span | None
    menu: bool = False  # named options (`ROLE chooses LABEL:`) rather than bindings
    is_zone: tuple[bool, ...] = ()  # which of them are zones (held as zone instance numbers)
    reads: tuple[str, ...] = ()  # the locals bound outside it that its options' words (`labelled`) read

    @property
    def at(self) -> str:
        """`FILE:LINE` of the rule that asks."""
        return location(self.span) if self.span is not None else "?"


class Decision(NamedTuple):
    """A decision waiting for an answer. Immutable; a NamedTuple because one
    is made at every decision of every game (a frozen dataclass costs three
    times as much to make), read by name everywhere."""
    site: DecisionSite
    role: str
    options: list  # tuples of bound values (card ids, numbers, names); for a menu, (option name,)
    resume: int | list  # the block play goes on at: one for bindings; for a menu, one per option

    @property
    def label(self) -> str:
        return self.site.label

    @property
    def at(self) -> str:
        return self.site.at


def answered(st, env: dict, site: DecisionSite, role: str, option: tuple, index: int) -> None:
    """What an answer to a decision does to a game once its names are bound: the decision is
    counted, and the answer kept among the game's moves, and among its events when it keeps
    them (`recorded`). The generated code's quick path writes the first two out and calls
    `recorded` only when the game keeps events (blocks.suspend: a call at every decision)."""
    st.decisions += 1
    st.moves = (st.moves, index)
    if st.events is not None:
        recorded(st, env, site, role, option)


def recorded(st, env: dict, site: DecisionSite, role: str, option: tuple) -> None:
    """An answer kept among the game's events, with the values then of the locals its options'
    words read (`site.reads`)."""
    reads = site.reads
    # made as the tuple it is: a NamedTuple's own __new__ is a Python call, three times the cost
    st.events.append(_new(Decided, (role, site, option, tuple(env[n] for n in reads) if reads else ())))


def bind(st, env: dict, site: DecisionSite, role: str, option: tuple, index: int) -> None:
    """Answer a decision with its option number `index`, whose values are `option`: its names
    bound in `env` (a menu binds none: where it leads is the caller's), then `answered`."""
    env.update(zip(site.names, option))
    answered(st, env, site, role, option, index)
