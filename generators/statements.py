"""Statements in English: a `@statement` function makes the list items of each IR statement class.

A sentence is built with `say(ctx, ...)`: its own words as strings, its
slots as IR expressions; a nested block goes under it (`nested`).
"""
from __future__ import annotations

import re
from dataclasses import replace

from rulelang import ir, texts
from rulelang.abilities import ABILITY_TYPE
from rulelang.types import BOOL, ROLE, BoardT, EnumT, ListT, ZoneT

from . import grammar
from .document import Item, clean, em, sentence
from .flow import Again, Counted, Stop, Unsaid
from .english import (Context, block, let_ref, lower_first, placeholder, flat, inside, nested, phrase, role, say, slots,
                      statement, stmt, subject, verb, zone_noun)
from .clauses import negate
from .counts import by_cases
from .calls import is_row, template
from .values import flag_clause, owned, whose_it_is
from .moves import die_rolled, done_to_each, join_fixed, moved_in_turn, sorting, unordered
from .quantifiers import named_such_that, on_board, ordering, things
from .ranking import ranking_phrase
from .normalize import normal_binder, substitute
from .guarded import guarded_choice, taken_if_any
from .onecard import one_holder
from .nouns import kinds_noun, printed_field, value_words, words
from .phrases import Bound, Clause, Phrase, Words, bound, inline, lay, settle
from .phrases import words as seq


def holds_statements(s: ir.Stmt) -> bool:
    """Whether a statement holds statements of its own."""
    return any(isinstance(getattr(s, f), tuple) and any(isinstance(x, ir.Stmt) or isinstance(x, tuple)
                                                        for x in getattr(s, f)) for f in s.__dataclass_fields__)


@statement(ir.Let)
def stmt_let(ctx: Context, s: ir.Let) -> list[Item]:
    """A value noted for later (one that `flow.tidy` could not write where it is used)."""
    ref = let_ref(ctx, s)
    if s.value.ty == BOOL and isinstance(s.value, ir.Const):  # a switch: "*tried* starts off"
        return [say(ctx, ref, " starts on" if s.value.value else " starts off")]
    if isinstance(s.value, ir.ListExpr) and not s.value.items and ref.text.startswith("the "):
        return [say(ctx, "there are no ", Words(ref.text[4:]), " yet")]  # "There are no players *through* yet."
    if isinstance(s.value, ir.ListExpr) and not s.value.items:  # "*found* starts empty"
        return [say(ctx, ref, " starts empty")]
    if isinstance(s.value, ir.Const):  # "*n* starts at 1"
        return [say(ctx, ref, " starts at ", s.value)]
    if ref.noun is None:
        return [say(ctx, "note ", s.value, f" as {ref.text}")]
    return [say(ctx, "note ", s.value)]


@statement(Stop)
def stmt_stop(ctx: Context, s: Stop) -> list[Item]:
    return [Item("Stop.")]


@statement(Unsaid)
def stmt_unsaid(ctx: Context, s: Unsaid) -> list[Item]:
    return []


@statement(Counted)
def stmt_counted(ctx: Context, s: Counted) -> list[Item]:
    """"For each *step number* from 1 to 3:" — a counter the rules keep, said as what it counts."""
    return [nested(ctx, slots(ctx, "for each ", target(ctx, s.var), f" from {s.low} to {s.high}"),
                   block(ctx, s.body))]


