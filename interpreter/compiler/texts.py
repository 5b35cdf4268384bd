"""Values as text, in generated code: what an announcement says and how an option reads.

At run time a card is a number, a zone an instance number; text needs to know
which, so each value is made text by its type, as the checker typed it: a card
by its label, a zone by its name, a list item by item, a name with spaces for
its underscores.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.labels import card_label
from rulelang.types import CardT, ListT, ZoneT


class Texts:
    """The code for text with values in it (`"{p} bids {n}"`); mixed into the expressions' generator."""

    def expr_template(self, e, fn, scope):
        """Text with values in it: each value as a player reads it (a card by its label)."""
        parts = [self.const(p) if isinstance(p, str) else self.text_of(p, fn, scope) for p in e.parts]
        return "".join(["(", " + ".join(parts) or "''", ")"])

    def text_of(self, e: ir.Expr, fn, scope) -> str:
        """An expression's value as text, by its type (a card is a number at run time: its label)."""
        ty, value = e.ty, self.expr(e, fn, scope)
        item = ty.item if isinstance(ty, ListT) else None
        if isinstance(ty, CardT):
            t = self.fresh("t")
            return f"({self.const(self.labels())}[{t}] if ({t} := {value}) is not None else 'nothing')"
        if isinstance(ty, ZoneT):
            return f"{self.const(self.zone_names())}[{value}]"
        if isinstance(item, CardT):
            return f"', '.join({self.const(self.labels())}[c] for c in {value} if c is not None)"
        if isinstance(item, ZoneT):
            return f"', '.join({self.const(self.zone_names())}[z] for z in {value})"
        if item is not None:
            return f"', '.join(_words(v) for v in {value})"
        return f"_words({value})"

    def labels(self) -> list[str]:
        if getattr(self, "_labels", None) is None:
            self._labels = [card_label(self.L.rs, c) for c in self.L.rs.cards]
        return self._labels

    def zone_names(self) -> list[str]:
        if getattr(self, "_zone_names", None) is None:
            zones = self.L.rs.zones
            self._zone_names = [f"{name} of {owner}".replace("_", " ") if owner is not None and zones[name].owner == "each"
                                else name.replace("_", " ") for name, owner in self.L.instances]
        return self._zone_names
