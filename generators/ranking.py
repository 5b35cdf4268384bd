"""Who wins when the game ends on the mode's ranking, as a rulebook says it: "the player with the
highest *points* wins; a tie goes to the one with the highest *exact bids*"."""
from __future__ import annotations

import re

from rulelang import ir

from .document import clean, em
from .english import Context, cond
from .glossary import parameters
from .nouns import value_words


def ranking_phrase(ctx: Context) -> str:
    """How `end game` places the players: by the mode's `ranking:`, or by score."""
    keys = ctx.mode.ranking if ctx.mode is not None else ()
    if not keys:
        return "the highest score wins; a tie is a draw"
    parts = [_ranking_key(ctx, k) for k in keys]
    first, rest = parts[0], parts[1:]
    ties = [f"the one {p}" if i == 0 or p.startswith("who ") != rest[i - 1].startswith("who ")
            else p.removeprefix("with ") for i, p in enumerate(rest)]
    if len(parts) > 2:  # "ties go to the highest life points, then …": each key once, not "a tie goes to" each time
        return f"the player {first} wins; ties go to {', then '.join(ties)}; a tie on all of these is a draw"
    return f"the player {first} wins" + "".join(f"; a tie goes to {p}" for p in ties) \
        + ("; a tie on all of these is a draw" if len(parts) > 1 else "; a tie is a draw")


def _ranking_key(ctx: Context, k) -> str:
    """"with the highest final Fame"; a 0-or-1 value whose `text:` says who has 1 ("1 for the
    player who killed the King"): "who killed the King"."""
    define, var = ctx.rs.defines.get(k.name), ctx.rs.vars.get(k.name)
    if define is not None:
        who = _flag(ctx, define, k.lowest)
        if who:
            return who
    if var is not None and var.text and var.low == 0 and var.high == 1 and not k.lowest:
        flag = re.fullmatch(r"1 for (?:the|a|each) (?:player|one) (who .+)", clean(var.text))
        if flag:
            return flag.group(1)
    what = re.sub(r"{(\w+)}", "the player", clean(define.text)) if define and define.text \
        else em(value_words(ctx.rs, k.name))
    for article in ("the player's ", "the "):  # "the highest" says which already
        if what.startswith(article):
            what = what[len(article):]
            break
    what = what.removesuffix(" of the player")  # "the final Fame of {p}": "the highest final Fame"
    return f"with the {'lowest' if k.lowest else 'highest'} {what}"


def _flag(ctx: Context, define: ir.Define, lowest: bool) -> str | None:
    """A define worth 1 when a condition holds and 0 otherwise ranks its players by that condition: "who
    has reached the end" (was "with the highest arrival (1 at the end of the track, 0 short of it)")."""
    body, ahead, behind = define.body, ir.Const(0 if lowest else 1), ir.Const(1 if lowest else 0)
    if not (isinstance(body, ir.IfExpr) and body.then == ahead and body.otherwise == behind
            and len(define.params) == 1):
        return None
    said = cond(parameters(ctx, define.text, define.params, define.body)[0], body.cond)
    return "who " + said.removeprefix("the player ") if said.startswith("the player ") else None
