"""Determinisation: whole game states sampled from what one role has seen.

Search agents (greedy, mcts) play ahead on states like these, never on the
real one. A sample is a game the rules can play. The sampler replays the
game from its seed, in a copy of the rules that stops at every chance event
(`Game(explicit_chance=True)`), giving each chance event and each other
player's choice the role did not see another outcome:

* a shuffle deals its cards again, except those the role saw afterwards
  (before they were mixed again): they stay where the role saw them;
* a random pick picks again, unless the role saw what it picked;
* a roll rolls the faces the role was told (every roll is public);
* another player's choice is the same when the role saw it (a menu option,
  a number, a card it could see, or a card it saw afterwards), else any
  option;
* the role's own choices are its own.

The replay must then show the role what it was shown: at each of its own
decisions and now, its observation (the cards it sees, the variables, the
rolls and picks it was told of, the options it was offered) must be the
real one, or the replay is thrown away and another tried. A kept sample is
a state the rules reach, which the role cannot tell from the real one.

When the tries all fail (rules that act on hidden cards in ways the role
sees, a long game of many hidden choices), or the state has no history to
replay (a position arranged by hand, a save from before states kept their
seed), the sampler falls back on a redeal of the state as it stands
(redeal.py): it keeps what the role sees, but may invent a state the rules
cannot reach. `draw` says which it gave, so a search can drop a play-out
that fails on a redealt state rather than blame the rules.

The real game's replay (history.py) is kept from one of the role's
decisions to the next, and so is each sample: at the next decision it plays
on from where it was, through what happened since, and is checked again;
only one that no longer fits is replayed from the start. A sample depends
only on what the role has seen and the seeds it was drawn with. Samples are
states of `search_game`: the replayed rules, drawing each chance event
themselves as the real game does, so a search plays ahead on them as on any
game.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime import rng
from ..runtime.chance import PROGRESS
from ..runtime.state import State
from .history import Mine, Other, Pick, Shuffle, Track
from .redeal import Redeal

TRIES = 8  # replays tried for one sample before it is redealt
TRIES_AFTER_A_MISS = 2  # once a sample of this decision had to be redealt


@dataclass
class Belief:
    """What one role knows at one decision, worked out once for all its samples."""
    kind: str  # "clone" (nothing is hidden), "replay", or "redeal" (no history to replay)
    game: Game  # the game samples are states of
    state: State  # the real state (replay: as the replayed rules hold it)
    track: Track | None = None
    entries: tuple = ()
    hidden: object = None  # for a redeal: what the role cannot see in `state`
    missed: bool = False  # a sample of this decision had to be redealt


class Sampler:
    def __init__(self, game: Game, viewer: Viewer):
        self.game, self.viewer = game, viewer
        self.redeal = Redeal(game, viewer)
        self._replay: Game | None = None
        self._search: Game | None = None
        self._replay_redeal: Redeal | None = None
        self.tracks: dict[str, Track] = {}  # per role, the real game replayed up to its last decision
        self._watching: Track | None = None  # the track whose game is being replayed
        self.replayed = self.redealt = 0  # samples given each way (tests, diagnostics)

    # ------------------------------------------------------------ the games
    @property
    def replay_game(self) -> Game:
        """The rules, stopping at every chance event: the game replays run in."""
        if self._replay is None:
            g = self.game  # a game with explicit chance is replayed as it is (its samples are its states),
            # seen at each stop only; another is compiled again to stop at chance and be watched after every effect
            self._replay = g if g.explicit_chance else Game(
                g.ruleset, g.mode.name, step_limit=g.step_limit, passes=g.passes,
                check_invariants=g.check_invariants, explicit_chance=True, after_effect=self._watch)
            self._replay_viewer = Viewer(self._replay)
        return self._replay

    @property
    def search_game(self) -> Game:
        """The replayed rules drawing their own chance: the game a replayed sample is played on."""
        if self._search is None:
            replay = self.replay_game
            self._search = replay if replay is self.game else replay.drawing_chance()
        return self._search

    # ------------------------------------------------------------ the public API
    def prepare(self, st: State, role: str) -> Belief:
        """What `role` knows in `st`: worked out once per decision, not per sample."""
        hidden = self.redeal.hidden(st, role)
        if not hidden.positions and all(who == role for who in self.viewer.secret.values()):
            # the role sees the whole state: a sample is the state itself
            return Belief("clone", self.game, st)
        track = self.history(st, role)
        if track is None:
            return Belief("redeal", self.game, st, hidden=hidden)
        return Belief("replay", self.search_game, track.state, track, track.entries())

    def draw(self, st: State, role: str, seed: int, belief: Belief | None = None) -> tuple[State, bool]:
        """A sample, and whether it is a replay (a state the rules reach) rather than a redeal."""
        belief = belief or self.prepare(st, role)
        if belief.kind == "clone":
            out = st.clone()
            out.rng = rng.derive(seed, f"sample:{st.decisions}")
            if out.events is not None:
                out.events = []
            return out, True
        if belief.kind == "redeal":
            self.redealt += 1
            return self.redeal.sample(belief.state, role, seed, belief.hidden), False
        track, entries = belief.track, belief.entries
        out, kept = None, track.samples.get(seed)
        if kept is not None:  # the sample of the last decision, played on through what happened since
            state, done = kept
            out = self.replay(belief, role, rng.derive(seed, f"on:{len(entries)}"), state.clone(), done)
        for k in range(0 if out is not None else TRIES_AFTER_A_MISS if belief.missed else TRIES):
            out = self.replay(belief, role, rng.derive(seed, f"try:{len(entries)}:{k}"))
            if out is not None:
                break
        if out is not None:
            track.samples[seed] = (out, len(entries))
            self.replayed += 1
            out = out.clone()
            out.rng = rng.derive(seed, f"sample:{st.decisions}")
            if out.events is not None:
                out.events = []  # history a play-out needs not (and a pick may name a hidden card)
            return out, True
        track.samples.pop(seed, None)
        belief.missed = True
        self.redealt += 1
        if self._replay_redeal is None:
            self._replay_redeal = Redeal(self.search_game, self._replay_viewer)
        if belief.hidden is None:
            belief.hidden = self._replay_redeal.hidden(belief.state, role)
        return self._replay_redeal.sample(belief.state, role, seed, belief.hidden), False

    def sample(self, st: State, role: str, seed: int, belief: Belief | None = None) -> State:
        """A whole state consistent with what `role` has seen (a state of `belief.game`)."""
        return self.draw(st, role, seed, belief)[0]

    # ------------------------------------------------------------ the real game, replayed
    def history(self, st: State, role: str) -> Track | None:
        """The real game replayed up to `st` for `role`, going on from where its track was: None
        if it has no history to replay (no seed, or not the state its answers lead to)."""
        explicit = self.game.explicit_chance
        if st.seed is None and not explicit:
            return None
        game = self.replay_game
        track = self.tracks.get(role)
        if track is None or not track.follows(st):
            track = Track(game, self._replay_viewer, role, st.seed or 0)
        self._watching = track
        try:
            caught_up = track.catch_up(st, explicit)
        finally:
            self._watching = None
        if not caught_up:
            self.tracks.pop(role, None)
            return None
        self.tracks[role] = track
        return track

    def _watch(self, st: State, span=None) -> None:
        """After every effect of the replayed rules: what the role of the track being replayed
        sees now (a sample's replay is not watched)."""
        track = self._watching
        if track is not None and st is track.state:
            track.scan()

    # ------------------------------------------------------------ a replay with other outcomes
    def replay(self, belief: Belief, role: str, draws: int, s: State | None = None, start: int = 0) -> State | None:
        """The game played again with other outcomes where the role did not see them (from the
        start, or from `s`, a sample at the history's entry `start`), or None if it does not show
        the role what the real game showed it."""
        game, track = self.replay_game, belief.track
        if s is None:
            s = game.new_state(track.seed)
        try:
            for entry in belief.entries[start:]:
                if type(entry) is Mine or type(entry) is Other:
                    d = s.pending
                    if d is None or d.site.index != entry.site:
                        return None
                    if type(entry) is Mine:
                        if entry.index >= len(d.options) or track.seen(s) != entry.seen:
                            return None
                        index = entry.index
                    elif d.role != entry.role:
                        return None
                    elif entry.values is not None:
                        index = _index(d.options, entry.values)
                        if index is None:
                            return None
                    else:
                        draws, index = _any(draws, d.options, entry.avoid, d.site.is_card)
                        if index is None:
                            return None
                    game.apply(s, index)
                    continue
                c = s.chance
                if c is None or c.site.index != entry.site:
                    return None
                if type(entry) is Shuffle:
                    z, i = s.stack[-1].env[PROGRESS]
                    before = s.zones[z][:]
                    kept = dict(entry.kept)
                    cards = set(kept.values())
                    if z != entry.zone or i + 1 != entry.size or not cards <= set(before):
                        return None
                    rest = [x for x in before if x not in cards]
                    draws = rng.shuffle(draws, rest)
                    others = iter(rest)
                    target = [kept[place] if place in kept else next(others) for place in range(entry.size)]
                    for j in _fisher_yates(before, target):
                        game.apply_chance(s, j)
                elif type(entry) is Pick:
                    rows = s.stack[-1].env[PROGRESS]
                    if entry.row is not None:
                        index = _index(rows, entry.row)
                        if index is None:
                            return None
                    else:
                        draws, index = _any(draws, rows, entry.avoid, c.site.is_card)
                        if index is None:
                            return None
                    game.apply_chance(s, index)
                elif entry.outcome is None:  # a roll the role did not see: rolled again
                    draws, face = rng.below(draws, c.count)
                    game.apply_chance(s, face)
                else:
                    if entry.outcome >= c.count:
                        return None
                    game.apply_chance(s, entry.outcome)
        except Exception:  # noqa: BLE001 - a replay that breaks the rules is one the real game cannot be
            return None
        if s.pending is None or s.pending.role != role or track.seen(s) != track.now:
            return None
        return s


def _any(draws: int, options, avoid: frozenset, is_card: tuple) -> tuple[int, int | None]:
    """A random option (its index) naming none of the cards `avoid` (None if every one does)."""
    if not avoid:
        return rng.below(draws, len(options))
    fits = [i for i, o in enumerate(options) if not any(card and v in avoid for v, card in zip(o, is_card))]
    if not fits:
        return draws, None
    draws, k = rng.below(draws, len(fits))
    return draws, fits[k]


def _index(options, values) -> int | None:
    values = tuple(values)
    for i, o in enumerate(options):
        if tuple(o) == values:
            return i
    return None


def _fisher_yates(before: list, target: list) -> list[int]:
    """The outcomes of a shuffle's steps (for i from n-1 down to 1, swap places i and j <= i)
    that turn `before` into `target`."""
    order, at = before[:], {x: i for i, x in enumerate(before)}
    outcomes = []
    for i in range(len(order) - 1, 0, -1):
        j = at[target[i]]
        order[i], order[j] = order[j], order[i]
        at[order[i]], at[order[j]] = i, j
        outcomes.append(j)
    return outcomes
