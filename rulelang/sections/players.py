"""`players:` (seats made from a number of players) and `roles:` (named roles)."""
from __future__ import annotations

import re

from .. import ir
from ..params import whole_number
from ..types import INT
from ..yamltree import YList, YMap, YNode, YScalar
from .reader import Reader
from .shapes import NAME, AnyOf, Choice, Key, Keys, ListOf, Named, Scalar, string

ROLE = Keys("a role", (Key("text", string("who")),
                       Key("article", Choice(("the", "none"), "the Dealer, or North (none)"))))
ROLES = AnyOf((ListOf(NAME), Named(AnyOf((Scalar(("string", "null")), ROLE)), "who makes decisions")))
PLAYERS_SPEC = Keys("seats made from a number of players (`--set players=N`)", (
    Key("count", Scalar(("integer", "string"), "a number, or a range like 2..4"), required=True),
    Key("default", Scalar(("integer",), "how many play unless --set players=N says (default: the fewest)")),
    Key("names", ListOf(NAME, "a name per seat, in seat order (default: player_1, player_2, ...)")),
    Key("text", string("who the players are"))))
PLAYERS = AnyOf((Scalar(("integer", "string"), "how many play: a number, or a range like 2..4"), PLAYERS_SPEC))


def read_players(reader: Reader, node: YNode | None) -> tuple[ir.Players | None, ir.ParamDef | None]:
    """`players: {count: 2..4, default: 3, names: [...]}` (or `players: 2..4`): the
    seats, and the `players` parameter that sets how many play."""
    if node is None:
        return None, None
    spec = node if isinstance(node, YMap) else YMap(span=node.span, entries={"count": (node.span, node)})
    reader.keys(spec, PLAYERS_SPEC, "players")
    count = spec.get("count")
    m = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:\.\.\s*([0-9]{1,3}))?\s*", str(count.value)) \
        if isinstance(count, YScalar) else None
    low, high = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
    if not isinstance(count, YScalar) or not m or not 1 <= low <= high:
        reader.diag.error((count or spec).span, "players need a count: a number or a range like 2..4",
                        "e.g. `players: {count: 2..4, default: 3}`")
        return None, None
    if high > reader.limits.components:
        reader.diag.error(count.span, f"{high} players is more than a game can seat")
        return None, None
    default_node, default = spec.get("default"), low
    if isinstance(default_node, YScalar):
        given = default_node.value
        if isinstance(given, int) and not isinstance(given, bool) and low <= given <= high:
            default = given
        else:
            reader.diag.error(default_node.span, f"the default number of players must be a number in {low}..{high}")
    names_node = spec.get("names")
    if names_node is None:
        names = tuple(f"player_{i}" for i in range(1, high + 1))
    elif not isinstance(names_node, YList) or len(names_node.items) < high:
        reader.diag.error(names_node.span, f"players need a name for each of the {high} seats",
                        "e.g. `names: [north, east, south, west]`, in seat order")
        return None, None
    else:
        names = tuple(reader.text(item, "a player's name") or f"player_{i}"
                      for i, item in enumerate(names_node.items, 1))
    text = reader.text(spec.get("text"), "text")
    players = ir.Players(low, high, default, names, text, span=spec.span)
    param = ir.ParamDef("players", INT, default, text or "the number of players", low=low, high=high,
                        span=spec.span)
    return players, param


def player_count(reader: Reader, players: ir.Players) -> int:
    """How many play: `--set players=N` (checked with the other parameters), or the default."""
    given = whole_number(str(reader.players_given)) if reader.players_given is not None else None
    if given is not None and players.low <= given <= players.high:
        return given
    return players.default


def read_roles(reader: Reader, node: YNode | None, players: ir.Players | None) -> tuple[ir.Role, ...]:
    if players is not None:
        if node is not None:
            reader.diag.error(node.span, "a ruleset names its roles or counts its players, not both",
                            "keep `roles:` for a game of named roles, `players:` for a number of seats")
        n = player_count(reader, players)
        return tuple(ir.Role(name, span=players.span) for name in players.names[:n])
    if node is None:
        reader.diag.error(reader.tree.span, "the ruleset declares no 'roles:'",
                        "add e.g. `roles: [player]`, or `players: 2..4` for a number of seats")
        return ()
    roles = []
    if isinstance(node, YList):
        for item in node.items:
            name = reader.text(item, "a role")
            if name and reader.declare(name, "role", item.span):
                roles.append(ir.Role(name, span=item.span))
    elif isinstance(node, YMap):
        for name, (span, value) in node.entries.items():
            if reader.declare(name, "role", span):
                spec = value if isinstance(value, YMap) else YMap(span=span)
                reader.keys(spec, ROLE, f"role '{name}'")
                text = spec.get("text") if isinstance(value, YMap) else value
                roles.append(ir.Role(name, reader.text(text, "role text") if text else None,
                                     reader.article(spec, ("the", "")), span=span))
    else:
        reader.diag.error(node.span, "roles must be a list of names")
    return tuple(roles)
