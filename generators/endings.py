"""The end of the game, as a rulebook states it: when each ending happens, who wins, the score.

The endings are found by walking the rules: every `win`, `lose` and `end
game` the mode's rules reach, with the conditions on the way to it, one a
line ("you lose when no pair of cards in the hand can complete the trial,
the Action Deck is empty and no refresh card in the Reserve is face up").
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import field, replace

from rulelang import ir
from rulelang.records import record
from rulelang.walk import walk

from .document import Item, Items, Para, Table, clean, em, sentence, strong
from .english import Context, each_player, flat, inside, let_ref, phrase, role_def, say, verb
from .effects import clash, reads_of, writes_of
from .flow import Counted, tidy
from .glossary import parameters
from . import grammar
from .grammar import article
from .calls import template
from .clauses import merge
from .normalize import conjuncts, normal, normal_binder, tighten
from .nouns import Noun, join, possessive, role_name, words
from .phrases import Phrase, bound, lay
from .phrases import words as seq
from .ranking import ranking_phrase
from .statements import ending, introduce


@record
class Chosen(ir.Expr):
    """An option of a menu taken, on the way to an ending: "Alice chooses *fold*" (a player can
    act on when the game ends only if the rules say which choices end it)."""
    role: ir.Expr
    option: str


@record
class Chose(ir.Expr):
    """A thing chosen on the way to an ending: "you choose a playing card in your hand that you may play"
    (what comes after the choice is met after it, not with the conditions before it)."""
    at: Context = field(compare=False)
    choice: ir.Choose


@record
class Said(ir.Expr):
    """A condition met where an action is carried out, for an ending in the action: "its row is 1",
    said in the context of that place (`at`), where its names are bound; `action`: the procedure it
    is met in, whose own words go with it ("when you check the space a gobbot has just entered and its
    row is 1"), or None where it is met in a step."""
    at: Context = field(compare=False)
    cond: ir.Expr
    action: str | None = None


PATH = (Chosen, Chose, Said)  # what is met on the way to an ending, in order


@record
class Changed(ir.Expr):
    """What the rules may have changed on the way (`effects.writes_of`), between two conditions: a
    condition met before it that reads what it changed is stale once a later one is met (`_current`)."""
    writes: frozenset


def _said(at: Context, c: ir.Expr) -> str:
    return lay(_event(at, c), people=at.people).text


def _event(at: Context, c: ir.Expr) -> Phrase:
    if isinstance(c, Said):
        return _event(c.at, c.cond)
    if isinstance(c, Chosen):
        return seq(verb(at, c.role, "choose"), f" {em(words(c.option))}")
    if isinstance(c, Chose):
        b = normal_binder(c.choice.binder, at.rs)
        return seq(verb(at, c.choice.role, "choose"), " ", introduce(at, b, "a"))
    return phrase(at, c)


def _in_action(ctx: Context, said: list[Said]) -> Phrase:
    """Conditions met in one action, as a clause with the action's own words: "you check the space a
    gobbot has just entered and its row is 1" (the action introduces what the conditions refer to)."""
    at, name = said[0].at, said[0].action
    assert name is not None
    proc = ctx.rs.procedures[name]
    intros = parameters(ctx, proc.text, proc.params, proc.body, proc.param_texts)[1]
    introduced = at.with_refs({p: replace(at.refs[p], text=intros[p]) for p in intros if p in at.refs})
    fixed = dict(f for s in said if (f := _fixed(s.cond, proc)) is not None)  # "N is 13": "in room 13"
    if proc.text:
        done = template(introduced, proc.text, {p: fixed.get(p, ir.Local(p, ty=ty)) for p, ty in proc.params}, False)
    else:
        done = seq("carry out ", em(words(name)))
    conds = [phrase(at, s.cond) for s in said if _fixed(s.cond, proc) is None]
    # words that are an imperative ("check the space …") take a subject, with the plural's verb; a
    # clause ("the teams in room 13 fight …") has its own
    first = clean(proc.text).split(" ", 1)[0] if proc.text else "carry"
    who = ("you " if at.you is not None or at.turn else "the players ") if grammar.is_verb(first) else ""
    join = " and " if who else ", and then "  # a clause's own "or" never takes in what follows it
    return seq(bound(who), done, *((bound(join), merge("and", conds)) if conds else ()))


def _fixed(c: ir.Expr, proc: ir.Procedure) -> tuple[str, ir.Const] | None:
    """A condition that a parameter of the action is one value (`n == 13`): the action is said with it."""
    if isinstance(c, ir.Binary) and c.op == "==":
        for a, b in ((c.left, c.right), (c.right, c.left)):
            if isinstance(a, ir.Local) and isinstance(b, ir.Const) and a.name in dict(proc.params):
                return a.name, b
    return None


def end_blocks(ctx: Context, mode: ir.Mode) -> list:
    items: list = []  # an Item, or a _Plain ending to be said with those alike beside it
    on_score = False
    for where, stmt, conds, at, loops in endings(ctx, mode):
        at_head, conds = _any_of_loop(at, stmt, conds, loops)
        head, then = ending(at_head, stmt)
        on_score = on_score or stmt.kind == "end"
        head = f"{head} and {then}" if then and stmt.kind != "end" else head
        where = _every_step(mode, where)
        place = (", in " if then and stmt.kind != "end" else " in ") + join(sorted(where, key=_order)) if where else ""
        # a choice only separates what is met before it from what is met after: one with nothing before it
        # is the step's own business ("you choose a trial card …", then "*trials completed* is 20")
        conds = [c for i, c in enumerate(conds) if not isinstance(c, Chose)
                 or any(not isinstance(d, Chose) for d in conds[:i])]
        if any(isinstance(c, Chose) or isinstance(c, Chosen) or isinstance(c, Said) and c.action for c in conds):
            # a path, not a set of facts: "You can play", then "you choose a card …", then "your hand is empty"
            laid = lay(_path(ctx, at, conds), people=at.people)
            items.append(Item(sentence(f"{head}{place}, when {laid.text}"), laid.items))
            continue
        said = [Item(sentence(_said(at, c)))  # in the order they are met, before the ending's own conditions
                for c in conds if isinstance(c, PATH)]
        conds = _tight(ctx, [c for c in conds if not isinstance(c, PATH)])
        if said:
            items.append(Item(sentence(f"{head}{place}, when all of these hold:"),
                              said + [condition_item(at, c) for c in conds]))
        else:
            items.append(_Plain(head, place, conds, at))
    items = _alike(items)
    blocks: list = [Items(items)] if items else [Para("The rules never end the game by themselves.")]
    if on_score:
        blocks.append(Para(sentence(f"when the game ends, {ranking_phrase(ctx)}")))
    alike = each_player(ctx, mode.score, "score is")
    if alike is not None and not _restated(alike):
        blocks.append(Para(sentence(alike)))
    for who_, value in mode.score.items() if alike is None else ():
        who = "Your score" if ctx.you == who_ else f"{possessive(role_name(role_def(ctx.rs, who_)))} score"
        own = say(ctx, who[:1].lower() + who[1:] + " is ", value).text
        if not _restated(own):
            blocks.append(Para(own))
    if mode.ratings:
        rows = [[strong(words(r.name)), score_range(r)] for r in mode.ratings]
        blocks += [Para("A winner's score gives a rating:"), Table(["rating", "score"], rows)]
    return blocks


def _restated(said: str) -> bool:
    """"Each player's score is their score.": a score named by a term called the score (defined in the
    Terms) says nothing more; the ranking sentence before it already says the highest score wins."""
    m = re.fullmatch(r"(.+?) score is (.+?) score\.?", said)
    return m is not None and (m.group(2) in ("their", "your", "the player's") or m.group(2).lower() == m.group(1).lower())


@record
class _Plain:
    """An ending said by the conditions under which it happens, which endings beside it may share."""
    head: str  # "Player 1 wins"
    place: str  # " in step 5 (Settle)"
    conds: list = field(compare=False)
    at: Context = field(compare=False)


def _alike(entries: list, lead: str = "") -> list[Item]:
    """The endings, those beside each other in one place under the same first condition said once
    under it, as the rules test it: "In step 5 (Settle), when the round number is the *hands* option:",
    then "If a player is alone at the table:", then "Player 1 wins when …", "Player 1 loses when …"
    (not the conditions they share repeated for each); the same ending under either of two conditions
    is one, "when A or B". `lead`: the place, said by the group above."""
    out: list[Item] = []
    i = 0
    while i < len(entries):
        e = entries[i]
        if not isinstance(e, _Plain):
            out.append(e)
            i += 1
            continue
        j = i + 1
        while j < len(entries) and _one_way(entries[j], e):  # "The game ends, when A or B"
            j += 1
        if j - i > 1 and not _either_way(e.at.rs, [x.conds[0] for x in entries[i:j]]):
            laid = lay(merge("or", [phrase(x.at, x.conds[0]) for x in entries[i:j]]), people=e.at.people)
            head = e.head if lead else f"{e.head}{e.place},"
            out.append(Item(sentence(f"{head} when {laid.text}"), laid.items))
            i = j
            continue
        j = i + 1
        while j < len(entries) and isinstance(entries[j], _Plain) and entries[j].place == e.place \
                and entries[j].conds[:1] == e.conds[:1] and e.conds:
            j += 1
        shared = lay(phrase(e.at, e.conds[0]), people=e.at.people) if j - i > 1 else None
        if shared is None or shared.items:  # one ending, or a condition said as a list: said in full
            out.append(_plain_item(e, lead))
            i += 1
            continue
        opener = f"{e.place.lstrip(', ')}, when " if not lead else "if "
        rest = [replace(x, conds=x.conds[1:], place="" if not lead else x.place) for x in entries[i:j]]
        out.append(Item(sentence(f"{opener}{shared.text}:"), _alike(rest, lead or e.place)))
        i = j
    return out


def _one_way(e, first: _Plain) -> bool:
    """`e` is the same ending as `first`, in the same place, each under one condition: either leads to it."""
    return isinstance(e, _Plain) and (e.head, e.place) == (first.head, first.place) \
        and len(e.conds) == len(first.conds) == 1


def _either_way(rs: ir.Ruleset, conds: list[ir.Expr]) -> bool:
    """One condition is another's negation: "when A or not A" says nothing, each is said as it is."""
    said = {normal(c, rs) for c in conds}
    return any(normal(ir.Unary("not", c, ty=c.ty), rs) in said for c in conds)


def _plain_item(e: _Plain, lead: str) -> Item:
    """One ending with its conditions; under a group (`lead`), without the place the group says."""
    head = e.head if lead else f"{e.head}{e.place},"
    if not e.conds:
        return Item(sentence(head.rstrip(",")))
    if len(e.conds) == 1:
        laid = lay(phrase(e.at, e.conds[0]), people=e.at.people)
        return Item(sentence(f"{head} when {laid.text}"), laid.items)
    return Item(sentence(f"{head} when all of these hold:"), [condition_item(e.at, c) for c in e.conds])


def _tight(ctx: Context, conds: list[ir.Expr]) -> list[ir.Expr]:
    return list(dict.fromkeys(tighten([c for cond in conds for c in conjuncts(normal(cond, ctx.rs))])))


def _path(ctx: Context, at: Context, conds: list[ir.Expr]) -> Phrase:
    """The way to an ending as one clause, in the order it is met: "Alice chooses *check*, Bob chooses
    *bet*, then Alice chooses *fold*". Conditions tested together are one part (tightened); an action
    is said with its words and the conditions met in it. What is tested after the last choice is what
    that choice leads to ("…, then your hand is empty"); after an action, the outcome's condition
    ("…, if the number of Soldiers at the end of the Gauntlet is more than 0")."""
    parts: list[tuple[str, Phrase]] = []  # ("fact" | "choice" | "action", its words)
    facts: list[ir.Expr] = []
    acted: list[Said] = []

    def flush():
        if facts:
            parts.append(("fact", merge("and", [phrase(at, c) for c in _tight(ctx, facts)])))
            facts.clear()
        if acted:
            parts.append(("action", _in_action(ctx, acted)))
            acted.clear()

    for c in conds:
        if isinstance(c, Said) and c.action is not None and (not acted or acted[0].action == c.action):
            if facts:
                flush()
            acted.append(c)
            continue
        flush()
        if isinstance(c, PATH):
            parts.append(("choice", _event(at, c)))
        else:
            facts.append(c)
    flush()
    last = parts.pop() if len(parts) > 1 and parts[-1][0] == "fact" and parts[-2][0] != "fact" else None
    if last is not None and parts[-1][0] == "action":  # met in the action: a condition of the outcome
        return seq(_in_order(parts), bound(", if "), last[1])
    return _in_order(parts + ([("then", last[1])] if last is not None else []))


def _in_order(parts: list[tuple[str, Phrase]]) -> Phrase:
    """"A, B, then C": parts met one after the other; "then" marks the last of two events or more, or
    what the last choice leads to; the parts before it are joined by "and" where they are two."""
    events = sum(kind != "fact" for kind, _ in parts)
    pieces: list[Phrase] = []
    for i, (kind, p) in enumerate(parts):
        if i:
            last = i == len(parts) - 1
            if last and (kind == "then" or events > 1 and kind != "fact"):
                pieces.append(bound(", then " if len(parts) > 2 else " and then "))
            else:
                pieces.append(bound(" and " if last and len(parts) == 2 else ", "))
        pieces.append(p)
    return seq(*pieces)


def _every_step(mode: ir.Mode, where) -> tuple[str, ...]:
    """Every step of the round is any step: "You win in any step", not "in step 1 (…), step 2 (…) and
    step 3 (…)" (a reader would check that no step was left out)."""
    steps = {f"step {i} ({clean(step.name)})" for i, step in enumerate(mode.round, 1)}
    if len(steps) < 2 or not steps <= set(where):
        return tuple(where)
    return tuple(dict.fromkeys(w if w not in steps else "any step" for w in where))


def _order(place: str):
    """Places in the order play reaches them: the setup, the steps by number, then any step."""
    number = re.match(r"step (\d+)", place)
    return (0, 0) if place == "the setup" else (1, int(number.group(1))) if number else (2, 0)


def score_range(r: ir.Rating) -> str:
    if r.high is None:
        return f"{r.low} or more"
    return str(r.low) if r.high == r.low else f"{r.low}–{r.high}"


def condition_item(ctx: Context, condition: ir.Expr) -> Item:
    laid = lay(phrase(ctx, condition), people=ctx.people)
    return Item(sentence(laid.text), laid.items)


def endings(ctx: Context, mode: ir.Mode):
    """(where, end statement, conditions, context) for every end statement the mode's rules
    reach, once each, with the conditions around it where it is written — as a rulebook
    states it, not once per path. An ending in an action (a procedure) is placed in the
    steps that carry the action out. The rules' own bookkeeping (a loop's flag, `while true`)
    is no condition (`flow.tidy`); a value the rules noted is named as it is in the rules."""
    rs = ctx.rs
    found = []
    calls: dict[str, list[str]] = {}  # procedure -> where it is carried out
    # an action carried out in one place only: the conditions there are its ending's too ("You win
    # in step 2, when the row of the gobbot is 1 and …", not "You win in step 2, when …" alone)
    once = Counter(n.name for n in walk((rs, tuple(rs.procedures.values()), tuple(rs.modes.values())))
                   if isinstance(n, ir.CallProc))
    before_call: dict[str, list[ir.Expr]] = {}

    def walk_block(block, conds, where, at, intros=None, proc=None, loops=_NO_LOOPS, own=0):
        for s in tidy(rs, block):
            if isinstance(s, ir.EndGame):
                conds = _current(rs, conds)
                if proc is not None and rs.procedures[proc].text:  # what only the action names: with its words
                    conds = conds[:own] + [Said(at, c, proc) if _names_inside(c, at, ctx) else c
                                           for cond in conds[own:]
                                           for c in ([cond] if isinstance(cond, PATH) else conjuncts(normal(cond, rs)))]
                found.append((where, s, [c for c in conds if not (isinstance(c, ir.Const) and c.value is True)],
                              at, loops))
            elif isinstance(s, ir.If):
                before = []
                for cond, body in s.branches:
                    walk_block(body, conds + before + [cond], where, at, intros, proc, loops)
                    before.append(ir.Unary("not", cond, ty=cond.ty))
                if s.otherwise is not None:
                    walk_block(s.otherwise, conds + before, where, at, intros, proc, loops)
            elif isinstance(s, ir.While):
                walk_block(s.body, conds + [ir.Unary("not", s.cond, ty=s.cond.ty) if s.until else s.cond], where, at,
                           intros, proc, loops)
            elif isinstance(s, ir.Choose):  # what is met after a choice is met once it is made
                conds = conds + [Chose(at, s)]
                walk_block(s.body, conds, where, inside(at, s.binder), intros, proc,
                           _without(loops, s.binder.names))
            elif isinstance(s, (ir.For, ir.Take)):  # (what it asks of its things: _any_of_loop)
                walk_block(s.body, conds, where, inside(at, s.binder), intros, proc, _looping(loops, at, s.binder))
            elif isinstance(s, (ir.Repeat, Counted)):
                walk_block(s.body, conds, where, at, intros, proc, loops)
            elif isinstance(s, ir.Menu):
                for opt in s.options:
                    walk_block(opt.body, conds + [Chosen(s.role, opt.name)] + ([opt.guard] if opt.guard is not None
                                                                               else []), where, at, intros, proc,
                               loops)
            elif isinstance(s, ir.CallProc):
                calls.setdefault(s.name, []).extend(where)
                if once[s.name] == 1:
                    before_call[s.name] = [c if isinstance(c, PATH) else
                                           Said(at, c, proc) if proc is not None and rs.procedures[proc].text
                                           else Said(_introducing(at, c, intros), c)
                                           for cond in _current(rs, conds)
                                           for c in ([cond] if isinstance(cond, PATH)
                                                     else conjuncts(normal(cond, rs)))
                                           if not (isinstance(c, ir.Const) and c.value is True)]
            if isinstance(s, ir.Let):
                at, loops = at.with_refs({s.name: let_ref(at, s)}), _without(loops, (s.name,))
            if not isinstance(s, ir.EndGame) and (changed := writes_of(rs, s)):
                conds = conds + [Changed(frozenset(changed))]

    walk_block(rs.setup, [], ("the setup",), ctx)
    walk_block(mode.setup, [], ("the setup",), ctx)
    for i, step in enumerate(mode.round, 1):  # a turn's step speaks to its player, as the step does: "you win"
        turn = mode.turns is not None and mode.turns.first < i <= mode.turns.last + 1
        walk_block(step.body, [], (f"step {i} ({clean(step.name)})",), replace(ctx, turn=turn) if turn else ctx)
    for w in mode.watches:
        walk_block(w.body, [w.when], ("any step",), ctx)
    done: set[str] = set()
    while set(calls) - done:  # procedures calling procedures: each is placed where its callers are
        name = next(n for n in calls if n not in done)
        done.add(name)
        proc = rs.procedures[name]
        inner, intros = parameters(ctx, proc.text, proc.params, proc.body, proc.param_texts)
        before = before_call.get(name, [])
        walk_block(proc.body, before, tuple(dict.fromkeys(calls[name])), inner, intros, name, own=len(before))
    return found


def _current(rs: ir.Ruleset, conds: list) -> list:
    """The conditions on the way to an ending that still hold at it: one met before the rules changed
    what it reads is stale once a later one is met ("if there are cheques: draw the cheques on offer …
    if there are no cheques: the game ends" ends when there are no cheques, not when there are cheques
    and none); the last ones met still say how play got there ("if a side is empty: sweep the seeds
    into the stores; the game ends" ends when a side is empty)."""
    out = []
    for i, c in enumerate(conds):
        if isinstance(c, Changed):
            continue
        reads = None if isinstance(c, PATH) else reads_of(rs, c)
        if reads is not None:  # (up to the next choice: what comes after it is said after it, in order)
            later = conds[i + 1:]
            later = later[:next((j for j, x in enumerate(later) if isinstance(x, PATH)), len(later))]
            stale = [j for j, m in enumerate(later) if isinstance(m, Changed) and clash(reads, m.writes)]
            if stale and any(not isinstance(x, (Changed, *PATH)) for x in later[stale[0] + 1:]):
                continue
        out.append(c)
    return out


def _names_inside(c: ir.Expr, at: Context, outside: Context) -> bool:
    """A condition on a value only an action names (its parameter, its own `let`): a player reads it
    with the action's words ("when the teams in room 13 fight …"), never as "N is 13"."""
    return not isinstance(c, PATH) and any(isinstance(n, ir.Local) and n.name in at.refs
                                           and n.name not in outside.refs for n in walk(c))


@record
class _Loop:
    """A thing a loop of the rules goes through (`for`, `take`), for an ending met in the loop's body."""
    binder: ir.Binder
    at: Context = field(compare=False)  # where the loop is: what its `where` is said in


_NO_LOOPS: dict[str, _Loop] = {}


def _looping(loops: dict[str, _Loop], at: Context, b: ir.Binder) -> dict[str, _Loop]:
    return {**_without(loops, b.names), **{name: _Loop(b, at) for name in b.names}}


def _without(loops: dict[str, _Loop], names) -> dict[str, _Loop]:
    """The loops whose names are not bound again (a choice, a `let`: another thing of that name)."""
    return {k: v for k, v in loops.items() if k not in names} if loops.keys() & set(names) else loops


def _any_of_loop(at: Context, stmt: ir.EndGame, conds: list, loops: dict[str, _Loop]) -> tuple[Context, list]:
    """The context an ending's head is said in, and its conditions with what the loops around it ask of the
    things the ending names. A player a loop goes through is introduced with what the loop asks of them ("A
    player that is still in the game wins in step 3, when that player's *tricks* is 0"), not named as if the
    reader knew which ("That player wins …"); a thing the conditions name is asked for there too."""
    named = {n.name for c in conds if not isinstance(c, PATH) for n in walk(c) if isinstance(n, ir.Local)}
    role = stmt.role
    subject = role.name if isinstance(role, ir.Local) and role.name in loops else None
    ref = at.refs.get(subject) if subject is not None else None
    asked = []  # the loops' own conditions on the things named, outermost first
    for b in dict.fromkeys(loops[n].binder for n in loops if n in named or n == subject):
        if b.where is not None and not (ref is not None and ref.noun is not None and b.names == (subject,)):
            asked.append(b.where)
    if subject is None or ref is None or not isinstance(ref.noun, Noun):
        return at, asked + conds
    loop = loops[subject]
    intro = flat(introduce(loop.at, loop.binder, "a")) if len(loop.binder.names) == 1 else article(ref.noun.one)
    return at.with_refs({subject: replace(ref, text=intro)}), asked + conds


def _introducing(at: Context, c: ir.Expr, intros: dict[str, str] | None) -> Context:
    """The context a condition met inside an action is said in, out of that action (in the End of the
    game): a parameter of the action it names once is introduced ("the row of a gobbot is 1"), not
    referred to as if the reader knew which ("the row of the gobbot"). Named twice, it keeps its name."""
    if not intros:
        return at
    named = Counter(n.name for n in walk(c) if isinstance(n, ir.Local) and n.name in intros)
    return at.with_refs({p: replace(at.refs[p], text=intros[p]) for p, k in named.items()
                         if k == 1 and p in at.refs and at.refs[p].noun is not None})
