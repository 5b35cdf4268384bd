"""Chance: where the rules draw from the RNG, the draw waiting for an
outcome, and the draws a game remembers.

A `ChanceSite` is made once, when the rules are compiled: a roll, a random
pick (`take random`) or a shuffle, and the line of the ruleset it is on.
Every chance event draws one number, uniformly in 0..k-1, from the game's
RNG: a die's face (by its index), a pick's binding, one step of a shuffle.

Rules compiled with explicit chance stop at each event with a `Chance`
pending instead of drawing (`Game.chance`, `Game.apply_chance`); otherwise
the draw is made in the generated code. Either way, each roll and pick is
remembered in the state as a `ChanceEvent`, with a `Decided` marker for
every decision, so logs and observations can say what was rolled since a
role last decided. Games whose rules neither roll nor pick remember nothing.
"""
from __future__ import annotations

from typing import NamedTuple

from rulelang.errors import Span
from rulelang.files import location
from rulelang.records import record

CHANCE = "<chance>"  # `Game.current_role` while a chance event is pending (no role is named so)
# where a drawing statement keeps its progress in the frame's locals while it waits, and finds its outcome
PROGRESS, OUTCOME = "$chance", "$outcome"


@record
class ChanceSite:
    index: int  # in the game's table of chance sites (a saved state names its site by it)
    kind: str  # "roll", "pick" or "shuffle"
    span: Span | None
    die: str | None = None  # a roll: the die, and its faces (an outcome is a face's index)
    faces: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # a pick: what a binding binds, and which of them are cards
    is_card: tuple[bool, ...] = ()

    @property
    def at(self) -> str:
        """`FILE:LINE` of the rule that draws."""
        return location(self.span) if self.span is not None else "?"


class Chance(NamedTuple):
    """A chance event waiting for its outcome: one of `count` equally likely
    numbers 0..count-1 (a die's face index, a pick's binding, the place a
    shuffle step swaps with)."""
    site: ChanceSite
    count: int

    @property
    def outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs, as OpenSpiel's `chance_outcomes()` gives them."""
        p = 1.0 / self.count
        return [(i, p) for i in range(self.count)]

    @property
    def kind(self) -> str:
        return self.site.kind

    @property
    def at(self) -> str:
        return self.site.at


class ChanceEvent(NamedTuple):
    """A roll (`value`: the faces, in roll order) or a pick (`value`: the binding). A roll
    into what not everyone sees has a `target`: ("var", slot) of a variable only its owner
    (or no one) sees, ("card", id) for a card's state: it is seen by who sees that."""
    site: ChanceSite
    value: tuple
    target: tuple | None = None


class Told(NamedTuple):
    """A reveal or an announcement, to one player (`to`) or everyone (None): `subject` what is
    shown — ("zone", instance), ("cards",), or ("value", how it is named) —, `cards` the cards
    shown, `text` the value or the announcement as text."""
    kind: str  # "reveal" or "announce"
    to: str | None
    subject: tuple
    cards: tuple = ()
    text: str = ""
    slots: tuple = ()  # a value's variable slots: a secret roll into them is known once shown


class Decided(NamedTuple):
    """A decision was made by `role` (between the events it separates): at `site`, the
    option `option` (its values; a menu's option as its name), when the game keeps them;
    `bound`: the values then of the locals its options' words read (`site.reads`)."""
    role: str
    site: object = None  # the DecisionSite
    option: tuple | None = None
    bound: tuple = ()


def since_decision(events: list, role: str | None = None) -> list[ChanceEvent]:
    """The chance events since `role` last decided (role None: since anyone did)."""
    return [e for e in since_own(events, role) if type(e) is ChanceEvent]


def since_own(events: list, role: str | None = None) -> list:
    """Every event since `role` last decided (role None: since anyone did): the others'
    decisions, the rolls and picks, in the order they came."""
    i = len(events)
    while i and not (type(events[i - 1]) is Decided and role in (None, events[i - 1].role)):
        i -= 1
    return events[i:]


def events_to_json(events: list | None) -> list | None:
    if events is None:
        return None
    out = []
    for e in events:
        if type(e) is Decided:
            out.append({"decided": e.role} if e.site is None else
                       {"decided": e.role, "at": e.site.index, "option": list(e.option),
                        **({"bound": list(e.bound)} if e.bound else {})})
        elif type(e) is Told:
            out.append({"told": e.kind, "to": e.to, "subject": list(e.subject), "cards": list(e.cards),
                        "text": e.text, "slots": list(e.slots)})
        else:
            out.append({"site": e.site.index, "value": list(e.value),
                        **({"target": list(e.target)} if e.target is not None else {})})
    return out


def events_from_json(data: list | None, sites: tuple[ChanceSite, ...], decisions: tuple = ()) -> list | None:
    if data is None:
        return None
    out = []
    for e in data:
        if "decided" in e:
            out.append(Decided(e["decided"]) if "at" not in e else
                       Decided(e["decided"], decisions[e["at"]], tuple(e["option"]), tuple(e.get("bound", ()))))
        elif "told" in e:
            out.append(Told(e["told"], e["to"], tuple(e["subject"]), tuple(e["cards"]), e["text"], tuple(e["slots"])))
        else:
            target = e.get("target")
            out.append(ChanceEvent(sites[e["site"]], tuple(e["value"]), tuple(target) if target is not None else None))
    return out
