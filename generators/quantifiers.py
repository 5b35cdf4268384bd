"""Quantifiers in English: `exists`, `all`, `count`, `first`, lists and totals over bound things.

A bound thing goes by its noun when one is bound and its conditions can be
said of it ("a refresh card in the Reserve is face up", "every soldier in
the Gauntlet is at the end of its lane", "the number of soldiers that are
at the end of their lane"); else its name is printed ("there are two cards
*a* and *b* in your hand such that …").
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TypeGuard

from rulelang import ir
from rulelang.types import ROLE, BoardT, EnumT, ZoneT
from rulelang.walk import walk

from . import grammar
from .clauses import (_count_bound as _bound_count, first_words, merge, only_subject, relative, replace_first_words,
                      replace_subject)
from .english import (Context, build, expression, group_noun, inside, item_noun, item_type, may_be_none, negation,
                      placeholder)
from .calls import is_row
from .normalize import seats_clockwise, split_type_tests
from .onecard import binder_card, one_holder, told_apart
from .nouns import Noun, join, possessive, printed_field, printed_value
from .phrases import Bound, Clause, Intro, Join, Phrase, Scope, Seq, Words, bound, inline, nodes, settle
from .phrases import words as seq

AGGREGATES = {"sum": "total", "min": "smallest", "max": "largest"}
ORDER = {"row": ("from the bottom row up", "from the top row down"),  # row 1 is the bottom, column 1 the left
         "column": ("from left to right", "from right to left")}


@expression(ir.Quantified)
def expr_quantified(ctx: Context, e: ir.Quantified) -> Phrase:
    if e.kind in ("all", "any"):
        return for_each(ctx, e, "every" if e.kind == "all" else "at least one")
    if e.kind in ("first", "last"):
        return pick(ctx, e, e.kind)
    if e.kind in AGGREGATES:
        from .totals import aggregate  # (totals are said with the things of this module)
        return aggregate(ctx, e, AGGREGATES[e.kind])
    return {"exists": quantified_exists, "count": quantified_count, "list": quantified_list}[e.kind](ctx, e)


def conditions(ctx: Context, b: ir.Binder) -> list[Phrase]:
    """What a binder's `where` says beyond the types its noun already names, names printed."""
    inner = inside(ctx, b)
    return [build(inner, r) for r in split_type_tests(b)[1]]


def things(ctx: Context, b: ir.Binder, det: str, skip: int = 0, held: bool = False,
           source: bool = False) -> Phrase | None:
    """One bound name as a noun phrase, its conditions as relative clauses: "a soldier in the
    Gauntlet that can still act" (`det`: "a", "every", "at least one", "many", "the many", or
    "the " + an adjective); None where the name must be printed (several names, no noun, a
    condition not about it alone). `skip`: conditions already said elsewhere (the first ones);
    `held`: said of a hand's owner ("the player has a card that …"), without " in the player's hand";
    `source`: the place they are taken from ("pawns from the box")."""
    ty = (b.types[0] if b.types else None) or item_type(b.groups[0].domain)
    n = group_noun(ctx, ty, b.groups[0].domain) if len(b.names) == 1 else None
    if n is None:
        return None
    many = det in ("many", "the many")
    said = conditions(ctx, b)[skip:]
    card = binder_card(ctx.rs, b) if det in ("a", "at least one", "the") and not skip else None
    if card is not None:  # "the two of clubs", its other conditions as before
        said = [build(inside(ctx, b), r) for r in card[1]]
    other = next((c for c in said if _not_the_one(c, b.names[0], n)), None) if det in OTHER else None
    relatives = [relative(c, b.names[0], many) for c in said if c is not other]
    if any(r is None for r in relatives):
        return None
    head = Intro(card[0] if card is not None else
                 OTHER[det].format(one=n.one, many=n.many) if other is not None else _head(ctx, n, det, 1),
                 name=b.names[0], noun=n,
                 scope=id(b), many=many)
    tail = () if held else domain_tail(ctx, b.groups[0].domain, n, det in ("a", "at least one"), source)
    if det in ("the first", "the last") and b.groups[0].domain == ir.BuiltinCall("players", ()):
        tail = (bound(" in seat order"),)  # "the first player in seat order that …": first by what, said
    d = b.groups[0].domain
    if relatives and (source or isinstance(d, ir.BuiltinCall) and d.name == "clockwise"):
        # "every player that …, in turn …", "enemies whose kind is normal from the box"
        return seq(Scope(seq(head, bound(" ")), merge("and", relatives)), *tail)
    phrase = seq(head, *tail)
    return Scope(seq(phrase, bound(" ")), merge("and", relatives)) if relatives else phrase


