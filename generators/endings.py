"""The end of the game, as a rulebook states it: when each ending happens, who wins, the score.

The endings are found by walking the rules: every `win`, `lose` and `end
game` the mode's rules reach, with the conditions on the way to it, one a
line ("you lose when no pair of cards in the hand can complete the trial,
the Action Deck is empty and no refresh card in the Reserve is face up").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rulelang import ir

from .document import Item, Items, Para, Table, clean, em, sentence, strong
from .english import Context, each_player, inside, let_ref, phrase, role_def, say, verb
from .flow import Counted, tidy
from .glossary import parameters
from .normalize import conjuncts, normal, tighten
from .nouns import join, possessive, role_name, words
from .phrases import lay
from .phrases import words as seq
from .ranking import ranking_phrase
from .statements import ending


@dataclass(frozen=True)
class Chosen(ir.Expr):
    """An option of a menu taken, on the way to an ending: "Alice chooses *fold*" (a player can
    act on when the game ends only if the rules say which choices end it)."""
    role: ir.Expr
    option: str


def end_blocks(ctx: Context, mode: ir.Mode) -> list:
    items, on_score = [], False
    for where, stmt, conds, at in endings(ctx, mode):
        head, then = ending(at, stmt)
        on_score = on_score or stmt.kind == "end"
        head = f"{head} and {then}" if then and stmt.kind != "end" else head
        place = (", in " if then and stmt.kind != "end" else " in ") + join(sorted(where, key=_order)) if where else ""
        said = [Item(sentence(lay(seq(verb(at, c.role, "choose"), f" {em(words(c.option))}"), people=at.people).text))
                for c in conds if isinstance(c, Chosen)]  # in the order they are made, before any condition
        conds = list(dict.fromkeys(tighten([c for cond in conds if not isinstance(cond, Chosen)
                                            for c in conjuncts(normal(cond, ctx.rs))])))
        if len(conds) == 1 and not said:
            laid = lay(phrase(at, conds[0]), people=at.people)
            items.append(Item(sentence(f"{head}{place}, when {laid.text}"), laid.items))
        else:
            items.append(Item(sentence(f"{head}{place}" + (", when all of these hold:" if conds or said else "")),
                              said + [condition_item(at, c) for c in conds]))
    blocks: list = [Items(items)] if items else [Para("The rules never end the game by themselves.")]
    if on_score:
        blocks.append(Para(sentence(f"when the game ends, {ranking_phrase(ctx)}")))
    alike = each_player(ctx, mode.score)
    if alike is not None:
        blocks.append(Para(sentence(f"each player's score is {alike}")))
    for who_, value in mode.score.items() if alike is None else ():
        who = "Your score" if ctx.you == who_ else f"{possessive(role_name(role_def(ctx.rs, who_)))} score"
        blocks.append(Para(say(ctx, who[:1].lower() + who[1:] + " is ", value).text))
    if mode.ratings:
        rows = [[strong(words(r.name)), score_range(r)] for r in mode.ratings]
        blocks += [Para("A winner's score gives a rating:"), Table(["rating", "score"], rows)]
    return blocks


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

    def walk_block(block, conds, where, at):
        for s in tidy(rs, block):
            if isinstance(s, ir.EndGame):
                found.append((where, s, [c for c in conds if not (isinstance(c, ir.Const) and c.value is True)],
                              at))
            elif isinstance(s, ir.If):
                before = []
                for cond, body in s.branches:
                    walk_block(body, conds + before + [cond], where, at)
                    before.append(ir.Unary("not", cond, ty=cond.ty))
                if s.otherwise is not None:
                    walk_block(s.otherwise, conds + before, where, at)
            elif isinstance(s, ir.While):
                walk_block(s.body, conds + [ir.Unary("not", s.cond, ty=s.cond.ty) if s.until else s.cond], where, at)
            elif isinstance(s, (ir.For, ir.Choose, ir.Take)):
                walk_block(s.body, conds, where, inside(at, s.binder))
            elif isinstance(s, (ir.Repeat, Counted)):
                walk_block(s.body, conds, where, at)
            elif isinstance(s, ir.Menu):
                for opt in s.options:
                    walk_block(opt.body, conds + [Chosen(s.role, opt.name)] + ([opt.guard] if opt.guard is not None
                                                                               else []), where, at)
            elif isinstance(s, ir.CallProc):
                calls.setdefault(s.name, []).extend(where)
            if isinstance(s, ir.Let):
                at = at.with_refs({s.name: let_ref(at, s)})

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
        walk_block(proc.body, [], tuple(dict.fromkeys(calls[name])),
                   parameters(ctx, proc.text, proc.params, proc.body, proc.param_texts)[0])
    return found
