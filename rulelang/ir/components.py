"""What a ruleset declares is on the table: roles and players, parameters,
types, card types and cards, dice, zones and boards, variables."""
from __future__ import annotations

from dataclasses import field

from ..records import record
from typing import Mapping

from ..types import Type
from .base import FrozenMap, Node


@record
class Role(Node):
    name: str
    text: str | None = None
    article: str | None = None  # how the printed rules name it: "the" (the Dealer) or "" (North); None: guessed


@record
class ParamDef(Node):
    name: str
    type: Type
    default: object
    text: str | None = None
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    assumed: str | None = None


@record
class EnumDef(Node):
    name: str
    values: tuple[str, ...]
    text: str | None = None
    # value -> icon name, for printing (`icons: true` maps every value to itself)
    icons: Mapping[str, str] = field(default_factory=lambda: FrozenMap())
    names: Mapping[str, str] = field(default_factory=lambda: FrozenMap())  # value -> its printed name (`names:`)


@record
class FieldDef(Node):
    name: str
    type: Type


@record
class StateField(Node):
    """Per-component state: a value each card of the type carries and the
    rules change (`state: {damage: 0}`), unlike its printed fields."""
    name: str
    type: Type
    initial: object


@record
class CardType(Node):
    name: str
    fields: tuple[FieldDef, ...]
    label: str | None = None  # format string, e.g. "{value} {icon}"
    text: str | None = None
    assumed: str | None = None
    state: tuple[StateField, ...] = ()
    back: str | None = None  # format string for the card's back; cards with equal backs look alike face down
    abilities: tuple[str, ...] = ()  # abilities every card of the type carries
    facing: str | None = None  # "up"/"down": how these cards lie in any zone (a miniature on a face-down place)
    template: "TemplateText | None" = None  # the card type's own front template (Jinja2), for printing
    # `print: true/false`: on card sheets or not; None: as its component is (cards, tokens, tiles are)
    printed: bool | None = None
    # `print: {field: line}`: how a field reads on the card's front: None (not printed), a format
    # ("Cost {cost}"), or the format for each value ((value, format or None), ...)
    lines: tuple[tuple[str, "str | tuple[tuple[str, str | None], ...] | None"], ...] = ()
    component: str = "card"  # what one is on the table: card, token, tile, miniature, space, pawn, die, ...
    names: Mapping[str, str] = field(default_factory=lambda: FrozenMap())  # field -> its printed name (`names:`)
    plural: str | None = None  # the printed noun's plural, where English has no rule for it
    article: str | None = None  # "a" or "an" before the printed noun, where its sound is irregular
    layout: "CardLayout | None" = None  # `layout:`: where its fields go on the printed face


@record
class CardLayout(Node):
    """`layout:` on a card type (rulelang/cardlayout.py): where its fields go on the printed face."""
    title: str | bool = True  # True: the label; a format; False: no title
    corner: str | bool = True  # a number field in the corner badge; True: the default; False: none
    icons: tuple[tuple[str, str], ...] = ()  # (number field, icon): printed in a row, each with its icon
    art: str | bool | None = None  # a format in large letters; True/None: the icons (or a template's art); False
    rules: tuple[str, ...] = ()  # fields whose `print:` lines say what the card does
    shape: str | None = None  # card, round or square; None: as its component is
    size: tuple[float, float] | None = None  # mm, of a piece (default: the command line's card size)
    colour: str | None = None  # #rrggbb


@record
class TemplateText(Node):
    """Template text from the ruleset; `span` is where its first line is."""
    text: str


@record
class Card(Node):
    """One physical card; `id` is its index in `Ruleset.cards`. `text`: the
    card's own words for its front (a table's `text` column), `{field}`s unfilled."""
    id: int
    kind: str
    values: Mapping[str, object]
    text: str | None = None


@record
class Die(Node):
    """A die declared under `dice:` (or the built-in d6): its faces, in order;
    a face may repeat. Each face is equally likely."""
    name: str
    faces: tuple[int, ...]


@record
class Zone(Node):
    name: str
    owner: str | None = None  # a role name, "each" (one per role) or None
    facing: str = "up"  # cards entering the zone are turned this way
    seen_by: str = "all"  # who sees face-up cards: all, owner, none
    holds: tuple[str, ...] = ()  # card types allowed; empty = any
    kind: str = "pile"  # pile, row, hand, area, grid, graph — how it is shown and described
    text: str | None = None
    columns: int = 0  # a grid (kind: grid) is columns x rows spaces, each a zone;
    rows: int = 0  # column 1 is the left, row 1 the bottom
    assumed: str | None = None
    article: str | None = None  # how the printed rules name it: "the" (the Chamber, default) or "" (Gauntlet)
    # a board's spaces, numbered 0.. (a grid's bottom row first, left to right; a graph's in
    # the order its places are listed): which are gaps of a grid's map, what each is marked
    # with (`marks:` field -> value), a graph's place names and its links (from, to)
    gaps: frozenset[int] = frozenset()
    marks: Mapping[str, Type] = field(default_factory=lambda: FrozenMap())
    space_marks: tuple[Mapping[str, object], ...] = ()
    places: tuple[str, ...] = ()
    links: tuple[tuple[int, int], ...] = ()
    picture: tuple[str, ...] = ()  # a grid's `map:` as drawn, a line a row, top row first (for the terminal)

    @property
    def board(self) -> bool:
        """A grid or a graph: every space a zone of its own."""
        return self.kind in ("grid", "graph")

    @property
    def spaces(self) -> int:
        return len(self.places) if self.kind == "graph" else self.columns * self.rows


@record
class VarDef(Node):
    name: str
    type: Type
    initial: object
    text: str | None = None
    assumed: str | None = None
    owner: str | None = None  # "each": every player has their own (`life of p`)
    low: int | None = None  # a number's bounds: a change past them stops at the bound
    high: int | None = None
    component: str | None = None  # what players count it with (`component: cube`): components to print
    seen_by: str = "all"  # who sees its value: "all", "owner" (each player their own), "none" (until revealed)


@record
class Players(Node):
    """`players:` — the roles are seats made from a count the `players`
    parameter sets (`--set players=3`)."""
    low: int
    high: int
    default: int
    names: tuple[str, ...]  # a name per seat, as many as `high`
    text: str | None = None
