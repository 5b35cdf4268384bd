"""Statements that move cards in English: move, draw, swap, shuffle, turn over; a card put in one
place or another by its type said as one move.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import BoardT, CardT, ZoneT
from rulelang.walk import walk

from . import grammar
from .calls import one_card_place, plural_zone
from .clauses import first_words, replace_first_words
from .counts import by_cases
from .document import Item
from .english import Context, phrase, say, statement, zone_noun
from .normalize import normal_binder
from .nouns import type_noun, words
from .phrases import Join, Phrase, Words, bound
from .phrases import words as seq
from .quantifiers import named_such_that, things


POSITION = {"top": "", "bottom": " at the bottom", "left": " at the left end", "right": " at the right end"}


@statement(ir.Move)
def stmt_move(ctx: Context, s: ir.Move) -> list[Item]:
    if s.every is not None:
        every = normal_binder(s.every, ctx.rs)
        what = things(ctx, every, "every") or named_such_that(ctx, every, "every")
    else:
        what = seq(*[moved(ctx, c) for c in s.cards]) if len(s.cards) == 1 else \
            _together(ctx, s.cards) or join_fixed(ctx, [moved(ctx, c) for c in s.cards])
    return [say(ctx, "move ", what, " to ", s.dest, POSITION[s.position])]


def _together(ctx: Context, cards: tuple[ir.Expr, ...]) -> Phrase | None:
    """Every thing bound together by one choice, moved together: "those action cards", not "the first
    action card, the second action card and the third action card"."""
    refs = [ctx.refs.get(c.name) if isinstance(c, ir.Local) else None for c in cards]
    first = refs[0]
    if first is None or first.noun is None or any(r is None or (r.scope, r.noun) != (first.scope, first.noun)
                                                   for r in refs):
        return None
    group = {n for n, r in ctx.refs.items() if (r.scope, r.noun) == (first.scope, first.noun)}
    if group != {c.name for c in cards if isinstance(c, ir.Local)} or len(group) != len(cards):
        return None
    return Words(f"those {first.noun.many}")  # type: ignore[attr-defined]


def moved(ctx: Context, e: ir.Expr) -> Phrase:
    if isinstance(e.ty, (ZoneT, BoardT)) and not one_card_place(ctx, e):  # "the card on offer": it is the card
        return seq(bound("all of " if plural_zone(ctx, e) else "all cards in "), phrase(ctx, e))  # "cards in play"
    return phrase(ctx, e)


def join_fixed(ctx: Context, items: list[Phrase]) -> Phrase:
    return Join("and", tuple(items))


@statement(ir.Draw)
def stmt_draw(ctx: Context, s: ir.Draw) -> list[Item]:
    one = isinstance(s.count, ir.Const) and s.count.value == 1
    n = zone_noun(ctx, s.source)
    out = " run out)" if plural_zone(ctx, s.source) else " runs out)"  # "the cheques run out"
    if one:
        return [say(ctx, f"draw {n.a()} from ", s.source, " to ", s.dest, POSITION[s.position])]
    cases = by_cases(s.count, str, "; ")
    if cases is not None:  # "draw 7 playing cards … if …; otherwise 5", not "as many as (7 if …; otherwise 5)"
        return [say(ctx, f"draw {cases[0]} {n.many} from ", s.source, " to ", s.dest, POSITION[s.position],
                    *cases[1], " (fewer if ", s.source, out)]
    if not isinstance(s.count, ir.Const):  # draw cards …, as many as the hand size option
        return [say(ctx, f"draw {n.many} from ", s.source, " to ", s.dest, POSITION[s.position],
                         ", as many as ", s.count, " (fewer if ", s.source, out)]
    return [say(ctx, "draw ", s.count, f" {n.many} from ", s.source, " to ", s.dest, POSITION[s.position],
                     " (fewer if ", s.source, out)]


@statement(ir.Swap)
def stmt_swap(ctx: Context, s: ir.Swap) -> list[Item]:
    if isinstance(s.first.ty, ZoneT):
        return [say(ctx, "exchange the cards in ", s.first, " with those in ", s.second)]
    return [say(ctx, "swap ", s.first, " with ", s.second, " (each takes the other's place)")]


@statement(ir.Shuffle)
def stmt_shuffle(ctx: Context, s: ir.Shuffle) -> list[Item]:
    return [say(ctx, "shuffle ", s.zone)]


@statement(ir.Flip)
def stmt_flip(ctx: Context, s: ir.Flip) -> list[Item]:
    if s.face is None:
        return [say(ctx, "turn ", s.card, " over")]
    return [say(ctx, f"turn face {s.face} ", s.card)]


