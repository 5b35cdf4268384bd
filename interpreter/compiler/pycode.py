"""Generated Python as data: `ast` nodes, built from small templates, and the few
records of our own that the passes over generated code transform.

    code.expr("T[END] if (T := SEQ) else None", T=t, END=-1, SEQ=listed)
    code.stmts("if not SRC:\\n    _fail(ERR)\\nC = SRC.pop()", SRC=src, ERR=err, C=c)

A template is Python; its names in capitals (but UNSET) are holes, filled with an `ast`
node, a name (a `str`: a `Name` in the hole's load or store position), a
number, or, for a statement `BODY` alone on its line, a list of statements.
A template is parsed once; filling it copies only the path down to its holes,
so the rest of its tree is shared. Nodes are therefore never changed in place
once made: every pass over generated code (merge.py, lift.py, render.py)
builds new nodes where it changes something. A statement's `note` (the rule it
comes from, set by `note`) is the one attribute set after a node is made, and
only on the statements a template just made.

The records of our own (`Goto`, `Branch`, `EnvRef`, `Lazy`, `Reset`,
`Nested`, `CallNested`) say what generated code means where a pass needs to
know it — a jump to a block, a local of the rules in the frame, a lazy value,
a nested function and its calls — instead of a pass finding it again in the
text. render.py turns them into plain Python when the code is written out.
(A decision's `return -1` is a plain `Return` made with one more attribute,
`resumes`: what may read the frame once play stops there, for live.py.)
"""
from __future__ import annotations

import ast
from functools import lru_cache
from typing import TypeVar

LOAD, STORE, DEL = ast.Load(), ast.Store(), ast.Del()


# ------------------------------------------------------------------ records of our own

class Goto(ast.stmt):
    """Go on at block `block` of the program (`return block`)."""
    _fields = ("block",)

    def __init__(self, block: int) -> None:
        super().__init__()
        self.block = block


class Branch(ast.stmt):
    """Go on at block `then` if `test` holds, else at `otherwise` (`return then if test else otherwise`)."""
    _fields = ("test", "then", "otherwise")

    def __init__(self, test: ast.expr, then: int, otherwise: int) -> None:
        super().__init__()
        self.test, self.then, self.otherwise = test, then, otherwise


class EnvRef(ast.expr):
    """A local of the rules kept in the frame (`env[k3]`, `k3` the constant naming it): one that a
    single function uses may be a Python local instead (merge.locals_not_in_env)."""
    _fields = ("key", "ctx")

    def __init__(self, key: str, ctx: ast.expr_context) -> None:
        super().__init__()
        self.key, self.ctx = key, ctx


class Lazy(ast.expr):
    """A lazy value: `var` once computed, else computed now (`(var if var is not UNSET else (var := value))`)."""
    _fields = ("var", "value")

    def __init__(self, var: str, value: ast.expr) -> None:
        super().__init__()
        self.var, self.value = var, value


class Reset(ast.stmt):
    """A lazy value made unknown again (`var = UNSET`); dropped where no `Lazy` of it is left."""
    _fields = ("var",)

    def __init__(self, var: str) -> None:
        super().__init__()
        self.var = var


class Nested(ast.stmt):
    """A function defined inside another (a quantifier's `q7`, a lazy value's `hl3`), called only
    through `CallNested`: one that only reads what is around it may be made once (lift.py)."""
    _fields = ("name", "body", "nonlocals")

    def __init__(self, name: str, body: list[ast.stmt], nonlocals: tuple[str, ...]) -> None:
        super().__init__()
        self.name, self.body, self.nonlocals = name, body, nonlocals


class CallNested(ast.expr):
    """A call of a `Nested` function, with no arguments until it is lifted."""
    _fields = ("name",)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name


# ------------------------------------------------------------------ templates

@lru_cache(maxsize=None)
def _parsed(template: str, mode: str):
    tree = ast.parse(template, mode=mode)
    body = tree.body if isinstance(tree, (ast.Module, ast.Expression)) else []
    return body, _holes(body)


