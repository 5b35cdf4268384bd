"""Events and abilities: named moments the rules announce, and the card rules
that answer them.

    events:
      combat_start(role p): the start of a combat
    abilities:
      steady_shield:
        on: damage_taken           # the event it answers
        where: this in equipped of p   # when it answers (default: always); `this` is the card
        once: per combat_start     # at most once until that event happens again (or: per game)
        optional: p                # "you may": that player decides
        text: Prevent 1 damage.
        do: |
          health of p += 1

A card carries an ability through its type (`abilities: [steady_shield]`)
or through a field of the type `ability` in its table (one row, one
ability: a new card is a new row). The rules announce an event with
`trigger combat_start(p)`, or open a play window with `window
any_time(p)`; the compiler writes out what answers it
(`interpreter/compiler/abilities.py`).
"""
from __future__ import annotations

import dataclasses
import re

from . import ir
from .errors import did_you_mean
from .types import BOOL, EnumT
from .yamltree import YMap, YNode, YScalar

ABILITY_KEYS = ("on", "where", "once", "optional", "text", "assumed", "do")
ABILITY_TYPE = "ability"  # the type of a field naming a card's ability (`none`: no ability)


def used_flag(ability: str) -> str:
    """The component state a card keeps for an ability limited by `once:` (no name a ruleset can write)."""
    return f"{ability}$used"


def ability_names(node: YNode | None) -> tuple[str, ...]:
    """The abilities a file declares, before they are read (card tables name them)."""
    return tuple(node.entries) if isinstance(node, YMap) else ()


def read_events(reader, node: YNode | None, enums, card_types) -> dict[str, ir.Event]:
    """`events: {name(type param, ...): text}`."""
    events = {}
    for key, (span, value) in (reader.expect_map(node, "events") or YMap(span=None)).entries.items():
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*", key)
        if not m:
            reader.diag.error(span, f"an event is written `name(type param, ...)`, not '{key}'")
            continue
        name, params = m.group(1), reader.signature(m.group(2) or "", span, enums, card_types)
        text = reader.text(value, "text") if isinstance(value, YScalar) and value.value is not None else None
        if reader.declare(name, "event", span):
            events[name] = ir.Event(name, params, text, span=span)
    return events


def read_abilities(reader, node: YNode | None, events: dict[str, ir.Event]) -> dict[str, ir.Ability]:
    abilities = {}
    for name, (span, value) in (reader.expect_map(node, "abilities") or YMap(span=None)).entries.items():
        if not isinstance(value, YMap):
            reader.diag.error(span, f"ability '{name}' is a mapping: `on:` an event, `do:` its rules",
                              "e.g. `{on: combat_start, do: ...}`")
            continue
        reader.keys(value, ABILITY_KEYS, f"ability '{name}'")
        on = reader.text(value.get("on"), "an event")
        if on is None:
            reader.diag.error(span, f"ability '{name}' needs `on:`, the event it answers")
            continue
        if on not in events:
            reader.diag.error(value.get("on").span, f"ability '{name}' answers an unknown event '{on}'",
                              did_you_mean(on, events) or "declare it under `events:`")
            continue
        once = read_once(reader, name, value.get("once"), events)
        body = reader.snippet(value.get("do"), "block") if value.get("do") is not None else None
        if value.get("do") is None:
            reader.diag.error(span, f"ability '{name}' needs `do:`, what it does")
        where = reader.snippet(value.get("where"), "expression") if value.get("where") is not None else None
        optional = reader.snippet(value.get("optional"), "expression") if value.get("optional") is not None else None
        if body is not None and reader.declare(name, "ability", span):
            abilities[name] = ir.Ability(name, on, body, where, once, optional, reader.text(value.get("text"), "text"),
                                         reader.assumed(value), span=span)
    return abilities


def read_once(reader, name: str, node: YNode | None, events) -> str | None:
    """`once: per EVENT` (until that event happens again) or `once: per game`."""
    if node is None:
        return None
    text = reader.text(node, "once") or ""
    m = re.fullmatch(r"\s*per\s+([A-Za-z_]\w*)\s*", text)
    if not m or m.group(1) != "game" and m.group(1) not in events:
        reader.diag.error(node.span, f"ability '{name}': `once:` is `per game` or `per EVENT`, not '{text}'",
                          did_you_mean(m.group(1), [*events, "game"]) if m else "e.g. `once: per combat_start`")
        return None
    return m.group(1)


def carriers(rs: ir.Ruleset, ability: str) -> list[int]:
    """The ids of the cards that carry an ability: by their type, or by a field naming it."""
    found = []
    for card in rs.cards:
        ct = rs.card_types[card.kind]
        named = any(f.type == EnumT(ABILITY_TYPE) and card.values.get(f.name) == ability for f in ct.fields)
        if ability in ct.abilities or named:
            found.append(card.id)
    return found


def with_used_flags(card_types: dict[str, ir.CardType], cards, abilities: dict[str, ir.Ability]) -> dict:
    """Card types with the component state their limited abilities need (`once:`)."""
    out = dict(card_types)
    rs_like = _Tables(card_types, cards)
    for a in abilities.values():
        if a.once is None:
            continue
        kinds = {cards[c].kind for c in carriers(rs_like, a.name)}
        for kind in kinds:
            ct = out[kind]
            if used_flag(a.name) not in {s.name for s in ct.state}:
                out[kind] = dataclasses.replace(ct, state=ct.state + (ir.StateField(used_flag(a.name), BOOL, False),))
    return out


class _Tables:
    """What `carriers` reads of a ruleset, before there is one."""

    def __init__(self, card_types, cards):
        self.card_types, self.cards = card_types, cards
