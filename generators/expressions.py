"""Expressions in English: an `@expression` function builds the phrase of each IR expression class.

Conditions are `Clause`s (subject, verb, rest), so that they negate ("the
deck is not empty", "no refresh card is face up"), take a quantifier as
subject ("every soldier in the Gauntlet is at the end of its lane") and
merge ("the Action Deck and the Action Discard Pile are empty"): see
clauses.py; quantifiers are in quantifiers.py.
"""
from __future__ import annotations

import re
from dataclasses import replace

from rulelang import ir
from rulelang import texts
from rulelang.builtins import BUILTINS
from rulelang.types import BOOL, INT, ROLE, BoardT, ListT, ZoneT
from . import grammar
from .clauses import clause_of, first_words, frame, merge, merge_things, negate, operands, replace_first_words
from .document import Item, clean, em, sentence
from .english import (Context, build, expression, is_current, negated, negation, phrase, placeholder, role, zone,
                      zone_noun)
from .nouns import field_noun, possessive, printed_field, printed_value, type_noun, words, zone_title
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
    return Clause(ref, "is on") if e.ty == BOOL else ref


@expression(ir.Var)
def expr_var(ctx: Context, e: ir.Var) -> Phrase:
    """A variable by its name (*trials completed*); a player held in one by what its `text:`
    says it is ("the active player"); a true/false one as the condition its `text:` states."""
    v = ctx.rs.vars.get(e.name)
    said = described(v.text) if v is not None and v.text else None
    if e.ty == BOOL:
        return flag_clause(ctx, e)
    if said and e.owner is None and e.ty == ROLE and said.startswith("the "):
        return Words(said)
    return Words(em(words(e.name))) if e.owner is None else owned(ctx, em(words(e.name)), e.owner)


def described(text: str) -> str:
    """A `text:` as the rules use it in a sentence: its trailing aside dropped ("the starting
    player (who holds the die)" -> "the starting player")."""
    return re.sub(r"\s*\([^()]*\)$", "", clean(text)).strip()


def flag_clause(ctx: Context, e: ir.Expr) -> Clause:
    """A true/false variable or card state as the condition it stands for: a variable's `text:`
    ("the active player's turn has ended"; for a player's own, what the player does: "faces
    the room"), or the state's name said of the card ("the Encounter card is sprung")."""
    if isinstance(e, ir.Field):
        subject = build(ctx, e.obj)
        return _predicate(subject, printed_field(ctx.rs, e.name))
    v = ctx.rs.vars.get(e.name)
    text = described(v.text) if v is not None and v.text else None
    if isinstance(e, ir.Var) and e.owner is not None:
        owner = build(ctx, e.owner)
        return _predicate(owner, text or f"has {em(words(e.name))} on")
    if text is None:
        return Clause(Words(em(words(e.name))), "is on")
    said = clause_of([text])
    return said if isinstance(said, Clause) else Clause(Words(text), "holds")


def _predicate(subject: Phrase, text: str) -> Clause:
    """"is sprung", "faces the room": a verb phrase as it is, anything else after "is"."""
    first, _, rest = text.partition(" ")
    if first in grammar.AUXILIARIES or re.fullmatch(r"[a-z]+(s|es)", first) and first not in ("this", "its") \
            and not first.endswith("ss"):
        return Clause(subject, first, Words(rest) if rest else None)
    return Clause(subject, "is", Words(text))


def owned(ctx: Context, name: str, owner: ir.Expr) -> Phrase:
    """A player's own variable: "your *bid*", "North's *bid*", "that player's *bid*"."""
    if isinstance(owner, ir.RoleRef) and owner.role == ctx.you or is_current(ctx, owner):
        return Words(f"your {name}")
    who = build(ctx, owner)
    if isinstance(who, Bound):  # kept a bound name, so a condition on it reads "a player whose *bid* …"
        return seq(Bound(possessive(who.text), name=who.name, noun=who.noun), f" {name}")
    if isinstance(who, Words):  # a name: one word group, it takes the 's
        return Words(f"{possessive(who.text)} {name}")
    return seq(f"the {name} of ", who)


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
    return Words(role(ctx, e.role))


@expression(ir.Field)
def expr_field(ctx: Context, e: ir.Field) -> Phrase:
    if e.ty == BOOL:
        return flag_clause(ctx, e)
    return seq(f"the {printed_field(ctx.rs, e.name)} of ", build(ctx, e.obj))


