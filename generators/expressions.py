"""Expressions in English: an `@expression` function builds the phrase of each IR expression class.

Conditions are `Clause`s (subject, verb, rest), so that they negate ("the
deck is not empty", "no refresh card is face up"), take a quantifier as
subject ("every soldier in the Gauntlet is at the end of its lane") and
merge ("the Action Deck and the Action Discard Pile are empty"): see
clauses.py; calls (of defines and built-ins) are in calls.py, quantifiers in
quantifiers.py.
"""
from __future__ import annotations

import re
from dataclasses import fields, replace

from rulelang import ir
from rulelang.types import BOOL, ROLE, BoardT, CardT, ListT, ZoneT
from . import grammar
from .calls import plural_zone, two_players
from .counts import counted
from .clauses import first_words, merge, merge_things, negate, operands, replace_first_words
from .document import Item, clean, em, plain, sentence
from .english import (Context, build, expression, is_current, negated, negation, phrase, placeholder, role_ref, zone,
                      zone_noun)
from .marks import marks
from .values import flag_clause
from .normalize import seats_clockwise
from .onecard import named_in_and
from .nouns import possessive, printed_field, printed_value, type_noun, value_words, words
from .phrases import Bound, Cases, Clause, Join, Op, Phrase, Scope, Words, bound, edges, inline, lay, settle
from .phrases import words as seq

COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least"}
HOLDS_AS = {"==": "exactly as many {} as ", "!=": "not as many {} as ", "<": "fewer {} than ",
            "<=": "at most as many {} as ", ">": "more {} than ", ">=": "at least as many {} as "}
HOLDS = {"==": "exactly {n}", "!=": "other than {n}", "<": "fewer than {n}", "<=": "at most {n}",
         ">": "more than {n}", ">=": "at least {n}"}
ARITH = {"+": ("+", 1), "-": ("−", 1), "*": ("×", 2), "/": ("÷", 2), "%": ("mod", 2)}
SAME = {"column": "in the same column as", "row": "in the same row as"}

# ------------------------------------------------------------ atoms


@expression(ir.Const)
def expr_const(ctx: Context, e: ir.Const) -> Phrase:
    if e.value is None:
        return Words("none")
    if isinstance(e.value, bool):
        return Words("true" if e.value else "false")
    if isinstance(e.value, str):
        return Words(f"“{clean(e.value)}”")
    return Words(str(e.value))


@expression(ir.Local)
def expr_local(ctx: Context, e: ir.Local) -> Phrase:
    ref = ctx.refs.get(e.name) or Bound(placeholder(e.name), name=e.name)
    flag = ctx.flags.get(e.name)
    if flag is not None and flag[0] is ref:  # a term's true/false parameter, as its words state it
        return flag[1]
    return Clause(ref, "is on") if e.ty == BOOL else ref


@expression(ir.Param)
def expr_param(ctx: Context, e: ir.Param) -> Phrase:
    name = Words(f"the {em(words(e.name))} option")
    return Clause(name, "is on") if e.ty == BOOL else name


@negation(ir.Param)
def not_param(ctx: Context, e: ir.Param) -> Phrase | None:
    return Clause(Words(f"the {em(words(e.name))} option"), "is off") if e.ty == BOOL else None


@expression(ir.EnumValue)
def expr_enumvalue(ctx: Context, e: ir.EnumValue) -> Phrase:
    return Words(printed_value(ctx.rs, e.ty, e.value))


@expression(ir.ZoneRef)
def expr_zoneref(ctx: Context, e: ir.ZoneRef) -> Phrase:
    return zone(ctx, e.zone, e.owner)


@expression(ir.RoleRef)
def expr_roleref(ctx: Context, e: ir.RoleRef) -> Phrase:
    return Words("you") if e.role == ctx.you else role_ref(ctx, e.role)


@expression(ir.Field)
def expr_field(ctx: Context, e: ir.Field) -> Phrase:
    if e.ty == BOOL:
        return flag_clause(ctx, e)
    verb = marks(ctx.rs).get(e.name)
    if verb is not None:  # the player who played the card, as everyone saw: nothing is written on it
        return seq(f"the player who {verb} ", build(ctx, e.obj))
    return seq(f"the {printed_field(ctx.rs, e.name)} of ", build(ctx, e.obj))


