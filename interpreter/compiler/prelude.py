"""What generated code may call: its whole namespace.

Generated functions run with no builtins but these: a few of Python's, and
helpers that raise the runtime's errors with the rule's location (each
error argument is a `(span, message)` constant made by the generator).
"""
from __future__ import annotations

from functools import lru_cache, partial
from itertools import chain, combinations, filterfalse
from math import comb

from ..runtime import rng
from ..runtime.chance import Chance, ChanceEvent, Decided, Told
from ..runtime.decision import Decision
from ..runtime.errors import GameEnded, RuleError, Runaway
from ..runtime.state import Frame
from .tuning import GRID_LINES_KEPT, WAYS_REMEMBERED, WORK_WINDOWS

UNSET = "$unset"  # a hoisted or searched value not found yet (a string: frames stay JSON)
MAX_LIST = 1_000_000  # items in one list (a range, two lists joined)


def _fail(error, hint=None):
    raise RuleError(*error, hint) if hint else RuleError(*error)


def _divide(n, d, floor, error):
    if d == 0:
        raise RuleError(*error)
    return n // d if floor else n % d


def _runaway(span, limit, kind="loop"):
    raise Runaway(span, limit, kind)


def _absorbed(k):
    raise RuntimeError(f"block {k} runs only inside the block before it (compiler/merge.py)")


def _steps(st, steps, span, limit, kind="loop"):
    """Count a loop's passes (or the dice of a roll) as steps, before running them."""
    st.steps += steps
    if st.steps > limit:
        raise Runaway(span, limit, kind)


def _work(st, bindings, span, limit):
    """Count a big binder's bindings as work, before going through them. Work is not steps:
    how many bindings are gone through is the compiler's choice (the passes go through fewer)."""
    st.work += bindings
    if st.work > limit:
        _overwork(st, bindings, span, limit)


def _overwork(st, bindings, span, limit):
    """Work past the limit: a runaway if it was all done since the last decision (or the game's start),
    or if the game has spent tuning.WORK_WINDOWS limits' worth; else the count starts again from these
    bindings. The limit bounds the work between two decisions, so a long game of many decisions, each
    looking over the board, is no runaway (checked only once the count is past the limit: nothing is
    added to a decision)."""
    if bindings > limit or st.work_at == st.decisions or st.work_windows >= WORK_WINDOWS:
        raise Runaway(span, limit, "binder")
    st.work_at, st.work, st.work_windows = st.decisions, bindings, st.work_windows + 1


def _dice(st, n, span, limit, error):
    """How many dice a roll throws: at most MAX_LIST, each a step against the limit."""
    if not 0 <= n <= MAX_LIST:
        raise RuleError(*error)
    _steps(st, n, span, limit, "dice")
    return n


def _range(low, high, error):
    if high - low >= MAX_LIST:
        raise RuleError(*error)
    return list(range(low, high + 1))


def _item(items, at, error):
    """The item of a list at a place counted from 1."""
    if type(at) is int and 1 <= at <= len(items):
        return items[at - 1]
    raise RuleError(error[0], f"{error[1]}: the list holds {len(items)} item{'s' if len(items) != 1 else ''}, "
                              f"so it has no item {at}", "items are counted from 1 to the list's size")


@lru_cache(maxsize=GRID_LINES_KEPT)
def _grid_lines(columns: int, rows: int, base: int, gaps: frozenset, n: int) -> tuple:
    """Every line of n spaces in a row on a grid (as zone instances, from its first space):
    across, up, and on both diagonals, none through a gap of its map. Made once per grid and n."""
    if n < 1:
        return ()
    found = []
    for y in range(rows):
        for x in range(columns):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                ex, ey = x + dx * (n - 1), y + dy * (n - 1)
                if not (0 <= ex < columns and 0 <= ey < rows) or n == 1 and (dx, dy) != (1, 0):
                    continue
                line = [base + (y + dy * k) * columns + x + dx * k for k in range(n)]
                if not gaps.intersection(line):
                    found.append(line)
    return tuple(found)


def _lines(columns, rows, base, gaps, n, through=None):
    """The lines of n spaces on a grid (`lines`), or those through one space (`lines_through`)."""
    found = _grid_lines(columns, rows, base, gaps, n)
    return [line for line in found if through in line] if through is not None else list(found)


