"""IR -> a one-page quick reference per mode: the round, and what every action and card does.

A quick reference is what players keep on the table, so it says everything
a turn needs: each step as the rules say it, every action those steps carry
out spelled out (the race's Swords, Arrow and Drop are the action of the
card played; the Gobbots' commands are what a command space does), every
term the page names (and the terms those name in turn), what the cards'
abilities do, what happens at any moment, the end and scoring, an icon
legend built from the icons the cards in play really show, and the
component counts. A mode's `quick:` gives pages of its own (one for the
turn, one for combat), each with the sections it names.

`CUTS` are the sections a page may lose, in that order, when it does not
fit one sheet (`publish.py` says which it cut); a step is never cut in part.
"""
from __future__ import annotations

from dataclasses import replace

from rulelang import ir
from rulelang.statistics import without_statistics
from rulelang.walk import rule_blocks

from .abilities import ability_blocks
from .components import card_label, fill_format, icons_used
from .document import Document, Item, Items, Para, Section, Table, clean, em, icon, sentence, strong
from .endings import end_blocks
from .english import context
from .flow import Counted, resets, tidy
from .glossary import glossary
from .icons import check_icons
from .nouns import component_counts, join, words
from .scope import reached, usage
from .statements import watch
from .summary import option_value, starting, step_blocks, value_name

CUTS = ("components", "icons", "terms")  # what a page that does not fit loses, first to last (never the abilities)
TITLES = {"components": "Components", "icons": "Icons", "terms": "Terms"}


def quick_reference(rs: ir.Ruleset, mode_name: str) -> Document:
    """One page for the table: the first of `quick_pages`."""
    return quick_pages(rs, mode_name)[0]


def quick_pages(rs: ir.Ruleset, mode_name: str, cut: frozenset[str] = frozenset()) -> list[Document]:
    """The mode's quick reference, a Document a page. Without `quick:` one page holds every
    step and every section; with it, each page its steps, its own sentences and the sections
    its `also:` names. The sections in `cut` are left out (a page too long for one sheet)."""
    check_icons(rs)
    rs = without_statistics(rs)  # what the rules keep only for measures is not a rule
    mode = rs.modes[mode_name]
    pages = mode.quick or (ir.QuickPage("Each round", tuple(s.name for s in mode.round)),)
    title = clean(rs.title) if clean(mode.title) == clean(rs.title) else f"{clean(rs.title)} — {clean(mode.title)}"
    docs = []
    for page in pages:
        also = (set(page.also) if mode.quick else set(ir.QUICK_SECTIONS)) - cut
        subtitle = "Quick reference" if len(pages) == 1 else f"Quick reference: {clean(page.title).lower()}"
        doc = Document(title, subtitle)
        if page is pages[0]:  # a card for the table opens with the turn at a glance, as a published game's does
            doc.blocks.append(glance(rs, mode, page))
        docs.append(_page(rs, mode, page, also, doc))
    return docs


def glance(rs: ir.Ruleset, mode: ir.Mode, page: ir.QuickPage) -> Section:
    """The round in one line ("Deal → Bid → Play the tricks → Score"; the steps of a turn as every
    player's turn) and what players keep track of in the page's steps, by name, so its "*bid*" is known."""
    names = [clean(s.name) for s in mode.round]
    if mode.turns is None:
        said = f"{strong('Each round')}: {' → '.join(names)}."
    else:
        first, last = mode.turns.first, mode.turns.last
        parts = ([" → ".join(names[:first])] if first else []) \
            + [f"every player takes a turn ({' → '.join(names[first:last + 1])})"] \
            + ([" → ".join(names[last + 1:])] if last + 1 < len(names) else [])
        said = f"{strong('Each round')}: {', then '.join(parts)}."
    items = [Item(said)]
    back: dict[str, list[str]] = {}  # what the page's steps set back, said here and not in the steps
    for i, step in enumerate(mode.round, 1):
        if step.name in page.steps and not step.text:
            for name in resets(rs, tidy(rs, step.body))[1]:
                back.setdefault(name, []).append(f"step {i} ({clean(step.name)})")
    kept = [value_name(v) + (f", back to {starting(rs, v)} in {join(back[v.name])}" if v.name in back else "")
            for v in _kept(rs, mode, page)]
    if kept:
        items.append(Item(f"{strong('Keep track of')}: " + "; ".join(kept) + "."))
    return Section("At a glance", [Items(items)])


def _kept(rs: ir.Ruleset, mode: ir.Mode, page: ir.QuickPage) -> list[ir.VarDef]:
    """The values the page's rules keep and players track: not a loop's own count (the loop says
    it) nor a value set only to be set back (`_passing`)."""
    used = reached(rs, _page_rules(mode, page))
    left_out = _counts(rs, mode) | _passing(rs)
    return [v for v in rs.vars.values() if v.name in used and v.name not in left_out]


def _counts(rs: ir.Ruleset, mode: ir.Mode) -> set[str]:
    """The values the round's loops count with: each loop says its own ("for each *step number* …")."""
    return {c.var.name for st in mode.round for c in tidy(rs, st.body)
            if isinstance(c, Counted) and isinstance(c.var, ir.Var)}


def _said_back(rs: ir.Ruleset, mode: ir.Mode, page: ir.QuickPage) -> set[str]:
    """The values whose setting back a page's steps leave out: those its list names (with when they
    are set back), and the loops' own counts ("for each *step number* from 1 to 3" says it)."""
    return {v.name for v in _kept(rs, mode, page)} | _counts(rs, mode)


