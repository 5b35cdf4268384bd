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
ability: a new card is a new row). That cell names a declared ability, or
writes one of the card's own in one line (a new card with a new ability is
then a new row and nothing else):

    "on card_played where this == c once per turn_start: draw_cards(p, 1); food of p += 1"

The rules announce an event with
`trigger combat_start(p)`, or open a play window with `window
any_time(p)`; the compiler writes out what answers it
(`interpreter/compiler/abilities.py`).

This module holds what the IR means by them, which the checker and the compiler
read; the sections of a file that declare them are read by `sections/abilities.py`
(so the compiler imports no reader, YAML or Lark).
"""
from __future__ import annotations

import dataclasses

from . import ir
from .types import BOOL, EnumT

ABILITY_TYPE = "ability"  # the type of a field naming a card's ability (`none`: no ability)


def used_flag(ability: str) -> str:
    """The component state a card keeps for an ability limited by `once:` (no name a ruleset can write)."""
    return f"{ability}$used"


def carriers(rs: ir.Ruleset | _Tables, ability: str) -> list[int]:
    """The ids of the cards that carry an ability: by their type, or by a field naming it."""
    naming = {name: [f.name for f in ct.fields if f.type == EnumT(ABILITY_TYPE)] for name, ct in rs.card_types.items()}
    return [card.id for card in rs.cards if ability in rs.card_types[card.kind].abilities
            or any(card.values.get(f) == ability for f in naming[card.kind])]


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
