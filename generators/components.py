"""Cards as printed: labels, field values, and the rows of a component table."""
from __future__ import annotations

from collections import Counter

from rulelang import ir, labels
from rulelang.types import EnumT

from .document import clean
from .english import join_and, words
from .icons import card_icons


def fill_format(fmt: str, card: ir.Card) -> str:
    """A `label:` or `back:` format with the card's field values, safe to embed."""
    return clean(labels.fill_format(fmt, card))


def card_label(rs: ir.Ruleset, card: ir.Card) -> str:
    return clean(labels.card_label(rs, card))


def type_title(kind: str) -> str:
    return words(kind)[:1].upper() + words(kind)[1:]


def printed_cards(rs: ir.Ruleset) -> list[ir.Card]:
    """The cards of the types printed on card sheets (not those with `print: false`)."""
    return [c for c in rs.cards if rs.card_types[c.kind].printed]


def component_count(rs: ir.Ruleset) -> str:
    """How many components of each noun: "3 pawns, 36 tiles and 54 cards"."""
    total: Counter = Counter()
    for card in rs.cards:
        ct = rs.card_types[card.kind]
        total[ct.component, ct.plural] += 1
    return join_and([f"{n} {words(plural if n != 1 else noun)}" for (noun, plural), n in total.items()])


def card_rows(rs: ir.Ruleset, kind: str) -> list[tuple[ir.Card, int]]:
    """The distinct cards of a type, in table order, each with its number of copies."""
    counts = Counter(tuple(c.values.items()) for c in rs.cards if c.kind == kind)
    rows, seen = [], set()
    for c in rs.cards:
        key = tuple(c.values.items())
        if c.kind == kind and key not in seen:
            seen.add(key)
            rows.append((c, counts[key]))
    return rows


def icons_used(rs: ir.Ruleset) -> list[tuple[str, str, str]]:
    """(icon, value, type) for every icon some card shows, in first-seen order."""
    used: dict[str, tuple[str, str, str]] = {}
    for card in rs.cards:
        ct = rs.card_types[card.kind]
        types = {f.name: f.type for f in ct.fields}
        for field, value, icon in card_icons(rs, card):
            ty = types[field]
            used.setdefault(icon, (icon, value, ty.name if isinstance(ty, EnumT) else field))
    return list(used.values())
