"""Flow items -> basic blocks, one generated function each.

A program (flow.py) becomes a list of functions `b0, b1, ...`, each
`block(st, env) -> index of the next block` (a `Goto`, a `Branch`), SUSPEND
at a decision (the pending `Decision` set, the frame's block index saved) or
CALL after pushing a procedure's frame; one more block after the last returns
EXIT. The engine runs them in a loop; nothing else ever leaves the generated
code. merge.py then writes straight-line runs of blocks as one function.

With explicit chance, a drawing statement (`Draw`) is a block of its own
that keeps its progress in the frame (`env[PROGRESS]`) and stops with a
pending `Chance` before each draw; the engine puts the outcome in
`env[OUTCOME]` and runs the block again, until the statement is done.
"""
from __future__ import annotations

import ast

from rulelang import ir
from rulelang.types import ZoneT
from rulelang.walk import dispatch

from ..runtime.chance import OUTCOME, PROGRESS
from . import pycode as code
from .carried import carried
from .compiled import EXIT, SUSPEND
from .context import TOP, Part
from .flow import TERMINATORS, Ask, AskMenu, Branch, Draw, Enter, Jump, LoopNext, LoopStart, Lowered, NewRound, \
    NextTurn, Run, Take, labels_of
from .live import drop_dead_stores
from .merge import Merge, entry_blocks, followers, locals_not_in_env
from .nodes import Options, TakeFrom
from .quantifiers import options_in
from .said import said_where_read
from .pycode import STORE, EnvRef, Goto, Nested
from .share import shared_options
from .statements import COUNTED
from .unit import Function


