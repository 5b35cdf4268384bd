"""Locals of the rules written to the frame only where something may read them there.

A local of the rules lives in the frame (`env[k3]`) when more than one block
reads it, or when play may stop while it holds a value someone needs: a
decision's own names, what its options' words read, a loop's player. The
blocks wrote it at every pass all the same (`env[k3] = v45 = row[0]`),
though the code after the store reads the Python local (pycode.aliased) and
the frame is read only where play stops or another block goes on. Here the
stores no one can read are dropped (`v45 = row[0]`, or nothing), and one that
only some ways out read is written on those alone (`_sinking`):

    while True:                          # Oh Hell's trick: each player's card
        ...
        v45 = r44[i43][0]                # was env[k3] = v45 = ...: the options' query is given
        ...                              #   v45 (q56(st, v45)); read in env only where it resumes
        if not ...answered at once...:
            ...
            env[k3] = v45                # so written where play stops alone
            return -1
        v121 = opts46[i63]               # was env[k39] = v121 = ...: read only where a decision
        ...                              #   answered by the engine resumes, which binds it itself
        continue

Who reads a local in the frame, looked at backwards from each store until it
is set again: the blocks' code (`env[k3]`, a query given `env`, a nested
function that reads it), the block each `return N` goes on at (liveness
across blocks, worked out to a fixed point over the program), and wherever
play stops. A decision that stops play (blocks.suspend marks its `return -1`
with `resumes`) is followed by its resume blocks, after the engine binds the
decision's names, and by what the options' words read (a view, a log); any
other stop (a chance event, a procedure's call, the program's end) or a
`return` this pass cannot read counts as reading every local. A mode with
watches is left as it is (a watch that fires stops a block anywhere). A
stale value left in the frame is never read: the same games are played.
"""
from __future__ import annotations

import ast

from .compiled import EXIT
from .pycode import STORE, Branch, CallNested, EnvRef, Goto, Nested, Reset, walk_own

ALL = "*"  # in a set of keys: every local may be read
_EVERY = frozenset({ALL})


def drop_dead_stores(functions: dict[int, list], keep: frozenset[str], exit_block: int) -> dict[int, list]:
    """The bodies of a program's block functions (block index -> statements) with the stores to
    `env` that no one can read dropped; `keep`: keys never dropped (the engine's own, such as a
    chance event's progress); `exit_block`: the extra block that ends the program."""
    functions = {k: _sinking(body, keep) for k, body in functions.items()}
    nested = _nested_reads(functions)
    entry: dict[int, frozenset] = {k: frozenset() for k in functions}
    entry[exit_block] = frozenset()
    read: dict[int, frozenset] = {}  # what each statement's own code reads (the statements live as long as it)
    while True:  # the locals each block may read before it sets them, to a fixed point
        changed = False
        for k, body in functions.items():
            found = _Liveness(entry, nested, None, read).block(body, _EVERY)
            if found != entry[k]:
                entry[k], changed = found, True
        if not changed:
            break
    out = {}
    for k, body in functions.items():
        after: dict[int, frozenset] = {}
        _Liveness(entry, nested, after, read).block(body, _EVERY)
        out[k] = _dropped(body, after, keep)
    return out


