"""Games played in the page: seats for people and for agents, hot-seat,
undo by replay, saves in the command line's format.

A `Table` holds the state; a page is only ever sent `view(seat)`: what
`Viewer.observe` projects for that seat (the projection role logs use), the
board drawn from it, its options and what happened since its last choice.
The state, the seed and the other seats' observations never leave it: the
seed of a game whose seed the page did not choose is made here and kept.
Agents play through `Game`'s public API (`decision`, `apply`), asked as the
command line asks them (`agents.asking.ask`), a bounded number of decisions
per request so that a page never waits long.
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict

from interpreter.agents.asking import AgentError, ask
from interpreter.agents.base import AgentSpecError, PlayerView
from interpreter.agents.registry import make_agent, parse_spec
from interpreter.agents.telling import event_line, render_changes
from interpreter.agents.terminal import board_drawings
from interpreter.analysis.tally import outcome_label
from interpreter.engine.game import Game
from interpreter.engine.saves import record as save_record
from interpreter.engine.scenarios import Scenario
from interpreter.engine.view import Viewer
from interpreter.runtime.errors import IllegalAction, RuleError, Runaway

from .board import Shape, draw

PERSON = "person"
BUILT_IN = ("random", "first", "greedy", "mcts")  # the agents a page may seat (never an agents file)
# how strong a page may make an agent: enough to be a real opponent, never a request that runs for minutes
STRONGEST = {"iterations": 20_000, "seconds": 10.0, "samples": 200, "depth": 6}
DECISIONS_A_REQUEST = 400  # agents' decisions played before a page is answered
SECONDS_A_REQUEST = 4.0
MOST_TABLES = 32


class Refused(Exception):
    """A request the table cannot take (not your turn, no such option, a bad agent)."""


def seat_spec(spec: str) -> str:
    """A seat's controller, checked: `person`, or a built-in agent with bounded options."""
    if spec == PERSON:
        return spec
    try:
        kind, options = parse_spec(spec)
    except AgentSpecError as exc:
        raise Refused(str(exc)) from None
    if kind not in BUILT_IN:
        raise Refused(f"the playground seats the built-in agents only ({', '.join(BUILT_IN)})")
    for name, value in options.items():
        if name in STRONGEST and not 0 < value <= STRONGEST[name]:
            raise Refused(f"agent {kind}: {name} must be above 0 and at most {STRONGEST[name]:,}")
    return spec