@statement(ir.Assign)
def stmt_assign(ctx: Context, s: ir.Assign) -> list[Item]:
    value, op = s.value, s.op
    if op == "=" and isinstance(value, ir.Binary) and value.op in ("+", "-") and value.left == s.target:
        op, value = ("+=" if value.op == "+" else "-="), value.right  # x = x + 1: add 1 to x
    if s.target.ty == BOOL and isinstance(value, ir.Const) and op == "=":
        if isinstance(s.target, ir.Local):  # a switch the rules keep: "turn *tried* on"
            return [say(ctx, "turn ", target(ctx, s.target), " on" if value.value else " off")]
        return [say(ctx, flag_set(flag_clause(ctx, s.target), value.value))]
    what = target(ctx, s.target)
    if op == "=" and isinstance(s.target, ir.Var) and s.target.owner is None and s.target.ty == ROLE:
        said = phrase(ctx, s.target)  # "the dealer", where the variable's text says who it holds
        if not isinstance(said, Words) or "*" not in said.text and "\x0e" not in said.text:
            head = slots(ctx, value)  # "the player to the left of the dealer becomes the dealer"
            closed = "," if ", " in inline(settle(head)) else ""  # "the first …, in turn clockwise from …, becomes"
            return [say(ctx, head, f"{closed} becomes ", said)]
    if op == "=" and isinstance(s.target, ir.Var) and s.target.ty == ROLE and value == s.target.owner:
        # `team of p = p`: "that player becomes their own *team*", not "set that player's *team* to them"
        return [say(ctx, value, " becomes their own ", em(value_words(ctx.rs, s.target.name)))]
    if op == "=" and isinstance(s.target, ir.Field) and s.target.ty == ROLE:
        whose = whose_it_is(ctx, value)
        if whose is not None:  # a card's player: "the top disc … becomes yours", not "set its side to you"
            return [say(ctx, s.target.obj, " becomes ", *whose)]
    if op == "+=":
        return [say(ctx, "add ", value, " to ", what)]
    if op == "-=":
        return [say(ctx, "subtract ", value, " from ", what)]
    if op == "=" and isinstance(value, ir.Const) and value.value is None and s.target.ty == ROLE:
        return [say(ctx, "clear ", what)]  # "clear that player's *team*", not "set … to none"
    if value.ty == BOOL and not isinstance(value, ir.Const) and op == "=" and (
            isinstance(s.target, ir.Field) or isinstance(s.target, ir.Var) and ctx.rs.vars[s.target.name].text):
        # "note whether the last combat was won: yes if …", not "set *combat won* to whether …"
        return [say(ctx, "note whether ", flag_clause(ctx, s.target), ": yes if ", value, ", otherwise no")]
    if value.ty == BOOL and not isinstance(value, ir.Const):  # a condition's truth, not the condition
        return [say(ctx, "set ", what, " to whether ", value)]
    return [say(ctx, "set ", what, " to ", value)]


def flag_set(c: Clause, on: bool) -> Phrase:
    """A condition made true or false: "the Encounter card is now sprung", "that player no longer
    faces the room", "now the end of the game has been triggered"."""
    aux = c.verb.split(" ")[0]
    if aux in ("is", "are"):
        verb = f"{aux} {'now' if on else 'no longer'}{c.verb[len(aux):]}"
    elif aux in grammar.AUXILIARIES and on:
        verb = f"{aux} now{c.verb[len(aux):]}"
    elif aux in grammar.AUXILIARIES:
        return seq("now ", negate(c))
    else:
        verb = f"{'now' if on else 'no longer'} {c.verb}"  # "that soldier now holds a Phalanx token"
    return Clause(c.subject, verb, c.rest, c.many)


def target(ctx: Context, e: ir.Expr) -> Phrase:
    """What is set: a variable or a card's state, named (a true/false one too, not as a condition)."""
    if isinstance(e, ir.Field):
        return seq(f"the {printed_field(ctx.rs, e.name)} of ", phrase(ctx, e.obj))
    if isinstance(e, ir.Local):
        return ctx.refs.get(e.name) or Bound(placeholder(e.name), name=e.name)
    if isinstance(e, ir.Var) and e.owner is not None:  # a player's own: "that player's *run*"
        return owned(ctx, em(value_words(ctx.rs, e.name)), e.owner)
    if isinstance(e, ir.Var) and isinstance(e.ty, EnumT):  # "the suit to follow", as its `text:` says
        return phrase(ctx, e)
    return Words(em(value_words(ctx.rs, e.name)))


