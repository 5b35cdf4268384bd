"""IR -> a rules summary, and a one-page quick reference per mode.

The summary follows a rulebook's order: what the game is, the components,
the play area, the options, the setup, each mode's round step by step, the
end of the game and scoring, the definitions the steps refer to, and the
rulings. Every sentence comes from the IR through `English`; a `text:` in
the ruleset replaces the generated sentence where it is given.
"""
from __future__ import annotations

from collections import Counter

from rulelang import ir
from rulelang.labels import value_text
from rulelang.walk import walk

from .components import card_rows, component_count, icons_used, type_title
from .document import Document, Item, Items, Para, Section, Table, clean, em, icon, strong
from .english import English, capital, fill, join_and, sentence, words
from .icons import card_icons, check_icons


def summary(rs: ir.Ruleset, mode: str | None = None) -> Document:
    """The full rules summary (every mode, or just `mode`)."""
    check_icons(rs)
    modes = [rs.modes[mode]] if mode else list(rs.modes.values())
    en = English(rs, modes[0] if len(modes) == 1 else None)
    doc = Document(clean(rs.title), clean(rs.credits) if rs.credits else None)
    if rs.text:
        doc.blocks.append(Para(clean(rs.text)))
    if len(rs.modes) > 1:
        doc.blocks.append(Para("Ways to play: " + join_and([clean(m.title) for m in rs.modes.values()]) + "."))
    if rs.cards or dice_rolled(rs):  # a game of no components has none (all in the players' heads)
        doc.blocks.append(components(rs))
    doc.blocks.append(play_area(rs, en))
    if rs.params:
        doc.blocks.append(options(rs))
    doc.blocks.append(Section("Setup", [Items(en.block(rs.setup), ordered=True)]))
    for m in modes:
        doc.blocks.append(mode_section(rs, m))
    if rs.defines or rs.procedures or rs.abilities:
        doc.blocks.append(definitions(rs, en))
    notes = assumptions(rs)
    if notes:
        doc.blocks.append(notes)
    if rs.rulings:
        doc.blocks.append(rulings(rs))
    return doc


# ------------------------------------------------------------ components


def component_line(rs: ir.Ruleset) -> str:
    """"54 cards, 36 tiles and 4 cubes." — and of which types, where a noun
    covers several ("36 cards: 20 trial and 16 action.")."""
    total = Counter(c.kind for c in rs.cards)
    nouns = Counter(ct.component for k, ct in rs.card_types.items() if total[k])
    if all(n == 1 for n in nouns.values()):
        return f"{component_count(rs)}."
    return f"{component_count(rs)}: " + join_and([f"{total[k]} {words(k)}" for k in rs.card_types if total[k]]) + "."


def components(rs: ir.Ruleset) -> Section:
    sec = Section("Components")
    total = Counter(c.kind for c in rs.cards)
    if rs.cards:  # a game of dice alone lists only its dice
        sec.blocks.append(Para(component_line(rs)))
    for kind, ct in rs.card_types.items():
        title = capital(words(ct.plural)) if words(kind) == words(ct.component) else \
            f"{type_title(kind)} {words(ct.plural)}"
        sub = Section(f"{title} ({total[kind]})", level=3)
        if ct.text:
            sub.blocks.append(Para(clean(ct.text)))
        if ct.assumed:
            sub.blocks.append(Para(em("Assumed:") + " " + clean(ct.assumed)))
        if ct.fields:
            sub.blocks.append(card_table(rs, ct))
        if ct.state:
            sub.blocks.append(Para("Each of these cards also keeps " + join_and(
                [f"{em(words(f.name))} (starting at {value_text(f.initial)})" for f in ct.state])
                + ", changed during play."))
        sec.blocks.append(sub)
    rolled = dice_rolled(rs)
    if rolled:
        faces = [f"{em(words(d.name))} (faces {join_and([value_text(f) for f in d.faces])})" for d in rolled]
        sec.blocks.append(Para("Dice: " + join_and(faces) + "."))
    return sec


