"""The action space: one fixed id for every value a mode's decisions can bind.

A decision binds names (`a, b in hand, ma in uses_for(a)`) or picks a menu
option. Through an adapter it is answered one name at a time — a
sub-decision per bound name, in the order the rule names them — each with
an id from one vocabulary, fixed for a ruleset, mode and parameters:

    menu options   every option name of the mode's menus
    none           "no card", "no value" (`[none] + ...`)
    cards          every card of the ruleset, by its id
    unseen cards   1..N: a card its chooser cannot see, by its rank among the
                   unseen cards the options offer (when a decision may offer one)
    zones          every zone instance, when some decision binds a zone
    type values    the values of each type some decision binds
    roles          the mode's roles, when some decision binds a role
    true/false     when some decision binds one
    numbers        low..high, the bounds of every number a decision binds
    ranked numbers 1..100: a number with no bounds the rules give, by its rank
                   among the numbers the options offer, smallest first

An id means the same in every state. A sub-decision's legal ids are the
values the options agreeing with the ids already chosen bind next; the last
id names the option.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import hidden, ir
from rulelang.labels import value_text, words

from ..engine.game import Game
from ..engine.view import Viewer, ordinal
from ..runtime.decision import Decision, DecisionSite
from ..runtime.state import State
from .domains import MOST_RANKED, Domains, Slot, rule_nodes, span_key


@dataclass(frozen=True)
class Action:
    id: int
    kind: str  # menu, none, card, zone, role, bool, number or enum:TYPE
    value: object  # what the option binds: an option's name, a card id, a zone instance, a value
    text: str


class ActionSpace:
    def __init__(self, game: Game, viewer: Viewer):
        rs = game.ruleset
        domains = Domains(rs)
        chooses, menus = rule_nodes(rs, ir.Choose), rule_nodes(rs, ir.Menu)
        self.slots: dict[int, tuple[Slot, ...]] = {}  # decision site index -> a slot per sub-decision
        self.sites: list[DecisionSite] = list(game.rules.sites)
        menu_names: list[str] = []
        for site in self.sites:
            if site.menu:
                self.slots[site.index] = (Slot("menu"),)
                menu_names += [o.name for o in menus[span_key(site.span)].options if o.name not in menu_names]
            else:
                binder = chooses[span_key(site.span)].binder
                self.slots[site.index] = domains.slots(binder, f"decision '{site.label}' at {site.at}")
        kinds = [s.kind for slots in self.slots.values() for s in slots]
        numbers = [s for slots in self.slots.values() for s in slots if s.kind == "number"]

        values: list[tuple[str, object, str]] = [("menu", n, words(n)) for n in menu_names]
        if any(k in ("card", "zone", "role", "none") or k.startswith("enum:") for k in kinds):
            values.append(("none", None, "none"))
        if "card" in kinds:
            values += [("card", c.id, f"{viewer.card(c.id)} (card {c.id})") for c in rs.cards]
        # a card its chooser cannot see is answered by its rank among the unseen cards offered
        # (in the order of the options, which follows where they lie): its id would name it
        self.viewer = viewer
        self.unseen = any(hidden.may_offer_unseen(rs, game.mode, chooses[span_key(site.span)])
                          for site in self.sites if not site.menu)
        if self.unseen:
            values += [("unseen", k, f"an unseen card, the {ordinal(k)} offered") for k in range(1, len(rs.cards) + 1)]
        if "zone" in kinds:
            values += [("zone", zi, viewer.zone_text(zi)) for zi in range(1, len(game.layout.instances))]
        for kind in dict.fromkeys(k for k in kinds if k.startswith("enum:")):
            values += [(kind, v, value_text(v)) for v in domains.enum_values(kind[5:])]
        if "role" in kinds:
            values += [("role", r, r) for r in game.roles]
        if "bool" in kinds:
            values += [("bool", False, "no"), ("bool", True, "yes")]
        if numbers:
            low, high = min(s.low for s in numbers), max(s.high for s in numbers)
            values += [("number", n, str(n)) for n in range(low, high + 1)]
        if "ranked" in kinds:  # a number with no bounds the rules give: by its rank among those offered
            values += [("ranked", k, f"the {ordinal(k)} smallest number offered") for k in range(1, MOST_RANKED + 1)]
        self.actions = [Action(i, kind, value, text) for i, (kind, value, text) in enumerate(values)]
        self.ids = {(a.kind, a.value): a.id for a in self.actions}
        self.none = self.ids.get(("none", None))
        self.widest = max((len(s) for s in self.slots.values()), default=1)  # most sub-decisions in one decision
        self.labels = list(dict.fromkeys(site.label for site in self.sites))

    def __len__(self) -> int:
        return len(self.actions)

    def answers(self, d: Decision, st: State | None = None) -> list[tuple[int, ...]]:
        """Each option of a decision as the ids that choose it, in order (given the
        state, a card its chooser cannot see as an unseen card's id)."""
        slots, ids, none = self.slots[d.site.index], self.ids, self.none
        rank: dict[tuple[int, int], int] = {}
        if self.unseen and st is not None:
            for o in d.options:
                for k, (s, v) in enumerate(zip(slots, o)):
                    if s.kind == "card" and v is not None and (k, v) not in rank and \
                            not self.viewer.sees(st, v, d.role):
                        rank[k, v] = sum(1 for key in rank if key[0] == k) + 1
        for k, s in enumerate(slots):  # numbers with no bounds the rules give: ranked, smallest first
            if s.kind == "ranked":
                for value in sorted({o[k] for o in d.options if o[k] is not None}):
                    rank[k, value] = sum(1 for key in rank if key[0] == k) + 1
        try:
            return [tuple(none if v is None else ids[("unseen" if s.kind == "card" else s.kind), rank[k, v]]
                          if (k, v) in rank else ids[s.kind, v]
                          for k, (s, v) in enumerate(zip(slots, o))) for o in d.options]
        except KeyError as missing:  # the bounds read off the rules missed a value: a bug, said plainly
            raise ValueError(f"decision '{d.label}' at {d.at} offers {missing} outside its action ids "
                             f"(at most {MOST_RANKED} numbers where the rules give them no bounds)") from None

    def legal(self, answers: list[tuple[int, ...]], chosen: tuple[int, ...]) -> list[int]:
        """The ids that may come next after `chosen`, ascending."""
        k = len(chosen)
        return sorted({a[k] for a in answers if a[:k] == chosen})

    def describe(self) -> list[str]:
        """The action ids, and each decision's sub-decisions, as text."""
        lines = [f"{len(self.actions)} action ids:"]
        lines += [f"  {a.id:>4}  {a.kind:<8} {a.text}" for a in self.actions]
        lines.append("decisions (one sub-decision per bound name, in order):")
        seen = set()
        for site in self.sites:
            slots = self.slots[site.index]
            text = "an option" if site.menu else ", ".join(
                f"{name.split('$')[0]}: {self.slot_text(s)}" for name, s in zip(site.names, slots))
            line = f"  {site.label} ({site.at}): {text}"
            if line not in seen:
                seen.add(line)
                lines.append(line)
        return lines

    @staticmethod
    def slot_text(s: Slot) -> str:
        if s.kind == "number":
            return f"a number {s.low}..{s.high}"
        if s.kind == "ranked":
            return f"a number, by its rank among those offered (at most {s.high})"
        return s.kind[5:] if s.kind.startswith("enum:") else {"bool": "yes or no"}.get(s.kind, "a " + s.kind)
