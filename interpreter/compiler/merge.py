"""Generated block functions as they are finally written: straight-line runs
of blocks merged into one function (`Merge`), and the rules' locals that one
function alone uses kept in Python locals instead of the frame's `env`.

Both work on the generated text of blocks.py's functions, before it is
compiled: every block keeps its own index, so a decision's resume point, a
saved game's pc and a step's first block mean what they did.
"""
from __future__ import annotations

import bisect
import re

from .flow import Ask, AskMenu, Draw, Enter, Jump, NextTurn, labels_of
from .source import Function


def followers(items, ranges, block_of) -> list[int]:
    """How many places may go on to each block: the labels that name it, and
    the block before it unless that one always leaves elsewhere."""
    counts = [0] * (len(ranges) + 1)
    for item in items:
        for label in labels_of(item):
            counts[block_of[label.at]] += 1
    for k, (a, _) in enumerate(ranges):
        if k > 0 and not isinstance(items[a - 1], (Jump, Ask, AskMenu, Enter, NextTurn)):
            counts[k] += 1
    return counts


def entry_blocks(items, ranges, block_of, leaders) -> set[int]:
    """The blocks the engine may run by index: the first, each step's, a decision's
    or a call's resume points, and the blocks that stop for a draw (run again with
    its outcome). A block that stops for a decision is not run again: answering
    sets the frame's pc to a resume point."""
    entries = {0, *leaders}
    for k, (a, b) in enumerate(ranges):
        if k > 0 and isinstance(items[a - 1], (Ask, AskMenu, Enter)):
            entries.add(k)
        for item in items[a:b]:
            if isinstance(item, Draw):
                entries.add(k)
            if isinstance(item, AskMenu):
                entries |= {block_of[c.to.at] for c in item.choices}
    return entries


_ENV_KEY = re.compile(r"\benv(?:\[|\.get\(|\.pop\()(k\d+)")  # a local of the rules, by its constant
_GOTO = re.compile(r"return (\d+)")
_BRANCH = re.compile(r"return (\d+) if (.*) else (\d+)")