@statement(ir.If)
def stmt_if(ctx: Context, s: ir.If) -> list[Item]:
    one = sorting(ctx, s)
    if one is not None:
        return [one]
    items = []
    for i, (cond, body) in enumerate(s.branches):
        guarded = guarded_choice(ctx, cond, body, "If" if i == 0 else "Otherwise, if")
        if guarded is not None:
            items.append(guarded)
            continue
        head = slots(ctx, "if " if i == 0 else "otherwise, if ", cond)
        items.append(nested(ctx, head, taken_if_any(ctx, cond, body) or block(ctx, body)))
    if s.otherwise is not None:
        items.append(nested(ctx, Words("otherwise"), block(ctx, s.otherwise)))
    return items


@statement(ir.While)
def stmt_while(ctx: Context, s: ir.While) -> list[Item]:
    """"Repeat until …", "draw a card until …", "repeat as long as …"; "repeat: … stop" for a loop
    that ends where its body says so."""
    body = block(ctx, s.body)
    if isinstance(s.cond, ir.Const) and s.cond.value is True and not s.until:
        if any(isinstance(n, Stop) for n in _own_statements(s.body)):
            return [nested(ctx, Words("repeat"), body)]
        ends = "the step or the game ends" if ctx.mode is not None and ctx.mode.watches else "the game ends"
        return [nested(ctx, Words(f"repeat until {ends}"), body)]
    if s.until:
        return [nested(ctx, slots(ctx, "repeat until ", s.cond), body)]
    stop = ir.Unary("not", s.cond, ty=s.cond.ty)
    until = _negations(flat(phrase(ctx, stop))) <= _negations(flat(phrase(ctx, s.cond)))
    if until and len(body) == 1 and not body[0].children and not re.search("[:;]", body[0].text):
        return [say(ctx, body[0].text.rstrip("."), " until ", stop)]  # "draw a card until your hand holds four"
    return [nested(ctx, slots(ctx, "repeat until ", stop) if until else slots(ctx, "repeat as long as ", s.cond),
                   body)]


@statement(Again)
def stmt_again(ctx: Context, s: Again) -> list[Item]:
    """A re-roll: "Roll a die (d6) for *die* until *die* is more than 2" (the roll, then the loop that
    rolls again); where the statements are not one sentence, as they are written."""
    body = block(ctx, s.body)
    if len(body) == 1 and not body[0].children and not re.search("[:;]", body[0].text):
        return [say(ctx, body[0].text.rstrip("."), " until ", s.stop)]
    return body + stmt_while(ctx, s.loop)


def _negations(text: str) -> int:
    return len(re.findall(r"\b(not|no|none|cannot|neither|nor)\b", text))


def _own_statements(block: ir.Block):
    """The statements of a block and its blocks, but not of loops inside it."""
    for s in block:
        yield s
        if not isinstance(s, (ir.While, ir.Repeat, ir.For)):
            for child in s.__dataclass_fields__:
                value = getattr(s, child)
                for b in _stmt_blocks(value):
                    yield from _own_statements(b)


def _stmt_blocks(value):
    if isinstance(value, tuple) and value and all(isinstance(x, ir.Stmt) for x in value):
        yield value
    elif isinstance(value, tuple):
        for x in value:
            yield from _stmt_blocks(x)
    elif isinstance(value, ir.MenuOption):
        yield value.body


