"""What the rules tell players, as data (pycode.py): reveals, announcements, and values as text.

At run time a card is a number and a zone an instance number; text needs to
know which, so each value is made text by its type, as the checker typed it:
a card by its label, a zone by its name, a list item by item, a name with
spaces for its underscores. What is shown or said is kept in `st.events` as
a `Told`, for the readers it is told to (engine/view.py).
"""
from __future__ import annotations

import ast

from rulelang import ir
from rulelang.labels import card_label
from rulelang.types import CardT, ListT, ZoneT

from . import pycode as code
from .context import TOP, Ctx, Part
from .unit import Function


def written(e: ir.Expr) -> str:
    """How a revealed value is named: its variable's name, or the rules' own words for it."""
    if isinstance(e, (ir.Var, ir.Local)):
        return e.name.replace("_", " ")
    span = e.span
    if span is not None and span.end_line == span.line:
        return span.source.line(span.line)[span.col - 1:span.end_col - 1]
    return "a value"


class Telling(Part):
    def __init__(self, gen):
        super().__init__(gen)
        self._labels: list[str] | None = None
        self._zone_names: list[str] | None = None

    def template(self, e: ir.Template, fn: Function, ctx: Ctx) -> ast.expr:
        """Text with values in it (`"{p} bids {n}"`): each value as a player reads it."""
        parts = [code.const(p) if isinstance(p, str) else self.text_of(p, fn, ctx) for p in e.parts]
        if not parts:
            return code.const("")
        text = parts[0]
        for p in parts[1:]:
            text = ast.BinOp(text, ast.Add(), p)
        return text

    def text_of(self, e: ir.Expr, fn: Function, ctx: Ctx) -> ast.expr:
        """An expression's value as text, by its type (a card is a number at run time: its label)."""
        ty, value = e.ty, self.expr(e, fn, ctx)
        item = ty.item if isinstance(ty, ListT) else None
        if isinstance(ty, CardT):
            return code.expr("(LABELS[T] if (T := VALUE) is not None else 'nothing')", LABELS=self.labels(),
                             T=self.fresh("t"), VALUE=value)
        if isinstance(ty, ZoneT):
            return code.expr("NAMES[VALUE]", NAMES=self.zone_names(), VALUE=value)
        if isinstance(item, CardT):
            return code.expr("', '.join(LABELS[c] for c in VALUE if c is not None)", LABELS=self.labels(), VALUE=value)
        if isinstance(item, ZoneT):
            return code.expr("', '.join(NAMES[z] for z in VALUE)", NAMES=self.zone_names(), VALUE=value)
        if item is not None:
            return code.expr("', '.join(_words(v) for v in VALUE)", VALUE=value)
        return code.call("_words", value)

    def labels(self) -> ast.Name:
        if self._labels is None:
            self._labels = [card_label(self.L.rs, c) for c in self.L.rs.cards]
        return self.const(self._labels)

    def zone_names(self) -> ast.Name:
        if self._zone_names is None:
            zones = self.L.rs.zones
            self._zone_names = [f"{name} of {owner}".replace("_", " ")
                                if owner is not None and zones[name].owner == "each" else name.replace("_", " ")
                                for name, owner in self.L.instances]
        return self.const(self._zone_names)

    def roll_target(self, target: ir.Expr, fn: Function) -> list[ast.expr]:
        """What a roll goes into, where not everyone may see it: a variable its owner only (or
        no one) sees, or a card's state (seen by who sees the card); nothing for a roll anyone sees."""
        if isinstance(target, ir.Var) and self.L.rs.vars[target.name].seen_by != "all":
            return [code.tuple_of([code.const("var"), self.g.exprs.var_slot(target, fn, TOP)])]
        if isinstance(target, ir.Field):
            return [code.tuple_of([code.const("card"), self.expr(target.obj, fn, TOP)])]
        return []

    def reveal(self, s: ir.Reveal, fn: Function, out: list) -> None:
        """The cards (or value) shown, kept as they are now: a reader told sees them."""
        what, ty = s.what, s.what.ty
        to = self.expr(s.to, fn, TOP) if s.to is not None else code.const(None)
        if isinstance(ty, ZoneT):
            z = self.fresh("z")
            out += code.stmts("Z = ZONE\nst.events.append(Told('reveal', TO, ('zone', Z), tuple(zones[Z])))",
                              Z=z, ZONE=self.expr(what, fn, TOP), TO=to)
        elif isinstance(ty, CardT) or isinstance(ty, ListT) and isinstance(ty.item, CardT):
            cards = code.tuple_of([self.expr(what, fn, TOP)]) if isinstance(ty, CardT) \
                else code.call("tuple", self.expr(what, fn, TOP))
            out.append(code.stmt("st.events.append(Told('reveal', TO, ('cards',), tuple(c for c in CARDS "
                                 "if c is not None)))", TO=to, CARDS=cards))
        else:
            named: ast.expr = code.const(written(what))
            if isinstance(what, ir.Var) and what.owner is not None:
                named = code.expr("NAMED + ' of ' + _words(OWNER)", NAMED=named, OWNER=self.expr(what.owner, fn, TOP))
            slots = code.tuple_of([self.g.exprs.var_slot(what, fn, TOP)] if isinstance(what, ir.Var) else [])
            out.append(code.stmt("st.events.append(Told('reveal', TO, ('value', NAMED), (), TEXT, SLOTS))", TO=to,
                                 NAMED=named, TEXT=self.text_of(what, fn, TOP), SLOTS=slots))

    def announce(self, s: ir.Announce, fn: Function, out: list) -> None:
        to = self.expr(s.to, fn, TOP) if s.to is not None else code.const(None)
        out.append(code.stmt("st.events.append(Told('announce', TO, ('text',), (), TEXT))", TO=to,
                             TEXT=self.expr(s.text, fn, TOP)))
