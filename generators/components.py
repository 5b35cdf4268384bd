"""Cards as printed: labels, field values, and the rows of a component table."""
from __future__ import annotations

from collections import Counter

from rulelang import ir, labels
from rulelang.types import EnumT

from .document import clean
from .icons import card_icons
from .nouns import words


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


def icons_used(rs: ir.Ruleset) -> list[tuple[str, str, str, str]]:
    """(icon, value, type, card type) for every icon some card shows, in first-seen order."""
    used: dict[str, tuple[str, str, str, str]] = {}
    for card in rs.cards:
        ct = rs.card_types[card.kind]
        types = {f.name: f.type for f in ct.fields}
        for field, value, icon in card_icons(rs, card):
            ty = types[field]
            used.setdefault(icon, (icon, value, ty.name if isinstance(ty, EnumT) else field, card.kind))
    return list(used.values())
