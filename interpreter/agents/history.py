"""What one role has seen of a game: its history, replayed for the sampler.

A `Track` replays the real game from its seed in rules that stop at every
chance event, one answer at a time, and notes as it goes what the role saw:
its observation at each of its decisions, and which of the cards a chance
event or another player's hidden choice mixed up the role saw again later
(those are where the role knows them to be). It is kept from one of the
role's decisions to the next, so each decision replays only what happened
since the last. `entries()` is the history as the sampler replays it
(sampling.py): each event with only what the role saw of its outcome.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.chance import PROGRESS, ChanceEvent, Told
from ..runtime.state import State


class Mine(NamedTuple):
    """The role's own decision: its answer, and what it saw when it made it."""
    site: int
    index: int
    seen: tuple


class Other(NamedTuple):
    """Another player's decision: the option chosen, if the role saw it; else any option that
    names none of the cards `avoid` — cards it offered that the role saw later elsewhere."""
    site: int
    role: str
    values: tuple | None
    avoid: frozenset = frozenset()


class Shuffle(NamedTuple):
    """A whole shuffle of one zone of `size` cards: the places of the cards the role saw
    there since, before they were mixed again (the others are dealt again)."""
    site: int
    zone: int
    size: int
    kept: tuple  # (place, card) pairs


class Roll(NamedTuple):
    """A die's face: the one rolled, if the role saw it (None: a secret roll, rolled again)."""
    site: int
    outcome: int | None


class Pick(NamedTuple):
    """A random pick: what it picked, if the role saw it; else any binding that names none of
    the cards `avoid` (as for another player's choice)."""
    site: int
    row: tuple | None
    avoid: frozenset = frozenset()


