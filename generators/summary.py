"""IR -> a rules summary: the whole game, or one mode.

The summary follows a rulebook's order: what the game is, the components,
the play area, the options, the setup, each mode's round step by step, the
end of the game and scoring, the terms the rules use, the assumptions and
the rulings; the agents' heuristics last, in an appendix for agent authors.
Every sentence comes from the IR through `english.py`; a `text:` in the
ruleset replaces the generated sentence where it is given. With one mode,
only what that mode uses is printed (`scope.py`).
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Container
from dataclasses import replace

from rulelang import ir
from rulelang.labels import value_text
from rulelang.statistics import without_statistics
from rulelang.types import BOOL, ROLE
from rulelang.walk import walk

from .abilities import ability_blocks
from .components import components
from .document import Document, Item, Items, Para, Section, Table, clean, em, sentence, strong
from .endings import end_blocks
from .values import by_text, predicate_words
from .english import Context, block, context, each_player, expr, flat, role_def, zone
from .glossary import glossary, term
from .flow import resets, tidy
from .icons import check_icons
from .nouns import join, noun, possessive, role_name, type_noun, var_words, words
from .scope import Usage, ruling_modes, ruling_steps, usage
from .statements import watch
from .turns import turns_in_place


def summary(rs: ir.Ruleset, mode: str | None = None) -> Document:
    """The full rules summary (every mode, or just `mode`)."""
    check_icons(rs)
    rs = without_statistics(rs)  # what the rules keep only for measures is not a rule
    modes = [rs.modes[mode]] if mode else list(rs.modes.values())
    use = usage(rs, modes)
    ctx = context(rs, modes[0] if len(modes) == 1 else None)
    doc = Document(clean(rs.title), clean(rs.credits) if rs.credits else None)
    if rs.text:
        doc.blocks.append(Para(clean(rs.text)))
    if len(modes) > 1:
        doc.blocks.append(Para("Ways to play: " + join([clean(m.title) for m in modes]) + "."))
    if rs.cards or use.dice:  # a game of no components has none (all in the players' heads)
        doc.blocks.append(components(rs, use))
    doc.blocks.append(play_area(ctx, use))
    if use.params:
        doc.blocks.append(options(rs, use.params))
    setup = block(ctx, use.setup) + (block(ctx, use.mode_setups[modes[0].name]) if len(modes) == 1 else [])
    if setup:  # a game that starts as its play area says needs no setup section
        doc.blocks.append(Section("Setup", [Items(setup, ordered=True)]))
    contexts = [ctx]
    for m in modes:
        mode_ctx = ctx if len(modes) == 1 else context(rs, m)
        contexts.append(mode_ctx)
        doc.blocks.append(mode_section(mode_ctx, m, use, own_setup=len(modes) > 1))
    terms = [t for c in contexts for t in c.terms]
    if terms:
        doc.blocks.append(Section("Terms", glossary(ctx, terms)))
    if use.abilities:
        doc.blocks.append(Section("Abilities", ability_blocks(ctx, use.abilities)))
    defined = set(ctx.terms)
    notes = assumptions(ctx, use, set(ctx.terms))
    if notes:
        doc.blocks.append(notes)
    if use.rulings:
        doc.blocks.append(rulings(rs, use, single=len(modes) == 1))
    agents = appendix(rs, modes, defined if terms else set())
    if agents:
        doc.blocks.append(agents)
    return doc


def play_area(ctx: Context, use: Usage) -> Section:
    rs = ctx.rs
    sec = Section("Play area")
    rows = []
    for name in use.zones:
        z = rs.zones[name]
        holds = join([type_noun(rs.card_types[k]).many for k in z.holds if k in use.kinds], "or") \
            if z.holds else "—"
        owner = "each player" if z.owner == "each" else role_name(role_def(ctx.rs, z.owner)) if z.owner else "—"
        layout = (f"a grid of {z.columns} columns × {z.rows} rows" if z.kind == "grid" else
                  f"{len(z.places)} places joined as below" if z.kind == "graph" else words(z.kind))
        rows.append([capital_zone(ctx, name), holds, lying(z), owner, layout])
    if rows:  # a column that tells no zone from another says nothing to a player ("holds: anything")
        kinds = {noun(rs.card_types[k].component or "card").many for k in use.kinds}
        head = ["zone", "holds", f"{kinds.pop() if len(kinds) == 1 else 'cards'} lie", "belongs to", "laid out as"]
        # (how cards lie, when every zone's lie face up: pawns and tokens, a game of open cards)
        keep = [i for i in range(len(head)) if i == 0 or any(r[i] not in ("—", "face up") for r in rows)]
        sec.blocks.append(Table([head[i] for i in keep], [[r[i] for i in keep] for r in rows]))
    for name in use.zones:  # a graph is known only by its links: a player needs them to set it out
        z = rs.zones[name]
        if z.kind == "graph" and z.links:
            sec.blocks.append(Para(f"{capital_zone(ctx, name)}: " + "; ".join(graph_lines(z)) + "."))
    if use.vars:
        back = reset_steps(rs, list(use.modes))
        items = [Item(sentence(tracked(ctx, v, back.get(v.name, []))))
                 for v in rs.vars.values() if v.name in use.vars]
        sec.blocks += [Para("Keep track of:"), Items(items)]
    return sec


def graph_lines(z: ir.Zone) -> list[str]:
    """A graph's links as chains, in the order they were listed: "room 1 → room 2 → … → room 13",
    "room 6 → room 9"; a link both ways "a — b". Each chain goes on along the first link not yet said
    that leaves its last place the same way (so a cycle reads round: "s1 → … → north store → s1"),
    then back along links that come into its first. Linear in the links (a board may have 10,000 places)."""
    links = set(z.links)
    both = {(a, b) for a, b in links if (b, a) in links}
    order = [(a, b) for a, b in dict.fromkeys(z.links) if (b, a) not in both or a < b]  # a two-way link once
    leaving: dict[tuple, deque] = {}  # (place, both ways?) -> the links from it, as listed
    coming: dict[tuple, deque] = {}  # (place, both ways?) -> the links into it
    for e in order:
        leaving.setdefault((e[0], e in both), deque()).append(e)
        coming.setdefault((e[1], e in both), deque()).append(e)
    said: set[tuple] = set()

    def next_of(table: dict, key: tuple):
        pending = table.get(key)
        while pending and pending[0] in said:
            pending.popleft()
        if not pending:
            return None
        said.add(pending[0])
        return pending.popleft()

    lines = []
    for first in order:
        if first in said:
            continue
        said.add(first)
        two = first in both
        chain = deque(first)
        while (step := next_of(leaving, (chain[-1], two))) is not None:
            chain.append(step[1])
        while (step := next_of(coming, (chain[0], two))) is not None:  # and back
            chain.appendleft(step[0])
        lines.append((" — " if two else " → ").join(words(z.places[i]) for i in chain))
    return lines


def lying(z: ir.Zone) -> str:
    """How a zone's cards lie and who sees them, as one fact: "face down" (no one sees a face-down
    card of a zone everyone sees), "face up, seen only by its owner", "face down; its owner sees them"."""
    if z.seen_by == "owner":
        return "face up, seen only by its owner" if z.facing == "up" else "face down; its owner sees them"
    if z.seen_by == "none" and z.facing == "up":
        return "face up, hidden from everyone"
    return f"face {z.facing}"


def tracked(ctx: Context, v: ir.VarDef, back: list[str]) -> str:
    """An entry of "Keep track of": "*trials completed* so far: 0 at the start"; a true/false one by
    what it means: "whether the active player has activated an Encounter this turn: no at the start,
    and again in step 1, Fatigue"."""
    again = f", and again in {join(list(dict.fromkeys(back)))}" if back else ""
    return f"{value_name(v)}: {starting(ctx.rs, v)} at the start" + again + bounds(v) + secrecy(v)


