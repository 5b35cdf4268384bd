"""Generated block functions as they are finally written: straight-line runs of
blocks merged into one function (`Merge`), and the rules' locals that one
function alone uses kept in Python locals instead of the frame's `env`
(`locals_not_in_env`).

Both work on the blocks' code as data (pycode.py): a block ends with a `Goto`
or a `Branch` to the blocks it leads to, and reads and writes the rules'
locals through `EnvRef`s. Every block keeps its own index, so a decision's
resume point, a saved game's pc and a step's first block mean what they did.
"""
from __future__ import annotations

import ast
import bisect

from . import tuning
from .flow import Ask, AskMenu, Draw, Enter, Jump, NextTurn, labels_of
from .peeks import known_zones
from .pycode import Branch, Goto, Nested, note, note_of, stmt
from .unit import Function


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
    or a call's resume points, the blocks that stop for a draw (run again with
    its outcome), and where turns are handed on (the engine runs it after a turn's
    last step) and the blocks it hands on to. A block that stops for a decision is
    not run again: answering sets the frame's pc to a resume point."""
    entries = {0, *leaders}
    for k, (a, b) in enumerate(ranges):
        if k > 0 and isinstance(items[a - 1], (Ask, AskMenu, Enter)):
            entries.add(k)
        for item in items[a:b]:
            if isinstance(item, Draw):
                entries.add(k)
            if isinstance(item, AskMenu):
                entries |= {block_of[c.to.at] for c in item.choices}
            if isinstance(item, NextTurn):
                entries |= {k, block_of[item.turn.at], block_of[item.done.at]}
    return entries


def lines(stmts) -> int:
    """How many lines statements are written on (render.py): what a function's size is counted in."""
    total = 0
    for s in stmts:
        kind = type(s)
        if kind is ast.If:
            total += 1 + lines(s.body)
            while len(s.orelse) == 1 and type(s.orelse[0]) is ast.If and note_of(s.orelse[0]) is None:
                s = s.orelse[0]
                total += 1 + lines(s.body)
            total += 1 + lines(s.orelse) if s.orelse else 0
        elif kind in (ast.For, ast.While):
            total += 1 + lines(s.body)
        elif kind is Nested:
            total += 1 + bool(s.nonlocals) + max(1, lines(s.body))
        else:
            total += 1
    return total