class Merge:
    """Straight-line runs of blocks as one function. Block k's function goes on
    with the code of the block it returns to when only k leads there, or that
    code is short, instead of returning to the engine's loop — on into the next
    step, and from the round's last step back to its first, without passing
    through the engine between them. Every block keeps its own function and
    index, so a decision's resume point, a saved game's pc and a step's first
    block mean what they did. Code that runs another step's blocks says so
    first (`st.at = j`): a watch that fires or a runaway met there is then
    reported in, and goes on after, the step whose code it is (`crossing`)."""

    LINES = 400  # no function grows past this many lines by taking in its followers
    DEPTH = 4  # nor is indented by more than this many `if`s
    SHARED = 40  # a block several blocks lead to is copied into them if its code is at most this long

    def __init__(self, fns: list[Function], followers: list[int], leaders: list[int]):
        self.fns, self.followers = fns, followers
        self.segment = [bisect.bisect_right(sorted(leaders), k) for k in range(len(fns))]
        self.absorbed: set[int] = set()  # the blocks some function took in (and only it leads to)
        self.crossing: set[int] = set()  # the blocks whose function runs another step's blocks
        self.exits: set[int] = set()  # the blocks some function returns to (their function stays)
        self._sizes: dict[int, int] = {}

    def _inlinable(self, k: int, j: int, path: frozenset) -> bool:
        """Whether block k's function may go on with block j's code: j is not the function's own
        block (that is a loop) nor on the way to k, and it lies ahead of k or in another step
        (going back within a step is a loop of the rules: the engine runs it)."""
        if not (j < len(self.fns) and j != self.head and j not in path) or \
                j < k and self.segment[j] == self.segment[k]:
            return False
        if self.followers[j] == 1:
            return True
        if j not in self._sizes:  # the length of its code as it would be copied (a trial run)
            saved = self.loops, self.crosses, set(self.absorbed), set(self.exits)
            self._sizes[j] = len(self._code(j, 0, [self.SHARED + 1], path, False)[0])
            self.loops, self.crosses, self.absorbed, self.exits = saved
        return self._sizes[j] <= self.SHARED

    def function(self, k: int) -> Function:
        self.head, self.loops, self.crosses = k, False, False
        lines, used = self._code(k, 0, [self.LINES], frozenset())
        if self.crosses:  # it runs another step's code: it says which step it starts in (again at each turn)
            lines = [(f"st.at = {k}", None)] + lines
            self.crossing.add(k)
        if self.loops:  # it jumps back to its own start: a Python loop, without leaving to the engine
            lines = [("while True:", None)] + [("    " + line, note) for line, note in lines]
        fn = Function(self.fns[k].name, "st, env")
        fn.body = [line for line, _ in lines]
        fn.notes = {i: note for i, (_, note) in enumerate(lines) if note}
        fn.shortcuts_in = used
        return fn

    def _code(self, k: int, depth: int, budget: list[int], path: frozenset, only: bool = True):
        """Block k's lines (prelude, then body) with its followers taken in, and the text of
        the blocks' own bodies (for the shortcuts `zones = st.zones`... the function needs).
        `path`: the blocks taken in on the way to k. `only`: the code is taken in where
        nothing else leads to it (its block needs no function)."""
        fn = self.fns[k]
        head = not depth and budget[0] == self.LINES
        only = only and (head or self.followers[k] == 1)
        if only and not head:
            self.absorbed.add(k)
        path = path | {k}
        lines = list(fn.prelude) + [(line, fn.notes.get(i)) for i, line in enumerate(fn.body)]
        used = ["\n".join(fn.body)]
        budget[0] -= len(lines)
        last, note = lines.pop()
        tail = None  # the jump as it stands, unless a follower's code is taken in
        if (m := _GOTO.fullmatch(last)) and self._inlinable(k, j := int(m[1]), path) and budget[0] > 0:
            tail, more = self._code(j, depth, budget, path, only)
            tail = self._entering(k, j) + tail
            used += more
        elif (m := _BRANCH.fullmatch(last)) and budget[0] > 0:
            a, cond, b = int(m[1]), m[2], int(m[3])
            take_a, take_b = self._inlinable(k, a, path), self._inlinable(k, b, path) and a != b
            if take_a and take_b and depth < self.DEPTH:
                inner, more = self._code(a, depth + 1, budget, path, only)
                rest, more2 = self._code(b, depth, budget, path, only)
                inner, rest = self._entering(k, a) + inner, self._entering(k, b) + rest
                tail = [(f"if {cond}:", note)] + [("    " + line, n) for line, n in inner] + rest
                used += more + more2
            elif take_a:
                rest, more = self._code(a, depth, budget, path, only)
                tail = [(f"if not ({cond}):", note), ("    " + self._goto(f"return {b}"), None)] + \
                    self._entering(k, a) + rest
                used += more
            elif take_b:
                rest, more = self._code(b, depth, budget, path, only)
                tail = [(f"if {cond}:", note), ("    " + self._goto(f"return {a}"), None)] + \
                    self._entering(k, b) + rest
                used += more
        if tail is None:
            tail = [(self._goto(last), note)]
        return lines + tail, used

    def _entering(self, k: int, j: int) -> list:
        """The line that says the code from here on is another step's (block j's), if it is."""
        if self.segment[j] == self.segment[k]:
            return []
        self.crosses = True
        return [(f"st.at = {j}", None)]

    def _goto(self, line: str) -> str:
        """A jump back to the function's own block goes round its loop; a block jumped to
        from here keeps its function, though another function took its code in."""
        if line == f"return {self.head}":
            self.loops = True
            return "continue"
        if m := _GOTO.fullmatch(line):
            self.exits.add(int(m[1]))
        elif m := _BRANCH.fullmatch(line):
            self.exits |= {int(m[1]), int(m[3])}
        return line


def locals_not_in_env(fns: list[Function], kept: set[str], blocks: list[Function]) -> None:
    """A local of the rules whose every use is in one function, or in one block's code
    (`blocks`, as they were before merging: a block's code may be copied into several
    functions), lives in a Python local there (`env_k7`), not in the frame's `env`: it never
    outlives the function's run, since a local is only read after it is bound in the rules,
    and the function runs from its start each time (a loop back to its start is a Python loop
    within the run); a block's code runs from its start to its end within one function.
    `kept`: the constants (`k12`) naming the locals something else writes into `env`
    (a decision's answer, a procedure's parameters, chance's progress and outcome)."""
    in_fns = _uses(fns)
    in_blocks = _uses(blocks) if any(len(used) > 1 for used in in_fns.values()) else {}
    renamed: dict[int, list[str]] = {}  # function -> the keys it keeps in Python locals
    for key, used in in_fns.items():
        if key not in kept and (len(used) == 1 or len(in_blocks.get(key, ())) == 1):
            for i in used:
                renamed.setdefault(i, []).append(key)
    for i, keys in renamed.items():  # one pass over a function's lines for all its keys
        fn, plain = fns[i], re.compile(rf"\benv\[({'|'.join(keys)})\]")
        fn.body = [plain.sub(r"env_\1", line) for line in fn.body]
        fn.prelude = [(plain.sub(r"env_\1", line), note) for line, note in fn.prelude]
        if fn.shortcuts_in is not None:
            fn.shortcuts_in = [plain.sub(r"env_\1", text) for text in fn.shortcuts_in]


def _uses(fns: list[Function]) -> dict[str, set[int]]:
    """Each local of the rules (by its constant) -> the functions whose text uses it."""
    where: dict[str, set[int]] = {}
    for i, fn in enumerate(fns):
        for line in fn.body + [line for line, _ in fn.prelude]:
            for key in _ENV_KEY.findall(line):
                where.setdefault(key, set()).add(i)
    return where
