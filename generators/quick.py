"""IR -> a one-page quick reference per mode: the round first, then every term it uses.

Each term the page names (a define printed by its `text:`, or a define or
procedure printed by its identifier) is defined on the page, with the terms
its definition names in turn; an action whose `text:` says what it does is
not spelled out (the full summary does). The page also has the watches
("at any moment"), the end of the game, the icons the cards in play really
show and the component counts.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.statistics import without_statistics
from rulelang.types import ROLE
from rulelang.walk import walk

from .abilities import ability_blocks
from .components import icons_used
from .document import Document, Item, Items, Para, Section, Table, clean, icon, sentence, strong
from .endings import end_blocks
from .english import context
from .glossary import glossary
from .icons import check_icons
from .nouns import component_counts, words
from .scope import usage
from .statements import watch
from .summary import step_blocks

QUICK_DETAIL = 2  # the most detailed quick reference; publish.py lowers it until a page fits


def quick_reference(rs: ir.Ruleset, mode_name: str, detail: int = QUICK_DETAIL) -> Document:
    """One page for the table: the first of `quick_pages`."""
    return quick_pages(rs, mode_name, detail)[0]


def quick_pages(rs: ir.Ruleset, mode_name: str, detail: int = QUICK_DETAIL) -> list[Document]:
    """The mode's quick reference, a Document a page. Without `quick:` one page holds every
    step and every section; with it, each page its steps, its own sentences and the sections
    its `also:` names.
    `detail` 2 gives each step in full; 1 each step's own sentences (nested ones folded away);
    0 the steps' names and first sentences only."""
    check_icons(rs)
    rs = without_statistics(rs)  # what the rules keep only for measures is not a rule
    mode = rs.modes[mode_name]
    pages = mode.quick or (ir.QuickPage("Each round", tuple(s.name for s in mode.round)),)
    title = clean(rs.title) if clean(mode.title) == clean(rs.title) else f"{clean(rs.title)} — {clean(mode.title)}"
    docs = []
    for page in pages:
        also = set(page.also) if mode.quick else set(ir.QUICK_SECTIONS)
        subtitle = "Quick reference" if len(pages) == 1 else f"Quick reference: {clean(page.title).lower()}"
        docs.append(_page(rs, mode, page, also, detail, Document(title, subtitle)))
    return docs


def _page(rs: ir.Ruleset, mode: ir.Mode, page: ir.QuickPage, also: set, detail: int, doc: Document) -> Document:
    use = usage(rs, [mode])
    ctx = context(rs, mode)  # a page's own context: its terms are the ones its steps use
    steps = []
    for s in (s for s in mode.round if s.name in page.steps):
        items = [Item(sentence(clean(s.text)))] if s.text else step_blocks(ctx, s)[0].items
        if detail < 2:
            items = [Item(i.text) for i in items[:None if detail else 1]]
        steps.append(Item(sentence(strong(clean(s.name))), items))
    rules = [_rule(r, detail) for r in page.rules]
    if steps or rules:
        doc.blocks.append(Section(clean(page.title), [Items(steps + rules, ordered=True)]))
    if mode.watches and "watches" in also:
        doc.blocks.append(Section("At any moment", [Items([watch(ctx, w) for w in mode.watches])]))
    end = Section("End of the game", end_blocks(ctx, mode)) if "end" in also else None
    if ctx.terms and "terms" in also:
        terms = glossary(ctx, list(ctx.terms), actions=False, spelled=step_actions(rs, mode))
        if terms:
            doc.blocks.append(Section("Terms", terms))
    if use.abilities and "abilities" in also:
        doc.blocks.append(Section("Abilities", ability_blocks(ctx, use.abilities)))
    if end:
        doc.blocks.append(end)
    legend = [row for row in icons_used(rs) if row[3] in use.kinds]
    if legend and "icons" in also:
        doc.blocks.append(Section("Icons", [Table(["icon", "name", "kind"], [
            [icon(i), words(v), words(t)] for i, v, t, _ in legend])]))
    kinds = [k for k in use.kinds if any(c.kind == k for c in rs.cards)]
    if kinds and "components" in also:  # a game of dice alone has no components to count
        doc.blocks.append(Section("Components", [Para(sentence(component_counts(rs, kinds)))]))
    return doc


def _rule(rule: ir.QuickRule, detail: int) -> Item:
    """A sentence the ruleset gives for the page, with those under it (folded away at low detail)."""
    text = " ".join(t for t in (strong(sentence(clean(rule.title))) if rule.title else "",
                                sentence(clean(rule.text)) if rule.text else "") if t)
    return Item(text, [_rule(r, detail) for r in rule.rules] if detail else [])


def step_actions(rs: ir.Ruleset, mode: ir.Mode) -> set[str]:
    """A player's turn that a step only calls ("for every player: that player takes a turn"):
    the step says nothing without it, so the page spells it out even though its `text:` names it."""
    found: set[str] = set()
    for step in mode.round:
        nodes = [n for n in walk(step.body) if isinstance(n, ir.Stmt)]
        if not step.text and all(isinstance(n, (ir.For, ir.Repeat, ir.While, ir.If, ir.CallProc)) for n in nodes):
            found |= {n.name for n in nodes if isinstance(n, ir.CallProc)
                      and any(t == ROLE for _, t in rs.procedures[n.name].params)}
    return found