class Table:
    def __init__(self, game: Game, ruleset_name: str, seed: int, seats: dict[str, str],
                 scenario: Scenario | None = None):
        self.game, self.ruleset_name, self.seed, self.scenario = game, ruleset_name, seed, scenario
        self.seats = {role: seat_spec(seats.get(role, PERSON)) for role in game.roles}
        self.agents = {role: make_agent(spec, seed, role) for role, spec in self.seats.items() if spec != PERSON}
        self.viewer = Viewer(game)
        self.lock = threading.Lock()
        self.said: list[tuple[str, str]] = []  # (who, label) of every decision so far: public
        self.seen: dict[str, dict] = {}  # seat -> its observation when it last decided
        self.problem: str | None = None  # the rules or an agent failed: the game stops there
        self.placement = scenario.placed(game) if scenario is not None else None
        self.st = self._first()
        self.shape = _shape(game, self.viewer)

    def _first(self):
        return self.placement.start(self.seed) if self.placement is not None else self.game.new_state(self.seed)

    # ------------------------------------------------------------ play
    def play_agents(self) -> bool:
        """Let the agents answer, a bounded number of decisions; whether they have more to play."""
        game, st = self.game, self.st
        start, played = time.monotonic(), 0
        while self.problem is None and (d := game.decision(st)) is not None and self.seats[d.role] != PERSON:
            if played >= DECISIONS_A_REQUEST or time.monotonic() - start > SECONDS_A_REQUEST:
                return True
            try:
                index = ask(self.agents[d.role], PlayerView(game, self.viewer, st))
                self._apply(d.role, index)
            except AgentError as exc:
                self.problem = str(exc)
            played += 1
        return False

    def answer(self, seat: str, index: int) -> None:
        d = self.game.decision(self.st)
        if self.problem is not None or d is None:
            raise Refused("the game is over" if self.problem is None else self.problem)
        if d.role != seat or self.seats.get(seat) != PERSON:
            raise Refused(f"it is {d.role}'s decision, not {seat}'s")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise Refused(f"there is no option {index!r}")
        self.seen[seat] = self.viewer.observe(self.st, seat)
        self._apply(seat, index)

    def _apply(self, role: str, index: int) -> None:
        label = self.game.decision(self.st).label
        try:
            self.game.apply(self.st, index)
        except (RuleError, Runaway) as exc:
            self.problem = "the rules failed: " + exc.diagnostic.format()
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        self.said.append((role, label))

    def undo(self, seat: str) -> None:
        """Back to `seat`'s previous decision: the game played again from its start with
        the answers before it (the agents' too), which the rules replay exactly."""
        mine = [i for i, (role, _) in enumerate(self.said) if role == seat]
        if not mine:
            raise Refused(f"{seat} has made no decision to undo")
        keep = self.st.answers()[:mine[-1]]
        st = self._first()
        for answer in keep:
            self.game.apply(st, answer)
        self.st, self.said, self.problem = st, self.said[:mine[-1]], None
        self.seen.pop(seat, None)

    # ------------------------------------------------------------ what a seat is sent
    def view(self, seat: str) -> dict:
        """What `seat` may know now, and nothing else."""
        game, st, viewer = self.game, self.st, self.viewer
        if seat not in game.roles:
            raise Refused(f"no seat '{seat}' (seats: {', '.join(game.roles)})")
        obs = viewer.observe(st, seat)
        d = game.decision(st)
        options, targets = [], {}
        if d is not None and d.role == seat and self.problem is None:
            for i, text in enumerate(obs["decision"]["options"]):
                named = self._targets(d, i, seat)
                options.append({"index": i, "text": text, "targets": named})
                for t in named:
                    targets.setdefault(t, []).append(i)
        hidden = set(obs.get("statistics", ()))
        out = {
            "seat": seat, "seats": dict(self.seats), "round": obs["round"], "step": obs["step"],
            "board": draw(obs, self.shape, targets),
            "vars": {k: v for k, v in obs["vars"].items() if k not in hidden},
            "label": obs["decision"]["label"].replace("_", " ") if options else None,
            "options": options,
            "events": self._events(seat, obs),
            "changes": render_changes(self.seen[seat], obs, self.shape.titles, seat).splitlines()[1:]
            if seat in self.seen else [],
            "waiting": None if d is None or d.role == seat else d.role,
            "can_undo": any(role == seat for role, _ in self.said),
            "problem": self.problem,
        }
        if st.outcome is not None:
            out["outcome"] = {"text": outcome_label(st.outcome), "results": st.outcome["results"],
                              "scores": st.outcome["scores"], "ratings": st.outcome["ratings"],
                              "rounds": st.outcome["rounds"]}
        return out

    def _targets(self, d, index: int, seat: str) -> list[str]:
        """What an option names on the board: a card the seat sees, the zone of one it does not, a space."""
        if d.site.menu:
            return []
        out = []
        for v, card, zone in zip(d.options[index], d.site.is_card, d.site.is_zone):
            if v is None:
                continue
            if card:
                out.append(f"card:{v}" if self.viewer.sees(self.st, v, seat) else f"zone:{self.st.where[v]}")
            elif zone:
                out.append(f"zone:{v}")
        return out

    def _events(self, seat: str, obs: dict) -> list[str]:
        """What happened since the seat's last choice, as its log would say it."""
        if "events" in obs:  # the engine's own account of what is public (choices, rolls, picks, reveals)
            return [event_line(e, seat) for e in obs["events"]]
        mine = [i for i, (role, _) in enumerate(self.said) if role == seat]
        since = self.said[mine[-1] + 1:] if mine else self.said
        out = [event_line({"type": "decision", "role": role, "label": label}, seat) for role, label in since]
        return out + [event_line(e, seat) for e in obs.get("chance", ())]

    def save(self) -> dict:
        """The game as the command line saves it (`rulelang run --resume` continues it)."""
        agents = {role: "human" if spec == PERSON else spec for role, spec in self.seats.items()}
        # the ruleset as the command line names it: a bundled one by its name, a file by its path in the folder
        name = self.ruleset_name.removeprefix("bundled:")
        return save_record(self.game.ruleset, name, self.game.mode.name, self.seed, agents, self.st,
                           self.game, self.scenario)

    def replay_answers(self, answers: list[int]) -> None:
        """Play saved answers again (a loaded save, already checked by `saves.restore`)."""
        for answer in answers:
            d = self.game.decision(self.st)
            self._apply(d.role, answer)


def _shape(game: Game, viewer: Viewer) -> Shape:
    rs, layout = game.ruleset, game.layout
    possible = game.possible  # zones no card can reach in this mode are not drawn
    titles = {z.name: (z.text or z.name.replace("_", " "))[:1].upper() + (z.text or z.name.replace("_", " "))[1:]
              for z in rs.zones.values() if possible is None or possible.get(z.name)}
    instances = {name: i for i, name in enumerate(viewer.names) if i > 0}
    boards = {z.name: z for z in rs.zones.values() if z.board}
    return Shape(titles, {z.name: z.kind for z in rs.zones.values()}, instances,
                 {n: layout.zone_base[n] for n in boards}, {n: z.columns for n, z in boards.items() if z.kind == "grid"},
                 {n: list(z.places) for n, z in boards.items() if z.kind == "graph"}, board_drawings(game))


class Tables:
    """The games being played, by id (a few dozen at most: the oldest goes)."""

    def __init__(self):
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, table: Table) -> str:
        key = secrets.token_hex(8)
        with self._lock:
            self._tables[key] = table
            while len(self._tables) > MOST_TABLES:
                self._tables.popitem(last=False)
        return key

    def get(self, key: str) -> Table:
        with self._lock:
            table = self._tables.get(key)
        if table is None:
            raise Refused("no such game (it may have been closed: start another)")
        return table


def new_seed() -> int:
    return secrets.randbelow(10**12)
