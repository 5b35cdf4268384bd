"""Decision-free statements -> Python statements, as data (pycode.py).

A statement appends its Python statements to `out`, the list of the block of
code being written; the rules' locals live in `env`, so that they outlive a
decision that may follow. A move is four list operations; after each statement
that changes the game come, when asked for, the invariant check and the check
of the mode's `watch:` conditions (`Changes` says which statements those are).
Rolls, random picks and shuffles draw from the state's RNG right here (unless
the rules stop for chance: blocks.py), and each roll and pick is remembered in
`st.events`, at a `ChanceSite` made for it.
"""
from __future__ import annotations

import ast

from rulelang import ir
from rulelang.types import ListT, ZoneT
from rulelang.walk import dispatch, walk

from ..runtime.chance import ChanceSite
from . import pycode as code
from . import tuning
from .context import TOP, Part
from .flow import card_flags
from .nodes import Decide, HoistLet, TakeFrom
from .pycode import STORE
from .unit import Function


_FLOW = "a decision is a flow item (flow.py): it never runs as a statement"
DECLINES = {ir.Choose: _FLOW, ir.Menu: _FLOW, ir.Take: "a take carries its options by now (a TakeFrom)",
            ir.Trigger: "triggers and windows are written out before code is generated (abilities.py)"}


# what a watch's condition may be made of to be known to read nothing but game variables
# a loop's passes counted as steps before it runs them, written out (a call of a helper cost as much)
COUNTED = "st.steps += {}\nif st.steps > LIMIT:\n    _runaway(SPAN, LIMIT)"
_PLAIN = (ir.Const, ir.Var, ir.Param, ir.EnumValue, ir.RoleRef, ir.Unary, ir.Binary, ir.IfExpr)


def watched(watches) -> frozenset[str] | None:
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


class Changes:
    """What a statement changes, for what follows it: (whether it moves or turns cards: the
    invariant check comes after it; what of the game a `watch:` condition could see it change:
    "cards", "players" (in or out of the game), a variable's name, or None). A statement with a
    block changes nothing itself: its own statements are followed by the checks."""
    DECLINES = {**DECLINES, Decide: _FLOW}

    def changes_move(self, s) -> tuple[bool, str | tuple[str, str] | None]:
        return True, "cards"

    changes_draw = changes_swap = changes_shuffle = changes_flip = changes_move

    def changes_eliminate(self, s) -> tuple[bool, str | tuple[str, str] | None]:
        return False, "players"

    def changes_assign(self, s) -> tuple[bool, str | tuple[str, str] | None]:
        # a local is no part of the game; a card's state is not watched; nor the engine's own
        # variables (`$`: rule coverage's counters, the turn order), which no rule reads
        target = s.target
        return False, ("var", target.name) if isinstance(target, ir.Var) and not target.name.startswith("$") else None

    changes_roll = changes_assign

    def changes_nothing(self, s) -> tuple[bool, str | tuple[str, str] | None]:
        return False, None

    changes_reveal = changes_announce = changes_nothing  # (told to players: nothing of the game changes)
    changes_let = changes_if = changes_while = changes_repeat = changes_for = changes_takefrom = changes_endgame = \
        changes_callproc = changes_pass = changes_nothing


