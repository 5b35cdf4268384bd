"""The game state: plain data only, cloned cheaply, saved to JSON.

    zones     card ids in each zone instance, bottom (left) first
    where     the zone instance of each card
    face_up   whether each card is face up
    vars      the ruleset's variables, by slot
    props     per-component state: a list per state name, a value per card
    rng       the RNG state (an int)
    round, steps, decisions   counters (and round_steps: the steps when this round began, not
              saved: it only tells a runaway's rounds from a runaway loop)
    work      the bindings big binders went through (bounded like steps; how many depends
              on how the rules were compiled, so it is no part of what a game is), counted
              since decision number work_at (the count starts again when the limit is reached
              after a decision since, work_windows times at most: compiler/prelude.py's _overwork)
    stack     the flow position: `Frame`s (program, block, locals)
    pending   the `Decision` waiting for an answer, or None
    chance    the `Chance` waiting for an outcome (rules compiled with explicit chance), or None
    outcome   the result once the game has ended, or None
    events    the rolls and picks so far, and a marker per decision (None: the rules have none)
    seed      the seed the game began with (None: unknown, a state made by hand): what a
              search agent's sampler replays the game from (agents/sampling.py)

Read it through `Game` (engine/game.py): `decision`, `current_role`,
`legal_actions`, `is_terminal`, `outcome`. The layout of the lists is the
compiler's (runtime/layout.py).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from .chance import PROGRESS, Chance, ChanceSite, events_from_json, events_to_json
from .decision import Decision, DecisionSite


@dataclass(slots=True)
class Frame:
    """Where one program is: its name, the block to run next, its locals."""
    program: str
    pc: int
    env: dict


class NoQuickAnswers(dict):
    """`State.quick` while no one answers quickly: every role's and seat's quick answer is None
    (Game.run fills in its roles and seats, so that looking them up calls nothing)."""
    __slots__ = ()

    def __missing__(self, key):
        return None


NO_QUICK = NoQuickAnswers()


class State:
    __slots__ = ("zones", "where", "face_up", "vars", "rng", "round", "steps", "decisions",
                 "stack", "pending", "outcome", "props", "chance", "events", "round_steps", "moves",
                 "quick", "at", "seed", "work", "work_at", "work_windows", "watched", "kept")

    def __init__(self, zones, where, face_up, vars, rng, round=0, steps=0, decisions=0,
                 stack=None, pending=None, outcome=None, props=None, chance=None, events=None, round_steps=0,
                 moves=None, seed=None, work=0, work_at=0, work_windows=0):
        self.zones: list[list[int]] = zones
        self.where: list[int] = where
        self.face_up: list[bool] = face_up
        self.vars: list = vars
        self.rng: int = rng
        self.round: int = round
        self.steps: int = steps
        self.work: int = work
        self.work_at: int = work_at
        self.work_windows: int = work_windows
        self.decisions: int = decisions
        self.stack: list[Frame] = stack if stack is not None else []
        self.pending: Decision | None = pending
        self.outcome: dict | None = outcome
        self.props: list[list] = props if props is not None else []
        self.chance: Chance | None = chance
        self.events: list | None = events
        self.round_steps: int = round_steps
        # every answer since the game began, newest first, as a chain (earlier, answer) that a clone
        # shares: a decision's option index, or a chance outcome o as -1 - o. A save is these answers.
        self.moves: tuple | None = moves
        # while Game.run answers quick agents itself: role, and seat, -> quick answer or None, which the
        # generated code asks at a decision without returning to the engine's loop; else NO_QUICK, where
        # every one is None (a lookup, no test of st.quick itself; never copied, never saved)
        self.quick: dict = NO_QUICK
        # while a block's function runs the code of another step's blocks: the block it is at
        # (set by the generated code, read when a watch fires or a runaway stops; never copied, never saved)
        self.at: int = 0
        self.seed: int | None = seed
        # False: no one will read this game's history (a simulation whose agents never look, Game.new_state),
        # or it keeps none (no events): the generated code keeps no decision among its events, and tests
        # this alone (true only where `events` is a list; copied by clone, never saved)
        self.watched: bool = events is not None
        # False: neither are its answers kept in `moves` by the generated code that answers quick agents (a
        # game whose caller reads only its outcome, Game.new_state); true wherever `watched` is (copied by clone)
        self.kept: bool = True

    def answers(self) -> list[int]:
        """The answers so far, oldest first (a chance outcome o as -1 - o)."""
        out, link = [], self.moves
        while link is not None:
            link, answer = link
            out.append(answer)
        return out[::-1]

    def clone(self) -> "State":
        out = State(
            [z[:] for z in self.zones], self.where[:], self.face_up[:], self.vars[:], self.rng,
            self.round, self.steps, self.decisions,
            [Frame(f.program, f.pc, _copy_env(f.env)) for f in self.stack],
            self.pending, self.outcome,  # a Decision is immutable; the outcome is never changed in place
            [p[:] for p in self.props], self.chance,
            self.events[:] if self.events is not None else None,  # each event is immutable
            self.round_steps, self.moves, self.seed, self.work, self.work_at,
            self.work_windows)
        out.watched, out.kept = self.watched, self.kept
        return out

    def to_json(self) -> dict:
        """A snapshot as plain data: nothing in it is shared with the state, so play after it
        cannot change it (a caller may keep it, or load it, without `json.dumps` between)."""
        p = self.pending
        pending = None if p is None else {"site": p.site.index, "role": p.role, "options": list(p.options),
                                          "resume": p.resume}
        return {
            "zones": [z[:] for z in self.zones], "where": self.where[:], "face_up": self.face_up[:],
            "vars": self.vars[:],
            "rng": self.rng, "round": self.round, "steps": self.steps, "work": self.work, "work_at": self.work_at,
            "work_windows": self.work_windows,
            "decisions": self.decisions,
            "stack": [[f.program, f.pc, _copy_env(f.env)] for f in self.stack], "pending": pending,
            "outcome": copy.deepcopy(self.outcome), "props": [p[:] for p in self.props],
            "chance": None if self.chance is None else {"site": self.chance.site.index, "count": self.chance.count},
            "events": events_to_json(self.events), "answers": self.answers(), "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict, sites: tuple[DecisionSite, ...],
                  chance_sites: tuple[ChanceSite, ...] = ()) -> "State":
        """A state saved by `to_json`, under the same compiled rules (their decision and chance sites)."""
        p = data["pending"]
        pending = None if p is None else Decision(
            sites[p["site"]], p["role"], [tuple(o) if isinstance(o, list) else o for o in p["options"]], p["resume"])
        c = data.get("chance")
        chance = None if c is None else Chance(chance_sites[c["site"]], c["count"])
        return cls(data["zones"], data["where"], data["face_up"], data["vars"], data["rng"],
                   data["round"], data["steps"], data["decisions"],
                   [Frame(program, pc, _rows_as_tuples(env, chance)) for program, pc, env in data["stack"]],
                   pending, data["outcome"], data.get("props", []), chance,
                   events_from_json(data.get("events"), chance_sites, sites), data["steps"],
                   _chain(data.get("answers", ())),
                   data.get("seed") if type(data.get("seed")) is int else None, data.get("work", 0),
                   data.get("work_at", 0), data.get("work_windows", 0))


_PLAIN = frozenset({int, str, bool, float, type(None)})


def _copy_env(env: dict) -> dict:
    """A frame's locals, copied for a clone: numbers, names and tuples of them
    are shared; lists (bindings, a roll's progress) are copied all the way down.
    Far cheaper than `copy.deepcopy`, which search agents paid at every sample."""
    return {name: value if type(value) in _PLAIN else _copy_value(value) for name, value in env.items()}


def _copy_value(value):
    kind = type(value)
    if kind is list:
        return [x if type(x) in _PLAIN or type(x) is tuple else _copy_value(x) for x in value]
    if kind is tuple and all(type(x) in _PLAIN for x in value):
        return value
    return copy.deepcopy(value)


def _chain(answers) -> tuple | None:
    link = None
    for answer in answers:
        link = (link, answer)
    return link


def _rows_as_tuples(env: dict, chance: Chance | None) -> dict:
    """A frame's locals as the generated code made them: the bindings a loop
    keeps (`$rows…`) and a pending pick's options are lists of tuples, which
    JSON writes as lists of lists. (Values the rules compute are never tuples.)"""
    for name, value in env.items():
        if name.startswith("$rows") or (name == PROGRESS and chance is not None and chance.kind == "pick"):
            env[name] = [tuple(row) for row in value]
    return env