def _holes(node) -> bool:
    """Whether a template's node (or list of nodes) holds a hole (marked on each node as `_hole`)."""
    if isinstance(node, list):
        return any([_holes(n) for n in node])
    if isinstance(node, ast.Name):
        found = node.id.isupper() and node.id[0].isalpha() and node.id != "UNSET"
    else:
        found = any([_holes(getattr(node, f)) for f in node._fields
                     if isinstance(getattr(node, f, None), (ast.AST, list))])
    node._hole = found
    return found


def _fill(node, parts: dict):
    if isinstance(node, list):
        out = []
        for n in node:
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Name) and isinstance(parts.get(n.value.id), list):
                out += parts[n.value.id]  # BODY alone on its line: the statements given
            else:
                out.append(_fill(n, parts))
        return out
    if not isinstance(node, ast.AST) or not getattr(node, "_hole"):
        return node
    if isinstance(node, ast.Name):
        return as_expr(parts[node.id], node.ctx)
    new = node.__class__.__new__(node.__class__)
    for f in node._fields:
        setattr(new, f, _fill(getattr(node, f, None), parts))
    return new


def as_expr(value, ctx=LOAD) -> ast.expr:
    """A hole's filling as an expression in a load (or store) position."""
    if isinstance(value, str):
        return ast.Name(value, ctx)
    if isinstance(value, ast.expr):
        if ctx is LOAD or getattr(value, "ctx", ctx) is ctx:
            return value
        new = value.__class__(**{f: getattr(value, f) for f in value._fields})  # the same target, stored to
        setattr(new, "ctx", ctx)
        return new
    if value is None or isinstance(value, (bool, int)):
        return ast.Constant(value)
    raise TypeError(f"a template's hole cannot hold {value!r}")


def expr(template: str, **parts) -> ast.expr:
    body, _ = _parsed(template, "eval")
    return _fill(body, parts)


def stmts(template: str, **parts) -> list[ast.stmt]:
    """The statements of a template; each is new (a note may be put on it)."""
    body, _ = _parsed(template, "exec")
    return [_fresh(s) for s in _fill(body, parts)]


def stmt(template: str, **parts) -> ast.stmt:
    (s,) = stmts(template, **parts)
    return s


def _fresh(s: ast.stmt) -> ast.stmt:
    if not getattr(s, "_hole", True):  # a statement without holes is the template's own: copied
        s = s.__class__(**{f: getattr(s, f) for f in s._fields})
    return s


# ------------------------------------------------------------------ small helpers

def name(n: str) -> ast.Name:
    return ast.Name(n, LOAD)


def const(value) -> ast.Constant:
    return ast.Constant(value)


def call(function: str | ast.expr, *args) -> ast.Call:
    return ast.Call(as_expr(function), [as_expr(a) for a in args], [])


def truth(e: ast.expr) -> ast.expr:
    """Whether e holds, as True or False: `not not e`, which a test (`if`, `while`, `and`...)
    does not compute at all (CPython jumps on e itself), and elsewhere two quick operations
    where `bool(e)` is a call."""
    return ast.UnaryOp(ast.Not(), ast.UnaryOp(ast.Not(), e))


def tuple_of(items, ctx=LOAD) -> ast.Tuple:
    return ast.Tuple([as_expr(i, ctx) for i in items], ctx)


def list_of(items) -> ast.List:
    return ast.List([as_expr(i) for i in items], LOAD)


def assign(target, value) -> ast.Assign:
    return ast.Assign([as_expr(target, STORE)], as_expr(value))


S = TypeVar("S", bound=ast.stmt)


def note(s: S, text: str | None) -> S:
    """Give a statement the rule it comes from, unless it has one."""
    if text is not None and note_of(s) is None:
        setattr(s, "note", text)  # (the one attribute set on a node after it is made)
    return s


