"""The built-in functions of the rules language, in one table.

The checker types calls from it, the optimiser folds the pure ones, the
code generator has one `builtin_<name>` method per entry and the English
generator reads its phrases; the tests check that every entry is handled
by each. A new built-in starts here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[str, ...]  # each argument's kind: zone, zone-or-list, card, card-or-space, number, list, board, role,
    #                          space (of a board), place (a graph's place name)
    result: str  # number, bool, card, zone, zones (a list of zones), lines (a list of lists of zones), role,
    #              roles (a list of roles)
    phrase: str  # English; {0}, {1}, ... are the arguments' phrases
    negated: str | None = None  # the English of `not name(...)`, where it reads better than "it is not true that"
    pure: bool = True  # depends on its arguments only: folded when they are constants
    several: bool = False  # min/max: one list, or several numbers
    bare: bool = False  # written without parentheses (`round`)


BUILTINS: dict[str, Builtin] = {b.name: b for b in (
    Builtin("round", (), "number", "the round number", pure=False, bare=True),
    Builtin("size", ("zone-or-list",), "number", "the number of items in {0}"),
    Builtin("empty", ("zone-or-list",), "bool", "{0} is empty", negated="{0} is not empty"),
    Builtin("top", ("zone",), "card", "the top card of {0}"),
    Builtin("bottom", ("zone",), "card", "the bottom card of {0}"),
    Builtin("abs", ("number",), "number", "the size of {0} (ignoring its sign)"),
    Builtin("min", ("list",), "number", "the smallest of {0}", several=True),
    Builtin("max", ("list",), "number", "the largest of {0}", several=True),
    Builtin("sum", ("list",), "number", "the total of {0}"),
    Builtin("any", ("list",), "bool", "at least one of {0}"),
    Builtin("all", ("list",), "bool", "every one of {0}"),
    Builtin("face_up", ("card",), "bool", "{0} is face up", negated="{0} is not face up", pure=False),
    Builtin("face_down", ("card",), "bool", "{0} is face down", negated="{0} is not face down", pure=False),
    # not folded: the zone analysis follows moves into a board through its `space(...)` calls
    Builtin("space", ("board", "number", "number"), "zone", "the space of {0} in column {1}, row {2}", pure=False),
    # a card's place on a grid, or a grid space's own (`card-or-space`)
    Builtin("column", ("card-or-space",), "number", "the column {0} is in", pure=False),
    Builtin("row", ("card-or-space",), "number", "the row {0} is in", pure=False),
    Builtin("columns", ("board",), "number", "the number of columns of {0}"),
    Builtin("rows", ("board",), "number", "the number of rows of {0}"),
    # boards as maps and graphs: spaces, what is next to what, the way from one space to another
    Builtin("spaces", ("board",), "zones", "the spaces of {0}"),
    Builtin("neighbours", ("space",), "zones", "the spaces next to {0}"),
    Builtin("distance", ("space", "space"), "number", "the number of steps from {0} to {1}"),
    Builtin("toward", ("space", "space"), "zone", "the next space from {0} on the shortest way to {1}"),
    Builtin("place", ("board", "place"), "zone", "{1} on {0}"),
    # lines on a grid: every n spaces in a row — across, up, or on a diagonal (gaps of a map break a line)
    Builtin("lines", ("board", "number"), "lines", "every line of {1} spaces in a row on {0}"),
    Builtin("lines_through", ("space", "number"), "lines", "every line of {1} spaces in a row through {0}",
            pure=False),
    # seats: the mode's players in seat order; turns skip players out of the game
    Builtin("players", (), "roles", "the players", bare=True),
    Builtin("seat", ("role",), "number", "the seat number of {0}"),
    Builtin("left_of", ("role",), "role", "the player to the left of {0}", pure=False),
    Builtin("right_of", ("role",), "role", "the player to the right of {0}", pure=False),
    Builtin("clockwise", ("role",), "roles", "each player in turn from {0}, clockwise", pure=False),
    Builtin("in_game", ("role",), "bool", "{0} is still in the game", negated="{0} is out of the game",
            pure=False),
    # turns (a mode's `turns:`): whose turn it is, none outside the turns
    Builtin("current", (), "role", "the player whose turn it is", pure=False, bare=True),
)}

# names a ruleset cannot declare: the built-ins, and the box every game has
RESERVED = frozenset(BUILTINS) | {"box"}