# ------------------------------------------------------------ calls


@expression(ir.DefineCall)
def expr_definecall(ctx: Context, e: ir.DefineCall) -> Phrase:
    d = ctx.rs.defines[e.name]
    ctx.terms.setdefault(e.name)
    args = {p: a for (p, _), a in zip(d.params, e.args)}
    if d.text:
        return template(ctx, d.text, args, d.body.ty == BOOL)
    name = em(words(e.name))
    args = merge_things([build(ctx, a) for a in e.args]) if e.args else None
    if d.body.ty == BOOL:
        return Clause(Words(name), "holds for" if args else "holds", args)
    if args is None:
        return Words(name)
    return seq(name + (" " if re.search(r"_(of|to|for|in|on|at|from|by|with)$", e.name) else " for "), args)


def template(ctx: Context, text: str, args: dict[str, ir.Expr], condition: bool) -> Phrase:
    """A ruleset's `text:` with `{param}` filled (and `{param?A|B}` said by the argument: A where it
    is true, B where false): a clause if it is a condition. An argument the text leaves out is
    said after it, so that calls that differ never print alike."""
    decided = {p: a.value for p, a in args.items() if isinstance(a, ir.Const) and isinstance(a.value, bool)}
    said = texts.names(clean(text))
    omitted = [p for p in args if p not in said and p not in decided]
    omitted_flags = [p for p in args if p in decided and p not in said]
    text = texts.choose(clean(text), decided)
    text = texts.CHOICE.sub(lambda m: f"{m.group(2)} when {{{m.group(1)}}}" + (f"; else {m.group(3)}" if m.group(3)
                                                                               else ""), text)
    parts: list = []
    pieces = re.split(r"{(\w+)}", text)
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            parts.append(piece)
        elif piece in args:
            arg = args[piece]
            if isinstance(arg, ir.Const) and arg.value == 1 and i + 1 < len(pieces):  # "1 spaces" -> "1 space"
                pieces[i + 1] = re.sub(r"^(\s+)(\w+)", lambda m: m.group(1) + grammar.singular(m.group(2)),
                                       pieces[i + 1])
            phrase = build(ctx, arg)
            if phrase == Words("you") and re.match(r"'s\b\W*$", pieces[i + 1]):  # "is {p}'s": "is yours"
                phrase, pieces[i + 1] = Words("yours"), pieces[i + 1][2:]
            elif phrase == Words("you") and pieces[i + 1].startswith("'s"):  # "{p}'s turn": "your turn"
                phrase, pieces[i + 1] = Words("your"), pieces[i + 1][2:]
            elif phrase == Words("you") and (verb := re.match(r" (\w+)", pieces[i + 1])) and grammar.is_verb(
                    verb.group(1)) and i == 1 and not parts[0].strip():  # "{p} has": "you have"
                pieces[i + 1] = " " + grammar.agree(pieces[i + 1][1:], True)
            counted = re.match(r"\s+([A-Za-z]+)", pieces[i + 1]) if i + 1 < len(pieces) else None
            counted = counted if counted and _counted_noun(ctx, counted.group(1)) else None  # a noun, not a verb
            if counted and arg.ty == INT and not isinstance(arg, (ir.Const, ir.Local)):  # "{n} minions"
                noun_word = counted.group(1)
                if isinstance(arg, ir.Field) and grammar.singular(noun_word.lower()) == grammar.singular(arg.name):
                    pieces[i + 1] = pieces[i + 1][counted.end():]  # "the minions of the encounter card"
                else:  # "gains as much Effort as the effort of that card"
                    much = "much" if noun_word[:1].isupper() or grammar.singular(noun_word) == noun_word else "many"
                    pieces[i + 1] = pieces[i + 1][counted.end():]
                    phrase = seq(f"as {much} {noun_word} as ", phrase)
            said = first_words(phrase) or ""
            word = re.search(r"(\w+) $", parts[-1] or "")
            if word and said.startswith(f"the {word.group(1)} of "):  # "in column {x}": "in the column of cs"
                parts[-1] = parts[-1][:word.start()]
            article = re.search(r"\b(the|a|an) $", parts[-1] or "")
            if article and re.match(r"(the|a|an) ", said):  # "holds the slot {s}" with "the slot of c"
                parts[-1] = parts[-1][:article.start()]
            parts.append(phrase)
        else:
            parts.append("{" + piece + "}")
    extra = [x for p in omitted for x in (f", {words(p)}: ", build(ctx, args[p]))] + \
        [f", {words(p)}: {'yes' if decided[p] else 'no'}" for p in omitted_flags]
    if extra:  # an old ruleset's text that leaves a parameter out (`printed.py` warns): "(…, royal: yes)"
        extra[0] = extra[0][2:]
        parts += [bound("(" if condition else " (")] + [bound(x) if isinstance(x, str) else x for x in extra] \
            + [bound(")")]
    return clause_of(parts) if condition else seq(*[p for p in parts if p != ""])