def note_of(s: ast.AST) -> str | None:
    """The rule a statement comes from, if noted."""
    return getattr(s, "note", None)


_NOT_CODE = frozenset({"ctx", "op", "ops", "kind", "type_comment", "returns", "decorator_list", "type_params"})
_PARTS: dict[type, tuple[str, ...]] = {}  # a class of node -> its fields that may hold nodes of code
# fields that never hold a node, by class: a walk need not look at them (names, numbers, constants)
_PLAIN_FIELDS: dict[type, frozenset[str]] = {
    ast.Name: frozenset({"id"}), ast.Attribute: frozenset({"attr"}), ast.Constant: frozenset({"value"}),
    ast.keyword: frozenset({"arg"}), ast.FunctionDef: frozenset({"name"}), EnvRef: frozenset({"key"}),
    Lazy: frozenset({"var"}), Reset: frozenset({"var"}), Goto: frozenset({"block"}),
    Branch: frozenset({"then", "otherwise"}), Nested: frozenset({"name", "nonlocals"}),
    CallNested: frozenset({"name"})}


def parts(node) -> tuple[str, ...]:
    kind = type(node)
    found = _PARTS.get(kind)
    if found is None:
        plain = _PLAIN_FIELDS.get(kind, frozenset())
        found = _PARTS[kind] = tuple(f for f in kind._fields if f not in _NOT_CODE and f not in plain)
    return found


def walk_own(nodes, scopes=(Nested, ast.FunctionDef)):
    """Every node of these statements or expressions, parents first, but not the code of the
    nested functions (or other `scopes`) they hold, which are yielded themselves."""
    stack = list(nodes)
    stack.reverse()
    pop, push, extend, known = stack.pop, stack.append, stack.extend, _PARTS
    while stack:
        n = pop()
        yield n
        kind = type(n)
        if kind in scopes:
            continue
        fields = known.get(kind)
        for f in fields if fields is not None else parts(n):
            value = getattr(n, f, None)
            if type(value) is list:
                extend(reversed(value))
            elif isinstance(value, ast.AST):
                push(value)


def own_of(nodes, kind: type | tuple[type, ...], scopes=(Nested, ast.FunctionDef)) -> list:
    """The nodes of one class (or of these classes) in these statements or expressions, in no
    order, as `walk_own` finds them (not inside nested functions): for a pass that only collects
    them, at less cost."""
    found = []
    stack = list(nodes)
    kinds = kind if type(kind) is tuple else (kind,)
    pop, push, extend, known = stack.pop, stack.append, stack.extend, _PARTS
    while stack:
        n = pop()
        k = type(n)
        if k in kinds:
            found.append(n)
        if k in scopes:
            continue
        fields = known.get(k)
        for f in fields if fields is not None else parts(n):
            value = getattr(n, f, None)
            if type(value) is list:
                extend(value)
            elif isinstance(value, ast.AST):
                push(value)
    return found


BLOCKS = ("body", "orelse", "finalbody", "handlers")  # the fields that hold statements (a handler's: its body)


def own_statements(stmts, scopes=(Nested, ast.FunctionDef)) -> list:
    """The statements of these and of their blocks, in no order, not inside nested functions (or
    other `scopes`): a statement stands only in a block, so the expressions need no walk (a
    `Nested` is a statement too, in its function's prelude)."""
    found = []
    stack = list(stmts)
    while stack:
        s = stack.pop()
        found.append(s)
        if type(s) not in scopes:
            for f in BLOCKS:
                value = getattr(s, f, None)
                if value:
                    stack.extend(value)
    return found


def reads_as(nodes: list, key: str, var: str) -> list:
    """The statements with every read of the rules' local `key` (`env[key]`) made a read of the
    Python local `var` instead, where both hold the same value; not in nested functions, which
    read `env`. Nodes are rebuilt only along the paths that change (see the module's note)."""
    return [_read_from(n, {key: var}) for n in nodes]