def starting(rs: ir.Ruleset, v: ir.VarDef) -> str:
    """A value's starting value as the rules print it: "0", "no one", "no" (a true/false one)."""
    if v.type == BOOL and v.text:
        return "yes" if v.initial else "no"
    return "no one" if v.initial is None and v.type == ROLE else start_value(rs, v.initial)


def value_name(v: ir.VarDef) -> str:
    """A value players keep, as the rules name it, in the summary's list and on the quick reference
    alike: "each player's *bid* (tricks bid this hand)", "*trials completed* so far", "the dealer",
    "whether each player has passed" (its `text:` is not its name said again: "*points* — points")."""
    if v.type == BOOL and v.text:
        return f"whether each player {predicate_words(clean(v.text))}" if v.owner == "each" \
            else f"whether {clean(v.text)}"
    if v.text and by_text(v) is not None:  # the rules say "the dealer", never *dealer*
        return clean(v.text)
    said = var_words(v)
    name = ("each player's " if v.owner == "each" else "") + em(said)
    text = clean(v.text).rstrip(".") if v.text else ""
    said = said.lower()
    text = text[4:] if text.lower() == f"the {said}" else text  # "the level" is the *level*
    if re.match(rf"{re.escape(said)}\b", text.lower()):  # "*trials completed* so far", "*health* (a team's is …)"
        return name + text[len(said):]
    if not text:
        return name
    # a text with its own aside is set off by a dash: "*soldier health* — Soldiers' health (the hearts …)"
    return f"{name} — {text}" if "(" in text else f"{name} ({text})"


