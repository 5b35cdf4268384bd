"""What rules tell a player about cards it may not see.

A role may not see the cards of a place: another player's hand, a zone no one
sees, face-down cards (`hidden_place`). Showing such a card as where it lies
("the 3rd card from the top of bag") keeps it hidden; but rules can carry
what a card *is* — a field, its type, its state — into what a decision
offers or what a random pick shows:

    alice chooses g in bag where g.value > 3                 which cards are offered
    p chooses v in [c.worth for c in secret]                  the values offered
    big if exists s in hand of bob where s.value > 5          whether a menu option is there
    take random v in [s.worth for s in secret]                the value picked

`Flow` follows what card properties flow into — through binders, `let`,
`for`, the defines and procedures they pass through (their arguments, each
call's), card variables and zone parameters — and finds, for each decision,
the hidden places whose cards decide what it offers (`check` warns of them:
the options alone tell the chooser), and for each random pick, the roles
from whom what it picked comes from hidden cards (the view shows them the
pick as a hidden value). The analysis is coarse where it must be (a value
read from a hidden card stays "from hidden cards" whatever is done to it),
so a finding says "may".
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .types import CardT, ListT, ZoneT
from .walk import children, walk

NOTHING: frozenset = frozenset()


def hidden_place(rs: ir.Ruleset, mode: ir.Mode, domain: ir.Expr, role: ir.Expr | None) -> str | None:
    """The zone's name if `domain` is a zone whose cards `role` may not see (None: a spectator)."""
    if isinstance(domain, ir.Owned) and isinstance(domain.zone, ir.ZoneRef):
        domain = ir.ZoneRef(domain.zone.zone, domain.owner)
    if not isinstance(domain, ir.ZoneRef) or domain.zone not in rs.zones:
        return None
    zone = rs.zones[domain.zone]
    rule = mode.visibility.get(zone.name, zone.seen_by)
    if rule == "open":
        return None
    if rule == "none" or rule == "all" and zone.facing == "down":
        return zone.name
    if rule == "owner":
        owner = domain.owner if domain.owner is not None else ir.RoleRef(zone.owner) if zone.owner else None
        return None if role is not None and owner is not None and owner == role else zone.name
    return None


@dataclass
class Told:
    """A decision (Choose or Menu) whose options depend on cards from `places`, which `who` may not see."""
    node: ir.Stmt
    who: str
    places: frozenset


@dataclass
class WordsTold:
    """A decision whose options' words (`labelled`) may tell `readers` (a role; None for a spectator)
    about cards they may not see; `places`: those of them its chooser may not see."""
    node: ir.Choose
    readers: set
    places: frozenset


@dataclass
class Findings:
    decisions: list[Told] = field(default_factory=list)
    # a random pick's place in the rules (file, line, column) -> the readers (a role; None for a spectator)
    # from whom what it picked comes from cards they may not see
    picks: dict[tuple, set] = field(default_factory=dict)
    # a decision's place in the rules -> what its options' words may tell whom
    words: dict[tuple | None, WordsTold] = field(default_factory=dict)


def told(rs: ir.Ruleset, mode: ir.Mode) -> Findings:
    return Flow(rs, mode).run()


def span_key(span) -> tuple | None:
    return (span.file, span.line, span.col) if span is not None else None


