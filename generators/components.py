"""Cards as printed: labels, field values, component tables and the summary's *Components* section."""
from __future__ import annotations

from collections import Counter

from rulelang import ir, labels
from rulelang.labels import value_text
from rulelang.types import BOOL, ROLE, CardT, EnumT
from rulelang.walk import rule_blocks, walk

from .document import Para, Section, Table, clean, em, icon, sentence
from .icons import card_icons
from .marks import marks
from .grammar import capital, number_word, plural
from .nouns import component_counts, join, printed_field, printed_value, role_name, type_noun, words
from .nouns import noun as noun_of
from .scope import Usage


def fill_format(fmt: str, card: ir.Card) -> str:
    """A `label:` or `back:` format with the card's field values, safe to embed."""
    return clean(labels.fill_format(fmt, card))


def card_label(rs: ir.Ruleset, card: ir.Card) -> str:
    return clean(labels.card_label(rs, card))


def type_title(kind: str) -> str:
    return words(kind)[:1].upper() + words(kind)[1:]


PAPER = frozenset({"card", "token", "tile", "counter", "chit", "chip", "coin", "disc", "disk", "marker"})


def printed(ct: ir.CardType) -> bool:
    """Whether a type is on card sheets: as `print: true/false` says; else if it has a `layout:`;
    else if it is paper (cards, tokens, tiles), not a miniature, a board's space, a pawn or a die."""
    if ct.printed is not None:
        return ct.printed
    return ct.layout is not None or (ct.component or "card").split()[-1].lower() in PAPER


def printed_cards(rs: ir.Ruleset) -> list[ir.Card]:
    """The cards of the types printed on card sheets."""
    return [c for c in rs.cards if printed(rs.card_types[c.kind])]


def card_rows(rs: ir.Ruleset, kind: str) -> list[tuple[ir.Card, int]]:
    """The distinct cards of a type, in table order, each with its number of copies."""
    counts = Counter(tuple(c.values.items()) for c in rs.cards if c.kind == kind)
    rows, seen = [], set()
    for c in rs.cards:
        key = tuple(c.values.items())
        if c.kind == kind and key not in seen:
            seen.add(key)
            rows.append((c, counts[key]))
    return rows


def icons_used(rs: ir.Ruleset) -> list[tuple[str, str, str, str]]:
    """(icon, value, type, card type) for every icon some card shows, in first-seen order: the
    icons of values, and the icons a `layout:` prints numbers with (value: the field, type: the card's)."""
    used: dict[str, tuple[str, str, str, str]] = {}
    for card in rs.cards:
        ct = rs.card_types[card.kind]
        types = {f.name: f.type for f in ct.fields}
        for field, value, mark in card_icons(rs, card):
            ty = types[field]
            used.setdefault(mark, (mark, value, ty.name if isinstance(ty, EnumT) else field, card.kind))
        for field, mark in (ct.layout.icons if ct.layout is not None and printed(ct) else ()):
            if card.values.get(field):
                used.setdefault(mark, (mark, field, card.kind, card.kind))
    return list(used.values())


# ------------------------------------------------------------ the summary's section


def components(rs: ir.Ruleset, use: Usage) -> Section:
    kinds = [k for k in use.kinds if any(c.kind == k for c in rs.cards)]
    sec = Section("Components", [Para(sentence(component_counts(rs, kinds)))] if kinds else [])
    for kind in kinds:
        ct = rs.card_types[kind]
        n = sum(c.kind == kind for c in rs.cards)
        noun = type_noun(ct)
        title = type_title(noun.many if n != 1 else noun.one)
        sub = Section(f"{title} ({n})" if noun.one.endswith(ct.component) else
                      f"{title} ({noun_of(ct.component).n(n)})", level=3)
        if ct.text:
            sub.blocks.append(Para(clean(ct.text)))
        if ct.assumed:
            sub.blocks.append(Para(em("Assumed:") + " " + clean(ct.assumed)))
        if ct.fields:
            sub.blocks += card_blocks(rs, ct)
        # not the bookkeeping of `once:` (`recall$used`), nor who played a card (everyone saw it: `marks.py`)
        kept = [f for f in ct.state if f.name.isidentifier() and f.name not in marks(rs)]
        shown = shown_faces(rs, ct) if ct.component == "die" else {}
        for f in kept:
            if f.name in shown:  # what a die shows, not a value it keeps: "Each die shows a number from 1 to 6 …"
                sub.blocks.append(Para(f"Each {noun.one} shows {shown[f.name]} (its {em(printed_field(rs, f.name))}), "
                                       f"{value_text(f.initial)} at the start."))
        for f in kept:
            if f.type == ROLE:  # a player a card holds (not who played it: `marks`) is whose it is
                start = "to no one" if f.initial is None else "to " + next(
                    role_name(r) for r in rs.roles if r.name == f.initial)
                sub.blocks.append(Para(f"Each {noun.one} belongs to a player (its {em(printed_field(rs, f.name))}), "
                                       f"{start} at the start."))
        kept = [f for f in kept if f.name not in shown and f.type != ROLE]
        if kept:
            sub.blocks.append(Para(f"Each {noun.one} {'also ' if ct.fields or shown else ''}keeps "
                                   + join([kept_state(rs, f) for f in kept]) + ", changed during play."))
        if sub.blocks:  # a type with nothing to say beyond its count is said in the count above
            sec.blocks.append(sub)
    if use.dice:
        faces = [f"{em(words(d))} (faces {join([value_text(f) for f in rs.dice[d].faces])})" for d in use.dice]
        sec.blocks.append(Para(f"{'Dice' if len(faces) > 1 else 'A die'}: " + join(faces) + "."))
    return sec


