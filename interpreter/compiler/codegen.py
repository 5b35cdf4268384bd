"""The code generator: one part an idea, composed.

    gen = Codegen(layout, program, options)
    gen.function(expr, "the score of alice")       # f(st, env) -> the value
    gen.blocks(lowered, "the main program")        # the basic blocks of a program (flow.py)

Each part reaches the others through this object (`self.g.exprs`, ...) and
passes what holds where it generates down as a `Ctx` (context.py):

    units    names, constants, compiling (unit.py)
    exprs    expressions (expressions.py), calls the built-in functions (calls.py)
    binders  the loops of binders (binders.py), boards their ways through a board (boards.py)
    quants   quantifiers and a decision's options (quantifiers.py)
    lazy     lazy values: computed once, the first time asked (lazy.py)
    telling  what the rules tell players: reveals, announcements, values as text (telling.py)
    stmts    decision-free statements (statements.py), loops (loops.py), numbers kept (numbers.py)
    flow     flow items -> basic blocks (blocks.py), merged (merge.py)
"""
from __future__ import annotations

from rulelang import ir
from rulelang.walk import walk

from . import tuning
from .always_cards import locals_always_cards
from .binders import Binders
from .blocks import Blocks
from .boards import Boards
from .calls import Calls
from .compiled import watch_check
from .expressions import Expressions
from .lazy import LazyValues
from .loops import Loops
from .notes import origin
from .numbers import Numbers
from .options import ALL, CompileOptions
from .quantifiers import Quantifiers
from .statements import Statements, watched
from .telling import Telling
from .unit import Units


def _rolls_or_picks(program) -> bool:
    """Whether any statement of the program rolls, picks at random, reveals or announces: what
    makes a game remember its events (see Game), or more (a procedure never called)."""
    parts = (program.setup, program.steps, tuple(program.procedures.values()), program.watches)
    return any(isinstance(n, (ir.Roll, ir.Reveal, ir.Announce)) or isinstance(n, ir.Take) and n.which == "random"
               for n in walk(parts))


def _lie_as_their_zones(program, layout) -> frozenset[int]:
    """The zones (by index) whose every card always lies as the zone's cards lie (layout.facing_up): so
    it does at the start (in the box, face up), and every move, draw and swap lays a card as its new
    zone lies, unless a card type lies its own way (`facing:`: none does then) or a rule may turn the
    card over: a zone that may hold a card of a type some `flip` may turn (by the zone analysis; any
    card, where that is not known) is not one (nor, where a rule flips, is any zone without the
    analysis). A card moved from one of them to a zone that lies alike is not turned."""
    if program is None or any(f is not None for f in layout.card_facing):
        return frozenset()
    parts = (program.setup, program.steps, tuple(program.procedures.values()), program.watches)
    turned: set[str] = set()
    for n in walk(parts):
        if isinstance(n, ir.Flip):
            kinds = _kinds_of(n.card, program.possible)
            if kinds is None:
                return frozenset()
            turned |= kinds
    if turned and program.possible is None:
        return frozenset()
    possible = program.possible or {}
    return frozenset(i for i, (name, _) in enumerate(layout.instances) if not possible.get(name, frozenset()) & turned)


def _kinds_of(card: ir.Expr, possible) -> frozenset | None:
    """The types a card may be of, where it is the top, bottom or first of a zone (None: not known)."""
    if possible is None:
        return None
    if isinstance(card, ir.BuiltinCall) and card.name in ("top", "bottom") and isinstance(card.args[0], ir.ZoneRef):
        return possible.get(card.args[0].zone, frozenset())
    if isinstance(card, ir.Quantified) and card.kind in ("first", "last") and len(card.binder.groups) == 1 \
            and isinstance(domain := card.binder.groups[0].domain, ir.ZoneRef):
        return possible.get(domain.zone, frozenset())
    return None


def _puts_out(program) -> bool:
    """Whether any statement of the program may put a player out of the game (or more: a
    procedure never called). Without one, no one is ever out: the seats never skip anyone."""
    parts = (program.setup, program.steps, tuple(program.procedures.values()), program.watches)
    return any(isinstance(n, ir.Eliminate) for n in walk(parts))


class Codegen:
    """Compiles the rules of one game (a layout and a program) to Python functions."""

    def __init__(self, layout, program, options: CompileOptions = ALL, invariants=None, keep: bool = True,
                 folding: bool = False):
        self.L, self.program, self.options = layout, program, options
        self.units = Units(f"{layout.rs.name}/{layout.mode.name}", keep, options.lift, options.idioms)
        # computing constants before play (rules.constant_evaluator): big binders and every search
        # of a board count as work, against a budget of their own (tuning.FOLD_WORK), past which the
        # value is left to run time; in play, big binders count against the step limit
        self.folding = folding
        self.work_limit = tuning.FOLD_WORK if folding else layout.step_limit
        self.always_cards = locals_always_cards(program, layout.rs) if program is not None and options.cards \
            else frozenset()
        # whether the rules roll, pick at random, reveal or announce: a game then keeps `st.events`
        self.tells = program is not None and _rolls_or_picks(program)
        # the zones whose every card lies as the zone's do (statements.lies_as)
        self.lie_as_zones = _lie_as_their_zones(program, layout)
        # whether a player may be out: else the seats around the table are a constant (calls.py)
        self.puts_out = program is None or _puts_out(program)
        roles = layout.roles
        self.rotations = tuple(roles[i:] + roles[:i] for i in range(len(roles)))  # the players clockwise from each seat
        self.invariants = invariants  # called after every effect, when the game checks its invariants
        self.watch_check = None  # called after every change to the game, when the mode has watches
        self.watched = watched(program.watches) if program is not None else None  # what they read, if only variables
        self.chance_sites: list = []  # every roll, random pick and shuffle generated, by index
        self.work_counted = 0  # binders whose bindings were counted as work so far (binders.py)
        self.exprs, self.calls = Expressions(self), Calls(self)
        self.binders, self.boards, self.quants = Binders(self), Boards(self), Quantifiers(self)
        self.lazy, self.stmts, self.flow = LazyValues(self), Statements(self), Blocks(self)
        self.telling, self.loops, self.numbers = Telling(self), Loops(self), Numbers(self)
        if program is not None and program.watches:
            self.watch_check = self._watch_check()

    def origin(self, span) -> str:
        return origin(span)

    @property
    def crossing(self) -> frozenset[int]:
        return self.flow.crossing

    @property
    def compiled(self) -> list:
        """Every unit generated, in the order made (unit.Unit)."""
        return self.units.units

    def function(self, e: ir.Expr, what: str):
        return self.stmts.function(e, what)

    def blocks(self, prog, what: str, leaders=(), bound_outside=()):
        return self.flow.blocks(prog, what, leaders, bound_outside)

    def _watch_check(self):
        """The check run after every change to the game (compiled.watch_check)."""
        return watch_check(tuple(self.function(w.when, f"the condition of watch {i + 1}")
                                 for i, w in enumerate(self.program.watches)))
