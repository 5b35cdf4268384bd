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

from .components import icons_used
from .document import Document, Item, Items, Para, Section, Table, clean, icon, sentence, strong
from .english import English
from .icons import check_icons
from .nouns import component_counts, words
from .scope import usage
from .summary import end_blocks, glossary, step_blocks

QUICK_DETAIL = 2  # the most detailed quick reference; publish.py lowers it until a page fits


def quick_reference(rs: ir.Ruleset, mode_name: str, detail: int = QUICK_DETAIL) -> Document:
    """One page for the table. `detail` 2 gives each step in full; 1 each step's own
    sentences (nested ones folded away); 0 the steps' names and first sentences only."""
    check_icons(rs)
    mode = rs.modes[mode_name]
    use = usage(rs, [mode])
    en = English(rs, mode)
    doc = Document(f"{clean(rs.title)} — {clean(mode.title)}", "Quick reference")
    steps = []
    for s in mode.round:
        items = [Item(sentence(clean(s.text)))] if s.text else step_blocks(en, s)[0].items
        if detail < 2:
            items = [Item(i.text) for i in items[:None if detail else 1]]
        steps.append(Item(sentence(strong(clean(s.name))), items))
    doc.blocks.append(Section("Each round", [Items(steps, ordered=True)]))
    if mode.watches:
        doc.blocks.append(Section("At any moment", [Items([en.watch(w) for w in mode.watches])]))
    end = Section("End of the game", end_blocks(rs, mode, en))
    if en.terms:
        terms = glossary(en, list(en.terms), actions=False)
        if terms:
            doc.blocks.append(Section("Terms", terms))
    doc.blocks.append(end)
    legend = [row for row in icons_used(rs) if row[3] in use.kinds]
    if legend:
        doc.blocks.append(Section("Icons", [Table(["icon", "name", "kind"], [
            [icon(i), words(v), words(t)] for i, v, t, _ in legend])]))
    doc.blocks.append(Section("Components", [Para(sentence(component_counts(rs, use.kinds)))]))
    return doc
