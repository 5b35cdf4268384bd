"""Triggers and play windows written out as the rules they stand for.

`trigger E(args)` becomes, before anything else is compiled:

    let the event's parameters = args
    for c in every card that carries an ability limited `once: per E`: c.A$used = false
    for c in every card carrying an ability answering E (card order):
      if c carries A and A's where: holds and A is not used:   # each ability, as declared
        [A's player chooses A: use: ... / pass]                # `optional:`
        c.A$used = true                                        # `once:`
        A's rules, with `this` the card

and `window E(args)` a loop in which the player (the event's first role
parameter) chooses a card and one of its abilities answering E, or passes.
What comes out is ordinary IR (loops, conditions, menus, decisions,
component state), so the optimiser, the flow lowering and the code
generator handle abilities with nothing of their own, and every handler
counts against the step limit as a loop's pass does.
"""
from __future__ import annotations

import dataclasses

from rulelang import ir
from rulelang.abilities import ABILITY_TYPE, carriers, used_flag
from rulelang.types import BOOL, ROLE, CardT, EnumT, ListT
from rulelang.walk import map_children

from .fold import rename_apart, rename_statements, substitute


class Abilities:
    def __init__(self, rs: ir.Ruleset, fresh):
        self.rs, self.fresh = rs, fresh
        self.carriers = {a: carriers(rs, a) for a in rs.abilities}

    def ruleset(self) -> ir.Ruleset:
        """The ruleset with its setup's and procedures' triggers written out (procedures are inlined or called)."""
        return dataclasses.replace(self.rs, setup=self.block(self.rs.setup), procedures=ir.frozen_map(
            {n: dataclasses.replace(p, body=self.block(p.body)) for n, p in self.rs.procedures.items()}))

    def mode(self, mode: ir.Mode) -> ir.Mode:
        """A mode with its setup's, steps' and watches' triggers written out."""
        return dataclasses.replace(
            mode, setup=self.block(mode.setup),
            round=tuple(dataclasses.replace(step, body=self.block(step.body)) for step in mode.round),
            watches=tuple(dataclasses.replace(w, body=self.block(w.body)) for w in mode.watches))

    def block(self, stmts: ir.Block) -> ir.Block:
        return tuple(self.stmt(s) for s in stmts)

    def stmt(self, s: ir.Stmt) -> ir.Stmt:
        if isinstance(s, ir.Trigger):
            return self.window(s) if s.window else self.trigger(s)
        return map_children(s, self.child)

    def child(self, n: ir.Node) -> ir.Node:
        """Statements anywhere below: in blocks, and in a menu's options."""
        if isinstance(n, ir.Stmt):
            return self.stmt(n)
        return n if isinstance(n, (ir.Expr, ir.Binder)) else map_children(n, self.child)

    # ------------------------------------------------------------ pieces
    def cards(self, ids: list[int]) -> ir.Const:
        kinds = frozenset(self.rs.cards[c].kind for c in ids)
        return ir.Const(list(ids), ty=ListT(CardT(kinds)))

    def bind(self, s: ir.Trigger) -> tuple[list[ir.Stmt], dict[str, ir.Expr]]:
        """The event's arguments in fresh locals, evaluated once, when it happens."""
        event = self.rs.events[s.event]
        lets, names = [], {}
        for (param, _), arg in zip(event.params, s.args):
            local = self.fresh(param)
            lets.append(ir.Let(local, arg, span=s.span))
            names[param] = ir.Local(local, span=s.span, ty=arg.ty)
        return lets, names

    def answering(self, event: str) -> list[ir.Ability]:
        return [a for a in self.rs.abilities.values() if a.on == event and self.carriers[a.name]]

    def used(self, a: ir.Ability, card: ir.Expr) -> ir.Expr:
        return ir.Field(card, used_flag(a.name), span=a.span, ty=BOOL)

    def resets(self, s: ir.Trigger) -> list[ir.Stmt]:
        """`once: per E`: every card's use of the ability comes back when E happens."""
        out = []
        for a in self.rs.abilities.values():
            if a.once == s.event and self.carriers[a.name]:
                c = self.fresh("c")
                card = ir.Local(c, ty=CardT(frozenset(self.rs.cards[i].kind for i in self.carriers[a.name])))
                out.append(ir.For(ir.Binder((ir.BinderGroup((c,), self.cards(self.carriers[a.name])),)),
                                  (ir.Assign(self.used(a, card), "=", ir.Const(False, ty=BOOL), span=s.span),),
                                  span=s.span))
        return out

    def applies(self, a: ir.Ability, card: ir.Expr, names: dict, all_cards: list[int]) -> ir.Expr:
        """The card carries the ability, its `where:` holds and its use is not spent."""
        parts = []
        if set(self.carriers[a.name]) != set(all_cards):
            parts.append(ir.Binary("in", card, self.cards(self.carriers[a.name]), ty=BOOL))
        if a.where is not None:
            parts.append(self.with_event(a.where, card, names))
        if a.once is not None:
            parts.append(ir.Unary("not", self.used(a, card), ty=BOOL))
        test: ir.Expr = ir.Const(True, ty=BOOL)
        for p in parts:
            test = p if test == ir.Const(True) else ir.Binary("and", test, p, ty=BOOL)
        return test

    def with_event(self, e: ir.Expr, card: ir.Expr, names: dict) -> ir.Expr:
        """An ability's expression with `this` and the event's parameters bound."""
        return substitute(rename_apart(e, self.fresh), {"this": card, **names})

    def run(self, a: ir.Ability, card: ir.Expr, names: dict) -> list[ir.Stmt]:
        """The ability's rules for one card: its use spent, then its statements."""
        renames = {"this": self.fresh("this"), **{p: self.fresh(p) for p in names}}
        lets = [ir.Let(renames["this"], card, span=a.span)] + \
            [ir.Let(renames[p], value, span=a.span) for p, value in names.items()]
        spent = [ir.Assign(self.used(a, card), "=", ir.Const(True, ty=BOOL), span=a.span)] if a.once else []
        return lets + spent + list(self.block(rename_statements(a.body, self.fresh, renames)))

    # ------------------------------------------------------------ trigger, window
    def trigger(self, s: ir.Trigger) -> ir.Stmt:
        lets, names = self.bind(s)
        out = lets + self.resets(s)
        abilities = self.answering(s.event)
        all_cards = sorted({c for a in abilities for c in self.carriers[a.name]})
        if all_cards:
            c = self.fresh("c")
            card = ir.Local(c, ty=CardT(frozenset(self.rs.cards[i].kind for i in all_cards)))
            branches = []
            for a in abilities:
                body = self.run(a, card, names)
                if a.optional is not None:
                    who = self.with_event(a.optional, card, names)
                    body = [ir.Menu(who, a.name, (ir.MenuOption("use", None, tuple(body), span=a.span),
                                                  ir.MenuOption("pass", None, (ir.Pass(span=a.span),), span=a.span)),
                                    span=a.span)]
                branches.append(ir.If(((self.applies(a, card, names, all_cards), tuple(body)),), span=s.span))
            out.append(ir.For(ir.Binder((ir.BinderGroup((c,), self.cards(all_cards)),)), tuple(branches),
                              span=s.span))
        return ir.If(((ir.Const(True, ty=BOOL), tuple(out) or (ir.Pass(span=s.span),)),), span=s.span)

    def window(self, s: ir.Trigger) -> ir.Stmt:
        """Until the player passes (or nothing answers): a menu of play or pass,
        then which card and which of its abilities."""
        lets, names = self.bind(s)
        abilities = self.answering(s.event)
        all_cards = sorted({c for a in abilities for c in self.carriers[a.name]})
        if not all_cards:
            return ir.If(((ir.Const(True, ty=BOOL), tuple(lets) or (ir.Pass(span=s.span),)),), span=s.span)
        who = next(v for (p, t), v in zip(self.rs.events[s.event].params, names.values()) if t == ROLE)
        done, c, a_name = self.fresh("done"), self.fresh("c"), self.fresh("ability")
        card = ir.Local(c, ty=CardT(frozenset(self.rs.cards[i].kind for i in all_cards)))
        which = ir.Local(a_name, ty=EnumT(ABILITY_TYPE))

        def is_(a):
            return ir.Binary("==", which, ir.EnumValue(ABILITY_TYPE, a.name, ty=EnumT(ABILITY_TYPE)), ty=BOOL)
        playable: ir.Expr = ir.Const(False, ty=BOOL)
        for a in abilities:
            one = ir.Binary("and", is_(a), self.applies(a, card, names, all_cards), ty=BOOL)
            playable = one if playable == ir.Const(False) else ir.Binary("or", playable, one, ty=BOOL)
        binder = ir.Binder((ir.BinderGroup((c,), self.cards(all_cards)),
                            ir.BinderGroup((a_name,), ir.Const([a.name for a in abilities],
                                                               ty=ListT(EnumT(ABILITY_TYPE))))), playable,
                           types=(card.ty, which.ty))
        dispatch = ir.If(tuple((is_(a), tuple(self.run(a, card, names))) for a in abilities), span=s.span)
        choose = ir.Choose(who, binder, s.event, (dispatch,), span=s.span)
        menu = ir.Menu(who, s.event, (ir.MenuOption("play", None, (choose,), span=s.span),
                                      ir.MenuOption("pass", None, (ir.Assign(ir.Local(done, ty=BOOL), "=",
                                                                             ir.Const(True, ty=BOOL), span=s.span),),
                                                    span=s.span)), span=s.span)
        loop = ir.While(ir.Binary("and", ir.Unary("not", ir.Local(done, ty=BOOL), ty=BOOL),
                                  ir.Quantified("exists", binder, ty=BOOL), ty=BOOL), (menu,), span=s.span)
        out = lets + [ir.Let(done, ir.Const(False, ty=BOOL), span=s.span), loop]
        return ir.If(((ir.Const(True, ty=BOOL), tuple(out)),), span=s.span)