# "a player that is not that player": another player; "the players that are not the player": the other players
OTHER = {"a": "another {one}", "every": "every other {one}", "many": "other {many}", "the many": "the other {many}"}


def _not_the_one(c: Phrase, name: str, n: Noun) -> bool:
    """`c` says the bound thing is not the one of its noun already in scope ("… is not that player")."""
    return isinstance(c, Clause) and c.verb == "is not" and isinstance(c.subject, Bound) \
        and c.subject.name == name and isinstance(c.rest, Bound) and c.rest.noun == n


def _head(ctx: Context, n: Noun, det: str, count: int) -> str:
    """"a soldier", "every soldier", "two action cards", "the many soldiers": never "another" or
    "other", which would say that a thing already in scope is not among them."""
    if count > 1:
        return f"{'the ' + det[4:] + ' ' if det.startswith('the ') else ''}{grammar.number_word(count)} {n.many}"
    if det == "a":
        return n.a()
    if det in ("every", "each"):
        return f"every {n.one}"
    if det in ("many", "the many"):
        return ("the " if det == "the many" else "") + n.many
    return f"{det} {n.one}"


def named(ctx: Context, b: ir.Binder, det: str, relatives: dict | None = None, joiner: str = "and") -> Phrase:
    """The bound things introduced: "two action cards in your hand", "a number X among …", "a
    trial card in the Chamber and two action cards in your hand" (`det`: "a", "every", "each",
    "many" or "the " + an adjective); a name is printed only for what has no noun (X). `relatives`:
    what is said of one thing alone, after its noun ("a man on the board that is yours"); `joiner`: the
    word between the first group and the rest ("no man … with a space …")."""
    types = dict(zip(b.names, b.types or ()))
    groups = []
    for i, g in enumerate(b.groups):
        if i:  # a later group's list may name an earlier one's things: "… on that action card"
            ctx = inside(ctx, ir.Binder(b.groups[i - 1:i], types=tuple(types.get(x) for x in b.groups[i - 1].names)))
        names = join([placeholder(x) for x in g.names])
        ty = types.get(g.names[0]) or item_type(g.domain)
        n = group_noun(ctx, ty, g.domain)
        number = item_noun(ctx, ty)
        if n is None and number is not None and number.one == "number" and not may_be_none(g.domain, ctx.rs):
            head = f"{_head(ctx, number, det if i == 0 else 'a', len(g.names))} {names}"
        elif n is None:
            head = f"{'each ' if det in ('every', 'each') and i == 0 else ''}{names}"
        elif i > 0:  # the determiner is the first group's: "a trial card and two action cards"
            head = _head(ctx, n, "a", len(g.names))
        else:
            head = _head(ctx, n, det, len(g.names))
        # a thing introduced alone: later mentions may refer back to it (`pronouns`)
        intro = Intro(head, name=g.names[0], noun=n, scope=id(b), many=det in ("many", "the many")) \
            if n is not None and len(g.names) == 1 else head
        group = seq(intro, *domain_tail(ctx, g.domain, n, i > 0 or det in ("a", "at least one")))
        said = (relatives or {}).get(g.names[0]) if len(g.names) == 1 else None
        groups.append(seq(group, bound(" "), merge("and", said)) if said else group)
    if len(groups) == 1:
        return groups[0]
    if joiner != "and":
        return seq(groups[0], bound(f" {joiner} "), groups[1] if len(groups) == 2 else Join("and", tuple(groups[1:])))
    return Join("and", tuple(groups))


