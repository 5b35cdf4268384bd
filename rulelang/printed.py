"""Warnings about what the printed rules would say: words that lose meaning, names players cannot read.

* A define's or procedure's `text:` that leaves a parameter out: two calls
  that differ only there would print alike (Hand of Fate's "fights 0 minions" for a
  Royalty fight). A true/false parameter is said with `{p?words|other words}`
  (`texts.py`). The printed rules add what the text leaves out, after it, so that
  nothing is lost meanwhile; this is a warning so that rulesets written before it
  still check, and becomes an error with the next version of the language.
* A name that reaches print and reads as no word: a field, a value or a variable
  named with a single letter (`t`) or a letter and a digit (`x1`, `side_b`). Such a
  name is printed as written unless the ruleset gives it a printed name
  (`names:` of the card type or the value's type; a variable's `text:`).
* A number the rules read that no card of its type shows: a card's own words (its
  `text` column) take the place of the fields its title does not name, so a value
  the rules compare (Love Letter's) would be on no card unless the layout, the label
  or the words name it.
"""
from __future__ import annotations

import re

from . import ir, texts
from .errors import Diagnostic
from .types import INT, EnumT
from .walk import every_rule, walk


def warnings(rs: ir.Ruleset) -> list[Diagnostic]:
    return _texts_leaving_out(rs) + _unreadable_names(rs) + _fields_no_card_shows(rs)


def _texts_leaving_out(rs: ir.Ruleset) -> list[Diagnostic]:
    out = []
    for what, table in (("define", rs.defines), ("procedure", rs.procedures)):  # an event's moment says the rest
        for item in table.values():
            if not item.text:
                continue
            said = texts.names(item.text)
            missing = [p for p, _ in item.params if p not in said]
            if missing:
                flag = [p for p, ty in item.params if p in missing and str(ty) == "true/false"]
                out.append(Diagnostic(
                    item.span, f"the text of {what} '{item.name}' leaves out {_list(missing)}: calls that differ "
                               "there would print alike (the printed rules add it after the text)",
                    "say every parameter: {name} where it stands" + (
                        f", and a true/false one as {{{flag[0]}?words when true|words when false}}" if flag else ""),
                    severity="warning"))
    return out


def _unreadable_names(rs: ir.Ruleset) -> list[Diagnostic]:
    out = []
    for ct in rs.card_types.values():
        for f in ct.fields:
            if f.name not in ct.names and _unreadable(f.name):
                out.append(_name_warning(ct.span, f"field '{f.name}' of card type '{ct.name}'", f.name,
                                         f"names: {{{f.name}: …}} on the card type"))
        for f in ct.state:
            if f.name.isidentifier() and f.name not in ct.names and _unreadable(f.name):
                out.append(_name_warning(ct.span, f"state '{f.name}' of card type '{ct.name}'", f.name,
                                         f"names: {{{f.name}: …}} on the card type"))
    used_types = {f.type.name for ct in rs.card_types.values() for f in ct.fields if isinstance(f.type, EnumT)}
    for enum in rs.enums.values():
        if enum.name not in used_types:
            continue
        for v in enum.values:
            if v not in enum.names and _unreadable(v):
                out.append(_name_warning(enum.span, f"value '{v}' of type '{enum.name}'", v,
                                         f"names: {{{v}: …}} on the type"))
    for v in rs.vars.values():
        if not v.text and _unreadable(v.name):
            out.append(_name_warning(v.span, f"variable '{v.name}'", v.name, "a `text:` saying what it is"))
    return out


def _fields_no_card_shows(rs: ir.Ruleset) -> list[Diagnostic]:
    worded = {c.kind for c in rs.cards if c.text}
    types = [ct for ct in rs.card_types.values() if ct.name in worded and ct.template is None
             and ct.printed is not False and (ct.printed or ct.layout is not None or ct.component == "card")]
    if not types:
        return []
    read = {n.name for n in walk(every_rule(rs)) if isinstance(n, ir.Field)}
    out = []
    for ct in types:
        layout = ct.layout or ir.CardLayout()
        formats = [ct.label, layout.title, layout.art] + [c.text for c in rs.cards if c.kind == ct.name]
        shown = {n for f in formats if isinstance(f, str) for n in re.findall(r"{(\w+)}", f)} \
            | {f for f, _ in layout.icons} | set(layout.rules) | {f for f, line in ct.lines if line is not None} \
            | ({layout.corner} if isinstance(layout.corner, str) else set())
        # numbers only: a kind the words say in English (an effect) is shown by them
        hidden = [f.name for f in ct.fields if f.type == INT and f.name in read and f.name not in shown]
        if hidden:
            out.append(Diagnostic(
                ct.span, f"the rules read {_list(hidden)} of each card of type '{ct.name}', but no card shows it: "
                         "a card's own words take the place of the fields its title does not name",
                f"show it: `layout: {{corner: {hidden[0]}}}`, `{{{hidden[0]}}}` in the `label:` or the words, or a "
                "`print:` line (docs/printing.md, Cards)", severity="warning"))
    return out


def _unreadable(name: str) -> bool:
    """A name no player reads as words: a part of one letter (but the article in `four_of_a_kind`),
    or letters run into digits."""
    parts = [p for p in name.split("_") if p]
    article = {i for i, p in enumerate(parts[:-1]) if p.lower() == "a" and i > 0}
    return any(len(p) == 1 and p.isalpha() and i not in article or re.fullmatch(r"[A-Za-z]+\d+|\d+[A-Za-z]+", p)
               for i, p in enumerate(parts))


def _name_warning(span, what: str, name: str, fix: str) -> Diagnostic:
    return Diagnostic(span, f"the {what} is printed as “{name.replace('_', ' ')}”, which players cannot read as "
                            "a word", f"give it a printed name: {fix}", severity="warning")


def _list(names: list[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
