"""Calls in English: a define by its `text:` (a template, its arguments filled in as noun phrases),
or by its name in italics; a built-in by its phrase ("the top card of …", "the difference between
… and …"), a board's spaces by where they are ("the space above *s*").
"""
from __future__ import annotations

import re

from rulelang import ir
from rulelang import texts
from rulelang.builtins import BUILTINS
from rulelang.types import BOOL, INT, BoardT, ListT, ZoneT

from . import grammar
from .clauses import clause_of, first_words, frame, merge_things, replace_first_words
from .document import clean, em
from .english import Context, build, expression, flat, group_noun, is_current, negation, subject, zone_noun
from .nouns import type_noun, words, zone_title
from .phrases import Bound, Clause, Join, Op, Phrase, Seq, Words, bound, edges
from .phrases import words as seq


@expression(ir.DefineCall)
def expr_definecall(ctx: Context, e: ir.DefineCall) -> Phrase:
    d = ctx.rs.defines[e.name]
    ctx.terms.setdefault(e.name)
    args = {p: a for (p, _), a in zip(d.params, e.args)}
    if d.text:
        return template(ctx, d.text, args, d.body.ty == BOOL)
    name = em(words(e.name))
    things = merge_things([build(ctx, a) for a in e.args]) if e.args else None
    if d.body.ty == BOOL:
        return Clause(Words(name), "holds for" if things else "holds", things)
    if things is None:
        return Words(name)
    return seq(name + (" " if re.search(r"_(of|to|for|in|on|at|from|by|with)$", e.name) else " for "), things)


def template(ctx: Context, text: str, args: dict[str, ir.Expr], condition: bool) -> Phrase:
    """A ruleset's `text:` with `{param}` filled (and `{param?A|B}` said by the argument: A where it
    is true, B where false): a clause if it is a condition. An argument the text leaves out is
    said after it, so that calls that differ never print alike."""
    decided = {p: a.value for p, a in args.items() if isinstance(a, ir.Const) and isinstance(a.value, bool)}
    named = texts.names(clean(text))
    omitted = [p for p in args if p not in named and p not in decided]
    omitted_flags = [p for p in args if p in decided and p not in named]
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
                    verb.group(1)) and _subject(ctx, pieces[i - 1]):  # "{p} has", "the discs {p} encloses"
                said_after = pieces[i + 1][1:]  # "{p} moves {c}": the space before {c} stays
                pieces[i + 1] = " " + grammar.agree(said_after, True) + said_after[len(said_after.rstrip()):]
            counted = re.match(r"\s+([A-Za-z]+)", pieces[i + 1]) if i + 1 < len(pieces) else None
            counted = counted if counted and _counted_noun(ctx, counted.group(1)) else None  # a noun, not a verb
            if counted and arg.ty == INT and not isinstance(arg, (ir.Const, ir.Local)):  # "{n} minions"
                noun_word = counted.group(1)
                after = pieces[i + 1][counted.end():]
                more = re.match(r"\s+([A-Za-z]+)", after)  # "{n} Pain cards": the noun goes on
                if isinstance(arg, ir.Field) and grammar.singular(noun_word.lower()) == grammar.singular(arg.name) \
                        and not (more and _counted_noun(ctx, more.group(1))):
                    pieces[i + 1] = after  # "the minions of the encounter card"
                elif more and _counted_noun(ctx, more.group(1)):  # "as many Pain cards as the pain of …"
                    pieces[i + 1] = after[more.end():]
                    phrase = seq(bound(f"as many {noun_word} {more.group(1)} as "), phrase)
                else:  # "gains as much Effort as the effort of that card"
                    much = "much" if noun_word[:1].isupper() or grammar.singular(noun_word) == noun_word else "many"
                    pieces[i + 1] = after
                    phrase = seq(bound(f"as {much} {noun_word} as "), phrase)
            owned = re.match(r"'s (\w+)(?=$|[^\w\s'])", pieces[i + 1]) if i + 1 < len(pieces) else None
            if owned and isinstance(phrase, Words) and not isinstance(phrase, Bound) \
                    and len(phrase.text.split()) > 3 and re.match(r"the [a-z]", phrase.text):
                # "{q}'s team" with a long owner: "the team of the winner of the last roll-off", not "…-off's team"
                phrase, pieces[i + 1] = seq(f"the {owned.group(1)} of ", phrase), pieces[i + 1][owned.end():]
            said = first_words(phrase) or ""
            before: str = parts[-1] or ""
            word = re.search(r"(\w+) $", before)
            if word and said.startswith(f"the {word.group(1)} of "):  # "in column {x}": "in the column of cs"
                parts[-1] = before = before[:word.start()]
            article = re.search(r"\b(the|a|an) $", before)
            if article and DETERMINER.match(said):
                # "holds the slot {s}" with "the slot of c"; "holds a {n}" with "that card name": "holds it";
                # "the {e} end" with "that side"
                parts[-1] = before[:article.start()]
            parts.append(phrase)
        else:
            parts.append("{" + piece + "}")
    extra = [x for p in omitted for x in (f", {words(p)}: ", build(ctx, args[p]))] + \
        [f", {words(p)}: {'yes' if decided[p] else 'no'}" for p in omitted_flags]
    if extra:  # an old ruleset's text that leaves a parameter out (`printed.py` warns): "(…, royal: yes)"
        extra[0] = str(extra[0])[2:]  # the first is always a name's words: ", royal: "
        parts += [bound("(" if condition else " (")] + [bound(x) if isinstance(x, str) else x for x in extra] \
            + [bound(")")]
    if condition:
        return clause_of(parts)
    return seq(*[bound(p) if isinstance(p, str) and AS_MANY.search(p) else p for p in parts if p != ""])