class _Liveness:
    """The keys of `env` live before statements, given those live after them (backwards);
    `after` (if given) gets, for each store to `env`, the keys live after it; `read` keeps what each
    statement's own code reads (`own`), for every pass of the fixed points to come."""

    def __init__(self, entry: dict, nested: dict, after: dict | None, read: dict[int, frozenset]):
        self.entry, self.nested, self.after, self.read = entry, nested, after, read

    def block(self, stmts: list, out: frozenset, loop: tuple | None = None) -> frozenset:
        live = out
        for s in reversed(stmts):
            live = self.stmt(s, live, loop)
        return live

    def stmt(self, s, out: frozenset, loop) -> frozenset:
        kind = type(s)
        if kind is ast.Assign:
            if self.after is not None and type(s.targets[0]) in (EnvRef, ast.Tuple):
                # (a statement may stand at more than one place: Merge shares code; and the passes of a
                # loop only add to what is live: what is live after it anywhere, at any pass)
                self.after[id(s)] = self.after.get(id(s), frozenset()) | out
            killed = set()
            for t in s.targets:
                if type(t) is EnvRef:
                    killed.add(t.key)
                elif type(t) is ast.Tuple and all(type(e) in (EnvRef, ast.Name) for e in t.elts):
                    killed.update(e.key for e in t.elts if type(e) is EnvRef)
            live = out - killed if ALL not in out else out
            return live | self.own(s)
        if kind is Goto:
            return self.at(s.block)
        if kind is Branch:
            return self.at(s.then) | self.at(s.otherwise) | self.own(s)
        if kind is ast.Return:
            return self.leaving(s)
        if kind is ast.If:
            return self.own(s) | self.block(s.body, out, loop) | self.block(s.orelse, out, loop)
        if kind in (ast.While, ast.For):
            head = self.own(s)
            rest = self.block(s.orelse, out, loop)
            if kind is ast.While and type(s.test) is ast.Constant and s.test.value:
                rest = frozenset()  # (`while True:` leaves by a break or a return only)
            live = rest | head
            while True:  # the pass's start, to a fixed point (a continue goes back there)
                found = head | rest | self.block(s.body, live, (live, out))
                if found == live:
                    return live
                live = found
        if kind is ast.Continue:
            return loop[0] if loop is not None else _EVERY
        if kind is ast.Break:
            return loop[1] if loop is not None else _EVERY
        if kind in (Nested, ast.FunctionDef, ast.Pass, Reset):
            return out
        if kind in (ast.Expr, ast.AugAssign, ast.Delete):  # (a deletion needs the key there: a read)
            own = frozenset({s.target.key}) if kind is ast.AugAssign and type(s.target) is EnvRef else frozenset()
            return out | self.own(s) | own
        return _EVERY  # a statement this pass does not know: it may read anything

    def leaving(self, s: ast.Return) -> frozenset:
        """What may be read once the function returns: the block it goes on at, or where play stops."""
        v = s.value
        stop = getattr(s, "resumes", None)
        if stop is not None:  # a decision that stops play (blocks.suspend): resumed after its names are bound
            resumes, names, reads = stop
            live = frozenset().union(*(self.at(k) for k in resumes))
            return (live - names if ALL not in live else live) | reads
        if type(v) is ast.Constant and type(v.value) is int:
            # a block to go on at; or the program's end, where its frame goes (none reads it after)
            return self.at(v.value) if v.value >= 0 else frozenset() if v.value == EXIT else _EVERY
        return _EVERY

    def own(self, s) -> frozenset:
        """What a statement's own code reads (not its blocks': an `if`'s test, a loop's test or list),
        walked once however often the fixed points come back to it."""
        found = self.read.get(id(s))
        if found is None:
            found = self.read[id(s)] = self.reads(_own_code(s))
        return found

    def at(self, block: int) -> frozenset:
        return self.entry.get(block, _EVERY)

    def reads(self, nodes: list) -> frozenset:
        found = set()
        for n in walk_own(nodes):
            kind = type(n)
            if kind is EnvRef:
                if n.ctx is not STORE:
                    found.add(n.key)
            elif kind is CallNested:
                found |= self.nested.get(n.name, _EVERY)
            elif kind is ast.Name and n.id == "env":
                return _EVERY
        return frozenset(found)


def _own_code(s) -> list:
    """The code of a statement the liveness reads for it: an assignment's value and the targets it
    reads (a subscript's), an `if`'s or loop's head, any other statement whole."""
    kind = type(s)
    if kind is ast.Assign:
        return [s.value] + [t for t in s.targets if type(t) not in (EnvRef, ast.Name)] \
            + [e for t in s.targets if type(t) is ast.Tuple for e in t.elts if type(e) not in (EnvRef, ast.Name)]
    if kind in (ast.If, ast.While, Branch):
        return [s.test]
    return [s.iter] if kind is ast.For else [s]


def _nested_reads(functions: dict[int, list]) -> dict[str, frozenset]:
    """The keys each nested function (a query, a lazy value) may read from `env` when called."""
    bodies = {n.name: n.body for body in functions.values() for n in walk_own(body) if type(n) is Nested}
    found: dict[str, frozenset] = {}

    def of(name: str, seen: frozenset) -> frozenset:
        if name in found:
            return found[name]
        if name not in bodies or name in seen:
            return _EVERY
        keys = set()
        for n in _walk_all(bodies[name]):
            kind = type(n)
            if kind is EnvRef:
                keys.add(n.key)
            elif kind is CallNested:
                keys |= of(n.name, seen | {name})
            elif kind is ast.Name and n.id == "env":
                keys.add(ALL)
        found[name] = frozenset(keys)
        return found[name]

    for name in bodies:
        of(name, frozenset())
    return found


def _walk_all(stmts):
    """Every node, nested functions' code included."""
    return walk_own(stmts, scopes=())