def _env_targets(s) -> list[str] | None:
    """The locals of the rules an assignment sets in `env` (`env[k3] = ...`, `env[k3], env[k4] = ...`),
    with at most a Python local (or a tuple of them) beside; None for any other statement."""
    if type(s) is not ast.Assign or len(s.targets) > 2:
        return None
    first = s.targets[0]
    if type(first) is EnvRef:
        return [first.key]
    if type(first) is not ast.Tuple or not all(type(e) is EnvRef for e in first.elts):
        return None
    keys = [e.key for e in first.elts if isinstance(e, EnvRef)]
    return keys if len(set(keys)) == len(keys) else None


def _nested_reading(out: list, start: int, end: int, key: str, nested: tuple) -> set[int]:
    """The places among out[start:end] of the nested functions that read `key` from `env`, set
    it nowhere, stand once in the program and are called only in out[start:end]: there `env`
    holds what the Python local does whenever they run."""
    once, whole, known = nested
    found = set()
    for j in range(start, end):
        s = out[j]
        if type(s) is not Nested:
            continue
        refs = [n for n in own_of(s.body, EnvRef, scopes=()) if n.key == key]
        if not refs or any(n.ctx is STORE for n in refs):
            continue
        if "once" not in known:  # (worked out the first time a nested function may read a local so)
            known["once"] = once()
            calls: dict[str, int] = {}
            known["calls"] = calls
            for n in own_of(whole, CallNested, scopes=()):
                calls[n.name] = calls.get(n.name, 0) + 1
        if s.name not in known["once"]:
            continue
        calls = known["calls"]
        here = sum(1 for n in own_of(out[start:end], CallNested, scopes=()) if n.name == s.name)
        if here == calls.get(s.name, 0):
            found.add(j)
    return found


def _read_in_nested(fn: Nested, swaps: dict) -> Nested:
    """A nested function with its reads of the locals of `swaps` made reads of the Python locals
    around it (in the functions inside it too)."""
    def change(n):
        if type(n) is EnvRef and n.ctx is not STORE and n.key in swaps:
            return ast.Name(swaps[n.key], LOAD)
        return None
    made = fn.__class__.__new__(Nested)
    made.__dict__.update(fn.__dict__)
    made.body = [rebuilt(b, change) for b in fn.body]
    return made


def _read_from(node, swaps: dict, named: dict | None = None):
    """The node with each read of a local `key` of `swaps` (`env[key]`) made a read of `swaps[key]`.
    `named`: id of a statement -> (it, the locals it names in env), for statements known not to
    change (none of `swaps` in it), kept as they are without a look inside."""
    def change(n):
        if type(n) is EnvRef and n.ctx is not STORE and n.key in swaps:
            return ast.Name(swaps[n.key], LOAD)
        if type(n) in (Nested, ast.FunctionDef):
            return n
        if named is not None and (known := named.get(id(n))) is not None and known[0] is n and \
                swaps.keys().isdisjoint(known[1]):
            return n
        return None
    return rebuilt(node, change)


def rebuilt(node, change):
    """The node with `change` applied from the top down: `change(n)` is what stands for n (n itself:
    kept as it is, not looked inside), or None to look inside it. Nodes are rebuilt only along the
    paths that change: a node is never changed in place (others may share it)."""
    got = change(node)
    if got is not None:
        return got
    changed = {}
    for f in parts(node):
        value = getattr(node, f, None)
        if type(value) is list:
            new = [rebuilt(v, change) if isinstance(v, ast.AST) else v for v in value]
            if any(a is not b for a, b in zip(new, value)):
                changed[f] = new
        elif isinstance(value, ast.AST):
            new = rebuilt(value, change)
            if new is not value:
                changed[f] = new
    if not changed:
        return node
    made = node.__class__.__new__(node.__class__)
    made.__dict__.update(node.__dict__)  # (its other fields, and a statement's note)
    made.__dict__.update(changed)
    return made


