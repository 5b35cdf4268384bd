"""Cards told apart by their fields: one card said by its name ("the two of clubs", not "a playing card whose
suit is clubs and whose rank is two"), and no tie broken where no two cards can tie.

A condition that gives every field of a card type's `label:` a value, where
the deck holds one card with those values, names that card: a player knows
it by what is printed on it. Conditions that give fewer fields, or values
several cards share, stay as they are ("a heart", "a playing card whose rank
is two").
"""
from __future__ import annotations

import re

from rulelang import ir
from rulelang.labels import card_label
from rulelang.types import CardT

from .normalize import conjuncts, split_type_tests, substitute


def _value(e: ir.Expr):
    """The value a constant stands for, or `_NO` for anything else."""
    if isinstance(e, ir.EnumValue):
        return e.value
    if isinstance(e, ir.Const) and not isinstance(e.value, bool) and e.value is not None:
        return e.value
    return _NO


_NO = object()


def field_test(e: ir.Expr) -> tuple[ir.Expr, str, object] | None:
    """(card, field, value) of `card.field == value`, either way round."""
    if not (isinstance(e, ir.Binary) and e.op == "=="):
        return None
    for f, v in ((e.left, e.right), (e.right, e.left)):
        if isinstance(f, ir.Field) and _value(v) is not _NO:
            return f.obj, f.name, _value(v)
    return None


def named_card(rs: ir.Ruleset, card: ir.Expr, tests: list[ir.Expr]) -> tuple[str, list[ir.Expr]] | None:
    """("the two of clubs", the tests not used) where the field tests on `card` among `tests` name one card
    by every field of its label; None otherwise."""
    if not isinstance(card.ty, CardT) or len(card.ty.kinds) != 1:
        return None
    ct = rs.card_types.get(next(iter(card.ty.kinds)))
    if ct is None or not ct.label or ct.state and re.search(r"\{(" + "|".join(s.name for s in ct.state) + r")\}", ct.label):
        return None
    wanted = set(re.findall(r"\{(\w+)\}", ct.label))
    values: dict[str, object] = {}
    used = []
    for t in tests:
        found = field_test(t)
        if found is not None and found[0] == card and found[1] in wanted and found[1] not in values:
            values[found[1]] = found[2]
            used.append(t)
    if set(values) != wanted:
        return None
    matches = [c for c in rs.cards if c.kind == ct.name and all(c.values.get(k) == v for k, v in values.items())]
    if len(matches) != 1:
        return None
    return "the " + card_label(rs, matches[0]), [t for t in tests if not any(t is u for u in used)]


def named_in_and(rs: ir.Ruleset, e: ir.Binary) -> tuple[ir.Expr, str, list[ir.Expr]] | None:
    """(card, its name, the other conditions) for `a and b and …` that names one card among its conditions."""
    tests = conjuncts(e)
    for t in tests:
        found = field_test(t)
        if found is not None:
            named = named_card(rs, found[0], tests)
            if named is not None:
                return found[0], named[0], named[1]
    return None


def binder_card(rs: ir.Ruleset, b: ir.Binder) -> tuple[str, list[ir.Expr]] | None:
    """("the two of clubs", the other conditions) where a binder's conditions name one card by its label."""
    rest = split_type_tests(b)[1]
    for t in rest:
        found = field_test(t)
        if found is not None and isinstance(found[0], ir.Local) and found[0].name == b.names[0]:
            return named_card(rs, found[0], rest)
    return None


def one_holder(rs: ir.Ruleset, b: ir.Binder) -> bool:
    """At most one binding can pass: each is the owner of a place the binder's condition finds one named card
    in ("the player that has the two of clubs": no first of them to take), or the condition says that only one
    thing holds what it asks of the binding ("the player that takes the prize", where a player takes it when
    their bid is the highest and only one player's is)."""
    if len(b.names) != 1 or b.where is None:
        return False
    if any(_only_one(rs, c, b.names[0], b.groups[0].domain) for c in conjuncts(b.where)):
        return True
    for c in conjuncts(b.where):
        if not (isinstance(c, ir.Quantified) and c.kind == "exists" and len(c.binder.names) == 1):
            continue
        d = c.binder.groups[0].domain
        if isinstance(d, ir.ZoneRef) and isinstance(d.owner, ir.Local) and d.owner.name == b.names[0] \
                and binder_card(rs, c.binder) is not None:
            return True
    return False


def _only_one(rs: ir.Ruleset, c: ir.Expr, name: str, domain: ir.Expr) -> bool:
    """`c` (a term's words put in) is `A(name) and count(y in domain where A(y)) == 1`: no other binding passes."""
    if isinstance(c, ir.DefineCall) and c.name in rs.defines:
        d = rs.defines[c.name]
        c = substitute(d.body, {p: a for (p, _), a in zip(d.params, c.args)})
    tests = conjuncts(c)
    for t in tests:
        if not (isinstance(t, ir.Binary) and t.op in ("==", "<=") and t.right == ir.Const(1)
                and isinstance(t.left, ir.Quantified) and t.left.kind == "count" and len(t.left.binder.names) == 1
                and t.left.binder.groups[0].domain == domain and t.left.binder.where is not None):
            continue
        if substitute(t.left.binder.where, {t.left.binder.names[0]: ir.Local(name)}) in tests:
            return True
    return False


def told_apart(rs: ir.Ruleset, b: ir.Binder) -> bool:
    """No two cards the binder may find tie on its order: the fields its conditions hold equal (`c.suit == led()`)
    and the fields it orders by tell every card of its kinds apart (the highest card of the suit led is one)."""
    name = b.names[0] if len(b.names) == 1 else None
    kinds = getattr(b.groups[0].domain.ty, "kinds", None)
    if name is None or kinds is None or not b.order:
        return False

    def own_field(e: ir.Expr) -> str | None:
        return e.name if isinstance(e, ir.Field) and isinstance(e.obj, ir.Local) and e.obj.name == name else None

    keys = [own_field(k.value) for k in b.order]
    held = [own_field(side) for c in conjuncts(b.where) if isinstance(c, ir.Binary) and c.op == "=="
            for side in (c.left, c.right)]
    fields = [f for f in keys + held if f is not None]
    if None in keys or not fields:
        return False
    cards = [c for c in rs.cards if not kinds or c.kind in kinds]
    if any(f not in c.values for c in cards for f in fields):  # a state, or a field some kinds lack
        return False
    return len({tuple(c.values[f] for f in fields) for c in cards}) == len(cards)
