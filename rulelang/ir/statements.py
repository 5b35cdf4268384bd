"""Statements: what the rules do, in order."""
from __future__ import annotations

from dataclasses import field

from ..errors import Span
from ..records import record
from .base import Node
from .expressions import Binder, Expr


@record
class Pin:
    """Hand-written text pinned to the rules it describes: `checked` is the fingerprint of the
    rules the author last read it against (None: not pinned yet); `span` is where the text is.
    Not a node: no pass walks into it (`rulelang/pins.py` reads it)."""
    checked: str | None
    span: Span | None = None


@record
class Prose:
    """`"text" [checked FINGERPRINT]:` in the rules: the printed words for the `count`
    statements of the block that start here (the statements are the rules; the text is
    printed instead of their generated English)."""
    text: str
    count: int
    pin: Pin


@record
class Stmt(Node):
    # printed words the author gave for this statement (and those after it, `prose.count`); never a rule
    prose: Prose | None = field(default=None, kw_only=True, compare=False, repr=False)


Block = tuple[Stmt, ...]


@record
class Move(Stmt):
    """Move cards to a zone. `cards` is a tuple of expressions (each a card or a
    list of cards), or `every` is a binder (`move all c in Z where P to ...`)."""
    cards: tuple[Expr, ...]
    every: Binder | None
    dest: Expr
    position: str = "top"


@record
class Draw(Stmt):
    """Move up to `count` cards from the top of `source` (fewer if it runs out)."""
    count: Expr
    source: Expr
    dest: Expr
    position: str = "top"


@record
class Shuffle(Stmt):
    zone: Expr


@record
class Flip(Stmt):
    card: Expr
    face: str | None = None  # "up", "down", or None to turn over


@record
class Swap(Stmt):
    """Two cards change places, each where the other lay (its zone, its place in it), or two
    zones exchange their cards, each in its order. Moved cards lie as their new zone's do."""
    first: Expr
    second: Expr


@record
class Let(Stmt):
    name: str
    value: Expr


@record
class Assign(Stmt):
    target: Expr  # Var / Local, or Field: a card's state (`g.damage += 2`)
    op: str  # "=", "+=", "-="
    value: Expr


@record
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None = None


@record
class While(Stmt):
    cond: Expr
    body: Block
    until: bool = False  # written `until C:`; cond is then the stop condition


@record
class Repeat(Stmt):
    count: Expr
    body: Block


@record
class For(Stmt):
    binder: Binder
    body: Block


@record
class Choose(Stmt):
    """`ROLE chooses BINDER as LABEL: body` — a decision. The legal options
    are the bindings the binder enumerates, in order; `labelled "TEXT"` says
    how each reads (a Template read with the option's names)."""
    role: Expr
    binder: Binder
    label: str
    body: Block
    labelled: Expr | None = None


@record
class Take(Stmt):
    """`take first|last|random BINDER: body` — an automatic choice made by
    rule: the first (or last) binding the binder enumerates, or one of them at
    random (from the game's RNG), is bound for the body, which runs once. No
    binding is an error in the rules."""
    which: str  # "first", "last" or "random"
    binder: Binder
    body: Block


@record
class Roll(Stmt):
    """`roll [COUNT] DIE into TARGET` — dice from the game's RNG, one after
    another: without a count one die and its face (a number), with a count a
    list of faces in roll order. `declares`: the target is a new local."""
    die: str
    count: Expr | None
    target: Expr  # Local (a new one if `declares`) / Var / Field, as an assignment's
    declares: bool = False


@record
class MenuOption(Node):
    name: str
    guard: Expr | None
    body: Block


@record
class Menu(Stmt):
    """`ROLE chooses LABEL:` followed by named options with guards."""
    role: Expr
    label: str
    options: tuple[MenuOption, ...]


@record
class EndGame(Stmt):
    """`win X`, `lose X` (X a role or a list of roles: a team), `end game`
    (players placed by the mode's ranking), `end game in a draw`."""
    kind: str  # "win", "lose", "end", "draw"
    role: Expr | None
    reason: str | None = None


@record
class Trigger(Stmt):
    """`trigger EVENT(args)`: every ability that answers the event, on every card
    that carries it, in card order; `window EVENT(args)`: the player (the
    first role among the arguments) plays them one at a time, until passing."""
    event: str
    args: tuple[Expr, ...]
    window: bool = False


@record
class Eliminate(Stmt):
    """`eliminate p`: the player is out of the game for good (placed below
    every player still in it, a later elimination above an earlier one)."""
    role: Expr
    reason: str | None = None


@record
class Reveal(Stmt):
    """`reveal X [to p]`: shows every player, or one, cards (a card, a list of them, a zone's)
    or a value (a secret variable's) as they are now; the others learn only that it was shown."""
    what: Expr
    to: Expr | None = None


@record
class Announce(Stmt):
    """`announce "TEXT" [to p]`: says a text (a Template) to every player, or to one."""
    text: Expr
    to: Expr | None = None


@record
class CallProc(Stmt):
    name: str
    args: tuple[Expr, ...]


@record
class Pass(Stmt):
    pass