@statement(ir.Repeat)
def stmt_repeat(ctx: Context, s: ir.Repeat) -> list[Item]:
    moved = moved_in_turn(ctx, s)
    if moved is not None:  # "move two pawns from the box to …"
        return [moved]
    if isinstance(s.count, ir.Const) and isinstance(s.count.value, int):
        up_to = "up to " if any(isinstance(n, Stop) for n in _own_statements(s.body)) else ""  # a loop flag's stop
        return [nested(ctx, Words(f"repeat {up_to}{grammar.times(s.count.value)}"), block(ctx, s.body))]
    counted = s.count.args[0] if isinstance(s.count, ir.BuiltinCall) and s.count.name == "size" else None
    if counted is not None and isinstance(counted.ty, (ZoneT, BoardT)):  # counted once, before the first time
        return [nested(ctx, slots(ctx, f"repeat once for each {zone_noun(ctx, counted).one} in ", counted),
                            block(ctx, s.body))]
    said = phrase(ctx, s.count) if isinstance(s.count, (ir.Local, ir.Var)) else None
    if isinstance(said, (Words, Bound)) and re.fullmatch(r"\*[^*]+\*|[A-Z]", said.text):  # "repeat *n* times", a name alone
        return [nested(ctx, slots(ctx, "repeat ", s.count, " times"), block(ctx, s.body))]
    per = s.count
    cases = by_cases(per, grammar.times, ", ", lambda e: ["as many times as ", e])
    if cases is not None:  # "repeat 3 times if …, otherwise twice", not "as many times as (3 if …)"
        return [nested(ctx, slots(ctx, f"repeat {cases[0]}", *cases[1]), block(ctx, s.body))]
    if isinstance(per, ir.Binary) and per.op == "*" and isinstance(per.left, ir.Const) \
            and type(per.left.value) is int and per.right == ir.BuiltinCall("size", (ir.BuiltinCall("players", ()),)):
        return [nested(ctx, Words(f"repeat {grammar.times(per.left.value)} for each player"),  # as a rulebook says
                       block(ctx, s.body))]
    return [nested(ctx, slots(ctx, "repeat as many times as ", s.count), block(ctx, s.body))]


@statement(ir.For)
def stmt_for(ctx: Context, s: ir.For) -> list[Item]:
    s = replace(s, binder=normal_binder(s.binder, ctx.rs))
    head = introduce(ctx, s.binder, "every")
    done = done_to_each(ctx, s, head)
    if done is not None:
        return [done]
    inner = inside(ctx, s.binder)
    body = block(inner, s.body)
    return [nested(ctx, slots(ctx, "for ", head, ordering(ctx, s.binder)), body)]


def introduce(ctx: Context, b: ir.Binder, det: str) -> Phrase:
    """The phrase a statement introduces its bound things with: "a soldier in the Gauntlet that
    can still act", or "two action cards in your hand such that …"."""
    return things(ctx, b, det) or named_such_that(ctx, b, det)


def then(inner: Context, head: Phrase, body: list[Item]) -> Item:
    """"head, then body": `inner` is the body's context (what the head introduced is in scope)."""
    return nested(inner, head, body, then=", then")


@statement(ir.Take)
def stmt_take(ctx: Context, s: ir.Take) -> list[Item]:
    """An automatic choice: made by the rule (or at random), not by a player."""
    s = replace(s, binder=normal_binder(s.binder, ctx.rs))
    if s.which == "random":
        chosen = _chosen_role(ctx, s)
        if chosen is not None:  # "Pick the dealer at random", not "pick a player …, then that player becomes the dealer"
            return [say(ctx, "pick ", chosen, " at random")]
        what = introduce(ctx, s.binder, "a")
        inner = inside(ctx, s.binder)
        body = block(inner, s.body)
        return [then(inner, slots(ctx, "pick ", what, " at random"), body)]
    domain = s.binder.groups[0].domain
    which = s.which
    if is_row(ctx, domain):
        which = "left-most" if which == "first" else "right-most"
    det = "the" if on_board(domain) or isinstance(domain.ty, BoardT) else f"the {which}"  # a board has no first
    if s.binder.where is not None and unordered(ctx, domain):  # "take a skill card in the box whose name is …"
        det = "a"
    if one_holder(ctx.rs, s.binder):  # "the player that has the two of clubs": there is no first of them
        det = "the"
    what = introduce(ctx, s.binder, det)
    inner = inside(ctx, s.binder)
    body = block(inner, s.body)
    ref = inner.refs[s.binder.names[0]].text + " "
    if len(body) == 1 and not body[0].children and s.binder.types[:1] == (ROLE,) and body[0].text.lower().startswith(ref):
        # a player is not taken: "The first player … whose … chooses a suit", not "Take the first player …, then that player …"
        laid = lay(slots(ctx, what, ordering(ctx, s.binder)), lists=False, people=ctx.people)
        closed = "," if ", " in laid.text else ""  # "…, in turn clockwise from the dealer, chooses"
        return [Item(sentence(f"{laid.text}{closed} {body[0].text[len(ref):]}"))]
    if s.binder.types[:1] == (ROLE,):  # a player is not taken: "For the first player in seat order that …: …"
        return [nested(ctx, slots(ctx, "for ", what, ordering(ctx, s.binder)), body)]
    return [then(inner, slots(ctx, "take ", what, ordering(ctx, s.binder)), body)]