# the words that begin a phrase that needs no article of the text's before it
DETERMINER = re.compile(r"(the|a|an|that|this|these|those|each|every|any|no|your|their|its|his|her) ")

# "as many chips as {n}": the amount after it is all it counts, so a sum there needs no parentheses
AS_MANY = re.compile(r"\bas (?:many|much) (?:[\w*'’-]+ ){0,3}as $")


def _subject(ctx: Context, before: str) -> bool:
    """Whether a slot after the words `before` is the subject of the verb after it: at the text's start,
    after a word that opens a clause ("if {p} has"), or after the things it says of ("the discs {p}
    encloses"); not an object ("gives {p} points")."""
    last = re.search(r"(\w+)\s+$", before)
    if last is None:
        return not before.strip()
    return last.group(1).lower() in _OPENERS or _counted_noun(ctx, last.group(1))


_OPENERS = {"that", "which", "when", "if", "whether", "while", "until", "unless", "where", "and", "or", "but"}


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
    if e.name in ("left_of", "right_of") and two_players(ctx):  # at a table of two, left and right are one
        who = build(ctx, a[0])
        return Words("your opponent") if who == Words("you") else seq("the opponent of ", who)
    if e.name in ("left_of", "right_of") and isinstance(a[0], ir.BuiltinCall) and a[0].name == e.name:
        start: ir.Expr = e  # "the second player to the left of the dealer", not "… of the player to the left of …"
        steps = 0
        while isinstance(start, ir.BuiltinCall) and start.name == e.name:
            steps, start = steps + 1, start.args[0]
        side = "left" if e.name == "left_of" else "right"
        return seq(f"the {grammar.ordinal(steps)} player to the {side} of ", build(ctx, start))
    if e.name == "size" and isinstance(a[0].ty, (ZoneT, BoardT)):
        return seq(f"the number of {zone_noun(ctx, a[0]).many} in ", build(ctx, a[0]))
    if e.name == "size" and isinstance(a[0].ty, ListT):
        listed = build(ctx, a[0])
        lead = first_words(listed)
        if isinstance(a[0], ir.Quantified) and a[0].kind == "list" and a[0].value == ir.Local(a[0].binder.names[0]):
            return build(ctx, ir.Quantified("count", a[0].binder, ty=e.ty))
        if lead is not None and lead.startswith("the ") and not isinstance(listed, Join):
            return replace_first_words(listed, "the number of " + lead[4:])  # the number of Gobbots in …
        n = group_noun(ctx, a[0].ty.item, a[0])
        return seq(f"the number of {n.many if n is not None else 'items'} in ", listed)  # players in *left*
    if e.name == "size" and isinstance(a[0], ir.Quantified) and a[0].kind == "list" \
            and a[0].value == ir.Local(a[0].binder.names[0]):  # the number of the things listed
        return build(ctx, ir.Quantified("count", a[0].binder, ty=e.ty))
    if e.name in ("top", "bottom") and is_row(ctx, a[0]):  # a row has ends, not a top
        end = "right-most" if e.name == "top" else "left-most"
        return seq(f"the {end} {zone_noun(ctx, a[0]).one} of ", build(ctx, a[0]))
    if e.name in ("top", "bottom"):
        one = zone_noun(ctx, a[0]).one
        place = build(ctx, a[0])
        if isinstance(a[0], ir.ZoneRef) and re.search(rf"\b{re.escape(one.split()[-1])}$", flat(place)):
            return place  # a place named for the one card it holds: "Alice's card", not "the top card of Alice's card"
        return seq(f"the {e.name} {one} of ", place)
    if e.name == "abs" and isinstance(a[0], ir.Binary) and a[0].op == "-":
        return frame("the difference between ", [build(ctx, a[0].left), build(ctx, a[0].right)])
    bounded = _bounded(ctx, e)
    if bounded is not None:
        return bounded
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


