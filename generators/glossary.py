"""The terms the rules use by name, defined once each: the glossary of a summary or a quick reference."""
from __future__ import annotations

import re
from dataclasses import replace

from rulelang import ir, texts
from rulelang.walk import walk

from .calls import template
from .clauses import fill_names, operands
from .document import Item, Items, Para, clean, strong
from .english import Context, block, expr, item_noun, noun_ref, phrase, placeholder
from .expressions import case_items
from .normalize import as_case
from .nouns import words
from .phrases import Bound, Phrase, lay
from .tables import table_item


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


def term(ctx: Context, text, name, params, body=()) -> str:
    """A define's or procedure's own phrase, as the glossary heads it: each parameter as what it
    is ("a player", "another player", "a space"; a number as a letter, X)."""
    if not text:
        return strong(words(name))
    inner, intro = parameters(ctx, text, params, body)
    said: set[str] = set()

    def fill(m):  # "a player … in the order the player chooses": introduced once, then referred to
        name = m.group(1)
        if name not in intro:
            return m.group(0)
        if name in said:
            return re.sub("[\x0e\x11]", "", inner.refs[name].text)
        said.add(name)
        return intro[name]
    both = texts.CHOICE.sub(lambda m: f"{m.group(2)} or {m.group(3).lstrip()}" if m.group(3) else f"{m.group(2)} (or not)",
                            clean(text))  # a term names either alternative
    return strong(re.sub(r"{(\w+)}", fill, both))


def _inferred(name: str, body) -> object:
    """An undeclared parameter's type, as the checker found it where the body uses it."""
    return next((n.ty for n in walk(body) if isinstance(n, ir.Local) and n.name == name and n.ty is not None), None)


def parameters(ctx: Context, text: str | None, params, body=(), said=()) -> tuple[Context, dict[str, str]]:
    """The context a define's or procedure's meaning is said in (each parameter referred to by
    its noun: "the player", "the other player"; a true/false one with words of its own, `said`,
    as the condition they state), and how its phrase introduces each one."""
    order = list(dict.fromkeys([p for p in texts.names(text or "") if p in dict(params)]
                               + [p for p, _ in params]))
    types = {p: ty or _inferred(p, body) for p, ty in params}
    refs: dict[str, Bound] = dict(ctx.refs)
    intro: dict[str, str] = {}
    for p in order:
        n = item_noun(ctx, types[p])
        after = (text or "").partition("{" + p + "}")[2]  # "{d} dishes": "D dishes", not "a dish dishes"
        if n is None or n.one == "number" or re.match(rf" ({re.escape(n.one)}|{re.escape(n.many)})\b", after):
            refs[p] = Bound(placeholder(p), name=p)
            intro[p] = p.upper() if len(p) == 1 else words(p)  # a term is in bold already
            continue
        refs[p] = ref = noun_ref(refs, n, 1, 0, p, first="the")
        intro[p] = n.a() if ref.text == f"the {n.one}" else ref.text.replace("the other ", "another ", 1) \
            .replace("the ", "a ", 1)
        if re.search(r"\b(the|a|an|its|their) $|'s (\w+ )*$", (text or "").split("{" + p + "}")[0]):
            intro[p] = n.one  # "the amount of the {e} cards", "{p}'s starting {s}": "a player's starting symbol"
    inner = ctx.with_refs(refs)
    if said:  # "either the player acquires wherever they are or …", not "either *anywhere* is on or …"
        declared = dict(params)

        def clause(t: str) -> Phrase:  # the words with the parameters they name filled in
            return template(inner, t, {q: ir.Local(q, ty=declared[q]) for q in texts.names(t) if q in declared}, True)
        inner = replace(inner, flags={**ctx.flags, **{q: (refs[q], clause(t)) for q, t in said}})
    return inner, intro


def term_item(ctx: Context, name: str) -> Item | None:
    if name in ctx.rs.defines:
        d = ctx.rs.defines[name]
        head = term(ctx, d.text, d.name, d.params, d.body)
        inner = parameters(ctx, d.text, d.params, d.body, d.param_texts)[0]
        if d.means:
            return Item(f"{head}: " + means(ctx, d, inner))
        table = table_item(ctx.rs, d, head)
        if table is not None:
            return table
        cases = d.body if isinstance(d.body, ir.Case) else as_case(d.body)
        if cases is not None:
            return Item(f"{head}, depending on {expr(inner, cases.subject)}:", case_items(inner, cases))
        body = _another(d, parameters(ctx, d.text, d.params, d.body)[1])
        laid = lay(phrase(inner, body), people=inner.people)
        if laid.text == fill_names(d.text or "", []):  # "a refresh card in the Reserve is face up"
            return None
        return Item(f"{head}: {laid.text}" + ("" if laid.text.endswith(":") else "."), laid.items)
    p = ctx.rs.procedures[name]
    return Item(f"{term(ctx, p.text, p.name, p.params, p.body)}:",
                block(parameters(ctx, p.text, p.params, p.body, p.param_texts)[0], p.body))


def _another(d: ir.Define, intro: dict[str, str]) -> ir.Expr:
    """A term's meaning without what its head says: "**a player may choose another player**: the other
    player is still in the round", not "the other player is not the player, still in the round"."""
    others = [p for p, said in intro.items() if said.startswith("another ")]
    if len(intro) != 2 or len(others) != 1:
        return d.body
    pair = {ir.Local(p) for p in intro}
    conjuncts = operands(d.body, "and")
    said = [c for c in conjuncts if not (isinstance(c, ir.Binary) and c.op == "!=" and {c.left, c.right} == pair)]
    if len(said) in (0, len(conjuncts)):
        return d.body
    out = said[0]
    for c in said[1:]:
        out = ir.Binary("and", out, c, span=d.body.span, ty=d.body.ty)
    return out


def means(ctx: Context, d: ir.Define, inner: Context) -> str:
    """A term's meaning in the author's words (`means:`), each `{parameter}` referred to as the
    term's head introduced it ("the action card"). The terms its rules use that the words name
    (every word of their phrase outside its placeholders: "meet" for "{x} and {y} meet {t}") are
    defined in turn; the others are the author's to say, and said."""
    said = re.sub(r"{(\w+)}", lambda m: re.sub("[\x0e\x11]", "", inner.refs[m.group(1)].text),
                  clean(d.means or "")).strip()
    said += "" if said.endswith((".", "!", "?")) else "."
    for name in named_terms(ctx.rs, d, said):
        ctx.terms.setdefault(name, None)
    return said


def named_terms(rs: ir.Ruleset, d: ir.Define, said: str) -> list[str]:
    """The defines `d` reaches whose phrases `said` names, in the order they are reached."""
    found, todo, seen = [], [d.body], {d.name}
    low = said.lower()
    while todo:
        for node in walk(todo.pop(0)):
            if isinstance(node, ir.DefineCall) and node.name not in seen:
                seen.add(node.name)
                used = rs.defines[node.name]
                todo.append(used.body)
                pieces = [p.strip().lower() for p in re.split(r"{[^}]*}", clean(used.text or "")) if p.strip()]
                if pieces and all(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", low) for p in pieces):
                    found.append(node.name)
    return found
