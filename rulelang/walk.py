"""The one way to walk the IR: children, rebuilding, and visitor dispatch.

Every IR node is a frozen dataclass whose fields are other nodes, tuples of
nodes (or of pairs holding nodes, like an `If`'s branches) and plain values;
its `span` and `ty` are never children. Every pass (the checker, the
optimiser, the code generator, the samplers, the English generator) walks
through these three functions, so a new node class needs no new traversal.

Visitors name their methods after the node class, lower-cased, behind a
prefix for what they produce: `expr_binary`, `stmt_move`, `not_quantified`.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Generic, Iterator, Mapping, TypeVar

from . import ir
from .ir import Node

_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(node) -> tuple[str, ...]:
    """The names of a node class's fields other than its span and type (cached: this is hot)."""
    cls = type(node)
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("span", "ty"))
    return names


def children(node) -> Iterator[Node]:
    """The nodes directly inside a node, in field order."""
    for name in child_fields(node):
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            yield from _nodes(value)


def _nodes(value):
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _nodes(v)


def _into(value, out: list) -> None:
    """The nodes of a field's value, in order, appended to `out` (children without a generator: walk is hot)."""
    if isinstance(value, Node):
        out.append(value)
    elif isinstance(value, tuple):
        for v in value:
            if isinstance(v, Node):
                out.append(v)
            elif isinstance(v, tuple):
                _into(v, out)


def walk(node) -> Iterator[Node]:
    """Every node of a tree (or of a tuple of trees), parents before children."""
    stack: list = []
    _into(node, stack)
    stack.reverse()
    while stack:
        n = stack.pop()
        yield n
        inside: list = []
        for name in child_fields(n):
            _into(getattr(n, name), inside)
        inside.reverse()
        stack.extend(inside)


def rule_blocks(rs: ir.Ruleset) -> Iterator[ir.Block]:
    """Every list of statements in the rules (setup, procedures, abilities, each mode's setup, steps
    and watches), and those inside their statements, a procedure's once."""
    return _blocks((rs.setup, tuple(p.body for p in rs.procedures.values()),
                    tuple(a.body for a in rs.abilities.values()),
                    tuple((m.setup, tuple(s.body for s in m.round), tuple(w.body for w in m.watches))
                          for m in rs.modes.values())))


def _blocks(value) -> Iterator[ir.Block]:
    if isinstance(value, tuple) and value and all(isinstance(v, ir.Stmt) for v in value):
        yield value
        for s in value:
            yield from _blocks(s)
    elif isinstance(value, tuple):
        for v in value:
            yield from _blocks(v)
    elif isinstance(value, (ir.Stmt, ir.MenuOption)):
        for name in child_fields(value):
            if name != "prose":
                yield from _blocks(getattr(value, name))


def map_children(node, f: Callable[[Node], Node]):
    """The node with f applied to each child node (unchanged nodes are kept, not copied)."""
    changes = changed_children(node, f, None)
    return replaced(node, changes) if changes else node


def changed_children(node, f: Callable[[Node], Node], changes: dict | None) -> dict | None:
    """`changes` (a new dict if None) with the fields whose nodes f changes, f applied to each
    child in order: for a pass that changes a node's own fields too, in one copy (`replaced`)."""
    for name in child_fields(node):
        value = getattr(node, name)
        if isinstance(value, Node):
            new = f(value)
        elif isinstance(value, tuple) and value:
            new = _map_tuple(value, f)
        else:
            continue
        if new is not value:
            if changes is None:
                changes = {}
            changes[name] = new
    return changes


_PLAIN: dict[type, bool] = {}


def replaced(node, changes: dict):
    """`dataclasses.replace(node, **changes)` for IR nodes, at a fifth of its cost (the compiler's passes
    copy tens of thousands of nodes): the IR's frozen dataclasses have no `__post_init__` and no slots,
    so a copy of the fields with the changes is the node `replace` would build (for another class: `replace`)."""
    cls = type(node)
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _PLAIN[cls] = not hasattr(cls, "__post_init__") and hasattr(node, "__dict__")
    if not plain:
        return dataclasses.replace(node, **changes)
    new = object.__new__(cls)
    new.__dict__.update(node.__dict__)
    new.__dict__.update(changes)
    new.__dict__.pop("digest", None)  # a ruleset changed is not what was read (ir.Ruleset.digest)
    return new


