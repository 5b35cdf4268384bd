"""Name resolution and type checking: parsed declarations -> resolved IR.

Every name is resolved (local, variable, parameter, zone, role, enum value,
define, procedure) and every expression typed before anything runs. Card
types narrow through `is` tests, so

    if c is action_modifier:
        move c to reserve
    else:
        move c to hand          # c is known not to be a modifier here

checks against the zones' `holds:`. All problems are collected and raised
together.
"""
from __future__ import annotations

import dataclasses
import functools
import re

from . import ir
from .abilities import ABILITY_TYPE, carriers
from .builtins import BUILTINS
from .errors import Diagnostics, Span, did_you_mean
from .limits import DEFAULT, Limits, over
from .types import (
    ANY,
    BOOL,
    INT,
    NONE,
    ROLE,
    TEXT,
    BoardT,
    CardT,
    EnumT,
    ListT,
    Type,
    ZoneT,
    join,
)
from .walk import method, walk

CALLED = [b.name for b in BUILTINS.values() if not b.bare]  # the built-ins written with parentheses
_RESULT = {"number": INT, "bool": BOOL, "role": ROLE, "roles": ListT(ROLE)}


class Scope:
    """Local names and their (possibly narrowed) types."""

    def __init__(self, names: dict[str, Type] | None = None, parent: "Scope | None" = None):
        self.names = names or {}
        self.parent = parent

    def lookup(self, name: str) -> Type | None:
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, names: dict[str, Type] | None = None) -> "Scope":
        return Scope(dict(names or {}), self)

    def all_names(self) -> set[str]:
        names, scope = set(), self
        while scope is not None:
            names |= set(scope.names)
            scope = scope.parent
        return names


def check(ruleset: ir.Ruleset, limits: Limits = DEFAULT) -> ir.Ruleset:
    checker = Checker(ruleset, limits.nesting)
    result = checker.run()
    checker.diag.raise_if_any()
    return result


