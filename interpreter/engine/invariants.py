"""Card conservation and the state's shape, checked after every effect.

Every component is in exactly one zone at every moment: each card id
appears once in all the zone lists together, and `where` names the zone
that holds it. The other lists keep their shapes (a facing per card, a slot
per variable, a value per card for every state name).

The check is off by default (it costs about as much as the game itself) and
on in the tests and with `--check-invariants`: the code generator then calls
it after every statement that changes the game, so a broken invariant is
reported at the very statement that broke it. A state that comes from
outside the engine (a saved game) is checked thoroughly, value by value,
with `check_state`.
"""
from __future__ import annotations

from rulelang.errors import Span

from ..runtime.chance import ChanceEvent
from ..runtime.errors import RuleError


class InvariantBroken(RuleError):
    """The state is no longer consistent: a bug in rulelang (or a state
    tampered with from outside), never a mistake in a ruleset."""


class Invariants:
    def __init__(self, layout):
        self.cards = len(layout.kind_of)
        self.zones = range(len(layout.instances))
        self.names = [name if owner is None else f"{name} of {owner}" for name, owner in layout.instances]
        self.slots = len(layout.initial_vars)
        self.bounds = layout.bounds  # (slot, min, max) of every bounded number
        self.var_names = layout.var_names()
        self.states = len(layout.initial_state)
        self.labels = [f"{kind} #{c}" for c, kind in enumerate(layout.kind_of)]
        self.unset = [None] * self.cards  # the tail `holds` finds a stray id in
        self.shape = {self.cards}  # the length of every per-component state list

    def __call__(self, st, span: Span | None = None) -> None:
        """After an effect of the generated code: the fast test of card
        conservation, and the thorough one only to say what is wrong."""
        if not self.conserved(st):
            self.fail(st, span)

    def at_decision(self, st) -> None:
        """When the engine stops at a decision: the shapes of the lists no
        effect resizes (conservation was checked after the last effect)."""
        if not (len(st.zones) == len(self.zones) and len(st.face_up) == self.cards and len(st.vars) == self.slots
                and len(st.props) == self.states and set(map(len, st.props)) <= self.shape):
            self.fail(st, None)

    def check_state(self, st) -> None:
        """A state from outside the engine: every value looked at."""
        problem = self.problem(st)
        if problem is not None:
            self.fail(st, None, problem)

    def fail(self, st, span: Span | None, problem: str | None = None) -> None:
        where = "after this statement" if span is not None else "in the state"
        problem = problem or self.problem(st) or "the state is inconsistent"
        raise InvariantBroken(span, f"the game state broke an invariant {where}: {problem}",
                              "this is a bug in rulelang, or a state changed from outside the rules")

    def conserved(self, st) -> bool:
        """The fast test, run after every effect (a few microseconds): each card
        id's zone, collected from the zone lists, equals its `where`, and the
        lists hold n ids in all (a card in two places, or lost, leaves some
        entry unset or different, or the count wrong). `found` has n spare
        entries, so an id of n..2n-1 or -2n..-1 lands in the spare half, which
        must stay unset; any other stray value raises."""
        n, zones, found = self.cards, st.zones, [None] * (2 * self.cards)
        try:
            for zi in self.zones:
                for c in zones[zi]:
                    found[c] = zi
        except (IndexError, TypeError):
            return False
        return found[:n] == st.where and found[n:] == self.unset and sum(map(len, zones)) == n

    def problem(self, st) -> str | None:
        """What is wrong with the state, in words, or None."""
        n, zones, where = self.cards, st.zones, st.where
        if len(zones) != len(self.zones):
            return f"{len(zones)} zone lists instead of {len(self.zones)}"
        if len(where) != n or len(st.face_up) != n:
            return f"{len(where)} places and {len(st.face_up)} facings for {n} components"
        place = [-1] * n
        for zi, zone in enumerate(zones):
            for c in zone:
                if type(c) is not int or not 0 <= c < n:
                    return f"{self.names[zi]} holds {c!r}, which is no component"
                if place[c] >= 0:
                    return f"{self.labels[c]} is in two places at once ({self.names[place[c]]} and {self.names[zi]})"
                place[c] = zi
                if where[c] != zi:
                    return f"{self.labels[c]} is in {self.names[zi]}, but its place says {self._zone(where[c])}"
        if -1 in place:
            return f"{self.labels[place.index(-1)]} is in no zone (lost)"
        if any(type(f) is not bool for f in st.face_up):
            return "a facing that is not true or false"
        if len(st.vars) != self.slots:
            return f"{len(st.vars)} variables instead of {self.slots}"
        for slot, low, high in self.bounds:
            v = st.vars[slot]
            if type(v) is not int or low is not None and v < low or high is not None and v > high:
                return f"{self.var_names[slot]} is {v!r}, outside its bounds {low}..{high}"
        if len(st.props) != self.states or any(len(p) != n for p in st.props):
            return "the per-component state has lost its shape"
        for e in st.events or ():  # a remembered pick names its cards by id
            if type(e) is ChanceEvent and e.site.kind == "pick":
                flags = e.site.is_card
                if len(e.value) != len(flags) or any(card and (type(v) is not int or not 0 <= v < n)
                                                     for v, card in zip(e.value, flags)):
                    return f"the pick remembered at {e.site.at} names something that is no component"
        return None

    def _zone(self, zi) -> str:
        return self.names[zi] if type(zi) is int and 0 <= zi < len(self.zones) else repr(zi)