def start_value(rs: ir.Ruleset, value) -> str:
    """A variable's starting value: a number, a value's name, a player's name, or "none"."""
    if isinstance(value, str) and any(r.name == value for r in rs.roles):
        return role_name(role_def(rs, value))
    if isinstance(value, list):
        return ", ".join(map(str, value)) if value else "none"
    return "none" if value is None else value_text(value)


def secrecy(v: ir.VarDef) -> str:
    """Who sees a variable no one else does: "; only that player sees it"."""
    return {"owner": "; only that player sees it", "none": "; no one sees it until it is shown"}.get(v.seen_by, "")


def bounds(v: ir.VarDef) -> str:
    """" (never below 0 nor above 3)", for a bounded number."""
    parts = [f"below {b}" for b in [v.low] if b is not None] + [f"above {b}" for b in [v.high] if b is not None]
    return f" (never {' nor '.join(parts)})" if parts else ""


def capital_zone(ctx: Context, name: str) -> str:
    text = flat(zone(ctx, name))
    return text[:1].upper() + text[1:]


def _number(n) -> str:
    """A bound as printed: "100,000", not "100000"."""
    return f"{n:,}" if isinstance(n, int) and abs(n) >= 10_000 else str(n)


def options(rs: ir.Ruleset, names) -> Section:
    rows = []
    for p in (rs.params[n] for n in names):
        if p.choices:
            values = " / ".join(p.choices)
        elif p.low is not None and p.high is not None:  # as a player says a range, not as the ruleset writes it
            values = f"{_number(p.low)} to {_number(p.high)}"
        elif p.low is not None or p.high is not None:
            values = f"{_number(p.low)} or more" if p.low is not None else f"at most {_number(p.high)}"
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


def mode_section(ctx: Context, mode: ir.Mode, use: Usage, own_setup: bool) -> Section:
    rs = ctx.rs
    sec = Section(clean(mode.title))
    if mode.text:
        sec.blocks.append(Para(clean(mode.text)))
    sec.blocks.append(Para(players(ctx, mode)))
    if mode.visibility:
        seen = {"open": "everyone sees every card, face down ones and their order included",
                "all": "everyone sees its face-up cards", "owner": "only its owner sees it", "none": "no one sees it"}
        if set(mode.visibility.values()) == {"open"} and set(mode.visibility) == set(rs.zones):
            sec.blocks.append(Para("In this mode everyone sees every card, face-down ones and their order included."))
        else:
            sec.blocks.append(Para("In this mode: " + "; ".join(
                f"{flat(zone(ctx, z))}: {seen[v]}" for z, v in mode.visibility.items() if z in use.zones) + "."))
    if own_setup and use.mode_setups[mode.name]:
        sec.blocks.append(Section("Setup for this mode", [Items(block(ctx, use.mode_setups[mode.name]),
                                                                ordered=True)], level=3))
    sec.blocks.append(Section("Each round", round_blocks(ctx, mode), level=3))
    sec.blocks.append(Section("End of the game", end_blocks(ctx, mode), level=3))
    return sec


