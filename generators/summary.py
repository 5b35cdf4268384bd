"""IR -> a rules summary: the whole game, or one mode.

The summary follows a rulebook's order: what the game is, the components,
the play area, the options, the setup, each mode's round step by step, the
end of the game and scoring, the terms the rules use, the assumptions and
the rulings; the agents' heuristics last, in an appendix for agent authors.
Every sentence comes from the IR through `English`; a `text:` in the
ruleset replaces the generated sentence where it is given. With one mode,
only what that mode uses is printed (`scope.py`).
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from rulelang import ir
from rulelang.labels import value_text
from rulelang.statistics import without_statistics
from rulelang.types import BOOL, CardT
from rulelang.walk import walk

from .clauses import fill_names
from .components import card_rows, fill_format, type_title
from .document import Document, Item, Items, Para, Section, Table, capital, clean, em, icon, sentence, strong
from .english import English
from .icons import card_icons, check_icons
from .normalize import conjuncts, normal, tighten
from .nouns import component_counts, join, noun, possessive, role_name, type_noun, words
from .phrases import Bound, lay
from .scope import Usage, ruling_modes, ruling_steps, usage


def summary(rs: ir.Ruleset, mode: str | None = None) -> Document:
    """The full rules summary (every mode, or just `mode`)."""
    check_icons(rs)
    rs = without_statistics(rs)  # what the rules keep only for measures is not a rule
    modes = [rs.modes[mode]] if mode else list(rs.modes.values())
    use = usage(rs, modes)
    en = English(rs, modes[0] if len(modes) == 1 else None)
    doc = Document(clean(rs.title), clean(rs.credits) if rs.credits else None)
    if rs.text:
        doc.blocks.append(Para(clean(rs.text)))
    if len(modes) > 1:
        doc.blocks.append(Para("Ways to play: " + join([clean(m.title) for m in modes]) + "."))
    if rs.cards or use.dice:  # a game of no components has none (all in the players' heads)
        doc.blocks.append(components(rs, use))
    doc.blocks.append(play_area(rs, use, en))
    if use.params:
        doc.blocks.append(options(rs, use.params))
    setup = en.block(use.setup) + (en.block(use.mode_setups[modes[0].name]) if len(modes) == 1 else [])
    doc.blocks.append(Section("Setup", [Items(setup, ordered=True)]))
    englishes = [en]
    for m in modes:
        mode_en = en if len(modes) == 1 else English(rs, m)
        englishes.append(mode_en)
        doc.blocks.append(mode_section(rs, m, use, mode_en, own_setup=len(modes) > 1))
    terms = [t for e in englishes for t in e.terms]
    if terms:
        doc.blocks.append(Section("Terms", glossary(en, terms)))
    if use.abilities:
        doc.blocks.append(Section("Abilities", ability_blocks(rs, en, use.abilities)))
    defined = set(en.terms)
    notes = assumptions(rs, use, set(en.terms))
    if notes:
        doc.blocks.append(notes)
    if use.rulings:
        doc.blocks.append(rulings(rs, use, single=len(modes) == 1))
    agents = heuristics(rs, modes, defined if terms else set())
    if agents:
        doc.blocks.append(agents)
    return doc


# ------------------------------------------------------------ components


def components(rs: ir.Ruleset, use: Usage) -> Section:
    kinds = [k for k in use.kinds if any(c.kind == k for c in rs.cards)]
    sec = Section("Components", [Para(sentence(component_counts(rs, kinds)))] if kinds else [])
    for kind in kinds:
        ct = rs.card_types[kind]
        n = sum(c.kind == kind for c in rs.cards)
        noun = type_noun(ct)
        title = type_title(noun.many if n != 1 else noun.one)
        sub = Section(f"{title} ({n})" if noun.one.endswith(ct.component) else f"{title} ({n} {ct.component}"
                                                                                 f"{'s' if n != 1 else ''})",
                      level=3)
        if ct.text:
            sub.blocks.append(Para(clean(ct.text)))
        if ct.assumed:
            sub.blocks.append(Para(em("Assumed:") + " " + clean(ct.assumed)))
        if ct.fields:
            sub.blocks += card_blocks(rs, ct)
        kept = [f for f in ct.state if f.name.isidentifier()]  # not the bookkeeping of `once:` (`recall$used`)
        if kept:
            sub.blocks.append(Para(f"Each {noun.one} also keeps " + join(
                [f"{em(words(f.name))} (starting at {value_text(f.initial)})" for f in kept])
                + ", changed during play."))
        sec.blocks.append(sub)
    if use.dice:
        faces = [f"{em(words(d))} (faces {join([value_text(f) for f in rs.dice[d].faces])})" for d in use.dice]
        sec.blocks.append(Para(f"{'Dice' if len(faces) > 1 else 'A die'}: " + join(faces) + "."))
    return sec


def card_blocks(rs: ir.Ruleset, ct: ir.CardType) -> list:
    """A deck made of every value of a field times the same cards (four suits of thirteen
    ranks) prints as a rulebook says it: "Each suit (♠ spades, …) has one card of each of these:"
    and the table of one suit; any other deck as its table."""
    rows = card_rows(rs, ct.name)
    for f in ct.fields if len(rows) > 8 and len(ct.fields) > 1 else ():
        others = [g.name for g in ct.fields if g is not f]
        per_value: dict = {}
        for card, count in rows:
            per_value.setdefault(card.values[f.name], []).append((tuple(card.values[g] for g in others), count))
        if len(per_value) > 1 and len({tuple(v) for v in per_value.values()}) == 1:
            first = next(iter(per_value))
            shown = [c for c, _ in rows if c.values[f.name] == first]
            values = []
            for v in per_value:
                card = next(c for c, _ in rows if c.values[f.name] == v)
                mark = {name: i for name, _, i in card_icons(rs, card)}.get(f.name)
                values.append((icon(mark) + " " if mark else "") + value_text(v))
            each = "one card of each of these" if all(n == 1 for _, n in per_value[first]) else "these cards"
            return [Para(f"Each {words(f.name)} ({', '.join(values)}) has {each}:"),
                    card_table(rs, ct, [g for g in ct.fields if g is not f], shown)]
    return [card_table(rs, ct)]


def card_table(rs: ir.Ruleset, ct: ir.CardType, fields=None, only=None) -> Table:
    """One row per distinct card; a long table is folded like a rulebook's:
    the field with the most values is listed per combination of the others
    (`strength | 9, 10, 11, 12, 13`)."""
    rows = [(c, n) for c, n in card_rows(rs, ct.name) if only is None or c in only]

    def cell(card, f):
        shown = {name: icon(i) + " " for name, _, i in card_icons(rs, card)}
        return shown.get(f.name, "") + value_text(card.values[f.name])

    fields = list(ct.fields) if fields is None else fields
    if len(fields) > 1 and len(rows) > 8 and only is None:
        listed = max(fields, key=lambda f: len({c.values[f.name] for c, _ in rows}))
        others = [f for f in fields if f is not listed]
        groups: dict[tuple, list] = {}
        for card, count in rows:
            groups.setdefault(tuple(card.values[f.name] for f in others), []).append((card, count))
        if len(groups) <= len(rows) / 2:
            table = []
            for members in groups.values():
                values = [value_text(c.values[listed.name]) + (f" (×{n})" if n > 1 else "") for c, n in members]
                table.append([cell(members[0][0], f) for f in others]
                             + [", ".join(values), str(sum(n for _, n in members))])
            return Table([words(f.name) for f in others] + [words(listed.name) + "s", "copies"], table)
    said = any(card.text for card, _ in rows)  # the cards' own words (a `text` column): what each does
    return Table([words(f.name) for f in fields] + ["copies"] + ["what it does"] * said,
                 [[cell(card, f) for f in fields] + [str(count)]
                  + [fill_format(card.text, card) if card.text else ""] * said for card, count in rows])


def play_area(rs: ir.Ruleset, use: Usage, en: English) -> Section:
    sec = Section("Play area")
    rows = []
    for name in use.zones:
        z = rs.zones[name]
        holds = join([type_noun(rs.card_types[k]).many for k in z.holds if k in use.kinds], "or") \
            if z.holds else "anything"
        owner = "each player" if z.owner == "each" else role_name(en.role_def(z.owner)) if z.owner else "—"
        seen = {"all": "everyone", "owner": "its owner", "none": "no one"}[z.seen_by]
        layout = f"a grid of {z.columns} columns × {z.rows} rows" if z.kind == "grid" else words(z.kind)
        rows.append([capital_zone(en, name), holds, f"face {z.facing}", seen, owner, layout])
    if rows:
        sec.blocks.append(Table(["zone", "holds", "cards lie", "face-up cards seen by", "belongs to",
                                 "laid out as"], rows))
    if use.vars:
        items = [Item(sentence(("each player's " if v.owner == "each" else "") + em(words(v.name))
                               + (f" — {clean(v.text)}" if v.text else "")
                               + f", starting at {start_value(en, v.initial)}" + bounds(v)))
                 for v in rs.vars.values() if v.name in use.vars]
        sec.blocks += [Para("Keep track of:"), Items(items)]
    return sec


def start_value(en: English, value) -> str:
    """A variable's starting value: a number, a value's name, a player's name, or "none"."""
    if isinstance(value, str) and any(r.name == value for r in en.rs.roles):
        return role_name(en.role_def(value))
    return "none" if value is None else value_text(value)