# ------------------------------------------------------------ operators


@expression(ir.Unary)
def expr_unary(ctx: Context, e: ir.Unary) -> Phrase:
    if e.op == "not":
        return negation_of(ctx, e.operand)
    return seq("−", build(ctx, e.operand))


def negation_of(ctx: Context, e: ir.Expr) -> Phrase:
    """`not e` in words: the node's own `not_<class>`, or its clause negated."""
    special = negated(ctx, e)
    return special if special is not None else negate(build(ctx, e))


@expression(ir.Binary)
def expr_binary(ctx: Context, e: ir.Binary) -> Phrase:
    op = e.op
    named = named_in_and(ctx.rs, e) if op == "and" else None
    if named is not None:  # "the playing card is the queen of spades"
        card, name, rest = named
        return merge("and", [Clause(build(ctx, card), "is", Words(name))] + [build(ctx, x) for x in rest])
    if op in ("and", "or"):
        return merge(op, [build(ctx, x) for x in operands(e, op)])
    if op in COMPARE:
        return compare(ctx, e.left, op, e.right)
    if op in ("in", "not in"):
        verb = "is" if op == "in" else "is not"
        if isinstance(e.right, ir.ListExpr):
            return Clause(build(ctx, e.left), verb, Join("or", tuple(build(ctx, i) for i in e.right.items)))
        where = "in" if isinstance(e.right.ty, (ZoneT, BoardT)) else "among"
        return Clause(build(ctx, e.left), f"{verb} {where}", build(ctx, e.right))
    if op == "+" and isinstance(e.ty, ListT):  # lists put together: their items, in order
        return merge_things([build(ctx, x) for x in operands(e, "+")])
    seats = seats_clockwise(e)
    if seats is not None:  # not the modulo a program computes it by
        return seq("the number of seats from ", build(ctx, seats[1]), " clockwise to ", build(ctx, seats[0]))
    if op == "+" and isinstance(e.right, ir.IfExpr) and e.right.otherwise == ir.Const(0):  # normalize: a bonus
        return seq(build(ctx, e.left), bound(", plus "), build(ctx, e.right.then), bound(" if "),
                   build(ctx, e.right.cond))
    symbol, level = ARITH[op]
    left, right = build(ctx, e.left), build(ctx, e.right)
    if op in ("+", "*") and edges(left)[1] == "scope" and edges(right) == (None, None):
        left, right = right, left  # "b + the total bid of the players that …": the open part last
    arith = Op(symbol, level, left, right)
    return seq(arith, bound(" (rounded down)")) if op == "/" else arith


def agree(ctx: Context, left: ir.Expr, right: ir.Expr, same: bool) -> Phrase:
    """Two conditions that hold together (`a == b`), as a rule says it: "the colour of the man is white
    if the player is White, and black otherwise", not "… white exactly when the player is White" (a
    formula, not a rule)."""
    said, other = build(ctx, left), _otherwise(ctx, left)
    when = build(ctx, right) if same else _otherwise(ctx, right)
    if not (isinstance(said, Clause) and isinstance(other, Clause) and said.subject == other.subject and said.verb):
        return Scope(seq(said, bound(" exactly when ")), when)
    aux = said.verb.split(" ")[0]
    rest = other.verb[len(aux):].strip() if other.verb.split(" ")[0] == aux else other.verb
    otherwise = Words(rest) if other.rest is None else seq(bound(rest + " "), other.rest) if rest else other.rest
    head = seq(said.rest, bound(" if ")) if said.rest is not None else bound("if ")
    # it runs on to its end, as "such that …" does: in a coordination it goes last, or on a line of its own
    return Clause(said.subject, said.verb, Scope(head, seq(when, bound(", and "), otherwise, bound(" otherwise"))))


def _otherwise(ctx: Context, e: ir.Expr) -> Phrase:
    """A condition's negation; a test of one of two values is a test of the other ("is black", not
    "is not white")."""
    if isinstance(e, ir.Binary) and e.op == "==" and isinstance(e.right, (ir.EnumValue, ir.RoleRef)):
        values = _two_values(ctx, e.right)
        if values is not None:
            return build(ctx, replace(e, right=values[1] if values[0] == e.right else values[0]))
    return negation_of(ctx, e)