def _page_rules(mode: ir.Mode, page: ir.QuickPage) -> list:
    """What a page's rules are: its steps, and what happens at any moment."""
    return [s.body for s in mode.round if s.name in page.steps] + [w.body for w in mode.watches] \
        + [w.when for w in mode.watches]


def _passing(rs: ir.Ruleset) -> set[str]:
    """The values the rules set only to set back a few lines on (Hand of Fate's "whether a card is
    being bound by the Strike Bonus", true while one is): they never outlast what the player is doing
    at the time, so nothing is kept between steps and the card does not list them. A value is passing
    when every assignment to it either gives it its starting value again or is followed, in its own
    list of statements, by one that does."""
    initial = {name: ir.Const(v.initial) for name, v in rs.vars.items() if isinstance(v.initial, (bool, int))}
    changed, held = set(), set()  # values set to something else than their start; those left so
    for block in rule_blocks(rs):
        for i, s in enumerate(block):
            if not (isinstance(s, ir.Assign) and isinstance(s.target, ir.Var) and s.target.name in initial):
                continue
            start = initial[s.target.name]
            if s.op == "=" and s.value == start:
                continue
            changed.add(s.target.name)
            if not any(isinstance(t, ir.Assign) and t.target == s.target and t.op == "=" and t.value == start
                       for t in block[i + 1:]):
                held.add(s.target.name)
    return changed - held


def _page(rs: ir.Ruleset, mode: ir.Mode, page: ir.QuickPage, also: set, doc: Document) -> Document:
    use = usage(rs, [mode])
    ctx = context(rs, mode)  # a page's own context: its terms are the ones its steps use
    steps, back = [], _said_back(rs, mode, page)
    for i, s in enumerate(mode.round):
        if s.name not in page.steps:
            continue
        turn = mode.turns is not None and mode.turns.first <= i <= mode.turns.last  # said to "you", as the rules say it
        items = [Item(sentence(clean(s.text)))] if s.text else step_blocks(replace(ctx, turn=turn), s, back)[0].items
        steps.append(Item(sentence(strong(clean(s.name)) + (" (on your turn)" if turn else "")), items))
    rules = [_rule(r) for r in page.rules]
    if steps or rules:
        doc.blocks.append(Section(clean(page.title), [Items(steps + rules, ordered=True)]))
    if mode.watches and "watches" in also:
        doc.blocks.append(Section("At any moment", [Items([watch(ctx, w) for w in mode.watches])]))
    named = [p for p in rs.params if p in reached(rs, _page_rules(mode, page))]  # not the setup's options
    if "end" in also:  # how the game ends and who wins, right after the turn: the reference follows
        doc.blocks.append(Section("End of the game", end_blocks(ctx, mode) + _options(rs, named)))
    if "actions" in also and mode.quick:  # a page of its own for what the whole round's actions and terms mean
        whole = context(rs, mode)
        for s in mode.round:
            step_blocks(whole, s)
        for w in mode.watches:
            watch(whole, w)
        end_blocks(whole, mode)
        if whole.terms:
            doc.blocks.append(Section("Actions and terms", glossary(whole, list(whole.terms))))
    elif ctx.terms and "terms" in also:  # every action spelled out: a quick reference says what each does
        doc.blocks.append(Section("Terms", glossary(ctx, list(ctx.terms))))
    if use.abilities and "abilities" in also:
        doc.blocks.append(Section("Abilities", ability_blocks(ctx, use.abilities)))
    said = card_words(rs, use.kinds)
    if said and "cards" in also:
        doc.blocks.append(Section("Cards", [Items(said)]))
    legend = [row for row in icons_used(rs) if row[3] in use.kinds]
    if legend and "icons" in also:
        doc.blocks.append(Section("Icons", [Table(["icon", "name", "kind"], [
            [icon(i), words(v), words(t)] for i, v, t, _ in legend])]))
    kinds = [k for k in use.kinds if any(c.kind == k for c in rs.cards)]
    if kinds and "components" in also:  # a game of dice alone has no components to count
        doc.blocks.append(Section("Components", [Para(sentence(component_counts(rs, kinds)))]))
    return doc


def _options(rs: ir.Ruleset, names) -> list:
    """The values of the options the page's rules read, this game: the page says "the *rounds*
    option", and a player at the table needs its value, not the summary's table of choices."""
    said = []
    for n in names:
        text = rs.params[n].text
        said.append(Item(sentence(f"{em(words(n))}: {option_value(rs.param_values[n])}"
                                  + (f" — {clean(text).rstrip('.')}" if text else ""))))
    return [Para("The options, as agreed before the game:"), Items(said)] if said else []


def card_words(rs: ir.Ruleset, kinds) -> list[Item]:
    """What each card in play does, in its own words (a card table's `text` column), once a name."""
    said: dict[str, str] = {}
    for card in rs.cards:
        if card.kind in kinds and card.text:
            said.setdefault(card_label(rs, card), fill_format(card.text, card))
    return [Item(sentence(f"{strong(label)}: {text}")) for label, text in said.items()]


def _rule(rule: ir.QuickRule) -> Item:
    """A sentence the ruleset gives for the page, with those under it."""
    text = " ".join(t for t in (strong(sentence(clean(rule.title))) if rule.title else "",
                                sentence(clean(rule.text)) if rule.text else "") if t)
    return Item(text, [_rule(r) for r in rule.rules])
