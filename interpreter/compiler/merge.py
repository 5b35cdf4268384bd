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

from .flow import Ask, AskMenu, Draw, Enter, Jump, labels_of
from .source import Function


def followers(items, ranges, block_of) -> list[int]:
    """How many places may go on to each block: the labels that name it, and
    the block before it unless that one always leaves elsewhere."""
    counts = [0] * (len(ranges) + 1)
    for item in items:
        for label in labels_of(item):
            counts[block_of[label.at]] += 1
    for k, (a, _) in enumerate(ranges):
        if k > 0 and not isinstance(items[a - 1], (Jump, Ask, AskMenu, Enter)):
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
    with the code of the block it returns to when only k leads there (in the
    same step, after it), instead of returning to the engine's loop. Every
    block keeps its own function and index, so a decision's resume point, a
    saved game's pc and a step's first block mean what they did; a watch or a
    runaway inside the inlined code is reported in the same step."""

    LINES = 400  # no function grows past this many lines by taking in its followers
    DEPTH = 4  # nor is indented by more than this many `if`s

    def __init__(self, fns: list[Function], followers: list[int], leaders: list[int]):
        self.fns, self.followers = fns, followers
        self.segment = [bisect.bisect_right(sorted(leaders), k) for k in range(len(fns))]
        self.absorbed: set[int] = set()  # the blocks some function took in (and only it leads to)
        self._sizes: dict[int, int] = {}

    SHARED = 40  # a block several blocks lead to is copied into them if its code is at most this long

    def _inlinable(self, k: int, j: int) -> bool:
        if not (k < j < len(self.fns) and self.segment[j] == self.segment[k]):
            return False
        if self.followers[j] == 1:
            return True
        if j not in self._sizes:  # the length of its code as it would be copied (a trial run)
            saved = self.loops, set(self.absorbed)
            self._sizes[j] = len(self._code(j, 0, [self.SHARED + 1], False)[0])
            self.loops, self.absorbed = saved
        return self._sizes[j] <= self.SHARED

    def function(self, k: int) -> Function:
        self.head, self.loops = k, False
        lines, used = self._code(k, 0, [self.LINES])
        if self.loops:  # it jumps back to its own start: a Python loop, without leaving to the engine
            lines = [("while True:", None)] + [("    " + line, note) for line, note in lines]
        fn = Function(self.fns[k].name, "st, env")
        fn.body = [line for line, _ in lines]
        fn.notes = {i: note for i, (_, note) in enumerate(lines) if note}
        fn.shortcuts_in = used
        return fn

    def _code(self, k: int, depth: int, budget: list[int], only: bool = True):
        """Block k's lines (prelude, then body) with its followers taken in, and the text of
        the blocks' own bodies (for the shortcuts `zones = st.zones`... the function needs).
        `only`: the code is taken in where nothing else leads to it (its block needs no function)."""
        fn = self.fns[k]
        head = not depth and budget[0] == self.LINES
        only = only and (head or self.followers[k] == 1)
        if only and not head:
            self.absorbed.add(k)
        lines = list(fn.prelude) + [(line, fn.notes.get(i)) for i, line in enumerate(fn.body)]
        used = ["\n".join(fn.body)]
        budget[0] -= len(lines)
        last, note = lines.pop()
        tail = [(self._goto(last), note)]
        if (m := _GOTO.fullmatch(last)) and self._inlinable(k, j := int(m[1])) and budget[0] > 0:
            tail, more = self._code(j, depth, budget, only)
            used += more
        elif (m := _BRANCH.fullmatch(last)) and budget[0] > 0:
            a, cond, b = int(m[1]), m[2], int(m[3])
            take_a, take_b = self._inlinable(k, a), self._inlinable(k, b) and a != b
            if take_a and take_b and depth < self.DEPTH:
                inner, more = self._code(a, depth + 1, budget, only)
                rest, more2 = self._code(b, depth, budget, only)
                tail = [(f"if {cond}:", note)] + [("    " + line, n) for line, n in inner] + rest
                used += more + more2
            elif take_a:
                rest, more = self._code(a, depth, budget, only)
                tail = [(f"if not ({cond}):", note), ("    " + self._goto(f"return {b}"), None)] + rest
                used += more
            elif take_b:
                rest, more = self._code(b, depth, budget, only)
                tail = [(f"if {cond}:", note), ("    " + self._goto(f"return {a}"), None)] + rest
                used += more
        return lines + tail, used

    def _goto(self, line: str) -> str:
        """A jump back to the function's own block goes round its loop."""
        if line == f"return {self.head}":
            self.loops = True
            return "continue"
        return line


def locals_not_in_env(fns: list[Function], kept: set[str]) -> None:
    """A local of the rules whose every use is in one block's function lives in a Python
    local there (`env_k7`), not in the frame's `env`: it never outlives the function's
    run, since a local is only read after it is bound in the rules, and the function runs
    from its start each time (a loop back to its start is a Python loop within the run).
    `kept`: the constants (`k12`) naming the locals something else writes into `env`
    (a decision's answer, a procedure's parameters, chance's progress and outcome)."""
    where: dict[str, set[int]] = {}
    for i, fn in enumerate(fns):
        for line in fn.body + [line for line, _ in fn.prelude]:
            for key in _ENV_KEY.findall(line):
                where.setdefault(key, set()).add(i)
    for key, used in where.items():
        if len(used) == 1 and key not in kept:
            fn = fns[next(iter(used))]
            plain = re.compile(rf"\benv\[{key}\]")
            fn.body = [plain.sub(f"env_{key}", line) for line in fn.body]
            fn.prelude = [(plain.sub(f"env_{key}", line), note) for line, note in fn.prelude]
            if fn.shortcuts_in is not None:
                fn.shortcuts_in = [plain.sub(f"env_{key}", text) for text in fn.shortcuts_in]
