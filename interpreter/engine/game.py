"""A playable game: one ruleset, one mode, compiled once — and the one public
API to its states, which every consumer (agents, the solver, logs, the
view, the terminal, the adapters) goes through.

    game = Game(load_ruleset("twenty-trials"))
    st = game.new_state(seed=1)            # runs to the first decision
    while not game.is_terminal(st):
        d = game.decision(st)              # who decides, the label, the options, where in the rules
        game.apply(st, 0)                  # answer with an option's index
    game.outcome(st), game.returns(st)

Decisions are the only way control leaves the engine — and, in a game made
with `explicit_chance=True`, chance events: every die of a roll, every
random pick and every step of a shuffle stops play with a pending `Chance`
(its outcomes and their probabilities) for the caller to resolve:

    while game.chance(st) is not None:
        game.apply_chance(st, game.sample_chance(st))   # the game's own RNG: the same game as without

`apply` and `apply_chance` check the answer before touching the state, so a
bad answer leaves the state as it was.
"""
from __future__ import annotations

import bisect
import copy
import sys

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError, did_you_mean

from ..compiler.compiled import CALL, SHARED_SETUP, SUSPEND, watch_program
from ..compiler.options import ALL, NAIVE, CompileOptions
from ..runtime import rng
from ..runtime.chance import CHANCE, OUTCOME, Chance
from ..runtime.decision import Decision, bind
from ..runtime.errors import GameEnded, IllegalAction, RuleError, Runaway, WatchFired
from ..runtime.layout import Layout, move_card
from ..runtime.state import NO_QUICK, Frame, NoQuickAnswers, State
from .compiled_cache import compiled_rules
from .invariants import Invariants
from .outcomes import placements

DEFAULT_STEP_LIMIT = 1_000_000


