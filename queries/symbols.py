"""Every name a ruleset writes, and what it names: the index behind hover,
go to definition, find references, highlighting and rename-safety.

Two sources, merged: the checked IR (every name in the rules, resolved by
the checker: a `ZoneRef` is a zone, a `Field` a field of the card types its
card may be) and each file's own YAML (`yamlnames`: where a name is
declared, in the base and again in a variant that overrides it, and the
YAML values that name things). A name inside rules text is placed from
its node's span and the file's text: a call's name starts its span, a
field's name ends it.

Locals (a `let`, the names a binder binds, a define's parameters) are
symbols too, told apart by where they are bound; `walk` scopes them as the
checker does: a block's `let` reaches the statements after it, a binder's
names its `where`, its body or its value.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir
from rulelang.types import CardT, ZoneT
from rulelang.walk import child_fields, method

from .places import Place, Text
from .yamlnames import Written


@dataclass(frozen=True, order=True)
class Symbol:
    kind: str  # zone, card type, field, variable, parameter, define, procedure, role, die, event, ability,
    #            type, value, mode, step, ruling, local, built-in, mark
    name: str
    owner: str = ""  # a field's card type, a value's type, a mark's board; where a local is bound


@dataclass(frozen=True)
class Occurrence:
    """A name written at a place: what it may name (a field read on a card of two
    types names the field of each), and whether it is declared there."""
    place: Place
    symbols: tuple[Symbol, ...]
    declares: bool = False
    node: ir.Node | None = None  # the checked node it is part of
    mode: str | None = None  # the mode whose rules it is in (None: rules every mode shares)


@dataclass(frozen=True)
class Rule:
    """A statement or expression of the rules at its place (for what it means in English)."""
    place: Place
    node: ir.Node
    mode: str | None


class Texts:
    """The text of every file the spans point into, read once."""

    def __init__(self) -> None:
        self.texts: dict[str, Text] = {}

    def of(self, span) -> Text:
        text = self.texts.get(span.source.name)
        if text is None:
            text = self.texts[span.source.name] = Text(span.source.text)
        return text


class Walker:
    """Walks the checked rules, recording every name (`found`) and every node (`nodes`)."""

    def __init__(self, rs: ir.Ruleset, texts: Texts):
        self.rs, self.texts = rs, texts
        self.found: list[Occurrence] = []
        self.nodes: list[Rule] = []
        self.mode: str | None = None

    # ------------------------------------------------------------ the ruleset's rules
    def ruleset(self) -> None:
        rs = self.rs
        for d in rs.defines.values():
            self.rules(d.body, self.parameters(d))
        for p in rs.procedures.values():
            self.rules(p.body, self.parameters(p))
        for a in rs.abilities.values():
            event = rs.events.get(a.on)
            scope = {"this": self.implicit("this", f"ability {a.name}", a.span)}  # the card: declared by the ability
            if event is not None:
                scope.update(self.parameters(event))
            for part in (a.where, a.optional, a.body):
                self.rules(part, scope)
        self.rules(rs.setup, {})
        for mode in rs.modes.values():
            self.mode = mode.name
            parts = [mode.setup, *(s.body for s in mode.round), *mode.score.values(), *mode.heuristics.values(),
                     *(e for k in mode.ranking for e in k.values.values()),
                     *(x for m in mode.measures.values() for x in (m.value, m.when)),
                     *(x for w in mode.watches for x in (w.when, w.body))]
            for part in parts:
                self.rules(part, {})
            self.mode = None

    def implicit(self, name: str, owner: str, span) -> Symbol:
        """A local no rule binds, declared by what gives it (`this`, by its ability)."""
        symbol = Symbol("local", name, owner)
        if span is not None:
            self.found.append(Occurrence(Place.of(span), (symbol,), True))
        return symbol

    def parameters(self, definition) -> dict[str, Symbol]:
        """A define's, procedure's or event's parameters, bound where its key names them."""
        scope = {}
        for name, _ in definition.params:
            place = None
            if definition.span is not None:
                key = Place.of(definition.span)
                inside = self.texts.of(definition.span).find(name, Place(key.file, key.line, key.col, key.end_line,
                                                                         key.end_col), last=True)
                place = inside or key
            symbol = Symbol("local", name, str(place) if place else f"{type(definition).__name__} {definition.name}")
            scope[name] = symbol
            if place is not None:
                self.found.append(Occurrence(place, (symbol,), True, None, None))
        return scope

    def rules(self, part, scope: dict[str, Symbol]) -> None:
        if part is None:
            return
        if isinstance(part, tuple):
            self.block(part, scope)
        else:
            self.node(part, scope)

    # ------------------------------------------------------------ scoping
    def block(self, stmts, scope: dict[str, Symbol]) -> None:
        inner = dict(scope)  # a let reaches the statements after it in its block, and no further
        for s in stmts:
            self.node(s, inner)

    def node(self, n: ir.Node, scope: dict[str, Symbol]) -> None:
        if n.span is not None and isinstance(n, (ir.Stmt, ir.Expr)):
            self.nodes.append(Rule(Place.of(n.span), n, self.mode))
        visit = method(self, "at", n)
        done = visit(n, scope) if visit is not None else None
        self.fields(n, scope, skip=done or ())

    def fields(self, n: ir.Node, scope, skip) -> None:
        """The node's parts, each in the scope: a tuple of statements is a block of its own."""
        for name in child_fields(n):
            if name not in skip:
                self.value(getattr(n, name), scope)

    def value(self, v, scope) -> None:
        if isinstance(v, ir.Node):
            self.node(v, scope)
        elif isinstance(v, tuple) and v and all(isinstance(x, ir.Stmt) for x in v):
            self.block(v, scope)
        elif isinstance(v, tuple):
            for x in v:
                self.value(x, scope)

    def bound(self, b: ir.Binder, scope) -> dict[str, Symbol]:
        """The scope inside a binder, its domains and `where` visited."""
        inner = dict(scope)
        for g in b.groups:
            self.node(g.domain, inner)
            for name in g.names:
                inner[name] = self.binding(name, g.span)
        for part in (b.where, *(k.value for k in b.order)):
            if part is not None:
                self.node(part, inner)
        return inner

    def binding(self, name: str, span) -> Symbol:
        where = Place.of(span) if span is not None else None
        place = self.texts.of(span).find(name, where) if where is not None else None
        symbol = Symbol("local", name, str(place or where))
        if place is not None:
            self.found.append(Occurrence(place, (symbol,), True, None, self.mode))
        return symbol

    # a node that binds names visits the parts it scopes itself, and returns their fields
    def at_for(self, s, scope):
        self.block(s.body, self.bound(s.binder, scope))
        return ("binder", "body")

    at_take = at_for

    def at_choose(self, s, scope):
        self.node(s.role, scope)
        return ("role", *self.at_for(s, scope))

    def at_quantified(self, e, scope):
        inner = self.bound(e.binder, scope)
        if e.value is not None:
            self.node(e.value, inner)
        return ("binder", "value")

    def at_move(self, s, scope):
        if s.every is not None:
            self.bound(s.every, scope)
        return ("every",)

    def at_let(self, s, scope):
        self.node(s.value, scope)
        scope[s.name] = self.binding(s.name, s.span)
        return ("value",)

    def at_roll(self, s, scope):
        self.name(s.die, s.span, Symbol("die", s.die), s, how="find")
        if s.declares and isinstance(s.target, ir.Local) and s.target.span is not None:
            place = Place.of(s.target.span)
            scope[s.target.name] = symbol = Symbol("local", s.target.name, str(place))
            self.found.append(Occurrence(place, (symbol,), True, s.target, self.mode))
            return ("target",)
        return None

    # ------------------------------------------------------------ names
    def name(self, name: str, span, symbols, node, how: str = "start") -> None:
        """Record a name written in a node's span: at its start, at its end, or found inside."""
        if span is None:
            return
        whole = Place.of(span)
        text = self.texts.of(span)
        place = None
        if how == "start":
            place = Place(whole.file, whole.line, whole.col, whole.line, whole.col + len(name))
        elif how == "end":
            place = Place(whole.file, whole.end_line, whole.end_col - len(name), whole.end_line, whole.end_col)
        if place is None or text.at(place) != name:
            place = text.find(name, whole, last=how == "end") or whole
        symbols = symbols if isinstance(symbols, tuple) else (symbols,)
        self.found.append(Occurrence(place, symbols, False, node, self.mode))

    def at_local(self, e, scope):
        symbol = scope.get(e.name)
        if symbol is not None:
            self.name(e.name, e.span, symbol, e)

    def at_zoneref(self, e, scope):
        self.name(e.zone, e.span, Symbol("zone" if e.zone != "box" else "built-in", e.zone), e)

    def at_var(self, e, scope):
        self.name(e.name, e.span, Symbol("variable", e.name), e)

    def at_param(self, e, scope):
        self.name(e.name, e.span, Symbol("parameter", e.name), e)

    def at_roleref(self, e, scope):
        self.name(e.role, e.span, Symbol("role", e.role), e)

    def at_enumvalue(self, e, scope):
        self.name(e.value, e.span, Symbol("value", e.value, e.enum), e)

    def at_definecall(self, e, scope):
        self.name(e.name, e.span, Symbol("define", e.name), e)

    def at_builtincall(self, e, scope):
        self.name(e.name, e.span, Symbol("built-in", e.name), e)

    def at_callproc(self, s, scope):
        self.name(s.name, s.span, Symbol("procedure", s.name), s)

    def at_trigger(self, s, scope):
        self.name(s.event, s.span, Symbol("event", s.event), s, how="find")

    def at_istype(self, e, scope):
        self.name(e.kind, e.span, Symbol("card type", e.kind), e, how="end")

    def at_field(self, e, scope):
        ty = e.obj.ty
        if isinstance(ty, CardT):
            kinds = ty.kinds or frozenset(self.rs.card_types)
            symbols = tuple(Symbol("field", e.name, k) for k in sorted(kinds) if self._has_field(k, e.name))
        elif isinstance(ty, ZoneT) and ty.board is not None:
            symbols = (Symbol("mark", e.name, ty.board),)
        else:
            symbols = ()
        if symbols:
            self.name(e.name, e.span, symbols, e, how="end")

    def _has_field(self, kind: str, name: str) -> bool:
        ct = self.rs.card_types.get(kind)
        return ct is not None and any(f.name == name for f in (*ct.fields, *ct.state))


def occurrences(rs: ir.Ruleset, texts: Texts) -> tuple[list[Occurrence], list[Rule]]:
    """Every name the checked rules write, and every statement and expression."""
    walker = Walker(rs, texts)
    walker.ruleset()
    return walker.found, walker.nodes


def from_yaml(written: list[Written], known: set[Symbol]) -> list[Occurrence]:
    """The names a file's YAML declares or names, as occurrences of the symbols they may be."""
    out = []
    for w in written:
        symbols = tuple(s for s in (Symbol(kind, w.name, w.owner) for kind in w.kinds) if w.declares or s in known)
        if symbols:
            out.append(Occurrence(w.place, symbols, w.declares))
    return out