class Merge:
    """Straight-line runs of blocks as one function. Block k's function goes on
    with the code of the block it jumps to when only k leads there, or that
    code is short, instead of returning to the engine's loop — on into the next
    step, and from the round's last step back to its first, without passing
    through the engine between them. Every block keeps its own function and
    index, so a decision's resume point, a saved game's pc and a step's first
    block mean what they did. Code that runs another step's blocks says so
    first (`st.at = j`): a watch that fires or a runaway met there is then
    reported in, and goes on after, the step whose code it is (`crossing`)."""

    def __init__(self, fns: list[Function], followers: list[int], leaders: list[int]):
        self.fns, self.followers = fns, followers
        self.most, self.depth, self.shared = tuning.MERGED_LINES, tuning.MERGED_DEPTH, tuning.SHARED_BLOCK_LINES
        self.segment = [bisect.bisect_right(sorted(leaders), k) for k in range(len(fns))]
        self.absorbed: set[int] = set()  # the blocks some function took in (and only it leads to)
        self.crossing: set[int] = set()  # the blocks whose function runs another step's blocks
        self.exits: set[int] = set()  # the blocks some function returns to (their function stays)
        self.taken: dict[int, set[int]] = {}  # a function made -> the blocks whose code it holds
        self._sizes: dict[int, int] = {}
        # the function being made: its first block, whether it loops back to it, whether it runs
        # another step's blocks, the blocks whose code it holds (see function)
        self.head, self.loops, self.crosses, self._in = -1, False, False, set[int]()

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
            saved = self.loops, self.crosses, set(self.absorbed), set(self.exits), set(self._in)
            self._sizes[j] = lines(self._code(j, 0, [self.shared + 1], path, False))
            self.loops, self.crosses, self.absorbed, self.exits, self._in = saved
        return self._sizes[j] <= self.shared

    def function(self, k: int) -> Function:
        self.head, self.loops, self.crosses, self._in = k, False, False, set()
        body = self._code(k, 0, [self.most], frozenset())
        self.taken[k] = self._in
        if self.loops:  # it jumps back to its own start: a Python loop, without leaving to the engine
            body = [ast.While(ast.Constant(True), body, [])]
        if self.crosses:  # it runs another step's code: it says which step it starts in (and goes back to, _goto)
            body = [_at(k)] + body
            self.crossing.add(k)
        fn = Function(self.fns[k].name, ("st", "env"))
        fn.body = body
        return fn

    def _code(self, k: int, depth: int, budget: list[int], path: frozenset, only: bool = True) -> list:
        """Block k's statements (prelude, then body) with its followers taken in. `path`: the blocks
        taken in on the way to k. `only`: the code is taken in where nothing else leads to it (its
        block needs no function)."""
        fn = self.fns[k]
        head = not depth and budget[0] == self.most
        only = only and (head or self.followers[k] == 1)
        if only and not head:
            self.absorbed.add(k)
        path = path | {k}
        self._in.add(k)
        code = fn.prelude + fn.body
        budget[0] -= lines(code)
        *code, last = code
        code = [self._within(k, s, depth, budget, path, only) if type(s) is ast.If else s for s in code]
        tail = None  # the jump as it stands, unless a follower's code is taken in
        if type(last) is Goto and self._inlinable(k, last.block, path) and budget[0] > 0:
            tail = self._entering(k, last.block) + self._answered(last, self._code(last.block, depth, budget, path, only))
        elif type(last) is Branch and budget[0] > 0:
            a, b = last.then, last.otherwise
            take_a, take_b = self._inlinable(k, a, path), self._inlinable(k, b, path) and a != b
            if take_a and take_b and depth < self.depth:
                inner = self._entering(k, a) + self._code(a, depth + 1, budget, path, only)
                rest = self._entering(k, b) + self._code(b, depth, budget, path, only)
                tail = [_noted(ast.If(last.test, inner, []), last)] + rest
            elif take_a:
                rest = self._code(a, depth, budget, path, only)
                test = ast.UnaryOp(ast.Not(), last.test)
                tail = [_noted(ast.If(test, self._goto(k, Goto(b)), []), last)] + self._entering(k, a) + rest
            elif take_b:
                rest = self._code(b, depth, budget, path, only)
                tail = [_noted(ast.If(last.test, self._goto(k, Goto(a)), []), last)] + self._entering(k, b) + rest
        if tail is None:
            tail = self._goto(k, last)
        return code + tail

    def _within(self, k: int, s: ast.If, depth: int, budget: list[int], path: frozenset, only: bool) -> ast.If:
        """An `if` whose branch ends where a decision answered at once goes on (blocks.suspend: its
        resume point): the code there taken in too, as at the block's end, so a quick agent's game does
        not return to the engine between a decision and what follows it; a new `if`, since a block's
        code may be copied into other functions as it stands. (A loop's exit is not taken in here: the
        loop's place is then carried in locals, carried.py.)"""
        body, orelse = (self._ending(k, b, depth + 1, budget, path, only) for b in (s.body, s.orelse))
        if body is s.body and orelse is s.orelse:
            return s
        made = ast.If(s.test, body, orelse)
        _noted(made, s)
        return made

    def _ending(self, k: int, stmts: list, depth: int, budget: list[int], path: frozenset, only: bool) -> list:
        """A branch's statements, with what its jump leads to taken in (see _within)."""
        if not stmts or depth > self.depth:
            return stmts
        *code, last = stmts
        new = [self._within(k, s, depth, budget, path, only) if type(s) is ast.If else s for s in code]
        if type(last) is Goto and getattr(last, "answered", False) and self._inlinable(k, last.block, path) \
                and budget[0] > 0:
            new += self._entering(k, last.block) + self._answered(last, self._code(last.block, depth, budget, path, only))
        elif type(last) in (Goto, Branch):
            new += self._goto(k, last)
        elif type(last) is ast.If:
            new.append(self._within(k, last, depth, budget, path, only))
        else:
            new.append(last)
        return stmts if all(a is b for a, b in zip(new, stmts)) and len(new) == len(stmts) else new

    @staticmethod
    def _answered(jump: Goto, code: list) -> list:
        """The code a jump goes on with; after a quick answer, the cards it chose taken off the zone
        its options listed them in (peeks.known_zones), not searched for."""
        placed = getattr(jump, "placed", None)
        return known_zones(code, placed) if placed else code

    def _entering(self, k: int, j: int) -> list:
        """The statement that says the code from here on is another step's (block j's), if it is."""
        if self.segment[j] == self.segment[k]:
            return []
        self.crosses = True
        return [_at(j)]

    def _goto(self, k: int, last: ast.stmt) -> list[ast.stmt]:
        """A jump back to the function's own block goes round its loop (from block k's code: saying
        first that the code is the function's step again, if k is another step's); a block jumped to
        from here keeps its function, though another function took its code in."""
        if type(last) is Goto and last.block == self.head:
            self.loops = True
            back = _noted(ast.Continue(), last)
            return [back] if self.segment[k] == self.segment[self.head] else [_at(self.head), back]
        if type(last) is Goto:
            self.exits.add(last.block)
        elif type(last) is Branch:
            self.exits |= {last.then, last.otherwise}
        return [last]


def _at(block: int) -> ast.stmt:
    return stmt("st.at = K", K=block)


def _noted(new: ast.stmt, old: ast.stmt) -> ast.stmt:
    return note(new, note_of(old))


def locals_not_in_env(keys: list[set[str]], taken: list[set[int]], kept: set[str]) -> frozenset[str]:
    """The locals of the rules (by the constant naming each) that live in a Python local
    (`env_k7`), not in the frame's `env`: those whose every use is in one function, or in one
    block's code (a block's code may be copied into several functions). Such a local never
    outlives the function's run, since a local is only read after it is bound in the rules, and
    the function runs from its start each time (a loop back to its start is a Python loop within
    the run); a block's code runs from its start to its end within one function. `keys`: the
    locals each block's code uses; `taken`: for each function written, the blocks whose code it
    holds; `kept`: the constants naming the locals something else writes into `env` (a decision's
    answer, a procedure's parameters, chance's progress and outcome)."""
    in_blocks: dict[str, set[int]] = {}
    for k, used in enumerate(keys):
        for key in used:
            in_blocks.setdefault(key, set()).add(k)
    in_fns: dict[str, set[int]] = {}
    for i, held in enumerate(taken):
        for key in set().union(*(keys[k] for k in held)):
            in_fns.setdefault(key, set()).add(i)
    return frozenset(key for key, used in in_fns.items()
                     if key not in kept and (len(used) == 1 or len(in_blocks.get(key, ())) == 1))