class Statements(Part):
    DECLINES = {**DECLINES, Decide: _FLOW}

    def __init__(self, gen):
        super().__init__(gen)
        self.always_cards = gen.always_cards
        self._defines: dict[str, object] = {}
        self._procedures: dict[str, object] = {}
        self._changes = Changes()

    def once(self, e: ir.Expr, fn: Function, out: list) -> ast.expr:
        return self.g.lazy.once(e, fn, out, TOP)

    def chance_site(self, kind: str, s: ir.Stmt) -> ChanceSite:
        """The site of a statement that draws from the RNG (one per statement generated)."""
        if isinstance(s, ir.Roll):
            extra = {"die": s.die, "faces": self.L.rs.dice[s.die].faces}
        elif isinstance(s, ir.Take):
            extra = {"names": s.binder.names, "is_card": card_flags(s.binder)}
        else:
            extra = {}
        site = ChanceSite(len(self.g.chance_sites), kind, s.span, **extra)
        self.g.chance_sites.append(site)
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
        def fill(top: Function):
            if isinstance(e, HoistLet):  # at the top, its lazy values live in _f itself
                result = self.g.lazy.hoist_let(e, top, TOP, inline=True)
            else:
                result = self.expr(e, top, TOP)
            top.body.append(code.note(ast.Return(result), self.g.origin(e.span) if e.span is not None else None))
        return self.g.units.build(fill, e.span, what)

    def statements(self, stmts, what: str):
        """A function (st, env) running the statements (none asks a decision)."""
        return self.g.units.build(lambda top: self.block(stmts, top, top.body), next((s.span for s in stmts), None),
                                  what)

    def block(self, stmts, fn: Function, out: list) -> None:
        for s in stmts:
            self.one(s, fn, out)

    def one(self, s: ir.Stmt, fn: Function, out: list, generate=None) -> None:
        """A statement (written by `generate()` if given), what follows it, its note."""
        start = len(out)
        if generate is None:
            dispatch(self, "stmt", s, fn, out)
        else:
            generate()
        self.after(s, out)
        if start < len(out) and s.span is not None:
            code.note(out[start], self.g.origin(s.span))

    def after(self, s: ir.Stmt, out: list) -> None:
        """What follows a statement, when asked for: the invariant check, the watches."""
        cards, changed = dispatch(self._changes, "changes", s)
        if self.g.invariants is not None and cards:
            out.append(code.stmt("CHECK(st, SPAN)", CHECK=self.const(self.g.invariants), SPAN=self.const(s.span)))
        # the watches are checked after what their conditions may see changed (watched: all they read, if
        # that is only variables)
        seen = self.g.watched
        if self.g.watch_check is not None and changed is not None and \
                (changed == "players" or seen is None or changed != "cards" and changed[1] in seen):
            out.append(code.stmt("CHECK(st)", CHECK=self.const(self.g.watch_check)))

    def destination(self, e: ir.Expr, fn: Function, out: list) -> tuple[ast.expr, ast.expr]:
        """(zone index, face-up flag) of a move's destination, as Python."""
        if isinstance(e, ir.ZoneRef) and e.owner is None:
            zi = self.L.zone_base[e.zone]
            return code.const(zi), code.const(self.L.facing_up[zi])
        d = self.fresh("d")
        out.append(code.assign(d, self.expr(e, fn, TOP)))
        if isinstance(e, ir.ZoneRef) and self.options.idioms:  # every instance of a zone lies as the zone does
            return code.name(d), code.const(self.L.facing_up[self.L.zone_base[e.zone]])
        return code.name(d), code.expr("UP[D]", UP=self.const(self.L.facing_up), D=d)

    def move_one(self, out: list, card, dest, up, top: bool, taken: bool = False, src: ast.expr | None = None) -> None:
        """Move a card to the top (or bottom) of `dest`; `taken`: it is already off its zone (`src`, if known)."""
        if not taken:
            out.append(code.stmt("zones[where[C]].remove(C)", C=card))
        put = "zones[D].append(C)" if top else "zones[D].insert(0, C)"
        out += [code.stmt(put, D=dest, C=card), code.stmt("where[C] = D", C=card, D=dest)]
        facing = self.facing(card, up)
        if not self.lies_as(src, facing):
            out.append(code.stmt("face[C] = UP", C=card, UP=facing))

    def lies_as(self, src: ast.expr | None, facing: ast.expr) -> bool:
        """Whether every card of zone `src` lies as `facing` says already (Codegen.lie_as_zones): a card
        moved from it need not be turned."""
        return self.options.idioms and type(src) is ast.Constant and src.value in self.g.lie_as_zones \
            and type(facing) is ast.Constant and self.L.facing_up[src.value] == facing.value

    def stmt_move(self, s, fn, out):
        if s.every is not None and self.options.fold and self.no_rows(s.every):
            return
        dest, up = self.destination(s.dest, fn, out)
        top = s.position in ("top", "right")
        err = self.error(s.span, "there is no card to move (is the zone empty?)")
        c = self.fresh("c")
        idioms = self.options.idioms
        if s.every is not None:
            rows = self.fresh("rows")
            out.append(code.assign(rows, self.g.lazy.inline_call(self.g.quants.values(s.every, fn, TOP), fn, out)))
            group = s.every.groups[0]
            if len(s.every.groups) == 1 and isinstance(group.domain.ty, ZoneT) and top and idioms:
                # all from one zone: filter it once instead of removing card by card
                self.move_many(out, rows, self.expr(group.domain, fn, TOP), dest, up)
            else:
                loop = ast.For(ast.Name(c, STORE), code.name(rows), [], [], None)
                out.append(loop)
                self.move_one(loop.body, c, dest, up, top)
            return
        if len(s.cards) == 1 and isinstance(s.cards[0].ty, ZoneT) and top and idioms:
            cards, src = self.fresh("cards"), self.expr(s.cards[0], fn, TOP)
            out.append(code.assign(cards, code.expr("list(zones[Z])", Z=src)))
            self.move_many(out, cards, src, dest, up, whole=True)
            return
        for card in s.cards:
            if isinstance(card, ir.BuiltinCall) and card.name in ("top", "bottom") and isinstance(card.args[0].ty, ZoneT) \
                    and idioms:
                # the top (or bottom) card of a zone: taken off the end of its list, not searched for
                src, zone = self.fresh("src"), self.expr(card.args[0], fn, TOP)
                pop = "C = SRC.pop()" if card.name == "top" else "C = SRC.pop(0)"
                out += code.stmts(f"SRC = zones[Z]\nif not SRC:\n    _fail(ERR)\n{pop}", SRC=src, C=c, ERR=err, Z=zone)
                self.move_one(out, c, dest, up, top, taken=True, src=zone)
                continue
            value = self.expr(card, fn, TOP)
            inner = out
            if isinstance(card.ty, (ZoneT, ListT)):
                source = code.expr("list(zones[Z])", Z=value) if isinstance(card.ty, ZoneT) else value
                loop = ast.For(ast.Name(c, STORE), source, [], [], None)
                out.append(loop)
                inner = loop.body
            else:
                out.append(code.assign(c, value))
            if not self.surely_card(card):
                inner += code.stmts("if C is None:\n    _fail(ERR)", C=c, ERR=err)
            self.move_one(inner, c, dest, up, top)

    def no_rows(self, b: ir.Binder) -> bool:
        """Whether a binder's `where` folded to false (`c is action` of a zone that holds none) over
        domains that go through their items at no cost and cannot fail: there is nothing to go through."""
        return isinstance(b.where, ir.Const) and not b.where.value and \
            all(isinstance(g.domain, ir.ZoneRef) and g.domain.owner is None and self.g.binders.uncounted(g.domain, TOP)
                for g in b.groups)

    def surely_card(self, e: ir.Expr) -> bool:
        """A local of the rules that always holds a card (always_cards.py): no test for none."""
        return isinstance(e, ir.Local) and e.name in self.always_cards

    def facing(self, card, up: ast.expr) -> ast.expr:
        """How a moved card lies: the destination's facing, unless its type lies its own way
        (`facing:` on a card type: a miniature stays face up on a face-down place)."""
        if not any(f is not None for f in self.L.card_facing):
            return up
        return code.expr("UP if OWN[C] is None else OWN[C]", UP=up, OWN=self.const(self.L.card_facing), C=card)

    def move_many(self, out: list, cards: str, src: ast.expr, dest: ast.expr, up: ast.expr, whole: bool = False) -> None:
        """Move a list of cards that all lie in zone `src` to the top of `dest` (`whole`: every card it holds)."""
        moved, z = self.fresh("moved"), self.fresh("z")
        facing = self.facing(moved, up)
        turned = "" if self.lies_as(src, facing) else "\n        face[MOVED] = FACING"  # (else: not turned)
        if whole:
            out += code.stmts("if CARDS:\n"
                              "    zones[SRC].clear()\n"
                              "    zones[DEST].extend(CARDS)\n"
                              "    for MOVED in CARDS:\n"
                              "        where[MOVED] = DEST" + turned, CARDS=cards, SRC=src, DEST=dest, MOVED=moved,
                              FACING=facing)
            return
        # what stays is kept by C (a comprehension is a function made and called)
        out += code.stmts("if CARDS:\n"
                          "    Z = zones[SRC]\n"
                          "    if len(CARDS) == len(Z):\n"
                          "        Z.clear()\n"
                          "    else:\n"
                          "        Z[:] = _filterfalse(set(CARDS).__contains__, Z)\n"
                          "    zones[DEST].extend(CARDS)\n"
                          "    for MOVED in CARDS:\n"
                          "        where[MOVED] = DEST" + turned, CARDS=cards, Z=z, SRC=src, DEST=dest, MOVED=moved,
                          FACING=facing)

    def stmt_draw(self, s, fn, out):
        dest, up = self.destination(s.dest, fn, out)
        src, c, zone = self.fresh("src"), self.fresh("c"), self.expr(s.source, fn, TOP)
        out.append(code.assign(src, code.expr("zones[Z]", Z=zone)))
        if isinstance(s.count, ir.Const) and s.count.value == 1 and self.options.idioms:  # one card: no loop
            loop = code.stmt("if SRC:\n    C = SRC.pop()", SRC=src, C=c)
        else:
            loop = code.stmt("for _ in range(N):\n    if not SRC:\n        break\n    C = SRC.pop()",
                             N=self.expr(s.count, fn, TOP), SRC=src, C=c)
        out.append(loop)
        self.move_one(loop.body, c, dest, up, s.position in ("top", "right"), taken=True, src=zone)

    def stmt_swap(self, s, fn, out):
        first, second = self.expr(s.first, fn, TOP), self.expr(s.second, fn, TOP)
        a, b, up = self.fresh("a"), self.fresh("b"), self.const(self.L.facing_up)
        if isinstance(s.first.ty, ZoneT):
            # two zones exchange their cards, each in its order (the lists stay the zones' own); each card
            # lies as its new zone's do
            z, c = self.fresh("z"), self.fresh("c")
            out += code.stmts("A, B = FIRST, SECOND\n"
                              "if A != B:\n"
                              "    zones[A][:], zones[B][:] = zones[B][:], zones[A][:]\n"
                              "    for Z in (A, B):\n"
                              "        for C in zones[Z]:\n"
                              "            where[C] = Z\n"
                              "            face[C] = FACING",
                              A=a, B=b, Z=z, C=c, FIRST=first, SECOND=second,
                              FACING=self.facing(c, code.expr("UP[Z]", UP=up, Z=z)))
            return
        # two cards change places: each where the other lay, at its place in that zone
        za, zb, ia, ib = self.fresh("za"), self.fresh("zb"), self.fresh("ia"), self.fresh("ib")
        out += code.stmts("A, B = FIRST, SECOND\n"
                          "if A is None or B is None:\n"
                          "    _fail(ERR)\n"
                          "ZA, ZB = where[A], where[B]\n"
                          "IA, IB = zones[ZA].index(A), zones[ZB].index(B)\n"
                          "zones[ZA][IA], zones[ZB][IB] = B, A\n"
                          "where[A], where[B] = ZB, ZA\n"
                          "face[A] = FACE_A\n"
                          "face[B] = FACE_B",
                          A=a, B=b, ZA=za, ZB=zb, IA=ia, IB=ib, FIRST=first, SECOND=second,
                          ERR=self.error(s.span, "there is no card to swap"),
                          FACE_A=self.facing(a, code.expr("UP[ZB]", UP=up, ZB=zb)),
                          FACE_B=self.facing(b, code.expr("UP[ZA]", UP=up, ZA=za)))

    def stmt_shuffle(self, s, fn, out):
        out.append(code.stmt("st.rng = _shuffle(st.rng, zones[Z])", Z=self.expr(s.zone, fn, TOP)))

    def stmt_flip(self, s, fn, out):
        c, err = self.fresh("c"), self.error(s.span, "there is no card to flip")
        face = code.const(True) if s.face == "up" else code.const(False) if s.face == "down" else \
            code.expr("not face[C]", C=c)
        out.append(code.assign(c, self.expr(s.card, fn, TOP)))
        if not self.surely_card(s.card):
            out += code.stmts("if C is None:\n    _fail(ERR)", C=c, ERR=err)
        out.append(code.stmt("face[C] = FACE", C=c, FACE=face))

    def stmt_let(self, s, fn, out):
        value = self.once(s.value, fn, out)
        if self.g.numbers.may_grow(s.value):
            value = self.g.numbers.within_bound(value, s.span, out)
        out.append(code.assign(self.local(s.name, STORE), value))

    def stmt_assign(self, s, fn, out):
        target = self.assignable(s.target, s.span, fn, out)
        self.g.numbers.assign(s, target, self.once(s.value, fn, out), out)

    def assignable(self, target: ir.Expr, span, fn: Function, out: list) -> ast.expr:
        """What an assignment (or a roll) changes, as a Python target (to be read or stored to)."""
        if isinstance(target, ir.Field):  # a card's state
            c, err = self.fresh("c"), self.error(span, f"there is no card here to change '{target.name}' on")
            out.append(code.assign(c, self.expr(target.obj, fn, TOP)))
            if not self.surely_card(target.obj):
                out += code.stmts("if C is None:\n    _fail(ERR)", C=c, ERR=err)
            return code.expr("st.props[SLOT][C]", SLOT=self.L.state_slot[target.name], C=c)
        if isinstance(target, ir.Var) and target.owner is not None:
            # the player is found once: `life of left_of(p) -= 1` takes one turn
            slot = self.fresh("slot")
            out.append(code.assign(slot, self.g.exprs.var_slot(target, fn, TOP)))
            return code.expr("st.vars[SLOT]", SLOT=slot)
        if isinstance(target, ir.Var):
            return code.expr("st.vars[SLOT]", SLOT=self.L.var_slot[target.name])
        return self.local(target.name)

    def stmt_roll(self, s, fn, out):
        site, faces, t = self.chance_site("roll", s), self.const(self.L.rs.dice[s.die].faces), self.fresh("t")
        count = len(self.L.rs.dice[s.die].faces)
        value = self.fresh("v")
        if s.count is None:
            out += code.stmts("st.rng, T = _below(st.rng, COUNT)\nV = FACES[T]", T=t, COUNT=count, V=value, FACES=faces)
            rolled = code.tuple_of([value])
        else:
            n = self.dice_count(s, fn, out)
            out += code.stmts("V = []\nfor _ in range(N):\n    st.rng, T = _below(st.rng, COUNT)\n    V.append(FACES[T])",
                              V=value, N=n, T=t, COUNT=count, FACES=faces)
            rolled = code.call("tuple", value)
        target = self.assignable(s.target, s.span, fn, out)
        self.g.numbers.store(s.target, target, "=", code.name(value), out)
        out.append(code.stmt("st.events.append(EVENT)", EVENT=self.chance_event(site, rolled, s.target, fn)))

    def chance_event(self, site, rolled: ast.expr, target: ir.Expr, fn: Function) -> ast.expr:
        """What a game remembers of a roll: its faces, and where they went if not everyone sees it."""
        return code.call("ChanceEvent", self.const(site), rolled, *self.g.telling.roll_target(target, fn))

    def stmt_reveal(self, s, fn, out):
        self.g.telling.reveal(s, fn, out)

    def stmt_announce(self, s, fn, out):
        self.g.telling.announce(s, fn, out)

    def dice_count(self, s: ir.Roll, fn: Function, out: list) -> ast.expr:
        """How many dice a roll throws, checked, each a step (a few, known before play, counted
        without a call: steps are the same however the count came to be known)."""
        if isinstance(s.count, ir.Const) and 0 <= s.count.value <= tuning.FREE_BINDINGS:
            out += code.stmts("st.steps += N\nif st.steps > LIMIT:\n    _runaway(SPAN, LIMIT, 'dice')", N=s.count.value,
                              LIMIT=self.L.step_limit, SPAN=self.const(s.span))
            return code.const(s.count.value)
        count = s.count
        assert count is not None  # (asked only of a roll of several dice)
        n, err = self.fresh("n"), self.error(count.span, "the number of dice must be 0 to 1,000,000")
        out.append(code.assign(n, code.call("_dice", "st", self.once(count, fn, out), self.const(s.span),
                                            self.L.step_limit, err)))
        return code.name(n)

    def stmt_if(self, s, fn, out):
        chain = []
        for i, (cond, body) in enumerate(s.branches):
            test = self.once(cond, fn, out) if i == 0 else self.expr(cond, fn, TOP)
            stmts: list = []
            self.block(body, fn, stmts)
            chain.append((test, stmts))
        otherwise: list = []
        if s.otherwise is not None:
            self.block(s.otherwise, fn, otherwise)
        for test, stmts in reversed(chain):
            otherwise = [ast.If(test, stmts, otherwise)]
        out += otherwise

    def stmt_while(self, s, fn, out):
        self.g.loops.while_(s, fn, out)

    def stmt_repeat(self, s, fn, out):
        self.g.loops.repeat(s, fn, out)

    def stmt_for(self, s, fn, out):
        self.g.loops.for_(s, fn, out)

    def take(self, s: TakeFrom, fn: Function, out: list) -> None:
        """Bind the first, last or a random one of a take's options into env."""
        rows = self.take_options(s, fn, out)
        if s.which == "random":
            i, row = self.fresh("i"), self.fresh("row")
            out += code.stmts("st.rng, I = _below(st.rng, len(ROWS))\nROW = ROWS[I]", I=i, ROWS=rows, ROW=row)
            self.bind_row(s, code.name(row), out, self.chance_site("pick", s))
        else:
            self.bind_row(s, code.expr("ROWS[END]", ROWS=rows, END=0 if s.which == "first" else -1), out)

    def take_options(self, s: TakeFrom, fn: Function, out: list) -> str:
        """A take's options in a fresh Python local; none is an error in the rules."""
        rows = self.fresh("rows")
        err = self.error(s.span, f"take {s.which}: no binding matches")
        hint = self.const("guard it with a condition that checks there is one (`if exists ...:`)")
        value = self.once(s.options, fn, out)
        out += code.stmts("ROWS = VALUE\nif not ROWS:\n    _fail(ERR, HINT)", ROWS=rows, VALUE=value, ERR=err, HINT=hint)
        return rows

    def bind_row(self, s: TakeFrom, row: ast.expr, out: list, site: ChanceSite | None = None) -> None:
        """Bind a take's chosen row; a random one is remembered as a pick at its site."""
        for j, n in enumerate(s.binder.names):
            out.append(code.assign(self.local(n, STORE), code.expr("ROW[J]", ROW=row, J=j)))
        if site is not None:
            out.append(code.stmt("st.events.append(ChanceEvent(SITE, tuple(ROW)))", SITE=self.const(site), ROW=row))

    def stmt_takefrom(self, s, fn, out):
        self.take(s, fn, out)
        self.block(s.body, fn, out)

    def stmt_endgame(self, s, fn, out):
        role = self.expr(s.role, fn, TOP) if s.role is not None else code.const(None)
        out.append(code.stmt("_end(KIND, ROLE, REASON)", KIND=self.const(s.kind), ROLE=role, REASON=self.const(s.reason)))

    def stmt_eliminate(self, s, fn, out):
        """The player's out-slot gets the order of their elimination (a second one changes nothing)."""
        n = len(self.L.roles)
        seat = self.fresh("seat")
        out += code.stmts("SEAT = SEAT_OF\n"
                          "if not st.vars[OUT + SEAT]:\n"
                          "    st.vars[OUT + SEAT] = 1 + max(st.vars[OUT:END])\n"
                          "    st.vars[WHY + SEAT] = REASON", SEAT=seat, OUT=self.L.out_slot, END=self.L.out_slot + n,
                          WHY=self.L.why_slot, REASON=self.const(s.reason),
                          SEAT_OF=self.g.exprs.seat_index(s.role, fn, TOP, s.span))

    def stmt_callproc(self, s, fn, out):
        proc = self.procedure(s.name)
        params = [p for p, _ in self.L.rs.procedures[s.name].params]
        args = ast.Dict([self.const(p) for p in params], [self.expr(a, fn, TOP) for a in s.args])
        out.append(ast.Expr(code.call(self.const(proc), "st", args)))

    def stmt_pass(self, s, fn, out):
        out.append(ast.Pass())