def bounds(v: ir.VarDef) -> str:
    """" (never below 0 nor above 3)", for a bounded number."""
    parts = [f"below {b}" for b in [v.low] if b is not None] + [f"above {b}" for b in [v.high] if b is not None]
    return f" (never {' nor '.join(parts)})" if parts else ""


def capital_zone(en: English, name: str) -> str:
    text = en.inline(en.zone(name))
    return text[:1].upper() + text[1:]


def options(rs: ir.Ruleset, names) -> Section:
    rows = []
    for p in (rs.params[n] for n in names):
        if p.choices:
            values = " / ".join(p.choices)
        elif p.low is not None or p.high is not None:
            values = f"{p.low if p.low is not None else ''}..{p.high if p.high is not None else ''}"
        else:
            values = "on / off" if isinstance(p.default, bool) else "a number"
        rows.append([em(words(p.name)), values, option_value(p.default), clean(p.text or "")])
    head = ["option", "values", "default", "what it does"]
    if any(rs.param_values[n] != rs.params[n].default for n in names):
        # printed with --set: say which values this copy's rules are played with
        head.insert(3, "this game")
        for row, name in zip(rows, names):
            row.insert(3, option_value(rs.param_values[name]))
    return Section("Options", [Para("Agree on these before the game (on the command line: "
                                    + em("--set option=value") + ")."), Table(head, rows)])