def sorting(ctx: Context, s: ir.If) -> Item | None:
    """A card put in one place or another by its type, as one sentence: "Move the top card of the
    Action Deck to the Reserve if it is an action modifier card; otherwise to your hand"."""
    if len(s.branches) != 1 or s.otherwise is None:
        return None
    (cond, then), otherwise = s.branches[0], s.otherwise
    if len(then) != 1 or len(otherwise) != 1:
        return None
    yes, no = then[0], otherwise[0]
    if not (isinstance(cond, ir.IsType) and isinstance(yes, ir.Move) and isinstance(no, ir.Move)
            and yes.prose is None and no.prose is None and yes.every is None and no.every is None
            and yes.cards == no.cards == (cond.subject,)):
        return None
    kind = type_noun(ctx.rs.card_types[cond.kind]).a()
    return say(ctx, "move ", moved(ctx, cond.subject), " to ", yes.dest, POSITION[yes.position],
               f" if it is {'not ' if cond.negated else ''}{kind}; otherwise to ", no.dest, POSITION[no.position])


def done_to_each(ctx: Context, s: ir.For, every: Phrase) -> Item | None:
    """A loop that only turns or moves each thing, somewhere that is not its own: one instruction,
    "Turn face up every playing card in the dealer's hand", "Move every pawn in the box whose seat is at
    most the number of players to room 1 on the board", not "For every …: turn face up that playing card"."""
    b = s.binder
    if len(s.body) != 1 or len(b.names) != 1 or b.order or s.body[0].prose is not None:
        return None
    one, it = s.body[0], ir.Local(b.names[0])  # (a Local is its name: its type is not compared)
    if isinstance(one, ir.Flip) and one.card == it:
        return say(ctx, "turn ", every, " over") if one.face is None else say(ctx, f"turn face {one.face} ", every)
    if isinstance(one, ir.Move) and one.every is None and one.cards == (it,) \
            and not isinstance(one.cards[0].ty, (ZoneT, BoardT)) \
            and not any(isinstance(n, ir.Local) and n.name == it.name for n in walk(one.dest)):
        return say(ctx, "move ", every, " to ", one.dest, POSITION[one.position])
    if isinstance(one, ir.Roll) and die_rolled(ctx, one) == it:  # "Roll every die in the tray (d6)"
        return say(ctx, "roll ", every, f" ({words(one.die)})")
    return None


def die_rolled(ctx: Context, s: ir.Roll) -> ir.Expr | None:
    """The die on the table a roll is for (`roll d6 into d.face`, d a die as a component), or None: players
    roll that die, not "a die for the face of that die"."""
    t = s.target
    if s.count is None and isinstance(t, ir.Field) and isinstance(t.obj.ty, CardT) \
            and {ctx.rs.card_types[k].component for k in t.obj.ty.kinds} == {"die"}:
        return t.obj
    return None


def unordered(ctx: Context, domain: ir.Expr) -> bool:
    """The box, or a zone laid out as an area: its cards have no order a player sees, so the card the
    rules take first among those that qualify is any of them to a player ("a", not "the first")."""
    if not isinstance(domain, ir.ZoneRef):
        return False
    return domain.zone == "box" or domain.zone in ctx.rs.zones and ctx.rs.zones[domain.zone].kind == "area"


# what a card taken from a place by its own fields is told by: moving one card changes none of them
_OWN = (ir.Local, ir.Field, ir.IsType, ir.Const, ir.EnumValue, ir.Param, ir.Binary, ir.Unary)


def moved_in_turn(ctx: Context, s: ir.Repeat) -> Item | None:
    """The first card of a place without order, moved again and again: so many cards moved at once, "Move
    two pawns from the box to that player's yard", "Move enemies from the box whose kind is normal to the
    player's enemies, as many as …", not "Repeat twice: move the first pawn in the box to …"."""
    if len(s.body) != 1 or not isinstance(s.body[0], ir.Move) or s.body[0].prose is not None:
        return None
    one = s.body[0]
    taken = one.cards[0] if one.every is None and len(one.cards) == 1 else None
    if not (isinstance(taken, ir.Quantified) and taken.kind == "first" and len(taken.binder.names) == 1
            and not taken.binder.order and unordered(ctx, taken.binder.groups[0].domain)
            and taken.binder.groups[0].domain != one.dest):
        return None
    b = normal_binder(taken.binder, ctx.rs)
    if b.where is not None and not all(isinstance(n, _OWN) for n in walk(b.where)):
        return None  # a condition on anything else may change as the cards move
    many = things(ctx, b, "many", source=True)
    lead = first_words(many) if many is not None else None
    if many is None or lead is None:
        return None
    count = s.count.value if isinstance(s.count, ir.Const) and type(s.count.value) is int else None
    if count is not None:
        return say(ctx, "move ", replace_first_words(many, f"{grammar.number_word(count)} {lead}"), " to ", one.dest,
                   POSITION[one.position])
    return say(ctx, "move ", many, " to ", one.dest, POSITION[one.position], ", as many as ", s.count)
