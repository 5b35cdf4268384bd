"""Totals, largest and smallest values over bound things in English: "the total rank of the cards in the table",
"the largest value of the top card of any player's bid", "the total, over every player, of …", "the total of the
numbers K from 1 to 6 such that …"."""
from __future__ import annotations

import re

from rulelang import ir
from rulelang.types import ROLE
from rulelang.walk import walk

from .clauses import first_words, replace_first_words
from .document import em
from .english import Context, build, group_noun, inside, item_type
from .normalize import split_type_tests
from .nouns import printed_field, value_words
from .phrases import Bound, Cases, Group, Op, Phrase, Scope, Seq, Words, bound, inline, settle
from .phrases import words as seq
from .quantifiers import domain_tail, named_such_that, over, quantified_list, things


def aggregate(ctx: Context, e: ir.Quantified, what: str) -> Phrase:
    """"the total rank of the cards in the table", else "the total of X over every card *c* in Z"."""
    b = e.binder
    if isinstance(e.value, ir.Field) and isinstance(e.value.obj, ir.Local) and len(b.names) == 1 \
            and e.value.obj.name == b.names[0]:
        many = things(ctx, b, "the many")
        if many is not None:
            return seq(_aggregate_head(what, printed_field(ctx.rs, e.value.name)), many)
    if isinstance(e.value, ir.Var) and isinstance(e.value.owner, ir.Local) and len(b.names) == 1 \
            and e.value.owner.name == b.names[0]:  # the total *bid* of the players that are not *p*
        many = things(ctx, b, "the many")
        if many is not None:
            return seq(f"the {what} {em(value_words(ctx.rs, e.value.name))} of ", many)
    if what == "total" and isinstance(e.value, ir.Local) and len(b.names) == 1 and e.value.name == b.names[0]:
        # "the total of the numbers K from 1 to 6 such that …", not "the total, over every number K …, of K"
        return seq("the total of ", quantified_list(ctx, e))
    of_each = _of_each(ctx, b, e.value, what) if e.value is not None else None
    if of_each is not None:
        return of_each
    of_any = _of_any(ctx, b, e.value, what) if e.value is not None else None
    if of_any is not None:
        return of_any
    if e.value is None:
        return over(ctx, e, f"the {what} of ", " over ")
    return _over_first(ctx, e.binder, e.value, what, "over" if what == "total" else "for")


def _over_first(ctx: Context, b: ir.Binder, over_each: ir.Expr, what: str, joiner: str) -> Phrase:
    """"the total, over every player, of the number of dice in that player's cup": the things before
    the value that names one of them, so that a player reads "that player" after "every player"."""
    every = things(ctx, b, "every")
    each = every if every is not None else named_such_that(ctx, b, "each")
    value = build(inside(ctx, b), over_each)
    head = seq(f"the {what}, {joiner} ", each, bound(", of "))
    if isinstance(value, (Op, Cases)):  # "of (its power + its effort) + 2 × …", "of (4 × F if …; otherwise 0)"
        return seq(head, Group(value))
    return Scope(head, value)  # runs to the right: "(the total, over …, of the amount of …) + …"


def _of_each(ctx: Context, b: ir.Binder, value: ir.Expr, what: str) -> Phrase | None:
    """A value said as "the W of" a thing, over things with a noun: "the largest final Fame of the
    players", "the total Power of the skill cards in …", not "the largest of the final Fame of that
    player for every player" (which names "that player" before saying which)."""
    if len(b.names) != 1:
        return None
    said = build(inside(ctx, b), value)
    if not (isinstance(said, Seq) and len(said.parts) == 2 and isinstance(said.parts[1], Bound)
            and said.parts[1].name == b.names[0] and type(said.parts[0]) is Words):
        return None
    owned = re.fullmatch(r"the ((?:[\w*’'-]+ ){0,3}[\w*’'-]+) of ", said.parts[0].text)
    many = things(ctx, b, "the many")
    if owned is None or many is None:
        return None
    return seq(_aggregate_head(what, owned.group(1)), many)


def _of_any(ctx: Context, b: ir.Binder, value: ir.Expr, what: str) -> Phrase | None:
    """The largest or smallest of a value over things of a kind, the thing said as "any" where the value
    names it: "the largest value of the top card of any player's bid", not "the largest, for every player,
    of the value of the top card of their bid". Not a total ("the total of any …" is no sum), nor things
    with conditions (a relative clause inside "…'s bid" cannot be read)."""
    name = b.names[0]
    if what == "total" or len(b.names) != 1 or split_type_tests(b)[1] \
            or sum(isinstance(x, ir.Local) and x.name == name for x in walk(value)) != 1:
        return None
    d = b.groups[0].domain
    ty = (b.types[0] if b.types else None) or item_type(d)
    n = group_noun(ctx, ty, d)
    tail = domain_tail(ctx, d, n, True) if n is not None else ()
    if n is None or tail and ty == ROLE:  # not "any player, in turn clockwise from …'s bid"
        return None
    thing = f"any {n.one}" + (inline(settle(seq(*tail))) if tail else "")
    said = build(ctx.with_refs({name: Bound(thing, name=name, noun=n)}), value)
    lead = first_words(said)
    if lead is None or not lead.startswith("the ") or tail and not inline(settle(said)).endswith(thing):
        return None  # (a thing with words after its noun must end the phrase: nothing may seem said of those)
    return replace_first_words(said, f"the {what} {lead[4:]}")


def _aggregate_head(what: str, value: str) -> str:
    """"the total rank of ", "the largest *bid* of "; a total of numbers is "the sum of the numbers of "
    ("the total number of" is a count)."""
    if what == "total" and value == "number":
        return "the sum of the numbers of "
    return f"the {what} {value} of "
