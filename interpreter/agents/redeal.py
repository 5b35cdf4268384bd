"""The sampler's fallback: a state dealt again from what one role sees now.

A redeal keeps everything the role sees — the cards it can see, where they
are, how many cards each zone holds, the variables, the flow position — and
deals every card it cannot see again, at random, among the places that hide
a card and may hold one of its type (a zone's possible types, from the
optimiser's zone analysis or the zone's `holds:`). The RNG is seeded afresh
too, so the order of a future shuffle is not known either, and the rolls and
picks remembered so far are left out.

It knows nothing of how the cards got where they are, so it may deal a state
the rules can never reach (one player's die faces in another's bag): the
sampler (sampling.py) replays the game instead, and redeals only when that
fails or the state has no history to replay. The redeal depends only on the
role's observation and the seed it is given: two real states that look the
same to the role give the same samples.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir
from rulelang.types import CardT, ListT, ZoneT
from rulelang.walk import walk

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime import rng
from ..runtime.state import State

_TRIES = 100


@dataclass(frozen=True)
class Hidden:
    """The cards one role cannot see in one state, and the places that hide them."""
    positions: list[tuple[int, int]]  # (zone instance, index)
    cards: list[int]  # sorted: which cards are hidden is known, not where
    order: list[int]  # the positions, most constrained first (the order they are dealt in)
    fitting: list[tuple[str, ...]]  # for each position, the hidden cards' types it may hold
    in_flow: bool  # whether a local or a pending option names a hidden card (else a deal changes none)
    free: bool  # every place may hold every hidden card: the shuffled pool is the deal, in `order`
    # the positions as runs (zone instance, first index, first position, end position, facing): positions
    # k0..k1-1 are the places i.. of one zone, one after the other, whose cards all face one way
    runs: list[tuple[int, int, int, int, bool]]
    # when every place fits exactly one kind: each kind's places, in `order` (they take its cards in pool order)
    slots: dict[str, list[int]] | None

class Redeal:
    def __init__(self, game: Game, viewer: Viewer):
        self.game, self.viewer = game, viewer
        layout = game.layout
        self.kind_of = layout.kind_of
        everything = frozenset(game.ruleset.card_types)
        possible = game.possible
        zones = game.ruleset.zones
        self.allowed = [everything]  # the box
        for name, _ in layout.instances[1:]:
            if possible is not None:
                self.allowed.append(possible.get(name, frozenset()))
            else:
                self.allowed.append(frozenset(zones[name].holds) or everything)
        self.card_locals = card_locals(game)

    def hidden(self, st: State, role: str) -> "Hidden":
        """What the role cannot see in `st`: worked out once per decision, since
        a search agent samples the same real state again and again."""
        positions = []
        viewer = self.viewer
        for zi in range(1, len(st.zones)):  # the box is public
            if not viewer.visible(st, zi, role):
                positions += [(zi, i) for i in range(len(st.zones[zi]))]
            elif not viewer.sees_face_down(zi):
                positions += [(zi, i) for i, c in enumerate(st.zones[zi]) if not st.face_up[c]]
        cards = sorted(st.zones[zi][i] for zi, i in positions)  # which cards: known; where: not
        allowed, kind_of = self.allowed, self.kind_of
        # the most constrained places are filled first
        order = sorted(range(len(positions)), key=lambda k: (len(allowed[positions[k][0]]), k))
        kinds = sorted({kind_of[c] for c in cards})
        fitting = [tuple(k for k in kinds if k in allowed[zi]) for zi, _ in positions]
        hidden = set(cards)
        slots = None
        if all(len(f) == 1 for f in fitting):
            slots = {kind: [k for k in order if fitting[k][0] == kind] for kind in kinds}
        runs: list[list] = []
        for k, (zi, i) in enumerate(positions):
            up = st.face_up[st.zones[zi][i]]
            last = runs[-1] if runs else None
            if last is not None and last[0] == zi and last[1] + k - last[2] == i and last[4] == up:
                last[3] = k + 1
            else:
                runs.append([zi, i, k, k + 1, up])
        return Hidden(positions, cards, order, fitting, any(c in hidden for c in self.flow_cards(st)),
                      all(len(f) == len(kinds) for f in fitting), [tuple(r) for r in runs], slots)

    def sample(self, st: State, role: str, seed: int, hidden: "Hidden | None" = None) -> State:
        """A whole state that looks to `role` as `st` does (`hidden`: `self.hidden(st, role)`,
        if the caller kept it)."""
        hidden = hidden or self.hidden(st, role)
        positions = hidden.positions
        out = st.clone()
        out.rng = rng.derive(seed, "sample")
        if out.events is not None:  # history play ahead needs not (and a pick may name a hidden card)
            out.events = []
        initial = self.game.layout.initial_vars
        for slot, who in self.viewer.secret.items():  # a value the role may not see: as it started, not as it is
            if who != role:
                out.vars[slot] = initial[slot]
        if not positions:
            return out
        start = self.game.layout.initial_state
        for props, first in zip(out.props, start):  # a hidden card's state (a die's face): as it started
            for c in hidden.cards:
                props[c] = first[c]
        dealt = self.deal(hidden, rng.derive(seed, "deal"))
        zones, where, face_up = out.zones, out.where, out.face_up
        for zi, i, k0, k1, up in hidden.runs:
            cards = dealt[k0:k1]
            zones[zi][i:i + k1 - k0] = cards
            for card in cards:
                where[card] = zi
                face_up[card] = up  # the place's facing stays
        if hidden.in_flow:
            real = st.zones
            swap = {was: card for (zi, i), card in zip(positions, dealt) if (was := real[zi][i]) != card}
            if swap:  # a hidden card -> the card dealt to its place
                self.remap_flow(out, swap)
        return out

    def deal(self, hidden: "Hidden", state: int) -> list[int]:
        """A random assignment of the hidden cards to the hidden places that
        respects what each zone may hold, filling the most constrained first:
        each takes the first card of a shuffled pool that fits it."""
        kind_of, order, fitting = self.kind_of, hidden.order, hidden.fitting
        for _ in range(_TRIES):
            pool = list(hidden.cards)
            state = rng.shuffle(state, pool)
            if hidden.free:  # each place, in order, takes the pool's next card: what the loop below does then
                dealt = [None] * len(order)
                for k, card in zip(order, pool):
                    dealt[k] = card
                return dealt
            if hidden.slots is not None:  # what the loop below does when each place fits one kind
                dealt = [None] * len(order)
                for kind, ks in hidden.slots.items():
                    mine = [c for c in pool if kind_of[c] == kind]
                    if len(mine) < len(ks):
                        break
                    for k, card in zip(ks, mine):
                        dealt[k] = card
                else:
                    return dealt
                continue
            # "the first card of the pool that fits" is the earliest head among the kinds that fit
            left: dict[str, list[int]] = {}  # kind -> its cards' indexes in the pool, last first
            for j in range(len(pool) - 1, -1, -1):
                left.setdefault(kind_of[pool[j]], []).append(j)
            dealt = [None] * len(order)
            for k in order:
                best = None
                for kind in fitting[k]:
                    q = left.get(kind)
                    if q and (best is None or q[-1] < best[-1]):
                        best = q
                if best is None:
                    break
                dealt[k] = pool[best.pop()]
            else:
                return dealt
        raise RuntimeError("no way to deal the hidden cards back into the places that hide them")

    def flow_cards(self, st: State):
        """Every card a local or a pending option names: what `remap_flow` may change."""
        def cards(v):
            if isinstance(v, int) and not isinstance(v, bool):
                yield v
            elif isinstance(v, (list, tuple)):
                for x in v:
                    yield from cards(x)

        row_flags = self.game.rules.row_flags
        for frame in st.stack:
            for name, value in frame.env.items():
                if name in self.card_locals:
                    yield from cards(value)
                elif name in row_flags:
                    yield from (x for row in value for x, f in zip(row, row_flags[name]) if f)
        d = st.pending
        if d is not None and not d.site.menu:
            yield from (x for o in d.options for x, f in zip(o, d.site.is_card) if f)

    def remap_flow(self, out: State, swap: dict) -> None:
        """Locals and the pending options that name a hidden card name the card
        dealt to its place instead (the real card's identity stays unknown)."""
        def card(v):
            if isinstance(v, int) and not isinstance(v, bool):
                return swap.get(v, v)
            if isinstance(v, (list, tuple)):
                return type(v)(card(x) for x in v)
            return v

        row_flags = self.game.rules.row_flags
        for frame in out.stack:
            env = frame.env
            for name, value in env.items():
                if name in self.card_locals:
                    env[name] = card(value)
                elif name in row_flags:
                    flags = row_flags[name]
                    env[name] = [tuple(card(x) if f else x for x, f in zip(row, flags)) for row in value]
        d = out.pending
        if d is not None and not d.site.menu:
            flags = d.site.is_card
            out.pending = d._replace(options=[tuple(card(x) if f else x for x, f in zip(o, flags)) for o in d.options])


def card_locals(game: Game) -> frozenset[str]:
    """Names of locals that hold cards (or lists of cards) anywhere in the compiled rules."""
    program = game.rules.program
    names: set[str] = set()

    def is_cards(ty) -> bool:
        return isinstance(ty, CardT) or isinstance(ty, ListT) and isinstance(ty.item, CardT)

    for node in walk((program.setup, tuple(s.body for s in program.steps), tuple(program.procedures.values()),
                      tuple(w.body for w in program.watches))):
        if isinstance(node, ir.Let) and is_cards(node.value.ty):
            names.add(node.name)
        if isinstance(node, ir.Binder):
            for g in node.groups:
                if is_cards(g.domain.ty) or isinstance(g.domain.ty, ZoneT):
                    names.update(g.names)
    for proc in game.ruleset.procedures.values():
        names.update(p for p, t in proc.params if t is not None and is_cards(t))
    return frozenset(names)