def named_such_that(ctx: Context, b: ir.Binder, det: str, joiner: str = "and") -> Phrase:
    """Several bound things and their conditions: what is said of one thing alone as a relative clause
    after its noun, the rest after "such that" — "a man on the board that is yours and a space of the
    board that is empty such that …" (was "… such that that man is yours, that space is empty and …")."""
    said = conditions(ctx, b)
    names = set(b.names)
    alone: dict[str, list[Phrase]] = {}
    rest = []
    alone_in_group = {g.names[0] for g in b.groups if len(g.names) == 1}
    for c in said:
        mentioned = {n.name for n in nodes(c) if isinstance(n, Bound) and n.name in names}
        name = mentioned.pop() if len(mentioned) == 1 else None
        r = relative(c, name, det in ("many", "the many")) if name in alone_in_group else None
        if name is not None and r is not None:
            alone.setdefault(name, []).append(r)
        else:
            rest.append(c)
    if rest and len(b.names) == 1:  # "such that its cost is … and either …", not "whose cost is … such that …"
        alone, rest = {}, said
    head = named(ctx, b, det, alone, joiner)
    return Scope(seq(head, bound(" such that ")), merge("and", rest)) if rest else head


def domain_tail(ctx: Context, d: ir.Expr, n: Noun | None = None, one: bool = False, source: bool = False) -> tuple:
    """What follows a bound thing's noun: " in the Chamber", " among …"; nothing for
    every player; ", in turn clockwise from *start*" for the players in seat order; the
    words after the noun of a list named by it ("a space next to the Encounter", not "a
    space among the spaces next to the Encounter"); a kind's values listed, "a suit (spades,
    hearts, diamonds or clubs)" where `one` of them is meant."""
    if isinstance(d, ir.BuiltinCall) and d.name == "players":
        return ()
    if isinstance(d, ir.TypeValues) and d.enum in ctx.rs.enums and n is not None:
        values = [printed_value(ctx.rs, EnumT(d.enum), v) for v in ctx.rs.enums[d.enum].values]
        return (bound(f" ({join(values, 'or' if one else 'and')})"),) if len(values) > 1 else ()
    if isinstance(d, ir.BuiltinCall) and d.name == "clockwise":
        return (bound(", in turn clockwise from "), build(ctx, d.args[0]))
    if on_board(d):  # "every space of the track", not "every space among the spaces of the track"
        return (bound(" of "), build(ctx, d.args[0]))
    said = domain(ctx, d)
    lead = first_words(said)
    for many in (f"the {n.many} ", f"every {n.one} ") if n is not None else ():  # "a line of 3 spaces …"
        if lead is None or isinstance(said, Join) or isinstance(d.ty, (ZoneT, BoardT)):
            break
        if lead.lower().startswith(many):  # "a soldier next to the gobbot" of "the Soldiers next to the gobbot"
            return (bound(" "), replace_first_words(said, lead[len(many):]))
        if lead.lower() == many[:-1] and isinstance(said, Seq):  # "the action cards" and what follows: " in the Chamber"
            return said.parts[1:]
    return (bound(f" {'from' if source else domain_word(ctx, d)} "), said)


def domain_word(ctx: Context, d: ir.Expr) -> str:
    if isinstance(d.ty, BoardT):
        return "on"  # "the drawbridge on the board"
    return "in" if isinstance(d.ty, ZoneT) else "from" if isinstance(d, ir.RangeExpr) else "among"


def on_board(d: ir.Expr) -> TypeGuard[ir.BuiltinCall]:
    """The spaces of a board: the things on it have no order a player sees (no "first")."""
    return isinstance(d, ir.BuiltinCall) and d.name == "spaces" and len(d.args) == 1


def domain(ctx: Context, d: ir.Expr) -> Phrase:
    if isinstance(d, ir.RangeExpr):
        return seq(build(ctx, d.low), " to ", build(ctx, d.high))
    return build(ctx, d)