def _chosen_role(ctx: Context, s: ir.Take) -> Phrase | None:
    """What a player picked at random from every player becomes, where that is all the pick does and
    a variable's `text:` names it ("the dealer")."""
    b = s.binder
    if len(b.names) != 1 or b.where is not None or b.groups[0].domain != ir.BuiltinCall("players", ()) \
            or len(s.body) != 1:
        return None
    a = s.body[0]
    if not (isinstance(a, ir.Assign) and a.op == "=" and a.value == ir.Local(b.names[0])
            and isinstance(a.target, ir.Var) and a.target.owner is None and a.target.ty == ROLE):
        return None
    said = phrase(ctx, a.target)
    return said if isinstance(said, Words) and said.text.startswith("the ") and "*" not in said.text else None


@statement(ir.Roll)
def stmt_roll(ctx: Context, s: ir.Roll) -> list[Item]:
    """`roll 2 d6 into xs` -> "Roll two dice (d6); call the result *xs*."; `roll d6 into die` -> "Roll a
    die (d6) for *die*" (what the roll is for, as players say it)."""
    if s.count is None:
        dice: Phrase = Words("a die (d6)" if s.die == "d6" else f"the {words(s.die)}")
    elif isinstance(s.count, ir.Const) and isinstance(s.count.value, int):
        n = s.count.value
        dice = Words(f"{'one die' if n == 1 else grammar.number_word(n) + ' dice'} ({words(s.die)})")
    else:
        dice = seq(phrase(ctx, s.count), bound(f" dice ({words(s.die)})"))
    # "roll three dice (d6) for *cup* if …; otherwise two", not "roll (3 if …; otherwise 2) dice (d6)"
    cases = by_cases(s.count, grammar.number_word, ", " if s.declares else "; ") if s.count is not None else None
    if cases is not None:
        dice = Words(f"{cases[0]} dice ({words(s.die)})")
    said = cases[1] if cases is not None else []
    secret = ctx.rs.vars[s.target.name].seen_by if isinstance(s.target, ir.Var) else "all"
    hidden = {"owner": " where only that player sees them" if isinstance(s.target, ir.Var) and s.target.owner
              is not None and not (isinstance(s.target.owner, ir.RoleRef) and s.target.owner.role == ctx.you)
              else " where only you see them", "none": " where no one sees them"}.get(secret, "")
    if s.declares:
        return [say(ctx, "roll ", dice, *said, hidden, "; call the result ", target(ctx, s.target))]
    die = die_rolled(ctx, s)
    if die is not None:  # "roll that die (d6)", not "roll a die (d6) for the face of that die"
        return [say(ctx, "roll ", phrase(ctx, die), f" ({words(s.die)})", "," + hidden if hidden else "")]
    return [say(ctx, "roll ", dice, " for ", target(ctx, s.target), "," + hidden if hidden else "", *said)]


@statement(ir.Reveal)
def stmt_reveal(ctx: Context, s: ir.Reveal) -> list[Item]:
    """`reveal hand of p to q` -> "Show *p*'s hand to *q* (the others see only that it is shown)"."""
    if s.to is None:
        return [say(ctx, "show ", s.what, " to every player")]
    return [say(ctx, "show ", s.what, " to ", s.to, " only")]


