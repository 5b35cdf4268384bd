"""The game's flow as programs of ops, so it can stop at any decision.

A program is a list of ops `op(st, env, pc) -> next pc`. Runs of statements
without decisions are one op each (a closure from `compiler.py`); statements
that contain a decision are lowered to jumps around `decide`, `menu` and
`call` ops. The flow position is then plain data: a stack of frames
`[program name, pc, locals]`, which is what makes a state cloneable and
savable to JSON at every decision.

Programs: "main" (setup, then the mode's round of steps, repeated until the
game ends) and "proc:NAME" for each procedure that asks for decisions.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir
from rulelang.errors import Span
from rulelang.types import CardT, ListT, ZoneT

from .compiler import Compiler, has_decision
from .errors import RuleError, Runaway

SUSPEND = -1  # a decision is pending
CALL = -2  # a frame was pushed


@dataclass(frozen=True)
class DecisionSite:
    """A place in the rules where a decision is asked (its index is in the
    pending decision, so states stay plain data)."""
    label: str
    names: tuple[str, ...]  # bound by the options, in order (empty for a menu)
    is_card: tuple[bool, ...]  # which of them are cards
    span: Span | None


class Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


class _Program:
    """Ops being built; jumps name Labels, resolved in `finish()`."""

    def __init__(self):
        self.items: list = []

    def here(self, label: Label) -> None:
        label.pc = len(self.items)

    def add(self, *item) -> None:
        self.items.append(item)

    def finish(self, limit: int) -> list:
        return [_materialize(item, limit) for item in self.items]


def _materialize(item, limit):
    kind = item[0]
    if kind == "atomic":
        f = item[1]

        def atomic(st, env, pc):
            f(st, env)
            return pc + 1
        return atomic
    if kind == "jump":  # every jump is a loop's back edge or a branch's exit; count them
        label, span = item[1], item[2]

        def jump(st, env, pc):
            st.steps += 1
            if st.steps > limit:
                raise Runaway(span, limit)
            return label.pc
        return jump
    if kind == "branch":  # go on if cond == want, else jump
        cond, want, label = item[1], item[2], item[3]

        def branch(st, env, pc):
            return pc + 1 if bool(cond(st, env)) == want else label.pc
        return branch
    if kind == "decide":
        role, site_index, site, options = item[1:]
        label, names, span = site.label, list(site.names), site.span

        def decide(st, env, pc):
            opts = options(st, env)
            if not opts:
                raise RuleError(span, f"the decision '{label}' has no legal option",
                                "guard the decision with a condition that checks there is a choice")
            st.pending = {"role": role(st, env), "label": label, "site": site_index, "options": opts,
                          "names": names, "resume": pc + 1}
            st.stack[-1][1] = pc
            return SUSPEND
        return decide
    if kind == "menu":
        role, site_index, site, choices = item[1:]
        label, span = site.label, site.span

        def menu(st, env, pc):
            open_ = [(name, target) for name, guard, target in choices if guard is None or guard(st, env)]
            if not open_:
                raise RuleError(span, f"no option of '{label}' is open", "give one option no condition")
            st.pending = {"role": role(st, env), "label": label, "site": site_index,
                          "options": [(n,) for n, _ in open_], "targets": [t.pc for _, t in open_]}
            st.stack[-1][1] = pc
            return SUSPEND
        return menu
    if kind == "call":
        program, pairs = item[1], item[2]

        def call(st, env, pc):
            st.stack[-1][1] = pc + 1
            st.stack.append([program, 0, {p: a(st, env) for p, a in pairs}])
            return CALL
        return call
    if kind == "for_next":  # bind the next snapshot entry or leave the loop
        rows, index, names, label = item[1:]

        def for_next(st, env, pc):
            i = env[index]
            if i >= len(env[rows]):
                return label.pc
            env[index] = i + 1
            for n, v in zip(names, env[rows][i]):
                env[n] = v
            return pc + 1
        return for_next
    raise AssertionError(kind)


class FlowBuilder:
    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.rs = compiler.rs
        self.programs: dict[str, list] = {}
        self.step_starts: list[tuple[int, str]] = []
        self.sites: list[DecisionSite] = []
        self._temps = 0

    def build(self, mode: ir.Mode) -> dict[str, list]:
        program = self.c.program
        main = _Program()
        self.step_starts.append((0, "Setup"))
        self.block(main, program.setup)
        top = Label()
        main.here(top)
        main.add("atomic", _next_round)
        for step in program.steps:
            self.step_starts.append((len(main.items), step.name))
            self.block(main, step.body)
        main.add("jump", top, mode.span)
        self.programs["main"] = main.finish(self.c.L.step_limit)
        return self.programs

    def site(self, site: DecisionSite) -> tuple[int, DecisionSite]:
        self.sites.append(site)
        return len(self.sites) - 1, site

    def temp(self, what: str) -> str:
        self._temps += 1
        return f"${what}{self._temps}"

    def block(self, prog: _Program, stmts) -> None:
        run: list = []
        for s in stmts:
            if has_decision([s], self.c.program.procedures):
                self.flush(prog, run)
                run = []
                self.lower(prog, s)
            else:
                run.append(s)
        self.flush(prog, run)

    def flush(self, prog: _Program, run: list) -> None:
        if run:
            prog.add("atomic", self.c.block(run))

    def lower(self, prog: _Program, s: ir.Stmt) -> None:
        c = self.c
        if isinstance(s, ir.Choose):
            flags = []
            for g in s.binder.groups:
                t = g.domain.ty
                card = isinstance(t, ZoneT) or (isinstance(t, ListT) and isinstance(t.item, CardT))
                flags += [card] * len(g.names)
            site = self.site(DecisionSite(s.label, s.binder.names, tuple(flags), s.span))
            hoisted = c.program.options.get(id(s))
            options = c.expr(hoisted[1]) if hoisted is not None else c.options(s.binder)
            prog.add("decide", c.expr(s.role), *site, options)
            self.block(prog, s.body)
        elif isinstance(s, ir.Menu):
            end = Label()
            choices = [(o.name, c.expr(o.guard) if o.guard is not None else None, Label()) for o in s.options]
            site = self.site(DecisionSite(s.label, (), (), s.span))
            prog.add("menu", c.expr(s.role), *site, choices)
            for (_, _, label), option in zip(choices, s.options):
                prog.here(label)
                self.block(prog, option.body)
                prog.add("jump", end, option.span)
            prog.here(end)
        elif isinstance(s, ir.If):
            end = Label()
            for cond, body in s.branches:
                skip = Label()
                prog.add("branch", c.expr(cond), True, skip)
                self.block(prog, body)
                prog.add("jump", end, s.span)
                prog.here(skip)
            if s.otherwise is not None:
                self.block(prog, s.otherwise)
            prog.here(end)
        elif isinstance(s, ir.While):
            top, end = Label(), Label()
            prog.here(top)
            prog.add("branch", c.expr(s.cond), not s.until, end)
            self.block(prog, s.body)
            prog.add("jump", top, s.span)
            prog.here(end)
        elif isinstance(s, (ir.Repeat, ir.For)):
            rows, index = self.temp("rows"), self.temp("i")
            if isinstance(s, ir.Repeat):
                count, names = c.expr(s.count), []
                prog.add("atomic", _init_loop(rows, index, lambda st, env: [()] * count(st, env)))
            else:
                names = list(s.binder.names)
                prog.add("atomic", _init_loop(rows, index, c.rows(s.binder)))
            top, end = Label(), Label()
            prog.here(top)
            prog.add("for_next", rows, index, names, end)
            self.block(prog, s.body)
            prog.add("jump", top, s.span)
            prog.here(end)
        elif isinstance(s, ir.CallProc):
            name = self.procedure(s.name)
            params = [p for p, _ in self.rs.procedures[s.name].params]
            prog.add("call", name, list(zip(params, [c.expr(a) for a in s.args])))
        else:
            raise AssertionError(type(s).__name__)

    def procedure(self, name: str) -> str:
        key = "proc:" + name
        if key not in self.programs:
            self.programs[key] = []  # placeholder: procedures are never recursive
            prog = _Program()
            self.block(prog, self.c.program.procedures[name])
            self.programs[key] = prog.finish(self.c.L.step_limit)
        return key


def _next_round(st, env):
    st.round += 1


def _init_loop(rows, index, make):
    def init(st, env):
        env[rows] = make(st, env)
        env[index] = 0
    return init