def ordering(ctx: Context, b: ir.Binder) -> str:
    """The order bound things are taken in, said of them: ", from the bottom row up, then from left to right"."""
    if not b.order:
        return ""
    said = []
    for k in b.order:
        v = k.value
        of_it = len(b.names) == 1 and (isinstance(v, ir.BuiltinCall) and v.args == (ir.Local(b.names[0]),)
                                       or isinstance(v, ir.Field) and v.obj == ir.Local(b.names[0]))
        seats = seats_clockwise(v, ctx.rs) if len(b.names) == 1 and not k.descending else None
        if seats is not None and seats[0] == ir.Local(b.names[0]):  # "in turn clockwise from the dealer"
            said.append("clockwise from " + inline(settle(build(ctx, seats[1]))))
        elif of_it and isinstance(v, ir.BuiltinCall) and v.name in ORDER:
            said.append(ORDER[v.name][k.descending])
        elif of_it and isinstance(v, ir.Field):
            said.append(f"by {printed_field(ctx.rs, v.name)}, {'largest' if k.descending else 'smallest'} first")
        else:
            inner = inside(ctx, b)
            key = inline(settle(build(inner, v)))
            said.append(f"by {key}, {'largest' if k.descending else 'smallest'} first")
    return ", " + ", then ".join(said)


def such_that(ctx: Context, head: Phrase, b: ir.Binder) -> Phrase:
    said = conditions(ctx, b)
    return Scope(seq(head, bound(" such that ")), merge("and", said)) if said else head


def quantified_exists(ctx: Context, e: ir.Quantified) -> Phrase:
    b = e.binder
    said = conditions(ctx, b)
    # "a refresh card in the Reserve is face up"; with a relative clause before the verb it would read
    # "a card whose slot is the slot is relic": that is "there is a card that is relic and whose slot …"
    if len(b.names) == 1 and len(said) == 1 and isinstance(said[0], Clause) and only_subject(said[0], b.names[0]) \
            and not isinstance(said[0].rest, Bound):  # not "a player whose … is not that player"
        subject = things(ctx, b, "a", skip=1)  # a refresh card in the Reserve is face up
        if subject is not None:
            return replace_subject(said[0], subject)
    owner = _hand_owner(ctx, b)
    held = things(ctx, b, "a", held=True) if owner is not None else None
    if owner is not None and held is not None:  # "the player has a card that they may play", not "there is … in …"
        return Clause(build(ctx, owner), "has", held)
    place = b.groups[0].domain
    if len(b.names) == 1 and isinstance(place, ir.Local):  # "that space holds an adventurer whose seat …"
        held = things(ctx, b, "a", held=True)
        if held is not None:
            return Clause(build(ctx, place), "holds", held)
    subject = things(ctx, b, "a")
    if subject is not None:
        return Clause(Words("there"), "is", subject)
    verb = "is" if len(b.groups[0].names) == 1 else "are"  # there is a number x … and a number y …
    return Clause(Words("there"), verb, named_such_that(ctx, b, "a"))


@negation(ir.Quantified)
def not_quantified(ctx: Context, e: ir.Quantified) -> Phrase | None:
    """No things of several groups: "there is no man on the board that is yours with a space of the board
    that is empty such that …", not "there is no man … such that there is a space …" nor "no man … and a
    space …" (which reads as two things that are not there)."""
    b = e.binder
    if e.kind != "exists" or len(b.groups) < 2 or len(b.groups[0].names) > 1:
        return None  # several things first ("no two cards"): `normalize.negate` nests them
    return Clause(Words("there"), "is", named_such_that(ctx, b, "no", "with"))


def _hand_owner(ctx: Context, b: ir.Binder) -> ir.Expr | None:
    """The player whose hand one bound thing is looked for in: what a player has is in their hand."""
    d = b.groups[0].domain
    if len(b.names) == 1 and isinstance(d, ir.ZoneRef) and d.owner is not None and ctx.rs.zones[d.zone].kind == "hand":
        return d.owner
    return None


