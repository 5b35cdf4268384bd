"""Expressions and decision-free statements -> Python functions, by
generating Python source.

Each top-level expression (a condition, a value, a decision's options)
becomes one Python function `f(st, env) -> value`, and each run of
statements without a decision one function `f(st, env)`. Binders become
nested `for` loops over Python locals, `case` a chain of conditional
expressions, hoisted values lazily-set locals, a move four list operations —
so `exists a, b in hand where ...` costs about what the hand-written loop
costs.

Safety: the generated text holds only names this module makes (`v3`, `t7`,
`k2`, ...), small integers and operators. Every value that comes from a
ruleset — names, text, lists — reaches the code through the constants
table `K`, never as source text, so a ruleset cannot inject code. The code
runs with no builtins but the few listed in `_GLOBALS`.
"""
from __future__ import annotations

import dataclasses
import re
from itertools import combinations
from math import comb

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError
from rulelang.types import BoardT, ListT, ZoneT

from ..runtime import rng
from ..runtime.errors import GameEnded, RuleError, Runaway
from .optimize import HoistLet, Options

UNSET = "$unset"  # a hoisted or searched value not found yet (a string: frames stay JSON)
# A binder whose bindings (with those of the binders it runs inside) may
# exceed this is counted against the step limit, so `exists a, b, c, d in box`
# over ten thousand cards stops at the limit instead of running for days;
# smaller ones (every binder of the bundled rulesets) cost nothing extra.
FREE_BINDINGS = 1_000
MAX_LIST = 1_000_000  # items in one list (a range, two lists joined)


def _fail(error, hint=None):
    raise RuleError(*error, hint) if hint else RuleError(*error)


def _divide(n, d, floor, error):
    if d == 0:
        raise RuleError(*error)
    return n // d if floor else n % d


def _runaway(span, limit):
    raise Runaway(span, limit)


def _work(st, steps, span, limit, kind="loop"):
    """Count a binder's bindings (or a loop's rounds) as steps, before running them."""
    st.steps += steps
    if st.steps > limit:
        raise Runaway(span, limit, kind)


def _range(low, high, error):
    if high - low >= MAX_LIST:
        raise RuleError(*error)
    return list(range(low, high + 1))


def _join(left, right, error):
    if len(left) + len(right) > MAX_LIST:
        raise RuleError(*error)
    return left + right


def _end(kind, role, reason):
    raise GameEnded(kind, role, reason)


def _reduce(fn, values, error):
    if not values:
        raise RuleError(*error)
    return fn(values)


def _by_keys(row):
    return row[0]


_GLOBALS = {"__builtins__": {}, "UNSET": UNSET, "_fail": _fail, "_divide": _divide, "set": set,
            "_reduce": _reduce, "_by_keys": _by_keys, "_end": _end, "_runaway": _runaway, "_work": _work, "_comb": comb, "_range": _range, "_join": _join, "_shuffle": rng.shuffle, "_combinations": combinations, "abs": abs, "len": len, "min": min,
            "max": max, "sum": sum, "any": any, "all": all, "range": range, "list": list,
            "bool": bool, "tuple": tuple}


def _changes_the_game(s: ir.Stmt) -> bool:
    """A statement after which `watch:` conditions are checked (the others
    change nothing a condition can see, or are made of these)."""
    return isinstance(s, (ir.Move, ir.Draw, ir.Shuffle, ir.Flip)) or \
        isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)


# what --check-invariants checks after: the statements that touch zones and facings (an assignment
# changes a variable or a card's state, never where a card is; the shapes are checked at decisions)
_EFFECTS = (ir.Move, ir.Draw, ir.Shuffle, ir.Flip)

_SHORTCUTS = (("zones", "zones"), ("where", "where"), ("face", "face_up"))


class _Fn:
    """A function being generated: its prelude (nested functions, lazy
    values) comes before its body."""

    def __init__(self, name: str, params: str = "", nonlocals=()):
        self.name = name
        self.header = f"def {name}({params}):"
        self.nonlocals = list(nonlocals)
        self.prelude: list[str] = []
        self.body: list[str] = []

    def render(self, indent: str = "") -> list[str]:
        inner = indent + "    "
        lines = [indent + self.header]
        if self.nonlocals:
            lines.append(inner + "nonlocal " + ", ".join(self.nonlocals))
        text = "\n".join(self.body)  # statements live in the body; nested functions bind their own
        shortcuts = [f"{name} = st.{attr}" for name, attr in _SHORTCUTS if re.search(rf"(?<![.\w]){name}\[", text)]
        lines += [inner + line for line in shortcuts + self.prelude + self.body] or [inner + "pass"]
        return lines


