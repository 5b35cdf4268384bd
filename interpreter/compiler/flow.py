"""The game's flow as programs that can stop at any decision.

Statements that contain a decision are lowered to a flat list of flow items
(below) with labels; runs of decision-free statements stay whole. Then
`blocks.py` turns each basic block of that list into one Python function
that runs the block and returns the index of the next block (or SUSPEND at
a decision, CALL to enter a procedure). With explicit chance, a roll, a
random pick and a shuffle stop play too (at each of their draws), so they
are lowered like decisions.

The flow position is therefore plain data — a stack of frames (program
name, block index, locals) — which is what lets a state be cloned and saved
at every decision.

Programs: "main" (setup, then the mode's round of steps, repeated until the
game ends), "proc:NAME" for each procedure that asks for decisions, and
"watch:I" for the statements of each `watch:`.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir
from rulelang.errors import Span
from rulelang.types import INT, NONE, ROLE, BoardT, CardT, ListT, ZoneT
from rulelang.walk import dispatch

from ..runtime.decision import DecisionSite
from .hoist import free_locals
from .nodes import Decide, Program, TakeFrom


class Label:
    """A place in a program's items; `at` is set when the place is reached."""
    __slots__ = ("at",)

    def __init__(self):
        self.at = -1


# ---------------------------------------------------------------- flow items


@dataclass(frozen=True)
class Run:
    """Statements without a decision, run as they are."""
    stmts: ir.Block


@dataclass(frozen=True)
class NewRound:
    """The round number goes up by one."""


@dataclass(frozen=True)
class Jump:
    to: Label
    span: Span | None = None  # the loop it closes, if it is a jump back: one pass, a step against the limit


@dataclass(frozen=True)
class Branch:
    """Go on if `cond` is `go_on_if`, otherwise jump to `otherwise`."""
    cond: ir.Expr
    go_on_if: bool
    otherwise: Label


@dataclass(frozen=True)
class NextTurn:
    """The next player still in the game in the round's turn order takes a turn (their turn
    begins at `turn`); once all have, play goes on at `done`."""
    turn: Label
    done: Label


@dataclass(frozen=True)
class Ask:
    """Stop for a decision over the bindings of `options`; they are bound on return."""
    role: ir.Expr
    site: DecisionSite
    options: ir.Expr


@dataclass(frozen=True)
class MenuChoice:
    name: str
    guard: ir.Expr | None  # the option is offered only if this holds
    to: Label


@dataclass(frozen=True)
class AskMenu:
    """Stop for a choice among named options; play goes on at the chosen one."""
    role: ir.Expr
    site: DecisionSite
    choices: tuple[MenuChoice, ...]


@dataclass(frozen=True)
class Take:
    """An automatic choice: bind the first (or last) option, by rule."""
    stmt: TakeFrom


@dataclass(frozen=True)
class Draw:
    """A roll, random pick or shuffle that stops at each draw for its outcome
    (explicit chance). It is a block of its own, run again with each outcome."""
    stmt: ir.Roll | ir.Shuffle | TakeFrom


@dataclass(frozen=True)
class Enter:
    """Enter a procedure that asks decisions (a new frame)."""
    program: str
    args: tuple[tuple[str, ir.Expr], ...]


@dataclass(frozen=True)
class LoopStart:
    """Before a loop that contains a decision: its rows (the bindings of a
    `for`, or `count` empty rows for `repeat`) are kept in the frame, and
    its passes counted as steps (the jump back then counts none)."""
    rows: str
    index: str
    count: ir.Expr | None
    binder: ir.Binder | None
    span: Span | None  # the loop


@dataclass(frozen=True)
class LoopNext:
    """Bind the next row, or leave the loop for `end`."""
    rows: str
    index: str
    names: tuple[str, ...]
    end: Label


TERMINATORS = (Jump, Branch, Ask, AskMenu, Enter, LoopNext, Draw, NextTurn)  # items that end a basic block
ITEMS = (Run, NewRound, Take, LoopStart, *TERMINATORS)  # every kind of flow item


def card_flags(b: ir.Binder) -> tuple[bool, ...]:
    """Which of a binder's names are bound to cards."""
    flags = []
    for g in b.groups:
        t = g.domain.ty
        card = isinstance(t, (ZoneT, BoardT)) or (isinstance(t, ListT) and isinstance(t.item, CardT))
        flags += [card] * len(g.names)
    return tuple(flags)


def zone_flags(b: ir.Binder) -> tuple[bool, ...]:
    """Which of a binder's names are bound to zones (`z in [hand of p, discard of p]`)."""
    return tuple(isinstance(g.domain.ty, ListT) and isinstance(g.domain.ty.item, ZoneT)
                 for g in b.groups for _ in g.names)


def draws(s: ir.Stmt) -> bool:
    """A statement that draws from the RNG: a roll, a random pick, a shuffle."""
    return isinstance(s, (ir.Roll, ir.Shuffle)) or isinstance(s, ir.Take) and s.which == "random"