def dice_rolled(rs: ir.Ruleset) -> list[ir.Die]:
    """The dice the rules roll (the built-in d6 after those declared)."""
    rules = (rs.setup, tuple(p.body for p in rs.procedures.values()),
             tuple((m.setup, tuple(s.body for s in m.round), tuple(w.body for w in m.watches))
                   for m in rs.modes.values()))
    names = {n.die for n in walk(rules) if isinstance(n, ir.Roll)}
    return [d for d in rs.dice.values() if d.name in names]


def card_table(rs: ir.Ruleset, ct: ir.CardType) -> Table:
    """One row per distinct card; a long table is folded like a rulebook's:
    the field with the most values is listed per combination of the others
    (`strength | 9, 10, 11, 12, 13`)."""
    rows = card_rows(rs, ct.name)

    def cell(card, f):
        shown = {name: icon(i) + " " for name, _, i in card_icons(rs, card)}
        return shown.get(f.name, "") + value_text(card.values[f.name])

    fields = list(ct.fields)
    if len(fields) > 1 and len(rows) > 8:
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
            return Table([words(f.name) for f in others] + [words(listed.name) + "s", "cards"], table)
    return Table([words(f.name) for f in fields] + ["copies"],
                 [[cell(card, f) for f in fields] + [str(count)] for card, count in rows])


def play_area(rs: ir.Ruleset, en: English) -> Section:
    sec = Section("Play area")
    rows = []
    for z in rs.zones.values():
        holds = join_and([words(k) for k in z.holds], "or") if z.holds else "any card"
        owner = "each player" if z.owner == "each" else words(z.owner) if z.owner else "—"
        seen = {"all": "everyone", "owner": "its owner", "none": "no one"}[z.seen_by]
        layout = f"a grid of {z.columns} columns × {z.rows} rows" if z.kind == "grid" else words(z.kind)
        rows.append([capital(en.zone(z.name)), holds, f"face {z.facing}", seen, owner, layout])
    if rows:
        sec.blocks.append(Table(["zone", "holds", "cards lie", "face-up cards seen by", "belongs to", "laid out as"],
                                rows))
    if rs.vars:
        items = [Item(sentence(("each player's " if v.owner == "each" else "") + em(words(v.name))
                               + (f" — {clean(v.text)}" if v.text else "")
                               + f", starting at {value_text(v.initial)}"
                               + bounds(v))) for v in rs.vars.values()]
        sec.blocks += [Para("Keep track of:"), Items(items)]
    return sec


def bounds(v: ir.VarDef) -> str:
    """" (never below 0 nor above 3)", for a bounded number."""
    parts = [f"below {v.low}" for _ in [v.low] if v.low is not None] + \
        [f"above {v.high}" for _ in [v.high] if v.high is not None]
    return f" (never {' nor '.join(parts)})" if parts else ""


def options(rs: ir.Ruleset) -> Section:
    rows = []
    for p in rs.params.values():
        if p.choices:
            values = " / ".join(p.choices)
        elif p.low is not None or p.high is not None:
            values = f"{p.low if p.low is not None else ''}..{p.high if p.high is not None else ''}"
        else:
            values = "on / off" if isinstance(p.default, bool) else "a number"
        rows.append([em(words(p.name)), values, option_value(p.default), clean(p.text or "")])
    head = ["option", "values", "default", "what it does"]
    if any(rs.param_values[name] != p.default for name, p in rs.params.items()):
        # printed with --set: say which values this copy's rules are played with
        head.insert(3, "this game")
        for row, name in zip(rows, rs.params):
            row.insert(3, option_value(rs.param_values[name]))
    return Section("Options", [Para("Agree on these before the game (on the command line: "
                                    + em("--set option=value") + ")."), Table(head, rows)])