class Track:
    """The real game replayed for one role (see the module's text)."""

    def __init__(self, game: Game, viewer: Viewer, role: str, seed: int):
        self.game, self.viewer, self.role, self.seed = game, viewer, role, seed
        self.state = game.new_state(seed)
        self.answers: list[int] = []  # the real game's answers replayed so far
        cards = len(game.layout.kind_of)
        self.mixed: list[list] = [[] for _ in range(cards)]  # per card, the events that hid it, since seen
        self.seen_after: dict[int, set] = {}  # event -> the cards it mixed that the role saw since
        self.raw: list[tuple] = []  # the events, as they happened
        self.now = None  # what the role sees at its decision now
        self.samples: dict = {}  # the sampler's: a seed -> its sample at the last decision, kept going
        self.unknown: set[int] = set()  # the cards with events in `mixed`
        self.told = 0  # the events of the replayed game read so far (rolls' targets, reveals)
        self.secret: dict[tuple, list] = {}  # a secret roll's target -> its dice's entries in `raw`, latest roll

    def sees(self, c: int | None) -> bool:
        """Whether the role sees card c now (none is no card; the box is public)."""
        r = self.state
        return c is None or r.where[c] == 0 or self.viewer.sees(r, c, self.role)

    def scan(self) -> None:
        """Note the cards the role sees now among those events mixed up: where they are is known.
        Run at every stop of the replay, and after every effect (a card played face up and
        discarded face down before the next decision was seen all the same)."""
        for c in [c for c in self.unknown if self.sees(c)]:
            self.known(c)
        if self.secret:
            for target in [t for t in self.secret if t[0] == "card" and self.sees(t[1])]:
                self.shown(target)

    def known(self, c: int) -> None:
        """Card c is seen (or shown): where the events that mixed it up put it is known."""
        for e in self.mixed[c]:
            self.seen_after[e].add(c)
        self.mixed[c] = []
        self.unknown.discard(c)

    def shown(self, target: tuple) -> None:
        """What the latest secret roll into `target` gave is known now: its dice are replayed as rolled."""
        for item in self.secret.pop(target, ()):
            item[3] = None

    def read_events(self) -> None:
        """The replayed game's events since the last read: which rolls the role did not see (a
        secret roll), and what was revealed to it (cards, a secret value)."""
        events, viewer, r = self.state.events or [], self.viewer, self.state
        for e in events[self.told:]:
            if type(e) is Told:
                if e.to is None or e.to == self.role:
                    for c in e.cards:
                        self.known(c)
                        self.shown(("card", c))
                    for slot in e.slots:
                        self.shown(("var", slot))
            elif type(e) is ChanceEvent and e.target is not None and not viewer.sees_target(r, e.target, self.role):
                dice = [item for item in self.raw[::-1] if item[0] == "roll" and item[1] == e.site.index][:len(e.value)]
                for item in dice:
                    item[3] = e.target
                self.secret[e.target] = dice  # a roll into it again hides the one before
        self.told = len(events)

    def mix(self, cards, e: int) -> None:
        """Event e hid where these cards are."""
        self.seen_after.setdefault(e, set())
        for c in cards:
            self.mixed[c].append(e)
            self.unknown.add(c)

    def seen(self, st: State) -> tuple:
        """What the role sees in `st`, as one comparable value (`Viewer.signature`)."""
        return self.viewer.signature(st, self.role)

    def follows(self, st: State) -> bool:
        """Whether `st` is this game, gone on from where the track is."""
        answers = st.answers()
        return st.seed == self.seed and answers[:len(self.answers)] == self.answers

    def catch_up(self, st: State, explicit: bool) -> bool:
        """Replay the real game's answers since the track's last; False if they do not lead to `st`
        (a position arranged by hand). `explicit`: the real game's answers include its chance outcomes;
        otherwise its chance is drawn as the real game drew it, from the seed."""
        game, r, role = self.game, self.state, self.role
        answers = st.answers()
        k = len(self.answers)
        sees, scan, mix = self.sees, self.scan, self.mix

        def outcome() -> int | None:
            nonlocal k
            if not explicit:
                return game.sample_chance(r)
            if k >= len(answers) or answers[k] >= 0:
                return None
            k += 1
            return -1 - answers[k - 1]

        raw = self.raw
        while r.outcome is None:
            c = r.chance
            if c is not None:
                scan()
                o = outcome()
                if o is None:
                    return False
                e, site = len(raw), c.site
                if c.kind == "shuffle":
                    z, i = r.stack[-1].env[PROGRESS]
                    order = r.zones[z][:]  # play goes on past the shuffle: its order is followed here
                    for step in range(i, 0, -1):
                        if step != i:
                            o = outcome()
                            if o is None:
                                return False
                        order[step], order[o] = order[o], order[step]
                        game.apply_chance(r, o)
                    mix(order, e)
                    raw.append(("shuffle", site.index, z, tuple(order), e))
                    continue
                if c.kind == "pick":
                    rows = r.stack[-1].env[PROGRESS]
                    picked = [v for v, card in zip(rows[o], site.is_card) if card and v is not None]
                    mix([v for x in rows for v, card in zip(x, site.is_card) if card and v is not None], e)
                    raw.append(("pick", site.index, tuple(rows[o]), e, picked, {v for v in picked if sees(v)}))
                else:
                    raw.append(["roll", site.index, o, None])  # its target, once known to be secret
                game.apply_chance(r, o)
                self.read_events()
                continue
            d = r.pending
            if d is None:
                return False
            scan()
            if k == len(answers):  # now
                break
            index = answers[k]
            k += 1
            if index < 0 or index >= len(d.options):
                return False
            if d.role == role:
                raw.append(("mine", d.site.index, index, self.now if self.now is not None else self.seen(r)))
            else:
                values, site = d.options[index], d.site
                public = site.menu or all(not card or sees(v) for v, card in zip(values, site.is_card))
                unseen = [v for v, card in zip(values, site.is_card) if card and not sees(v)]
                if not public:
                    mix([v for x in d.options for v, card in zip(x, site.is_card) if card and not sees(v)], len(raw))
                raw.append(("other", site.index, d.role, tuple(values), public, len(raw), unseen))
            self.now = None
            game.apply(r, index)
            self.read_events()
        self.answers = answers[:k]
        if r.outcome is not None or not _same_state(r, st):
            return False
        self.now = self.seen(r)
        return True

    def entries(self) -> tuple:
        """The history as a sample replays it: each event with only what the role saw of it."""
        seen_after, out = self.seen_after, []
        for item in self.raw:
            kind = item[0]
            if kind == "mine":
                out.append(Mine(*item[1:]))
            elif kind == "other":
                _, site, who, values, public, e, unseen = item
                later = seen_after.get(e, set())
                known = public or set(unseen) <= later
                out.append(Other(site, who, values if known else None,
                                 frozenset() if known else frozenset(later - set(values))))
            elif kind == "shuffle":
                _, site, z, after, e = item
                out.append(Shuffle(site, z, len(after), tuple((i, c) for i, c in enumerate(after)
                                                              if c in seen_after[e])))
            elif kind == "pick":
                _, site, row, e, picked, known = item
                seen = all(c in known or c in seen_after[e] for c in picked)
                out.append(Pick(site, row if seen else None, frozenset() if seen else frozenset(seen_after[e] - set(row))))
            else:
                _, site, outcome, secret = item
                out.append(Roll(site, outcome if secret is None else None))
        return tuple(out)


def _same_state(a: State, b: State) -> bool:
    """Whether two states hold the same game (the replayed one and the real one)."""
    return a.zones == b.zones and a.face_up == b.face_up and a.vars == b.vars and a.props == b.props \
        and a.round == b.round and a.decisions == b.decisions and b.pending is not None \
        and a.pending is not None and a.pending.options == b.pending.options
