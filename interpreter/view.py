"""What a role may see: card labels, option descriptions, observations.

Visibility rules (per zone, from the ruleset; a mode's `visibility:` may
override them):
  seen_by: all    face-up cards are seen by everyone, face-down by no one
  seen_by: owner  the zone's owner sees every card in it, others see none
  seen_by: none   no one sees the cards, only how many there are
  open            (a mode's visibility) everyone sees every card, face down
                  too, in order

A hidden card appears as None: no label, no id (an id would let an agent
follow a card through a shuffle, which no player can).
"""
from __future__ import annotations

from rulelang import ir

from .engine import Game
from .state import State


def words(value: str) -> str:
    return value.replace("_", " ")


class Viewer:
    def __init__(self, game: Game):
        self.game = game
        rs = game.ruleset
        self.labels = [self._label(rs, c) for c in rs.cards]
        zones = rs.zones
        self.instances = game.layout.instances
        self.names = [name if owner is None or zones[name].owner != "each" else f"{name} of {owner}"
                      for name, owner in self.instances]
        mode = game.mode.visibility
        self.seen_by = [None] + [mode.get(name, zones[name].seen_by) for name, _ in self.instances[1:]]

    @staticmethod
    def _label(rs: ir.Ruleset, card: ir.Card) -> str:
        ct = rs.card_types[card.kind]
        if ct.label:
            text = ct.label
            for name, value in card.values.items():
                text = text.replace("{" + name + "}", words(str(value)))
            return text
        values = " ".join(words(str(v)) for v in card.values.values())
        return f"{words(card.kind)} {values}".strip()

    def card(self, c: int) -> str:
        return self.labels[c]

    def value(self, v) -> str | None:
        """A bound value as text; None (no card) is left out."""
        if v is None:
            return None
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, int):
            return str(v)
        return words(str(v))

    def option(self, st: State, index: int) -> str:
        """An option as a person reads it (its cards by label)."""
        p = st.pending
        values = p["options"][index]
        if "targets" in p:
            return words(values[0])
        site = self.game.sites[p["site"]]
        parts = [self.labels[v] if card else self.value(v)
                 for v, card in zip(values, site.is_card) if v is not None]
        return ", ".join(parts) if parts else "(nothing)"

    def visible(self, st: State, zi: int, role: str | None) -> bool:
        seen = self.seen_by[zi]
        if seen == "owner":
            return role is not None and self.instances[zi][1] == role
        return seen in ("all", "open")

    def sees_face_down(self, zi: int) -> bool:
        """Whoever sees this zone sees its face-down cards too."""
        return self.seen_by[zi] in ("owner", "open")

    def observe(self, st: State, role: str | None) -> dict:
        """Everything `role` may see now; role None is a spectator."""
        zones = {}
        for zi in range(1, len(self.instances)):
            if self.visible(st, zi, role):
                all_cards = self.sees_face_down(zi)
                zones[self.names[zi]] = [
                    {"id": c, "card": self.labels[c]} if all_cards or st.face_up[c] else None
                    for c in st.zones[zi]]
            else:
                zones[self.names[zi]] = [None] * len(st.zones[zi])
        obs = {
            "role": role, "round": st.round, "step": self.game.step_name(st),
            "zones": zones,
            "vars": {name: st.vars[i] for name, i in self.game.layout.var_slot.items()},
        }
        p = st.pending
        if p is not None and p["role"] == role:
            obs["decision"] = {"label": p["label"],
                               "options": [self.option(st, i) for i in range(len(p["options"]))]}
        if st.outcome is not None:
            obs["outcome"] = st.outcome
        return obs