@statement(ir.Announce)
def stmt_announce(ctx: Context, s: ir.Announce) -> list[Item]:
    """`announce "{p} bids {n}"` -> "Say aloud: “*p* bids *n*”"."""
    if s.to is None:
        return [say(ctx, "say aloud: ", s.text)]
    return [say(ctx, "tell ", s.to, " only: ", s.text)]


@statement(ir.Menu)
def stmt_menu(ctx: Context, s: ir.Menu) -> list[Item]:
    may = _may(ctx, s)
    if may is not None:
        return [may]
    options = []
    for opt in s.options:
        head = Words(em(words(opt.name))) if opt.guard is None else \
            slots(ctx, f"{em(words(opt.name))} (only if ", opt.guard, ")")
        options.append(nested(ctx, head, block(ctx, opt.body)))
    head = slots(ctx, verb(ctx, s.role, "choose"), " one of these")
    return [nested(ctx, head, options)]


def _may(ctx: Context, s: ir.Menu) -> Item | None:
    """A choice between doing something and nothing, said by what it does: "you may roll that die (d6)",
    not "you choose one of these: *keep*: do nothing; *reroll*: roll that die (d6)" (the options' names
    are for programs: the appendix names the decision)."""
    if len(s.options) != 2 or any(o.guard is not None for o in s.options):
        return None
    idle = [o for o in s.options if all(isinstance(x, ir.Pass) for x in o.body)]
    if len(idle) != 1:
        return None
    done = block(ctx, next(o for o in s.options if o is not idle[0]).body)
    if len(done) != 1 or done[0].children or re.search("[:;]", done[0].text):
        return None  # "you may: you choose …" reads worse than the options by name
    said, _ = subject(ctx, s.role)
    return say(ctx, said, bound(" may "), Words(lower_first(ctx, done[0].text).rstrip(".")))


@statement(ir.EndGame)
def stmt_endgame(ctx: Context, s: ir.EndGame) -> list[Item]:
    head, then = ending(ctx, s)
    if s.kind == "end":  # who wins is said once, under the end of the game
        return [Item(sentence(head))]
    return [Item(sentence(f"{head}; {then}" if then else head))]


def ending(ctx: Context, s: ir.EndGame) -> tuple[str, str | None]:
    """("the Challenger wins", what it means for the others, if anything). An ending's name (`as
    finished`) is bookkeeping for outcomes and logs: the conditions around it say when it happens."""
    if s.kind == "end":
        return "the game ends", ranking_phrase(ctx)
    if s.kind == "draw":
        return "the game ends in a draw", None
    if isinstance(s.role.ty, ListT):  # a team: the players named, or every player of a list
        team = phrase(ctx, s.role)
        if isinstance(s.role, ir.ListExpr):
            return f"{flat(team)} {s.kind}", None
        return f"every player in {flat(team)} {s.kind}s", None
    who, you = subject(ctx, s.role)
    verb = s.kind if you else s.kind + "s"
    head = f"{flat(who)} {verb}"
    others = [r for r in (ctx.mode.roles if ctx.mode else [r.name for r in ctx.rs.roles])
              if not (isinstance(s.role, ir.RoleRef) and r == s.role.role)]
    if not others or not isinstance(s.role, ir.RoleRef):
        return head, None
    other = "lose" if s.kind == "win" else "win"
    if len(others) == 1:
        them = others[0]
        return head, f"{role(ctx, them)} {other if them == ctx.you else other + 's'}"
    return head, f"every other player {other}s"


