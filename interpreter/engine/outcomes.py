"""How a game's end becomes each player's result and place.

    win X          X (a player, or a list of players: a team) place first and
                   win; the others place after them (in ranking order, when
                   the mode has a `ranking:`) and lose
    lose X         X place last and lose; the others share first place and win
    end game       every player is placed by the mode's ranking (its
                   `ranking:` keys in turn, or else its scores): a first place
                   alone wins, a shared first place draws, the rest lose
    end game in a draw    every player still in the game shares first place

A player eliminated during the game places below every player still in it,
a later elimination above an earlier one, and loses. A place is one more
than the number of players placed strictly better, so ties share a place
(1, 2, 2, 4). An ending by the ranking says which of its keys decided: the
first on which the winner and the best of the others differ (a tie on points
broken by exact bids was decided by exact bids), or, in a draw, the first.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Callable

from ..runtime.errors import GameEnded


def placements(end: GameEnded, roles: tuple[str, ...], out: list[int],
               keys: list[tuple[bool, dict[str, Callable] | None]], st,
               scores: dict) -> tuple[dict[str, str], dict[str, int], int, bool]:
    """(result per role, place per role, the key that decided, whether a key was read). `out[i]`: 0
    if roles[i] is in the game, k if they were the k-th out; `keys`: the ranking (`ranking:`, or the
    scores), (lowest first?, role -> f(st, env), or None for the `scores`) per key. The deciding key
    is an index of `keys` for an ending by the ranking (see the module's note), else 0. Where no key
    was read, every game that ends so, with the same players out, places them alike."""
    named = set([end.role] if isinstance(end.role, str) else end.role or ())
    if len(roles) == 1 and (end.kind == "draw" or end.kind in ("win", "lose") and roles[0] in named):
        # one player, named by the end (or a draw): one place, and no ranking to evaluate
        result = end.kind if end.kind != "draw" else "lose" if out[0] else "draw"
        return {roles[0]: result}, {roles[0]: 1}, 0, False
    gone = {r: k for r, k in zip(roles, out) if k} if any(out) else {}
    values: dict[str, tuple] = {}  # the ranking's keys per role, evaluated once, in the order of the roles
    if end.kind == "win":
        groups = [([r for r in roles if r in named], False), ([r for r in roles if r not in named], True)]
    elif end.kind == "lose":
        groups = [([r for r in roles if r not in named], False), ([r for r in roles if r in named], False)]
    else:
        groups = [(list(roles), end.kind == "end")]
    places: dict[str, int] = {}
    # (loops, not closures or generators: this runs for every player at the end of every play-out)
    for group, by_keys in groups:
        before = len(places)
        if len(group) == 1:  # no key for a player alone in a group (the loser of a two-player win:
            places[group[0]] = before + 1  # its ranking, maybe a search of the board, decides nothing)
            continue
        # everyone still in ties, or is ranked by the keys; below them, the last out first
        keyed: list[tuple] = []
        for r in group:
            if r in gone:
                keyed.append((1, -gone[r]))
            elif by_keys:
                parts = [0]
                for lowest, f in keys:
                    value = scores[r] if f is None else f[r](st, {})
                    parts.append(value if lowest else -value)
                values[r] = ranked = tuple(parts)
                keyed.append(ranked)
            else:
                keyed.append(_STILL_IN)
        # those strictly better, found in the sorted keys
        ordered = sorted(keyed)
        place = before + 1
        for r, key in zip(group, keyed):
            places[r] = place + bisect_left(ordered, key)
    if end.kind == "win":
        results = {r: "win" if r in named else "lose" for r in roles}
    elif end.kind == "lose":
        results = {r: "lose" if r in named or r in gone else "win" for r in roles}
    elif end.kind == "draw":
        results = {r: "lose" if r in gone else "draw" for r in roles}
    else:
        first, firsts = "", 0  # the first place, and how many share it
        for r in roles:
            if places[r] == 1 and r not in gone:
                first, firsts = r, firsts + 1
        results = dict.fromkeys(roles, "lose")
        if firsts == 1:
            results[first] = "win"
            return results, places, _decided_by(first, roles, gone, values), bool(values)
        for r in roles:
            if places[r] == 1 and r not in gone:
                results[r] = "draw"
    return results, places, 0, bool(values)


_STILL_IN = (0,)  # the key of a player still in the game when those still in tie


def _decided_by(first: str, roles, gone: dict, values: dict[str, tuple]) -> int:
    """The index of the ranking key on which the one first place and the best of the players
    still in the game after it differ (0 if no one else is)."""
    second = None  # the best of the others (the first of them, as sorted would)
    for r in roles:
        if r != first and r not in gone:
            value = values[r]
            if second is None or value < second:
                second = value
    if second is None:
        return 0
    top = values[first]
    for i in range(1, len(top)):
        if top[i] != second[i]:
            return i - 1
    return 0