def _two_values(ctx: Context, v: ir.Expr) -> tuple[ir.Expr, ir.Expr] | None:
    """The two values of a kind of two (a colour of two, the players of a game of two), else None."""
    if isinstance(v, ir.EnumValue) and v.enum in ctx.rs.enums and len(ctx.rs.enums[v.enum].values) == 2:
        a, b = ctx.rs.enums[v.enum].values
        return ir.EnumValue(v.enum, a, ty=v.ty), ir.EnumValue(v.enum, b, ty=v.ty)
    roles = ctx.mode.roles if ctx.mode is not None else tuple(r.name for r in ctx.rs.roles)
    if isinstance(v, ir.RoleRef) and two_players(ctx) and len(roles) == 2:
        return ir.RoleRef(roles[0], ty=v.ty), ir.RoleRef(roles[1], ty=v.ty)
    return None


THERE_ARE = {"==": "", "!=": "not ", "<": "fewer than ", "<=": "at most ", ">": "more than ", ">=": "at least "}
THERE_IS_ONE = {"==": "only one", "!=": "more than one", "<": "no", "<=": "at most one", ">": "more than one",
                ">=": "at least one"}


def compare(ctx: Context, left: ir.Expr, op: str, right: ir.Expr) -> Phrase:
    there = counted(ctx, left, op, right)
    if there is not None:
        return there
    if left == ir.BuiltinCall("size", (ir.BuiltinCall("players", ()),)) and isinstance(right, ir.Const) \
            and type(right.value) is int:  # "there are 2 players", not "the number of players is 2"
        if right.value == 1:
            return Clause(Words("there"), "is", Words(f"{THERE_IS_ONE[op]} player"))
        return Clause(Words("there"), "are", Words(f"{THERE_ARE[op]}{right.value} players"))
    if isinstance(left, ir.BuiltinCall) and left.name == "size" and isinstance(left.args[0].ty, (ZoneT, BoardT)):
        n = zone_noun(ctx, left.args[0])
        if not isinstance(right, ir.Const):  # holds fewer sergeants than the number of …
            many = plural_zone(ctx, left.args[0])
            return Clause(build(ctx, left.args[0]), "hold" if many else "holds",
                          seq(HOLDS_AS[op].format(n.many), build(ctx, right)), many=many)
        one = right.value == 1 and op in ("==", "!=", "<=", ">=", ">")  # "more than 1 pawn", as "more than one pawn"
        many = plural_zone(ctx, left.args[0])
        return Clause(build(ctx, left.args[0]), "hold" if many else "holds",
                      seq(HOLDS[op].format(n=""), build(ctx, right), f" {n.one if one else n.many}"), many=many)
    if op in ("==", "!=") and isinstance(left, ir.Field) and left.ty == ROLE and isinstance(left.obj.ty, CardT) \
            and (right.ty == ROLE or right == ir.Const(None)) and left.name not in marks(ctx.rs):
        # a card's player is whose it is: "the top disc of that space belongs to the player", not "its side is"
        if isinstance(right, ir.Const) and right.value is None:
            return Clause(build(ctx, left.obj), "belongs to", Words("no one" if op == "==" else "a player"))
        return Clause(build(ctx, left.obj), "belongs to" if op == "==" else "does not belong to", build(ctx, right))
    if left.ty == BOOL and right.ty == BOOL and not isinstance(right, ir.Const):  # two switches agree
        return agree(ctx, left, right, op == "==")
    if left.ty == BOOL and isinstance(right, ir.Const) and isinstance(right.value, bool):
        return build(ctx, left) if right.value == (op == "==") else negation_of(ctx, left)
    if op in ("==", "!=") and isinstance(right, ir.Const) and right.value is None:
        has = _has(ctx, left)  # "the player has a *team*", not "the player's *team* is not none"
        if has is not None:
            return has if op == "!=" else negate(has)
    if op in ("==", "!=") and isinstance(left, ir.Binary) and left.op == "%" and left.right == ir.Const(2) \
            and isinstance(right, ir.Const) and right.value in (0, 1):  # "*rolled* is odd", not "mod 2 is 1"
        return Clause(build(ctx, left.left), COMPARE[op], Words("odd" if right.value else "even"))
    if op in ("==", "!=") and _same_function(left, right):
        verb = "is" if op == "==" else "is not"
        if isinstance(left, ir.BuiltinCall):
            return Clause(build(ctx, left.args[0]), f"{verb} {SAME[left.name]}", build(ctx, right.args[0]))
        have = "has" if op == "==" else "does not have"
        return Clause(build(ctx, left.obj), f"{have} the same {printed_field(ctx.rs, left.name)} as",
                      build(ctx, right.obj))
    best = _best_among(left, op, right)
    if best is not None:  # "the highest roll of their team is the largest among *left*"
        return Clause(build(ctx, left), "is", seq(f"the {best[0]} among ", build(ctx, best[1])))
    if op == "<=" and right == ir.Const(0) and _counts(ctx.rs, left):
        op = "=="  # a count is never below 0: "is 0", not "is at most 0"
    many = _plural_field(ctx, left)  # "the Usage cubes of the encounter card are more than 0"
    said = "is fewer than" if op == "<" and many and _counts(ctx.rs, left) else COMPARE[op]  # things counted: fewer
    return Clause(build(ctx, left), grammar.agree(said, many), build(ctx, right), many=many)