def for_each(ctx: Context, e: ir.Quantified, det: str) -> Phrase:
    """"every soldier in the Gauntlet is at the end of its lane", or "for every card *c* in Z, …"."""
    b = e.binder
    inner = inside(ctx, b)
    value = build(inner, e.value)
    if len(b.names) == 1 and isinstance(value, Clause) and only_subject(value, b.names[0]):
        rest = value.rest
        lead = first_words(rest) if rest is not None else None
        if det == "every" and value.verb == "has" and rest is not None and lead is not None and lead.startswith("no "):
            nobody = things(ctx, b, "no")  # "no player has unscored boxes", not "every player has no …"
            if nobody is not None:
                return Clause(nobody, "has", replace_first_words(rest, lead[3:]))
        subject = things(ctx, b, det)
        if subject is not None:
            return replace_subject(value, subject)
    owned = _owned_by_each(ctx, b, value, det) or _field_of_each(ctx, b, value, det)
    if owned is not None:
        return owned
    head = named_such_that(ctx, b, "every" if det == "every" else det)
    return Scope(seq(bound("for "), head, bound(", ")), value)


def _owned_by_each(ctx: Context, b: ir.Binder, value: Phrase, det: str) -> Clause | None:
    """"every player's score sheet is empty", not "for every player, that player's score sheet is empty":
    a condition on what each thing has, where the thing is named by its noun alone."""
    if not (len(b.names) == 1 and b.where is None and isinstance(value, Clause) and isinstance(value.subject, Seq)):
        return None
    first = value.subject.parts[0]
    if not (isinstance(first, Bound) and first.name == b.names[0] and first.text.endswith("'s")
            and _bound_count(value, b.names[0]) == 1):
        return None
    who = things(ctx, b, det)
    if not isinstance(who, Words) or " " in who.text[len(det) + 1:]:  # "every player", nothing after it
        return None
    return replace_subject(value, Seq((Words(possessive(who.text)),) + value.subject.parts[1:]))


def _field_of_each(ctx: Context, b: ir.Binder, value: Phrase, det: str) -> Clause | None:
    """"the suit of every playing card in your hand is hearts", not "for every playing card in your hand, the
    suit of that playing card is hearts": a condition on one field of each thing."""
    if not (len(b.names) == 1 and b.where is None and isinstance(value, Clause) and isinstance(value.subject, Seq)
            and len(value.subject.parts) == 2 and _bound_count(value, b.names[0]) == 1):
        return None
    field, it = value.subject.parts
    if not (type(field) is Words and re.fullmatch(r"the [\w ]+ of ", field.text) and isinstance(it, Bound)
            and it.name == b.names[0]):
        return None
    every = things(ctx, b, det)
    return replace_subject(value, seq(field, every)) if isinstance(every, (Words, Seq, Intro)) else None


def quantified_count(ctx: Context, e: ir.Quantified) -> Phrase:
    subject = things(ctx, e.binder, "many")
    if subject is not None:
        return seq("the number of ", subject)
    return such_that(ctx, seq("the number of ", named(ctx, e.binder, "many")), e.binder)


def pick(ctx: Context, e: ir.Quantified, which: str) -> Phrase:
    """"the first …"; in a row "the left-most …"; in numbers written smallest first, "the smallest …";
    in an order of the rules' own, by it: "the playing card in the trick whose strength is the highest"."""
    if e.binder.order:
        return ranked(ctx, e.binder, which)
    over = e.binder.groups[0].domain
    if is_row(ctx, over):
        which = "left-most" if which == "first" else "right-most"
    elif on_board(over) or isinstance(over.ty, BoardT):  # where one thing is meant: "the space of the track whose …"
        return things(ctx, e.binder, "the") or named_such_that(ctx, e.binder, "the")
    elif _ascending(over):
        which = "smallest" if which == "first" else "largest"
    subject = things(ctx, e.binder, "the" if one_holder(ctx.rs, e.binder) else f"the {which}")
    if subject is not None:
        return subject
    b = e.binder
    if len(b.names) == 1 and b.where is None and item_noun(ctx, b.types[0] if b.types else None) is None:
        return seq(f"the {which} of ", domain(ctx, over))  # no noun to name it by: not "Q among …"
    return named_such_that(ctx, b, f"the {which}")