def _bounded(ctx: Context, e: ir.BuiltinCall) -> Phrase | None:
    """A sum with a bound, as a rulebook says it: "the amount − *softened* (at least 0)", "the roll ÷ 2
    (rounded down, at most 6)", not "the larger of 0 and the amount − *softened*", which could be
    read as taking the larger first."""
    if e.name not in ("min", "max") or len(e.args) != 2:
        return None
    limits = [a for a in e.args if isinstance(a, ir.Const) and type(a.value) is int]
    sums = [a for a in e.args if isinstance(a, ir.Binary) and a.op in ("+", "-", "*", "/")]
    if len(limits) != 1 or len(sums) != 1:
        return None
    said = build(ctx, sums[0])
    end = said.right if isinstance(said, Op) else said
    while isinstance(end, Op):
        end = end.right
    if edges(end)[1] == "scope":  # "… whose relic order is more than 0 (at least 0)": the aside would join the clause
        return None
    limit = f"{'at most' if e.name == 'min' else 'at least'} {limits[0].value}"
    if isinstance(said, Seq) and type(said.parts[-1]) is Words and re.fullmatch(r" \([^()]*\)", said.parts[-1].text):
        return Seq(said.parts[:-1] + (bound(f"{said.parts[-1].text[:-1]}, {limit})"),))  # "(rounded down, at most 6)"
    return seq(said, bound(f" ({limit})"))


@negation(ir.BuiltinCall)
def not_builtincall(ctx: Context, e: ir.BuiltinCall) -> Phrase | None:
    negated = BUILTINS[e.name].negated
    return builtin_clause(ctx, e, negated) if negated else None


def two_players(ctx: Context) -> bool:
    """Whether every game of these rules has exactly two players."""
    if ctx.rs.players is not None:
        return ctx.rs.players.low == ctx.rs.players.high == 2
    return len(ctx.mode.roles if ctx.mode is not None else ctx.rs.roles) == 2


def builtin_clause(ctx: Context, e: ir.BuiltinCall, phrase: str) -> Phrase:
    """A true/false built-in's phrase as a clause: "the deck is empty", "the free spaces … are empty"."""
    some = phrase != BUILTINS["empty"].phrase
    if e.name == "empty" and plural_zone(ctx, e.args[0]):
        held = _owner_has(ctx, e.args[0], some) or _there_are(build(ctx, e.args[0]), some, plural=True)
        if held is not None:
            return held
    if e.name == "empty" and isinstance(e.args[0].ty, ListT):
        there = _there_are(build(ctx, e.args[0]), some)
        if there is not None:
            return there
    said = clause_of(_fill(phrase, [build(ctx, x) for x in e.args]))
    if isinstance(said, Clause) and e.args and (isinstance(e.args[0].ty, ListT) or plural_zone(ctx, e.args[0])):
        return Clause(said.subject, grammar.agree(said.verb, True), said.rest, many=True)
    return said


def _there_are(things: Phrase, some: bool, plural: bool = False) -> Clause | None:
    """Things named in the plural (a list, or a zone: `plural`), empty or not, as there being such things:
    "there are enemies in combat", "there are no players facing room N" (were "the enemies in combat are
    not empty", "the players facing room N are empty")."""
    lead = first_words(things)
    if lead is None or not lead.startswith("the "):
        return None
    word = lead[4:].split(" ")[0]
    if not plural and (grammar.singular(word) == word or grammar.plural(grammar.singular(word)) != word):
        return None  # not "the five dice on the table": a number is no plural noun
    return Clause(Words("there"), "are", replace_first_words(things, lead[4:] if some else "no " + lead[4:]),
                  many=True)


def _owner_has(ctx: Context, z: ir.Expr, some: bool) -> Clause | None:
    """A player's zone named in the plural, empty or not, as what the player has: "you have no men to
    place", "that player has cards in play" (were "your men to place are empty", "… are not empty")."""
    if not isinstance(z, ir.ZoneRef) or z.owner is None:
        return None
    who, you = subject(ctx, z.owner)
    title = zone_title(ctx.rs.zones[z.zone])
    if title.lower().startswith("player's "):
        title = title[len("player's "):]
    return Clause(who, "have" if you else "has", Words(title if some else f"no {title}"))


_HEAD_ENDS = {"in", "of", "on", "at", "to", "for", "from", "with", "by", "bound", "being", "above", "below",
              "under", "removed", "left", "kept", "taken", "played", "put", "set", "laid"}


def _head_word(ctx: Context, e: ir.Expr) -> str:
    """The last word of a zone's name before what follows its noun ("card" of "the card on offer",
    "cards" of "the cards in play"), lower case; "" where e is not a zone of the rules."""
    if not isinstance(e, ir.ZoneRef) or e.zone not in ctx.rs.zones:
        return ""
    head = []
    for word in zone_title(ctx.rs.zones[e.zone]).split():
        if word.lower() in _HEAD_ENDS:
            break
        head.append(word)
    return head[-1].lower() if head else ""


def one_card_place(ctx: Context, e: ir.Expr) -> bool:
    """A zone named for the one card it holds ("the card on offer", "Alice's card"): moving it
    moves that card."""
    head = _head_word(ctx, e)
    return bool(head) and head == zone_noun(ctx, e).one.split()[-1]


def plural_zone(ctx: Context, e: ir.Expr) -> bool:
    """A zone whose name is plural ("the cards in play", "the Sergeants above the Gauntlet"): its
    verbs agree ("are empty", "hold")."""
    last = _head_word(ctx, e)
    return grammar.singular(last) != last and (last.endswith("s") and not last.endswith(("ss", "'s", "us", "is"))
                                               or grammar.plural(grammar.singular(last)) == last)  # "men to place"


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