class Codegen:
    """Compiles expressions of one game (one layout) to Python functions."""

    def __init__(self, layout, define_function, procedure_function, options_of):
        self.L = layout
        self.options_of = options_of  # a decision's or take's options expression, hoisted
        self.watch_check = None  # called after every change to the game, when the mode has watches
        self.invariants = None  # called after every effect, when the game checks its invariants
        self.define_function = define_function  # name -> compiled define (when not inlined)
        self.procedure_function = procedure_function  # name -> compiled procedure
        self._consts: list = []
        self._const_index: dict = {}
        self._lazy: dict = {}  # (hoisted name, function) -> its value's code there
        self._bindings: int | None = 1  # bindings of the binders being generated around (None: unknown)
        self._count = 0

    # ------------------------------------------------------------ entry points
    def compile(self, e: ir.Expr):
        """A function (st, env) -> value for the expression."""
        def fill(top):
            if isinstance(e, HoistLet):  # at the top, its lazy values live in _f itself
                result = self.hoist_let(e, top, {}, inline=True)
            else:
                result = self.expr(e, top, {})
            top.body.append(f"return {result}")
        return self._build(fill, e.span)

    def compile_block(self, stmts) -> object:
        """A function (st, env) running the statements (none asks a decision)."""
        def fill(top):
            self.block(stmts, top, "")
        return self._build(fill, next((s.span for s in stmts), None))

    def compile_program(self, items: list[tuple], leaders) -> tuple[list, dict[int, int]]:
        """Lowered flow items (see flow.py) -> one function per basic block,
        `block(st, env) -> index of the next block`, SUSPEND or CALL; and
        the block index of every item that starts a block."""
        terminators = ("jump", "branch", "decide", "menu", "call", "for_next")
        starts = {0} | {label.at for label in leaders}
        for item in items:
            for part in item:
                if hasattr(part, "at"):  # a Label
                    starts.add(part.at)
            if item[0] == "menu":
                starts |= {label.at for _, _, label in item[4]}
        starts |= {i + 1 for i, item in enumerate(items) if item[0] in terminators}
        starts = sorted(x for x in starts if x <= len(items))
        block_of = {at: k for k, at in enumerate(starts)}  # the end of the program is a block index too
        ranges = [(a, b) for a, b in zip(starts, starts[1:] + [len(items)]) if a < len(items)]
        # a jump to a block that only jumps on goes straight to the end of the chain
        only_jump = {a: items[a][1] for a, b in ranges if b == a + 1 and items[a][0] == "jump"}
        for a, label in list(only_jump.items()):
            seen = {a}
            while label.at in only_jump and label.at not in seen:
                seen.add(label.at)
                label = only_jump[label.at]
            only_jump[a] = label
        for at, label in only_jump.items():
            block_of[at] = block_of[label.at]

        def fill(top):
            names = []
            for k, (a, b) in enumerate(ranges):
                fn = _Fn(f"b{k}", "st, env")
                for item in items[a:b]:
                    self.flow_item(item, fn, k, block_of)
                if not items[b - 1][0] in terminators:
                    fn.body.append(f"return {k + 1}")
                top.prelude += fn.render()
                names.append(fn.name)
            top.body.append(f"return [{', '.join(names)}]")
        nodes = (n for item in items for part in item for n in (part if isinstance(part, tuple) else (part,)))
        spans = (n.span for n in nodes if isinstance(n, (ir.Stmt, ir.Expr)) and n.span is not None)
        return self._build(fill, next(spans, None))(None, None), block_of

    def flow_item(self, item: tuple, fn: _Fn, k: int, block_of: dict) -> None:
        kind = item[0]
        if kind == "stmts":
            self.block(item[1], fn, "")
        elif kind == "round":
            fn.body.append("st.round += 1")
        elif kind == "loop_init":
            rows, index, (how, source) = item[1], item[2], item[3]
            if how == "repeat":  # counted before the list of rounds is made
                n = self.fresh("n")
                fn.body += [f"{n} = max({self.expr(source, fn, {})}, 0)",
                            f"_work(st, {n}, {self.const(source.span)}, {self.L.step_limit})"]
                value = f"[()] * {n}"
            else:
                value = self.e_Options(Options(source), fn, {})
            fn.body += [f"env[{self.const(rows)}] = {value}", f"env[{self.const(index)}] = 0"]
        elif kind == "jump":
            label, span = item[1], item[2]
            limit = self.L.step_limit
            fn.body += ["st.steps += 1", f"if st.steps > {limit}:", f"    _runaway({self.const(span)}, {limit})",
                        f"return {block_of[label.at]}"]
        elif kind == "branch":
            cond, want, label = item[1], item[2], item[3]
            go_on, leave = k + 1, block_of[label.at]
            first, second = (go_on, leave) if want else (leave, go_on)
            fn.body.append(f"return {first} if {self.once(cond, fn)} else {second}")
        elif kind == "decide":
            role, site_index, site, options = item[1:]
            opts, err = self.fresh("opts"), self.error(site.span, f"the decision '{site.label}' has no legal option")
            fn.body += [f"{opts} = {self.once(options, fn)}", f"if not {opts}:",
                        f"    _fail({err}, {self.const('guard the decision with a condition that checks there is a choice')})",
                        f"st.pending = {{'role': {self.expr(role, fn, {})}, 'label': {self.const(site.label)}, "
                        f"'site': {site_index}, 'options': {opts}, 'names': {self.const(list(site.names))}, "
                        f"'resume': {k + 1}}}",
                        f"st.stack[-1][1] = {k}", "return -1"]
        elif kind == "menu":
            role, site_index, site, choices = item[1:]
            open_ = self.fresh("open")
            fn.body.append(f"{open_} = []")
            for name, guard, label in choices:
                line = f"{open_}.append(({self.const(name)}, {block_of[label.at]}))"
                fn.body += [f"if {self.expr(guard, fn, {})}:", "    " + line] if guard is not None else [line]
            err = self.error(site.span, f"no option of '{site.label}' is open")
            fn.body += [f"if not {open_}:", f"    _fail({err})",
                        f"st.pending = {{'role': {self.expr(role, fn, {})}, 'label': {self.const(site.label)}, "
                        f"'site': {site_index}, 'options': [(n,) for n, _ in {open_}], "
                        f"'targets': [t for _, t in {open_}]}}",
                        f"st.stack[-1][1] = {k}", "return -1"]
        elif kind == "take":
            self.take(item[1], fn, "")
        elif kind == "call":
            program, pairs = item[1], item[2]
            args = ", ".join(f"{self.const(p)}: {self.expr(a, fn, {})}" for p, a in pairs)
            fn.body += [f"st.stack[-1][1] = {k + 1}", f"st.stack.append([{self.const(program)}, 0, {{{args}}}])",
                        "return -2"]
        elif kind == "for_next":
            rows, index, names, label = item[1:]
            i, r = self.fresh("i"), self.fresh("r")
            fn.body += [f"{i} = env[{self.const(index)}]", f"{r} = env[{self.const(rows)}]",
                        f"if {i} >= len({r}):", f"    return {block_of[label.at]}",
                        f"env[{self.const(index)}] = {i} + 1"]
            fn.body += [f"env[{self.const(n)}] = {r}[{i}][{j}]" for j, n in enumerate(names)]
            fn.body.append(f"return {k + 1}")
        else:
            raise AssertionError(kind)

    def _build(self, fill, span):
        # re-entrant: compiling a define or procedure may start in the middle of another
        saved = self._consts, self._const_index
        self._consts, self._const_index = [], {}
        try:
            top = _Fn("_f", "st, env")
            fill(top)
            return self._finish(top, span)
        finally:
            self._consts, self._const_index = saved

    def _finish(self, top: _Fn, span):
        lines = ["def _make(K):"]
        lines += [f"    k{i} = K[{i}]" for i in range(len(self._consts))]
        lines += top.render("    ")
        lines.append("    return _f")
        namespace = dict(_GLOBALS)
        try:
            code = compile("\n".join(lines), "<rules>", "exec")
        except (SyntaxError, RecursionError, MemoryError) as exc:
            # Python's own bounds (20 loops inside one another, 100 levels of
            # indentation): the rules are valid but too deep to generate
            reason = exc.msg if isinstance(exc, SyntaxError) else "too deep"
            raise RulesetError([Diagnostic(span, f"these rules nest too deeply to compile ({reason})",
                                           "nest fewer loops and binders (x in ZONE, ...) inside one another: "
                                           "Python allows 20")]) from None
        exec(code, namespace)  # noqa: S102 - our own text only
        return namespace["_make"](self._consts)

    # ------------------------------------------------------------ helpers
    def fresh(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def const(self, value) -> str:
        key = (type(value), value) if isinstance(value, (int, str, bool, type(None))) else ("id", id(value))
        if key not in self._const_index:
            self._const_index[key] = len(self._consts)
            self._consts.append(value)
        return f"k{self._const_index[key]}"

    def error(self, span, message: str) -> str:
        return self.const((span, message))

    # ------------------------------------------------------------ expressions
    # scope: IR local name -> (python variable, never None)
    def expr(self, e: ir.Expr, fn: _Fn, scope: dict) -> str:
        return getattr(self, "e_" + type(e).__name__)(e, fn, scope)

    def e_Const(self, e, fn, scope):
        v = e.value
        if v is None or isinstance(v, bool) or (isinstance(v, int) and -10**9 < v < 10**9):
            return repr(v)
        return self.const(v)

    def e_Local(self, e, fn, scope):
        if e.name in scope:
            return scope[e.name][0]
        return f"env[{self.const(e.name)}]"

    def e_Var(self, e, fn, scope):
        return f"st.vars[{self.L.var_slot[e.name]}]"

    def e_Param(self, e, fn, scope):
        return self.const(self.L.rs.param_values[e.name])

    def e_EnumValue(self, e, fn, scope):
        return self.const(e.value)

    def e_RoleRef(self, e, fn, scope):
        return self.const(e.role)

    def e_ZoneRef(self, e, fn, scope):
        base = self.L.zone_base[e.zone]
        if e.owner is None:
            return str(base)
        return f"({base} + {self.const(self.L.role_index)}[{self.expr(e.owner, fn, scope)}])"

    def cards_of(self, e: ir.Expr, fn, scope) -> str:
        """A zone, board or list expression as a Python list."""
        if isinstance(e.ty, BoardT):  # every space, bottom row first, left to right
            base, n = self.L.board_range(e.zone)
            z, c = self.fresh("z"), self.fresh("c")
            return f"[{c} for {z} in st.zones[{base}:{base + n}] for {c} in {z}]"
        if isinstance(e.ty, ZoneT):
            return f"st.zones[{self.expr(e, fn, scope)}]"
        return self.expr(e, fn, scope)

    def card(self, e: ir.Expr, fn, scope, what: str) -> tuple[str, str | None]:
        """(expression, temp) where temp, if not None, must be checked for None."""
        if isinstance(e, ir.Local) and e.name in scope and scope[e.name][1]:
            return scope[e.name][0], None
        t = self.fresh("t")
        return f"({t} := {self.expr(e, fn, scope)})", t

    def e_Field(self, e, fn, scope):
        if e.name in self.L.state_slot:  # a state value changes in play: read it from the state
            col = f"st.props[{self.L.state_slot[e.name]}]"
        else:
            col = self.const(self.L.columns.get(e.name, []))
        value, check = self.card(e.obj, fn, scope, "field")
        if check is None:
            return f"{col}[{value}]"
        err = self.error(e.span, f"there is no card here to read '{e.name}' from")
        return f"({col}[{check}] if {value} is not None else _fail({err}))"

    def e_DefineCall(self, e, fn, scope):
        define = self.define_function(e.name)
        params = [p for p, _ in self.L.rs.defines[e.name].params]
        args = ", ".join(f"{self.const(p)}: {self.expr(a, fn, scope)}" for p, a in zip(params, e.args))
        return f"{self.const(define)}(st, {{{args}}})"

    def e_BuiltinCall(self, e, fn, scope):
        name, args = e.name, e.args
        if name == "round":
            return "st.round"
        if name == "size":
            return f"len({self.cards_of(args[0], fn, scope)})"
        if name == "empty":
            return f"(not {self.cards_of(args[0], fn, scope)})"
        if name in ("top", "bottom"):
            t = self.fresh("t")
            return f"({t}[{-1 if name == 'top' else 0}] if ({t} := {self.cards_of(args[0], fn, scope)}) else None)"
        if name == "abs":
            return f"abs({self.expr(args[0], fn, scope)})"
        if name in ("space", "column", "row", "columns", "rows"):
            return self.board_call(e, fn, scope)
        if name in ("face_up", "face_down"):
            value, check = self.card(args[0], fn, scope, name)
            face = f"st.face_up[{check or value}]"
            face = face if name == "face_up" else f"(not {face})"
            if check is None:
                return face
            err = self.error(e.span, "there is no card here to look at")
            return f"({face} if {value} is not None else _fail({err}))"
        parts = [self.expr(a, fn, scope) for a in args]
        if len(parts) > 1:
            return f"{name}({', '.join(parts)})"
        if name in ("min", "max"):
            return f"_reduce({name}, {parts[0]}, {self.error(e.span, f'{name}() of an empty list')})"
        return f"{name}({parts[0]})"

    def board_call(self, e, fn, scope):
        name, args = e.name, e.args
        if name in ("column", "row"):  # where a card is: its space's coordinates
            table = self.const(self.L.column_of if name == "column" else self.L.row_of)
            value, check = self.card(args[0], fn, scope, name)
            t, err = self.fresh("t"), self.error(e.span, f"{name}(): the card is not on a board")
            where = f"st.where[{check or value}]"
            found = f"(({t} := {table}[{where}]) is not None)"
            if check is not None:
                found = f"({value} is not None and {found})"
            return f"({t} if {found} else _fail({err}))"
        zone = self.L.rs.zones[args[0].zone]
        if name in ("columns", "rows"):
            return str(zone.columns if name == "columns" else zone.rows)
        base = self.L.zone_base[zone.name]
        x, y = self.fresh("x"), self.fresh("y")
        err = self.error(e.span, f"space(): {zone.name} has columns 1..{zone.columns} and rows 1..{zone.rows}")
        return (f"({base} + ({y} - 1) * {zone.columns} + {x} - 1 "
                f"if 1 <= ({x} := {self.expr(args[1], fn, scope)}) <= {zone.columns} "
                f"and 1 <= ({y} := {self.expr(args[2], fn, scope)}) <= {zone.rows} else _fail({err}))")

    def e_Unary(self, e, fn, scope):
        if e.op == "not" and isinstance(e.operand, ir.Unary) and e.operand.op == "not":
            return f"bool({self.expr(e.operand.operand, fn, scope)})"
        operand = self.expr(e.operand, fn, scope)
        return f"(not {operand})" if e.op == "not" else f"(-{operand})"

    def e_Binary(self, e, fn, scope):
        op = e.op
        if op in ("in", "not in") and isinstance(e.right.ty, (ZoneT, BoardT)):
            value, check = self.card(e.left, fn, scope, "in")
            if isinstance(e.right.ty, BoardT):
                base, n = self.L.board_range(e.right.zone)
                test = f"{base} <= st.where[{check or value}] < {base + n}"
            else:
                test = f"st.where[{check or value}] == {self.expr(e.right, fn, scope)}"
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

    def e_IsType(self, e, fn, scope):
        table = self.const(self.L.is_kind[e.kind])
        value, check = self.card(e.subject, fn, scope, "is")
        test = f"{table}[{value}]" if check is None else f"({value} is not None and {table}[{check}])"
        return f"(not {test})" if e.negated else test

    def e_IfExpr(self, e, fn, scope):
        cond = self.expr(e.cond, fn, scope)
        return f"({self.expr(e.then, fn, scope)} if {cond} else {self.expr(e.otherwise, fn, scope)})"

    def e_Case(self, e, fn, scope):
        t = self.fresh("t")
        subject = self.expr(e.subject, fn, scope)
        default = f"_fail({self.error(e.span, 'no case arm matches')})"
        arms: list[tuple[list, str]] = []
        for arm in e.arms:
            value = self.expr(arm.value, fn, scope)
            if arm.patterns:
                arms.append(([p.value for p in arm.patterns], value))
            else:
                default = value
        if not arms:
            return f"({subject}, {default})[1]"
        text = default
        for i in range(len(arms) - 1, -1, -1):
            values, value = arms[i]
            # the subject is evaluated once, in the first test
            probe = f"({t} := {subject})" if i == 0 else t
            test = f"{probe} == {self.e_Const(ir.Const(values[0]), fn, scope)}" if len(values) == 1 \
                else f"{probe} in {self.const(frozenset(values))}"
            text = f"{value} if {test} else {text}"
        return f"({text})"

    def e_ListExpr(self, e, fn, scope):
        return "[" + ", ".join(self.expr(i, fn, scope) for i in e.items) + "]"

    def e_RangeExpr(self, e, fn, scope):
        if isinstance(e.low, ir.Const) and isinstance(e.high, ir.Const) and e.high.value - e.low.value < 1000:
            return self.const(list(range(e.low.value, e.high.value + 1)))
        err = self.error(e.span, f"a range of more than {MAX_LIST:,} numbers")
        return f"_range({self.expr(e.low, fn, scope)}, {self.expr(e.high, fn, scope)}, {err})"

    def e_LetIn(self, e, fn, scope):
        v = self.fresh("v")
        value = self.expr(e.value, fn, scope)
        body = self.expr(e.body, fn, {**scope, e.name: (v, False)})
        return f"({v} := {value}, {body})[1]"

    def e_Hoisted(self, e, fn, scope):
        """Computed in place the first time it is needed: `(h if h is not UNSET
        else (h := value))`; nested functions declare the name nonlocal."""
        var, owner, value = scope[e.name]
        if fn is not owner and var not in fn.nonlocals:
            fn.nonlocals.append(var)
        key = (e.name, id(fn))
        if key not in self._lazy:
            self._lazy[key] = self.expr(value, fn, scope)
        return f"({var} if {var} is not UNSET else ({var} := {self._lazy[key]}))"

    def e_HoistLet(self, e, fn, scope):
        return self.hoist_let(e, fn, scope, inline=False)

    def once(self, e: ir.Expr, fn: _Fn, indent: str = "") -> str:
        """An expression evaluated once each time the lines before it run (a
        statement's value, a branch's test): its lazy values reset right here,
        in the function itself, instead of in a nested one."""
        if not isinstance(e, HoistLet):
            return self.expr(e, fn, {})
        scope = {}
        for name, value in e.bindings:
            var = self.fresh("h")
            scope[name] = (var, fn, value)
            fn.body.append(f"{indent}{var} = UNSET")
        return self.expr(e.body, fn, scope)

    def hoist_let(self, e: HoistLet, fn: _Fn, scope: dict, inline: bool) -> str:
        """Lazy values: each is computed the first time it is used."""
        host = fn if inline else _Fn(self.fresh("hl"))
        scope = dict(scope)
        for name, value in e.bindings:
            var = self.fresh("h")
            scope[name] = (var, host, value)
            host.prelude.append(f"{var} = UNSET")
        body = self.expr(e.body, host, scope)
        if inline:
            return body
        host.body.append(f"return {body}")
        fn.prelude += host.render()
        return host.name + "()"

    # ------------------------------------------------------------ binders
    def loops(self, b: ir.Binder, fn: _Fn, scope: dict, leaf) -> None:
        """Emit nested loops binding b's names into fn.body; `leaf(scope)`
        returns the lines run for each binding (the where test included)."""
        if b.order:
            self.ordered_loops(b, fn, scope, leaf)
        else:
            self.plain_loops(b, fn, scope, leaf)

    def ordered_loops(self, b: ir.Binder, fn: _Fn, scope: dict, leaf) -> None:
        """`ordered by`: collect (keys, values) of every binding, sort by the
        keys (a stable sort: ties keep the binder's order), then run the leaf."""
        rows, names = self.fresh("rows"), b.names
        vs = [self.fresh("v") for _ in names]
        inner: dict = {}

        def collect(s):
            inner.update(s)
            keys = [f"-{self.expr(k.value, fn, s)}" if k.descending else self.expr(k.value, fn, s) for k in b.order]
            return [f"{rows}.append((({', '.join(keys)},), ({', '.join(s[n][0] for n in names)},)))"]
        fn.body.append(f"{rows} = []")
        self.plain_loops(dataclasses.replace(b, order=()), fn, scope, collect)
        fn.body += [f"{rows}.sort(key=_by_keys)", f"for _, ({', '.join(vs)},) in {rows}:"]
        sorted_scope = {**scope, **{n: (v, inner[n][1]) for n, v in zip(names, vs)}}
        fn.body += ["    " + line for line in leaf(sorted_scope)]

    def plain_loops(self, b: ir.Binder, fn: _Fn, scope: dict, leaf) -> None:
        scope = dict(scope)
        indent = ""
        outer = bound = self._bindings  # bindings of the binders this one runs inside
        for g in b.groups:
            from_zone = isinstance(g.domain.ty, (ZoneT, BoardT))
            one = g.domain.items[0] if isinstance(g.domain, ir.ListExpr) and len(g.domain.items) == 1 else \
                ir.Const(g.domain.value[0]) if isinstance(g.domain, ir.Const) and len(g.domain.value) == 1 else None
            if len(g.names) == 1 and one is not None:
                v = self.fresh("v")
                fn.body.append(f"{indent}{v} = {self.expr(one, fn, scope)}")
                scope[g.names[0]] = (v, False)
                continue
            domain = self.cards_of(g.domain, fn, scope)
            size, k = self.size_bound(g.domain), len(g.names)
            bound = bound * comb(size, k) if bound is not None and size is not None else None
            if bound is None or bound > FREE_BINDINGS:  # count the bindings as steps (see FREE_BINDINGS)
                d = self.fresh("d")
                count = f"len({d})" if k == 1 else f"_comb(len({d}), {k})"
                fn.body += [f"{indent}{d} = {domain}",
                            f"{indent}_work(st, {count}, {self.const(b.span)}, {self.L.step_limit}, 'binder')"]
                domain = d
            if len(g.names) == 1:
                v = self.fresh("v")
                fn.body.append(f"{indent}for {v} in {domain}:")
                scope[g.names[0]] = (v, from_zone)
                indent += "    "
            elif len(g.names) == 2:
                d, i, j, a, b2 = (self.fresh(p) for p in ("d", "i", "j", "v", "v"))
                fn.body.append(f"{indent}{d} = {domain}")
                fn.body.append(f"{indent}for {i} in range(len({d}) - 1):")
                fn.body.append(f"{indent}    {a} = {d}[{i}]")
                fn.body.append(f"{indent}    for {j} in range({i} + 1, len({d})):")
                fn.body.append(f"{indent}        {b2} = {d}[{j}]")
                scope[g.names[0]], scope[g.names[1]] = (a, from_zone), (b2, from_zone)
                indent += "        "
            else:
                vs = [self.fresh("v") for _ in g.names]
                fn.body.append(f"{indent}for ({', '.join(vs)},) in _combinations({domain}, {len(vs)}):")
                for n, v in zip(g.names, vs):
                    scope[n] = (v, from_zone)
                indent += "    "
        self._bindings = bound  # a binder inside this one's condition or value runs once per binding
        try:
            lines = leaf(scope)
            if b.where is not None:
                fn.body.append(f"{indent}if {self.expr(b.where, fn, scope)}:")
                indent += "    "
        finally:
            self._bindings = outer
        fn.body += [indent + line for line in lines]

    def size_bound(self, e: ir.Expr) -> int | None:
        """The most items a zone or list expression can hold, if known before play."""
        if isinstance(e.ty, (ZoneT, BoardT)):
            return sum(self.L.kind_count[k] for k in e.ty.kinds)
        if isinstance(e, ir.ListExpr):
            return len(e.items)
        if isinstance(e, ir.Const) and isinstance(e.value, (list, tuple)):
            return len(e.value)
        if isinstance(e, ir.RangeExpr) and isinstance(e.low, ir.Const) and isinstance(e.high, ir.Const):
            return max(0, e.high.value - e.low.value + 1)
        if isinstance(e, (ir.Binary, ir.IfExpr)):
            parts = (e.left, e.right) if isinstance(e, ir.Binary) else (e.then, e.otherwise)
            sizes = [self.size_bound(p) for p in parts]
            if None in sizes or isinstance(e, ir.Binary) and e.op != "+":
                return None
            return sum(sizes) if isinstance(e, ir.Binary) else max(sizes)
        if isinstance(e, ir.Quantified) and e.kind == "list":
            bound = 1
            for g in e.binder.groups:
                size = self.size_bound(g.domain)
                if size is None:
                    return None
                bound *= comb(size, len(g.names))
            return bound
        return None

    def quantifier_function(self, e, fn: _Fn, scope: dict, setup, leaf, finish) -> str:
        q = _Fn(self.fresh("q"))
        q.body += setup
        self.loops(e.binder, q, scope, lambda inner: leaf(q, inner))
        q.body += finish
        fn.prelude += q.render()
        return q.name + "()"

    def e_Quantified(self, e, fn, scope):
        kind = e.kind
        groups = e.binder.groups
        if e.binder.where is None and not e.binder.order and len(groups) == 1 and len(groups[0].names) == 1 \
                and kind in ("exists", "count", "first", "last"):
            seq = self.cards_of(groups[0].domain, fn, scope)
            if kind == "exists":
                return f"bool({seq})"
            if kind == "count":
                return f"len({seq})"
            t, err = self.fresh("t"), self.error(e.span, f"{kind}(): no card or value matches")
            return f"({t}[{0 if kind == 'first' else -1}] if ({t} := {seq}) else _fail({err}))"
        if kind == "exists":
            return self.quantifier_function(e, fn, scope, [], lambda q, s: ["return True"], ["return False"])
        if kind == "count":
            n = self.fresh("n")
            return self.quantifier_function(e, fn, scope, [f"{n} = 0"], lambda q, s: [f"{n} += 1"],
                                            [f"return {n}"])
        if kind in ("first", "last"):
            err = self.error(e.span, f"{kind}(): no card or value matches")
            if kind == "first":
                return self.quantifier_function(e, fn, scope, [], lambda q, s: [f"return {s[e.binder.names[0]][0]}"],
                                                [f"_fail({err})"])
            found = self.fresh("found")
            return self.quantifier_function(
                e, fn, scope, [f"{found} = UNSET"], lambda q, s: [f"{found} = {s[e.binder.names[0]][0]}"],
                [f"if {found} is UNSET:", f"    _fail({err})", f"return {found}"])
        if kind in ("any", "all"):
            found = kind == "any"  # any: stop at the first true value; all: at the first false one
            test = "" if found else "not "
            return self.quantifier_function(
                e, fn, scope, [], lambda q, s: [f"if {test}{self.expr(e.value, q, s)}:", f"    return {found}"],
                [f"return {not found}"])
        out = self.fresh("out")
        collect = self.quantifier_function(e, fn, scope, [f"{out} = []"],
                                           lambda q, s: [f"{out}.append({self.expr(e.value, q, s)})"],
                                           [f"return {out}"])
        if kind == "list":
            return collect
        if kind == "sum":
            return f"sum({collect})"
        return f"_reduce({kind}, {collect}, {self.error(e.span, f'{kind}() over nothing')})"

    def values(self, b: ir.Binder, fn: _Fn) -> str:
        """The values a one-name binder binds, as a list."""
        out, name = self.fresh("out"), b.names[0]
        holder = Options(b)
        return self.quantifier_function(holder, fn, {}, [f"{out} = []"],
                                        lambda q, s: [f"{out}.append({s[name][0]})"], [f"return {out}"])

    def e_Options(self, e, fn, scope):
        out = self.fresh("out")
        names = e.binder.names

        def leaf(q, s):
            return [f"{out}.append(({', '.join(s[n][0] for n in names)},))"]
        return self.quantifier_function(e, fn, scope, [f"{out} = []"], leaf, [f"return {out}"])


    # ------------------------------------------------------------ statements
    # Statements write to fn.body at `indent`; their locals live in env, so
    # that they outlive a decision that may follow.
    def block(self, stmts, fn: _Fn, indent: str) -> None:
        if not stmts:
            fn.body.append(indent + "pass")
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s, fn, indent)
            if self.invariants is not None and isinstance(s, _EFFECTS):
                self.emit(fn, indent, f"{self.const(self.invariants)}(st, {self.const(s.span)})")
            if self.watch_check is not None and _changes_the_game(s):
                self.emit(fn, indent, f"{self.const(self.watch_check)}(st)")

    def emit(self, fn: _Fn, indent: str, *lines: str) -> None:
        fn.body += [indent + line for line in lines]

    def destination(self, e: ir.Expr, fn: _Fn, indent: str) -> tuple[str, str]:
        """(zone index, face-up flag) of a move's destination, as Python."""
        if isinstance(e, ir.ZoneRef) and e.owner is None:
            zi = self.L.zone_base[e.zone]
            return str(zi), repr(self.L.facing_up[zi])
        d = self.fresh("d")
        self.emit(fn, indent, f"{d} = {self.expr(e, fn, {})}")
        return d, f"{self.const(self.L.facing_up)}[{d}]"

    def move_one(self, fn, indent, card: str, dest: str, up: str, top: bool) -> None:
        put = f"zones[{dest}].append({card})" if top else f"zones[{dest}].insert(0, {card})"
        self.emit(fn, indent, f"zones[where[{card}]].remove({card})", put,
                  f"where[{card}] = {dest}", f"face[{card}] = {up}")

    def s_Move(self, s, fn, indent):
        dest, up = self.destination(s.dest, fn, indent)
        top = s.position in ("top", "right")
        err = self.error(s.span, "there is no card to move (is the zone empty?)")
        c = self.fresh("c")
        if s.every is not None:
            rows = self.fresh("rows")
            self.emit(fn, indent, f"{rows} = {self.values(s.every, fn)}")
            group = s.every.groups[0]
            if len(s.every.groups) == 1 and isinstance(group.domain.ty, ZoneT) and top:
                # all from one zone: filter it once instead of removing card by card
                self.move_many(fn, indent, rows, self.expr(group.domain, fn, {}), dest, up)
            else:
                self.emit(fn, indent, f"for {c} in {rows}:")
                self.move_one(fn, indent + "    ", c, dest, up, top)
            return
        if len(s.cards) == 1 and isinstance(s.cards[0].ty, ZoneT) and top:
            cards, src = self.fresh("cards"), self.expr(s.cards[0], fn, {})
            self.emit(fn, indent, f"{cards} = list(zones[{src}])")
            self.move_many(fn, indent, cards, src, dest, up)
            return
        for card in s.cards:
            value = self.expr(card, fn, {})
            if isinstance(card.ty, (ZoneT, ListT)):
                source = f"list(zones[{value}])" if isinstance(card.ty, ZoneT) else value
                self.emit(fn, indent, f"for {c} in {source}:")
                inner = indent + "    "
            else:
                self.emit(fn, indent, f"{c} = {value}")
                inner = indent
            self.emit(fn, inner, f"if {c} is None:", f"    _fail({err})")
            self.move_one(fn, inner, c, dest, up, top)

    def move_many(self, fn, indent, cards: str, src: str, dest: str, up: str) -> None:
        """Move a list of cards that all lie in zone `src` to the top of `dest`."""
        moved, z = self.fresh("moved"), self.fresh("z")
        self.emit(fn, indent, f"if {cards}:",
                  f"    {z} = zones[{src}]",
                  f"    if len({cards}) == len({z}):",
                  f"        {z}.clear()",
                  "    else:",
                  f"        {moved} = set({cards})",
                  f"        {z}[:] = [x for x in {z} if x not in {moved}]",
                  f"    zones[{dest}].extend({cards})",
                  f"    for {moved} in {cards}:",
                  f"        where[{moved}] = {dest}",
                  f"        face[{moved}] = {up}")

    def s_Draw(self, s, fn, indent):
        dest, up = self.destination(s.dest, fn, indent)
        src, c = self.fresh("src"), self.fresh("c")
        self.emit(fn, indent, f"{src} = st.zones[{self.expr(s.source, fn, {})}]",
                  f"for _ in range({self.expr(s.count, fn, {})}):",
                  f"    if not {src}:", "        break", f"    {c} = {src}[-1]")
        self.move_one(fn, indent + "    ", c, dest, up, s.position in ("top", "right"))

    def s_Shuffle(self, s, fn, indent):
        self.emit(fn, indent, f"st.rng = _shuffle(st.rng, zones[{self.expr(s.zone, fn, {})}])")

    def s_Flip(self, s, fn, indent):
        c, err = self.fresh("c"), self.error(s.span, "there is no card to flip")
        face = "True" if s.face == "up" else "False" if s.face == "down" else f"not face[{c}]"
        self.emit(fn, indent, f"{c} = {self.expr(s.card, fn, {})}", f"if {c} is None:", f"    _fail({err})",
                  f"face[{c}] = {face}")

    def s_Let(self, s, fn, indent):
        self.emit(fn, indent, f"env[{self.const(s.name)}] = {self.once(s.value, fn, indent)}")

    def s_Assign(self, s, fn, indent):
        if isinstance(s.target, ir.Field):  # a card's state
            c, err = self.fresh("c"), self.error(s.span, f"there is no card here to change '{s.target.name}' on")
            self.emit(fn, indent, f"{c} = {self.expr(s.target.obj, fn, {})}", f"if {c} is None:", f"    _fail({err})")
            target = f"st.props[{self.L.state_slot[s.target.name]}][{c}]"
        elif isinstance(s.target, ir.Var):
            target = f"st.vars[{self.L.var_slot[s.target.name]}]"
        else:
            target = f"env[{self.const(s.target.name)}]"
        self.emit(fn, indent, f"{target} {s.op} {self.once(s.value, fn, indent)}")

    def s_If(self, s, fn, indent):
        for i, (cond, body) in enumerate(s.branches):
            test = self.once(cond, fn, indent) if i == 0 else self.expr(cond, fn, {})
            self.emit(fn, indent, f"{'if' if i == 0 else 'elif'} {test}:")
            self.block(body, fn, indent + "    ")
        if s.otherwise is not None:
            self.emit(fn, indent, "else:")
            self.block(s.otherwise, fn, indent + "    ")

    def s_While(self, s, fn, indent):
        cond = self.expr(s.cond, fn, {})
        limit = self.L.step_limit
        span = self.const(s.span)
        self.emit(fn, indent, f"while {'not ' if s.until else ''}{cond}:", "    st.steps += 1",
                  f"    if st.steps > {limit}:", f"        _runaway({span}, {limit})")
        self.block(s.body, fn, indent + "    ")

    def s_Repeat(self, s, fn, indent):
        n = self.fresh("n")
        self.emit(fn, indent, f"{n} = {self.expr(s.count, fn, {})}",
                  f"_work(st, max({n}, 0), {self.const(s.span)}, {self.L.step_limit})", f"for _ in range({n}):")
        self.block(s.body, fn, indent + "    ")

    def s_For(self, s, fn, indent):
        names = s.binder.names
        vs, rows = [self.fresh("v") for _ in names], self.fresh("rows")
        self.emit(fn, indent, f"{rows} = {self.e_Options(Options(s.binder), fn, {})}",
                  f"_work(st, len({rows}), {self.const(s.span)}, {self.L.step_limit})",
                  f"for ({', '.join(vs)},) in {rows}:")
        for n, v in zip(names, vs):
            self.emit(fn, indent + "    ", f"env[{self.const(n)}] = {v}")
        self.block(s.body, fn, indent + "    ")

    def take(self, s: ir.Take, fn: _Fn, indent: str) -> None:
        """Bind the first (or last) of a take's options into env."""
        rows = self.fresh("rows")
        err = self.error(s.span, f"take {s.which}: no binding matches")
        hint = self.const("guard it with a condition that checks there is one (`if exists ...:`)")
        self.emit(fn, indent, f"{rows} = {self.once(self.options_of(s), fn, indent)}",
                  f"if not {rows}:", f"    _fail({err}, {hint})")
        row = f"{rows}[{0 if s.which == 'first' else -1}]"
        for j, n in enumerate(s.binder.names):
            self.emit(fn, indent, f"env[{self.const(n)}] = {row}[{j}]")

    def s_Take(self, s, fn, indent):
        self.take(s, fn, indent)
        self.block(s.body, fn, indent)

    def s_EndGame(self, s, fn, indent):
        role = self.expr(s.role, fn, {}) if s.role is not None else "None"
        self.emit(fn, indent, f"_end({self.const(s.kind)}, {role}, {self.const(s.reason)})")

    def s_CallProc(self, s, fn, indent):
        proc = self.procedure_function(s.name)
        params = [p for p, _ in self.L.rs.procedures[s.name].params]
        args = ", ".join(f"{self.const(p)}: {self.expr(a, fn, {})}" for p, a in zip(params, s.args))
        self.emit(fn, indent, f"{self.const(proc)}(st, {{{args}}})")

    def s_Pass(self, s, fn, indent):
        self.emit(fn, indent, "pass")