def option_value(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


# ------------------------------------------------------------ modes


def mode_section(rs: ir.Ruleset, mode: ir.Mode) -> Section:
    en = English(rs, mode)
    sec = Section(clean(mode.title))
    if mode.text:
        sec.blocks.append(Para(clean(mode.text)))
    players = join_and([words(r) for r in mode.roles])
    if rs.players is not None:  # seats from a count
        p = rs.players
        count = f"{p.low} to {p.high}" if p.low < p.high else str(p.low)
        seats = join_and([words(n) for n in p.names])
        sec.blocks.append(Para(f"{count} players (the {em('players')} option), seated in this order: {seats}."))
    else:
        sec.blocks.append(Para(f"Players: {players}." if len(mode.roles) > 1 else f"One player, the {players}."))
    if mode.visibility:
        seen = {"open": "everyone sees every card, face down ones and their order included",
                "all": "everyone sees its face-up cards", "owner": "only its owner sees it", "none": "no one sees it"}
        if set(mode.visibility.values()) == {"open"} and set(mode.visibility) == set(rs.zones):
            sec.blocks.append(Para("In this mode everyone sees every card, face-down ones and their order included."))
        else:
            sec.blocks.append(Para("In this mode: " + "; ".join(
                f"{en.zone(z)}: {seen[v]}" for z, v in mode.visibility.items()) + "."))
    if mode.setup:
        sec.blocks.append(Section("Setup for this mode", [Items(en.block(mode.setup), ordered=True)], level=3))
    rounds = Section("Each round", [Para(f"Play rounds of {len(mode.round)} steps, in order, until the game ends.")],
                     level=3)
    for i, step in enumerate(mode.round, 1):
        rounds.blocks.append(Section(f"Step {i}: {clean(step.name)}", step_blocks(en, step), level=4))
    sec.blocks.append(rounds)
    if mode.watches:
        sec.blocks.append(Section("At any moment", [
            Para("These are checked after everything that changes the game:"),
            Items([en.watch(w) for w in mode.watches])], level=3))
    sec.blocks.append(Section("End of the game", end_blocks(rs, mode, en), level=3))
    return sec


def step_blocks(en: English, step: ir.Step) -> list:
    if step.text:
        return [Para(clean(step.text))]
    return [Items(en.block(step.body))]


def end_blocks(rs: ir.Ruleset, mode: ir.Mode, en: English) -> list:
    items = []
    for where, stmt, conds in endings(rs, mode, en):
        head, then = en.ending(stmt)
        children = [Item(sentence(c)) for c in conds] + ([Item(sentence(f"then {then}"))] if then else [])
        items.append(Item(capital(f"{head} in {where}" + (", when:" if conds else ":" if then else ".")), children))
    blocks: list = [Items(items)] if items else [Para("The rules never end the game by themselves.")]
    for role, expr in mode.score.items():
        who = "Your score" if en.you == role else f"The {words(role)}'s score"
        blocks.append(Para(sentence(f"{who} is {en.expr(expr)}")))
    if mode.ratings:
        rows = [[strong(words(r.name)), f"{r.low}–{r.high}" if r.high is not None else f"{r.low} or more"]
                for r in mode.ratings]
        blocks += [Para("A winner's score gives a rating:"), Table(["rating", "score"], rows)]
    return blocks


def endings(rs: ir.Ruleset, mode: ir.Mode, en: English):
    """(where, end statement, conditions) for every end statement the mode's
    rules reach, once each, with the conditions around it where it is written
    (a step, or a procedure the steps call) — as a rulebook states it, not
    once per path through the rules."""
    found, procedures = [], []

    def walk(block, conds, where):
        for s in block:
            if isinstance(s, ir.EndGame):
                found.append((where, s, list(conds)))
            elif isinstance(s, ir.If):
                before = []
                for cond, body in s.branches:
                    walk(body, conds + before + [en.cond(cond)], where)
                    before.append(en.cond(cond, negate=True))
                if s.otherwise is not None:
                    walk(s.otherwise, conds + before, where)
            elif isinstance(s, ir.While):
                walk(s.body, conds + [en.cond(s.cond, negate=s.until)], where)
            elif isinstance(s, (ir.Repeat, ir.For, ir.Choose, ir.Take)):
                walk(s.body, conds, where)
            elif isinstance(s, ir.Menu):
                for opt in s.options:
                    who, ending = en.subject(s.role)
                    walk(opt.body, conds + [f"{who} choose{ending} {em(words(opt.name))}"], where)
            elif isinstance(s, ir.CallProc) and s.name not in procedures:
                procedures.append(s.name)

    walk(rs.setup, [], "the setup")
    walk(mode.setup, [], "the setup")
    for i, step in enumerate(mode.round, 1):
        walk(step.body, [], f"step {i}, {clean(step.name)}")
    for w in mode.watches:
        walk(w.body, [en.cond(w.when)], "any step, as soon as")
    for name in procedures:  # grows while it is walked: procedures calling procedures
        proc = rs.procedures[name]
        walk(proc.body, [], f"“{term(proc.text, name, proc.params)}”")
    return found


# ------------------------------------------------------------ definitions


def definitions(rs: ir.Ruleset, en: English, names=None) -> Section:
    sec = Section("Definitions")
    items = []
    for d in rs.defines.values():
        if names is None or d.name in names:
            items.append(define_item(rs, en, d))
    procs = [procedure_item(en, p) for p in rs.procedures.values() if names is None or p.name in names]
    if items:
        sec.blocks += [Para("The steps use these terms:"), Items(items)]
    if procs:
        sec.blocks += [Para("And these actions:" if items else "The steps use these actions:"), Items(procs)]
    abilities = [ability_item(rs, en, a) for a in rs.abilities.values() if names is None or a.name in names]
    if abilities:
        sec.blocks += [Para("Cards with these abilities use them when the moment comes:"), Items(abilities)]
    return sec


def ability_item(rs: ir.Ruleset, en: English, a: ir.Ability) -> Item:
    """An ability as a rulebook lists it: when, how often, and what it does."""
    event = rs.events[a.on]
    moment = fill(event.text, {p: p for p, _ in event.params}) if event.text else words(a.on)
    limits = [f"once per {words(a.once)}" if a.once != "game" else "once per game"] if a.once else []
    if a.optional is not None:
        limits.append(f"if {en.expr(a.optional)} wishes")
    if a.where is not None:
        limits.append(f"while {en.cond(a.where)}")
    head = f"{strong(words(a.name))} (at {moment}" + "".join(f", {x}" for x in limits) + ")"
    if a.text:
        return Item(f"{head}: {clean(a.text)}")
    return Item(f"{head}:", en.block(a.body))


def term(text, name, params) -> str:
    """A define's or procedure's own phrase, its parameters by name."""
    return strong(fill(text, {p: p for p, _ in params}) if text else words(name))


def define_item(rs: ir.Ruleset, en: English, d: ir.Define) -> Item:
    head = term(d.text, d.name, d.params)
    if isinstance(d.body, ir.Case):
        return Item(f"{head}, depending on {en.expr(d.body.subject)}:", en.case_items(d.body))
    return Item(f"{head}: {en.expr(d.body)}.")


def procedure_item(en: English, p: ir.Procedure) -> Item:
    return Item(f"{term(p.text, p.name, p.params)}:", en.block(p.body))


def assumptions(rs: ir.Ruleset) -> Section | None:
    notes = [(f"card type {words(n)}", x.assumed) for n, x in rs.card_types.items() if x.assumed]
    for what, table in (("zone", rs.zones), ("option", rs.params), ("variable", rs.vars),
                        ("term", rs.defines), ("action", rs.procedures), ("mode", rs.modes)):
        notes += [(f"{what} {words(n)}", x.assumed) for n, x in table.items() if x.assumed]
    for m in rs.modes.values():
        notes += [(f"step {clean(s.name)}", s.assumed) for s in m.round if s.assumed]
    if not notes:
        return None
    return Section("Assumptions", [Para("The rulebook does not give these; the ruleset assumes:"),
                                   Items([Item(sentence(f"{strong(w)}: {clean(t)}")) for w, t in notes])])


def rulings(rs: ir.Ruleset) -> Section:
    items = []
    for r in rs.rulings:
        where = f" ({em(clean(r.applies_to))})" if r.applies_to else ""
        name = clean(r.id).replace("-", " ").replace("_", " ")  # an id (`board-size`) as words
        items.append(Item(sentence(f"{strong(name)}{where}: {clean(r.text)}")))
    return Section("Rulings", [Para("Where the rulebook is unclear, these rules are played:"), Items(items)])


# ------------------------------------------------------------ quick reference


QUICK_DETAIL = 2  # the most detailed quick reference; publish.py lowers it until a page fits


def quick_reference(rs: ir.Ruleset, mode_name: str, detail: int = QUICK_DETAIL) -> Document:
    """One page for the table: the round first, then the rules used most.

    `detail` 2 gives each step in full and six rules; 1 each step's own
    sentences (nested ones folded away) and three rules; 0 the steps' names
    and first sentences only — a long game's reference still fits a page."""
    check_icons(rs)
    mode = rs.modes[mode_name]
    en = English(rs, mode)
    title = clean(rs.title) if clean(mode.title) == clean(rs.title) else f"{clean(rs.title)} — {clean(mode.title)}"
    doc = Document(title, "Quick reference")  # a game of one way to play names its mode as itself
    rounds = Section("Each round")
    steps = []
    for s in mode.round:
        items = [Item(sentence(clean(s.text)))] if s.text else step_blocks(en, s)[0].items
        if detail < 2:
            items = [Item(i.text) for i in items[:None if detail else 1]]
        steps.append(Item(sentence(strong(clean(s.name))), items))
    rounds.blocks.append(Items(steps, ordered=True))
    doc.blocks.append(rounds)
    used = most_used(rs, mode)[:(0, 3, 6)[detail]]
    if used:
        doc.blocks.append(Section("Rules used most", definitions(rs, en, set(used)).blocks))
    doc.blocks.append(Section("End of the game", end_blocks(rs, mode, en)))
    legend = icons_used(rs)
    if legend:
        doc.blocks.append(Section("Icons", [Table(["icon", "name", "kind"], [
            [icon(i), words(v), words(t)] for i, v, t in legend])]))
    counts = Counter(c.kind for c in rs.cards)
    cards_only = all(ct.component == "card" for ct in rs.card_types.values())
    if rs.cards:  # a game of dice alone has no components to count
        doc.blocks.append(Section("Cards" if cards_only else "Components", [Para(
            join_and([f"{counts[k]} {words(k)}" for k in rs.card_types if counts[k]]) + "." if cards_only
            else component_line(rs))]))
    return doc


def most_used(rs: ir.Ruleset, mode: ir.Mode) -> list[str]:
    """Defines and procedures by how often the mode's rules refer to them (directly or not)."""
    counts: Counter = Counter()

    def visit(node, weight):
        if isinstance(node, (ir.DefineCall, ir.CallProc)):
            counts[node.name] += weight
            target = rs.defines.get(node.name) if isinstance(node, ir.DefineCall) else rs.procedures.get(node.name)
            if target is not None:
                visit(target.body, weight)
        if isinstance(node, tuple):
            for x in node:
                visit(x, weight)
        elif isinstance(node, ir.Node):
            for f in node.__dataclass_fields__:
                if f not in ("span", "ty", "types"):
                    visit(getattr(node, f), weight)

    visit(rs.setup, 1)
    visit(mode.setup, 1)
    for step in mode.round:
        visit(step.body, 1)
    order = {n: i for i, n in enumerate([*rs.defines, *rs.procedures])}
    return sorted(counts, key=lambda n: (-counts[n], order.get(n, 0)))

