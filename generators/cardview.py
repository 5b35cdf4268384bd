"""A card as its face shows it: plain data by role, for the card templates.

`view(...)` gives what a template sees as `card`: the title, the corner's
number, the stats with their icons, the art, the lines of the other fields,
and what the card does (`card.text`). `contents(...)` sums up the views of a
card type, so that one face layout (`layout.py`) fits every card of it.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

from rulelang import ir
from rulelang.abilities import ABILITY_TYPE
from rulelang.labels import value_text
from rulelang.types import EnumT

from .components import card_label, fill_format, type_title
from .layout import Contents, Roles
from .nouns import words

DEFAULT = object()  # a field the card type's `print:` does not name


def view(rs: ir.Ruleset, card: ir.Card, roles: Roles, said, fallback: str = "") -> SimpleNamespace:
    """The card as plain data for templates (`card.values.kind`, `card.title`, `card.stats` ...).
    `said(ability)`: the words of an ability; `fallback`: the text of a card with no rules of its own."""
    ct = rs.card_types[card.kind]
    title_format = ct.label if roles.title is True else roles.title or ""
    shown = set(re.findall(r"{(\w+)}", title_format or "")) | {roles.corner} | dict(roles.stats).keys()
    printed = dict(ct.lines)
    fields, number, icons, abilities, rules = [], None, [], list(ct.abilities), []
    worded = card.text is not None  # the card's own words say what its fields would
    for f in ct.fields:
        value = card.values[f.name]
        if f.type == EnumT(ABILITY_TYPE):  # a rule, printed as what the card does, not as a value
            abilities += [value] if value is not None else []
            continue
        enum = rs.enums.get(f.type.name) if isinstance(f.type, EnumT) else None
        icon = enum.icons.get(value) if enum is not None else None
        spec = printed.get(f.name, DEFAULT)  # a line the ruleset gives is printed even for a field in the title
        line = field_line(card, f.name, spec)
        if f.name in roles.rules:
            rules += [line] if line else []
            line = None
        in_title = f.name in shown or (icon is not None and roles.art is True) or worded
        if (in_title and spec is DEFAULT) or f.name == roles.corner or f.name in dict(roles.stats):
            line = None  # said in the title, by an icon or by the card's words; or a number drawn elsewhere
        fields.append({"name": f.name, "title": words(f.name), "value": value, "text": value_text(value),
                       "icon": icon, "in_title": in_title, "line": line})
        if icon:
            icons.append({"field": f.name, "value": value, "icon": icon})
        if number is None and not worded and isinstance(value, int) and not isinstance(value, bool):
            number = value
    label = card_label(rs, card)
    title = label if roles.title is True else fill_format(roles.title, card) if roles.title else ""
    own = ([fill_format(card.text, card)] if card.text else []) + rules + [said(a) for a in abilities]
    stats = [{"field": f, "icon": icon, "title": words(f), "value": card.values[f]}
             for f, icon in roles.stats if card.values[f]]  # cards print no empty numbers
    art = fill_format(roles.art, card) if isinstance(roles.art, str) else None
    return SimpleNamespace(
        id=card.id, kind=card.kind, type=type_title(card.kind), label=label, title=_capital(title),
        fields=[SimpleNamespace(**f) for f in fields], lines=[f["line"] for f in fields if f["line"]],
        values=SimpleNamespace(**card.values), number=number,
        corner=card.values[roles.corner] if roles.corner else None,
        stats=[SimpleNamespace(**s) for s in stats], art=art,
        icons=[SimpleNamespace(**i) for i in icons] if roles.art is True else [],
        abilities=[SimpleNamespace(name=a, title=words(a), text=said(a)) for a in abilities],
        own=bool(own), text=" ".join(own) or fallback, type_text=ct.text or "")


def contents(views: list[SimpleNamespace], roles: Roles, art_block: bool) -> Contents:
    """The most any card of a type holds; `art_block`: the type's own template draws its art."""
    return Contents(
        art=art_block or isinstance(roles.art, str) or any(v.icons for v in views),
        stats=max((len(v.stats) for v in views), default=0), lines=tuple(tuple(v.lines) for v in views),
        rules=any(v.text for v in views), title=roles.title is not False, corner=roles.corner is not None)


def field_line(card: ir.Card, name: str, spec) -> str | None:
    """How a field reads on the card's front, or None where the card shows nothing for it.
    By default "Title: value", and a flag its title alone when it is true (a card never
    prints "yes" or "no"). A `print:` line is a format, left out when the field is 0, false or
    none (cards print no empty numbers), or a format for each value of the field."""
    value = card.values[name]
    if spec is DEFAULT:
        if isinstance(value, bool):
            return _capital(words(name)) if value else None
        return f"{words(name)}: {value_text(value)}"
    if isinstance(spec, tuple):
        spec = dict(spec).get(value)
    elif value is None or value is False or (value == 0 and not isinstance(value, str)):
        return None
    return _capital(fill_format(spec, card)) if spec else None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