class Flow:
    """Where card properties flow in one mode's rules. Each local holds
    (cards, facts): the places whose cards it may be (a card, a zone, a list
    of cards) and the places whose cards' properties its value may depend on."""

    def __init__(self, rs: ir.Ruleset, mode: ir.Mode):
        self.rs, self.mode = rs, mode
        self.var_cards: dict[str, frozenset] = {}  # a card variable -> the places of the cards it may hold
        self.params: dict[str, list] = {}  # a procedure -> per parameter, (cards, facts) over its calls
        self.findings = Findings()
        self.recording = False
        self._defines: dict = {}
        self.turned: set[str] = set()  # zones seen by all whose cards a rule turns face up

    def run(self) -> Findings:
        rs, mode = self.rs, self.mode
        for recording in (False, True):  # the first pass learns what variables and parameters may hold
            self.recording = recording
            for block in (rs.setup, mode.setup, *(s.body for s in mode.round), *(w.body for w in mode.watches),
                          *(a.body for a in rs.abilities.values())):
                self.block(block, {})
            for name, proc in rs.procedures.items():
                given = self.params.get(name, [])
                env = {p: given[i] if i < len(given) else (NOTHING, NOTHING) for i, (p, _) in enumerate(proc.params)}
                self.block(proc.body, env)
        return self.findings

    # ------------------------------------------------------------ statements
    def block(self, block, env: dict) -> None:
        env = dict(env)
        for s in block:
            self.stmt(s, env)

    def stmt(self, s: ir.Stmt, env: dict) -> None:
        if isinstance(s, ir.Let):
            env[s.name] = self.value(s.value, env)
        elif isinstance(s, ir.Assign):
            if isinstance(s.target, ir.Var) and isinstance(s.value.ty, CardT):
                self.var_cards[s.target.name] = self.var_cards.get(s.target.name, NOTHING) | self.cards(s.value, env)
            elif isinstance(s.target, ir.Local):
                env[s.target.name] = self.value(s.value, env)
        elif isinstance(s, ir.Roll) and isinstance(s.target, ir.Local):
            env[s.target.name] = (NOTHING, NOTHING)
        elif isinstance(s, ir.Flip) and s.face != "down":
            self.turned.update(z.zone for z in self.cards(s.card, env))
        elif isinstance(s, ir.If):
            for _, body in s.branches:
                self.block(body, env)
            if s.otherwise is not None:
                self.block(s.otherwise, env)
        elif isinstance(s, (ir.While, ir.Repeat)):
            self.block(s.body, env)
        elif isinstance(s, ir.For):
            self.block(s.body, self.bind(s.binder, env)[0])
        elif isinstance(s, ir.Choose):
            inner, facts = self.bind(s.binder, env)
            self.decision(s, s.role, facts)
            if s.labelled is not None:
                self.words(s, s.labelled, {**inner, **{n: (NOTHING, NOTHING) for n in binder_names(s.binder)}})
            self.block(s.body, inner)
        elif isinstance(s, ir.Menu):
            facts = frozenset().union(*(self.facts(o.guard, env) for o in s.options if o.guard is not None))
            self.decision(s, s.role, facts)
            for o in s.options:
                self.block(o.body, env)
        elif isinstance(s, ir.Take):
            inner, facts = self.bind(s.binder, env)
            if s.which == "random":
                self.pick(s, facts)
            self.block(s.body, inner)
        elif isinstance(s, ir.CallProc) and s.name in self.rs.procedures:
            given = self.params.setdefault(s.name, [(NOTHING, NOTHING)] * len(s.args))
            for i, arg in enumerate(s.args[:len(given)]):
                cards, facts = self.value(arg, env)
                given[i] = (given[i][0] | cards, given[i][1] | facts)

    def hidden(self, zone: ir.ZoneRef, role: ir.Expr | None) -> str | None:
        """`hidden_place`, but for a face-down zone whose cards a rule turns face up: those are seen at
        times, and whether an option reads one then depends on play, not on the rules; the check of
        every decision of real games (tests/test_secrets.py) looks at those."""
        place = hidden_place(self.rs, self.mode, zone, role)
        if place is not None and place in self.turned and \
                self.mode.visibility.get(place, self.rs.zones[place].seen_by) == "all":
            return None
        return place

    def decision(self, node: ir.Stmt, role: ir.Expr, facts: frozenset) -> None:
        if not self.recording:
            return
        places = frozenset(p for z in facts if (p := self.hidden(z, role)) is not None)
        if places:
            who = role.role if isinstance(role, ir.RoleRef) else "the chooser"
            self.findings.decisions.append(Told(node, who, places))

    def pick(self, node: ir.Take, facts: frozenset) -> None:
        if not self.recording or not facts:
            return
        blind = self.blind(facts)
        if blind:
            self.findings.picks.setdefault(span_key(node.span), set()).update(blind)

    def words(self, node: ir.Choose, words: ir.Expr, env: dict) -> None:
        """What an option's words name (a card, a list of cards) or read off cards, besides the option's
        own values (the view shows words only to a reader who sees the option's cards): a card held
        in a `let` or a variable, `top(deck)`, a count of a hidden hand's cards."""
        if not self.recording:
            return
        parts = words.parts if isinstance(words, ir.Template) else (words,)
        told = self.facts(words, env).union(
            *(self.cards(p, env) for p in parts if isinstance(p, ir.Expr) and _carries_cards(p)))
        blind = self.blind(told)
        if blind:
            mine = frozenset(p for z in told if (p := self.hidden(z, node.role)) is not None)
            found = self.findings.words.setdefault(span_key(node.span), WordsTold(node, set(), NOTHING))
            found.readers |= blind
            found.places |= mine

    def blind(self, places: frozenset) -> set:
        """The readers (a role; None for a spectator) who may not see the cards of one of `places`."""
        readers = {r: ir.RoleRef(r) for r in self.mode.roles} | {None: None}
        return {r for r, ref in readers.items() if any(self.hidden(z, ref) for z in places)}

    # ------------------------------------------------------------ expressions
    def bind(self, binder: ir.Binder, env: dict) -> tuple[dict, frozenset]:
        """The scope inside a binder, and the facts its bindings depend on: what its
        domains' values are made of, its `where` and its ordering."""
        inner, facts = dict(env), NOTHING
        for group in binder.groups:
            cards, made_of = self.elements(group.domain, inner)
            facts |= made_of
            for name in group.names:
                inner[name] = (cards, made_of)
        for e in (binder.where, *(k.value for k in binder.order)):
            if e is not None:
                facts |= self.facts(e, inner)
        if facts:  # a binding is chosen by its facts: each name carries them
            names = binder_names(binder)
            inner = {n: (c, f | facts) if n in names else (c, f) for n, (c, f) in inner.items()}
        return inner, facts

    def elements(self, domain: ir.Expr, env: dict) -> tuple[frozenset, frozenset]:
        """(cards, facts) of an element of a domain: a zone's cards, a list's items."""
        return self.cards(domain, env), self.facts(domain, env)

    def value(self, e: ir.Expr, env: dict) -> tuple[frozenset, frozenset]:
        return self.cards(e, env), self.facts(e, env)

    def cards(self, e: ir.Expr, env: dict) -> frozenset:
        """The places (zones, as ZoneRefs) whose cards `e` may be or hold: a card, a zone, a list of cards."""
        if isinstance(e, ir.ZoneRef):
            return frozenset({ir.ZoneRef(e.zone, e.owner)})
        if isinstance(e, ir.Owned) and isinstance(e.zone, ir.ZoneRef):
            return frozenset({ir.ZoneRef(e.zone.zone, e.owner)})
        if isinstance(e, ir.Local):
            return env.get(e.name, (NOTHING, NOTHING))[0]
        if isinstance(e, ir.Var):
            return self.var_cards.get(e.name, NOTHING)
        if isinstance(e, ir.BuiltinCall) and _carries_cards(e):  # top(Z), spaces(B), neighbours(s), place(B, n)...
            return frozenset().union(*(self.cards(a, env) for a in e.args))
        if isinstance(e, ir.DefineCall):
            return self.define(e, env)[0]
        if isinstance(e, ir.Quantified) and e.kind in ("list", "first", "last", "min", "max"):
            inner, _ = self.bind(e.binder, env)
            value = e.value if e.value is not None else ir.Local(e.binder.groups[0].names[0])
            return self.cards(value, inner)
        if isinstance(e, (ir.IfExpr, ir.Case, ir.ListExpr)) or isinstance(e, ir.Binary) and e.op == "+":
            parts = [e.then, e.otherwise] if isinstance(e, ir.IfExpr) else [a.value for a in e.arms] \
                if isinstance(e, ir.Case) else list(e.items) if isinstance(e, ir.ListExpr) else [e.left, e.right]
            return frozenset().union(*(self.cards(p, env) for p in parts))
        return NOTHING

    def facts(self, e: ir.Expr, env: dict) -> frozenset:
        """The places whose cards' properties (a field, a type, a state) the value of `e` may depend on."""
        if isinstance(e, ir.Local):
            return env.get(e.name, (NOTHING, NOTHING))[1]
        if isinstance(e, ir.Field):
            own = self.cards(e.obj, env) if _carries_cards(e.obj) else NOTHING
            return own | self.facts(e.obj, env)
        if isinstance(e, ir.IsType):
            return self.cards(e.subject, env) | self.facts(e.subject, env)
        if isinstance(e, ir.Quantified):
            inner, facts = self.bind(e.binder, env)
            return facts | (self.facts(e.value, inner) if e.value is not None else NOTHING)
        if isinstance(e, ir.DefineCall):
            return self.define(e, env)[1]
        found = NOTHING
        for child in children(e):
            if isinstance(child, ir.Expr):
                found |= self.facts(child, env)
            elif isinstance(child, ir.CaseArm):
                found |= frozenset().union(*(self.facts(x, env) for x in (*child.patterns, child.value)))
        return found

    def define(self, call: ir.DefineCall, env: dict) -> tuple[frozenset, frozenset]:
        """(cards, facts) of a define's value, its parameters bound to what the call passes."""
        d = self.rs.defines.get(call.name)
        if d is None:
            return NOTHING, NOTHING
        args = tuple(self.value(a, env) for a in call.args)
        key = (call.name, args)
        if key in self._defines:
            return self._defines[key]
        self._defines[key] = (NOTHING, NOTHING)  # a define that calls itself is refused; this only stops a loop
        inner = {p: args[i] if i < len(args) else (NOTHING, NOTHING) for i, (p, _) in enumerate(d.params)}
        result = self._defines[key] = self.value(d.body, inner)
        return result


def binder_names(binder: ir.Binder) -> set[str]:
    return {n for g in binder.groups for n in g.names}


def _carries_cards(e: ir.Expr) -> bool:
    """Whether a value may be a card, a zone (a board's space), or a list of them."""
    ty = e.ty
    while isinstance(ty, ListT):
        ty = ty.item
    return ty is None or isinstance(ty, (CardT, ZoneT))


def may_offer_unseen(rs: ir.Ruleset, mode: ir.Mode, choose: ir.Choose) -> bool:
    """Whether a choice may offer a card its chooser cannot see: it binds from a
    zone, or from a define's list of cards, that may hold such a card."""
    flow = Flow(rs, mode)
    for g in choose.binder.groups:
        domains = [g.domain, *flow.cards(g.domain, {}),
                   *(n for n in walk(g.domain) if isinstance(n, ir.ZoneRef))]
        if any(hidden_place(rs, mode, d, choose.role) is not None for d in domains):
            return True
    return False
