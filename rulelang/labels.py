"""How a component and a value read, the same in play and in print.

`label:` formats (`"{value} {icon}"`) and `back:` formats are filled from a
card's field values; a true/false value reads "yes"/"no", and names read
with spaces for underscores ("light_sun" -> "light sun").
"""
from __future__ import annotations

from . import ir


def words(name: str) -> str:
    return name.replace("_", " ")


def value_text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:  # no player (a role field or state that starts as `none`)
        return "none"
    return words(str(value))


def fill_format(fmt: str, card: ir.Card) -> str:
    """A `label:` or `back:` format with the card's field values."""
    for name, value in card.values.items():
        fmt = fmt.replace("{" + name + "}", value_text(value))
    return fmt


def card_label(rs: ir.Ruleset, card: ir.Card, state: dict | None = None) -> str:
    """A card as players name it: its type's `label:`, or its type and values. A label that
    names state values reads them from `state` (name -> value), else their initial values."""
    ct = rs.card_types[card.kind]
    if ct.label:
        text = fill_format(ct.label, card)
        for f in ct.state:
            value = state[f.name] if state is not None and f.name in state else f.initial
            text = text.replace("{" + f.name + "}", value_text(value))
        return text
    values = " ".join(value_text(v) for v in card.values.values())
    return f"{words(card.kind)} {values}".strip()