def _best_among(left: ir.Expr, op: str, right: ir.Expr) -> tuple[str, ir.Expr] | None:
    """("largest", D) where `left == max(f(q) for q in D)` and `left` is f of something: the value
    compared with the same value of each of D, said once ("… is the largest among D"), not
    "… is the largest of the highest roll of that player's team for every player among D".
    A value said by its own name ("the largest *rolled* of the players") stays as it is."""
    if op != "==" or not (isinstance(right, ir.Quantified) and right.kind in ("max", "min") and right.value is not None
                          and len(right.binder.names) == 1 and right.binder.where is None):
        return None
    name = right.binder.names[0]
    if isinstance(right.value, (ir.Field, ir.Var)) or not _matches(right.value, left, name, {}):
        return None
    return ("largest" if right.kind == "max" else "smallest"), right.binder.groups[0].domain


def _matches(pattern, e, name: str, bound: dict) -> bool:
    """`e` is `pattern` with every `Local(name)` standing for one same expression."""
    if isinstance(pattern, ir.Local) and pattern.name == name:
        return bound.setdefault("it", e) == e
    if type(pattern) is not type(e):
        return False
    if isinstance(pattern, tuple):
        return len(pattern) == len(e) and all(_matches(p, x, name, bound) for p, x in zip(pattern, e))
    if not isinstance(pattern, ir.Node):
        return pattern == e
    return all(_matches(getattr(pattern, f.name), getattr(e, f.name), name, bound)
               for f in fields(pattern) if f.compare)


def _counts(rs: ir.Ruleset, e: ir.Expr) -> bool:
    """A number of things (never below 0): a size, a count, or a term that is one."""
    if isinstance(e, ir.DefineCall) and e.name in rs.defines:
        return _counts(rs, rs.defines[e.name].body)
    if isinstance(e, ir.Quantified) and e.kind == "sum" and e.value is not None:  # a total of counts
        return _counts(rs, e.value)
    return isinstance(e, ir.BuiltinCall) and e.name == "size" or isinstance(e, ir.Quantified) and e.kind == "count"


def _plural_field(ctx: Context, e: ir.Expr) -> bool:
    """A card's field, a term or a variable whose printed name is a plural noun ("Usage cubes", "the points
    of a place", "the dice on the table", *points*): its verbs agree ("are at most 11")."""
    if isinstance(e, ir.Field):
        name = printed_field(ctx.rs, e.name)
    elif isinstance(e, ir.DefineCall) and (text := ctx.rs.defines[e.name].text if e.name in ctx.rs.defines else None):
        name = re.split(r" (?:of|on|in|at|showing|that|who|which) |\{", text)[0]
    elif isinstance(e, ir.Var) and e.name in ctx.rs.vars:  # a variable is said by its name: "your *points* are"
        name = value_words(ctx.rs, e.name)
        if name != words(e.name) and _plural(name.split()[0]):  # its text's noun first: "*chips won* are"
            return True
    else:
        return False
    return _plural((name.split() or [""])[-1])