def _words(value):
    """A value as a player reads it: a name with spaces for its _, yes/no, none."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def _join(left, right, error):
    if len(left) + len(right) > MAX_LIST:
        raise RuleError(*error)
    return left + right


def _end(kind, role, reason):
    raise GameEnded(kind, role, reason)


def _reduce(fn, values, error):
    if not values:
        raise RuleError(*error)
    return fn(values)




def _turn(st, players, out, seat, step):
    """The next player from seat `seat` still in the game: clockwise (step 1),
    counter-clockwise (-1), the player themself if no other is; step 0: every
    player still in the game, clockwise from that seat."""
    n, flags = len(players), st.vars
    if step == 0:
        if not any(flags[out:out + n]):  # no one is out (most games, always): the seats from `seat` on
            return [*players[seat:], *players[:seat]]
        return [players[(seat + k) % n] for k in range(n) if not flags[out + (seat + k) % n]]
    for k in range(1, n):
        i = (seat + step * k) % n
        if not flags[out + i]:
            return players[i]
    return players[seat]


def _on_board(st, cards, low, high):
    """The cards of `cards` on the spaces low..high-1 of a board, in the board's
    order: by space (bottom row first, left to right), then as the space lists them."""
    where = st.where
    found = [c for c in cards if low <= where[c] < high]
    return _board_order(st, found) if len(found) > 1 else found


def _board_order(st, found):
    """Cards on one board, sorted in place into the board's order."""
    where = st.where
    found.sort(key=where.__getitem__)
    places = [where[c] for c in found]
    if len(set(places)) < len(places):  # cards sharing a space: in the space's own order
        zones = st.zones
        found.sort(key=lambda c: (where[c], zones[where[c]].index(c)))
    return found




def _way(neighbours, a, b, toward, error, memo=None):
    """Breadth first from a: the number of steps to b, or (`toward`) the first
    space on a shortest way there — of equal ways, the one through the
    neighbour listed first. Boards are small, and a search stops at b. A
    board never changes, so `memo` (one per call site) keeps the answers."""
    if memo is not None:
        key = (a, b, toward)
        found = memo.get(key)
        if found is None:
            if len(memo) >= WAYS_REMEMBERED:
                memo.clear()
            found = memo[key] = _way(neighbours, a, b, toward, error)
        return found
    if a == b:
        return a if toward else 0
    first = {}  # a space found -> the neighbour of a it was reached through
    for n in neighbours[a]:
        first.setdefault(n, n)
    frontier, steps = list(first), 1
    while frontier:
        if b in first:
            return first[b] if toward else steps
        reached = []
        for z in frontier:
            for n in neighbours[z]:
                if n not in first and n != a:
                    first[n] = first[z]
                    reached.append(n)
        frontier, steps = reached, steps + 1
    raise RuleError(*error)


def _bounded(value, low, high):
    """A number kept within a variable's bounds: a change past them stops there."""
    return low if low is not None and value < low else high if high is not None and value > high else value


# a Decision made without its Python-level __new__ (a NamedTuple's is a lambda): one call fewer at every decision;
# and so the Decided event a watched game keeps of each answer (decision.recorded, written out by blocks.suspend)
_decision = partial(tuple.__new__, Decision)
_decided = partial(tuple.__new__, Decided)

GLOBALS = {"__builtins__": {}, "UNSET": UNSET, "_fail": _fail, "_divide": _divide, "_reduce": _reduce,
           "_turn": _turn, "_bounded": _bounded, "_way": _way, "_on_board": _on_board, "_board_order": _board_order, "_end": _end, "_runaway": _runaway, "_absorbed": _absorbed, "_chain": chain.from_iterable, "_work": _work, "_overwork": _overwork, "_steps": _steps, "_comb": comb,
           "_decision": _decision, "Frame": Frame, "_range": _range, "_join": _join, "_item": _item, "_words": _words, "_lines": _lines, "Told": Told, "_shuffle": rng.shuffle, "_combinations": combinations,
           "_below": rng.below, "_dice": _dice, "Chance": Chance, "ChanceEvent": ChanceEvent, "_decided": _decided,
           "set": set, "abs": abs, "len": len, "min": min, "max": max, "sum": sum, "any": any, "all": all,
           "range": range, "enumerate": enumerate, "list": list, "bool": bool, "tuple": tuple, "zip": zip,
           "_filterfalse": filterfalse}