class Blocks(Part):
    def __init__(self, gen):
        super().__init__(gen)
        self.crossing: frozenset[int] = frozenset()  # of the program last made into blocks: see Merge

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

        def fill(top: Function):
            fns, keys = [], []  # the blocks' functions, the locals each uses
            for k, (a, b) in enumerate(ranges):
                fn = Function(f"b{k}", ("st", "env"))
                self.g.units.locals = set()
                for i in range(a, b):
                    item = items[i]
                    start = len(fn.body)
                    if i in asks:
                        j, rows = asks[i]
                        self.branch_to_ask(item, items[j], rows, fn, k, block_of, block_of[j])
                    else:
                        dispatch(self, "flow", item, fn, k, block_of)
                    span = _span(item)
                    if span is not None and start < len(fn.body):
                        code.note(fn.body[start], self.g.origin(span))
                if not isinstance(items[b - 1], TERMINATORS):
                    fn.body.append(Goto(k + 1))
                fns.append(fn)
                keys.append(self.g.units.locals)
            if self.options.merge:
                final, taken = self.merged(fns, items, ranges, block_of, [block_of[label.at] for label in leaders])
            else:
                final, taken, self.crossing = fns, [{k} for k in range(len(fns))], frozenset()
            own = {self.const(n).id for item in items if isinstance(item, LoopNext) for n in (item.rows, item.index)}
            known: list = []  # (_standing_once, worked out once if a function asks)

            def once() -> frozenset:
                if not known:
                    known.append(_standing_once(final))
                return known[0]
            for fn in final if self.options.locals else ():
                fn.body = carried(code.aliased(fn.body, self.fresh, once), own, self.fresh)
            if self.options.locals and not (self.g.program is not None and self.g.program.watches):
                # (a watch that fires may stop a block anywhere: its stores are left)
                keep = frozenset(f"k{j}" for j, v in enumerate(self.g.units.consts) if v in (PROGRESS, OUTCOME))
                bodies = drop_dead_stores({k: fn.body for k, fn in enumerate(final)}, keep, len(ranges))
                for k, fn in enumerate(final):
                    fn.body = bodies[k]
            for k in self.crossing if self.options.idioms else ():  # (their steps said where they may be read)
                final[k].body = said_where_read(final[k].body)
            top.prelude += [fn.definition() for fn in final]
            # one more block, at the program's end: the engine's loop then only tests for a negative index
            top.prelude += code.stmts(f"def b{len(ranges)}(st, env):\n    return EXIT", EXIT=EXIT)
            top.body.append(ast.Return(code.list_of([f"b{k}" for k in range(len(ranges) + 1)])))
            if not self.options.locals:
                return frozenset()
            # a decision's answer, and what its options' words read when a person is asked, live in `env`
            kept = {n for item in items if isinstance(item, (Ask, AskMenu)) for n in item.site.names + item.site.reads}
            kept |= set(bound_outside) | {OUTCOME, PROGRESS}
            return locals_not_in_env(keys, taken, {f"k{j}" for j, v in enumerate(self.g.units.consts)
                                                   if isinstance(v, str) and v in kept})
        spans = (_span(item) for item in items)
        return self.g.units.build(fill, next((s for s in spans if s is not None), None), what)(None, None), block_of

    def merged(self, fns: list[Function], items, ranges, block_of, leads: list[int]) -> tuple[list, list]:
        """The blocks' functions with straight-line runs merged (merge.py), and for each the blocks
        whose code it holds."""
        merge = Merge(fns, followers(items, ranges, block_of), leads)
        entries = entry_blocks(items, ranges, block_of, leads)
        made = {}
        for k in range(len(fns)):
            if k not in merge.absorbed or k in entries:  # else its code runs only inside another's
                made[k] = merge.function(k)
        while missing := {k for k in merge.exits - made.keys() if k < len(fns)}:  # unless one returns to it
            made.update((k, merge.function(k)) for k in sorted(missing))
        self.crossing = frozenset(merge.crossing)
        return [made.get(k) or _absorbed(fn.name, k) for k, fn in enumerate(fns)], \
            [merge.taken.get(k, set()) for k in range(len(fns))]

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

    def branch_to_ask(self, item: Branch, ask: Ask, rows, fn: Function, k, block_of, at: int):
        """A branch that lists the options of the decision it leads to (from its own test) and asks
        it at once if there are any — as block `at` would, where the decision's frame resumes."""
        nested, lazy, counted = len(fn.prelude), dict(fn.lazy), self.g.work_counted
        opts, listing = self.fresh("opts"), list[ast.stmt]()
        listed, bare, fixed = self.g.quants.bare_options(rows, fn, listing, len(ask.site.names) == 1)
        if self.g.work_counted != counted:
            # a binder counted as work: listing once would count its bindings once, not twice; the code
            # written for it goes, and so does the code of its lazy values (the test shares their names)
            del fn.prelude[nested:]
            fn.lazy, fn.made = lazy, None
            return self.flow_branch(item, fn, k, block_of)
        otherwise = k + 1 if not item.go_on_if else block_of[item.otherwise.at]
        asked = self.g.origin(ask.site.span) if ask.site.span is not None else None  # (the listing: the test's)
        if fixed and type(listed) is ast.Name:  # a list its own lines built: no copy (a comprehension reads it)
            opts = listed.id
        else:
            listing.append(code.note(code.assign(opts, listed), asked))
        asking = self.suspend(ask.site, ask.role, fn, opts, at, at + 1, bare, fixed=fixed, placed=self.placed(rows))
        fn.body += listing + [code.note(ast.If(code.name(opts), asking, []), asked), Goto(otherwise)]

    # ------------------------------------------------------------ one method per flow item
    def flow_run(self, item: Run, fn, k, block_of):
        self.g.stmts.block(item.stmts, fn, fn.body)

    def flow_newround(self, item: NewRound, fn, k, block_of):
        fn.body += code.stmts("st.round += 1\nst.round_steps = st.steps")

    def flow_loopstart(self, item: LoopStart, fn, k, block_of):
        """The passes are counted as steps before the rows are kept (a repeat's before its list is made)."""
        span, limit = self.const(item.span), self.L.step_limit
        if item.count is not None:
            n = self.fresh("n")
            fn.body += code.stmts("N = max(COUNT, 0)\n" + COUNTED.format("N"), N=n, SPAN=span, LIMIT=limit,
                                  COUNT=self.expr(item.count, fn, TOP))
            value = code.expr("[()] * N", N=n)
        else:
            value = code.name(self.fresh("rows"))
            listed = self.g.lazy.once(Options(item.binder, span=item.binder.span), fn, fn.body, TOP)
            fn.body += [code.assign(value.id, listed),
                        *code.stmts(COUNTED.format("len(ROWS)"), ROWS=value, SPAN=span, LIMIT=limit)]
        fn.body += [code.assign(self._env(item.rows), value), code.assign(self._env(item.index), 0)]

    def _env(self, name: str) -> EnvRef:
        return self.local(name, STORE)

    def flow_nextturn(self, item: NextTurn, fn, k, block_of):
        """The next player in the round's turn order who is still in the game takes a turn."""
        current = self.L.turn_slot
        fn.body += code.stmts("TO = DONE\n"
                              "while st.vars[AT] < len(st.vars[ORDER]):\n"
                              "    P = st.vars[ORDER][st.vars[AT]]\n"
                              "    st.vars[AT] += 1\n"
                              "    if P is not None and not st.vars[OUT + SEAT[P]]:\n"
                              "        st.vars[CURRENT] = P\n"
                              "        TO = TURN\n"
                              "        break\n"
                              "return TO",  # (a block known only in play: Merge takes in neither)
                              TO=self.fresh("to"), P=self.fresh("p"), DONE=block_of[item.done.at],
                              TURN=block_of[item.turn.at], AT=current + 2, ORDER=current + 1, CURRENT=current,
                              OUT=self.L.out_slot, SEAT=self.const(self.L.role_index))

    def flow_jump(self, item: Jump, fn, k, block_of):
        if item.span is not None:  # a jump back: one pass of a loop, or a new round
            fn.body += code.stmts("st.steps += 1\nif st.steps > LIMIT:\n    _runaway(SPAN, LIMIT)",
                                  LIMIT=self.L.step_limit, SPAN=self.const(item.span))
        fn.body.append(Goto(block_of[item.to.at]))

    def flow_branch(self, item: Branch, fn, k, block_of):
        go_on, leave = k + 1, block_of[item.otherwise.at]
        first, second = (go_on, leave) if item.go_on_if else (leave, go_on)
        fn.body.append(code.Branch(self.g.lazy.once(item.cond, fn, fn.body, TOP), first, second))

    def flow_ask(self, item: Ask, fn, k, block_of):
        opts = self.fresh("opts")
        err = self.error(item.site.span, f"the decision '{item.site.label}' has no legal option")
        hint = self.const("guard the decision with a condition that checks there is a choice")
        listed, bare, fixed = self.g.quants.bare_options(item.options, fn, fn.body, len(item.site.names) == 1)
        if fixed and type(listed) is ast.Name:  # (as in branch_to_ask)
            opts = listed.id
            fn.body += code.stmts("if not OPTS:\n    _fail(ERR, HINT)", OPTS=opts, ERR=err, HINT=hint)
        else:
            fn.body += code.stmts("OPTS = LISTED\nif not OPTS:\n    _fail(ERR, HINT)", OPTS=opts, LISTED=listed,
                                  ERR=err, HINT=hint)
        fn.body += self.suspend(item.site, item.role, fn, opts, k, k + 1, bare, fixed=fixed,
                                placed=self.placed(item.options))

    def placed(self, options: ir.Expr) -> dict[int, tuple[int, bool | None]]:
        """The names of a decision's options (by place) that hold cards of one zone, each a different card:
        those of its first group, where that goes through a zone no player owns (`a, b in hand`: two
        cards of it); with the zone, how its cards lie if every one lies as the zone's do."""
        inner = options_in(options)
        if not self.options.idioms or not isinstance(inner, Options):
            return {}
        group = inner.binder.groups[0]
        domain = group.domain
        if not (isinstance(domain, ir.ZoneRef) and domain.owner is None and isinstance(domain.ty, ZoneT)):
            return {}
        zone = self.L.zone_base[domain.zone]
        lies = self.L.facing_up[zone] if zone in self.g.lie_as_zones else None
        return {i: (zone, lies) for i in range(len(group.names))}

    def flow_askmenu(self, item: AskMenu, fn, k, block_of):
        open_ = self.fresh("open")
        fn.body.append(code.assign(open_, ast.List([], ast.Load())))
        for choice in item.choices:
            add = code.stmt("OPEN.append((NAME, TO))", OPEN=open_, NAME=self.const(choice.name),
                            TO=block_of[choice.to.at])
            fn.body.append(add if choice.guard is None else ast.If(self.expr(choice.guard, fn, TOP), [add], []))
        err = self.error(item.site.span, f"no option of '{item.site.label}' is open")
        fn.body += code.stmts("if not OPEN:\n    _fail(ERR)", OPEN=open_, ERR=err)
        fn.body += self.suspend(item.site, item.role, fn, open_, k, menu=tuple(block_of[c.to.at] for c in item.choices))

    def suspend(self, site, who: ir.Expr, fn: Function, opts: str, k: int, resume: int | None = None,
                bare: bool = False, menu: tuple[int, ...] = (), fixed: dict | None = None,
                placed: dict[int, tuple[int, bool | None]] | None = None) -> list[ast.stmt]:
        """The statements that stop block k for a decision (a menu's `opts` are (name, block) pairs,
        `menu` every block they may lead to; `bare`: the options of one name are values, made
        1-tuples only for a pending Decision; `fixed`: names bound to one constant, left out of the
        options' tuples, and put back in only for a pending Decision and a record; `placed`: the names
        (by place) whose cards the options list from one zone, each a different card: what goes on
        after a quick answer takes them off it, peeks.known_zones).

        While the engine answers quick agents itself (`st.quick`, see Game.run), the agent is
        asked here and play goes on at once where the answer leads, as Game.run would go on:
        no decision record, no return to the engine's loop. The names are bound as
        runtime/decision.bind binds them, and the rest of the answer is its `answered`, as
        for every answer: the same answer, the same game. Answered, the code ends by going
        on to the resume point, so Merge may take its code in (it keeps its own function,
        where a decision answered by the engine resumes)."""
        role = self.expr(who, fn, TOP)
        if site.menu:  # the options, and where each leads
            listed, leads = code.expr("[(n,) for n, _ in OPTS]", OPTS=opts), code.expr("[t for _, t in OPTS]", OPTS=opts)
        elif fixed:
            listed, leads = self._widened(site.names, fixed, fn, opts), code.const(resume)
        else:
            listed, leads = code.expr("list(zip(OPTS))", OPTS=opts) if bare else code.name(opts), code.const(resume)
        stop = code.stmts("st.pending = _decision((SITE, ROLE, LISTED, LEADS))\nst.stack[-1].pc = K",
                          SITE=self.const(site), ROLE=role, LISTED=listed, LEADS=leads, K=k)
        stop.append(self.stopped((resume,) if resume is not None else menu, site.names, site.reads))
        if not self.options.quick:
            return stop
        answer, i = self.fresh("answer"), self.fresh("i")
        # st.quick: each role's answer (or None), by seat, by name and for none (Game.run; while no one
        # answers quickly, state.NO_QUICK: None for every one): no method call, no test of st.quick itself
        mine = code.expr("st.quick[SEAT]", SEAT=self.L.role_index[who.role]) \
            if isinstance(who, ir.RoleRef) else code.expr("st.quick[ROLE]", ROLE=role)
        ask = code.expr("(ANSWER := MINE) is not None and (I := ANSWER(st.decisions, len(OPTS), LABEL)) is not None",
                        ANSWER=answer, MINE=mine, I=i, OPTS=opts, LABEL=self.const(site.label))
        if site.menu:
            names, go_on = [], code.stmt("return OPTS[I][1]", OPTS=opts, I=i)
            option = code.expr("(OPTS[I][0],)", OPTS=opts, I=i)
        else:
            assert resume is not None  # (a decision over options goes on after it)
            varying = [n for n in site.names if not fixed or n not in fixed]
            targets = self._env(site.names[0]) if bare else code.tuple_of([self._env(n) for n in varying], STORE)
            names, go_on = [code.assign(targets, code.expr("OPTS[I]", OPTS=opts, I=i))], Goto(resume)
            go_on.answered = True  # type: ignore[attr-defined]  # (Merge takes its code in even inside an `if`)
            go_on.placed = {self.local(site.names[i]).key: z  # type: ignore[attr-defined]
                            for i, z in (placed or {}).items() if site.names[i] in varying}
            names += [code.assign(self._env(n), self.expr(fixed[n], fn, TOP)) for n in site.names if fixed and n in fixed]
            option = code.expr("(OPTS[I],)" if bare else "OPTS[I]", OPTS=opts, I=i) if not fixed else \
                ast.Tuple([self.expr(fixed[n], fn, TOP) if n in fixed else
                           code.expr(f"OPTS[I][{varying.index(n)}]", OPTS=opts, I=i) for n in site.names], ast.Load())
        # the names written out (a call of bind here cost 6% of a Twenty Trials game), and decision.answered
        # too (a call of it, 2%): counted, kept among the moves unless only the game's outcome will be read
        # (st.kept: a simulation's), and recorded if someone may read the game's events (st.watched: only ever
        # true of a game that keeps them and its moves) as decision.recorded records it, with the values of
        # the locals its options' words read (a call of it cost 10% of a watched Oh Hell game)
        reads = code.tuple_of([self.local(n) for n in site.reads])
        answered = code.stmts("st.decisions += 1\n"
                              "if st.kept:\n"
                              "    st.moves = (st.moves, I)\n"
                              "    if st.watched:\n"
                              "        st.events.append(_decided((ROLE, SITE, OPTION, READS)))",
                              SITE=self.const(site), ROLE=role, OPTION=option, I=i, READS=reads)
        return [ast.If(ast.UnaryOp(ast.Not(), ask), stop, []), *names, *answered, go_on]

    def _widened(self, names: tuple[str, ...], fixed: dict, fn: Function, opts: str) -> ast.expr:
        """The options as the Decision lists them, each a tuple of all the names: those bound to one
        constant put back in (`[(o0, o1, None, None) for o0, o1 in opts]`)."""
        varying = [n for n in names if n not in fixed]
        row = ", ".join(f"o{varying.index(n)}" if n not in fixed else f"F{names.index(n)}" for n in names)
        loop = ", ".join(f"o{j}" for j in range(len(varying))) + ("," if len(varying) == 1 else "")
        return code.expr(f"[({row}) for {loop} in OPTS]", OPTS=opts,
                         **{f"F{names.index(n)}": self.expr(fixed[n], fn, TOP) for n in fixed})

    def stopped(self, resumes, names, reads) -> ast.Return:
        """`return -1` where a decision stops play, marked with what may read the frame next (live.py):
        the blocks it resumes at, once the engine has bound its names, and what its options' words read."""
        stop = ast.Return(ast.Constant(SUSPEND))
        stop.resumes = (tuple(resumes), frozenset(self.const(n).id for n in names),  # type: ignore[attr-defined]
                        frozenset(self.const(n).id for n in reads))
        return stop

    def flow_take(self, item: Take, fn, k, block_of):
        self.g.stmts.take(item.stmt, fn, fn.body)

    def flow_enter(self, item: Enter, fn, k, block_of):
        args = ast.Dict([self.const(p) for p, _ in item.args], [self.expr(a, fn, TOP) for _, a in item.args])
        fn.body += code.stmts("st.stack[-1].pc = NEXT\nst.stack.append(Frame(PROGRAM, 0, ARGS))\nreturn -2", NEXT=k + 1,
                              PROGRAM=self.const(item.program), ARGS=args)

    def flow_draw(self, item: Draw, fn, k, block_of):
        p = self.fresh("p")
        fn.body.append(code.assign(p, code.expr("env.get(PROGRESS)", PROGRESS=self.const(PROGRESS))))
        dispatch(self, "draw", item.stmt, fn, k, p)
        fn.body.append(Goto(k + 1))

    def stop_for_chance(self, site, count: ast.expr, k: int) -> list[ast.stmt]:
        """Stop play for a chance event of `count` outcomes; its block runs again with the outcome."""
        return code.stmts("st.chance = Chance(SITE, COUNT)\nst.stack[-1].pc = K\nreturn -1", SITE=self.const(site),
                          COUNT=count, K=k)

    def draw_roll(self, s: ir.Roll, fn, k, p):
        """Progress: [how many dice, the faces so far]."""
        stmts, faces = self.g.stmts, self.L.rs.dice[s.die].faces
        site = stmts.chance_site("roll", s)
        progress, outcome = self.const(PROGRESS), self.const(OUTCOME)
        first: list = []
        n = stmts.dice_count(s, fn, first) if s.count is not None else code.const(1)
        first.append(code.stmt("P = env[PROGRESS] = [N, []]", P=p, PROGRESS=progress, N=n))
        fn.body += [ast.If(code.expr("P is None", P=p), first,
                           code.stmts("P[1].append(FACES[env.pop(OUTCOME)])", P=p, FACES=self.const(faces),
                                      OUTCOME=outcome)),
                    ast.If(code.expr("len(P[1]) < P[0]", P=p), self.stop_for_chance(site, code.const(len(faces)), k), [])]
        value = code.expr("P[1]" if s.count is not None else "P[1][0]", P=p)
        fn.body.append(code.stmt("del env[PROGRESS]", PROGRESS=progress))
        target = stmts.assignable(s.target, s.span, fn, fn.body)
        fn.body += [code.assign(target, value),
                    code.stmt("st.events.append(EVENT)", EVENT=stmts.chance_event(site, code.expr("tuple(P[1])", P=p),
                                                                                    s.target, fn))]
        stmts.after(s, fn.body)

    def draw_shuffle(self, s: ir.Shuffle, fn, k, p):
        """The steps of `rng.shuffle` one by one: for i from n-1 down to 1, swap
        the card at i with the one at an outcome in 0..i. Progress: [zone, i]."""
        site, progress = self.g.stmts.chance_site("shuffle", s), self.const(PROGRESS)
        z, i, j = self.fresh("z"), self.fresh("i"), self.fresh("j")
        fn.body += code.stmts("if P is None:\n"
                              "    Z = ZONE\n"
                              "    P = env[PROGRESS] = [Z, len(zones[Z]) - 1]\n"
                              "else:\n"
                              "    Z = zones[P[0]]\n"
                              "    I, J = P[1], env.pop(OUTCOME)\n"
                              "    Z[I], Z[J] = Z[J], Z[I]\n"
                              "    P[1] = I - 1", P=p, Z=z, I=i, J=j, ZONE=self.expr(s.zone, fn, TOP),
                              PROGRESS=progress, OUTCOME=self.const(OUTCOME))
        fn.body.append(ast.If(code.expr("P[1] > 0", P=p), self.stop_for_chance(site, code.expr("P[1] + 1", P=p), k), []))
        fn.body.append(code.stmt("del env[PROGRESS]", PROGRESS=progress))
        self.g.stmts.after(s, fn.body)

    def draw_takefrom(self, s: TakeFrom, fn, k, p):
        """Progress: the options; the outcome picks one."""
        stmts = self.g.stmts
        site, progress = stmts.chance_site("pick", s), self.const(PROGRESS)
        first: list = []
        rows = stmts.take_options(s, fn, first)
        first.append(code.stmt("env[PROGRESS] = ROWS", PROGRESS=progress, ROWS=rows))
        first += self.stop_for_chance(site, code.call("len", rows), k)
        fn.body.append(ast.If(code.expr("P is None", P=p), first, []))
        row = self.fresh("row")
        fn.body += code.stmts("del env[PROGRESS]\nROW = P[env.pop(OUTCOME)]", PROGRESS=progress, ROW=row, P=p,
                              OUTCOME=self.const(OUTCOME))
        stmts.bind_row(s, code.name(row), fn.body, site)

    def flow_loopnext(self, item: LoopNext, fn, k, block_of):
        i, r = self.fresh("i"), self.fresh("r")
        fn.body += [code.assign(i, self.local(item.index)), code.assign(r, self.local(item.rows)),
                    ast.If(code.expr("I >= len(R)", I=i, R=r), [Goto(block_of[item.end.at])], []),
                    code.assign(self.local(item.index, STORE), code.expr("I + 1", I=i))]
        for j, n in enumerate(item.names):  # in a local too, that the code after it may read (code.aliased)
            fn.body.append(ast.Assign([self._env(n), ast.Name(self.fresh("v"), STORE)],
                                      code.expr("R[I][J]", R=r, I=i, J=j)))
        fn.body.append(Goto(k + 1))


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
    fn = Function(name, ("st", "env"))
    fn.body.append(code.stmt("_absorbed(K)", K=k))
    return fn


def _standing_once(fns: list) -> frozenset:
    """The nested functions defined at one place only in these functions (merge.py may put a block's
    code in more than one)."""
    seen: dict[str, int] = {}
    for n in code.own_statements([s for fn in fns for s in fn.prelude + fn.body], scopes=()):
        if type(n) is Nested:
            seen[n.name] = seen.get(n.name, 0) + 1
    return frozenset(name for name, k in seen.items() if k == 1)
