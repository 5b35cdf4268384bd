"""Is a deal winnable? Exhaustive search with memoisation, for solitaire modes.

Given a mode where one role makes every decision and a seed, `solve` plays
every line of decisions (depth first, options in the order the rules offer
them) until one wins, remembering the positions already shown to lose so
that a position reached by two orders of play is searched once. The deal is
the one the seed makes, chance included: a shuffle later in the game comes
out as the seed has it, as in a solitaire solver for a fixed deal. Under
`visibility: open` (Moderator mode) that is the whole question the player
faces except for the order a later reshuffle brings, which the solver
knows and a player does not; "winnable" is therefore an upper bound on what
perfect play without foresight of shuffles achieves.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.state import State


@dataclass
class Solution:
    winnable: bool | None  # None: the search gave up at its node limit
    line: list[str] = field(default_factory=list)  # the options of a winning line, in order
    positions: int = 0  # positions searched
    choices: list[int] = field(default_factory=list)  # the winning line as option indexes


class _GaveUp(Exception):
    pass


class OtherRoleDecides(ValueError):
    """The mode asks a decision of a role other than the one solved for."""


def solve(game: Game, seed: int, role: str | None = None, max_positions: int = 2_000_000) -> Solution:
    role = role or game.roles[0]
    viewer = Viewer(game)
    lost: set[str] = set()
    count = [0]

    def key(st: State) -> str:
        return json.dumps([st.zones, st.face_up, st.vars, st.rng, st.round, st.to_json()["stack"]],
                          separators=(",", ":"))

    def search(st: State) -> list[tuple[int, str]] | None:
        if game.is_terminal(st):
            return [] if game.outcome(st)["results"].get(role) == "win" else None
        d = game.decision(st)
        if d.role != role:
            raise OtherRoleDecides(f"'{d.label}' ({d.at}) is decided by {d.role}, not {role}: "
                                   "solve answers for modes where one role makes every decision")
        k = key(st)
        if k in lost:
            return None
        count[0] += 1
        if count[0] > max_positions:
            raise _GaveUp
        for i in game.legal_actions(st):
            after = st.clone()
            game.apply(after, i)
            rest = search(after)
            if rest is not None:
                return [(i, f"round {st.round}: {viewer.option(st, i)}")] + rest
        lost.add(k)
        return None

    try:
        line = search(game.new_state(seed))
    except _GaveUp:
        return Solution(None, [], count[0])
    line = line or []
    return Solution(bool(line), [text for _, text in line], count[0], [i for i, _ in line])