def _counted_noun(ctx: Context, word: str) -> bool:
    """Whether a word after a number in a text is what it counts ("3 minions", "2 Effort"), not a verb
    ("a roll of 8 meets"): a name in capitals, or the plural of a noun the rules print."""
    if word[:1].isupper():
        return word.lower() not in grammar.AUXILIARIES
    plurals = {type_noun(ct).many.split()[-1] for ct in ctx.rs.card_types.values()} | \
        {grammar.plural(words(ct.name)).split()[-1] for ct in ctx.rs.card_types.values()}
    return word in plurals | {"cards", "spaces", "points", "tokens", "cubes", "dice", "damage", "steps", "times"}


@expression(ir.BuiltinCall)
def expr_builtincall(ctx: Context, e: ir.BuiltinCall) -> Phrase:
    a, b = e.args, BUILTINS[e.name]
    if is_current(ctx, e):
        return Words("you")
    if e.name == "current":  # not "the player whose turn it is": it takes no 's ("… it is's men")
        return Words("the current player")
    if e.name == "size" and isinstance(a[0].ty, (ZoneT, BoardT)):
        return seq(f"the number of {zone_noun(ctx, a[0]).many} in ", build(ctx, a[0]))
    if e.name == "size" and isinstance(a[0].ty, ListT):
        listed = build(ctx, a[0])
        lead = first_words(listed)
        if isinstance(a[0], ir.Quantified) and a[0].kind == "list" and a[0].value == ir.Local(a[0].binder.names[0]):
            return build(ctx, ir.Quantified("count", a[0].binder, ty=e.ty))
        if lead is not None and lead.startswith("the ") and not isinstance(listed, Join):
            return replace_first_words(listed, "the number of " + lead[4:])  # the number of Gobbots in …
        return seq("the number of items in ", listed)
    if e.name == "size" and isinstance(a[0], ir.Quantified) and a[0].kind == "list" \
            and a[0].value == ir.Local(a[0].binder.names[0]):  # the number of the things listed
        return build(ctx, ir.Quantified("count", a[0].binder, ty=e.ty))
    if e.name in ("top", "bottom") and is_row(ctx, a[0]):  # a row has ends, not a top
        end = "right-most" if e.name == "top" else "left-most"
        return seq(f"the {end} {zone_noun(ctx, a[0]).one} of ", build(ctx, a[0]))
    if e.name in ("top", "bottom"):
        return seq(f"the {e.name} {zone_noun(ctx, a[0]).one} of ", build(ctx, a[0]))
    if e.name == "abs" and isinstance(a[0], ir.Binary) and a[0].op == "-":
        return frame("the difference between ", [build(ctx, a[0].left), build(ctx, a[0].right)])
    if e.name in ("min", "max") and len(a) > 1:  # the larger of 0 and the attack − the block
        size = ("smaller" if e.name == "min" else "larger") if len(a) == 2 else \
            ("smallest" if e.name == "min" else "largest")
        return frame(f"the {size} of ", [build(ctx, x) for x in a])
    if e.name == "space":
        return space(ctx, e)
    if e.name in ("column", "row"):
        return seq(f"the {e.name} of ", build(ctx, a[0]))
    if e.ty == BOOL:
        return builtin_clause(ctx, e, b.phrase)
    return seq(*_fill(b.phrase, [build(ctx, x) for x in a]))


@negation(ir.BuiltinCall)
def not_builtincall(ctx: Context, e: ir.BuiltinCall) -> Phrase | None:
    negated = BUILTINS[e.name].negated
    return builtin_clause(ctx, e, negated) if negated else None


