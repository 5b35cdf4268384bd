"""Statements in English: `stmt_<class>` makes the list items of each IR statement class.

A sentence is built with `self.say(...)`: its own words as strings, its
slots as IR expressions; a nested block goes under it (`self.nested`).
"""
from __future__ import annotations

import re
from dataclasses import replace

from rulelang import ir
from rulelang.abilities import ABILITY_TYPE
from rulelang.types import BOOL, ROLE, BoardT, EnumT, ListT, ZoneT

from . import grammar
from .document import Item, clean, em, sentence
from .normalize import normal_binder, substitute
from .nouns import field_noun, kinds_noun, words
from .phrases import Join, Phrase, Words, bound
from .phrases import words as seq


def holds_statements(s: ir.Stmt) -> bool:
    """Whether a statement holds statements of its own."""
    return any(isinstance(getattr(s, f), tuple) and any(isinstance(x, ir.Stmt) or isinstance(x, tuple)
                                                        for x in getattr(s, f)) for f in s.__dataclass_fields__)


POSITION = {"top": "", "bottom": " at the bottom", "left": " at the left end", "right": " at the right end"}


class Statements:
    """The `stmt_*` methods of `English` (see english.py for the conventions)."""

    def stmt_move(self, s: ir.Move) -> list[Item]:
        if s.every is not None:
            s = replace(s, every=normal_binder(s.every, self.rs))
            what = self.things(s.every, "every") or self.such_that(self.named(s.every, "every"), s.every)
        else:
            what = seq(*[self.moved(c) for c in s.cards]) if len(s.cards) == 1 else \
                self.join_fixed([self.moved(c) for c in s.cards])
        return [self.say("move ", what, " to ", s.dest, POSITION[s.position])]

    def moved(self, e: ir.Expr) -> Phrase:
        if isinstance(e.ty, (ZoneT, BoardT)):
            return seq(bound("all cards in "), self.phrase(e))
        return self.phrase(e)

    def join_fixed(self, items: list[Phrase]) -> Phrase:
        return Join("and", tuple(items))

    def stmt_draw(self, s: ir.Draw) -> list[Item]:
        one = isinstance(s.count, ir.Const) and s.count.value == 1
        n = self.zone_noun(s.source)
        if one:
            return [self.say(f"draw {n.a()} from ", s.source, " to ", s.dest, POSITION[s.position])]
        if not isinstance(s.count, ir.Const):  # draw cards …, as many as the hand size option
            return [self.say(f"draw {n.many} from ", s.source, " to ", s.dest, POSITION[s.position],
                             ", as many as ", s.count, " (fewer if ", s.source, " runs out)")]
        return [self.say("draw ", s.count, f" {n.many} from ", s.source, " to ", s.dest, POSITION[s.position],
                         " (fewer if ", s.source, " runs out)")]

    def stmt_shuffle(self, s: ir.Shuffle) -> list[Item]:
        return [self.say("shuffle ", s.zone)]

    def stmt_flip(self, s: ir.Flip) -> list[Item]:
        if s.face is None:
            return [self.say("turn ", s.card, " over")]
        return [self.say(f"turn face {s.face} ", s.card)]

    def stmt_let(self, s: ir.Let) -> list[Item]:
        return [self.say(f"let {em(words(s.name))} be ", s.value)]

    def stmt_assign(self, s: ir.Assign) -> list[Item]:
        value, op = s.value, s.op
        if op == "=" and isinstance(value, ir.Binary) and value.op in ("+", "-") and value.left == s.target:
            op, value = ("+=" if value.op == "+" else "-="), value.right  # x = x + 1: add 1 to x
        target = self.target(s.target)
        if op == "+=":
            return [self.say("add ", value, " to ", target)]
        if op == "-=":
            return [self.say("subtract ", value, " from ", target)]
        if value.ty == BOOL and not isinstance(value, ir.Const):  # a condition's truth, not the condition
            return [self.say("set ", target, " to whether ", value)]
        return [self.say("set ", target, " to ", value)]

    def target(self, e: ir.Expr) -> Phrase:
        """What is set: a variable or a card's state, named (a true/false one too, not as a condition)."""
        if isinstance(e, ir.Field):
            return seq(f"the {field_noun(e.name)} of ", self.phrase(e.obj))
        if isinstance(e, ir.Local):
            return self.refs.get(e.name) or Words(em(words(e.name)))
        if isinstance(e, ir.Var) and e.owner is not None:  # a player's own: "that player's *run*"
            return self.owned(em(words(e.name)), e.owner)
        return Words(em(words(e.name)))

    def stmt_if(self, s: ir.If) -> list[Item]:
        items = []
        for i, (cond, body) in enumerate(s.branches):
            head = self.slots("if " if i == 0 else "otherwise, if ", cond)
            items.append(self.nested(head, self.block(body)))
        if s.otherwise is not None:
            items.append(self.nested(Words("otherwise"), self.block(s.otherwise)))
        return items

    def stmt_while(self, s: ir.While) -> list[Item]:
        body = self.block(s.body)
        if isinstance(s.cond, ir.Const) and s.cond.value is True and not s.until:
            ends = "the step or the game ends" if self.mode is not None and self.mode.watches else "the game ends"
            return [self.nested(Words(f"repeat until {ends}"), body)]
        return [self.nested(self.slots("repeat until " if s.until else "repeat while ", s.cond), body)]

    def stmt_repeat(self, s: ir.Repeat) -> list[Item]:
        if isinstance(s.count, ir.Const) and isinstance(s.count.value, int):
            return [self.nested(Words(f"repeat {grammar.times(s.count.value)}"), self.block(s.body))]
        counted = s.count.args[0] if isinstance(s.count, ir.BuiltinCall) and s.count.name == "size" else None
        if counted is not None and isinstance(counted.ty, (ZoneT, BoardT)):  # counted once, before the first time
            return [self.nested(self.slots(f"repeat once for each {self.zone_noun(counted).one} in ", counted),
                                self.block(s.body))]
        if isinstance(s.count, (ir.Local, ir.Var, ir.Param)):
            return [self.nested(self.slots("repeat ", s.count, " times"), self.block(s.body))]
        return [self.nested(self.slots("repeat as many times as ", s.count), self.block(s.body))]

    def stmt_for(self, s: ir.For) -> list[Item]:
        s = replace(s, binder=normal_binder(s.binder, self.rs))
        head, named = self.introduce(s.binder, "every")
        with self.naming(s.binder, allow_noun=not named):
            body = self.block(s.body)
        return [self.nested(self.slots("for ", head, self.ordering(s.binder)), body)]

    def introduce(self, b: ir.Binder, det: str) -> tuple[Phrase, bool]:
        """(the phrase a statement introduces its bound names with, whether it prints them):
        "a soldier in the Gauntlet that can still act", or "two cards *a* and *b* in your hand"."""
        taken = {r.noun.one for r in self.refs.values() if r.noun is not None}
        things = self.things(b, det)
        if things is not None and self.item_noun(b.types[0]).one not in taken:
            return things, False
        return self.such_that(self.named(b, det), b), True

    def stmt_choose(self, s: ir.Choose) -> list[Item]:
        s = replace(s, binder=normal_binder(s.binder, self.rs))
        what, named = self.introduce(s.binder, "a")
        with self.naming(s.binder, allow_noun=not named):
            body = self.block(s.body)
        head = self.slots(self.verb(s.role, "choose"), " ", what, f" (decision {em(words(s.label))})")
        return [self.then(head, body)]

    def then(self, head: Phrase, body: list[Item]) -> Item:
        return self.nested(head, body, then=", then")

    def stmt_take(self, s: ir.Take) -> list[Item]:
        """An automatic choice: made by the rule (or at random), not by a player."""
        s = replace(s, binder=normal_binder(s.binder, self.rs))
        if s.which == "random":
            what, named = self.introduce(s.binder, "a")
            with self.naming(s.binder, allow_noun=not named):
                body = self.block(s.body)
            return [self.then(self.slots("pick ", what, " at random"), body)]
        domain = s.binder.groups[0].domain
        which = s.which
        if self.is_row(domain):
            which = "left-most" if which == "first" else "right-most"
        what, named = self.introduce(s.binder, f"the {which}")
        with self.naming(s.binder, allow_noun=not named):
            body = self.block(s.body)
        return [self.then(self.slots("take ", what, self.ordering(s.binder), " (no player chooses)"), body)]

    def stmt_roll(self, s: ir.Roll) -> list[Item]:
        """`roll 2 d6 into xs` -> "Roll two dice (d6); call the result *xs*."."""
        if s.count is None:
            dice: Phrase = Words("a die (d6)" if s.die == "d6" else f"the {words(s.die)}")
        elif isinstance(s.count, ir.Const) and isinstance(s.count.value, int):
            n = s.count.value
            dice = Words(f"{'one die' if n == 1 else grammar.number_word(n) + ' dice'} ({words(s.die)})")
        else:
            dice = seq(self.phrase(s.count), bound(f" dice ({words(s.die)})"))
        if s.declares:
            return [self.say("roll ", dice, "; call the result ", self.target(s.target))]
        return [self.say("roll ", dice, "; set ", self.target(s.target), " to the result")]

    def stmt_menu(self, s: ir.Menu) -> list[Item]:
        options = []
        for opt in s.options:
            head = Words(em(words(opt.name))) if opt.guard is None else \
                self.slots(f"{em(words(opt.name))} (only if ", opt.guard, ")")
            options.append(self.nested(head, self.block(opt.body)))
        head = self.slots(self.verb(s.role, "choose"), f" one of the following (decision {em(words(s.label))})")
        return [self.nested(head, options)]

    def stmt_endgame(self, s: ir.EndGame) -> list[Item]:
        head, then = self.ending(s)
        if s.kind == "end":  # who wins is said once, under the end of the game
            return [Item(sentence(head))]
        return [Item(sentence(f"{head}; {then}" if then else head))]

    def ending(self, s: ir.EndGame) -> tuple[str, str | None]:
        """("the Challenger wins (finished)", what it means for the others, if anything)."""
        reason = f" ({em(words(s.reason))})" if s.reason else ""
        if s.kind == "end":
            return f"the game ends{reason}", self.ranking_phrase()
        if s.kind == "draw":
            return f"the game ends in a draw{reason}", None
        if isinstance(s.role.ty, ListT):  # a team: the players named, or every player of a list
            team = self.phrase(s.role)
            if isinstance(s.role, ir.ListExpr):
                return f"{self.inline(team)} {s.kind}{reason}", None
            return f"every player in {self.inline(team)} {s.kind}s{reason}", None
        who, you = self.subject(s.role)
        verb = s.kind if you else s.kind + "s"
        head = f"{self.inline(who)} {verb}{reason}"
        others = [r for r in (self.mode.roles if self.mode else [r.name for r in self.rs.roles])
                  if not (isinstance(s.role, ir.RoleRef) and r == s.role.role)]
        if not others or not isinstance(s.role, ir.RoleRef):
            return head, None
        other = "lose" if s.kind == "win" else "win"
        if len(others) == 1:
            them = others[0]
            return head, f"{self.role(them)} {other if them == self.you else other + 's'}"
        return head, f"every other player {other}s"

    def ranking_phrase(self) -> str:
        """How `end game` places the players: by the mode's `ranking:`, or by score."""
        keys = self.mode.ranking if self.mode is not None else ()
        if not keys:
            return "the highest score wins; a tie is a draw"
        parts = []
        for k in keys:
            define = self.rs.defines.get(k.name)
            what = re.sub(r"{(\w+)}", "the player", clean(define.text)) if define and define.text \
                else em(words(k.name))
            for article in ("the player's ", "the "):  # "the highest" says which already
                if what.startswith(article):
                    what = what[len(article):]
                    break
            what = what.removesuffix(" of the player")  # "the final Fame of {p}": "the highest final Fame"
            parts.append(f"the {'lowest' if k.lowest else 'highest'} {what}")
        return f"the player with {parts[0]} wins" + "".join(f"; a tie goes to the one with {p}" for p in parts[1:]) \
            + ("; a tie on all of these is a draw" if len(parts) > 1 else "; a tie is a draw")

    def stmt_trigger(self, s: ir.Trigger) -> list[Item]:
        """`trigger`: the cards' abilities answer a moment; `window`: a player may play them."""
        event = self.rs.events[s.event]
        args = {p: a for (p, _), a in zip(event.params, s.args)}
        moment = self.template(event.text, args, False) if event.text else Words(em(words(s.event)))
        unsaid = [a for p, a in args.items() if "{" + p + "}" not in (event.text or "")]
        if unsaid:  # what the event is about, where its text does not say it: "a hit (that player, 2)"
            listed = [x for i, a in enumerate(unsaid) for x in ((Words(", ", hard=True),) if i else ()) + (self.phrase(a),)]
            moment = seq(moment, Words(" (", hard=True), *listed, Words(")", hard=True))
        if s.window:
            role = next(a for (_, t), a in zip(event.params, s.args) if t == ROLE)
            who, you = self.subject(role)
            kinds = self.window_kinds(s.event)
            if kinds:  # "may use their red cards": the cards say what they do (Abilities)
                return [self.say(who, f" may use {'your' if you else 'their'} {kinds_noun(self.rs, kinds).many}"
                                 ", one at a time, until ", "you pass" if you else "passing")]
            return [self.say(who, " may use abilities that answer ", moment, ", one at a time, until ",
                             "you pass" if you else "passing")]
        return [self.say("at ", moment, ", every ability on a card that answers it takes effect, card by card")]

    def window_kinds(self, event: str) -> list[str]:
        """The card types whose every card, and no other, carries the abilities that answer an event
        (by `abilities:`), or [] when the abilities are carried otherwise."""
        answering = [a for a in self.rs.abilities.values() if a.on == event]
        kinds = [k for k, ct in self.rs.card_types.items() if any(a.name in ct.abilities for a in answering)]
        if not answering or not kinds:
            return []
        by_field = any(f.type == EnumT(ABILITY_TYPE) and c.values.get(f.name) in {a.name for a in answering}
                       for c in self.rs.cards for f in self.rs.card_types[c.kind].fields)
        return [] if by_field else kinds

    def stmt_eliminate(self, s: ir.Eliminate) -> list[Item]:
        reason = f" ({em(words(s.reason))})" if s.reason else ""
        who, you = self.subject(s.role)
        return [self.say(who, f" {'are' if you else 'is'} out of the game{reason}")]

    def stmt_callproc(self, s: ir.CallProc) -> list[Item]:
        proc = self.rs.procedures[s.name]
        args = {p: a for (p, _), a in zip(proc.params, s.args)}
        if len(proc.body) == 1 and not proc.text and not holds_statements(proc.body[0]):  # said where it is used
            return self.stmt(substitute(proc.body[0], args))
        self.terms.setdefault(s.name)
        if proc.text:
            return [self.say(self.template(proc.text, args, False))]
        if not s.args:
            return [self.say(f"carry out {em(words(s.name))}")]
        return [self.say(f"carry out {em(words(s.name))} for ", self.join_fixed([self.phrase(a) for a in s.args]))]

    def stmt_pass(self, s: ir.Pass) -> list[Item]:
        return [Item("Do nothing.")]

    def watch(self, w: ir.Watch) -> Item:
        """`watch:` as the rulebook's "as soon as …": what happens, where it happens."""
        steps = {st.name: i for i, st in enumerate(self.mode.round, 1)} if self.mode is not None else {}
        then = f"go on with step {steps[w.then]}, {clean(w.then)}" if w.then in steps else \
            "go on with the next step"
        body = self.block(w.body) + [Item(sentence(f"then {then}"))]
        if w.text:
            return Item(sentence(clean(w.text).rstrip(".") + ":"), body)
        return self.nested(self.slots("as soon as ", w.when, ", stop the step"), body)
