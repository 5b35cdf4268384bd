"""Decisions: where the rules ask one, and the one waiting for an answer.

A `DecisionSite` is made once, when the rules are compiled: the label, what
its options bind, and the line of the ruleset that asks. A `Decision` is
made each time play stops there: who decides and the options, enumerated
by the engine (never taken from an agent).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from rulelang.errors import Span
from rulelang.files import location


@dataclass(frozen=True)
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