class _Suspends:
    """Whether running statements may ask for a decision (or, with `chance`, stop for a chance event)."""
    DECLINES = {ir.Trigger: "triggers and windows are written out before the flow is lowered (abilities.py)"}

    def __init__(self, procedures: dict, chance: bool):
        self.procedures, self.chance = procedures, chance
        self.known: dict[str, bool] = {}  # a procedure's answer, found once (one may call another twice a level)

    def block(self, stmts) -> bool:
        return any(dispatch(self, "suspends", s) for s in stmts)

    def suspends_choose(self, s) -> bool:
        return True

    suspends_menu = suspends_decide = suspends_choose

    def suspends_roll(self, s) -> bool:
        return self.chance and draws(s)

    suspends_shuffle = suspends_roll

    def suspends_take(self, s) -> bool:
        return self.chance and draws(s) or self.block(s.body)

    suspends_takefrom = suspends_take

    def suspends_callproc(self, s: ir.CallProc) -> bool:
        if s.name not in self.known:
            self.known[s.name] = self.block(self.procedures[s.name])
        return self.known[s.name]

    def suspends_if(self, s: ir.If) -> bool:
        return any(self.block(b) for _, b in s.branches) or s.otherwise is not None and self.block(s.otherwise)

    def suspends_while(self, s) -> bool:
        return self.block(s.body)

    suspends_repeat = suspends_for = suspends_while

    def suspends_not(self, s) -> bool:
        return False

    suspends_move = suspends_draw = suspends_swap = suspends_flip = suspends_let = suspends_assign = suspends_endgame = \
        suspends_eliminate = suspends_pass = suspends_reveal = suspends_announce = suspends_not



@dataclass
class Lowered:
    """A program as flow items; labels mark item indexes."""
    items: list
    steps: list[tuple[Label, str]]  # where each step starts (main only)

    def here(self, label: Label) -> None:
        label.at = len(self.items)

    def add(self, item) -> None:
        self.items.append(item)


_NO_DECISION = "it asks no decision: it runs whole, in a Run item"