def option_value(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


# ------------------------------------------------------------ modes


def mode_section(rs: ir.Ruleset, mode: ir.Mode, use: Usage, en: English, own_setup: bool) -> Section:
    sec = Section(clean(mode.title))
    if mode.text:
        sec.blocks.append(Para(clean(mode.text)))
    sec.blocks.append(Para(players(en, mode)))
    if mode.visibility:
        seen = {"open": "everyone sees every card, face down ones and their order included",
                "all": "everyone sees its face-up cards", "owner": "only its owner sees it", "none": "no one sees it"}
        if set(mode.visibility.values()) == {"open"} and set(mode.visibility) == set(rs.zones):
            sec.blocks.append(Para("In this mode everyone sees every card, face-down ones and their order included."))
        else:
            sec.blocks.append(Para("In this mode: " + "; ".join(
                f"{en.inline(en.zone(z))}: {seen[v]}" for z, v in mode.visibility.items() if z in use.zones) + "."))
    if own_setup and use.mode_setups[mode.name]:
        sec.blocks.append(Section("Setup for this mode", [Items(en.block(use.mode_setups[mode.name]),
                                                                ordered=True)], level=3))
    sec.blocks.append(Section("Each round", round_blocks(en, mode), level=3))
    sec.blocks.append(Section("End of the game", end_blocks(rs, mode, en), level=3))
    return sec


def players(en: English, mode: ir.Mode) -> str:
    """"One player: the Challenger.", "Players: …", or who plays and who is automated."""
    names = [role_name(en.role_def(r)) for r in mode.roles]
    seats = en.rs.players
    if seats is not None:  # seats from a count
        count = f"{seats.low} to {seats.high}" if seats.low < seats.high else str(seats.low)
        return (f"{count} players (the {em('players')} option), seated in this order: "
                + join([role_name(ir.Role(n)) for n in seats.names]) + ".")
    if en.you is None:
        return f"Players: {join(names)}."
    others = [role_name(en.role_def(r)) for r in mode.roles if r != en.you]
    you = role_name(en.role_def(en.you))
    if not others:
        return f"One player: {you}."
    return sentence(f"one player: {you}; {join(others)} {'is' if len(others) == 1 else 'are'} automated "
                    f"(never {'decides' if len(others) == 1 else 'decide'}: the rules say what "
                    f"{'it does' if len(others) == 1 else 'they do'})")


def round_blocks(en: English, mode: ir.Mode) -> list:
    blocks: list = [Para(f"Play rounds of {noun('step').n(len(mode.round))}, in order, until the game ends."
                         if len(mode.round) > 1 else "Play rounds of one step until the game ends.")]
    if mode.watches:
        blocks.append(Section("At any moment", [
            Para("Checked after everything that changes the game, in every step:"),
            Items([en.watch(w) for w in mode.watches])], level=4))
    for i, step in enumerate(mode.round, 1):
        blocks.append(Section(f"Step {i}: {clean(step.name)}", step_blocks(en, step), level=4))
    return blocks


def step_blocks(en: English, step: ir.Step) -> list:
    if step.text:
        return [Para(clean(step.text))]
    return [Items(en.block(step.body))]


def end_blocks(rs: ir.Ruleset, mode: ir.Mode, en: English) -> list:
    items, on_score = [], False
    for where, stmt, conds in endings(rs, mode):
        head, then = en.ending(stmt)
        on_score = on_score or stmt.kind == "end"
        head = f"{head} and {then}" if then and stmt.kind != "end" else head
        at = (", in " if then and stmt.kind != "end" else " in ") + where if where else ""
        conds = tighten([c for cond in conds for c in conjuncts(normal(cond, rs))])  # one condition a line
        items.append(Item(sentence(f"{head}{at}" + (", when:" if conds else "")),
                          [condition_item(en, c) for c in dict.fromkeys(conds)]))
    blocks: list = [Items(items)] if items else [Para("The rules never end the game by themselves.")]
    if on_score:
        blocks.append(Para(sentence(f"when the game ends, {en.ranking_phrase()}")))
    alike = en.each_player(mode.score)
    if alike is not None:
        blocks.append(Para(sentence(f"each player's score is {alike}")))
    for role, expr in mode.score.items() if alike is None else ():
        who = "Your score" if en.you == role else f"{possessive(role_name(en.role_def(role)))} score"
        blocks.append(Para(en.say(who[:1].lower() + who[1:] + " is ", expr).text))
    if mode.ratings:
        rows = [[strong(words(r.name)), score_range(r)] for r in mode.ratings]
        blocks += [Para("A winner's score gives a rating:"), Table(["rating", "score"], rows)]
    return blocks


def score_range(r: ir.Rating) -> str:
    if r.high is None:
        return f"{r.low} or more"
    return str(r.low) if r.high == r.low else f"{r.low}–{r.high}"


def condition_item(en: English, cond: ir.Expr) -> Item:
    laid = lay(en.phrase(cond))
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
        walk_block(proc.body, [], f"“{term(proc.text, name, proc.params)}”", set())
    return found


def _bound(s: ir.Stmt) -> set[str]:
    return set(s.binder.names) if isinstance(s, (ir.For, ir.Choose, ir.Take)) else set()


def _bookkeeping(cond: ir.Expr, lets: set[str]) -> bool:
    """A condition that is always true, or about the rules' own names (a loop's flag, a bound card)."""
    if isinstance(cond, ir.Const) and cond.value is True:
        return True
    return any(isinstance(n, ir.Local) and n.name in lets for n in walk(cond))


# ------------------------------------------------------------ terms


def glossary(en: English, names, known=frozenset(), actions: bool = True, spelled=frozenset()) -> list:
    """Each term the rules use by name, once, with what it means; terms used in
    the meanings are added after them (those in `known` are defined elsewhere).
    A term whose meaning reads as the term itself needs no entry. Without
    `actions`, an action whose `text:` says what it does is not spelled out,
    unless it is in `spelled`."""
    def wanted(n):
        return n not in known and (actions or n in en.rs.defines or not en.rs.procedures[n].text or n in spelled)

    items, done, queue = [], [], [n for n in dict.fromkeys(names) if wanted(n)]
    while queue:
        name = queue.pop(0)
        if name in done:
            continue
        done.append(name)
        items.append(term_item(en, name))
        queue += [t for t in en.terms if t not in done and t not in queue and wanted(t)]
    kept = [(i, n) for i, n in zip(items, done) if i is not None]
    items, done = [i for i, _ in kept], [n for _, n in kept]
    defines = [i for i, n in zip(items, done) if n in en.rs.defines]
    actions = [i for i, n in zip(items, done) if n not in en.rs.defines]
    blocks: list = []
    if defines:
        blocks += [Para("The rules use these terms:"), Items(defines)]
    if actions:
        blocks += [Para("And these actions:" if defines else "The rules use these actions:"), Items(actions)]
    return blocks


def ability_blocks(rs: ir.Ruleset, en: English, names) -> list:
    """The abilities the cards carry, as a rulebook lists them: when, how often, what they do."""
    windows = {n.event for n in walk(_all_rules(rs)) if isinstance(n, ir.Trigger) and n.window}
    return [Para("A card with one of these abilities uses it when the moment comes:"),
            Items([ability_item(rs, en, rs.abilities[n], rs.abilities[n].on in windows) for n in names])]


def _all_rules(rs: ir.Ruleset) -> tuple:
    return (rs.setup, tuple(p.body for p in rs.procedures.values()), tuple(a.body for a in rs.abilities.values()),
            tuple((m.setup, tuple(s.body for s in m.round), tuple(w.body for w in m.watches))
                  for m in rs.modes.values()))


def ability_item(rs: ir.Ruleset, en: English, a: ir.Ability, window: bool = False) -> Item:
    """`window`: the event opens play windows, so the card's holder chooses whether to use it."""
    with ability_names(rs, en, a) as moment:
        at = "in a play window at" if window else "at"
        head = f"{strong(words(a.name))} ({at} {moment}" + "".join(f", {x}" for x in ability_limits(rs, en, a)) + ")"
        if a.text:
            return Item(f"{head}: {sentence(clean(a.text))}")
        return Item(f"{head}:", en.block(a.body))


def ability_text(rs: ir.Ruleset, en: English, a: ir.Ability) -> str:
    """What a card with the ability does, in one paragraph (for the card itself): its
    `text:`, else when it answers and its rules in generated English."""
    if a.text:
        return sentence(clean(a.text))
    with ability_names(rs, en, a) as moment:
        head = capital(f"at {moment}" + "".join(f", {x}" for x in ability_limits(rs, en, a)))
        return f"{head}: " + " ".join(sentence(i.text) for i in flat(en.block(a.body)))


def flat(items: list[Item]) -> list[Item]:
    return [x for i in items for x in [i, *flat(i.children)]]


@contextmanager
def ability_names(rs: ir.Ruleset, en: English, a: ir.Ability):
    """The names an ability's rules use, as a rulebook refers to them while it is said: `this`
    is "this card", the event's values "the player", "the minion" (their noun, where no other
    value shares it), else by name after the moment ("a hit (*p* and *q*)"); yields the moment."""
    event = rs.events[a.on]
    names = {p for p, _ in event.params}  # in the moment as the rules name them: "before *p* rolls"
    moment = re.sub(r"{(\w+)}", lambda m: em(words(m.group(1))) if m.group(1) in names else m.group(0),
                    clean(event.text)) if event.text else words(a.on)
    used = {n.name for n in walk((a.body, a.where, a.optional)) if isinstance(n, ir.Local)}
    saved = dict(en.refs)
    en.refs["this"] = Bound("this card", name="this", noun=noun("card"))
    nouns = {p: en.item_noun(ty) for p, ty in event.params}
    unsaid = []
    for p, _ in event.params:
        n = nouns[p]
        if p not in used or "{" + p + "}" in (event.text or ""):
            continue
        if n is not None and n.one != "number" and [m.one for m in nouns.values() if m is not None].count(n.one) == 1:
            en.refs[p] = Bound(f"the {n.one}", name=p, noun=n)
        else:
            unsaid.append(em(words(p)))
    try:
        yield moment + (f" ({join(unsaid)})" if unsaid else "")
    finally:
        en.refs = saved


def ability_limits(rs: ir.Ruleset, en: English, a: ir.Ability) -> list[str]:
    """When the ability answers, how often, and whose choice it is. `where:` is checked when the
    moment comes: "if", not "while"; `this == c`, the card of the moment being this one, is
    "if it is this card" when the moment has one card."""
    cards = [p for p, ty in rs.events[a.on].params if isinstance(ty, CardT)]
    conds = conjuncts(a.where)
    itself = [c for c in conds if len(cards) == 1 and isinstance(c, ir.Binary) and c.op == "=="
              and {_local(c.left), _local(c.right)} == {"this", cards[0]}]
    rest = [c for c in conds if c not in itself]
    said = ["it is this card"] * bool(itself) + ([en.expr(_all(rest))] if rest else [])
    limits = [f"if {' and '.join(said)}"] if said else []
    if a.once:
        limits.append(f"once per {words(a.once)}" if a.once != "game" else "once per game")
    if a.optional is not None:
        limits.append(f"as {en.expr(a.optional)} chooses")
    return limits


def _local(e: ir.Expr) -> str | None:
    return e.name if isinstance(e, ir.Local) else None


def _all(conds: list[ir.Expr]) -> ir.Expr:
    out = conds[0]
    for c in conds[1:]:
        out = ir.Binary("and", out, c, ty=BOOL)
    return out


def term(text, name, params) -> str:
    """A define's or procedure's own phrase, its parameters by name."""
    return strong(fill_names(text, [p for p, _ in params]) if text else words(name))


def term_item(en: English, name: str) -> Item | None:
    if name in en.rs.defines:
        d = en.rs.defines[name]
        head = term(d.text, d.name, d.params)
        if isinstance(d.body, ir.Case):
            return Item(f"{head}, depending on {en.expr(d.body.subject)}:", en.case_items(d.body))
        laid = lay(en.phrase(d.body))
        if laid.text == fill_names(d.text or "", []):  # "a refresh card in the Reserve is face up"
            return None
        return Item(f"{head}: {laid.text}" + ("" if laid.text.endswith(":") else "."), laid.items)
    p = en.rs.procedures[name]
    return Item(f"{term(p.text, p.name, p.params)}:", en.block(p.body))


def assumptions(rs: ir.Ruleset, use: Usage, terms: set[str]) -> Section | None:
    notes = [(f"{type_noun(x).many}", x.assumed) for n, x in rs.card_types.items() if x.assumed and n in use.kinds]
    for what, table, used in (("zone", rs.zones, use.zones), ("option", rs.params, use.params),
                              ("variable", rs.vars, use.vars), ("term", rs.defines, terms),
                              ("action", rs.procedures, terms), ("mode", rs.modes, [m.name for m in use.modes])):
        notes += [(f"{what} {words(n)}", x.assumed) for n, x in table.items() if x.assumed and n in used]
    for m in use.modes:
        notes += [(f"step {clean(s.name)}", s.assumed) for s in m.round if s.assumed]
    if not notes:
        return None
    return Section("Assumptions", [Para("The rulebook does not give these; the ruleset assumes:"),
                                   Items([Item(sentence(f"{strong(clean(w))}: {clean(t)}")) for w, t in notes])])


def rulings(rs: ir.Ruleset, use: Usage, single: bool) -> Section:
    items = []
    for r in use.rulings:
        where = ruling_steps(r, rs)
        if not single:
            modes = ruling_modes(r, rs)
            where = ([join([clean(m.title) for m in modes])] if len(modes) < len(rs.modes) else []) + where
        said = f" ({em(', '.join(clean(w) for w in where))})" if where else ""
        name = clean(r.id).replace("-", " ").replace("_", " ")  # an id (`board-size`) as words
        items.append(Item(sentence(f"{strong(name)}{said}: {clean(r.text)}")))
    return Section("Rulings", [Para("Where the rulebook is unclear, these rules are played:"), Items(items)])


def heuristics(rs: ir.Ruleset, modes: list[ir.Mode], known: set[str]) -> Section | None:
    """For agent authors: how the search agents score a position (not rules of the game)."""
    blocks = []
    for m in modes:
        if not m.heuristics:
            continue
        en = English(rs, m)
        alike = en.each_player(m.heuristics)
        items = [Item(sentence(f"each player's position is worth {alike}"))] if alike is not None else \
            [Item(sentence(f"{possessive(role_name(en.role_def(role)))} position is worth "
                           f"{en.expr(expr)}")) for role, expr in m.heuristics.items()]
        blocks += [Para(f"{clean(m.title)}:"), Items(items)]
        if en.terms:
            blocks += glossary(en, list(en.terms), known)
    if not blocks:
        return None
    return Section("Appendix: for agent authors", [
        Para("Not rules of the game: the greedy and search agents score a position with these "
             "(higher is better for that player)."), *blocks])
