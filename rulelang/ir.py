"""The intermediate representation: plain, frozen data.

The parser builds these nodes with names unresolved (`Name`, `Call`); the
checker returns the same tree with every name resolved (`Local`, `Var`,
`Param`, `EnumValue`, `ZoneRef`, `RoleRef`, `DefineCall`, `BuiltinCall`) and
every expression's type filled in. Nothing downstream (interpreter,
generators) ever sees an unresolved name or raw YAML.

Every node carries its source `span`; spans and types are left out of
equality so two rulesets compare by meaning, not by layout.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .errors import Span
from .types import Type


def _meta():
    return field(default=None, kw_only=True, compare=False, repr=False)


@dataclass(frozen=True)
class Node:
    span: Span | None = _meta()


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Expr(Node):
    ty: Type | None = _meta()


@dataclass(frozen=True)
class Const(Expr):
    value: object  # int, bool, str or None


@dataclass(frozen=True)
class Name(Expr):
    """An unresolved name, as written (parser output only)."""
    name: str


@dataclass(frozen=True)
class Local(Expr):
    """A local: `let` variable, binder variable or define parameter."""
    name: str


@dataclass(frozen=True)
class Var(Expr):
    """A game variable declared under `vars:`; a player's own (`owner: each`)
    is read as `life of p`, and `owner` is that player."""
    name: str
    owner: Expr | None = None


@dataclass(frozen=True)
class Param(Expr):
    name: str


@dataclass(frozen=True)
class EnumValue(Expr):
    enum: str
    value: str


@dataclass(frozen=True)
class ZoneRef(Expr):
    zone: str
    owner: Expr | None = None  # for zones owned by each role: `hand of p`


@dataclass(frozen=True)
class RoleRef(Expr):
    role: str


@dataclass(frozen=True)
class Owned(Expr):
    """`ZONE of ROLE` before resolution."""
    zone: Expr
    owner: Expr


@dataclass(frozen=True)
class Field(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Call(Expr):
    """An unresolved call `name(args)` (parser output only)."""
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class DefineCall(Expr):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class BuiltinCall(Expr):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str  # + - * / % == != < <= > >= in "not in" and or
    left: Expr
    right: Expr


@dataclass(frozen=True)
class IsType(Expr):
    """`x is trial` / `x is not trial`: a test of a card's type."""
    subject: Expr
    kind: str
    negated: bool = False


@dataclass(frozen=True)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class CaseArm(Node):
    patterns: tuple[Expr, ...]  # empty for `else`
    value: Expr


@dataclass(frozen=True)
class Case(Expr):
    subject: Expr
    arms: tuple[CaseArm, ...]


