"""Flow items -> basic blocks, one generated function each.

A program (flow.py) becomes a list of functions `b0, b1, ...`, each
`block(st, env) -> index of the next block`, SUSPEND at a decision (the
pending `Decision` set, the frame's block index saved) or CALL after
pushing a procedure's frame; one more block after the last returns EXIT.
The engine runs them in a loop; nothing else ever leaves the generated code.

With explicit chance, a drawing statement (`Draw`) is a block of its own
that keeps its progress in the frame (`env[PROGRESS]`) and stops with a
pending `Chance` before each draw; the engine puts the outcome in
`env[OUTCOME]` and runs the block again, until the statement is done.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.walk import method

from ..runtime.chance import OUTCOME, PROGRESS
from ..runtime.errors import WatchFired
from .flow import (
    EXIT,
    TERMINATORS,
    Ask,
    AskMenu,
    Branch,
    Draw,
    Enter,
    Jump,
    LoopNext,
    LoopStart,
    Lowered,
    NewRound,
    NextTurn,
    Run,
    Take,
    labels_of,
    watch_program,
)
from .merge import Merge, entry_blocks, followers, locals_not_in_env
from .nodes import Options, TakeFrom
from .share import shared_options
from .source import Function
from .statements import Statements


class Codegen(Statements):
    """Compiles the rules of one game (a layout and a program) to Python functions."""

    def __init__(self, layout, program, invariants=None, keep: bool = True, options=None):
        super().__init__(layout, program, invariants, keep, options)
        self.crossing: frozenset[int] = frozenset()  # of the program last made into blocks: see Merge
        if program is not None and program.watches:
            self.watch_check = self._watch_check()

    def _watch_check(self):
        """The check run after every change to the game: the first watch whose
        condition holds fires (none while a watch's own statements run)."""
        conditions = [self.function(w.when, f"the condition of watch {i + 1}")
                      for i, w in enumerate(self.program.watches)]
        running = frozenset(watch_program(i) for i in range(len(conditions)))

        def check(st):
            stack = st.stack
            if len(stack) > 1 and stack[1].program in running:
                return
            for i, holds in enumerate(conditions):
                if holds(st, {}):
                    raise WatchFired(i)
        return check

    def blocks(self, prog: Lowered, what: str, leaders=(), bound_outside=()) -> tuple[list, dict[int, int]]:
        """The program's basic blocks as functions, and the block index of
        every item that starts one (`leaders` are labels that must;
        `bound_outside`: locals the program's frame starts with, a procedure's parameters)."""
        items = prog.items
        starts = {0} | {label.at for label in leaders}
        for item in items:
            starts |= {label.at for label in labels_of(item)}
        starts |= {i + 1 for i, item in enumerate(items) if isinstance(item, TERMINATORS)}
        starts |= {i for i, item in enumerate(items) if isinstance(item, Draw)}  # run again with each outcome
        starts = sorted(x for x in starts if x <= len(items))
        block_of = {at: k for k, at in enumerate(starts)}  # the end of the program is a block index too
        ranges = [(a, b) for a, b in zip(starts, starts[1:] + [len(items)]) if a < len(items)]
        # a jump to a block that only jumps on goes straight to the end of the chain (not past a jump
        # back, which counts a step: the loop it closes would never be stopped)
        only_jump = {a: items[a].to for a, b in ranges
                     if b == a + 1 and isinstance(items[a], Jump) and items[a].span is None}
        for a, label in list(only_jump.items()):
            seen = {a}
            while label.at in only_jump and label.at not in seen:
                seen.add(label.at)
                label = only_jump[label.at]
            only_jump[a] = label
        for at, label in only_jump.items():
            block_of[at] = block_of[label.at]

        asks = self._asks_after(items, block_of) if self.options.share else {}

        def fill(top):
            names, fns = [], []
            for k, (a, b) in enumerate(ranges):
                fn = Function(f"b{k}", "st, env")
                for i in range(a, b):
                    item = items[i]
                    start = len(fn.body)
                    if i in asks:
                        j, rows = asks[i]
                        self.branch_to_ask(item, items[j], rows, fn, k, block_of, block_of[j])
                    else:
                        method(self, "flow", item)(item, fn, k, block_of)
                    fn.mark(start, _span(item))
                if not isinstance(items[b - 1], TERMINATORS):
                    fn.body.append(f"return {k + 1}")
                fns.append(fn)
            if self.options.merge:
                final = self.merged(fns, items, ranges, block_of, [block_of[label.at] for label in leaders])
            else:
                final, self.crossing = fns, frozenset()
            # a decision's answer, and what its options' words read when a person is asked, live in `env`
            kept = {n for item in items if isinstance(item, (Ask, AskMenu))
                    for n in item.site.names + item.site.reads}
            kept |= set(bound_outside) | {OUTCOME, PROGRESS}
            if self.options.locals:
                locals_not_in_env(final, {f"k{j}" for j, v in enumerate(self._consts)
                                          if isinstance(v, str) and v in kept}, fns)
            for fn in final:
                top.prelude += fn.render()
                names.append(fn.name)
            # one more block, at the program's end: the engine's loop then only tests for a negative index
            top.prelude.append((f"def b{len(ranges)}(st, env):", None))
            top.prelude.append((f"    return {EXIT}", None))
            names.append(f"b{len(ranges)}")
            top.body.append(f"return [{', '.join(names)}]")
        spans = (_span(item) for item in items)
        return self.build(fill, next((s for s in spans if s is not None), None), what)(None, None), block_of

    def merged(self, fns: list[Function], items, ranges, block_of, leads: list[int]) -> list[Function]:
        """The blocks' functions with straight-line runs merged (merge.py)."""
        merge = Merge(fns, followers(items, ranges, block_of), leads)
        entries = entry_blocks(items, ranges, block_of, leads)
        made = {}
        for k in range(len(fns)):
            if k not in merge.absorbed or k in entries:  # else its code runs only inside another's
                made[k] = merge.function(k)
        while missing := {k for k in merge.exits - made.keys() if k < len(fns)}:  # unless one returns to it
            made.update((k, merge.function(k)) for k in sorted(missing))
        self.crossing = frozenset(merge.crossing)
        return [made.get(k) or _absorbed(fn.name, k) for k, fn in enumerate(fns)]

    def _asks_after(self, items, block_of) -> dict[int, tuple]:
        """Branches whose test is `exists` over the options of the decision they lead to when it
        holds (share.py): the branch's index -> (the decision's, its options listed from the test)."""
        found = {}
        for i, item in enumerate(items):
            if isinstance(item, Branch):
                j = i + 1 if item.go_on_if else item.otherwise.at
                ask = items[j] if j < len(items) else None
                if isinstance(ask, Ask) and j in block_of and \
                        (rows := shared_options(item.cond, ask.options)) is not None:
                    found[i] = (j, rows)
        return found

    def branch_to_ask(self, item: Branch, ask: Ask, rows, fn, k, block_of, at: int):
        """A branch that lists the options of the decision it leads to (from its own test) and asks
        it at once if there are any — as block `at` would, where the decision's frame resumes."""
        start, nested, lazy = len(fn.body), len(fn.prelude), dict(self._lazy)
        opts = self.fresh("opts")
        listed, bare = self.bare_options(rows, fn, len(ask.site.names) == 1)
        fn.body.append(f"{opts} = {listed}")
        if any("_work(" in line for line in fn.body[start:]) or any("_work(" in line for line, _ in fn.prelude[nested:]):
            # a binder counted against the step limit: listing once would count its steps once, not twice;
            # the code written for it goes, and so does the code of its lazy values (the test shares their names)
            del fn.body[start:], fn.prelude[nested:]
            self._lazy = lazy
            return self.flow_branch(item, fn, k, block_of)
        otherwise = k + 1 if not item.go_on_if else block_of[item.otherwise.at]
        fn.body.append(f"if {opts}:")
        fn.body += ["    " + line for line in self.suspend(ask.site, ask.role, fn, opts, at, at + 1, bare)]
        fn.body.append(f"return {otherwise}")

    # ------------------------------------------------------------ one method per flow item
    def flow_run(self, item: Run, fn, k, block_of):
        self.block(item.stmts, fn, "")

    def flow_newround(self, item: NewRound, fn, k, block_of):
        fn.body += ["st.round += 1", "st.round_steps = st.steps"]

    def flow_loopstart(self, item: LoopStart, fn, k, block_of):
        """The passes are counted as steps before the rows are kept (a repeat's before its list is made)."""
        count = f"_steps(st, {{}}, {self.const(item.span)}, {self.L.step_limit})"
        if item.count is not None:
            n = self.fresh("n")
            fn.body += [f"{n} = max({self.expr(item.count, fn, {})}, 0)", count.format(n)]
            value = f"[()] * {n}"
        else:
            value = self.fresh("rows")
            fn.body += [f"{value} = {self.once(Options(item.binder, span=item.binder.span), fn)}",
                        count.format(f"len({value})")]
        fn.body += [f"env[{self.const(item.rows)}] = {value}", f"env[{self.const(item.index)}] = 0"]

    def flow_nextturn(self, item: NextTurn, fn, k, block_of):
        """The next player in the round's turn order who is still in the game takes a turn."""
        current, order, at = self.L.turn_slot, self.L.turn_slot + 1, self.L.turn_slot + 2
        seat, p, to = self.const(self.L.role_index), self.fresh("p"), self.fresh("to")
        fn.body += [f"{to} = {block_of[item.done.at]}",
                    f"while st.vars[{at}] < len(st.vars[{order}]):",
                    f"    {p} = st.vars[{order}][st.vars[{at}]]",
                    f"    st.vars[{at}] += 1",
                    f"    if {p} is not None and not st.vars[{self.L.out_slot} + {seat}[{p}]]:",
                    f"        st.vars[{current}] = {p}",
                    f"        {to} = {block_of[item.turn.at]}",
                    "        break",
                    f"return {to}"]  # (one return, of a name: Merge takes in no block here)

    def flow_jump(self, item: Jump, fn, k, block_of):
        if item.span is not None:  # a jump back: one pass of a loop, or a new round
            limit = self.L.step_limit
            fn.body += ["st.steps += 1", f"if st.steps > {limit}:", f"    _runaway({self.const(item.span)}, {limit})"]
        fn.body.append(f"return {block_of[item.to.at]}")

    def flow_branch(self, item: Branch, fn, k, block_of):
        go_on, leave = k + 1, block_of[item.otherwise.at]
        first, second = (go_on, leave) if item.go_on_if else (leave, go_on)
        fn.body.append(f"return {first} if {self.once(item.cond, fn)} else {second}")

    def flow_ask(self, item: Ask, fn, k, block_of):
        opts = self.fresh("opts")
        err = self.error(item.site.span, f"the decision '{item.site.label}' has no legal option")
        hint = self.const("guard the decision with a condition that checks there is a choice")
        listed, bare = self.bare_options(item.options, fn, len(item.site.names) == 1)
        fn.body += [f"{opts} = {listed}", f"if not {opts}:", f"    _fail({err}, {hint})"]
        fn.body += self.suspend(item.site, item.role, fn, opts, k, k + 1, bare)

    def flow_askmenu(self, item: AskMenu, fn, k, block_of):
        open_ = self.fresh("open")
        fn.body.append(f"{open_} = []")
        for choice in item.choices:
            line = f"{open_}.append(({self.const(choice.name)}, {block_of[choice.to.at]}))"
            fn.body += [f"if {self.expr(choice.guard, fn, {})}:", "    " + line] if choice.guard is not None else [line]
        err = self.error(item.site.span, f"no option of '{item.site.label}' is open")
        fn.body += [f"if not {open_}:", f"    _fail({err})"]
        fn.body += self.suspend(item.site, item.role, fn, open_, k)

    def suspend(self, site, who: ir.Expr, fn: Function, opts: str, k: int, resume: int | None = None,
                bare: bool = False) -> list[str]:
        """The lines that stop block k for a decision (a menu's `opts` are (name, block) pairs;
        `bare`: the options of one name are values, made 1-tuples only for a pending Decision).

        While the engine answers quick agents itself (`st.quick`, see Game.run), the agent is
        asked here and play goes on at once where the answer leads, as Game.run would go on:
        no decision record, no return to the engine's loop. The same answer, the same game.
        Answered, the lines end by going on to the resume point, so Merge may take its code
        in (it keeps its own function, where a decision answered by the engine resumes)."""
        role = self.expr(who, fn, {})
        if site.menu:
            record = f"[(n,) for n, _ in {opts}], [t for _, t in {opts}]"  # the options, where each leads
        else:
            record = f"{'list(zip(' + opts + '))' if bare else opts}, {resume}"
        stop = [f"st.pending = _decision(({self.const(site)}, {role}, {record}))", f"st.stack[-1].pc = {k}", "return -1"]
        if not self.options.quick:
            return stop
        answer, i = self.fresh("answer"), self.fresh("i")
        # st.quick: each role's answer (or None), by name and by seat: a seat needs no method call
        mine = f"[{self.L.role_index[who.role]}]" if isinstance(who, ir.RoleRef) else f".get({role})"
        ask = f"({answer} := st.quick) is not None and ({answer} := {answer}{mine}) is not None " \
              f"and ({i} := {answer}(st.decisions, len({opts}), {self.const(site.label)})) is not None"
        if site.menu:
            answered, go_on, chosen = [], f"return {opts}[{i}][1]", f"({opts}[{i}][0],)"
        elif bare:
            answered, go_on = [f"env[{self.const(site.names[0])}] = {opts}[{i}]"], f"return {resume}"
            chosen = f"({opts}[{i}],)"
        else:
            answered = ["".join(f"env[{self.const(name)}], " for name in site.names) + f"= {opts}[{i}]"]
            go_on, chosen = f"return {resume}", f"{opts}[{i}]"
        return [f"if not ({ask}):", *("    " + line for line in stop),
                *answered, "st.decisions += 1", f"st.moves = (st.moves, {i})",
                *(["if st.events is not None:",
                   f"    st.events.append(Decided({role}, {self.const(site)}, {chosen}{self.bound(site)}))"]
                  if self.remembers else []),
                go_on]

    def bound(self, site) -> str:
        """The values of the locals a decision's words read, kept with it (`Decided.bound`)."""
        return f", ({''.join(f'env[{self.const(n)}], ' for n in site.reads)})" if site.reads else ""

    def flow_take(self, item: Take, fn, k, block_of):
        self.take(item.stmt, fn, "")

    def flow_enter(self, item: Enter, fn, k, block_of):
        args = ", ".join(f"{self.const(p)}: {self.expr(a, fn, {})}" for p, a in item.args)
        fn.body += [f"st.stack[-1].pc = {k + 1}", f"st.stack.append(Frame({self.const(item.program)}, 0, {{{args}}}))",
                    "return -2"]

    def flow_draw(self, item: Draw, fn, k, block_of):
        p = self.fresh("p")
        fn.body.append(f"{p} = env.get({self.const(PROGRESS)})")
        method(self, "draw", item.stmt)(item.stmt, fn, k, p)
        fn.body.append(f"return {k + 1}")

    def stop_for_chance(self, fn, indent: str, site, count, k: int) -> None:
        """Stop play for a chance event of `count` outcomes; its block runs again with the outcome."""
        self.emit(fn, indent, f"st.chance = Chance({self.const(site)}, {count})", f"st.stack[-1].pc = {k}", "return -1")

    def draw_roll(self, s: ir.Roll, fn, k, p):
        """Progress: [how many dice, the faces so far]."""
        site, faces = self.chance_site("roll", s), self.L.rs.dice[s.die].faces
        progress, outcome = self.const(PROGRESS), self.const(OUTCOME)
        fn.body.append(f"if {p} is None:")
        n = self.dice_count(s, fn, "    ") if s.count is not None else "1"
        self.emit(fn, "", f"    {p} = env[{progress}] = [{n}, []]", "else:",
                  f"    {p}[1].append({self.const(faces)}[env.pop({outcome})])", f"if len({p}[1]) < {p}[0]:")
        self.stop_for_chance(fn, "    ", site, len(faces), k)
        value = f"{p}[1]" if s.count is not None else f"{p}[1][0]"
        fn.body.append(f"del env[{progress}]")
        self.emit(fn, "", f"{self.assignable(s.target, s.span, fn, '')} = {value}",
                  f"st.events.append(ChanceEvent({self.const(site)}, tuple({p}[1]){self.roll_target(s.target, fn)}))")
        self.after(s, fn, "")

    def draw_shuffle(self, s: ir.Shuffle, fn, k, p):
        """The steps of `rng.shuffle` one by one: for i from n-1 down to 1, swap
        the card at i with the one at an outcome in 0..i. Progress: [zone, i]."""
        site, progress = self.chance_site("shuffle", s), self.const(PROGRESS)
        z, i, j = self.fresh("z"), self.fresh("i"), self.fresh("j")
        fn.body.append(f"if {p} is None:")
        self.emit(fn, "    ", f"{z} = {self.expr(s.zone, fn, {})}",
                  f"{p} = env[{progress}] = [{z}, len(zones[{z}]) - 1]")
        self.emit(fn, "", "else:", f"    {z} = zones[{p}[0]]", f"    {i}, {j} = {p}[1], env.pop({self.const(OUTCOME)})",
                  f"    {z}[{i}], {z}[{j}] = {z}[{j}], {z}[{i}]", f"    {p}[1] = {i} - 1", f"if {p}[1] > 0:")
        self.stop_for_chance(fn, "    ", site, f"{p}[1] + 1", k)
        fn.body.append(f"del env[{progress}]")
        self.after(s, fn, "")

    def draw_takefrom(self, s: TakeFrom, fn, k, p):
        """Progress: the options; the outcome picks one."""
        site, progress = self.chance_site("pick", s), self.const(PROGRESS)
        fn.body.append(f"if {p} is None:")
        rows = self.take_options(s, fn, "    ")
        fn.body.append(f"    env[{progress}] = {rows}")
        self.stop_for_chance(fn, "    ", site, f"len({rows})", k)
        row = self.fresh("row")
        self.emit(fn, "", f"del env[{progress}]", f"{row} = {p}[env.pop({self.const(OUTCOME)})]")
        self.bind_row(s, row, fn, "", site)

    def flow_loopnext(self, item: LoopNext, fn, k, block_of):
        i, r = self.fresh("i"), self.fresh("r")
        index = self.const(item.index)
        fn.body += [f"{i} = env[{index}]", f"{r} = env[{self.const(item.rows)}]",
                    f"if {i} >= len({r}):", f"    return {block_of[item.end.at]}", f"env[{index}] = {i} + 1"]
        fn.body += [f"env[{self.const(n)}] = {r}[{i}][{j}]" for j, n in enumerate(item.names)]
        fn.body.append(f"return {k + 1}")


def _span(item):
    """The rule an item comes from, for its note."""
    if isinstance(item, (Ask, AskMenu)):
        return item.site.span
    if isinstance(item, Run):
        return None  # its statements carry their own notes
    if isinstance(item, (Take, Draw)):
        return item.stmt.span
    if isinstance(item, Branch):
        return item.cond.span
    if isinstance(item, LoopStart):
        return (item.count or item.binder).span
    return getattr(item, "span", None)


def _absorbed(name: str, k: int) -> Function:
    """The function of a block whose code only ever runs inside another's (merge.Merge)."""
    fn = Function(name, "st, env")
    fn.body.append(f"_absorbed({k})")
    return fn