def _map_value(value, f):
    if isinstance(value, Node):
        return f(value)
    if isinstance(value, tuple):
        return _map_tuple(value, f)
    return value


def _map_tuple(value: tuple, f):
    """The tuple with f applied to the nodes in it (and in tuples in it); the same tuple if none changed."""
    items = []
    changed = False
    for v in value:
        if isinstance(v, Node):
            new = f(v)
        elif isinstance(v, tuple):
            new = _map_tuple(v, f)
        else:
            new = v
        if new is not v:
            changed = True
        items.append(new)
    return tuple(items) if changed else value


_METHODS: dict[tuple[type, str, type], str] = {}


def method(visitor, prefix: str, node, default=None):
    """The visitor's method for a node: `{prefix}_{class name in lower case}`, or `default`."""
    key = (type(visitor), prefix, type(node))
    name = _METHODS.get(key)
    if name is None:
        name = _METHODS[key] = f"{prefix}_{type(node).__name__.lower()}"
    return getattr(visitor, name, default)


# ------------------------------------------------------------------ passes that must handle every node
F = TypeVar("F", bound=Callable)


class Unhandled(TypeError):
    """A pass met a node class it has no rule for: a fault in the pass, never skipped."""


class Dispatch(Generic[F]):
    """A pass's rules, one a node class (`@STATEMENTS.on(ir.Move)`), and the
    classes under `base` it declares it does not handle, each with why (a
    parser-only name that a checked ruleset never holds, say). Looking up any
    other class raises `Unhandled`; `tests/helpers/passes.py` proves, for every
    pass, that each IR class is handled or declined."""

    def __init__(self, name: str, base: type, declines: Mapping[type, str] | None = None):
        self.name, self.base = name, base
        self.handlers: dict[type, F] = {}
        self.declines: dict[type, str] = dict(declines or {})

    def on(self, *classes: type) -> Callable[[F], F]:
        def register(f: F) -> F:
            for cls in classes:
                if cls in self.handlers:
                    raise ValueError(f"{self.name}: two rules for {cls.__name__}")
                self.handlers[cls] = f
            return f
        return register

    def __call__(self, node: object) -> F:
        found = self.handlers.get(type(node))
        if found is None:
            raise Unhandled(f"{self.name} has no rule for {type(node).__name__}")
        return found


def handled_by_methods(visitor: type, prefix: str, classes) -> set[type]:
    """The classes a method-named visitor handles: those with a `{prefix}_{name}` method."""
    return {c for c in classes if hasattr(visitor, f"{prefix}_{c.__name__.lower()}")}


def dispatch(visitor, prefix: str, node, *args):
    """Call a method-named visitor's method for the node (`stmt_move`): `Unhandled` if it has none,
    naming the reason when its `DECLINES` (class -> why) says it never meets such a node."""
    found = method(visitor, prefix, node)
    if found is None:
        why = getattr(visitor, "DECLINES", {}).get(type(node))
        raise Unhandled(f"{type(visitor).__name__} has no rule for {type(node).__name__}"
                        + (f": {why}" if why else ""))
    return found(node, *args)


def every_rule(rs: ir.Ruleset) -> tuple:
    """Every rule of the ruleset: defines, procedures, abilities and every mode's parts."""
    return (*(d.body for d in rs.defines.values()), *(p.body for p in rs.procedures.values()),
            *((a.where, a.body) for a in rs.abilities.values()), *rule_roots(rs),
            *(w.when for m in rs.modes.values() for w in m.watches),
            *(x for m in rs.modes.values() for x in (*m.score.values(), *m.heuristics.values())),
            *((x.value, x.when) for m in rs.modes.values() for x in m.measures.values()))


def rule_roots(rs: ir.Ruleset) -> tuple:
    """The rules play starts from: the setups, every mode's steps and watches' statements."""
    return tuple(part for mode in rs.modes.values()
                 for part in (mode.setup, *(s.body for s in mode.round), *(w.body for w in mode.watches))) + (rs.setup,)