def stores(nodes: list, key: str) -> bool:
    """Whether the statements set the rules' local `key` (nested functions only read `env`)."""
    return any(type(n) is EnvRef and n.key == key and n.ctx is STORE for n in walk_own(nodes))


def aliased(stmts: list, fresh, once=frozenset) -> list:
    """The statements with a local of the rules that is set in `env` (`env[k3] = ...`) read from a
    Python local by the statements after it in the same list (and inside them), up to one that sets
    it again: they run after it, and a jump back (`continue`) sets it again before them. The
    value is put in both at once (`env[k3] = v7 = ...`, `fresh` names v7); `env` still holds it for
    what reads it there (the frame once play stops). A nested function defined there reads the
    Python local too (from around it: lift.py then passes it) if it is called only there, and
    stands only once in the program (`once()`, asked only then: the nested functions that do; its
    lifted text is the one found)."""
    return _aliased(stmts, fresh, {}, (once, stmts, {}))[0]


_COMPOUND = (ast.While, ast.For, ast.If)


def _aliased(stmts: list, fresh, named: dict, nested: tuple) -> tuple[list, list[set], list[set]]:
    """`aliased`, and for each statement the locals it sets and those it still reads from `env`
    (inside it too: found from the inner lists' own, not by walking each statement again);
    `named` gets the latter, for the lists around to swap reads without looking inside again."""
    out, sets, names = [], [], []
    for s in stmts:
        kind = type(s)
        own = own_of([getattr(s, f) for f in parts(s) if f not in ("body", "orelse")] if kind in _COMPOUND else [s],
                     EnvRef)
        set_here, named_here = {n.key for n in own if n.ctx is STORE}, {n.key for n in own}
        if kind in _COMPOUND:
            made = s.__class__.__new__(kind)
            made.__dict__.update(s.__dict__)
            for f in ("body", "orelse"):
                inner, inner_sets, inner_names = _aliased(getattr(s, f), fresh, named, nested)
                setattr(made, f, inner)
                set_here.update(*inner_sets)
                named_here.update(*inner_names)
            s = made
        out.append(s)
        sets.append(set_here)
        names.append(named_here)
    swaps: list[dict] = [{} for _ in out]  # where a local is read from a Python local: its name there
    for i, s in enumerate(out):
        keys = _env_targets(s)
        if keys is None:
            continue
        reach = {}  # each key read after it: where it is set again, the nested functions reading it before
        for key in keys:
            end = next((j for j in range(i + 1, len(out)) if key in sets[j]), len(out))  # set again there
            inside = _nested_reading(out, i + 1, end, key, nested)
            if inside or any(key in names[j] for j in range(i + 1, end)):
                reach[key] = end, inside
        if not reach:
            continue
        if len(s.targets) == 1:  # (a decision's names, `env[k17], env[k18] = opts[i]`: a Python local each)
            locals_: list[ast.expr] = [ast.Name(fresh("v"), STORE) for _ in keys]
            first = s.targets[0]
            made = ast.Assign([first, locals_[0] if type(first) is EnvRef else ast.Tuple(locals_, STORE)], s.value)
            made.__dict__.update({k: v for k, v in s.__dict__.items() if k not in ("targets", "value")})
            out[i] = s = made
        second = s.targets[1]
        beside = [n for n in ([second] if type(second) is ast.Name else second.elts if type(second) is ast.Tuple else [])
                  if isinstance(n, ast.Name)]
        if len(beside) != len(keys):
            continue
        for key, local in zip(keys, beside):
            if key in reach:
                end, inside = reach[key]
                for j in range(i + 1, end):
                    if key in names[j] or j in inside:
                        swaps[j][key] = local.id
    for j, swap in enumerate(swaps):
        if swap and type(out[j]) is Nested:
            out[j] = _read_in_nested(out[j], swap)
        elif swap:
            out[j] = _read_from(out[j], swap, named)
            names[j] -= swap.keys()  # (every read it names there is now of the Python local)
        named[id(out[j])] = out[j], names[j]
    return out, sets, names