class Checker:
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
        self.field_types = {ct.name: {f.name: f.type for f in (*ct.fields, *ct.state)}
                            for ct in rs.card_types.values()}
        self.state_types = {ct.name: {f.name: f.type for f in ct.state} for ct in rs.card_types.values()}
        self.define_bodies: dict[str, ir.Expr] = {}
        self.define_results: dict[tuple, Type] = {}
        self.proc_bodies: dict[str, ir.Block] = {}
        self.proc_checked: dict[tuple, None] = {}  # (name, parameter types) checked, in order
        self.stack: list[str] = []
        # per definition being checked: do its parameters take their types from the call?
        self.generic: list[bool] = []
        self.mode_roles: tuple[str, ...] | None = None
        self.zone_params: dict[tuple[str, str], tuple[bool, Span | None]] = {}  # is it a zone, first seen where

    # ------------------------------------------------------------ the ruleset
    def run(self) -> ir.Ruleset:
        rs = self.rs
        # fully typed definitions are checked as declared (a `zone` parameter: with each zone it is given)
        for name, define in rs.defines.items():
            if all(t is not None and not isinstance(t, ZoneT) for _, t in define.params):
                self.call_define(name, [t for _, t in define.params], define.span)
        for name, proc in rs.procedures.items():
            if all(t is not None and not isinstance(t, ZoneT) for _, t in proc.params):
                self.call_procedure(name, [t for _, t in proc.params], proc.span)
        setup = self.block(rs.setup, Scope())
        modes = {}
        for name, mode in rs.modes.items():
            self.mode_roles = mode.roles
            msetup = self.block(mode.setup, Scope())
            steps = tuple(dataclasses.replace(s, body=self.block(s.body, Scope())) for s in mode.round)
            score = {role: self.expect(e, Scope(), INT, "a score") for role, e in mode.score.items()}
            measures = {n: self.measure(m) for n, m in mode.measures.items()}
            heuristics = {role: self.expect(e, Scope(), INT, "a heuristic") for role, e in mode.heuristics.items()}
            ranking = tuple(dataclasses.replace(k, values=ir.frozen_map(
                {role: self.expect(e, Scope(), INT, "a ranking key") for role, e in k.values.items()}))
                for k in mode.ranking)
            watches = tuple(dataclasses.replace(w, when=self.expect(w.when, Scope(), BOOL, "a watch's condition"),
                                                body=self.block(w.body, Scope())) for w in mode.watches)
            modes[name] = dataclasses.replace(mode, setup=msetup, round=steps, score=ir.frozen_map(score),
                                              measures=ir.frozen_map(measures), heuristics=ir.frozen_map(heuristics),
                                              ranking=ranking,
                                              watches=watches)
            self.mode_roles = None
        # defines and procedures never called with typed arguments are still resolved
        for name, define in rs.defines.items():
            if name not in self.define_bodies:
                self.call_define(name, [_uncalled(t) for _, t in define.params], define.span)
        for name, proc in rs.procedures.items():
            if name not in self.proc_bodies:
                self.call_procedure(name, [_uncalled(t) for _, t in proc.params], proc.span)
        defines = {n: dataclasses.replace(d, body=self.stored(n, self.define_bodies, self.define_results, d.body))
                   for n, d in rs.defines.items()}
        procs = {n: dataclasses.replace(p, body=self.stored(n, self.proc_bodies, self.proc_checked, p.body))
                 for n, p in rs.procedures.items()}
        abilities = self.checked_abilities = self.check_abilities()
        for mode in modes.values():
            self.roles_of_mode(mode)
        return dataclasses.replace(rs, abilities=ir.frozen_map(abilities), setup=setup, modes=ir.frozen_map(modes), defines=ir.frozen_map(defines),
                                   procedures=ir.frozen_map(procs))

    def stored(self, name: str, bodies: dict, checked, unchecked):
        """The body a definition keeps in the IR. Checked with each call's
        types (and errors reported per call); if calls gave it different
        types (other cards, other zones), checked once more with their join,
        so that its types hold for every call and no pass trusts one call's
        types where another call's cards go."""
        calls = [types for key, types in checked if key == name]
        if name not in bodies or len(calls) < 2:
            return bodies.get(name, unchecked)
        joined = [functools.reduce(lambda a, b: join(a, b) or ANY, column) for column in zip(*calls)]
        saved, self.diag = self.diag, Diagnostics()  # reported already, call by call
        body = self.body_of(name, joined)
        self.diag = saved
        return body

    def roles_of_mode(self, mode: ir.Mode) -> None:
        """Every role the mode's rules can reach — through its procedures, defines
        and variables too — plays in the mode: nothing at run time can ask a
        decision of, or read the zone of, a player who is not at the table."""
        seen_calls: set[str] = set()
        used_vars: set[str] = set()
        todo = [mode.setup, tuple(s.body for s in mode.round), tuple(w.body for w in mode.watches),
                tuple(mode.score.values()), tuple(mode.heuristics.values()), self.rs.setup,
                tuple(e for k in mode.ranking for e in k.values.values())]
        while todo:
            for node in walk(todo.pop()):
                if isinstance(node, ir.RoleRef) and node.role not in mode.roles:
                    self.error(node.span, f"role '{node.role}' does not play in mode '{mode.name}'",
                               f"the roles of this mode: {', '.join(mode.roles)}")
                elif isinstance(node, ir.Var):
                    used_vars.add(node.name)
                elif isinstance(node, ir.Trigger) and "on:" + node.event not in seen_calls:
                    seen_calls.add("on:" + node.event)
                    todo += [(a.body, a.where, a.optional) for a in self.checked_abilities.values()
                             if a.on == node.event]
                elif isinstance(node, (ir.DefineCall, ir.CallProc)) and node.name not in seen_calls:
                    seen_calls.add(node.name)
                    body = self.define_bodies.get(node.name) if isinstance(node, ir.DefineCall) \
                        else self.proc_bodies.get(node.name)
                    if body is not None:
                        todo.append(body)
        for name in sorted(used_vars):
            var = self.rs.vars[name]
            if var.type == ROLE and var.initial is not None and var.initial not in mode.roles:
                self.error(var.span, f"'{name}' starts as {var.initial}, who does not play in mode '{mode.name}'")

    # ------------------------------------------------------------ abilities
    def check_abilities(self) -> dict[str, ir.Ability]:
        """Each ability's rules, with `this` a card that carries it and the
        event's parameters; then no event may (through its abilities) trigger
        itself again."""
        checked = {}
        for a in self.rs.abilities.values():
            event = self.rs.events[a.on]
            kinds = frozenset(self.rs.cards[c].kind for c in carriers(self.rs, a.name))
            if not kinds:
                self.error(a.span, f"no card carries ability '{a.name}'",
                           f"name it in a card type's `abilities:`, or in a table column of type `{ABILITY_TYPE}`")
            scope = Scope({"this": CardT(kinds or self.all_kinds), **{p: t or ANY for p, t in event.params}})
            self.check_param_names((("this", None), *event.params), a.span)
            where = self.expect(a.where, scope, BOOL, "an ability's `where:`") if a.where is not None else None
            optional = self.role(a.optional, scope) if a.optional is not None else None
            checked[a.name] = dataclasses.replace(a, where=where, optional=optional,
                                                  body=self.block(a.body, scope.child()))
        self.no_trigger_cycle(checked)
        return checked

    def no_trigger_cycle(self, abilities: dict[str, ir.Ability]) -> None:
        """An event whose abilities trigger it again (through other events and
        procedures too) would never end: a located error at the trigger."""
        raises: dict[str, list[ir.Trigger]] = {}  # event -> the triggers its abilities reach
        for a in abilities.values():
            todo, seen = [a.body], set()
            while todo:
                for node in walk(todo.pop()):
                    if isinstance(node, ir.Trigger):
                        raises.setdefault(a.on, []).append(node)
                    elif isinstance(node, ir.CallProc) and node.name not in seen:
                        seen.add(node.name)
                        todo.append(self.proc_bodies.get(node.name, ()))

        def path(start: str, event: str, visited: set) -> ir.Trigger | None:
            for t in raises.get(event, ()):
                if t.event == start:
                    return t
                if t.event not in visited:
                    visited.add(t.event)
                    found = path(start, t.event, visited)
                    if found is not None:
                        return found
            return None
        for event in sorted(raises):
            closing = path(event, event, {event})
            if closing is not None:
                self.error(closing.span, f"event '{event}' can trigger itself again through its abilities, "
                                         "without end", "trigger it from the rules, not from what answers it")
                return

    def stmt_trigger(self, s: ir.Trigger, scope: Scope) -> ir.Stmt:
        event = self.rs.events.get(s.event)
        if event is None:
            self.error(s.span, f"unknown event '{s.event}'", did_you_mean(s.event, self.rs.events)
                       or "declare it under `events:`")
            return s
        if len(s.args) != len(event.params):
            self.error(s.span, f"event '{s.event}' takes {len(event.params)} argument"
                               f"{'s' if len(event.params) != 1 else ''}, not {len(s.args)}")
            return s
        args = tuple(self.expr(a, scope, t) for a, (_, t) in zip(s.args, event.params))
        for a, (p, t) in zip(args, event.params):
            if t is not None and not t.fits(a.ty):
                self.error(a.span, f"argument '{p}' of event '{s.event}' must be {t}, but this is {a.ty}")
        if s.window and not any(t == ROLE for _, t in event.params):
            self.error(s.span, f"a window is offered to a player: event '{s.event}' needs a parameter of type role",
                       f"e.g. `events: {{{s.event}(role p): ...}}`")
        return dataclasses.replace(s, args=args)

    def measure(self, m: ir.Measure) -> ir.Measure:
        value = self.expr(m.value, Scope())
        if value.ty not in (INT, BOOL, ANY):
            self.error(m.value.span, f"a measure is a number or true/false, not {value.ty}")
        when = self.expect(m.when, Scope(), BOOL, "a measure's `when:`") if m.when is not None else None
        return dataclasses.replace(m, value=value, when=when)

    def error(self, span: Span | None, message: str, hint: str | None = None) -> None:
        self.diag.error(span, message, hint)

    # ------------------------------------------------------------ defines and procedures
    def call_define(self, name: str, arg_types: list[Type], span: Span | None) -> Type:
        define = self.rs.defines[name]
        if name in self.stack:
            self.error(span, f"'{name}' uses itself (through {' -> '.join(self.stack[self.stack.index(name):])})",
                       "defines may not be recursive; write the repetition with count(), exists or a loop")
            return ANY
        if len(arg_types) != len(define.params):
            self.error(span, f"'{name}' takes {len(define.params)} argument(s), not {len(arg_types)}")
            return ANY
        types = [_bound(declared, given) for (_, declared), given in zip(define.params, arg_types)]
        key = (name, tuple(types))
        if key in self.define_results:
            return self.define_results[key]
        self.same_kinds(name, define.params, types, span)
        body = self.body_of(name, types)
        self.define_bodies.setdefault(name, body)
        self.define_results[key] = body.ty
        return body.ty

    def body_of(self, name: str, types) -> ir.Expr | ir.Block:
        """A define's or procedure's body checked with these parameter types."""
        definition = self.rs.defines.get(name) or self.rs.procedures[name]
        self.stack.append(name)
        self.generic.append(_generic(definition.params))
        self.check_param_names(definition.params, definition.span)
        scope = Scope({p: t for (p, _), t in zip(definition.params, types)})
        if isinstance(definition, ir.Define):
            body = self.expr(definition.body, scope)
        else:
            saved, self.mode_roles = self.mode_roles, None  # (a procedure may be called from any mode)
            body = self.block(definition.body, scope)
            self.mode_roles = saved
        self.stack.pop()
        self.generic.pop()
        return body

    def call_procedure(self, name: str, arg_types: list[Type], span: Span | None) -> None:
        proc = self.rs.procedures[name]
        if name in self.stack:
            self.error(span, f"procedure '{name}' calls itself (through {' -> '.join(self.stack[self.stack.index(name):])})",
                       "procedures may not be recursive; use a while loop")
            return
        if len(arg_types) != len(proc.params):
            self.error(span, f"'{name}' takes {len(proc.params)} argument(s), not {len(arg_types)}")
            return
        types = tuple(_bound(declared, given) for (_, declared), given in zip(proc.params, arg_types))
        if (name, types) in self.proc_checked:
            return
        self.proc_checked[name, types] = None
        self.same_kinds(name, proc.params, types, span)
        self.proc_bodies.setdefault(name, self.body_of(name, types))

    def same_kinds(self, name: str, params, types, span: Span | None) -> None:
        """A parameter takes zones in every call or in none: a definition is
        compiled once (plain programs call it), and a zone is held as its
        number while other values are held as themselves."""
        for (pname, _), ty in zip(params, types):
            if ty is ANY:
                continue
            first = self.zone_params.setdefault((name, pname), (isinstance(ty, ZoneT), span))
            if first[0] != isinstance(ty, ZoneT):
                where = f" (line {first[1].line})" if first[1] is not None else ""
                self.error(span, f"'{pname}' of '{name}' is {'a zone' if first[0] else 'not a zone'} in another "
                                 f"call{where}, and {ty} here",
                           "a parameter takes zones in every call or in none; write a second define or procedure")

    def check_param_names(self, params, span) -> None:
        for pname, _ in params:
            if self.global_kind(pname):
                self.error(span, f"parameter '{pname}' has the name of a {self.global_kind(pname)}",
                           "pick another name so the rules stay unambiguous")

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

    # ------------------------------------------------------------ statements
    def block(self, stmts: ir.Block, scope: Scope) -> ir.Block:
        inner = scope.child()
        return tuple(self.stmt(s, inner) for s in stmts)

    def stmt(self, s: ir.Stmt, scope: Scope) -> ir.Stmt:
        if not self.deeper(s.span):
            return s
        try:
            return method(self, "stmt", s)(s, scope)
        finally:
            self.depth -= 1

    def deeper(self, span: Span | None) -> bool:
        """One level deeper; False (reported once) past the limit."""
        if self.depth >= self.max_depth:
            if not self.too_deep:
                self.too_deep = True
                self.error(span, f"the rules nest more than {self.max_depth} levels deep here, counting the "
                                 f"defines and procedures they call as written out ({_chain(self.stack)})"
                           if self.stack else f"the rules nest more than {self.max_depth} levels deep here",
                           over("a long chain of defines calling one another is the usual cause",
                                self.max_depth, "nesting"))
            return False
        self.depth += 1
        return True

    def stmt_move(self, s: ir.Move, scope: Scope) -> ir.Stmt:
        dest = self.zone(s.dest, scope)
        if s.every is not None:
            every, inner = self.binder(s.every, scope)
            if len(every.names) != 1:
                self.error(s.every.span, "`move all` binds exactly one name, e.g. `move all c in hand where ...`")
                moved = ANY
            else:
                moved = inner.lookup(every.names[0])
            self.check_holds(moved, dest, s.span)
            return dataclasses.replace(s, every=every, dest=dest)
        cards = []
        for c in s.cards:
            c2 = self.expr(c, scope)
            if isinstance(c2.ty, BoardT):
                self.error(c.span, "a board's cards are moved one by one, not the board at once",
                           f"e.g. `move all c in {_text(c)} where ... to ...`")
                moved = ANY
            elif isinstance(c2.ty, ListT):
                moved = c2.ty.item
            elif isinstance(c2.ty, ZoneT):
                moved = CardT(c2.ty.kinds)
            else:
                moved = c2.ty
            if not isinstance(moved, CardT) and moved is not ANY and moved is not NONE:
                self.error(c.span, f"can only move cards, not {c2.ty}")
            self.check_holds(moved, dest, c.span)
            cards.append(c2)
        return dataclasses.replace(s, cards=tuple(cards), dest=dest)

    def stmt_draw(self, s: ir.Draw, scope: Scope) -> ir.Stmt:
        count = self.expect(s.count, scope, INT, "the number of cards to draw")
        source, dest = self.zone(s.source, scope), self.zone(s.dest, scope)
        if isinstance(source.ty, ZoneT):
            self.check_holds(CardT(source.ty.kinds), dest, s.span)
        return dataclasses.replace(s, count=count, source=source, dest=dest)

    def check_holds(self, moved: Type | None, dest: ir.Expr, span) -> None:
        if not isinstance(moved, CardT) or not isinstance(dest.ty, ZoneT):
            return
        extra = moved.kinds - dest.ty.kinds
        if extra:
            zone = dest.zone if isinstance(dest, ir.ZoneRef) else "that zone"
            self.error(span, f"{', '.join(sorted(extra))} cards cannot go to {zone}: it holds only "
                             f"{', '.join(sorted(dest.ty.kinds))}",
                       f"sort the cards first (`if c is {sorted(extra)[0]}: ...`) or add to the `holds:` of {zone}")

    def stmt_shuffle(self, s: ir.Shuffle, scope: Scope) -> ir.Stmt:
        return dataclasses.replace(s, zone=self.zone(s.zone, scope))

    def stmt_flip(self, s: ir.Flip, scope: Scope) -> ir.Stmt:
        return dataclasses.replace(s, card=self.card(s.card, scope))

    def stmt_let(self, s: ir.Let, scope: Scope) -> ir.Stmt:
        value = self.expr(s.value, scope)
        if self.named_board(value, "a local"):
            value = self.typed(value, ANY)
        if scope.lookup(s.name) is not None:
            self.error(s.span, f"'{s.name}' is already defined here", f"change it with `{s.name} = ...`")
        elif self.global_kind(s.name) or s.name in self.enum_of:
            self.error(s.span, f"'{s.name}' is already the name of a {self.global_kind(s.name) or 'value'}",
                       "pick another name for the local")
        scope.names[s.name] = value.ty
        return dataclasses.replace(s, value=value)

    def stmt_assign(self, s: ir.Assign, scope: Scope) -> ir.Stmt:
        target = s.target
        if isinstance(target, ir.Field):
            return self.assign_state(s, scope)
        if isinstance(target, ir.Owned):  # `life of p -= 1`
            resolved = self.expr(target, scope)
            if not isinstance(resolved, ir.Var):
                if resolved.ty is not ANY:
                    self.error(target.span, "only a player's variable can change this way",
                               "a zone's cards change with move and draw")
                return s
            return self.assign_value(s, resolved, target.zone.name, scope)
        local = scope.lookup(target.name)
        if local is not None:
            resolved: ir.Expr = ir.Local(target.name, span=target.span, ty=local)
        elif target.name in self.rs.vars:
            resolved = ir.Var(target.name, span=target.span, ty=self.rs.vars[target.name].type)
        else:
            what = self.global_kind(target.name)
            if what:
                self.error(target.span, f"cannot change the {what} '{target.name}'",
                           "only variables declared under `vars:` and locals can change")
            else:
                self.error(target.span, f"unknown variable '{target.name}'",
                           did_you_mean(target.name, [*self.rs.vars, *scope.all_names()])
                           or f"declare it under `vars:` (or use `let {target.name} = ...` for a local)")
            return s
        if isinstance(resolved, ir.Var) and self.rs.vars[target.name].owner == "each":
            self.error(target.span, f"every player has their own '{target.name}'; say whose",
                       f"write `{target.name} of p {s.op} ...`")
        return self.assign_value(s, resolved, target.name, scope)

    def assign_value(self, s: ir.Assign, resolved: ir.Expr, name: str, scope: Scope) -> ir.Stmt:
        if s.op in ("+=", "-="):
            value = self.expect(s.value, scope, INT, f"the amount for {s.op}")
            if resolved.ty not in (INT, ANY):
                self.error(s.span, f"'{name}' is {resolved.ty}; {s.op} needs a number")
        else:
            value = self.expect(s.value, scope, resolved.ty, f"a value for '{name}'")
        return dataclasses.replace(s, target=resolved, value=value)

    def assign_state(self, s: ir.Assign, scope: Scope) -> ir.Stmt:
        """`g.damage += 2`, `top(deck).damage = 0`: a card's state value (printed fields never change)."""
        field = s.target
        obj = self.expr(field.obj, scope)
        if not isinstance(obj.ty, CardT):
            if obj.ty is not ANY:
                self.error(field.obj.span, f"only a card's state can change; this is {obj.ty}, not a card",
                           f"`CARD.{field.name} = ...` changes a value declared under the card type's `state:`; "
                           "a variable changes by its name alone (`points += 1`)")
            return s
        kinds = self.possible_kinds(obj.ty, self.state_types, field.name)
        types = {self.state_types[k].get(field.name) for k in kinds}
        if None in types or len(types) != 1:
            printed = any(field.name in self.field_types[k] for k in kinds)
            lacking = sorted(k for k in kinds if field.name not in self.state_types[k])
            self.error(field.span, f"'{field.name}' is printed on the card and cannot change" if printed
                       else f"{' and '.join(lacking)} cards have no state '{field.name}'",
                       "declare it under the card type's `state:` (e.g. `state: {damage: 0}`)"
                       if not printed else "keep changing values in `state:` or `vars:`")
            return s
        ty = types.pop()
        target = dataclasses.replace(field, obj=obj, ty=ty)
        if s.op in ("+=", "-="):
            value = self.expect(s.value, scope, INT, f"the amount for {s.op}")
            if ty != INT:
                self.error(s.span, f"'{field.name}' is {ty}; {s.op} needs a number")
        else:
            value = self.expect(s.value, scope, ty, f"a value for '{field.name}'")
        return dataclasses.replace(s, target=target, value=value)

    def stmt_if(self, s: ir.If, scope: Scope) -> ir.Stmt:
        branches = []
        negative: dict[str, Type] = {}
        for cond, body in s.branches:
            here = scope.child(negative)
            c = self.expect(cond, here, BOOL, "a condition")
            branches.append((c, self.block(body, here.child(self.narrowing(c, True)))))
            negative = {**negative, **self.narrowing(c, False)}
        otherwise = self.block(s.otherwise, scope.child(negative)) if s.otherwise is not None else None
        return dataclasses.replace(s, branches=tuple(branches), otherwise=otherwise)

    def stmt_while(self, s: ir.While, scope: Scope) -> ir.Stmt:
        cond = self.expect(s.cond, scope, BOOL, "a condition")
        body = self.block(s.body, scope.child(self.narrowing(cond, not s.until)))
        return dataclasses.replace(s, cond=cond, body=body)

    def stmt_repeat(self, s: ir.Repeat, scope: Scope) -> ir.Stmt:
        count = self.expect(s.count, scope, INT, "the number of times")
        return dataclasses.replace(s, count=count, body=self.block(s.body, scope))

    def stmt_for(self, s: ir.For, scope: Scope) -> ir.Stmt:
        binder, inner = self.binder(s.binder, scope)
        return dataclasses.replace(s, binder=binder, body=self.block(s.body, inner))

    def stmt_take(self, s: ir.Take, scope: Scope) -> ir.Stmt:
        binder, inner = self.binder(s.binder, scope)
        for g in binder.groups:
            if isinstance(g.domain, ir.ListExpr) and not g.domain.items:
                self.error(g.domain.span, f"take {s.which}: `[]` is empty, so there is nothing to bind",
                           "take from a zone or a list that holds something")
        return dataclasses.replace(s, binder=binder, body=self.block(s.body, inner))

    def stmt_roll(self, s: ir.Roll, scope: Scope) -> ir.Stmt:
        """`roll [COUNT] DIE into TARGET`: the target is a name not yet bound (a
        new local), or anything an assignment may change, of the roll's type."""
        if s.die not in self.rs.dice:
            sides = s.die[1:] if re.fullmatch(r"d[1-9][0-9]{0,3}", s.die) else "6"
            taken = self.global_kind(s.die)
            self.error(s.span, f"unknown die '{s.die}'",
                       f"'{s.die}' is the name of a {taken} here, so there is no built-in d6; declare a die "
                       f"under `dice:` with another name" if s.die == "d6" and taken else
                       did_you_mean(s.die, self.rs.dice)
                       or f"declare it under `dice:`, e.g. `dice: {{{s.die}: 1..{sides}}}` (d6 is built in)")
        count = self.expect(s.count, scope, INT, "the number of dice") if s.count is not None else None
        ty = INT if count is None else ListT(INT)
        target = s.target
        if isinstance(target, ir.Name) and scope.lookup(target.name) is None and target.name not in self.rs.vars \
                and not self.global_kind(target.name) and target.name not in self.enum_of:
            scope.names[target.name] = ty  # a new local, as `let` makes
            return dataclasses.replace(s, count=count, target=ir.Local(target.name, span=target.span, ty=ty),
                                       declares=True)
        # an existing name: resolved as an assignment's target is (the value's type is checked below)
        resolved = self.stmt_assign(ir.Assign(target, "=", ir.Local("$roll", ty=ANY), span=s.span), scope).target
        if isinstance(resolved, ir.Name) or resolved.ty in (None, ANY) or resolved.ty.fits(ty):
            return dataclasses.replace(s, count=count, target=resolved)
        name = target.name if isinstance(target, (ir.Name, ir.Field)) else _text(target)
        if count is None:
            self.error(target.span, f"'{name}' is {resolved.ty}, but one die gives a number",
                       f"roll a number of dice for a list: `roll 1 {s.die} into {name}`")
        else:
            self.error(target.span, f"'{name}' is {resolved.ty}, but several dice give {ty}",
                       f"roll into a new name and add the dice up: `roll ... {s.die} into faces`, then `sum(faces)`")
        return dataclasses.replace(s, count=count, target=resolved)

    def stmt_choose(self, s: ir.Choose, scope: Scope) -> ir.Stmt:
        role = self.role(s.role, scope)
        binder, inner = self.binder(s.binder, scope)
        return dataclasses.replace(s, role=role, binder=binder, body=self.block(s.body, inner))

    def stmt_menu(self, s: ir.Menu, scope: Scope) -> ir.Stmt:
        role = self.role(s.role, scope)
        seen, options = set(), []
        for opt in s.options:
            if opt.name in seen:
                self.error(opt.span, f"option '{opt.name}' appears twice in '{s.label}'")
            seen.add(opt.name)
            guard = self.expect(opt.guard, scope, BOOL, "a condition") if opt.guard is not None else None
            inner = scope.child(self.narrowing(guard, True) if guard is not None else {})
            options.append(dataclasses.replace(opt, guard=guard, body=self.block(opt.body, inner)))
        return dataclasses.replace(s, role=role, options=tuple(options))

    def stmt_endgame(self, s: ir.EndGame, scope: Scope) -> ir.Stmt:
        if s.role is None:
            return s
        who = self.expr(s.role, scope)
        if who.ty not in (ROLE, ListT(ROLE), ListT(NONE), ANY):
            self.error(s.role.span, f"{s.kind} names a player or a list of players (a team), not {who.ty}")
        elif isinstance(who, ir.RoleRef) and self.mode_roles is not None and who.role not in self.mode_roles:
            self.error(s.role.span, f"role '{who.role}' does not play in this mode")
        return dataclasses.replace(s, role=who)

    def stmt_eliminate(self, s: ir.Eliminate, scope: Scope) -> ir.Stmt:
        return dataclasses.replace(s, role=self.role(s.role, scope))

    def stmt_callproc(self, s: ir.CallProc, scope: Scope) -> ir.Stmt:
        if s.name not in self.rs.procedures:
            if s.name in self.rs.defines or s.name in CALLED:
                what = "a define" if s.name in self.rs.defines else "built in"
                self.error(s.span, f"'{s.name}' is {what} (a value), not a procedure; use it in a condition",
                           "a line of statements does something: move, draw, let, if ... "
                           "(a define of this value goes under `define:`)")
            else:
                self.error(s.span, f"unknown procedure '{s.name}'", did_you_mean(s.name, self.rs.procedures)
                           or "declare it under `procedures:`")
            return s
        proc = self.rs.procedures[s.name]
        args = [self.expr(a, scope, t) for a, (_, t) in zip(s.args, proc.params)] + \
            [self.expr(a, scope) for a in s.args[len(proc.params):]]
        for a, (p, t) in zip(args, proc.params):
            if not self.named_board(a, "an argument") and t is not None and not t.fits(a.ty):
                self.error(a.span, f"argument '{p}' must be {t}, but this is {a.ty}")
        self.call_procedure(s.name, [a.ty for a in args], s.span)
        return dataclasses.replace(s, args=tuple(args))

    def stmt_pass(self, s: ir.Pass, scope: Scope) -> ir.Stmt:
        return s

    # ------------------------------------------------------------ binders
    def binder(self, b: ir.Binder, scope: Scope) -> tuple[ir.Binder, Scope]:
        inner = scope.child()
        groups = []
        for g in b.groups:
            domain = self.expr(g.domain, inner, ZoneT(self.all_kinds))
            if isinstance(domain.ty, (ZoneT, BoardT)):
                item: Type = CardT(domain.ty.kinds)
            elif isinstance(domain.ty, ListT):
                item = domain.ty.item
            elif domain.ty is ANY:
                item = ANY
            else:
                self.error(g.domain.span, f"can only go through a zone or a list, not {domain.ty}")
                item = ANY
            for name in g.names:
                if name in inner.names or scope.lookup(name) is not None:
                    self.error(g.span, f"'{name}' is already a variable here; pick another name")
                elif self.global_kind(name):
                    self.error(g.span, f"'{name}' is already the name of a {self.global_kind(name)}",
                               "pick another name for the variable")
                inner.names[name] = item
            groups.append(dataclasses.replace(g, domain=domain))
        where = None
        if b.where is not None:
            where = self.expect(b.where, inner, BOOL, "a `where` condition")
            inner = inner.child(self.narrowing(where, True))
        order = tuple(dataclasses.replace(k, value=self.expect(k.value, inner, INT, "an `ordered by` key"))
                      for k in b.order)
        types = tuple(inner.lookup(n) for g in groups for n in g.names)
        return dataclasses.replace(b, groups=tuple(groups), where=where, order=order, types=types), inner

    def narrowing(self, cond: ir.Expr, positive: bool) -> dict[str, Type]:
        """Local card types known when `cond` is true (positive) or false."""
        if isinstance(cond, ir.IsType) and isinstance(cond.subject, ir.Local) \
                and isinstance(cond.subject.ty, CardT):
            current = cond.subject.ty.kinds
            holds = positive != cond.negated
            kinds = current & {cond.kind} if holds else current - {cond.kind}
            return {cond.subject.name: CardT(frozenset(kinds))}
        if isinstance(cond, ir.Unary) and cond.op == "not":
            return self.narrowing(cond.operand, not positive)
        if isinstance(cond, ir.Binary) and cond.op in ("and", "or") and positive == (cond.op == "and"):
            left, right = self.narrowing(cond.left, positive), self.narrowing(cond.right, positive)
            for name, ty in right.items():
                left[name] = CardT(left[name].kinds & ty.kinds) if name in left else ty
            return left
        return {}

    # ------------------------------------------------------------ expressions
    def expect(self, e: ir.Expr, scope: Scope, ty: Type, what: str) -> ir.Expr:
        checked = self.expr(e, scope, ty)
        if checked.ty is not None and not ty.fits(checked.ty):
            self.error(e.span, f"{what} must be {ty}, but this is {checked.ty}")
        return checked

    def zone(self, e: ir.Expr, scope: Scope) -> ir.Expr:
        z = self.expr(e, scope, ZoneT(self.all_kinds))
        if isinstance(z.ty, BoardT):
            self.error(e.span, f"'{_text(e)}' is a board; name one of its spaces here",
                       f"e.g. space({_text(e)}, column, row)")
        elif not isinstance(z.ty, ZoneT) and z.ty is not ANY:
            self.error(e.span, f"expected a zone here, but this is {z.ty}",
                       did_you_mean(e.name, self.rs.zones) if isinstance(e, ir.Name) else None)
        return z

    def possible_kinds(self, ty: CardT, table: dict, name: str) -> frozenset[str]:
        """The card types a card of type `ty` may be, for reading or changing
        `name`. None at all (`is` tests ruled every one out: rules that run
        only with other cards, in a define given these) is checked as any
        card type that has it, so the rules are still resolved and typed."""
        return ty.kinds or frozenset(k for k, names in table.items() if name in names) or self.all_kinds

    def named_board(self, e: ir.Expr, what: str) -> bool:
        """A board is used by its name only: code for its spaces is generated
        from its size. True (reported) if `e` is a board put where a name
        cannot follow it."""
        if not isinstance(e.ty, BoardT):
            return False
        self.error(e.span, f"a board cannot be {what}",
                   "name the board where it is used; a space of it (`space(B, x, y)`) is a zone and can be")
        return True

    def card(self, e: ir.Expr, scope: Scope) -> ir.Expr:
        c = self.expr(e, scope)
        if not isinstance(c.ty, CardT) and c.ty is not ANY:
            self.error(e.span, f"expected a card here, but this is {c.ty}")
        return c

    def role(self, e: ir.Expr, scope: Scope) -> ir.Expr:
        r = self.expr(e, scope)
        if r.ty not in (ROLE, ANY):
            self.error(e.span, f"expected a role here, but this is {r.ty}",
                       did_you_mean(e.name, [x.name for x in self.rs.roles]) if isinstance(e, ir.Name) else None)
        elif isinstance(r, ir.RoleRef) and self.mode_roles is not None and r.role not in self.mode_roles:
            self.error(e.span, f"role '{r.role}' does not play in this mode")
        return r

    def expr(self, e: ir.Expr, scope: Scope, expect: Type | None = None) -> ir.Expr:
        if not self.deeper(e.span):
            return self.typed(e, ANY)
        try:
            return method(self, "expr", e)(e, scope, expect)
        finally:
            self.depth -= 1

    def typed(self, e: ir.Expr, ty: Type, **changes) -> ir.Expr:
        return dataclasses.replace(e, ty=ty, **changes)

    def expr_const(self, e: ir.Const, scope, expect):
        v = e.value
        ty = NONE if v is None else BOOL if isinstance(v, bool) else INT if isinstance(v, int) else TEXT
        return self.typed(e, ty)

    def expr_name(self, e: ir.Name, scope: Scope, expect):
        n, rs, span = e.name, self.rs, e.span
        local = scope.lookup(n)
        if local is not None:
            return ir.Local(n, span=span, ty=local)
        if n in rs.vars:
            if rs.vars[n].owner == "each":
                self.error(span, f"every player has their own '{n}'; say whose", f"write `{n} of p`")
            return ir.Var(n, span=span, ty=rs.vars[n].type)
        if n in rs.params and n != "players":  # `players` is the list of players; the parameter only counts them
            return ir.Param(n, span=span, ty=rs.params[n].type)
        if n in rs.zones or n == "box":
            zone = rs.zones.get(n)
            if zone is not None and zone.owner == "each":
                self.error(span, f"every role has its own '{n}'; say whose", f"write `{n} of ROLE`")
            return ir.ZoneRef(n, span=span, ty=self.zone_type(n))
        if n in {r.name for r in rs.roles}:
            return ir.RoleRef(n, span=span, ty=ROLE)
        if n in BUILTINS and BUILTINS[n].bare:  # round, players
            return ir.BuiltinCall(n, (), span=span, ty=_RESULT[BUILTINS[n].result])
        if n in self.enum_of:
            enums = self.enum_of[n]
            if isinstance(expect, EnumT) and expect.name in enums:
                return ir.EnumValue(expect.name, n, span=span, ty=expect)
            if len(enums) == 1:
                return ir.EnumValue(enums[0], n, span=span, ty=EnumT(enums[0]))
            self.error(span, f"'{n}' is a value of several types ({', '.join(enums)}); which one is meant "
                             "is unclear here", "compare it with a field of that type, e.g. `c.kind == ...`")
            return self.typed(e, ANY)
        if n in rs.card_types:
            self.error(span, f"'{n}' is a card type, not a value", f"to test a card write `c is {n}`")
        elif n in rs.defines:
            self.error(span, f"'{n}' is a define; call it with its arguments: {n}(...)")
        elif n in rs.dice:
            self.error(span, f"'{n}' is a die, not a value", f"roll it: `roll {n} into x`, then use x")
        elif isinstance(expect, ZoneT):
            self.error(span, f"unknown zone '{n}'", did_you_mean(n, [*rs.zones, "box"])
                       or "zones: " + ", ".join(rs.zones))
        else:
            known = scope.all_names() | set(rs.vars) | set(rs.params) | set(rs.zones) \
                | {r.name for r in rs.roles} | set(self.enum_of)
            self.error(span, f"unknown name '{n}'", did_you_mean(n, known))
        return self.typed(e, ANY)

    def zone_type(self, name: str) -> ZoneT | BoardT:
        zone = self.rs.zones.get(name)
        kinds = frozenset(zone.holds) if zone is not None and zone.holds else self.all_kinds
        return BoardT(kinds) if zone is not None and zone.board else ZoneT(kinds)

    def expr_owned(self, e: ir.Owned, scope, expect):
        owner = self.role(e.owner, scope)
        var = self.rs.vars.get(e.zone.name) if isinstance(e.zone, ir.Name) else None
        if var is not None:  # a player's own variable: `life of p`
            if var.owner != "each":
                self.error(e.span, f"'{var.name}' is one variable for the whole game, not one per player",
                           f"declare it with `owner: each`, or write just `{var.name}`")
            return ir.Var(var.name, owner, span=e.span, ty=var.type)
        if not isinstance(e.zone, ir.Name) or e.zone.name not in self.rs.zones:
            self.error(e.zone.span, "expected a zone or a player's variable before `of`")
            return self.typed(e, ANY)
        zone = self.rs.zones[e.zone.name]
        if zone.owner != "each":
            self.error(e.span, f"'{zone.name}' is not a zone each role has",
                       f"declare it with `owner: each`, or write just `{zone.name}`")
        return ir.ZoneRef(zone.name, owner, span=e.span, ty=self.zone_type(zone.name))

    def expr_field(self, e: ir.Field, scope, expect):
        obj = self.expr(e.obj, scope)
        if obj.ty is ANY:
            return self.typed(e, ANY, obj=obj)
        if isinstance(obj.ty, ZoneT) and obj.ty.board is not None:  # a space's mark: `s.terrain`
            board = self.rs.zones[obj.ty.board]
            if e.name not in board.marks:
                self.error(e.span, f"the spaces of '{board.name}' have no mark '{e.name}'",
                           did_you_mean(e.name, board.marks) or
                           ("marks: " + ", ".join(board.marks) if board.marks else
                            "a board's spaces are marked through its `marks:`, with a `map:` and `legend:` or "
                            "a graph's places"))
                return self.typed(e, ANY, obj=obj)
            return self.typed(e, board.marks[e.name], obj=obj)
        if not isinstance(obj.ty, CardT):
            self.error(e.span, f"only cards have fields; this is {obj.ty}")
            return self.typed(e, ANY, obj=obj)
        kinds = self.possible_kinds(obj.ty, self.field_types, e.name)
        types = set()
        missing = []
        for kind in sorted(kinds):
            t = self.field_types[kind].get(e.name)
            if t is None:
                missing.append(kind)
            else:
                types.add(t)
        if missing or not types:
            fields = sorted({f for k in kinds for f in self.field_types[k]})
            hint = did_you_mean(e.name, fields)
            if not hint and types:
                hint = (f"narrow first, e.g. `{_text(e.obj)} is {sorted(kinds - set(missing))[0]} and ...`, "
                        "or declare the zone's `holds:`")
            self.error(e.span, f"{' and '.join(missing) or 'these'} cards have no field '{e.name}'", hint)
            return self.typed(e, ANY, obj=obj)
        if len(types) > 1:
            self.error(e.span, f"field '{e.name}' has different types on different card types")
            return self.typed(e, ANY, obj=obj)
        return self.typed(e, types.pop(), obj=obj)

    def expr_call(self, e: ir.Call, scope: Scope, expect):
        rs = self.rs
        if e.name in rs.defines:
            define = rs.defines[e.name]
            args = [self.expr(a, scope, t) for a, (_, t) in zip(e.args, define.params)]
            args += [self.expr(a, scope) for a in e.args[len(define.params):]]
            for a, (p, t) in zip(args, define.params):
                if not self.named_board(a, "an argument") and t is not None and not t.fits(a.ty):
                    self.error(a.span, f"argument '{p}' of '{e.name}' must be {t}, but this is {a.ty}")
            ty = self.call_define(e.name, [a.ty for a in args], e.span)
            return ir.DefineCall(e.name, tuple(args), span=e.span, ty=ty)
        if e.name in CALLED:
            return self.builtin(e, scope)
        if e.name in rs.procedures:
            self.error(e.span, f"'{e.name}' is a procedure (it does things); call it on its own line")
        else:
            self.error(e.span, f"unknown function '{e.name}'",
                       did_you_mean(e.name, [*rs.defines, *CALLED]))
        return self.typed(e, ANY)

    def builtin(self, e: ir.Call, scope: Scope):
        """A call of a built-in, typed by its entry in the table (builtins.py)."""
        b = BUILTINS[e.name]
        context = ZoneT(self.all_kinds) if b.params[:1] in (("zone",), ("zone-or-list",), ("board",)) else None
        args = tuple(self.expr(a, scope, context if i == 0 else None) for i, a in enumerate(e.args[:1]))
        if b.params[1:2] == ("place",) and args and isinstance(args[0], ir.ZoneRef):  # a place of that board
            args += tuple(self.expr(a, scope, EnumT(args[0].zone)) for a in e.args[1:2])
        args += tuple(self.expr(a, scope) for a in e.args[len(args):])
        out = ir.BuiltinCall(e.name, args, span=e.span)
        if b.several and len(args) > 1:  # min(a, b, c)
            for a in args:
                if a.ty not in (INT, ANY):
                    self.error(a.span, f"{b.name}() compares numbers, not {a.ty}")
            return self.typed(out, INT)
        if len(args) != len(b.params):
            if b.params == ("list",):
                self.error(e.span, f"{b.name}() takes a list" + (" or several numbers" if b.several else ""))
            else:
                n = len(b.params)
                self.error(e.span, f"{b.name}() takes {n} argument{'s' if n != 1 else ''}, not {len(args)}")
            return self.typed(out, ANY if b.result in ("card", "zone", "zones") else _RESULT[b.result])
        ok = all(self.builtin_argument(b, kind, a) for kind, a in zip(b.params, args))
        if b.result == "card":  # top/bottom: a card of the types the zone holds
            return self.typed(out, CardT(args[0].ty.kinds) if ok and isinstance(args[0].ty, ZoneT) else ANY)
        if b.result in ("zone", "zones"):  # a space of the board (or a list of them)
            if not ok:
                return self.typed(out, ANY)
            first = args[0]
            space = ZoneT(first.ty.kinds, first.zone if isinstance(first.ty, BoardT) else first.ty.board)
            return self.typed(out, space if b.result == "zone" else ListT(space))
        return self.typed(out, _RESULT[b.result])

    def builtin_argument(self, b, kind: str, a: ir.Expr) -> bool:
        """Report an argument of the wrong kind; True if it fits."""
        ty = a.ty
        if ty is ANY:
            return kind != "board"
        if kind == "zone-or-list":
            fits, want = isinstance(ty, (ZoneT, BoardT, ListT)), "a zone or a list"
        elif kind == "zone":
            fits, want = isinstance(ty, ZoneT), "a zone"
        elif kind == "number":
            fits, want = ty == INT, ("a number" if b.name == "abs" else None)
            if not fits and want is None:
                self.error(a.span, f"a space is found by its column and row (numbers), not {ty}")
                return False
        elif kind == "card":
            fits, want = isinstance(ty, CardT), "a card"
        elif kind == "card-or-space":  # column(x), row(x): a card on a grid, or a grid's space
            space = isinstance(ty, ZoneT) and ty.board is not None
            if space and self.rs.zones[ty.board].kind != "grid":
                self.error(a.span, f"{b.name}() needs a grid: '{ty.board}' is a graph, whose places have no "
                                   f"{b.name}s")
                return False
            fits, want = isinstance(ty, CardT) or space, "a card on a board or a space of a grid"
        elif kind == "list":
            item = BOOL if b.result == "bool" else INT
            fits, want = ListT(item).fits(ty), f"a list of {item}s"
        elif kind == "role":
            fits, want = ty == ROLE, "a player (a role)"
        elif kind == "space":
            fits, want = isinstance(ty, ZoneT) and ty.board is not None, "a space of a board"
        elif kind == "place":
            fits, want = isinstance(ty, EnumT), "a place of the graph"
        else:  # a board: a zone declared `kind: grid`, named directly
            if isinstance(a, ir.ZoneRef) and isinstance(ty, BoardT):
                return True
            grids = [z.name for z in self.rs.zones.values() if z.board]
            self.error(a.span, f"{b.name}() needs a board (a zone with `kind: grid` or `kind: graph`), not {ty}",
                       "boards: " + ", ".join(grids) if grids else "declare one with `kind: grid` or `kind: graph`")
            return False
        if not fits:
            self.error(a.span, f"{b.name}() needs {want}, not {ty}")
        return fits

    def expr_unary(self, e: ir.Unary, scope, expect):
        if e.op == "not":
            return self.typed(e, BOOL, operand=self.expect(e.operand, scope, BOOL, "the operand of `not`"))
        return self.typed(e, INT, operand=self.expect(e.operand, scope, INT, "the operand of '-'"))

    def expr_binary(self, e: ir.Binary, scope: Scope, expect):
        op = e.op
        if op in ("and", "or"):
            left = self.expect(e.left, scope, BOOL, f"each side of `{op}`")
            inner = scope.child(self.narrowing(left, op == "and"))
            right = self.expect(e.right, inner, BOOL, f"each side of `{op}`")
            return self.typed(e, BOOL, left=left, right=right)
        if op in ("in", "not in"):
            left = self.expr(e.left, scope)
            right = self.expr(e.right, scope, ListT(left.ty) if left.ty not in (ANY, None) else None)
            if isinstance(right.ty, (ZoneT, BoardT)):
                if not isinstance(left.ty, CardT) and left.ty is not ANY:
                    self.error(e.left.span, f"only cards are in zones; this is {left.ty}")
            elif isinstance(right.ty, ListT):
                if not right.ty.item.fits(left.ty) and right.ty.item is not NONE:
                    self.error(e.span, f"a list of {right.ty.item} cannot hold {left.ty}")
            elif right.ty is not ANY:
                self.error(e.right.span, f"`{op}` needs a zone or a list on the right, not {right.ty}")
            return self.typed(e, BOOL, left=left, right=right)
        if op in ("==", "!="):
            left = self.expr(e.left, scope)
            right = self.expr(e.right, scope, left.ty)
            if isinstance(e.left, ir.Name) and left.ty is ANY and right.ty is not ANY:
                left = self.expr(e.left, scope, right.ty)
            if join(left.ty, right.ty) is None:
                self.error(e.span, f"comparing {left.ty} with {right.ty} is always {op == '!='}".lower())
            return self.typed(e, BOOL, left=left, right=right)
        if op == "+":
            left, right = self.expr(e.left, scope), self.expr(e.right, scope)
            if isinstance(left.ty, ListT) or isinstance(right.ty, ListT):
                ty = join(left.ty, right.ty)
                if ty is None:
                    self.error(e.span, f"cannot join {left.ty} and {right.ty}")
                return self.typed(e, ty or ANY, left=left, right=right)
            for side, orig in ((left, e.left), (right, e.right)):
                if side.ty not in (INT, ANY):
                    self.error(orig.span, f"'+' adds numbers (or joins lists), not {side.ty}")
            return self.typed(e, INT, left=left, right=right)
        what = "a comparison" if op in ("<", "<=", ">", ">=") else f"'{op}'"
        left = self.expect(e.left, scope, INT, f"each side of {what}")
        right = self.expect(e.right, scope, INT, f"each side of {what}")
        return self.typed(e, BOOL if op in ("<", "<=", ">", ">=") else INT, left=left, right=right)

    def expr_istype(self, e: ir.IsType, scope, expect):
        subject = self.expr(e.subject, scope)
        if e.kind not in self.rs.card_types:
            self.error(e.span, f"unknown card type '{e.kind}'", did_you_mean(e.kind, self.rs.card_types))
        elif isinstance(subject.ty, CardT) and e.kind not in subject.ty.kinds \
                and not (self.generic and self.generic[-1]):  # (a generic body's test may be for another call)
            self.error(e.span, f"this can never be a {e.kind} card (it is {subject.ty})")
        elif not isinstance(subject.ty, CardT) and subject.ty is not ANY:
            self.error(e.span, f"only cards have a card type; this is {subject.ty}")
        return self.typed(e, BOOL, subject=subject)

    def expr_ifexpr(self, e: ir.IfExpr, scope: Scope, expect):
        cond = self.expect(e.cond, scope, BOOL, "a condition")
        then = self.expr(e.then, scope.child(self.narrowing(cond, True)), expect)
        otherwise = self.expr(e.otherwise, scope.child(self.narrowing(cond, False)), expect)
        ty = join(then.ty, otherwise.ty)
        if ty is None:
            self.error(e.span, f"the two values differ in type: {then.ty} and {otherwise.ty}")
        out = self.typed(e, ty or ANY, cond=cond, then=then, otherwise=otherwise)
        return self.typed(out, ANY) if self.named_board(out, "chosen by `if`") else out

    def expr_case(self, e: ir.Case, scope: Scope, expect):
        subject = self.expr(e.subject, scope)
        sty = subject.ty
        arms, seen, result, has_else = [], set(), None, False
        for arm in e.arms:
            patterns = []
            for p in arm.patterns:
                cp = self.expr(p, scope, sty)
                if not isinstance(cp, (ir.Const, ir.EnumValue, ir.RoleRef)):
                    self.error(p.span, "a case pattern is a value: a name from the type, a role, a number, "
                                       "true or false")
                    continue
                if sty is not ANY and not sty.fits(cp.ty):
                    self.error(p.span, f"'{_text(p)}' is not a {sty}")
                key = cp.role if isinstance(cp, ir.RoleRef) else cp.value
                if key in seen:
                    self.error(p.span, f"'{key}' already has an arm")
                seen.add(key)
                patterns.append(cp)
            has_else = has_else or not arm.patterns
            value = self.expr(arm.value, scope, expect)
            if result is None:
                result = value.ty
            else:
                joined = join(result, value.ty)
                if joined is None:
                    self.error(arm.value.span, f"arms give different types: {result} and {value.ty}")
                result = joined or ANY
            arms.append(dataclasses.replace(arm, patterns=tuple(patterns), value=value))
        if not has_else:
            if isinstance(sty, EnumT):
                missing = [v for v in self.rs.enums[sty.name].values if v not in seen]
                if missing:
                    self.error(e.span, f"case does not cover {', '.join(missing)}",
                               "add arms for them, or an `else:` arm")
            elif sty == BOOL:
                if seen != {True, False}:
                    self.error(e.span, "case does not cover both true and false")
            elif sty == ROLE:
                missing = [r.name for r in self.rs.roles if r.name not in seen]
                if missing:
                    self.error(e.span, f"case does not cover {', '.join(missing)}",
                               "add arms for them, or an `else:` arm")
            elif sty is not ANY:
                self.error(e.span, f"a case on a {sty} needs an `else:` arm")
        out = self.typed(e, result or ANY, subject=subject, arms=tuple(arms))
        return self.typed(out, ANY) if self.named_board(out, "chosen by `case`") else out

    def expr_listexpr(self, e: ir.ListExpr, scope: Scope, expect):
        item_expect = expect.item if isinstance(expect, ListT) else None
        items = [self.expr(i, scope, item_expect) for i in e.items]
        items = [self.typed(i, ANY) if self.named_board(i, "in a list") else i for i in items]
        ty: Type = items[0].ty if items else NONE
        for item, orig in zip(items[1:], e.items[1:]):
            joined = join(ty, item.ty)
            if joined is None:
                self.error(orig.span, f"a list holds values of one type; this is {item.ty}, not {ty}")
            ty = joined or ANY
        return self.typed(e, ListT(ty), items=tuple(items))

    def expr_rangeexpr(self, e: ir.RangeExpr, scope, expect):
        low = self.expect(e.low, scope, INT, "the start of a range")
        high = self.expect(e.high, scope, INT, "the end of a range")
        return self.typed(e, ListT(INT), low=low, high=high)

    def expr_quantified(self, e: ir.Quantified, scope: Scope, expect):
        binder, inner = self.binder(e.binder, scope)
        kind = e.kind
        if kind in ("first", "last"):
            if len(binder.names) != 1:
                self.error(e.span, f"{kind}() binds one name, e.g. {kind}(c in hand where ...)")
                return self.typed(e, ANY, binder=binder)
            return self.typed(e, inner.lookup(binder.names[0]), binder=binder)
        if kind in ("exists", "count"):
            return self.typed(e, BOOL if kind == "exists" else INT, binder=binder)
        if kind == "list":
            value = self.expr(e.value, inner)
            return self.typed(e, ListT(value.ty), binder=binder, value=value)
        item = BOOL if kind in ("any", "all") else INT
        value = self.expect(e.value, inner, item, f"the values of {kind}()")
        return self.typed(e, item, binder=binder, value=value)

    # already-resolved nodes (a define body checked twice) pass through
    def expr_local(self, e, scope, expect):
        return e

    expr_var = expr_param = expr_enumvalue = expr_zoneref = expr_roleref = expr_local
    expr_definecall = expr_builtincall = expr_local


def _generic(params) -> bool:
    """Whether a definition's parameters take their types from each call (untyped, or `zone`)."""
    return any(t is None or isinstance(t, ZoneT) for _, t in params)


def _uncalled(declared: Type | None) -> Type:
    """A parameter's type in a definition no rule calls: as declared, or
    anything (a `zone` parameter too: its body is checked with the zones it is given)."""
    return ANY if declared is None or isinstance(declared, ZoneT) else declared


def _bound(declared: Type | None, given: Type) -> Type:
    """A parameter's type in the body. A declared `zone` says only that the
    argument is a zone: the body is checked against what that zone holds,
    like an untyped parameter's (a move into it, a card taken from it)."""
    if isinstance(declared, ZoneT):
        return given if isinstance(given, ZoneT) else ANY  # not a zone: reported at the call
    return declared or given


def _text(e: ir.Expr) -> str:
    if isinstance(e, (ir.Name, ir.Local, ir.Var)):
        return e.name
    if isinstance(e, ir.Const):
        return str(e.value)
    return "x"


def _chain(names: list[str]) -> str:
    """A call chain, its middle left out when it is long."""
    shown = names if len(names) <= 6 else [*names[:3], "…", *names[-2:]]
    return " -> ".join(shown)
