"""Decisions in English: "that player chooses a playing card in their hand that they may play, then
moves it to the trick"; a yes-or-no choice by what it does ("you may roll again"); a second thing of
a kind chosen while the first is in play ("another picture card", then "the first" and "the second")."""
from __future__ import annotations

import re
from dataclasses import replace

from rulelang import ir
from rulelang.walk import walk

from .document import Item, em
from .english import Context, block, inside, lower_first, nested, say, slots, statement, subject, verb
from .grammar import third_person
from .nouns import Noun, words
from .normalize import normal_binder
from .phrases import Bound, Phrase, Words, bound
from .phrases import words as seq
from .statements import introduce, then


@statement(ir.Choose)
def stmt_choose(ctx: Context, s: ir.Choose) -> list[Item]:
    b = s.binder
    if len(b.names) == 1 and b.where is None and isinstance(b.groups[0].domain, ir.ListExpr) and \
            [i.value for i in b.groups[0].domain.items if isinstance(i, ir.Const)] in ([False, True], [True, False]):
        return [_yes_or_no(ctx, s, b.names[0])]
    s = replace(s, binder=normal_binder(s.binder, ctx.rs))
    inner, what = _second_of_its_kind(ctx, s.binder)
    body = block(inner, s.body)
    head = slots(ctx, verb(ctx, s.role, "choose"), " ", what)  # the decision's name is for programs: the appendix
    first, _, rest = body[0].text.partition(" ") if len(body) == 1 and not body[0].children else ("", "", "")
    said, you = subject(ctx, s.role)
    if first.lower() in IMPERATIVES and not you:  # "that player chooses …, then moves it", one subject
        body = [Item(f"{third_person(first.lower()).capitalize()} {rest}")]
    elif len(body) == 1 and not body[0].children and isinstance(said, (Words, Bound)):
        named = said.text[:1].upper() + said.text[1:] + " "  # "… chooses a player, then asks to join …"
        verb_ = body[0].text[len(named):].partition(" ")[0]
        if body[0].text.startswith(named) and re.fullmatch(r"[a-z]+s", verb_) and not verb_.endswith("ss"):
            body = [Item(body[0].text[len(named):])]
    return [then(inner, head, body)]


def _second_of_its_kind(ctx: Context, b: ir.Binder) -> tuple[Context, Phrase]:
    """What a decision introduces, and the context inside it: a thing chosen while one of its kind is
    in play is "another picture card …", then "the first" and "the second" (not "that …" and "the
    other …", which read the wrong way round once both are turned)."""
    inner = inside(ctx, b)
    new = inner.refs.get(b.names[0]) if len(b.names) == 1 else None
    n = new.noun if new is not None else None
    if new is None or not isinstance(n, Noun) or n.one == "player" or new.text != f"the other {n.one}":
        return inner, introduce(ctx, b, "a")  # (a player is "another player" already: the chooser is one)
    outer = next((k for k, r in ctx.refs.items() if r.text == f"that {n.one}"), None)
    if outer is None:
        return inner, introduce(ctx, b, "a")
    first = ctx.refs[outer]
    refs = {**inner.refs, outer: Bound(f"the first {n.one}", name=first.name, noun=first.noun, scope=first.scope),
            new.name: Bound(f"the second {n.one}", name=new.name, noun=n, scope=new.scope)}
    return replace(inner, refs=refs), introduce(ctx, b, "another")


IMPERATIVES = {"move", "draw", "shuffle", "turn", "put", "set", "add", "subtract", "roll", "deal", "show", "pick",
               "take", "say", "tell", "swap"}  # the statements' verbs


def _yes_or_no(ctx: Context, s: ir.Choose, name: str) -> Item:
    """A yes-or-no choice, said by what it does: "you may roll die I again" when only a yes acts;
    else "you choose yes or no (*again*)" and what follows (the decision's name is the appendix's)."""
    said, you = subject(ctx, s.role)
    act = s.body[0] if len(s.body) == 1 and isinstance(s.body[0], ir.If) else None
    if act is not None and len(act.branches) == 1 and act.otherwise is None:
        cond, body = act.branches[0]
        if isinstance(cond, ir.Local) and cond.name == name and not _uses(body, name):
            done = block(ctx, body)
            if len(done) == 1 and not done[0].children:  # "you may roll die I again."
                return say(ctx, said, bound(" may "), Words(lower_first(ctx, done[0].text).rstrip(".")))
            return nested(ctx, seq(said, bound(" may")), done)
    head = seq(said, bound(f" {'choose' if you else 'chooses'} yes or no ({em(words(name))})"))
    inner = ctx.with_refs({name: Bound(em(words(name)), name=name)})
    return then(inner, head, block(inner, s.body))


def _uses(stmts: ir.Block, name: str) -> bool:
    return any(isinstance(n, ir.Local) and n.name == name for st in stmts for n in walk(st))