def _sinking(stmts: list, keep: frozenset) -> list:
    """The statements with a store to `env` that has a Python local beside it (`env[k3] = v45 =
    ...`, pycode.aliased) written again from that local before each way out of the function after
    it, up to where it is set again (`env[k3] = v45` before `return -1`). Liveness then sees the
    first store dead if only those ways out read it (play stops for a decision, rarely: the frame
    written there alone), and the copies dead where nothing reads it after them; `_dropped` keeps
    the copies only where the store they stand for is dropped."""
    out = []
    for s in stmts:
        kind = type(s)
        if kind in (ast.If, ast.For, ast.While):
            made = s.__class__.__new__(kind)
            made.__dict__.update(s.__dict__)
            made.body, made.orelse = _sinking(s.body, keep), _sinking(s.orelse, keep)
            s = made
        out.append(s)
    for i in range(len(out) - 1, -1, -1):
        s = out[i]
        if type(s) is not ast.Assign or len(s.targets) != 2 or type(s.targets[0]) is not EnvRef \
                or type(s.targets[1]) is not ast.Name or s.targets[0].key in keep:
            continue
        key, var = s.targets[0].key, s.targets[1].id
        end = next((j for j in range(i + 1, len(out)) if _sets(out[j], key, var)), len(out))
        out[i + 1:end] = _written_before_leaving(out[i + 1:end], key, var, id(s))
    return out


def _sets(s, key: str, var: str) -> bool:
    return any(type(n) is EnvRef and n.ctx is STORE and n.key == key or
               type(n) is ast.Name and n.id == var and type(n.ctx) is ast.Store for n in walk_own([s]))


_LEAVING = (ast.Return, Goto, Branch)


def _written_before_leaving(stmts: list, key: str, var: str, origin: int) -> list:
    out = []
    for s in stmts:
        kind = type(s)
        if kind in _LEAVING:
            copy = ast.Assign([EnvRef(key, STORE)], ast.Name(var, ast.Load()))
            copy.sunk = (origin, frozenset((key, ALL)))  # type: ignore[attr-defined]  # (an ast node takes any)
            out.append(copy)
        elif kind in (ast.If, ast.For, ast.While):
            made = s.__class__.__new__(kind)
            made.__dict__.update(s.__dict__)
            made.body = _written_before_leaving(s.body, key, var, origin)
            made.orelse = _written_before_leaving(s.orelse, key, var, origin)
            s = made
        out.append(s)
    return out


def _dropped(stmts: list, after: dict, keep: frozenset) -> list:
    """The statements with each store to `env` that nothing reads before it is set again
    dropped (its Python local kept, if it has one); a copy `_sinking` wrote is dropped where the
    store it stands for is kept."""
    out = []
    for s in stmts:
        kind = type(s)
        sunk = getattr(s, "sunk", None)
        if sunk is not None and not sunk[1].isdisjoint(after.get(sunk[0], _EVERY)):
            continue  # (the store it stands for is kept)
        if kind is ast.Assign and id(s) in after:
            s = _store(s, after[id(s)], keep)
            if s is None:
                continue
        elif kind in (ast.If, ast.For, ast.While):
            made = s.__class__.__new__(kind)
            made.__dict__.update(s.__dict__)
            made.body, made.orelse = _dropped(s.body, after, keep), _dropped(s.orelse, after, keep)
            s = made
        out.append(s)
    return out


def _store(s: ast.Assign, live: frozenset, keep: frozenset):
    """The assignment without its dead stores to `env`; None if nothing of it is left to do."""
    if ALL in live:
        return s

    def dead(t) -> bool:
        return type(t) is EnvRef and t.key not in live and t.key not in keep

    targets = [t for t in s.targets if not dead(t)]
    if len(targets) == len(s.targets) and type(s.targets[0]) is ast.Tuple:
        elts = s.targets[0].elts
        if not any(map(dead, elts)):
            return s
        if all(map(dead, elts)) and len(s.targets) > 1:  # (the Python locals beside it are set alone)
            targets = s.targets[1:]
        else:
            targets = [ast.Tuple([ast.Name("_", STORE) if dead(e) else e for e in elts], STORE)] + s.targets[1:]
    if not targets:
        return None if _pure(s.value) else s
    if len(targets) == len(s.targets) and targets[0] is s.targets[0]:
        return s
    made = ast.Assign(targets, s.value)
    made.__dict__.update({k: v for k, v in s.__dict__.items() if k not in ("targets", "value")})
    return made


def _pure(e) -> bool:
    """A value whose computing does nothing and cannot fail."""
    return type(e) in (ast.Name, ast.Constant)
