"""The end of the game, as a rulebook states it: when each ending happens, who wins, the score.

The endings are found by walking the rules: every `win`, `lose` and `end
game` the mode's rules reach, with the conditions on the way to it, one a
line ("you lose when no pair of cards in the hand can complete the trial,
the Action Deck is empty and no refresh card in the Reserve is face up").
"""
from __future__ import annotations

from rulelang import ir
from rulelang.walk import walk

from .document import Item, Items, Para, Table, clean, sentence, strong
from .english import Context, context, each_player, phrase, role_def, say
from .glossary import term
from .normalize import conjuncts, normal, tighten
from .nouns import possessive, role_name, words
from .phrases import lay
from .statements import ending, ranking_phrase


def end_blocks(ctx: Context, mode: ir.Mode) -> list:
    items, on_score = [], False
    for where, stmt, conds in endings(ctx.rs, mode):
        head, then = ending(ctx, stmt)
        on_score = on_score or stmt.kind == "end"
        head = f"{head} and {then}" if then and stmt.kind != "end" else head
        at = (", in " if then and stmt.kind != "end" else " in ") + where if where else ""
        conds = tighten([c for cond in conds for c in conjuncts(normal(cond, ctx.rs))])  # one condition a line
        items.append(Item(sentence(f"{head}{at}" + (", when:" if conds else "")),
                          [condition_item(ctx, c) for c in dict.fromkeys(conds)]))
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


def score_range(r: ir.Rating) -> str:
    if r.high is None:
        return f"{r.low} or more"
    return str(r.low) if r.high == r.low else f"{r.low}–{r.high}"


def condition_item(ctx: Context, condition: ir.Expr) -> Item:
    laid = lay(phrase(ctx, condition))
    return Item(sentence(laid.text), laid.items)


def endings(rs: ir.Ruleset, mode: ir.Mode):
    """(where, end statement, conditions) for every end statement the mode's rules
    reach, once each, with the conditions around it where it is written (a step,
    or a procedure the steps call) — as a rulebook states it, not once per path.
    The rules' own bookkeeping (a `let` flag, `while true`) is no condition."""
    found, procedures = [], []

    def walk_block(block, conds, where, lets):
        lets = set(lets)
        for s in block:
            if isinstance(s, ir.Let):
                lets.add(s.name)
            if isinstance(s, ir.EndGame):
                found.append((where, s, [c for c in conds if not _bookkeeping(c, lets)]))
            elif isinstance(s, ir.If):
                before = []
                for cond, body in s.branches:
                    walk_block(body, conds + before + [cond], where, lets)
                    before.append(ir.Unary("not", cond, ty=cond.ty))
                if s.otherwise is not None:
                    walk_block(s.otherwise, conds + before, where, lets)
            elif isinstance(s, ir.While):
                walk_block(s.body, conds + [ir.Unary("not", s.cond, ty=s.cond.ty) if s.until else s.cond], where,
                           lets)
            elif isinstance(s, (ir.Repeat, ir.For, ir.Choose, ir.Take)):
                walk_block(s.body, conds, where, lets | _bound(s))
            elif isinstance(s, ir.Menu):
                for opt in s.options:
                    walk_block(opt.body, conds + ([opt.guard] if opt.guard is not None else []), where, lets)
            elif isinstance(s, ir.CallProc) and s.name not in procedures:
                procedures.append(s.name)

    walk_block(rs.setup, [], "the setup", set())
    walk_block(mode.setup, [], "the setup", set())
    for i, step in enumerate(mode.round, 1):
        walk_block(step.body, [], f"step {i}, {clean(step.name)}", set())
    for w in mode.watches:
        walk_block(w.body, [w.when], "any step", set())
    for name in procedures:  # grows while it is walked: procedures calling procedures
        proc = rs.procedures[name]
        walk_block(proc.body, [], f"“{term(context(rs, mode), proc.text, name, proc.params, proc.body)}”", set())
    return found


def _bound(s: ir.Stmt) -> set[str]:
    return set(s.binder.names) if isinstance(s, (ir.For, ir.Choose, ir.Take)) else set()


def _bookkeeping(cond: ir.Expr, lets: set[str]) -> bool:
    """A condition that is always true, or about the rules' own names (a loop's flag, a bound card)."""
    if isinstance(cond, ir.Const) and cond.value is True:
        return True
    return any(isinstance(n, ir.Local) and n.name in lets for n in walk(cond))
