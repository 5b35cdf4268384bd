"""The abilities cards carry, as a rulebook lists them: when each answers, how often, what it does."""
from __future__ import annotations

import re

from rulelang import ir
from rulelang.types import BOOL, CardT
from rulelang.walk import walk

from .document import Item, Items, Para, capital, clean, sentence, strong
from .english import Context, block, expr
from .glossary import parameters
from .normalize import conjuncts
from .nouns import join, noun, words
from .phrases import Bound


def ability_blocks(ctx: Context, names) -> list:
    """The abilities the cards carry, as a rulebook lists them: when, how often, what they do."""
    rs = ctx.rs
    windows = {n.event for n in walk(_all_rules(rs)) if isinstance(n, ir.Trigger) and n.window}
    return [Para("A card with one of these abilities uses it when the moment comes:"),
            Items([ability_item(ctx, rs.abilities[n], rs.abilities[n].on in windows) for n in names])]


def _all_rules(rs: ir.Ruleset) -> tuple:
    return (rs.setup, tuple(p.body for p in rs.procedures.values()), tuple(a.body for a in rs.abilities.values()),
            tuple((m.setup, tuple(s.body for s in m.round), tuple(w.body for w in m.watches))
                  for m in rs.modes.values()))


def ability_item(ctx: Context, a: ir.Ability, window: bool = False) -> Item:
    """`window`: the event opens play windows, so the card's holder chooses whether to use it."""
    inner, moment = ability_names(ctx, a)
    at = "in a play window at" if window else "at"
    head = f"{strong(words(a.name))} ({at} {moment}" + "".join(f", {x}" for x in ability_limits(inner, a)) + ")"
    if a.text:
        return Item(f"{head}: {sentence(clean(a.text))}")
    return Item(f"{head}:", block(inner, a.body))


def ability_text(ctx: Context, a: ir.Ability) -> str:
    """What a card with the ability does, in one paragraph (for the card itself): its
    `text:`, else when it answers and its rules in generated English."""
    if a.text:
        return sentence(clean(a.text))
    inner, moment = ability_names(ctx, a)
    head = capital(f"at {moment}" + "".join(f", {x}" for x in ability_limits(inner, a)))
    return f"{head}: " + " ".join(sentence(i.text) for i in flattened(block(inner, a.body)))


def flattened(items: list[Item]) -> list[Item]:
    return [x for i in items for x in [i, *flattened(i.children)]]


def ability_names(ctx: Context, a: ir.Ability) -> tuple[Context, str]:
    """The names an ability's rules use, as a rulebook refers to them while it is said: `this`
    is "this card", the event's values "the player", "the minion" (each introduced in the moment
    as "a player", "a minion"); with the moment."""
    event = ctx.rs.events[a.on]
    inner, intro = parameters(ctx, event.text, event.params, (a.body, a.where, a.optional))
    moment = re.sub(r"{(\w+)}", lambda m: intro.get(m.group(1), m.group(0)), clean(event.text)) \
        if event.text else words(a.on)
    used = {n.name for n in walk((a.body, a.where, a.optional)) if isinstance(n, ir.Local)}
    unsaid = [inner.refs[p].text for p, _ in event.params  # a number the moment does not say: "(X)"
              if p in used and "{" + p + "}" not in (event.text or "") and inner.refs[p].noun is None]
    inner = inner.with_refs({"this": Bound("this card", name="this", noun=noun("card"))})
    return inner, moment + (f" ({join(unsaid)})" if unsaid else "")


def ability_limits(ctx: Context, a: ir.Ability) -> list[str]:
    """When the ability answers, how often, and whose choice it is. `where:` is checked when the
    moment comes: "if", not "while"; `this == c`, the card of the moment being this one, is
    "if it is this card" when the moment has one card."""
    cards = [p for p, ty in ctx.rs.events[a.on].params if isinstance(ty, CardT)]
    conds = conjuncts(a.where)
    itself = [c for c in conds if len(cards) == 1 and isinstance(c, ir.Binary) and c.op == "=="
              and {_local(c.left), _local(c.right)} == {"this", cards[0]}]
    rest = [c for c in conds if c not in itself]
    said = ["it is this card"] * bool(itself) + ([expr(ctx, _all(rest))] if rest else [])
    limits = [f"if {' and '.join(said)}"] if said else []
    if a.once:
        limits.append(f"once per {words(a.once)}" if a.once != "game" else "once per game")
    if a.optional is not None:
        limits.append(f"as {expr(ctx, a.optional)} chooses")
    return limits


def _local(e: ir.Expr) -> str | None:
    return e.name if isinstance(e, ir.Local) else None


def _all(conds: list[ir.Expr]) -> ir.Expr:
    out = conds[0]
    for c in conds[1:]:
        out = ir.Binary("and", out, c, ty=BOOL)
    return out