class Lowering:
    """The statements of one mode's program -> flow items, and the decision sites."""
    DECLINES: dict[type, str] = {**{c: _NO_DECISION for c in (ir.Move, ir.Draw, ir.Swap, ir.Flip, ir.Let,
                                                               ir.Assign, ir.EndGame, ir.Eliminate, ir.Pass,
                                                               ir.Reveal, ir.Announce)},
                ir.Choose: "a decision carries its options by now (a Decide)",
                ir.Take: "a take carries its options by now (a TakeFrom)",
                ir.Trigger: "triggers and windows are written out before the flow is lowered (abilities.py)"}

    def __init__(self, program: Program, ruleset: ir.Ruleset, explicit_chance: bool = False):
        self.program, self.rs, self.chance = program, ruleset, explicit_chance
        self.sites: list[DecisionSite] = []
        self.labels: dict[int, ir.Expr] = {}  # a site's `labelled` text: how each of its options reads
        self.called: list[str] = []  # procedures entered as programs of their own (plain rules only)
        self.next_turn: Label | None = None  # where the next player's turn is found (a mode of turns)
        self.row_flags: dict[str, tuple[bool, ...]] = {}  # a loop's rows local -> which values are cards
        self.suspends = _Suspends(program.procedures, explicit_chance)
        self._temps = 0

    def main(self, round_span: Span | None) -> tuple[Lowered, Label]:
        """Setup, then the round of steps for ever (a step ends the game); and the round's start.
        `round_span` (the mode's) is where a game whose rounds never end is reported."""
        main = Lowered([], [])
        start = Label()
        main.here(start)
        main.steps.append((start, "Setup"))
        self.block(main, self.program.setup[self.program.fixed:])  # the rest is run once (shared_setup.py)
        top = Label()
        main.here(top)
        main.add(NewRound())
        turns = self.program.turns
        for i, step in enumerate(self.program.steps):
            label = Label()
            if turns is not None and i == turns.first:
                next_turn, done = self.turns_begin(main, turns, label)
            main.here(label)
            main.steps.append((label, step.name))
            self.block(main, step.body)
            if turns is not None and i == turns.last:
                main.add(Jump(next_turn, turns.span))
                main.here(done)
                main.add(Run((ir.Assign(_turn_var("$current", ROLE), "=", ir.Const(None, ty=NONE)),)))
                self.next_turn = next_turn
        main.add(Jump(top, round_span))
        return main, top

    def turns_begin(self, main: Lowered, turns: ir.Turns, turn: Label) -> tuple[Label, Label]:
        """The start of a round's turns: the order is read; then, at `next_turn`, the next player
        still in the game takes a turn (at `turn`), until every one has (then play goes on at `done`)."""
        order = turns.order if turns.order is not None else ir.BuiltinCall("players", (), ty=ListT(ROLE))
        main.add(Run((ir.Assign(_turn_var("$turn_order", ListT(ROLE)), "=", order),
                      ir.Assign(_turn_var("$turn_next", INT), "=", ir.Const(0, ty=INT)))))
        next_turn, done = Label(), Label()
        main.here(next_turn)
        main.add(NextTurn(turn, done))
        return next_turn, done

    def statements(self, stmts) -> Lowered:
        prog = Lowered([], [])
        self.block(prog, stmts)
        return prog

    def temp(self, what: str) -> str:
        self._temps += 1
        return f"${what}{self._temps}"

    def block(self, prog: Lowered, stmts) -> None:
        run: list = []
        for s in stmts:
            if self.suspends.block((s,)):
                if run:
                    prog.add(Run(tuple(run)))
                run = []
                self.lower(prog, s)
            else:
                run.append(s)
        if run:
            prog.add(Run(tuple(run)))

    def site(self, label: str, names, is_card, span, menu=False, is_zone=(), reads=()) -> DecisionSite:
        site = DecisionSite(len(self.sites), label, tuple(names), tuple(is_card), span, menu, tuple(is_zone),
                            tuple(reads))
        self.sites.append(site)
        return site

    def lower(self, prog: Lowered, s: ir.Stmt) -> None:
        """A statement that may stop play (`_Suspends`) as flow items."""
        dispatch(self, "lower", s, prog)

    def lower_decide(self, s: Decide, prog: Lowered) -> None:
        reads = () if s.labelled is None else sorted(free_locals(s.labelled, {}) - set(s.binder.names))
        site = self.site(s.label, s.binder.names, card_flags(s.binder), s.span, is_zone=zone_flags(s.binder),
                         reads=reads)
        if s.labelled is not None:
            self.labels[site.index] = s.labelled
        prog.add(Ask(s.role, site, s.options))
        self.block(prog, s.body)

    def lower_takefrom(self, s: TakeFrom, prog: Lowered) -> None:
        prog.add(Draw(s) if self.chance and draws(s) else Take(s))
        self.block(prog, s.body)

    def lower_roll(self, s: ir.Roll | ir.Shuffle, prog: Lowered) -> None:
        prog.add(Draw(s))

    lower_shuffle = lower_roll

    def lower_menu(self, s: ir.Menu, prog: Lowered) -> None:
        end = Label()
        choices = tuple(MenuChoice(o.name, o.guard, Label()) for o in s.options)
        prog.add(AskMenu(s.role, self.site(s.label, (), (), s.span, menu=True), choices))
        for choice, option in zip(choices, s.options):
            prog.here(choice.to)
            self.block(prog, option.body)
            prog.add(Jump(end))
        prog.here(end)

    def lower_if(self, s: ir.If, prog: Lowered) -> None:
        end = Label()
        for cond, body in s.branches:
            skip = Label()
            prog.add(Branch(cond, True, skip))
            self.block(prog, body)
            prog.add(Jump(end))
            prog.here(skip)
        if s.otherwise is not None:
            self.block(prog, s.otherwise)
        prog.here(end)

    def lower_while(self, s: ir.While, prog: Lowered) -> None:
        top, end = Label(), Label()
        prog.here(top)
        prog.add(Branch(s.cond, not s.until, end))
        self.block(prog, s.body)
        prog.add(Jump(top, s.span))
        prog.here(end)

    def lower_repeat(self, s: ir.Repeat | ir.For, prog: Lowered) -> None:
        rows, index = self.temp("rows"), self.temp("i")
        if isinstance(s, ir.Repeat):
            names, start = (), LoopStart(rows, index, s.count, None, s.span)
        else:
            names, start = s.binder.names, LoopStart(rows, index, None, s.binder, s.span)
            self.row_flags[rows] = card_flags(s.binder)
        prog.add(start)
        top, end = Label(), Label()
        prog.here(top)
        prog.add(LoopNext(rows, index, names, end))
        self.block(prog, s.body)
        prog.add(Jump(top))  # its passes were counted at its start
        prog.here(end)

    lower_for = lower_repeat

    def lower_callproc(self, s: ir.CallProc, prog: Lowered) -> None:
        params = [p for p, _ in self.rs.procedures[s.name].params]
        self.called.append(s.name)
        prog.add(Enter("proc:" + s.name, tuple(zip(params, s.args))))



def labels_of(item) -> list[Label]:
    """The places an item may continue at, besides the next item."""
    if isinstance(item, AskMenu):
        return [c.to for c in item.choices]
    if isinstance(item, NextTurn):
        return [item.turn, item.done]
    to = getattr(item, "to", None) or getattr(item, "otherwise", None) or getattr(item, "end", None)
    return [to] if isinstance(to, Label) else []


def _turn_var(name: str, ty) -> ir.Var:
    """One of the slots a mode of turns keeps (layout.TURN_VARS)."""
    return ir.Var(name, ty=ty)
