"""What every part of the checker is given: the scope of the rules being
checked (their local names, the mode and the definitions they are in) and the
check itself (the ruleset's tables, the problems found, the definitions
checked so far)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from ..errors import Diagnostic, Diagnostics, Span
from ..limits import DEFAULT, over
from ..types import ANY, Type


@dataclass(frozen=True)
class Within:
    """Where the rules being checked are written."""
    mode_roles: tuple[str, ...] | None = None  # the roles of their mode (None: no one mode, e.g. a procedure)
    calls: tuple[str, ...] = ()  # the defines and procedures being checked, outermost first
    generic: bool = False  # in a definition whose parameters take their types from each call


class Scope:
    """Local names and their (possibly narrowed) types, and where they are."""

    def __init__(self, names: dict[str, Type] | None = None, parent: Scope | None = None,
                 within: Within | None = None):
        self.names = names or {}
        self.parent = parent
        self.within: Within = within or (parent.within if parent is not None else Within())

    def lookup(self, name: str) -> Type | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, names: dict[str, Type] | None = None) -> Scope:
        return Scope(dict(names or {}), self)

    def all_names(self) -> set[str]:
        names: set[str] = set()
        scope: Scope | None = self
        while scope is not None:
            names |= set(scope.names)
            scope = scope.parent
        return names


@dataclass
class Definitions:
    """The defines and procedures checked so far, by the parameter types of each call."""
    define_bodies: dict[str, ir.Expr] = field(default_factory=dict)  # the first call's body, kept in the IR
    define_results: dict[tuple[str, tuple[Type, ...]], Type | None] = field(default_factory=dict)
    proc_bodies: dict[str, ir.Block] = field(default_factory=dict)
    proc_checked: dict[tuple[str, tuple[Type, ...]], None] = field(default_factory=dict)  # in order
    # (definition, parameter) -> is it a zone, and where it was first seen
    zone_params: dict[tuple[str, str], tuple[bool, Span | None]] = field(default_factory=dict)


class Checker:
    """One check of a ruleset: its tables, the problems found, how deep the
    rules nest, and the definitions checked so far."""

    def __init__(self, rs: ir.Ruleset, max_depth: int = DEFAULT.nesting):
        self.rs = rs
        self.diag = Diagnostics()
        # how deep the rules nest, a define's or procedure's body counted where it
        # is called: the optimiser writes them out there, and every later pass recurses
        self.depth, self.max_depth, self.too_deep = 0, max_depth, False
        self.all_kinds = frozenset(rs.card_types)
        self.enum_of: dict[str, list[str]] = {}
        for enum in rs.enums.values():
            for value in enum.values:
                self.enum_of.setdefault(value, []).append(enum.name)
        # printed fields and state values are read alike (`c.value`, `g.damage`)
        self.field_types = {ct.name: {f.name: f.type for f in ct.fields} | {f.name: f.type for f in ct.state}
                            for ct in rs.card_types.values()}
        self.state_types = {ct.name: {f.name: f.type for f in ct.state} for ct in rs.card_types.values()}
        self.defined = Definitions()
        self.abilities: dict[str, ir.Ability] = {}  # once checked
        self.notes: dict[Diagnostic, None] = {}  # warnings, in order, once each (a body is checked per call)

    def error(self, span: Span | None, message: str, hint: str | None = None) -> None:
        self.diag.error(span, message, hint)

    def note(self, span: Span | None, message: str, hint: str | None = None) -> None:
        """A warning: the rules mean something, but maybe not what was meant."""
        self.notes.setdefault(Diagnostic(span, message, hint, severity="warning"))

    def global_kind(self, name: str) -> str | None:
        rs = self.rs
        for what, table in (("zone", rs.zones), ("variable", rs.vars), ("parameter", rs.params),
                            ("card type", rs.card_types), ("define", rs.defines),
                            ("procedure", rs.procedures), ("die", rs.dice)):
            if name in table:
                return what
        if name in {r.name for r in rs.roles}:
            return "role"
        return None

    def deeper(self, span: Span | None, scope: Scope) -> bool:
        """One level deeper; False (reported once) past the limit. The caller
        steps back up (`depth -= 1`) when it is done with the node."""
        if self.depth >= self.max_depth:
            if not self.too_deep:
                self.too_deep = True
                calls = scope.within.calls
                self.error(span, f"the rules nest more than {self.max_depth} levels deep here, counting the "
                                 f"defines and procedures they call as written out ({_chain(calls)})"
                           if calls else f"the rules nest more than {self.max_depth} levels deep here",
                           over("a long chain of defines calling one another is the usual cause",
                                self.max_depth, "nesting"))
            return False
        self.depth += 1
        return True


def type_of(e: ir.Expr) -> Type:
    """A checked expression's type (the checker gives every expression one; one without is unknown)."""
    return e.ty if e.ty is not None else ANY


def text_of(e: ir.Expr) -> str:
    """A short name for an expression in a message."""
    if isinstance(e, (ir.Name, ir.Local, ir.Var)):
        return e.name
    if isinstance(e, ir.Const):
        return str(e.value)
    return "x"


def _chain(names: tuple[str, ...]) -> str:
    """A call chain, its middle left out when it is long."""
    shown = names if len(names) <= 6 else (*names[:3], "…", *names[-2:])
    return " -> ".join(shown)