def _plural(word: str) -> bool:
    word = word.lower()
    return grammar.singular(word) != word and not word.endswith(("ss", "'s", "us", "is"))


@expression(ir.IsType)
def expr_istype(ctx: Context, e: ir.IsType) -> Phrase:
    n = type_noun(ctx.rs.card_types[e.kind])
    return Clause(build(ctx, e.subject), "is not" if e.negated else "is", Words(n.a()))


def case_items(ctx: Context, e: ir.Case) -> list[Item]:
    """A case as a list, one item per arm (for a define's whole body)."""
    items = []
    # "depending on the number of players: 2 players: 7", not "2: 7"
    counted = " players" if e.subject == ir.BuiltinCall("size", (ir.BuiltinCall("players", ()),)) else ""
    for arm in e.arms:
        if isinstance(arm.value, ir.Const) and isinstance(arm.value.value, bool):  # a condition that never holds
            laid = lay(Words("always" if arm.value.value else "never"))
        else:
            laid = lay(phrase(ctx, arm.value), people=ctx.people)
        head = "otherwise" if not arm.patterns else \
            grammar.capital(inline(settle(Join("or", tuple(build(ctx, p) for p in arm.patterns))))) + counted
        items.append(Item(sentence(f"{head}: {laid.text}"), laid.items))
    return items


@expression(ir.IfExpr)
def expr_ifexpr(ctx: Context, e: ir.IfExpr) -> Phrase:
    branches = []
    while isinstance(e, ir.IfExpr):
        branches.append((build(ctx, e.then), build(ctx, e.cond)))
        e = e.otherwise
    return Cases(tuple(branches), build(ctx, e))


@expression(ir.Case)
def expr_case(ctx: Context, e: ir.Case) -> Phrase:
    subject = build(ctx, e.subject)
    branches, otherwise = [], None
    for arm in e.arms:
        if not arm.patterns:
            otherwise = build(ctx, arm.value)
        else:
            pattern = Join("or", tuple(build(ctx, p) for p in arm.patterns))
            branches.append((build(ctx, arm.value), Clause(subject, "is", pattern)))
    return Cases(tuple(branches), otherwise)


@expression(ir.ListExpr)
def expr_listexpr(ctx: Context, e: ir.ListExpr) -> Phrase:
    if not e.items:
        return Words("nothing")
    return merge_things([build(ctx, i) for i in e.items])


@expression(ir.TypeValues)
def expr_typevalues(ctx: Context, e: ir.TypeValues) -> Phrase:
    """`suit` as a list: "the suits (spades, hearts, diamonds and clubs)"."""
    values = [words(v) for v in ctx.rs.enums[e.enum].values]
    listed = values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]
    return Words(f"the {grammar.plural(words(e.enum))} ({listed})")


@expression(ir.Index)
def expr_index(ctx: Context, e: ir.Index) -> Phrase:
    """`d[2]`: "the 2nd of *d*"."""
    if isinstance(e.obj, ir.TypeValues) and e.obj.enum in ctx.rs.enums:  # a kind's values numbered from 1
        values = [printed_value(ctx.rs, e.ty, v) for v in ctx.rs.enums[e.obj.enum].values]
        if isinstance(e.index, ir.Const) and isinstance(e.index.value, int) and 1 <= e.index.value <= len(values):
            return Words(values[e.index.value - 1])
        counted = _cycle(e.index, len(values))
        if counted is not None:  # "left in round 1, right in round 2, …, then again in that order"
            return _in_turn(ctx, words(e.obj.enum), values, counted)
        numbered = ", ".join(f"{i} {v}" for i, v in enumerate(values, 1))
        return seq(f"the {words(e.obj.enum)} numbered ", build(ctx, e.index), f" ({numbered})")
    if isinstance(e.index, ir.Const) and isinstance(e.index.value, int):
        return seq(f"the {grammar.ordinal(e.index.value)} of ", build(ctx, e.obj))
    return seq("item ", build(ctx, e.index), " of ", build(ctx, e.obj))