def shown_faces(rs: ir.Ruleset, ct: ir.CardType) -> dict[str, str]:
    """A die's states that only rolls set, each with the faces it can show: "a number from 1 to 6"."""
    rolled: dict[str, set[int]] = {}
    other: set[str] = set()
    for n in walk(tuple(rule_blocks(rs))):
        target = n.target if isinstance(n, (ir.Roll, ir.Assign)) else None
        if not (isinstance(target, ir.Field) and isinstance(target.obj.ty, CardT) and ct.name in target.obj.ty.kinds):
            continue
        if isinstance(n, ir.Roll) and n.count is None and n.die in rs.dice:
            rolled.setdefault(target.name, set()).update(rs.dice[n.die].faces)
        else:
            other.add(target.name)
    said = {}
    for name, faces in rolled.items():
        low, high = min(faces), max(faces)
        if name not in other:
            said[name] = (f"a number from {low} to {high}" if faces == set(range(low, high + 1))
                          else "one of " + join([str(f) for f in sorted(faces)], "or"))
    return said


def kept_state(rs: ir.Ruleset, f: ir.StateField) -> str:
    """"*damage* (starting at 0)"; a true/false one by what it says: "whether it is sprung (no at the start)"."""
    name = printed_field(rs, f.name)
    if f.type == BOOL:
        verb = name.split(" ")[0]
        said = name if verb in ("is", "has", "holds", "shows", "offers") or verb.endswith("s") else f"is {name}"
        return f"whether it {said} ({'yes' if f.initial else 'no'} at the start)"
    return f"{em(name)} (starting at {value_text(f.initial)})"


def card_blocks(rs: ir.Ruleset, ct: ir.CardType) -> list:
    """A deck made of every value of a field times the same cards (four suits of thirteen
    ranks) prints as a rulebook says it: "Each suit (♠ spades, …) has one card of each of these:"
    and the table of one suit; any other deck as its table."""
    rows = card_rows(rs, ct.name)
    said = one_of_each(rs, ct, rows)
    if said is not None:
        return [said]
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
                values.append((icon(mark) + " " if mark else "") + printed_value(rs, f.type, v))
            each = "one card of each of these" if all(n == 1 for _, n in per_value[first]) else "these cards"
            return [Para(f"Each {printed_field(rs, f.name)} ({', '.join(values)}) has {each}:"),
                    card_table(rs, ct, [g for g in ct.fields if g is not f], shown)]
    return [card_table(rs, ct)]


def one_of_each(rs: ir.Ruleset, ct: ir.CardType, rows: list[tuple[ir.Card, int]]) -> Para | None:
    """A deck of one field and as many copies of each value, said as a rulebook says it: "One card of
    each number, from 3 to 35.", "Two cards of each picture: sun, moon, …" (not a table a row a value)."""
    counts = {n for _, n in rows}
    if len(ct.fields) != 1 or len(rows) < 4 or len(counts) != 1 or any(card.text for card, _ in rows):
        return None
    f, n = ct.fields[0], counts.pop()
    kind = noun_of(ct.component or "card")
    lead = f"{capital(number_word(n))} {kind.one if n == 1 else kind.many} of each {printed_field(rs, f.name)}"
    numbers = [v for card, _ in rows if type(v := card.values[f.name]) is int]
    if len(numbers) == len(rows) and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return Para(f"{lead}, from {numbers[0]} to {numbers[-1]}.")
    shown = [{name: icon(i) + " " for name, _, i in card_icons(rs, card)}.get(f.name, "")
             + printed_value(rs, f.type, card.values[f.name]) for card, _ in rows]
    return Para(f"{lead}: {join(shown)}.")


def card_table(rs: ir.Ruleset, ct: ir.CardType, fields=None, only=None) -> Table:
    """One row per distinct card; a long table is folded like a rulebook's:
    the field with the most values is listed per combination of the others
    (`strength | 9, 10, 11, 12, 13`)."""
    rows = [(c, n) for c, n in card_rows(rs, ct.name) if only is None or c in only]

    def cell(card, f):
        shown = {name: icon(i) + " " for name, _, i in card_icons(rs, card)}
        return shown.get(f.name, "") + printed_value(rs, f.type, card.values[f.name])

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
                values = [printed_value(rs, listed.type, c.values[listed.name]) + (f" (×{n})" if n > 1 else "")
                          for c, n in members]
                table.append([cell(members[0][0], f) for f in others]
                             + [", ".join(values), str(sum(n for _, n in members))])
            # the last column counts a row's cards, which differ in the listed field: not copies of one card
            return Table([printed_field(rs, f.name) for f in others] + [plural(printed_field(rs, listed.name)),
                                                                        "cards"], table)
    said = any(card.text for card, _ in rows)  # the cards' own words (a `text` column): what each does
    return Table([printed_field(rs, f.name) for f in fields] + ["copies"] + ["what it does"] * said,
                 [[cell(card, f) for f in fields] + [str(count)]
                  + [fill_format(card.text, card) if card.text else ""] * said for card, count in rows])
