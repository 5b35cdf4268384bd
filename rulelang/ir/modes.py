"""A mode, a way to play: its setup, its round of steps, watches, scores,
rankings and measures, and its quick-reference pages; and the rulings."""
from __future__ import annotations

from dataclasses import field

from ..records import record
from typing import Mapping

from .base import FrozenMap, Node
from .expressions import Expr
from .statements import Block, Pin


@record
class Step(Node):
    name: str
    body: Block
    text: str | None = None
    assumed: str | None = None
    pin: Pin | None = field(default=None, compare=False)  # the text's fingerprint (`checked:`)


@record
class Rating(Node):
    name: str
    low: int
    high: int | None  # None: no upper bound


@record
class Measure(Node):
    """A number (or true/false) recorded when a game ends, for simulations;
    `when` false means it does not apply to that game."""
    name: str
    value: Expr
    when: Expr | None = None
    text: str | None = None


@record
class Watch(Node):
    """`watch:` — as soon as `when` holds (it is checked after every statement
    that changes the game), the current step stops, `body` runs, and play goes
    on at the start of step `then` (None: the step after the current one)."""
    when: Expr
    body: Block
    then: str | None = None
    text: str | None = None
    pin: Pin | None = field(default=None, compare=False)


@record
class Turns(Node):
    """`turns:` — the round's steps `first` to `last` (indexes into the round) are a turn: each
    player still in the game takes one in turn, in the order `order` gives (a list of players,
    read when the turns begin; None: every player in seat order, from the first still in the
    game); `current` is whose turn it is."""
    first: int
    last: int
    order: Expr | None = None


@record
class RankKey(Node):
    """One key of a mode's `ranking:`: a number per player (the higher the
    better, or the lower with `lowest`); each key breaks the ties of those before."""
    name: str  # the per-player variable or one-player define it reads
    values: Mapping[str, Expr]  # role -> the value for that player
    lowest: bool = False


@record
class Mode(Node):
    name: str
    title: str
    text: str | None
    roles: tuple[str, ...]
    setup: Block
    round: tuple[Step, ...]
    score: Mapping[str, Expr]
    ratings: tuple[Rating, ...] = ()
    assumed: str | None = None
    measures: Mapping[str, Measure] = field(default_factory=lambda: FrozenMap())
    # zone -> who sees it in this mode (`seen_by` values, or "open": every card,
    # face down included); zones not listed keep their own `seen_by`
    visibility: Mapping[str, str] = field(default_factory=lambda: FrozenMap())
    watches: tuple[Watch, ...] = ()
    # role -> a number, higher is better for that role (read by search agents)
    heuristics: Mapping[str, Expr] = field(default_factory=lambda: FrozenMap())
    # how `end game` places the players: each key breaks the ties of those before (empty: by score)
    ranking: tuple[RankKey, ...] = ()
    # the quick reference's pages (`quick:`); empty: one page with every step
    quick: tuple[QuickPage, ...] = ()
    turns: Turns | None = None  # the steps that are each player's turn, and in what order they take them


@record
class QuickRule(Node):
    """A sentence of a quick-reference page, with the sentences under it."""
    text: str
    rules: tuple["QuickRule", ...] = ()
    title: str | None = None  # its lead-in, in bold ("Fatigue.")


# a quick-reference page's generated sections: `terms` are those its steps use; `actions` every action and term
# of the whole round (for a page of its own); `cards` what each card says it does (its own words)
QUICK_SECTIONS = ("watches", "terms", "actions", "abilities", "cards", "end", "icons", "components")


@record
class QuickPage(Node):
    """A page of a mode's quick reference (`quick:`): the steps it prints as the rules say
    them, the ruleset's own summary sentences, and which generated sections it also holds."""
    title: str
    steps: tuple[str, ...] = ()
    rules: tuple[QuickRule, ...] = ()
    also: tuple[str, ...] = ()
    pin: Pin | None = field(default=None, compare=False)  # its sentences' fingerprint: they summarise the whole mode


@record
class Ruling(Node):
    """`applies_to` names modes (by name or title) and steps: the ruling belongs to the
    modes named, or else to every mode with a step named, or else to every mode."""
    id: str
    text: str
    applies_to: tuple[str, ...] = ()
