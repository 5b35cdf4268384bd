"""Expressions -> Python expression text.

`expr(e, fn, scope)` returns the text of a Python expression computing `e`
inside the function `fn` being generated; `scope` maps the names bound by
enclosing binders to Python locals (other locals live in `env`, the frame's
dict, so they outlive a decision). Constants that come from the ruleset go
through the constants table (`self.const`), never into the text.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import BoardT, ListT, ZoneT
from rulelang.walk import method

from .hoist import near_space, surely_computed_first
from .nodes import Hoisted, HoistLet
from .options import ALL, CompileOptions
from .prelude import MAX_LIST
from .source import Function, Source
from .lists import Lists
from .texts import Texts


class Expressions(Lists, Texts, Source):
    SPACES_WRITTEN_OUT = 256  # a board of more spaces is listed by chaining them (its code stays short)
    always_cards: frozenset[str] = frozenset()  # locals of the rules that never hold none (always_cards.py)

    def __init__(self, layout, keep: bool = True, options: CompileOptions = ALL):
        super().__init__(f"{layout.rs.name}/{layout.mode.name}", keep, options.lift)
        self.options = options
        self.L = layout
        self._lazy: dict = {}  # (hoisted name, function) -> its value's code there
        self._lazy_host = None  # (quantifier, lazy values) the quantifier's function is to hold
        self._known: dict[str, str] = {}  # lazy values computed before the loops being generated: their locals
        self._unset: dict[str, Function] = {}  # lazy values surely still UNSET where fn's next line runs -> fn
        self._entry = None  # the expression once() is generating (its lazy values are UNSET where it starts)
        self._last_made = None  # the quantifier function made last: (it, host, its lines in the host's prelude)
        self._near: dict[tuple[str, int, int], list] = {}  # near_table's tables
        self.on_grid: dict[str, str] = {}  # python variables bound to the cards of a board whose every space
        # is a grid's -> that board

    # scope: IR local name -> (python variable, never None)
    def expr(self, e: ir.Expr, fn: Function, scope: dict) -> str:
        return method(self, "expr", e)(e, fn, scope)

    def expr_const(self, e, fn, scope):
        v = e.value
        if v is None or isinstance(v, bool) or (isinstance(v, int) and -10**9 < v < 10**9):
            return repr(v)
        return self.const(v)

    def expr_local(self, e, fn, scope):
        if e.name in scope:
            return scope[e.name][0]
        return f"env[{self.const(e.name)}]"

    def expr_var(self, e, fn, scope):
        return f"st.vars[{self.var_slot(e, fn, scope)}]"

    def var_slot(self, e: ir.Var, fn, scope) -> str:
        """The slot of a variable; of a player's own variable, the slot for that player."""
        first = self.L.var_slot[e.name]
        return str(first) if e.owner is None else f"{first} + {self.seat_index(e.owner, fn, scope, e.span)}"

    def seat_index(self, owner: ir.Expr, fn, scope, span) -> str:
        """A player's index in seat order (its zones' and variables' offset); none is a rule error."""
        if isinstance(owner, ir.RoleRef):
            return str(self.L.role_index[owner.role])
        t, err = self.fresh("t"), self.error(span, "there is no player here (it is none)")
        return f"({self.const(self.L.role_index)}[{t}] if ({t} := {self.expr(owner, fn, scope)}) is not None " \
               f"else _fail({err}))"

    def expr_param(self, e, fn, scope):
        return self.const(self.L.rs.param_values[e.name])

    def expr_enumvalue(self, e, fn, scope):
        return self.const(e.value)

    def expr_roleref(self, e, fn, scope):
        return self.const(e.role)

    def expr_zoneref(self, e, fn, scope):
        base = self.L.zone_base[e.zone]
        if e.owner is None:
            return str(base)
        return f"({base} + {self.seat_index(e.owner, fn, scope, e.span)})"

    def cards_of(self, e: ir.Expr, fn, scope) -> str:
        """A zone, board or list expression as a Python list."""
        if isinstance(e.ty, BoardT):  # every space, bottom row first, left to right
            base, n = self.L.board_range(e.zone)
            few = self.few_on_board(e.zone, n) if self.options.boards else None
            if few is not None:  # a board of many spaces that few cards can reach: find those
                return f"_on_board(st, {self.const(few)}, {base}, {base + n})"
            if n > self.SPACES_WRITTEN_OUT or not self.options.idioms:
                return f"list(_chain(zones[{base}:{base + n}]))"
            # each space's cards put in one list in turn: twice as quick as chaining the spaces
            # (an iterator made for each), the same order
            return "[" + ", ".join(f"*zones[{z}]" for z in range(base, base + n)) + "]"
        if isinstance(e.ty, ZoneT):
            return f"zones[{self.expr(e, fn, scope)}]"
        return self.expr(e, fn, scope)

    def few_on_board(self, board: str, spaces: int) -> list[int] | None:
        """The cards that can ever be on a board, when the zone analysis says
        they are few beside its spaces (a track of 72 spaces and 4 cubes);
        None when looking at every space is as quick."""
        cards = self.board_candidates(board)
        return cards if cards is not None and len(cards) * 4 <= spaces else None

    def board_candidates(self, board: str, kind: str | None = None) -> list[int] | None:
        """The cards that can ever be on a board (of one type, if given), by the zone analysis;
        None when the rules were not analysed."""
        program = getattr(self, "program", None)
        possible = program.possible if program is not None else None
        if possible is None:
            return None
        kinds = possible.get(board, frozenset())
        return [c for c, k in enumerate(self.L.kind_of) if k in kinds and (kind is None or k == kind)]

    def card(self, e: ir.Expr, fn, scope) -> tuple[str, str | None]:
        """(expression, temp) where temp, if not None, must be checked for None."""
        if isinstance(e, ir.Local) and (scope[e.name][1] if e.name in scope else e.name in self.always_cards):
            return self.expr(e, fn, scope), None
        t = self.fresh("t")
        return f"({t} := {self.expr(e, fn, scope)})", t

    def expr_field(self, e, fn, scope):
        if isinstance(e.obj.ty, ZoneT):  # a space's mark, by zone instance
            return f"{self.const(self.L.marks[e.name])}[{self.expr(e.obj, fn, scope)}]"
        if e.name in self.L.state_slot:  # a state value changes in play: read it from the state
            col = f"st.props[{self.L.state_slot[e.name]}]"
        else:
            col = self.const(self.L.columns.get(e.name, []))
        value, check = self.card(e.obj, fn, scope)
        if check is None:
            return f"{col}[{value}]"
        err = self.error(e.span, f"there is no card here to read '{e.name}' from")
        return f"({col}[{check}] if {value} is not None else _fail({err}))"

    def expr_definecall(self, e, fn, scope):
        define = self.define_function(e.name)
        params = [p for p, _ in self.L.rs.defines[e.name].params]
        args = ", ".join(f"{self.const(p)}: {self.expr(a, fn, scope)}" for p, a in zip(params, e.args))
        return f"{self.const(define)}(st, {{{args}}})"

    def expr_builtincall(self, e, fn, scope):
        return getattr(self, "builtin_" + e.name)(e, fn, scope)  # one per entry of rulelang.builtins

    def builtin_round(self, e, fn, scope):
        return "st.round"

    def builtin_size(self, e, fn, scope):
        return f"len({self.cards_of(e.args[0], fn, scope)})"

    def builtin_empty(self, e, fn, scope):
        return f"(not {self.cards_of(e.args[0], fn, scope)})"

    def builtin_top(self, e, fn, scope):
        t = self.fresh("t")
        end = -1 if e.name == "top" else 0
        return f"({t}[{end}] if ({t} := {self.cards_of(e.args[0], fn, scope)}) else None)"

    builtin_bottom = builtin_top

    def builtin_abs(self, e, fn, scope):
        return f"abs({self.expr(e.args[0], fn, scope)})"

    def builtin_min(self, e, fn, scope):
        parts = [self.expr(a, fn, scope) for a in e.args]
        if len(parts) > 1:
            return f"{e.name}({', '.join(parts)})"
        if e.name in ("min", "max"):
            return f"_reduce({e.name}, {parts[0]}, {self.error(e.span, f'{e.name}() of an empty list')})"
        return f"{e.name}({parts[0]})"

    builtin_max = builtin_sum = builtin_any = builtin_all = builtin_min

    def builtin_face_up(self, e, fn, scope):
        value, check = self.card(e.args[0], fn, scope)
        face = f"face[{check or value}]"
        face = face if e.name == "face_up" else f"(not {face})"
        if check is None:
            return face
        err = self.error(e.span, "there is no card here to look at")
        return f"({face} if {value} is not None else _fail({err}))"

    builtin_face_down = builtin_face_up

    def builtin_column(self, e, fn, scope):
        """Where a card is: its space's coordinates; or a grid space's own."""
        name, args = e.name, e.args
        table = self.const(self.L.column_of if name == "column" else self.L.row_of)
        if isinstance(args[0].ty, ZoneT):  # a space (a zone instance): always on its board
            return f"{table}[{self.expr(args[0], fn, scope)}]"
        value, check = self.card(args[0], fn, scope)
        if check is None and value in self.on_grid:  # a card of a grid board's: on one of its spaces
            return f"{table}[where[{value}]]"
        t, err = self.fresh("t"), self.error(e.span, f"{name}(): the card is not on a board")
        where = f"where[{check or value}]"
        found = f"(({t} := {table}[{where}]) is not None)"
        if check is not None:
            found = f"({value} is not None and {found})"
        return f"({t} if {found} else _fail({err}))"

    builtin_row = builtin_column

    def builtin_columns(self, e, fn, scope):
        zone = self.L.rs.zones[e.args[0].zone]
        return str(zone.columns if e.name == "columns" else zone.rows)

    builtin_rows = builtin_columns

    def builtin_space(self, e, fn, scope):
        zone, args = self.L.rs.zones[e.args[0].zone], e.args
        base = self.L.zone_base[zone.name]
        x, y = self.fresh("x"), self.fresh("y")
        err = self.error(e.span, f"space(): {zone.name} has columns 1..{zone.columns} and rows 1..{zone.rows}")
        near = self.near_card(zone, args[1], args[2]) if self.options.boards else None
        fast = None
        if near is not None:  # space(B, column(c) + dx, row(c) + dy): from c's own space, when c is on B
            card, dx, dy = near
            value, check = self.card(card, fn, scope)
            sure = check is None and self.on_grid.get(value) == zone.name  # bound from B: on one of its spaces
            if sure and dx == dy == 0:
                return f"where[{value}]"
            t = self.fresh("t")
            fast = f"({t} := {self.const(self.near_table(zone, dx, dy))}[where[{check or value}]]) is not None"
            if check is not None:
                fast = f"{value} is not None and {fast}"
            if sure:  # on B, so off B's edge
                return f"({t} if {fast} else _fail({err}))"
        found = (f"({base} + ({y} - 1) * {zone.columns} + {x} - 1 "
                 f"if 1 <= ({x} := {self.expr(args[1], fn, scope)}) <= {zone.columns} "
                 f"and 1 <= ({y} := {self.expr(args[2], fn, scope)}) <= {zone.rows} else _fail({err}))")
        if fast is not None:  # elsewhere, or off B: as written, for the same value or error
            return f"({t} if {fast} else {found})"
        if not zone.gaps:
            return found
        t, gap = self.fresh("t"), self.error(e.span, f"space(): {zone.name}'s map has no space there (a gap)")
        return f"({t} if not {self.const(self.L.gap)}[({t} := {found})] else _fail({gap}))"

    def near_table(self, zone, dx: int, dy: int) -> list:
        """For each zone instance, the space of grid `zone` dx columns and dy rows from it when
        the instance is one of the grid's spaces and that space is on the grid; else None.
        One list per offset, so the constants table holds it once."""
        key = (zone.name, dx, dy)
        if key not in self._near:
            base, n = self.L.board_range(zone.name)
            table = [None] * len(self.L.instances)
            for z in range(base, base + n):
                x, y = self.L.space[z]
                if 1 <= x + dx <= zone.columns and 1 <= y + dy <= zone.rows:
                    table[z] = z + dx + dy * zone.columns
            self._near[key] = table
        return self._near[key]

    @staticmethod
    def near_card(zone, column: ir.Expr, row: ir.Expr) -> tuple[ir.Local, int, int] | None:
        """(card, dx, dy) when a grid's (without gaps) space is given as a card's own column and row
        plus constants: `space(B, column(c) - 1, row(c))`."""
        return None if zone.gaps else near_space(column, row)

    def builtin_spaces(self, e, fn, scope):
        base, n = self.L.board_range(e.args[0].zone)
        return self.const([base + i for i in range(n) if not self.L.gap[base + i]])

    def builtin_neighbours(self, e, fn, scope):
        return f"{self.const(self.L.neighbours)}[{self.expr(e.args[0], fn, scope)}]"

    def builtin_distance(self, e, fn, scope):
        err = self.error(e.span, f"{e.name}(): there is no way from the one space to the other")
        a, b = (self.expr(x, fn, scope) for x in e.args)
        return f"_way({self.const(self.L.neighbours)}, {a}, {b}, {e.name == 'toward'}, {err}, {self.const({})})"

    builtin_toward = builtin_distance

    def builtin_place(self, e, fn, scope):
        zone = self.L.rs.zones[e.args[0].zone]
        index = self.const({p: self.L.zone_base[zone.name] + i for i, p in enumerate(zone.places)})
        return f"{index}[{self.expr(e.args[1], fn, scope)}]"

    def builtin_players(self, e, fn, scope):
        return self.const(list(self.L.roles))

    def builtin_current(self, e, fn, scope):
        """Whose turn it is: none outside a round's turns, and in a mode without them."""
        return "None" if self.L.turn_slot is None else f"st.vars[{self.L.turn_slot}]"

    def builtin_seat(self, e, fn, scope):
        return f"({self.seat_index(e.args[0], fn, scope, e.span)} + 1)"

    def builtin_in_game(self, e, fn, scope):
        return f"(not st.vars[{self.L.out_slot} + {self.seat_index(e.args[0], fn, scope, e.span)}])"

    def builtin_left_of(self, e, fn, scope):
        step = {"left_of": 1, "right_of": -1, "clockwise": 0}[e.name]
        seat = self.seat_index(e.args[0], fn, scope, e.span)
        return f"_turn(st, {self.const(self.L.roles)}, {self.L.out_slot}, {seat}, {step})"

    builtin_right_of = builtin_clockwise = builtin_left_of

    def expr_unary(self, e, fn, scope):
        if e.op == "not" and isinstance(e.operand, ir.Unary) and e.operand.op == "not":
            return f"bool({self.expr(e.operand.operand, fn, scope)})"
        if e.op == "not" and isinstance(e.operand, ir.Quantified) and e.operand.kind == "exists" \
                and (none := self.exists_of_kind(e.operand, fn, scope, invert=True)) is not None:
            return none
        operand = self.expr(e.operand, fn, scope)
        return f"(not {operand})" if e.op == "not" else f"(-{operand})"

    def expr_binary(self, e, fn, scope):
        op = e.op
        if op in ("in", "not in") and isinstance(e.right.ty, (ZoneT, BoardT)):
            value, check = self.card(e.left, fn, scope)
            if isinstance(e.right.ty, BoardT):
                base, n = self.L.board_range(e.right.zone)
                test = f"{base} <= where[{check or value}] < {base + n}"
            else:
                test = f"where[{check or value}] == {self.expr(e.right, fn, scope)}"
            if check is not None:
                test = f"({value} is not None and {test})"
            return f"(not {test})" if op == "not in" else f"({test})"
        left, right = self.expr(e.left, fn, scope), self.expr(e.right, fn, scope)
        if op == "+" and isinstance(e.ty, ListT):
            return f"_join({left}, {right}, {self.error(e.span, f'a list of more than {MAX_LIST:,} items')})"
        if op in ("/", "%"):
            err = self.error(e.span, "division by zero")
            return f"_divide({left}, {right}, {op == '/'}, {err})"
        return f"({left} {op} {right})"

    def expr_istype(self, e, fn, scope):
        table = self.const(self.L.is_kind[e.kind])
        value, check = self.card(e.subject, fn, scope)
        test = f"{table}[{value}]" if check is None else f"({value} is not None and {table}[{check}])"
        return f"(not {test})" if e.negated else test

    def expr_ifexpr(self, e, fn, scope):
        cond = self.expr(e.cond, fn, scope)
        return f"({self.expr(e.then, fn, scope)} if {cond} else {self.expr(e.otherwise, fn, scope)})"

    def expr_case(self, e, fn, scope):
        t = self.fresh("t")
        subject = self.expr(e.subject, fn, scope)
        arms = [(values, self.expr(value, fn, scope)) for values, value in self.case_arms(e)[0]]
        default = self.case_default(e, fn, scope)
        if not arms:
            return f"({subject}, {default})[1]"
        text = default
        for i in range(len(arms) - 1, -1, -1):
            values, value = arms[i]
            # the subject is evaluated once, in the first test
            probe = f"({t} := {subject})" if i == 0 else t
            text = f"{value} if {self.case_test(probe, values, fn, scope)} else {text}"
        return f"({text})"

    @staticmethod
    def case_arms(e: ir.Case) -> tuple[list[tuple[list, ir.Expr]], ir.Expr | None]:
        """The arms with patterns (their values, what the arm gives) and the `else` arm's value, if any."""
        arms, default = [], None
        for arm in e.arms:
            if arm.patterns:
                arms.append(([p.role if isinstance(p, ir.RoleRef) else p.value for p in arm.patterns], arm.value))
            else:
                default = arm.value
        return arms, default

    def case_default(self, e: ir.Case, fn, scope) -> str:
        """What a `case` gives when no arm matches: its `else`, or an error."""
        default = self.case_arms(e)[1]
        if default is not None:
            return self.expr(default, fn, scope)
        return f"_fail({self.error(e.span, 'no case arm matches')})"

    def case_test(self, probe: str, values: list, fn, scope) -> str:
        if len(values) == 1:
            return f"{probe} == {self.expr_const(ir.Const(values[0]), fn, scope)}"
        return f"{probe} in {self.const(frozenset(values))}"

    def expr_listexpr(self, e, fn, scope):
        return "[" + ", ".join(self.expr(i, fn, scope) for i in e.items) + "]"

    def expr_rangeexpr(self, e, fn, scope):
        if isinstance(e.low, ir.Const) and isinstance(e.high, ir.Const) and e.high.value - e.low.value < 1000:
            return self.const(list(range(e.low.value, e.high.value + 1)))
        err = self.error(e.span, f"a range of more than {MAX_LIST:,} numbers")
        return f"_range({self.expr(e.low, fn, scope)}, {self.expr(e.high, fn, scope)}, {err})"

    def expr_letin(self, e, fn, scope):
        v = self.fresh("v")
        value = self.expr(e.value, fn, scope)
        body = self.expr(e.body, fn, {**scope, e.name: (v, False)})
        return f"({v} := {value}, {body})[1]"

    def expr_hoisted(self, e, fn, scope):
        """Computed in place the first time it is needed: `(h if h is not UNSET
        else (h := value))`; nested functions declare the name nonlocal."""
        known = self._known.get(e.name)
        if known is not None:
            return known
        var, owner, value = scope[e.name]
        if fn is not owner and var not in fn.nonlocals:
            fn.nonlocals.append(var)
        self._unset.pop(e.name, None)  # computed here, perhaps: from here on it may be set
        key = (e.name, id(fn))
        if key not in self._lazy:
            self._lazy[key] = self.expr(value, fn, scope)
        return f"({var} if {var} is not UNSET else ({var} := {self._lazy[key]}))"

    def in_own_function(self, e: ir.Expr) -> bool:
        return False  # binders.py: a quantifier that is a function of its own

    def lazy_values(self, bindings, host: Function, scope: dict) -> dict:
        """The scope with lazy values that live in `host`, each UNSET until first used."""
        scope = dict(scope)
        for name, value in bindings:
            var = self.fresh("h")
            scope[name] = (var, host, value)
            host.prelude.append((f"{var} = UNSET", None))
        return scope

    def expr_hoistlet(self, e, fn, scope):
        return self.hoist_let(e, fn, scope, inline=False)

    def once(self, e: ir.Expr, fn: Function, indent: str = "") -> str:
        """An expression evaluated once each time the lines before it run (a
        statement's value, a branch's test): its lazy values reset right here,
        in the function itself, instead of in a nested one, and a list it builds
        is built by lines of the function itself (inline_call)."""
        if not isinstance(e, HoistLet):
            return self.inline_call(self.expr(e, fn, {}), fn, indent)
        scope = {}
        for name, value in e.bindings:
            var = self.fresh("h")
            scope[name] = (var, fn, value)
            fn.body.append(f"{indent}{var} = UNSET")
            self._unset[name] = fn
        self._entry = e.body  # a quantifier function made for it runs first: there, they are UNSET too
        try:
            return self.inline_call(self.expr(e.body, fn, scope), fn, indent)
        finally:
            self._entry = None
            for name, _ in e.bindings:  # what holds here holds only for this statement's lines
                self._unset.pop(name, None)

    def compute_first(self, names, fn: Function, scope: dict, indent: str = "") -> None:
        """Lazy values that the code about to run surely computes first (hoist.surely_computed_first),
        computed now by lines of their own, each after those its own value surely computes first, and
        known from here on: later uses read the local, with no test. One still surely UNSET here is
        computed without the test too. The caller restores `_known` and `_unset` where the region in
        which they hold ends."""
        for name in names:
            if name in self._known:
                continue
            var, owner, value = scope[name]
            self.compute_first(surely_computed_first(value, set()), fn, scope, indent)
            if self._unset.get(name) is fn:
                del self._unset[name]
                line = f"{var} = {self.expr(value, fn, scope)}"
            else:
                line = f"{var} = {self.expr(Hoisted(name), fn, scope)}"
            if fn is not owner and var not in fn.nonlocals:
                fn.nonlocals.append(var)
            fn.body.append(indent + line)
            self._known[name] = var

    def inline_call(self, text: str, fn: Function, indent: str = "") -> str:
        """A statement's value `qN()`, the quantifier function just made for fn, as lines of
        fn itself (a local holding what it would return): no function made and called each
        time the statement runs. Only a function whose one `return` is its last line."""
        if self._last_made is None or not self.options.lists:
            return text
        q, host, start, end = self._last_made
        *body, last = q.body
        if host is not fn or text != f"{q.name}()" or len(fn.prelude) != end or not last.startswith("return ") \
                or any(line.lstrip().startswith("return") for line in body):
            return text
        del fn.prelude[start:]
        at = len(fn.body) + len(q.prelude)
        fn.body += [indent + line for line in [line for line, _ in q.prelude] + body]
        fn.notes.update({at + i: note for i, note in q.notes.items() if i < len(body)})
        return last[len("return "):]

    def hoist_let(self, e: HoistLet, fn: Function, scope: dict, inline: bool) -> str:
        """Lazy values: each is computed the first time it is used."""
        if not inline and self.in_own_function(e.body):  # they live in the quantifier's function itself
            self._lazy_host = (e.body, e.bindings)
            text = self.expr(e.body, fn, scope)
            assert self._lazy_host is None, "a quantifier's lazy values were not placed"
            return text
        host = fn if inline else Function(self.fresh("hl"))
        scope = self.lazy_values(e.bindings, host, scope)
        body = self.expr(e.body, host, scope)
        if inline:
            return body
        host.body.append(f"return {body}")
        fn.prelude += host.render()
        return host.name + "()"
