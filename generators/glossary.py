"""The terms the rules use by name, defined once each: the glossary of a summary or a quick reference."""
from __future__ import annotations

from rulelang import ir

from .clauses import fill_names
from .document import Item, Items, Para, strong
from .english import Context, block, expr, phrase
from .expressions import case_items
from .nouns import words
from .phrases import lay


def glossary(ctx: Context, names, known=frozenset(), actions: bool = True, spelled=frozenset()) -> list:
    """Each term the rules use by name, once, with what it means; terms used in
    the meanings are added after them (those in `known` are defined elsewhere).
    A term whose meaning reads as the term itself needs no entry. Without
    `actions`, an action whose `text:` says what it does is not spelled out,
    unless it is in `spelled`."""
    def wanted(n):
        return n not in known and (actions or n in ctx.rs.defines or not ctx.rs.procedures[n].text or n in spelled)

    items, done, queue = [], [], [n for n in dict.fromkeys(names) if wanted(n)]
    while queue:
        name = queue.pop(0)
        if name in done:
            continue
        done.append(name)
        items.append(term_item(ctx, name))
        queue += [t for t in ctx.terms if t not in done and t not in queue and wanted(t)]
    kept = [(i, n) for i, n in zip(items, done) if i is not None]
    items, done = [i for i, _ in kept], [n for _, n in kept]
    defines = [i for i, n in zip(items, done) if n in ctx.rs.defines]
    actions = [i for i, n in zip(items, done) if n not in ctx.rs.defines]
    blocks: list = []
    if defines:
        blocks += [Para("The rules use these terms:"), Items(defines)]
    if actions:
        blocks += [Para("And these actions:" if defines else "The rules use these actions:"), Items(actions)]
    return blocks


def term(text, name, params) -> str:
    """A define's or procedure's own phrase, its parameters by name."""
    return strong(fill_names(text, [p for p, _ in params]) if text else words(name))


def term_item(ctx: Context, name: str) -> Item | None:
    if name in ctx.rs.defines:
        d = ctx.rs.defines[name]
        head = term(d.text, d.name, d.params)
        if isinstance(d.body, ir.Case):
            return Item(f"{head}, depending on {expr(ctx, d.body.subject)}:", case_items(ctx, d.body))
        laid = lay(phrase(ctx, d.body))
        if laid.text == fill_names(d.text or "", []):  # "a refresh card in the Reserve is face up"
            return None
        return Item(f"{head}: {laid.text}" + ("" if laid.text.endswith(":") else "."), laid.items)
    p = ctx.rs.procedures[name]
    return Item(f"{term(p.text, p.name, p.params)}:", block(ctx, p.body))