def builtin_clause(ctx: Context, e: ir.BuiltinCall, phrase: str) -> Phrase:
    """A true/false built-in's phrase as a clause: "the deck is empty", "the free spaces … are empty"."""
    said = clause_of(_fill(phrase, [build(ctx, x) for x in e.args]))
    if isinstance(said, Clause) and e.args and (isinstance(e.args[0].ty, ListT) or plural_zone(ctx, e.args[0])):
        return Clause(said.subject, grammar.agree(said.verb, True), said.rest, many=True)
    return said


_HEAD_ENDS = {"in", "of", "on", "at", "to", "for", "from", "with", "by", "bound", "being", "above", "below",
              "under", "removed", "left", "kept"}


def plural_zone(ctx: Context, e: ir.Expr) -> bool:
    """A zone whose name is plural ("the cards in play", "the Sergeants above the Gauntlet"): its
    verbs agree ("are empty", "hold")."""
    if not isinstance(e, ir.ZoneRef) or e.zone not in ctx.rs.zones:
        return False
    head = []
    for word in zone_title(ctx.rs.zones[e.zone]).split():
        if word.lower() in _HEAD_ENDS:
            break
        head.append(word)
    last = head[-1].lower() if head else ""
    return last.endswith("s") and not last.endswith(("ss", "'s", "us", "is")) and grammar.singular(last) != last


def space(ctx: Context, e: ir.BuiltinCall) -> Phrase:
    """A board's space: "the space *s* is on", "the space above *s*", "the top space of the
    Gauntlet in column *x*", or by column and row (row 1 is the bottom)."""
    board, col, row = e.args
    near = {(0, 0): "the space {} is on", (0, 1): "the space above {}", (0, -1): "the space below {}",
            (-1, 0): "the space left of {}", (1, 0): "the space right of {}"}
    (cx, dx), (ry, dy) = _offset(col, "column"), _offset(row, "row")
    if cx is not None and cx == ry and (dx, dy) in near:
        before, _, after = near[(dx, dy)].partition("{}")
        return seq(before, build(ctx, cx), after)
    edge = "bottom " if row == ir.Const(1) else "top " if row == ir.BuiltinCall("rows", (board,)) else ""
    short = _atomic(col) and (edge or _atomic(row))
    head = seq(f"the {edge}space of ", build(ctx, board))
    if short:
        return seq(head, " in column ", build(ctx, col), *([] if edge else [", row ", build(ctx, row)]))
    if edge:
        return seq(head, bound(" whose column is "), build(ctx, col))
    return seq(head, bound(" whose column is "), build(ctx, col), bound(" and whose row is "), build(ctx, row))


def is_row(ctx: Context, e: ir.Expr) -> bool:
    """A zone laid out in a row (or a list drawn from one, in its order)."""
    if isinstance(e, ir.ZoneRef):
        return e.zone in ctx.rs.zones and ctx.rs.zones[e.zone].kind == "row"
    if isinstance(e, ir.Quantified) and e.kind == "list":
        return len(e.binder.groups) == 1 and is_row(ctx, e.binder.groups[0].domain)
    if isinstance(e, ir.DefineCall) and not e.args:
        return is_row(ctx, ctx.rs.defines[e.name].body)
    return False


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
    symbol, level = ARITH[op]
    left, right = build(ctx, e.left), build(ctx, e.right)
    if op in ("+", "*") and edges(left)[1] == "scope" and edges(right) == (None, None):
        left, right = right, left  # "b + the total bid of the players that …": the open part last
    arith = Op(symbol, level, left, right)
    return seq(arith, bound(" (rounded down)")) if op == "/" else arith