def players(ctx: Context, mode: ir.Mode) -> str:
    """"One player: the Challenger.", "Players: …", or who plays and who is automated."""
    names = [role_name(role_def(ctx.rs, r)) for r in mode.roles]
    seats = ctx.rs.players
    if seats is not None:  # seats from a count
        count = f"{seats.low} to {seats.high}" if seats.low < seats.high else str(seats.low)
        return (f"{count} players, in seats numbered from 1 in this order: "
                + join([role_name(ir.Role(n)) for n in seats.names]) + ".")
    if ctx.you is None:
        return f"Players: {join(names)}."
    others = [role_name(role_def(ctx.rs, r)) for r in mode.roles if r != ctx.you]
    you = role_name(role_def(ctx.rs, ctx.you))
    if not others:
        return f"One player: {you}."
    return sentence(f"one player: {you}; {join(others)} {'is' if len(others) == 1 else 'are'} automated "
                    f"(never {'decides' if len(others) == 1 else 'decide'}: the rules say what "
                    f"{'it does' if len(others) == 1 else 'they do'})")


def round_blocks(ctx: Context, mode: ir.Mode) -> list:
    turns = mode.turns
    if turns is not None:
        blocks: list = [Para(turns_text(ctx, mode))]
    else:
        blocks = [Para(f"Play rounds of {noun('step').n(len(mode.round))}, in order, until the game ends."
                       if len(mode.round) > 1 else "Play rounds of one step until the game ends.")]
    if mode.watches:
        blocks.append(Section("At any moment", [
            Para("Checked after everything that changes the game, in every step:"),
            Items([watch(ctx, w) for w in mode.watches])], level=4))
    for i, step in enumerate(mode.round, 1):
        turn = turns is not None and turns.first < i <= turns.last + 1
        title = f"Step {i}: {clean(step.name)}" + (" (on your turn)" if turn else "")
        blocks.append(Section(title, step_blocks(replace(ctx, turn=turn), step), level=4))
    return blocks


def turns_text(ctx: Context, mode: ir.Mode) -> str:
    """How a round of turns goes: "Play rounds until the game ends. In each round, every player
    still in the game takes a turn, one after the other, in seat order: steps 1 and 2 ..."."""
    turns, n = mode.turns, len(mode.round)
    order = "in seat order" if turns.order is None else f"({expr(ctx, turns.order)})"
    steps = f"step {turns.first + 1}" if turns.first == turns.last else \
        f"steps {turns.first + 1} to {turns.last + 1}" if turns.last > turns.first + 1 else \
        f"steps {turns.first + 1} and {turns.last + 1}"
    before = f"Each round begins with steps 1 to {turns.first}. Then every" if turns.first > 1 else \
        "Each round begins with step 1. Then every" if turns.first == 1 else "In each round, every"
    after = "" if turns.last == n - 1 else \
        f" Once every player has had their turn, the round ends with step {turns.last + 2}." \
        if turns.last == n - 2 else f" Once every player has had their turn, the round ends with steps " \
                                    f"{turns.last + 2} to {n}."
    return (f"Play rounds until the game ends. {before} player still in the game takes a turn, one after the "
            f"other {order}. On your turn, play {steps}.{after}")


def step_blocks(ctx: Context, step: ir.Step, listed: Container[str] | None = None) -> list:
    """A step's rules; the variables it sets back to their starting values are said in the list of
    what players keep track of, not in the step (`listed`: the variables a quick reference's list
    names, and the loops' own counts, which their loops say; the summary lists every one)."""
    if step.text:
        return [Para(clean(step.text))]
    body = resets(ctx.rs, tidy(ctx.rs, step.body), listed)[0]
    turns = turns_in_place(ctx, body[0]) if len(body) == 1 and isinstance(body[0], ir.For) else None
    return [Items(turns if turns is not None else block(ctx, body))]


