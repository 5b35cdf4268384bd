"""Decision-free statements -> Python statements.

Statements write lines into the body of the function being generated, at
an indentation; their locals live in `env`, so that they outlive a decision
that may follow. A move is four list operations; after each statement that
changes the game come, when asked for, the invariant check and the check of
the mode's `watch:` conditions. Rolls, random picks and shuffles draw from
the state's RNG right here (unless the rules stop for chance: blocks.py),
and each roll and pick is remembered in `st.events`, at a `ChanceSite`
made for it.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import INT, CardT, ListT, ZoneT
from rulelang.walk import method, walk

from ..runtime.chance import ChanceSite
from .always_cards import locals_always_cards
from .binders import Binders
from .flow import card_flags
from .nodes import HoistLet, Options, TakeFrom
from .prelude import FREE_BINDINGS
from .source import Function


def _changes_the_game(s: ir.Stmt, watched: frozenset[str] | None) -> bool:
    """A statement after which `watch:` conditions are checked (the others
    change nothing a condition can see, or are made of these). `watched`: the
    variables the conditions read when that is all they read (see _watched)."""
    if isinstance(s, (ir.Assign, ir.Roll)) and isinstance(s.target, ir.Var):
        if s.target.name.startswith("$"):  # the engine's own (rule coverage's counters): no rule reads it
            return False
        return watched is None or s.target.name in watched
    return watched is None and isinstance(s, (ir.Move, ir.Draw, ir.Shuffle, ir.Flip)) or isinstance(s, ir.Eliminate)


# what a watch's condition may be made of to be known to read nothing but game variables
_PLAIN = (ir.Const, ir.Var, ir.Param, ir.EnumValue, ir.RoleRef, ir.Unary, ir.Binary, ir.IfExpr)


def _watched(watches) -> frozenset[str] | None:
    """The game variables the watches' conditions read, if they read nothing else (no card,
    zone, card state or define): then only a change to one of them can set a watch off, and
    the check follows only those (`active != none and health of active == 0` is not asked
    after every move). None when a condition reads more: the check follows every change."""
    names = set()
    for w in watches:
        for n in walk(w.when):
            if not isinstance(n, _PLAIN):
                return None
            if isinstance(n, ir.Var):
                names.add(n.name)
    return frozenset(names)


def _grows(e: ir.Expr) -> bool:
    """Whether a number's value may be larger than any value already kept: made with
    `+`, `-`, `*` or `sum`, or read from a local or a define (whose values are not
    checked when they are made). Only numbers: `/`, `%`, `min`, `abs`, counts and
    comparisons make nothing larger."""
    if e.ty != INT:
        return False
    for n in walk(e):
        if isinstance(n, ir.Binary) and n.op in ("+", "-", "*") and n.ty == INT or \
                isinstance(n, ir.Quantified) and n.kind == "sum" or \
                isinstance(n, ir.BuiltinCall) and n.name == "sum" or \
                isinstance(n, ir.Local) and n.ty == INT or isinstance(n, ir.DefineCall):
            return True
    return False


def _rolls_or_picks(program) -> bool:
    """Whether any statement of the program rolls, picks at random, reveals or announces: what
    makes a game remember its events (see Game), or more (a procedure never called)."""
    parts = (program.setup, program.steps, tuple(program.procedures.values()), program.watches)
    return any(isinstance(n, (ir.Roll, ir.Reveal, ir.Announce)) or isinstance(n, ir.Take) and n.which == "random"
               for n in walk(parts))


def _written(e: ir.Expr) -> str:
    """How a revealed value is named: its variable's name, or the rules' own words for it."""
    if isinstance(e, (ir.Var, ir.Local)):
        return e.name.replace("_", " ")
    span = e.span
    if span is not None and span.end_line == span.line:
        return span.source.line(span.line)[span.col - 1:span.end_col - 1]
    return "a value"


# what --check-invariants checks after: the statements that touch zones and facings (an assignment
# changes a variable or a card's state, never where a card is; the shapes are checked at decisions)
_EFFECTS = (ir.Move, ir.Draw, ir.Shuffle, ir.Flip)


class Statements(Binders):
    def __init__(self, layout, program, invariants=None, keep: bool = True, options=None):
        super().__init__(layout, keep, options)
        self.program = program
        if program is not None and self.options.cards:
            self.always_cards = locals_always_cards(program, layout.rs)
        self.invariants = invariants  # called after every effect, when the game checks its invariants
        self.watch_check = None  # called after every change to the game, when the mode has watches
        self.watched = _watched(program.watches) if program is not None else None
        self._defines: dict[str, object] = {}
        self._procedures: dict[str, object] = {}
        self.chance_sites: list[ChanceSite] = []  # every roll, random pick and shuffle generated, by index
        # whether a game keeps `st.events` (it does when the rules roll or pick at random): else a
        # decision need not test for it
        self.remembers = program is None or not self.options.idioms or _rolls_or_picks(program)

    def chance_site(self, kind: str, s: ir.Stmt) -> ChanceSite:
        """The site of a statement that draws from the RNG (one per statement generated)."""
        if isinstance(s, ir.Roll):
            extra = {"die": s.die, "faces": self.L.rs.dice[s.die].faces}
        elif isinstance(s, ir.Take):
            extra = {"names": s.binder.names, "is_card": card_flags(s.binder)}
        else:
            extra = {}
        site = ChanceSite(len(self.chance_sites), kind, s.span, **extra)
        self.chance_sites.append(site)
        return site

    def define_function(self, name: str):
        """A define as a function of (st, params): called where it is not written in place (inlined)."""
        if name not in self._defines:
            defines = self.program.defines if self.program is not None else {}
            body = defines[name] if name in defines else self.L.rs.defines[name].body
            self._defines[name] = self.function(body, f"define {name}")
        return self._defines[name]

    def procedure(self, name: str):
        """A decision-free procedure as a function of (st, params) (plain programs call them)."""
        if name not in self._procedures:
            self._procedures[name] = self.statements(self.program.procedures[name], f"procedure {name}")
        return self._procedures[name]

    def function(self, e: ir.Expr, what: str):
        """A function (st, env) -> the value of the expression."""
        def fill(top):
            if isinstance(e, HoistLet):  # at the top, its lazy values live in _f itself
                result = self.hoist_let(e, top, {}, inline=True)
            else:
                result = self.expr(e, top, {})
            top.body.append(f"return {result}")
        return self.build(fill, e.span, what)

    def statements(self, stmts, what: str):
        """A function (st, env) running the statements (none asks a decision)."""
        return self.build(lambda top: self.block(stmts, top, ""), next((s.span for s in stmts), None), what)

    def block(self, stmts, fn: Function, indent: str) -> None:
        if not stmts:
            fn.body.append(indent + "pass")
        for s in stmts:
            start = len(fn.body)
            method(self, "stmt", s)(s, fn, indent)
            self.after(s, fn, indent)
            fn.mark(start, s.span)

    def after(self, s: ir.Stmt, fn: Function, indent: str) -> None:
        """What follows a statement, when asked for: the invariant check, the watches."""
        if self.invariants is not None and isinstance(s, _EFFECTS):
            self.emit(fn, indent, f"{self.const(self.invariants)}(st, {self.const(s.span)})")
        if self.watch_check is not None and _changes_the_game(s, self.watched):
            self.emit(fn, indent, f"{self.const(self.watch_check)}(st)")

    def emit(self, fn: Function, indent: str, *lines: str) -> None:
        fn.body += [indent + line for line in lines]

    def destination(self, e: ir.Expr, fn: Function, indent: str) -> tuple[str, str]:
        """(zone index, face-up flag) of a move's destination, as Python."""
        if isinstance(e, ir.ZoneRef) and e.owner is None:
            zi = self.L.zone_base[e.zone]
            return str(zi), repr(self.L.facing_up[zi])
        d = self.fresh("d")
        self.emit(fn, indent, f"{d} = {self.expr(e, fn, {})}")
        return d, f"{self.const(self.L.facing_up)}[{d}]"

    def move_one(self, fn, indent, card: str, dest: str, up: str, top: bool, taken: bool = False) -> None:
        """Move a card to the top (or bottom) of `dest`; `taken`: it is already off its zone."""
        put = f"zones[{dest}].append({card})" if top else f"zones[{dest}].insert(0, {card})"
        self.emit(fn, indent, *([] if taken else [f"zones[where[{card}]].remove({card})"]), put,
                  f"where[{card}] = {dest}", f"face[{card}] = {self.facing(card, up)}")

    def stmt_move(self, s, fn, indent):
        dest, up = self.destination(s.dest, fn, indent)
        top = s.position in ("top", "right")
        err = self.error(s.span, "there is no card to move (is the zone empty?)")
        c = self.fresh("c")
        if s.every is not None:
            rows = self.fresh("rows")
            self.emit(fn, indent, f"{rows} = {self.inline_call(self.values(s.every, fn), fn, indent)}")
            group = s.every.groups[0]
            if len(s.every.groups) == 1 and isinstance(group.domain.ty, ZoneT) and top and self.options.idioms:
                # all from one zone: filter it once instead of removing card by card
                self.move_many(fn, indent, rows, self.expr(group.domain, fn, {}), dest, up)
            else:
                self.emit(fn, indent, f"for {c} in {rows}:")
                self.move_one(fn, indent + "    ", c, dest, up, top)
            return
        if len(s.cards) == 1 and isinstance(s.cards[0].ty, ZoneT) and top and self.options.idioms:
            cards, src = self.fresh("cards"), self.expr(s.cards[0], fn, {})
            self.emit(fn, indent, f"{cards} = list(zones[{src}])")
            self.move_many(fn, indent, cards, src, dest, up)
            return
        for card in s.cards:
            if isinstance(card, ir.BuiltinCall) and card.name in ("top", "bottom") and isinstance(card.args[0].ty, ZoneT) \
                    and self.options.idioms:
                # the top (or bottom) card of a zone: taken off the end of its list, not searched for
                src = self.fresh("src")
                self.emit(fn, indent, f"{src} = zones[{self.expr(card.args[0], fn, {})}]", f"if not {src}:",
                          f"    _fail({err})", f"{c} = {src}.pop({'' if card.name == 'top' else 0})")
                self.move_one(fn, indent, c, dest, up, top, taken=True)
                continue
            value = self.expr(card, fn, {})
            if isinstance(card.ty, (ZoneT, ListT)):
                source = f"list(zones[{value}])" if isinstance(card.ty, ZoneT) else value
                self.emit(fn, indent, f"for {c} in {source}:")
                inner = indent + "    "
            else:
                self.emit(fn, indent, f"{c} = {value}")
                inner = indent
            if not self.surely_card(card):
                self.emit(fn, inner, f"if {c} is None:", f"    _fail({err})")
            self.move_one(fn, inner, c, dest, up, top)

    def surely_card(self, e: ir.Expr) -> bool:
        """A local of the rules that always holds a card (always_cards.py): no test for none."""
        return isinstance(e, ir.Local) and e.name in self.always_cards

    def facing(self, card: str, up: str) -> str:
        """How a moved card lies: the destination's facing, unless its type lies its own way
        (`facing:` on a card type: a miniature stays face up on a face-down place)."""
        if not any(f is not None for f in self.L.card_facing):
            return up
        own = self.const(self.L.card_facing)
        return f"({up} if {own}[{card}] is None else {own}[{card}])"

    def move_many(self, fn, indent, cards: str, src: str, dest: str, up: str) -> None:
        """Move a list of cards that all lie in zone `src` to the top of `dest`."""
        moved, z = self.fresh("moved"), self.fresh("z")
        self.emit(fn, indent, f"if {cards}:",
                  f"    {z} = zones[{src}]",
                  f"    if len({cards}) == len({z}):",
                  f"        {z}.clear()",
                  "    else:",  # what stays, kept by C (a comprehension is a function made and called)
                  f"        {z}[:] = _filterfalse(set({cards}).__contains__, {z})",
                  f"    zones[{dest}].extend({cards})",
                  f"    for {moved} in {cards}:",
                  f"        where[{moved}] = {dest}",
                  f"        face[{moved}] = {self.facing(moved, up)}")

    def stmt_draw(self, s, fn, indent):
        dest, up = self.destination(s.dest, fn, indent)
        src, c = self.fresh("src"), self.fresh("c")
        self.emit(fn, indent, f"{src} = zones[{self.expr(s.source, fn, {})}]",
                  f"for _ in range({self.expr(s.count, fn, {})}):",
                  f"    if not {src}:", "        break", f"    {c} = {src}.pop()")
        self.move_one(fn, indent + "    ", c, dest, up, s.position in ("top", "right"), taken=True)

    def stmt_shuffle(self, s, fn, indent):
        self.emit(fn, indent, f"st.rng = _shuffle(st.rng, zones[{self.expr(s.zone, fn, {})}])")

    def stmt_flip(self, s, fn, indent):
        c, err = self.fresh("c"), self.error(s.span, "there is no card to flip")
        face = "True" if s.face == "up" else "False" if s.face == "down" else f"not face[{c}]"
        self.emit(fn, indent, f"{c} = {self.expr(s.card, fn, {})}")
        if not self.surely_card(s.card):
            self.emit(fn, indent, f"if {c} is None:", f"    _fail({err})")
        self.emit(fn, indent, f"face[{c}] = {face}")

    def stmt_let(self, s, fn, indent):
        value = self.once(s.value, fn, indent)
        if _grows(s.value):
            value = self.within_bound(value, s.span, fn, indent)
        self.emit(fn, indent, f"env[{self.const(s.name)}] = {value}")

    def stmt_assign(self, s, fn, indent):
        target = self.assignable(s.target, s.span, fn, indent)
        value = self.once(s.value, fn, indent)
        if s.op != "=" or _grows(s.value):  # a number that may have grown is checked before it is kept
            value = self.within_bound(value if s.op == "=" else f"{target} {s.op[0]} {value}", s.span, fn, indent)
            self.emit(fn, indent, self.store(s.target, target, "=", value))
        else:
            self.emit(fn, indent, self.store(s.target, target, s.op, value))

    def within_bound(self, value: str, span, fn: Function, indent: str) -> str:
        """A temporary holding `value`, after lines that stop the game with a located
        error if it has more digits than numbers may have (`--limit number_digits`)."""
        digits = self.L.rs.number_digits
        bound, t = 10 ** digits - 1, self.fresh("n")
        err = self.error(span, f"a number of more than {digits:,} digits: numbers in a game stay within "
                               f"±{bound:,}" if digits <= 30 else f"a number of more than {digits:,} digits")
        hint = self.const("a number that grows without end is a mistake in the rules (a product that multiplies "
                          "itself, a sum that never stops); if the game really needs more, raise the limit with "
                          f"--limit number_digits=N (now {digits:,})")
        self.emit(fn, indent, f"{t} = {value}", f"if not {-bound} <= {t} <= {bound}:", f"    _fail({err}, {hint})")
        return t

    def assignable(self, target: ir.Expr, span, fn: Function, indent: str) -> str:
        """What an assignment (or a roll) changes, as a Python target."""
        if isinstance(target, ir.Field):  # a card's state
            c, err = self.fresh("c"), self.error(span, f"there is no card here to change '{target.name}' on")
            self.emit(fn, indent, f"{c} = {self.expr(target.obj, fn, {})}", f"if {c} is None:", f"    _fail({err})")
            return f"st.props[{self.L.state_slot[target.name]}][{c}]"
        if isinstance(target, ir.Var) and target.owner is not None:
            # the player is found once: `life of left_of(p) -= 1` takes one turn
            slot = self.fresh("slot")
            self.emit(fn, indent, f"{slot} = {self.var_slot(target, fn, {})}")
            return f"st.vars[{slot}]"
        if isinstance(target, ir.Var):
            return f"st.vars[{self.L.var_slot[target.name]}]"
        return f"env[{self.const(target.name)}]"

    def store(self, target: ir.Expr, python: str, op: str, value: str) -> str:
        """`python op value`, kept within a bounded variable's bounds (a change past one stops there)."""
        var = self.L.rs.vars.get(target.name) if isinstance(target, ir.Var) else None
        if var is None or var.low is None and var.high is None:
            return f"{python} {op} {value}"
        new = value if op == "=" else f"{python} {op[0]} {value}"
        return f"{python} = _bounded({new}, {var.low}, {var.high})"

    def stmt_roll(self, s, fn, indent):
        site, faces, t = self.chance_site("roll", s), self.const(self.L.rs.dice[s.die].faces), self.fresh("t")
        draw = f"st.rng, {t} = _below(st.rng, {len(self.L.rs.dice[s.die].faces)})"
        if s.count is None:
            value = self.fresh("v")
            self.emit(fn, indent, draw, f"{value} = {faces}[{t}]")
            rolled = f"({value},)"
        else:
            value, n = self.fresh("v"), self.dice_count(s, fn, indent)
            self.emit(fn, indent, f"{value} = []", f"for _ in range({n}):", "    " + draw,
                      f"    {value}.append({faces}[{t}])")
            rolled = f"tuple({value})"
        target = self.assignable(s.target, s.span, fn, indent)
        self.emit(fn, indent, self.store(s.target, target, "=", value),
                  f"st.events.append(ChanceEvent({self.const(site)}, {rolled}{self.roll_target(s.target, fn)}))")

    def roll_target(self, target: ir.Expr, fn: Function) -> str:
        """What a roll goes into, where not everyone may see it: a variable its owner only (or
        no one) sees, or a card's state (seen by who sees the card); '' for a roll anyone sees."""
        if isinstance(target, ir.Var) and self.L.rs.vars[target.name].seen_by != "all":
            return f", ('var', {self.var_slot(target, fn, {})})"
        if isinstance(target, ir.Field):
            return f", ('card', {self.expr(target.obj, fn, {})})"
        return ""

    def stmt_reveal(self, s, fn, indent):
        """The cards (or value) shown, kept as they are now: a reader told sees them."""
        what, ty = s.what, s.what.ty
        to = self.expr(s.to, fn, {}) if s.to is not None else "None"
        if isinstance(ty, ZoneT):
            z = self.fresh("z")
            self.emit(fn, indent, f"{z} = {self.expr(what, fn, {})}",
                      f"st.events.append(Told('reveal', {to}, ('zone', {z}), tuple(zones[{z}])))")
        elif isinstance(ty, CardT) or isinstance(ty, ListT) and isinstance(ty.item, CardT):
            cards = f"({self.expr(what, fn, {})},)" if isinstance(ty, CardT) else f"tuple({self.expr(what, fn, {})})"
            self.emit(fn, indent, f"st.events.append(Told('reveal', {to}, ('cards',), "
                                  f"tuple(c for c in {cards} if c is not None)))")
        else:
            named = self.const(_written(what))
            if isinstance(what, ir.Var) and what.owner is not None:
                named = f"{named} + ' of ' + _words({self.expr(what.owner, fn, {})})"
            slots = f"({self.var_slot(what, fn, {})},)" if isinstance(what, ir.Var) else "()"
            self.emit(fn, indent, f"st.events.append(Told('reveal', {to}, ('value', {named}), (), "
                                  f"{self.text_of(what, fn, {})}, {slots}))")

    def stmt_announce(self, s, fn, indent):
        to = self.expr(s.to, fn, {}) if s.to is not None else "None"
        self.emit(fn, indent, f"st.events.append(Told('announce', {to}, ('text',), (), {self.expr(s.text, fn, {})}))")

    def dice_count(self, s: ir.Roll, fn: Function, indent: str) -> str:
        """How many dice a roll throws, checked, each a step (a few, known before play, counted
        without a call: steps are the same however the count came to be known)."""
        if isinstance(s.count, ir.Const) and 0 <= s.count.value <= FREE_BINDINGS:
            limit = self.L.step_limit
            self.emit(fn, indent, f"st.steps += {s.count.value}", f"if st.steps > {limit}:",
                      f"    _runaway({self.const(s.span)}, {limit}, 'dice')")
            return str(s.count.value)
        n, err = self.fresh("n"), self.error(s.count.span, "the number of dice must be 0 to 1,000,000")
        self.emit(fn, indent, f"{n} = _dice(st, {self.once(s.count, fn, indent)}, {self.const(s.span)}, "
                              f"{self.L.step_limit}, {err})")
        return n

    def stmt_if(self, s, fn, indent):
        for i, (cond, body) in enumerate(s.branches):
            test = self.once(cond, fn, indent) if i == 0 else self.expr(cond, fn, {})
            self.emit(fn, indent, f"{'if' if i == 0 else 'elif'} {test}:")
            self.block(body, fn, indent + "    ")
        if s.otherwise is not None:
            self.emit(fn, indent, "else:")
            self.block(s.otherwise, fn, indent + "    ")

    def stmt_while(self, s, fn, indent):
        cond = self.expr(s.cond, fn, {})
        limit = self.L.step_limit
        span = self.const(s.span)
        self.emit(fn, indent, f"while {'not ' if s.until else ''}{cond}:", "    st.steps += 1",
                  f"    if st.steps > {limit}:", f"        _runaway({span}, {limit})")
        self.block(s.body, fn, indent + "    ")

    def stmt_repeat(self, s, fn, indent):
        n = self.fresh("n")
        self.emit(fn, indent, f"{n} = {self.expr(s.count, fn, {})}",
                  f"_steps(st, max({n}, 0), {self.const(s.span)}, {self.L.step_limit})", f"for _ in range({n}):")
        self.block(s.body, fn, indent + "    ")

    def stmt_for(self, s, fn, indent):
        names = s.binder.names
        vs, rows = [self.fresh("v") for _ in names], self.fresh("rows")
        self.emit(fn, indent, f"{rows} = {self.once(Options(s.binder, span=s.binder.span), fn, indent)}",
                  f"_steps(st, len({rows}), {self.const(s.span)}, {self.L.step_limit})",
                  f"for ({', '.join(vs)},) in {rows}:")
        for n, v in zip(names, vs):
            self.emit(fn, indent + "    ", f"env[{self.const(n)}] = {v}")
        self.block(s.body, fn, indent + "    ")

    def take(self, s: TakeFrom, fn: Function, indent: str) -> None:
        """Bind the first, last or a random one of a take's options into env."""
        rows = self.take_options(s, fn, indent)
        if s.which == "random":
            i, row = self.fresh("i"), self.fresh("row")
            self.emit(fn, indent, f"st.rng, {i} = _below(st.rng, len({rows}))", f"{row} = {rows}[{i}]")
            self.bind_row(s, row, fn, indent, self.chance_site("pick", s))
        else:
            self.bind_row(s, f"{rows}[{0 if s.which == 'first' else -1}]", fn, indent)

    def take_options(self, s: TakeFrom, fn: Function, indent: str) -> str:
        """A take's options in a fresh Python local; none is an error in the rules."""
        rows = self.fresh("rows")
        err = self.error(s.span, f"take {s.which}: no binding matches")
        hint = self.const("guard it with a condition that checks there is one (`if exists ...:`)")
        self.emit(fn, indent, f"{rows} = {self.once(s.options, fn, indent)}",
                  f"if not {rows}:", f"    _fail({err}, {hint})")
        return rows

    def bind_row(self, s: TakeFrom, row: str, fn: Function, indent: str, site: ChanceSite | None = None) -> None:
        """Bind a take's chosen row; a random one is remembered as a pick at its site."""
        for j, n in enumerate(s.binder.names):
            self.emit(fn, indent, f"env[{self.const(n)}] = {row}[{j}]")
        if site is not None:
            self.emit(fn, indent, f"st.events.append(ChanceEvent({self.const(site)}, tuple({row})))")

    def stmt_takefrom(self, s, fn, indent):
        self.take(s, fn, indent)
        self.block(s.body, fn, indent)

    def stmt_endgame(self, s, fn, indent):
        role = self.expr(s.role, fn, {}) if s.role is not None else "None"
        self.emit(fn, indent, f"_end({self.const(s.kind)}, {role}, {self.const(s.reason)})")

    def stmt_eliminate(self, s, fn, indent):
        """The player's out-slot gets the order of their elimination (a second one changes nothing)."""
        out, n = self.L.out_slot, len(self.L.roles)
        seat = self.fresh("seat")
        self.emit(fn, indent, f"{seat} = {self.seat_index(s.role, fn, {}, s.span)}",
                  f"if not st.vars[{out} + {seat}]:",
                  f"    st.vars[{out} + {seat}] = 1 + max(st.vars[{out}:{out + n}])",
                  f"    st.vars[{self.L.why_slot} + {seat}] = {self.const(s.reason)}")

    def stmt_callproc(self, s, fn, indent):
        proc = self.procedure(s.name)
        params = [p for p, _ in self.L.rs.procedures[s.name].params]
        args = ", ".join(f"{self.const(p)}: {self.expr(a, fn, {})}" for p, a in zip(params, s.args))
        self.emit(fn, indent, f"{self.const(proc)}(st, {{{args}}})")

    def stmt_pass(self, s, fn, indent):
        self.emit(fn, indent, "pass")
