"""A game played one action id at a time: the one state machine under every
framework adapter.

An `Episode` is a rulelang state plus what an adapter adds to it: the ids
chosen so far in the pending decision (its sub-decisions), how many ids
were played, why play stopped early (`truncated`: the rules ran past the
step limit, or the game past `max_moves`; `forfeit`: the role that played
an illegal id, which ends the game: returns.py) and, when asked for, each role's
record — what it saw at each of its decisions, what it chose, and which
decisions the others made (role and label, as a player's log shows them):
its information state, in order.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from rulelang import find_ruleset, load_ruleset
from rulelang.files import bundled

from ..engine.game import DEFAULT_STEP_LIMIT, Game
from ..engine.view import Viewer
from ..runtime.chance import Chance
from ..runtime.errors import Runaway
from ..runtime.state import State
from .actions import ActionSpace
from .observations import Encoding
from .rerolls import Kept, draw
from .returns import forfeited, zero_sum

DEFAULT_MAX_MOVES = 100_000  # action ids in one game: a game still going then is truncated


@dataclass
class Episode:
    st: State
    chosen: tuple[int, ...] = ()
    moves: int = 0
    truncated: str | None = None
    records: dict[str, list[str]] | None = None
    answers: list[tuple[int, ...]] = field(default_factory=list)  # the pending decision's options as ids
    forfeit: str | None = None  # the role that ended the game with an illegal action

    def __deepcopy__(self, memo) -> "Episode":  # OpenSpiel clones a state's attributes with deepcopy
        return self.clone()

    def __getstate__(self) -> dict:
        """As pickle (and OpenSpiel's serialisation) takes it: the state's answers as a flat
        list, not the chain a clone shares, which is as deep as the game is long."""
        st = self.st.clone()
        st.moves = None
        return dict(self.__dict__, st=st, answers_so_far=self.st.answers())

    def __setstate__(self, data: dict) -> None:
        data = dict(data)
        link = None
        for answer in data.pop("answers_so_far"):
            link = (link, answer)
        self.__dict__.update(data)
        self.st.moves = link

    def clone(self) -> "Episode":
        records = None if self.records is None else {r: list(h) for r, h in self.records.items()}
        return Episode(self.st.clone(), self.chosen, self.moves, self.truncated, records, self.answers, self.forfeit)


@dataclass(frozen=True)
class Made:
    """How an environment's game is made: what it was asked for, as plain data
    (an environment pickles this, and makes its driver again from it)."""
    ruleset: str  # a bundled ruleset's name, or a file's absolute path
    mode: str | None
    max_moves: int
    step_limit: int
    params: tuple[tuple[str, str], ...]  # the ruleset's parameters, as the loader reads them

    def __init__(self, ruleset: str, mode: str | None, max_moves: int = DEFAULT_MAX_MOVES,
                 step_limit: int = DEFAULT_STEP_LIMIT, params: dict | None = None):
        path = find_ruleset(ruleset)  # a file named so here first, as every command takes it
        ref = ruleset if path == bundled(ruleset) else str(path.resolve())
        texts = {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in (params or {}).items()}
        for name, value in [("ruleset", ref), ("mode", mode), ("max_moves", max_moves), ("step_limit", step_limit),
                            ("params", tuple(sorted(texts.items())))]:
            object.__setattr__(self, name, value)

    def driver(self) -> "Driver":
        return kept_driver(self, lambda: Driver(Game(load_ruleset(self.ruleset, dict(self.params)), self.mode,
                                                     step_limit=self.step_limit, cached=True), self.max_moves))


# Drivers made before, kept while their files are unchanged: an environment copied or
# unpickled (gymnasium's checker, a vector of environments, OpenSpiel's states) is neither
# read nor compiled again (Hand of Fate: 1.5 s a compile). A driver holds no game's state.
_KEPT: dict = {}  # key -> (the files' stamps, its driver), the most recent last
KEPT = 8


def kept_driver(key, make: Callable[[], "Driver"]) -> "Driver":
    stamps, driver = _KEPT.pop(key, ((), None))
    if driver is None or stamps_of(driver.game.ruleset.files) != stamps:
        driver = make()
        stamps = stamps_of(driver.game.ruleset.files)
    _KEPT[key] = stamps, driver
    while len(_KEPT) > KEPT:
        del _KEPT[next(iter(_KEPT))]
    return driver


def stamps_of(files) -> tuple:
    """When each file of a ruleset (a variant's chain) last changed, and its size."""
    out = []
    for path in files:
        try:
            info = os.stat(path)
        except OSError:
            return ()
        out.append((info.st_mtime_ns, info.st_size))
    return tuple(out)


class Driver:
    def __init__(self, game: Game, max_moves: int = DEFAULT_MAX_MOVES, record: bool = False,
                 kept: dict[str, Kept] | None = None):
        """`kept`: the dice of re-rolls written as one roll (rerolls.py), drawn as their loops draw."""
        self.game, self.max_moves, self.record = game, max_moves, record
        self.kept = kept or {}
        self.viewer = Viewer(game)
        self.actions = ActionSpace(game, self.viewer)
        self.encoding = Encoding(game, self.viewer, self.actions)
        self.roles = list(game.roles)
        self.zero_sum = zero_sum(game)

    def new(self, seed: int = 0) -> Episode:
        ep = Episode(self.game.new_state(seed), records={r: [] for r in self.roles} if self.record else None)
        self._arrived(ep)
        return ep

    # ------------------------------------------------------------ where play is
    def current(self, ep: Episode) -> str | None:
        """The role to move, CHANCE, or None once the game is over (or truncated, or forfeited)."""
        return None if ep.truncated or ep.forfeit else self.game.current_role(ep.st)

    def is_over(self, ep: Episode) -> bool:
        return ep.truncated is not None or ep.forfeit is not None or self.game.is_terminal(ep.st)

    def returns(self, ep: Episode) -> list[float]:
        """+1 a win, -1 a loss, 0 a draw or a game cut short, per role in order; a forfeit's (returns.py)."""
        if ep.forfeit is not None:
            return forfeited(self.roles, ep.forfeit, self.zero_sum)
        values = self.game.returns(ep.st)
        return [values[r] for r in self.roles]

    def ending(self, ep: Episode) -> dict:
        """How the game ended, for an environment's `info`: its outcome, why it was cut
        short (`truncated`), or who forfeited it with an illegal action (`illegal_action`)."""
        if ep.forfeit is not None:
            return {"illegal_action": True, "forfeit": ep.forfeit}
        if ep.truncated is not None:
            return {"truncated": ep.truncated}
        return {"outcome": self.game.outcome(ep.st)}

    def legal(self, ep: Episode) -> list[int]:
        """The action ids the role to move may play now (none at chance or at the end)."""
        if ep.truncated or ep.forfeit or self.game.decision(ep.st) is None:
            return []
        return self.actions.legal(ep.answers, ep.chosen)

    # ------------------------------------------------------------ playing
    def play(self, ep: Episode, action, role: str | None = None) -> bool:
        """An action id from outside (an agent of a framework): applied if legal; an
        illegal one (or not a whole number) ends the game as `role`'s forfeit (the
        role to move by default). Whether it was legal."""
        role = role or self.current(ep)
        try:
            action = int(action)
        except (TypeError, ValueError, OverflowError):
            action = None
        if action is None or action not in self.legal(ep):
            ep.forfeit = role
            return False
        self.apply(ep, action)
        return True

    def apply(self, ep: Episode, action: int) -> None:
        """Play one action id; the last of a decision's answers it."""
        if action not in self.legal(ep):
            raise ValueError(f"action {action!r} is not legal here (legal: {self.legal(ep)})")
        ep.chosen += (action,)
        ep.moves += 1
        d = self.game.decision(ep.st)
        if ep.records is not None:
            ep.records[d.role].append(f"{d.role} chose {self.actions.actions[action].text}")
        if len(ep.chosen) == len(ep.answers[0]):
            index, ep.chosen = ep.answers.index(ep.chosen), ()
            self._run(ep, self.game.apply, index)
        elif ep.moves >= self.max_moves:
            ep.truncated = "move limit"

    def chance(self, ep: Episode) -> Chance | None:
        return None if ep.truncated else self.game.chance(ep.st)

    def apply_chance(self, ep: Episode, outcome: int) -> None:
        self._run(ep, self.game.apply_chance, outcome)

    def sample_chance(self, ep: Episode) -> int:
        """The outcome the game's own RNG gives the pending chance event (as `run --seed` draws it)."""
        c = self.game.chance(ep.st)
        kept = self.kept.get(c.site.die) if c is not None and c.site.kind == "roll" else None
        if kept is not None:
            ep.st.rng, outcome = draw(ep.st.rng, kept)
            return outcome
        return self.game.sample_chance(ep.st)

    def resolve_chance(self, ep: Episode) -> None:
        """Resolve chance events from the game's own RNG up to the next decision."""
        while self.chance(ep) is not None:
            self.apply_chance(ep, self.sample_chance(ep))

    def _run(self, ep: Episode, step, argument: int) -> None:
        try:
            step(ep.st, argument)
        except Runaway:  # the rules ran past the step limit: the game is cut short, not failed
            ep.truncated = "step limit"
            return
        self._arrived(ep)

    def _arrived(self, ep: Episode) -> None:
        """Play stopped at a decision, a chance event or the end: note it."""
        game, st = self.game, ep.st
        d = game.decision(st)
        ep.answers = self.actions.answers(d, st) if d is not None else []
        if ep.moves >= self.max_moves and not game.is_terminal(st):
            ep.truncated = "move limit"
        if ep.records is None or (d is None and not game.is_terminal(st)):
            return
        for role, record in ep.records.items():
            if d is None:
                record.append("outcome " + json.dumps(game.outcome(st), sort_keys=True))
            elif role == d.role:
                record.append(json.dumps(self.viewer.observe(st, role), sort_keys=True))
            else:
                record.append(f"{d.role} decides {d.label}")

    # ------------------------------------------------------------ what a role knows
    def observation_text(self, ep: Episode, role: str) -> str:
        """What the role sees now, and the ids it has chosen in its pending decision."""
        obs = self.viewer.observe(ep.st, role)
        if "decision" in obs and ep.chosen:
            obs["decision"]["chosen"] = [self.actions.actions[a].text for a in ep.chosen]
        return json.dumps(obs, sort_keys=True)

    def information_text(self, ep: Episode, role: str) -> str:
        """Everything the role has known, in order (its perfect-recall information state)."""
        return "\n".join(ep.records[role])

    def tensor(self, ep: Episode, role: str, out) -> None:
        """The role's observation tensor into a zeroed buffer."""
        d = self.game.decision(ep.st)
        chosen = ep.chosen if d is not None and d.role == role else ()
        self.encoding.encode(ep.st, role, chosen, out)