def reset_steps(rs: ir.Ruleset, modes: list[ir.Mode]) -> dict[str, list[str]]:
    """Each variable a step sets back to its starting value, with the steps that do ("step 1, Fatigue")."""
    found: dict[str, list[str]] = {}
    for m in modes:
        for i, step in enumerate(m.round, 1):
            for name in resets(rs, tidy(rs, step.body))[1]:
                found.setdefault(name, []).append(f"step {i}, {clean(step.name)}")
    return found


def assumptions(ctx: Context, use: Usage, terms: set[str]) -> Section | None:
    rs = ctx.rs
    notes = [(strong(type_noun(x).many), x.assumed) for n, x in rs.card_types.items() if x.assumed and n in use.kinds]
    for what, table, used in (("zone", rs.zones, use.zones), ("option", rs.params, use.params),
                              ("variable", rs.vars, use.vars), ("mode", rs.modes, [m.name for m in use.modes])):
        notes += [(strong(clean(f"{what} {words(n)}")), x.assumed) for n, x in table.items() if x.assumed and n in used]
    phrased: list[ir.Define | ir.Procedure] = [*rs.defines.values(), *rs.procedures.values()]
    notes += [(term(ctx, x.text, x.name, x.params, x.body), x.assumed) for x in phrased  # as the Terms section
              if x.assumed and x.name in terms]                                        # heads it: its phrase
    for m in use.modes:
        notes += [(strong(clean(f"step {clean(s.name)}")), s.assumed) for s in m.round if s.assumed]
    if not notes:
        return None
    return Section("Assumptions", [Para("The rulebook does not give these; the ruleset assumes:"),
                                   Items([Item(sentence(f"{w}: {clean(t)}")) for w, t in notes])])


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


def appendix(rs: ir.Ruleset, modes: list[ir.Mode], known: set[str]) -> Section | None:
    """For agent authors and programs: the decisions by name, and how the search agents score
    a position (not rules of the game)."""
    blocks = []
    asked = {label: where for m in modes for label, where in decisions(rs, m).items()}
    if asked:
        blocks += [Para("The program names each decision (in game logs, and to agents and plug-ins):"),
                   Items([Item(sentence(f"{em(words(label))}: {join(list(dict.fromkeys(where)))}"))
                          for label, where in asked.items()])]
    for m in modes:
        if not m.heuristics:
            continue
        ctx = context(rs, m)
        alike = each_player(ctx, m.heuristics, "position is worth")
        items = [Item(sentence(alike))] if alike is not None else \
            [Item(sentence(f"{possessive(role_name(role_def(rs, who)))} position is worth "
                           f"{expr(ctx, value)}")) for who, value in m.heuristics.items()]
        if not any(m.heuristics for m in modes[:modes.index(m)]):
            blocks.append(Para("The greedy and search agents score a position with these "
                               "(higher is better for that player)."))
        blocks += [Para(f"{clean(m.title)}:"), Items(items)]
        if ctx.terms:
            blocks += glossary(ctx, list(ctx.terms), known)
    if not blocks:
        return None
    return Section("Appendix: for agent authors", [Para("Not rules of the game."), *blocks])


def decisions(rs: ir.Ruleset, mode: ir.Mode) -> dict[str, list[str]]:
    """Each decision's name, with where the rules ask it (a step's name, or the action's)."""
    found: dict[str, list[str]] = {}
    todo = [(rs.setup, "the setup"), (mode.setup, "the setup")] + [(s.body, clean(s.name)) for s in mode.round] \
        + [(w.body, "at any moment") for w in mode.watches]
    seen: set[str] = set()
    while todo:
        body, where = todo.pop(0)
        for node in walk(body):
            if isinstance(node, (ir.Choose, ir.Menu)):
                found.setdefault(node.label, []).append(where)
            elif isinstance(node, ir.CallProc) and node.name not in seen:
                seen.add(node.name)
                proc = rs.procedures[node.name]
                todo.append((proc.body, term(context(rs, mode), proc.text, proc.name, proc.params, proc.body)))
    return found
