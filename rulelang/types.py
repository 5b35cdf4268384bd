"""The static types of the rules language.

Values are numbers, true/false, text, enum symbols, cards (of a set of card
types), zones, boards, roles and lists. `none` fits any card, enum or role
type ("no card", "no player").
"""
from __future__ import annotations

from .records import record


class Type:
    def fits(self, other: "Type") -> bool:
        """True if a value of type `other` may be used where `self` is expected."""
        return other == self or other is ANY or self is ANY


@record
class Simple(Type):
    name: str

    def fits(self, other: Type) -> bool:
        if self is NONE:
            return other is NONE or other is ROLE or isinstance(other, (CardT, EnumT)) or other is ANY
        if self is ROLE and other is NONE:
            return True
        return super().fits(other)

    def __str__(self) -> str:
        return self.name


INT = Simple("number")
BOOL = Simple("true/false")
TEXT = Simple("text")
ROLE = Simple("role")
NONE = Simple("none")
ANY = Simple("anything")


@record
class EnumT(Type):
    name: str

    def fits(self, other: Type) -> bool:
        return other is NONE or super().fits(other)

    def __str__(self) -> str:
        return self.name


@record
class CardT(Type):
    kinds: frozenset[str]

    def fits(self, other: Type) -> bool:
        if isinstance(other, CardT):
            return other.kinds <= self.kinds
        return other is NONE or other is ANY

    def __str__(self) -> str:
        return "card (" + " or ".join(sorted(self.kinds)) + ")" if self.kinds else "card"


@record
class ZoneT(Type):
    """A zone; `kinds` are the card types it may hold (its `holds:`); a
    space of a board knows its board (its marks are read as `s.terrain`)."""
    kinds: frozenset[str]
    board: str | None = None

    def fits(self, other: Type) -> bool:
        return isinstance(other, ZoneT) or other is ANY

    def __str__(self) -> str:
        return "zone"


@record
class BoardT(Type):
    """A board: a grid of spaces, each a zone. The board's name stands for
    every card on it (to go through, count or test); cards move to a space."""
    kinds: frozenset[str]

    def fits(self, other: Type) -> bool:
        return isinstance(other, BoardT) or other is ANY

    def __str__(self) -> str:
        return "board"


@record
class ListT(Type):
    item: Type

    def fits(self, other: Type) -> bool:
        if isinstance(other, ListT):
            return other.item is NONE or self.item.fits(other.item)
        return other is ANY

    def __str__(self) -> str:
        return f"list of {self.item}"


def join(a: Type, b: Type) -> Type | None:
    """The least type holding both, or None if they do not mix."""
    if a == b:
        return a
    if a is ANY or b is ANY:
        return ANY
    if a is NONE and (isinstance(b, (CardT, EnumT)) or b is ROLE):
        return b
    if b is NONE and (isinstance(a, (CardT, EnumT)) or a is ROLE):
        return a
    if isinstance(a, CardT) and isinstance(b, CardT):
        return CardT(a.kinds | b.kinds)
    if isinstance(a, ZoneT) and isinstance(b, ZoneT):
        return ZoneT(a.kinds | b.kinds, a.board if a.board == b.board else None)
    if isinstance(a, ListT) and isinstance(b, ListT):
        if a.item is NONE:
            return b
        if b.item is NONE:
            return a
        inner = join(a.item, b.item)
        return ListT(inner) if inner else None
    return None