class Game:
    def __init__(self, ruleset: ir.Ruleset, mode: str | None = None, step_limit: int = DEFAULT_STEP_LIMIT,
                 optimize: bool = True, check_invariants: bool = False, explicit_chance: bool = False,
                 history: bool = False, after_effect=None, passes: CompileOptions | None = None,
                 cached: bool = False):
        """`passes`: the compiler's passes (compiler/options.py); by default all of them, or with
        `optimize=False` none (the rules compiled as written: the naive reference). `cached`: the
        compiled rules from and to the cache of compiled modes (compiled_cache.py), as commands get them."""
        mode = mode or ruleset.default_mode
        if mode not in ruleset.modes:
            raise RulesetError([Diagnostic(None, f"{ruleset.name} has no mode '{mode}'",
                                           did_you_mean(mode, ruleset.modes) or
                                           "modes: " + ", ".join(ruleset.modes))])
        self.ruleset, self.mode = ruleset, ruleset.modes[mode]
        self.roles = self.mode.roles
        self.passes = passes if passes is not None else ALL if optimize else NAIVE
        self.cached = cached
        self.step_limit, self.check_invariants = step_limit, check_invariants
        self.explicit_chance = explicit_chance
        self.draws_chance = False  # explicit chance resolved by the engine itself (see `drawing_chance`)
        self.layout = Layout(ruleset, self.mode, step_limit)
        self.invariants = Invariants(self.layout)
        # called after every effect (a move, draw, shuffle or flip): the invariant check, and
        # `after_effect(st, span)` if given (the sampler's, to see what a role sees as play goes)
        effect = self.invariants if check_invariants else None
        if after_effect is not None:
            effect = after_effect if effect is None else _Both(effect, after_effect)
        try:
            self.rules = compiled_rules(ruleset, self.mode, self.layout, self.passes, effect, explicit_chance,
                                        cached)
        except RecursionError:  # the front end bounds nesting; this is the last line of defence
            raise RulesetError([Diagnostic(self.mode.span, f"the rules of mode '{mode}' nest too deeply to compile",
                                           "lower the nesting, or the --limit nesting=N that let it through")]) from None
        self._step_blocks = [s.block for s in self.rules.steps]
        # rules that roll or pick at random remember it (logs, observations); others pay nothing,
        # unless asked to keep a history of every decision (`history`: a game a person plays)
        self._remembers = self.rules.remembers
        self.history = history or self._remembers
        # what every game's outcome uses, worked out once (_outcome runs at the end of every play-out)
        rules = self.rules
        # a ranking key that is every player's score (`ranking: - highest: points`, or the scores when the
        # mode ranks by nothing else) is None: the outcome reads the scores it has just worked out
        # (compared as the mode declares them: a mode from the cache of compiled modes unpickles no program)
        declared = self.mode.score
        scored = [key for key in self.mode.ranking
                  if all(r in rules.score and declared.get(r) == e for r, e in key.values.items())]
        self._ranking_keys = [(lowest, None if key in scored else keys)
                              for key, (lowest, keys) in zip(self.mode.ranking, rules.ranking)] or \
            ([(False, None)] if set(rules.score) >= set(self.roles) else [])
        self._score_nodes = [(r, f, self.mode.score.get(r)) for r, f in rules.score.items()]
        self._measure_nodes = [(n, f, self.mode.measures.get(n)) for n, f in rules.measures.items()]
        self._number_bound = 10 ** ruleset.number_digits
        self._placed: dict[tuple, tuple] = {}  # an ending that reads no ranking key -> its results, places, key
        # st.quick while no one answers quickly: None for every role, seat and none, looked up as it is
        self._no_quick = NoQuickAnswers.fromkeys([None, *range(len(self.roles)), *self.roles])
        self._shared = self._shared_setup()

    # ------------------------------------------------------------ the state API
    def new_state(self, seed: int = 0, quick: dict | None = None, watched: bool = True) -> State:
        """A new game, run to its first decision (or its end); with `quick` (see `apply`), on
        past the decisions those agents answer. `watched=False`: only the outcome will be read
        (a simulation whose agents never look): the quick agents' decisions are kept neither among
        the game's events nor among its moves (its rolls, picks and reveals still are)."""
        shared = self._shared
        if isinstance(shared, Exception):  # the setup every game shares stops with an error: so does this one
            raise shared.with_traceback(None)
        st = State(list(map(list.copy, shared.zones)), shared.where[:], shared.face_up[:], shared.vars[:],
                   rng.derive(seed, "game"), steps=shared.steps, work=shared.work, stack=[Frame("main", 0, {})],
                   props=list(map(list.copy, shared.props)), events=[] if self.history else None, seed=seed)
        st.watched, st.kept = watched and st.events is not None, watched  # (what the generated code tests)
        self.run(st, quick)
        if self.check_invariants:
            self.invariants.at_decision(st)
        return st

    def _shared_setup(self) -> State | Exception:
        """The state every game starts from: every card in the box, the variables and states as
        declared, after the setup statements every game runs alike (compiler/shared_setup.py);
        or the error they stop with."""
        n = len(self.ruleset.cards)
        zones = [[] for _ in self.layout.instances]
        zones[0] = list(range(n))
        st = State(zones, [0] * n, [True] * n, list(self.layout.initial_vars), 0,
                   stack=[Frame(SHARED_SETUP, 0, {})], props=[p[:] for p in self.layout.initial_state])
        if SHARED_SETUP in self.rules.programs:
            try:
                self.run(st)
            except (RuleError, Runaway) as exc:
                return exc
        st.stack = []
        return st

    def decision(self, st: State) -> Decision | None:
        """The decision waiting for an answer (None once the game is over, or while a chance event is pending)."""
        return st.pending

    def chance(self, st: State) -> Chance | None:
        """The chance event waiting for an outcome (explicit chance only): its
        `outcomes` with their probabilities, its `kind` and where it is (`at`)."""
        return st.chance

    def current_role(self, st: State) -> str | None:
        """Who decides now; CHANCE while a chance event is pending; None once the game is over."""
        if st.pending is not None:
            return st.pending.role
        return CHANCE if st.chance is not None else None

    def legal_actions(self, st: State) -> range:
        """The indexes of the options: what `apply` accepts."""
        return range(len(st.pending.options)) if st.pending is not None else range(0)

    def apply(self, st: State, index: int, quick: dict | None = None, stop_at: int | None = None) -> None:
        """Answer the pending decision with an option's index and play on to the next.

        `quick` (role -> `quick(number, count, label)` of the agents that have one, see
        agents/base.py) answers the decisions after it too, within this call, until one
        returns None, a role without one decides, a chance event comes, the game ends or
        `stop_at` decisions have been made: what a simulation's game spends its time in."""
        p = st.pending
        if p is None:
            raise IllegalAction("a chance event is pending: resolve it with apply_chance" if st.chance is not None
                                else "the game is over; there is no decision to answer")
        if type(index) is not int or not 0 <= index < len(p.options):
            raise IllegalAction(f"{index!r} is not an option of '{p.site.label}' "
                                f"(choose 0..{len(p.options) - 1})")
        self._answer(st, p, index)
        self.run(st, quick, stop_at)
        if self.check_invariants:
            self.invariants.at_decision(st)

    def _answer(self, st: State, p: Decision, index: int) -> None:
        """Bind a checked answer and make the frame go on where the decision leads."""
        frame = st.stack[-1]
        resume = p.resume  # (a menu's: where each option leads)
        frame.pc = resume[index] if isinstance(resume, list) else resume
        st.pending = None
        bind(st, frame.env, p.site, p.role, p.options[index], index)

    def apply_chance(self, st: State, outcome: int) -> None:
        """Resolve the pending chance event with one of its outcomes and play on
        to the next decision or chance event."""
        c = st.chance
        if c is None:
            raise IllegalAction("no chance event is pending")
        if type(outcome) is not int or not 0 <= outcome < c.count:
            raise IllegalAction(f"{outcome!r} is not an outcome of the {c.kind} at {c.at} (0..{c.count - 1})")
        st.stack[-1].env[OUTCOME] = outcome
        st.chance = None
        st.moves = (st.moves, -1 - outcome)
        self.run(st)
        if self.check_invariants:
            self.invariants.at_decision(st)

    def sample_chance(self, st: State) -> int:
        """The outcome the game's own RNG gives the pending chance event (drawn
        from `st.rng`, as the rules draw it without explicit chance)."""
        c = st.chance
        if c is None:
            raise IllegalAction("no chance event is pending")
        st.rng, outcome = rng.below(st.rng, c.count)
        return outcome

    def clone(self, st: State) -> State:
        return st.clone()

    def drawing_chance(self) -> "Game":
        """These rules (compiled with explicit chance) as a game that draws every chance
        event itself from `st.rng`, as `sample_chance` would, and stops at decisions only:
        the game search agents play ahead in, on states the sampler replays (sampling.py)."""
        if not self.explicit_chance:
            raise ValueError("only a game with explicit chance can draw it itself")
        twin = copy.copy(self)
        twin.draws_chance = True
        return twin

    def is_terminal(self, st: State) -> bool:
        return st.outcome is not None

    def outcome(self, st: State) -> dict | None:
        return st.outcome

    def returns(self, st: State) -> dict[str, float]:
        """+1 for a win, -1 for a loss, 0 for a draw (or an unfinished game)."""
        results = (st.outcome or {}).get("results", {})
        value = {"win": 1.0, "lose": -1.0}
        return {r: value.get(results.get(r), 0.0) for r in self.roles}

    def step_name(self, st: State) -> str:
        if not st.stack:
            return "Game over"
        return self._step_at(st.stack[0].pc)

    def _step_at(self, pc: int) -> str:
        """The step a block of the main program belongs to."""
        i = bisect.bisect_right(self._step_blocks, pc) - 1
        return self.rules.steps[max(i, 0)].name

    def heuristic(self, st: State, role: str) -> int | None:
        """The mode's `heuristics:` value for a role (None if it declares none)."""
        f = self.rules.heuristics.get(role)
        return f(st, {}) if f is not None else None

    def score(self, st: State, role: str) -> int | None:
        """A role's score now (None if the mode scores it not)."""
        f = self.rules.score.get(role)
        return f(st, {}) if f is not None else None

    @property
    def possible(self) -> dict[str, frozenset] | None:
        """The card types that can ever reach each zone in this game (None
        when the zone analysis is not among the passes)."""
        return self.rules.program.possible

    def check_state(self, st: State) -> None:
        """Raise InvariantBroken unless every component is in exactly one zone
        and the state has its shape (a resumed game is checked with this)."""
        self.invariants.check_state(st)

    def state_from_json(self, data: dict) -> State:
        """A state `State.to_json` wrote under these very rules (and the same chance mode)."""
        if (data.get("events") is None) == self.history:
            raise ValueError("its rolls and picks do not fit these rules")
        return State.from_json(data, self.rules.sites, self.rules.chance_sites)

    # ------------------------------------------------------------ running
    def run(self, st: State, quick: dict | None = None, stop_at: int | None = None) -> None:
        """Run until a decision is pending or the game ends (see `apply` for `quick`)."""
        limit = stop_at if stop_at is not None else sys.maxsize
        invariants = self.invariants if self.check_invariants else None
        # the generated code answers quick agents at the decision itself (blocks.suspend) when
        # nothing is to be done between two decisions: no invariants to check, no limit
        if quick is not None and stop_at is None and invariants is None:
            # by name and by seat, every role (None: none), and None for none: the generated code
            # looks a role up without a method call (blocks.suspend)
            st.quick = seats = dict(quick)
            seats[None] = None
            for i, role in enumerate(self.roles):
                seats[i] = seats[role] = quick.get(role)
        else:
            st.quick = self._no_quick
        try:
            self._run(st, quick, limit, invariants)
        finally:
            st.quick = NO_QUICK

    def _run(self, st: State, quick: dict | None, limit: int, invariants) -> None:
        stack, programs, pc, draws = st.stack, self.rules.programs, 0, self.draws_chance
        while True:
            try:
                while stack:
                    frame = stack[-1]
                    ops, env, pc = programs[frame.program], frame.env, frame.pc
                    while True:
                        while pc >= 0:  # a program's last block returns EXIT
                            pc = ops[pc](st, env)
                        if pc == SUSPEND and draws and st.chance is not None:  # drawn here, as sample_chance would
                            st.rng, outcome = rng.below(st.rng, st.chance.count)
                            env[OUTCOME] = outcome
                            st.chance = None
                            st.moves = (st.moves, -1 - outcome)
                            pc = frame.pc
                            continue
                        if pc != SUSPEND or quick is None:
                            break
                        # answer here, without leaving the loop, if a quick agent answers (the generated
                        # code has asked it already unless there are invariants or a limit to mind)
                        p = st.pending
                        if p is None or st.decisions >= limit:
                            return
                        answer = quick.get(p.role)
                        if answer is None:
                            return
                        index = answer(st.decisions, len(p.options), p.site.label)
                        if index is None:
                            return
                        if invariants is not None:
                            invariants.at_decision(st)
                        self._answer(st, p, index)
                        pc = frame.pc
                    if pc == SUSPEND:
                        return
                    if pc != CALL:
                        stack.pop()
                return
            except WatchFired as fired:
                # the step stops here; the watch's statements run, then play goes on
                main_pc = self._main_pc(st, pc)
                st.steps += 1  # a watch that fires again and again, with no decision between, is a runaway
                if st.steps > self.step_limit:
                    watch = self.rules.program.watches[fired.index]
                    raise Runaway(watch.when.span or watch.span, self.step_limit, "watch",
                                  f"'{self._step_at(main_pc)}', round {st.round:,}", fired.index + 1) from None
                stack = st.stack = [Frame("main", self._after_watch(fired.index, main_pc), {}),
                                    Frame(watch_program(fired.index), 0, {})]
            except GameEnded as end:
                st.stack = []
                st.pending = None
                st.outcome = self._outcome(st, end)
                return
            except Runaway as runaway:  # say where: the step, the round
                main_pc = self._main_pc(st, pc)
                where = f"'{self._step_at(main_pc)}', round {st.round:,}"
                # the jump back to round 1 ran out; or any rule did, but this round has had few of the
                # steps: the rounds are what never ends, not the loop or binder that took the last step
                if runaway.span == self.mode.span or runaway.kind != "binder" and \
                        st.round > 1 and st.steps - st.round_steps <= self.step_limit // 2:
                    raise Runaway(self.mode.span, runaway.limit, "rounds", where) from None
                raise runaway.at(where) from None

    def _main_pc(self, st: State, pc: int) -> int:
        """The main program's block that was running: `pc`, the block the engine ran, or where
        its function had got to when it runs other steps' blocks too (merge.Merge sets st.at);
        while a procedure or a watch runs, the block the main program goes on at."""
        if len(st.stack) != 1:
            return st.stack[0].pc
        return st.at if pc in self.rules.crossing else pc

    def _after_watch(self, index: int, main_pc: int) -> int:
        """Where the main program goes on after a watch: its `then:` step, or
        the step after the one it fired in (a new round after the last)."""
        then = self.rules.program.watches[index].then
        steps = self.rules.steps
        if then is not None:
            return next(s.block for s in steps if s.name == then)
        i = bisect.bisect_right(self._step_blocks, main_pc) - 1
        last_turn = self.rules.last_turn
        if last_turn is not None and i == last_turn[0]:  # after a turn's last step: the next player's turn
            return last_turn[1]
        return steps[i + 1].block if 0 < i < len(steps) - 1 else self.rules.round_start

    def _outcome(self, st: State, end: GameEnded) -> dict:
        layout, roles, bound = self.layout, self.roles, self._number_bound
        scores = {}
        for r, f, node in self._score_nodes:
            value = scores[r] = f(st, {})
            if type(value) is int and not -bound < value < bound:  # (a bool never is: no call for it)
                self._bounded(value, node)
        out = st.vars[layout.out_slot:layout.out_slot + len(roles)]
        # an ending that reads no ranking key places the players alike in every game (a win of one of two
        # players, a loss, a draw), with the same players out: worked out once, copied after
        ending = (end.kind, end.role if type(end.role) is not list else tuple(end.role), *out)
        placed = self._placed.get(ending)
        if placed is not None:
            results, places, decided = placed[0].copy(), placed[1].copy(), placed[2]
        else:
            results, places, decided, keyed = placements(end, roles, out, self._ranking_keys, st, scores)
            if not keyed:
                self._placed[ending] = (results.copy(), places.copy(), decided)
        ratings = {}
        if self.mode.ratings:
            for role, result in results.items():
                if result == "win" and role in scores:
                    for rating in self.mode.ratings:
                        if scores[role] >= rating.low and (rating.high is None or scores[role] <= rating.high):
                            ratings[role] = rating.name
        outcome = {"ended_by": end.kind, "role": end.role, "reason": end.reason, "results": results,
                   "places": places, "scores": scores, "ratings": ratings, "rounds": st.round,
                   "decisions": st.decisions}
        if end.kind == "end" and self.mode.ranking:  # the key that decided it, for the outcome's label
            outcome["ranked_by"] = self.mode.ranking[decided].name
        if any(out):
            outcome["eliminated"] = {r: st.vars[layout.why_slot + i] or "out" for i, r in enumerate(roles) if out[i]}
        if self._measure_nodes:
            measures = outcome["measures"] = {}
            for n, f, measure in self._measure_nodes:
                value = measures[n] = f(st, {})
                if type(value) is int and not -bound < value < bound:
                    self._bounded(value, measure)
        return outcome

    def _bounded(self, value, node):
        """A score or measure, unless it has more digits than numbers may have (it is
        computed at the end, so its growth is checked here, not where it is kept)."""
        bound = self._number_bound
        if isinstance(value, int) and not -bound < value < bound:
            digits = self.ruleset.number_digits
            span = getattr(node, "span", None) or self.mode.span
            raise RuleError(span, f"a score or measure of more than {digits:,} digits",
                            f"raise the limit with --limit number_digits=N (now {digits:,}) if the game really "
                            "needs more")
        return value

    # ------------------------------------------------------------ positions (tests, tutorials)
    def cards(self, kind: str, /, **fields) -> list[int]:
        """Ids of the cards of a type whose fields have these values."""
        return [c.id for c in self.ruleset.cards
                if c.kind == kind and all(c.values.get(k) == v for k, v in fields.items())]

    def zone_index(self, zone: str, owner: str | None = None, space: tuple[int, int] | None = None,
                   place: str | None = None) -> int:
        """A zone instance: `owner` for zones each role has, `space=(column, row)` on a grid,
        `place=NAME` on a graph."""
        base = self.layout.zone_base[zone]
        if place is not None:
            places = self.ruleset.zones[zone].places
            if place not in places:
                raise ValueError(f"{zone} has no place {place}")
            return base + list(places).index(place)
        if space is not None:
            z = self.ruleset.zones[zone]
            x, y = space
            if not (1 <= x <= z.columns and 1 <= y <= z.rows):
                raise ValueError(f"{zone} has no space {x},{y}")
            return base + (y - 1) * z.columns + x - 1
        return base + (self.layout.role_index[owner] if owner is not None else 0)

    def arrange(self, st: State, zone: str, cards: list[int], owner: str | None = None,
                space: tuple[int, int] | None = None, place: str | None = None) -> None:
        """Make a zone (or a board's space or place) hold exactly these cards, bottom first;
        cards pushed out go to the box.

        Refuses a card that can never reach the zone under this game's parameters
        (the compiled rules rely on that)."""
        zi = self.zone_index(zone, owner, space, place)
        possible = self.rules.program.possible
        for c in cards:
            kind = self.layout.kind_of[c]
            if possible is not None and kind not in possible.get(zone, ()):
                raise ValueError(f"a {kind} card can never be in {zone} in this game "
                                 f"(parameters {dict(self.ruleset.param_values)})")
        for c in list(st.zones[zi]):
            move_card(st, c, 0, True, True)
        for c in cards:
            own = self.layout.card_facing[c]  # a card type's own facing wins over the zone's
            move_card(st, c, zi, True, self.layout.facing_up[zi] if own is None else own)

    def start_step(self, st: State, step: str) -> None:
        """Continue the game from the start of a step of the current round."""
        for s in self.rules.steps:
            if s.name == step:
                st.stack, st.pending, st.chance, st.outcome = [Frame("main", s.block, {})], None, None, None
                self.run(st)
                return
        raise KeyError(f"no step named '{step}' in mode '{self.mode.name}'")

    def state_of(self, st: State, card: int, name: str):
        """A card's state value (`state:` of its type)."""
        return st.props[self.layout.state_slot[name]][card]

    def set_state(self, st: State, card: int, name: str, value) -> None:
        st.props[self.layout.state_slot[name]][card] = value


class _Both:
    """Two calls after every effect: the invariant check, then another."""

    def __init__(self, first, then):
        self.first, self.then = first, then

    def __call__(self, st, span=None) -> None:
        self.first(st, span)
        self.then(st, span)
