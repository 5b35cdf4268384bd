"""An `if` whose test is that its one statement has something to act on, as the rules must write it, said once:
"If you can, you choose a pawn … such that …", "If a player takes the prize: move … to that player's prizes won"
(not the test, then the same words again for the choice or the thing taken)."""
from __future__ import annotations

from dataclasses import replace

from rulelang import ir

from .document import Item
from .english import Context, block, inside, lower_first, subject
from .onecard import one_holder


def guarded_choice(ctx: Context, cond: ir.Expr, body: ir.Block, lead: str) -> Item | None:
    """A decision guarded by the test that it has an option (`if exists B: p chooses B: …`, as the rules
    must write it), said once: "If you can, you choose a pawn … such that …", not "If there is a pawn
    … such that …: you choose a pawn … such that …"; after an `elif`, "Otherwise, if you can, …"."""
    choice = body[0] if len(body) == 1 else None
    if not (isinstance(choice, ir.Choose) and isinstance(cond, ir.Quantified) and cond.kind == "exists"
            and cond.binder == choice.binder):
        return None
    said = block(ctx, body)
    lead += " you can, " if subject(ctx, choice.role)[1] else " possible, "
    return replace(said[0], text=lead + lower_first(ctx, said[0].text)) if len(said) == 1 else None


def taken_if_any(ctx: Context, cond: ir.Expr, body: ir.Block) -> list[Item] | None:
    """`if exists B: take first B: …` where only one binding can pass: what is done to the one the test found
    ("If a player takes the prize: move … to that player's prizes won"), not "For the player that takes …: …"."""
    take = body[0] if len(body) == 1 else None
    if not (isinstance(take, ir.Take) and isinstance(cond, ir.Quantified) and cond.kind == "exists"
            and cond.binder == take.binder and one_holder(ctx.rs, take.binder)):
        return None
    return block(inside(ctx, take.binder), take.body)