@statement(ir.Trigger)
def stmt_trigger(ctx: Context, s: ir.Trigger) -> list[Item]:
    """`trigger`: the cards' abilities answer a moment; `window`: a player may play them."""
    event = ctx.rs.events[s.event]
    args = {p: a for (p, _), a in zip(event.params, s.args)}
    said = texts.names(event.text or "")  # the text's own arguments; the others are listed after it, once
    moment = template(ctx, event.text, {p: a for p, a in args.items() if p in said}, False) if event.text \
        else Words(em(words(s.event)))
    unsaid = [a for p, a in args.items() if p not in said]
    if unsaid:  # what the event is about, where its text does not say it: "a hit (that player, 2)"
        listed = [x for i, a in enumerate(unsaid) for x in ((Words(", ", hard=True),) if i else ()) + (phrase(ctx, a),)]
        moment = seq(moment, Words(" (", hard=True), *listed, Words(")", hard=True))
    if s.window:
        role = next(a for (_, t), a in zip(event.params, s.args) if t == ROLE)
        who, you = subject(ctx, role)
        kinds = window_kinds(ctx, s.event)
        if kinds:  # "may use their red cards": the cards say what they do (Abilities)
            return [say(ctx, who, f" may use {'your' if you else 'their'} {kinds_noun(ctx.rs, kinds).many}"
                             ", one at a time, until ", "you pass" if you else "passing")]
        return [say(ctx, who, " may use abilities that answer ", moment, ", one at a time, until ",
                         "you pass" if you else "passing")]
    return [say(ctx, "at ", moment, ", every ability on a card that answers it takes effect, card by card")]


def window_kinds(ctx: Context, event: str) -> list[str]:
    """The card types whose every card, and no other, carries the abilities that answer an event
    (by `abilities:`), or [] when the abilities are carried otherwise."""
    answering = [a for a in ctx.rs.abilities.values() if a.on == event]
    kinds = [k for k, ct in ctx.rs.card_types.items() if any(a.name in ct.abilities for a in answering)]
    if not answering or not kinds:
        return []
    by_field = any(f.type == EnumT(ABILITY_TYPE) and c.values.get(f.name) in {a.name for a in answering}
                   for c in ctx.rs.cards for f in ctx.rs.card_types[c.kind].fields)
    return [] if by_field else kinds


@statement(ir.Eliminate)
def stmt_eliminate(ctx: Context, s: ir.Eliminate) -> list[Item]:
    who, you = subject(ctx, s.role)  # the reason's name is for outcomes and logs, not for players
    return [say(ctx, who, f" {'are' if you else 'is'} out of the game")]


@statement(ir.CallProc)
def stmt_callproc(ctx: Context, s: ir.CallProc) -> list[Item]:
    proc = ctx.rs.procedures[s.name]
    args = {p: a for (p, _), a in zip(proc.params, s.args)}
    if len(proc.body) == 1 and not proc.text and not holds_statements(proc.body[0]):  # said where it is used
        return stmt(ctx, substitute(proc.body[0], args))
    ctx.terms.setdefault(s.name)
    if proc.text:
        return [say(ctx, template(ctx, proc.text, args, False))]
    if not s.args:
        return [say(ctx, f"carry out {em(words(s.name))}")]
    return [say(ctx, f"carry out {em(words(s.name))} for ", join_fixed(ctx, [phrase(ctx, a) for a in s.args]))]


@statement(ir.Pass)
def stmt_pass(ctx: Context, s: ir.Pass) -> list[Item]:
    return [Item("Do nothing.")]


def watch(ctx: Context, w: ir.Watch) -> Item:
    """`watch:` as the rulebook's "as soon as …": what happens, where it happens."""
    steps = {st.name: i for i, st in enumerate(ctx.mode.round, 1)} if ctx.mode is not None else {}
    then = f"go on with step {steps[w.then]}, {clean(w.then)}" if w.then in steps else \
        "go on with the next step"
    body = block(ctx, w.body) + [Item(sentence(f"then {then}"))]
    if w.text:
        return Item(sentence(clean(w.text).rstrip(".") + ":"), body)
    return nested(ctx, slots(ctx, "as soon as ", w.when, ", stop the step"), body)