@dataclass(frozen=True)
class ListExpr(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class RangeExpr(Expr):
    low: Expr
    high: Expr


@dataclass(frozen=True)
class BinderGroup(Node):
    """`a, b in hand`: several names over one domain are unordered distinct
    combinations; one name is each element in turn."""
    names: tuple[str, ...]
    domain: Expr


@dataclass(frozen=True)
class OrderKey(Node):
    """One key of `ordered by`: a number per binding, smallest first."""
    value: Expr
    descending: bool = False


@dataclass(frozen=True)
class Binder(Node):
    groups: tuple[BinderGroup, ...]
    where: Expr | None = None
    order: tuple[OrderKey, ...] = ()  # `ordered by k1, k2 descending`: bindings sorted, stable
    # filled by the checker: each name's type once `where` has narrowed it
    types: tuple[Type, ...] = field(default=(), kw_only=True, compare=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for g in self.groups for n in g.names)


@dataclass(frozen=True)
class Quantified(Expr):
    """`exists B`, `count(B)`, `first(B)`, `last(B)` and the aggregates
    `sum/min/max/any/all(expr for B)` and `[expr for B]` (kind "list")."""
    kind: str
    binder: Binder
    value: Expr | None = None  # the aggregated expression, if any


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Stmt(Node):
    pass


Block = tuple[Stmt, ...]


@dataclass(frozen=True)
class Move(Stmt):
    """Move cards to a zone. `cards` is a tuple of expressions (each a card or a
    list of cards), or `every` is a binder (`move all c in Z where P to ...`)."""
    cards: tuple[Expr, ...]
    every: Binder | None
    dest: Expr
    position: str = "top"


@dataclass(frozen=True)
class Draw(Stmt):
    """Move up to `count` cards from the top of `source` (fewer if it runs out)."""
    count: Expr
    source: Expr
    dest: Expr
    position: str = "top"


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Flip(Stmt):
    card: Expr
    face: str | None = None  # "up", "down", or None to turn over


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Assign(Stmt):
    target: Expr  # Var / Local, or Field: a card's state (`g.damage += 2`)
    op: str  # "=", "+=", "-="
    value: Expr


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None = None


@dataclass(frozen=True)
class While(Stmt):
    cond: Expr
    body: Block
    until: bool = False  # written `until C:`; cond is then the stop condition


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass(frozen=True)
class For(Stmt):
    binder: Binder
    body: Block


@dataclass(frozen=True)
class Choose(Stmt):
    """`ROLE chooses BINDER as LABEL: body` — a decision. The legal options
    are the bindings the binder enumerates, in order."""
    role: Expr
    binder: Binder
    label: str
    body: Block


@dataclass(frozen=True)
class Take(Stmt):
    """`take first|last|random BINDER: body` — an automatic choice made by
    rule: the first (or last) binding the binder enumerates, or one of them at
    random (from the game's RNG), is bound for the body, which runs once. No
    binding is an error in the rules."""
    which: str  # "first", "last" or "random"
    binder: Binder
    body: Block


@dataclass(frozen=True)
class Roll(Stmt):
    """`roll [COUNT] DIE into TARGET` — dice from the game's RNG, one after
    another: without a count one die and its face (a number), with a count a
    list of faces in roll order. `declares`: the target is a new local."""
    die: str
    count: Expr | None
    target: Expr  # Local (a new one if `declares`) / Var / Field, as an assignment's
    declares: bool = False


@dataclass(frozen=True)
class MenuOption(Node):
    name: str
    guard: Expr | None
    body: Block


@dataclass(frozen=True)
class Menu(Stmt):
    """`ROLE chooses LABEL:` followed by named options with guards."""
    role: Expr
    label: str
    options: tuple[MenuOption, ...]


@dataclass(frozen=True)
class EndGame(Stmt):
    """`win X`, `lose X` (X a role or a list of roles: a team), `end game`
    (players placed by the mode's ranking), `end game in a draw`."""
    kind: str  # "win", "lose", "end", "draw"
    role: Expr | None
    reason: str | None = None


@dataclass(frozen=True)
class Trigger(Stmt):
    """`trigger EVENT(args)`: every ability that answers the event, on every card
    that carries it, in card order; `window EVENT(args)`: the player (the
    first role among the arguments) plays them one at a time, until passing."""
    event: str
    args: tuple[Expr, ...]
    window: bool = False


@dataclass(frozen=True)
class Eliminate(Stmt):
    """`eliminate p`: the player is out of the game for good (placed below
    every player still in it, a later elimination above an earlier one)."""
    role: Expr
    reason: str | None = None


@dataclass(frozen=True)
class CallProc(Stmt):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Pass(Stmt):
    pass


# ---------------------------------------------------------------- the ruleset


@dataclass(frozen=True)
class Role(Node):
    name: str
    text: str | None = None
    article: str | None = None  # how the printed rules name it: "the" (the Dealer) or "" (North); None: guessed


@dataclass(frozen=True)
class ParamDef(Node):
    name: str
    type: Type
    default: object
    text: str | None = None
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    assumed: str | None = None


@dataclass(frozen=True)
class EnumDef(Node):
    name: str
    values: tuple[str, ...]
    text: str | None = None
    # value -> icon name, for printing (`icons: true` maps every value to itself)
    icons: Mapping[str, str] = field(default_factory=lambda: FrozenMap())


@dataclass(frozen=True)
class FieldDef(Node):
    name: str
    type: Type


@dataclass(frozen=True)
class StateField(Node):
    """Per-component state: a value each card of the type carries and the
    rules change (`state: {damage: 0}`), unlike its printed fields."""
    name: str
    type: Type
    initial: object


@dataclass(frozen=True)
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
    printed: bool = True  # `print: false`: left out of card sheets (pawns, dice, a board printed elsewhere)
    # `print: {field: line}`: how a field reads on the card's front: None (not printed), a format
    # ("Cost {cost}"), or the format for each value ((value, format or None), ...)
    lines: tuple[tuple[str, "str | tuple[tuple[str, str | None], ...] | None"], ...] = ()
    component: str = "card"  # what one is on the table: card, token, tile, miniature, space, pawn, die, ...
    plural: str | None = None  # the printed noun's plural, where English has no rule for it
    article: str | None = None  # "a" or "an" before the printed noun, where its sound is irregular


@dataclass(frozen=True)
class TemplateText(Node):
    """Template text from the ruleset; `span` is where its first line is."""
    text: str


@dataclass(frozen=True)
class Card(Node):
    """One physical card; `id` is its index in `Ruleset.cards`. `text`: the
    card's own words for its front (a table's `text` column), `{field}`s unfilled."""
    id: int
    kind: str
    values: Mapping[str, object]
    text: str | None = None


@dataclass(frozen=True)
class Die(Node):
    """A die declared under `dice:` (or the built-in d6): its faces, in order;
    a face may repeat. Each face is equally likely."""
    name: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class VarDef(Node):
    name: str
    type: Type
    initial: object
    text: str | None = None
    assumed: str | None = None
    owner: str | None = None  # "each": every player has their own (`life of p`)
    low: int | None = None  # a number's bounds: a change past them stops at the bound
    high: int | None = None


@dataclass(frozen=True)
class Define(Node):
    """A named pure expression: `name(params): expression`."""
    name: str
    params: tuple[tuple[str, Type | None], ...]
    body: Expr
    text: str | None = None  # a phrase for printing; `{param}` stands for an argument
    assumed: str | None = None


@dataclass(frozen=True)
class Procedure(Node):
    """A named block of statements: `name(params): statements`."""
    name: str
    params: tuple[tuple[str, Type | None], ...]
    body: Block
    text: str | None = None
    assumed: str | None = None


@dataclass(frozen=True)
class Event(Node):
    """A named moment the rules announce (`trigger`, `window`), with what it says."""
    name: str
    params: tuple[tuple[str, Type | None], ...]
    text: str | None = None


@dataclass(frozen=True)
class Ability(Node):
    """Card rules that answer an event. `this` is the card; the event's
    parameters are named as declared."""
    name: str
    on: str  # the event
    body: Block
    where: Expr | None = None  # when the card answers (default: always)
    once: str | None = None  # "game", or an event: at most once until it happens again
    optional: Expr | None = None  # "you may": the player who decides
    text: str | None = None
    assumed: str | None = None


@dataclass(frozen=True)
class Step(Node):
    name: str
    body: Block
    text: str | None = None
    assumed: str | None = None


@dataclass(frozen=True)
class Rating(Node):
    name: str
    low: int
    high: int | None  # None: no upper bound


@dataclass(frozen=True)
class Measure(Node):
    """A number (or true/false) recorded when a game ends, for simulations;
    `when` false means it does not apply to that game."""
    name: str
    value: Expr
    when: Expr | None = None
    text: str | None = None


@dataclass(frozen=True)
class Watch(Node):
    """`watch:` — as soon as `when` holds (it is checked after every statement
    that changes the game), the current step stops, `body` runs, and play goes
    on at the start of step `then` (None: the step after the current one)."""
    when: Expr
    body: Block
    then: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class RankKey(Node):
    """One key of a mode's `ranking:`: a number per player (the higher the
    better, or the lower with `lowest`); each key breaks the ties of those before."""
    name: str  # the per-player variable or one-player define it reads
    values: Mapping[str, Expr]  # role -> the value for that player
    lowest: bool = False


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class QuickRule(Node):
    """A sentence of a quick-reference page, with the sentences under it."""
    text: str
    rules: tuple["QuickRule", ...] = ()
    title: str | None = None  # its lead-in, in bold ("Fatigue.")


QUICK_SECTIONS = ("watches", "terms", "abilities", "end", "icons", "components")


@dataclass(frozen=True)
class QuickPage(Node):
    """A page of a mode's quick reference (`quick:`): the steps it prints as the rules say
    them, the ruleset's own summary sentences, and which generated sections it also holds."""
    title: str
    steps: tuple[str, ...] = ()
    rules: tuple[QuickRule, ...] = ()
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruling(Node):
    """`applies_to` names modes (by name or title) and steps: the ruling belongs to the
    modes named, or else to every mode with a step named, or else to every mode."""
    id: str
    text: str
    applies_to: tuple[str, ...] = ()


@dataclass(frozen=True)
class Players(Node):
    """`players:` — the roles are seats made from a count the `players`
    parameter sets (`--set players=3`)."""
    low: int
    high: int
    default: int
    names: tuple[str, ...]  # a name per seat, as many as `high`
    text: str | None = None


@dataclass(frozen=True)
class Ruleset(Node):
    name: str
    title: str
    credits: str | None
    roles: tuple[Role, ...]
    params: Mapping[str, ParamDef]
    enums: Mapping[str, EnumDef]
    card_types: Mapping[str, CardType]
    cards: tuple[Card, ...]
    zones: Mapping[str, Zone]
    vars: Mapping[str, VarDef]
    defines: Mapping[str, Define]
    procedures: Mapping[str, Procedure]
    setup: Block
    modes: Mapping[str, Mode]
    rulings: tuple[Ruling, ...]
    param_values: Mapping[str, object]  # defaults with --set applied
    source_hash: str = ""
    text: str | None = None  # what the game is about
    # the files it was read from, the most basic first: where it came from, not what it says
    files: tuple[str, ...] = field(default=(), compare=False, repr=False)
    players: Players | None = None  # seats made from a count (None: the roles are named)
    events: Mapping[str, Event] = field(default_factory=lambda: FrozenMap())
    abilities: Mapping[str, Ability] = field(default_factory=lambda: FrozenMap())
    dice: Mapping[str, Die] = field(default_factory=lambda: FrozenMap())  # `dice:` and the built-in d6
    number_digits: int = 18  # how many digits a number in play may have (`--limit number_digits`)

    @property
    def default_mode(self) -> str:
        return next(iter(self.modes))


class FrozenMap(dict):
    """A read-only dict: the IR's name tables. Picklable, unlike MappingProxyType."""

    def _readonly(self, *args, **kwargs):
        raise TypeError("the IR is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __reduce__(self):
        return (FrozenMap, (dict(self),))

    def __hash__(self):  # frozen dataclasses holding it stay hashable
        return hash(tuple(self.items()))


def frozen_map(d) -> FrozenMap:
    return FrozenMap(d)
