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

The search is bounded twice: by positions (`max_positions`) and by the
memory it holds (`max_bytes`: the positions shown to lose, each kept as a
16-byte digest of the whole position rather than the position itself, and
the states along the line being searched, one per decision deep). Past
either bound it stops and says which (`Solution.stopped`): the answer is
then unknown. The line is searched with a list, not Python's recursion, so a
game thousands of decisions long is no deeper for Python than a short one.
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.state import State

DEFAULT_POSITIONS = 2_000_000
DEFAULT_BYTES = 1 << 30  # 1 GiB
DIGEST = 16  # bytes of a position's digest: collisions are out of reach (2^-64 at 2^32 positions)


@dataclass
class Solution:
    winnable: bool | None  # None: the search stopped at a bound before it knew (see `stopped`)
    line: list[str] = field(default_factory=list)  # the options of a winning line, in order
    positions: int = 0  # positions searched
    choices: list[int] = field(default_factory=list)  # the winning line as option indexes
    stopped: str | None = None  # why the answer is unknown: "positions" or "memory"
    held: int = 0  # bytes the search held at its largest (an estimate: see `Search.held`)


@dataclass(frozen=True)
class Progress:
    """Where a search is, for a progress line."""
    positions: int
    depth: int  # decisions deep on the line searched now
    held: int  # bytes held (an estimate)
    seconds: float


class OtherRoleDecides(ValueError):
    """The mode asks a decision of a role other than the one solved for."""


class _Frame:
    __slots__ = ("st", "key", "options", "next")

    def __init__(self, st: State, key: bytes, options: int):
        self.st, self.key, self.options, self.next = st, key, options, 0


def solve(game: Game, seed: int, role: str | None = None, max_positions: int = DEFAULT_POSITIONS,
          max_bytes: int = DEFAULT_BYTES, progress: Callable[[Progress], None] | None = None,
          every: float = 1.0) -> Solution:
    """Search the deal of `seed` for a win of `role` (the mode's first); `progress`
    is called about every `every` seconds."""
    role = role or game.roles[0]
    lost: set[bytes] = set()
    start = last = time.monotonic()
    positions, largest = 0, 0
    # what one remembered lost position costs: its digest as a bytes object, and its slot in the set
    per_lost = sys.getsizeof(b"x" * DIGEST) + 16
    first = game.new_state(seed)
    per_state = _size(first)  # a state on the line: about the size of the game's first one
    line: list[_Frame] = []

    def held() -> int:
        return len(lost) * per_lost + len(line) * per_state

    def enter(st: State) -> bool | None:
        """A new position: True a win, False known lost or lost at once, None pushed to search."""
        nonlocal positions
        if game.is_terminal(st):
            return game.outcome(st)["results"].get(role) == "win"
        d = game.decision(st)
        if d.role != role:
            raise OtherRoleDecides(f"'{d.label}' ({d.at}) is decided by {d.role}, not {role}: "
                                   "solve answers for modes where one role makes every decision")
        k = _key(st)
        if k in lost:
            return False
        positions += 1
        line.append(_Frame(st, k, len(d.options)))
        return None

    found = enter(first)
    while found is None and line:
        if positions > max_positions:
            return Solution(None, [], positions - 1, [], "positions", largest)
        largest = max(largest, held())
        if largest > max_bytes:
            return Solution(None, [], positions, [], "memory", largest)
        if progress is not None and time.monotonic() - last >= every:
            last = time.monotonic()
            progress(Progress(positions, len(line), held(), last - start))
        top = line[-1]
        if top.next == top.options:  # every option of it loses
            lost.add(line.pop().key)
            continue
        after = top.st.clone()
        game.apply(after, top.next)
        top.next += 1
        won = enter(after)
        if won:
            found = True
    if not found:
        return Solution(False, [], positions, [], None, largest)
    viewer = Viewer(game)
    choices = [f.next - 1 for f in line]
    texts = [f"round {f.st.round}: {viewer.option(f.st, f.next - 1)}" for f in line]
    return Solution(True, texts, positions, choices, None, largest)


def _key(st: State) -> bytes:
    """A digest of the whole position: where every card is and which way up, the
    variables, the random stream, the round, and where play is in the rules."""
    text = json.dumps([st.zones, st.face_up, st.vars, st.rng, st.round, st.to_json()["stack"]],
                      separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=DIGEST).digest()


def _size(st: State) -> int:
    """About how many bytes a state holds: its lists of cards, facings and values."""
    total = sys.getsizeof(st)
    for part in (st.zones, st.where, st.face_up, st.vars, *st.props):
        total += sys.getsizeof(part)
    total += sum(sys.getsizeof(z) for z in st.zones)
    return total