def ranked(ctx: Context, b: ir.Binder, which: str) -> Phrase:
    """The first (or last) thing in the binder's order, said by its keys: "whose strength is the highest",
    then the tie: "(the first of them, if several)"."""
    inner = inside(ctx, b)
    keys = []
    for k in b.order:
        high = k.descending == (which == "first")
        key = Clause(build(inner, k.value), "is", Words("the highest" if high else "the lowest"))
        said = relative(key, b.names[0], False) if len(b.names) == 1 else None
        keys.append(said if said is not None else seq(bound("such that "), key))
    head = things(ctx, replace(b, order=()), "the")
    if head is not None and conditions(ctx, b) and keys and not _such_that(keys[0]):  # "whose suit is … and whose value …"
        keys[0] = seq(bound("and "), keys[0])
    head = head or named_such_that(ctx, replace(b, order=()), "the")
    end = "left-most" if is_row(ctx, b.groups[0].domain) and which == "first" else \
        "right-most" if is_row(ctx, b.groups[0].domain) else which
    tie = () if told_apart(ctx.rs, b) else (Words(f" (the {end} of them, if several)", bound=True),)
    ranks = [x for i, r in enumerate(keys) for x in ((bound(", then "),) if i else ()) + (r,)]
    return seq(Scope(seq(head, bound(" ")), seq(*ranks)), *tie)


def _such_that(p: Phrase) -> bool:
    return isinstance(p, Seq) and p.parts[0] == bound("such that ")


def quantified_list(ctx: Context, e: ir.Quantified) -> Phrase:
    b = e.binder
    if isinstance(e.value, ir.Local) and len(b.names) == 1 and e.value.name == b.names[0]:
        if b.where is None and not b.order and len(b.groups) == 1 and isinstance(b.groups[0].domain, ir.RangeExpr):
            return build(ctx, b.groups[0].domain)  # `[n for n in 1..k]` is the numbers from 1 to k: no letter for them
        return things(ctx, b, "the many") or _lettered(ctx, b) or named_such_that(ctx, b, "the many")
    return over(ctx, e, "the list of ", " for ")


def _lettered(ctx: Context, b: ir.Binder) -> Phrase | None:
    """Things said by a condition that is no relative clause, named by their letter where "they" cannot
    say them (things, or players a condition names twice): "the players Q such that Q faces the room this
    round and Q's *team* is Q", not "the players such that that player …" (one named after many)."""
    ty = (b.types[0] if b.types else None) or item_type(b.groups[0].domain)
    n = group_noun(ctx, ty, b.groups[0].domain) if len(b.names) == 1 else None
    said = split_type_tests(b)[1]
    twice = any(sum(isinstance(x, ir.Local) and x.name == b.names[0] for x in walk(r)) > 1 for r in said)
    if n is None or not said or ty == ROLE and not twice:  # players named once a condition: "they"
        return None  # (things introduced as many stay "that soldier", never "it": a letter says them)
    letter = placeholder(b.names[0])
    inner = ctx.with_refs({b.names[0]: Bound(letter, name=b.names[0])})
    head = seq(f"the {n.many} {letter}", *domain_tail(ctx, b.groups[0].domain))  # "among the players *left*"
    return Scope(seq(head, bound(" such that ")), merge("and", [build(inner, r) for r in said]))


def over(ctx: Context, e: ir.Quantified, head: str, joiner: str) -> Phrase:
    inner = inside(ctx, e.binder)
    value = build(inner, e.value)
    every = things(ctx, e.binder, "every")  # "for every other player", not "for every player such that that player is not …"
    if every is not None and e.binder.where is not None:
        return Scope(seq(head, value, bound(joiner)), every)  # runs on to the right, as "such that …" does
    return such_that(ctx, seq(head, value, joiner, named(ctx, e.binder, "each")), e.binder)


def _ascending(e: ir.Expr) -> bool:
    """A list of numbers written smallest first (`[0, 1, 2]`, `1..6`): its first is its smallest."""
    if isinstance(e, ir.RangeExpr):
        return True
    if isinstance(e, ir.ListExpr) and all(isinstance(i, ir.Const) and type(i.value) is int for i in e.items):
        values = [i.value for i in e.items]
        return values == sorted(values)
    return False