def _cycle(index: ir.Expr, n: int) -> ir.Expr | None:
    """E where `index` is `(E - 1) % n + 1`: the values one after the other as E counts up from 1, and again."""
    if not (isinstance(index, ir.Binary) and index.op == "+" and index.right == ir.Const(1)):
        return None
    mod = index.left
    if not (isinstance(mod, ir.Binary) and mod.op == "%" and mod.right == ir.Const(n)):
        return None
    less = mod.left
    if isinstance(less, ir.Binary) and less.op == "-" and less.right == ir.Const(1):
        return less.left
    return None


def _in_turn(ctx: Context, kind: str, values: list[str], counted: ir.Expr) -> Phrase:
    """A value taken in turn as a count goes up: "the direction of the round (left in round 1, right in
    round 2 and keep in round 3, then again in that order)"."""
    if isinstance(counted, ir.BuiltinCall) and counted.name == "round":
        each = [f"{v} in round {i}" for i, v in enumerate(values, 1)]
        head: Phrase = Words(f"the {kind} of the round")
    else:
        each = [f"{v} when it is {i}" for i, v in enumerate(values, 1)]
        head = seq(f"the {kind} for ", build(ctx, counted))
    listed = ", ".join(each[:-1]) + " and " + each[-1]
    return seq(head, bound(f" ({listed}, then again in that order)"))


@expression(ir.Template)
def expr_template(ctx: Context, e: ir.Template) -> Phrase:
    """A text said at play, quoted as a rulebook prints one: what is filled in at play is in italics, by
    what it is, a player by their name: “*your name* bets N on *that symbol*”."""
    return seq("“", *(bound(p) if isinstance(p, str) else Words(_filled_in(ctx, p)) for p in e.parts), "”")


def _filled_in(ctx: Context, v: ir.Expr) -> str:
    said = plain(inline(build(ctx, v)))  # one italic blank, no names in italics inside it
    if len(said) == 1:
        return said  # a letter the rules name (N) is a blank already
    return em(_player_name(said) if v.ty == ROLE else said)


def _player_name(said: str) -> str:
    if said == "you":
        return "your name"
    return f"{possessive(said)} name" if len(said.split()) <= 2 else f"the name of {said}"  # a long owner takes "of"


@expression(ir.RangeExpr)
def expr_rangeexpr(ctx: Context, e: ir.RangeExpr) -> Phrase:
    return seq("any number from ", build(ctx, e.low), " to ", build(ctx, e.high))


def _has(ctx: Context, v: ir.Expr) -> Clause | None:
    """A value that is something (not none): "the player has a *team*", "there is a *winner*", "there
    is a Royalty of this level"; None where it is said otherwise."""
    if isinstance(v, ir.DefineCall) or isinstance(v, ir.Var) and v.owner is None and ctx.rs.vars[v.name].text:
        # a term, or a value with words of its own ("there is a player who made the current bid", not
        # "there is a *bidder*"): not a thing in hand ("the card is none": that slot is empty)
        said = build(ctx, v)
        lead = first_words(said)
        if lead is not None and lead.startswith("the ") and not isinstance(said, Join):
            return Clause(Words("there"), "is", replace_first_words(said, grammar.article(lead[4:])))
        if isinstance(v, ir.DefineCall):
            return None
    if not isinstance(v, ir.Var):
        return None
    name = em(value_words(ctx.rs, v.name))
    if v.owner is None:
        return Clause(Words("there"), "is", Words(f"a {name}"))
    if isinstance(v.owner, ir.RoleRef) and v.owner.role == ctx.you or is_current(ctx, v.owner):
        return Clause(Words("you"), "have", Words(f"a {name}"))
    return Clause(build(ctx, v.owner), "has", Words(f"a {name}"))


def _same_function(a: ir.Expr, b: ir.Expr) -> bool:
    """`column(x) == column(y)`, `x.icon == y.icon`: one function of two things."""
    if isinstance(a, ir.BuiltinCall) and isinstance(b, ir.BuiltinCall):
        return a.name == b.name and a.name in SAME
    return isinstance(a, ir.Field) and isinstance(b, ir.Field) and a.name == b.name