def compare(ctx: Context, left: ir.Expr, op: str, right: ir.Expr) -> Phrase:
    if isinstance(left, ir.BuiltinCall) and left.name == "size" and isinstance(left.args[0].ty, (ZoneT, BoardT)):
        n = zone_noun(ctx, left.args[0])
        if not isinstance(right, ir.Const):  # holds fewer sergeants than the number of …
            many = plural_zone(ctx, left.args[0])
            return Clause(build(ctx, left.args[0]), "hold" if many else "holds",
                          seq(HOLDS_AS[op].format(n.many), build(ctx, right)), many=many)
        one = right.value == 1 and op in ("==", "!=", "<=", ">=")
        many = plural_zone(ctx, left.args[0])
        return Clause(build(ctx, left.args[0]), "hold" if many else "holds",
                      seq(HOLDS[op].format(n=""), build(ctx, right), f" {n.one if one else n.many}"), many=many)
    if left.ty == BOOL and right.ty == BOOL and not isinstance(right, ir.Const):  # two switches agree
        other = build(ctx, right) if op == "==" else negation_of(ctx, right)
        return Scope(seq(build(ctx, left), bound(" exactly when ")), other)
    if left.ty == BOOL and isinstance(right, ir.Const) and isinstance(right.value, bool):
        return build(ctx, left) if right.value == (op == "==") else negation_of(ctx, left)
    if op in ("==", "!=") and _same_function(left, right):
        verb = "is" if op == "==" else "is not"
        if isinstance(left, ir.BuiltinCall):
            return Clause(build(ctx, left.args[0]), f"{verb} {SAME[left.name]}", build(ctx, right.args[0]))
        have = "has" if op == "==" else "does not have"
        return Clause(build(ctx, left.obj), f"{have} the same {printed_field(ctx.rs, left.name)} as",
                      build(ctx, right.obj))
    return Clause(build(ctx, left), COMPARE[op], build(ctx, right))


@expression(ir.IsType)
def expr_istype(ctx: Context, e: ir.IsType) -> Phrase:
    n = type_noun(ctx.rs.card_types[e.kind])
    return Clause(build(ctx, e.subject), "is not" if e.negated else "is", Words(n.a()))


def case_items(ctx: Context, e: ir.Case) -> list[Item]:
    """A case as a list, one item per arm (for a define's whole body)."""
    items = []
    for arm in e.arms:
        laid = lay(phrase(ctx, arm.value))
        head = "otherwise" if not arm.patterns else \
            grammar.capital(inline(settle(Join("or", tuple(build(ctx, p) for p in arm.patterns)))))
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
    if isinstance(e.index, ir.Const) and isinstance(e.index.value, int):
        return seq(f"the {grammar.ordinal(e.index.value)} of ", build(ctx, e.obj))
    return seq("item ", build(ctx, e.index), " of ", build(ctx, e.obj))


@expression(ir.Template)
def expr_template(ctx: Context, e: ir.Template) -> Phrase:
    """A text with values in it, quoted: “*p* bids *n*” (said by the rules, never "you")."""
    ctx = replace(ctx, turn=False)
    return seq("“", *(bound(p) if isinstance(p, str) else build(ctx, p) for p in e.parts), "”")


@expression(ir.RangeExpr)
def expr_rangeexpr(ctx: Context, e: ir.RangeExpr) -> Phrase:
    return seq("any number from ", build(ctx, e.low), " to ", build(ctx, e.high))


def _fill(template: str, parts: list[Phrase]) -> list:
    """A built-in's phrase ("the top card of {0}") as words and the arguments' phrases."""
    out: list = []
    for i, piece in enumerate(re.split(r"{(\d)}", template)):
        out.append(piece if i % 2 == 0 else parts[int(piece)])
    return [p for p in out if p != ""]


def _atomic(e: ir.Expr) -> bool:
    return isinstance(e, (ir.Const, ir.Local, ir.Var, ir.Param))


def _offset(e: ir.Expr, axis: str):
    """`column(s) + 1` -> (s, 1); `column(s)` -> (s, 0); anything else (None, 0)."""
    sign = 0
    if isinstance(e, ir.Binary) and e.op in ("+", "-") and isinstance(e.right, ir.Const) and e.right.value == 1:
        sign, e = (1 if e.op == "+" else -1), e.left
    if isinstance(e, ir.BuiltinCall) and e.name == axis:
        return e.args[0], sign
    return None, 0


def _same_function(a: ir.Expr, b: ir.Expr) -> bool:
    """`column(x) == column(y)`, `x.icon == y.icon`: one function of two things."""
    if isinstance(a, ir.BuiltinCall) and isinstance(b, ir.BuiltinCall):
        return a.name == b.name and a.name in SAME
    return isinstance(a, ir.Field) and isinstance(b, ir.Field) and a.name == b.name


