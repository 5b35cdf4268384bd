"""The colours of a ruleset's cards: a deck's fronts and its back in one colour.

A card type is printed in the colour its `layout:` gives; else in the colour
it is named after (the Gauntlet's green, blue and red cards); else in the
colour of its deck — the types that share a `back:` text are shuffled
together, so they share a colour, and their back is printed in it. A back
shared by types of several colours is printed in a neutral ink, so that it
tells none of them apart; a back whose text names a colour (`back:
"{deck}"` of brown, pink and light green cards) is printed in that colour.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir

ACCENTS = ("#8c2f1b", "#1f4e79", "#2e6b30", "#6b3e8c", "#9c6b00", "#245f63", "#7a2148", "#4f5b1d")
NAMED = {"red": "#8c2f1b", "blue": "#1f4e79", "green": "#2e6b30", "purple": "#6b3e8c", "yellow": "#9c6b00",
         "orange": "#b2561a", "teal": "#245f63", "pink": "#b5527a", "olive": "#4f5b1d", "brown": "#7a4a24",
         "light green": "#5f9442", "dark green": "#1e4620", "grey": "#5f6368", "gray": "#5f6368",
         "black": "#222222", "light blue": "#4a86b8", "dark blue": "#1b2f5c"}
NEUTRAL = "#3b3f46"  # a back several colours of fronts share


@dataclass(frozen=True)
class Palette:
    accent: dict  # card type -> its colour
    backs: dict  # back text -> its colour

    def paper(self, kind: str) -> str:
        """The card's ground: its colour, faint."""
        return mix(self.accent[kind], "#ffffff", 0.88)


def palette(rs: ir.Ruleset, cards: list[ir.Card], back_text) -> Palette:
    """`back_text(card)`: the text on a card's back."""
    accent: dict[str, str] = {}
    deck_colour: dict[str, str] = {}
    chosen = {kind: ct.layout.colour if ct.layout is not None and ct.layout.colour else _named(kind)
              for kind, ct in rs.card_types.items()}
    free = [c for c in ACCENTS if c not in chosen.values()] or list(ACCENTS)
    for kind, ct in rs.card_types.items():
        if chosen[kind]:
            accent[kind] = chosen[kind]
        elif ct.back and "{" not in ct.back and ct.back in deck_colour:
            accent[kind] = deck_colour[ct.back]  # shuffled with an earlier type: its colour
        else:
            accent[kind] = free[0]
            free = free[1:] + free[:1]
        if ct.back and "{" not in ct.back:
            deck_colour.setdefault(ct.back, accent[kind])
    behind: dict[str, set[str]] = {}
    for card in cards:
        behind.setdefault(back_text(card), set()).add(accent[card.kind])
    backs = {text: _named(text) or (next(iter(colours)) if len(colours) == 1 else NEUTRAL)
             for text, colours in behind.items()}
    return Palette(accent, backs)


def _named(text: str) -> str | None:
    return NAMED.get(text.lower().replace("_", " ").replace("-", " ").strip())


def mix(colour: str, other: str, share: float) -> str:
    """`colour` with `share` of `other` mixed in (both #rgb or #rrggbb)."""
    a, b = _rgb(colour), _rgb(other)
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b))


def _rgb(colour: str) -> tuple[int, int, int]:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)

