"""Card types and their tables: one card a row, typed columns.

    cards:
      action:
        fields: {value: 1..8, icon: [light_sun, dark_sun, light_moon, dark_moon]}
        label: "{value} {icon}"
        table: |
          value icon        count
          1     light_sun   1

A field type is `number` (or a range like `1..8`, which also checks the
table), `text`, `bool`, a type from `types:`, or an inline list of values
(which declares a type named after the field). A `count` column, or a
`count:` for a card type without fields, gives copies; a `text` column (in
quotes) the card's own words for its front, which the rules never read.

`each:` builds a deck as a product of columns: every row of the table is
repeated once per combination of the values of the fields it names, and the
table leaves those columns out (no table: the cards are the combinations).

    cards:
      playing:
        fields: {suit: suit, rank: rank, points: 1..11}
        each: [suit]                  # or {suit: [spades, hearts], rank: 2..10}
        table: |
          rank points
          two  2

The cards come combination by combination, the first field of `each:`
slowest, and within one combination in the table's order.

`state:` gives each card of the type values the rules change in play (damage
tokens, a marker), with their initial values: `state: {damage: 0, guarded: false}`.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from itertools import product
from math import prod

from . import ir
from .abilities import ABILITY_TYPE, INLINE_START, InlineAbility, cell_span
from .errors import Span, did_you_mean
from .limits import over
from .sections.shapes import ASSUMED, NAME, AnyOf, Choice, Key, Keys, ListOf, Named, Scalar, string
from .sections.values import INITIAL, enum_values, typed_value
from .types import BOOL, INT, ROLE, TEXT, EnumT, Type
from .yamltree import YList, YMap, YNode, YScalar

STATE = Keys("a state value", (Key("type", string("its type, where the initial value does not say it")),
                              Key("initial", INITIAL, required=True)))
CARD = Keys("a type of component (cards by default; `component:` says what else)", (
    Key("fields", Named(AnyOf((Scalar(("string",)), ListOf(NAME))),
                        "each card's fields: number, text, bool, a range like 1..8, a type, or a list of values")),
    Key("each", AnyOf((ListOf(NAME, "fields whose every value (their type's, in order) makes a card with each row "
                                    "of the table"),
                       Named(AnyOf((ListOf(Scalar(("string", "integer", "boolean"))), Scalar(("string",)))),
                             "fields and the values to go through: a list, or a range like 2..10")),
                      "a deck as a product: each row of `table` is repeated once per combination of these fields' "
                      "values (first field slowest), and the table leaves their columns out; without `table`, the "
                      "cards are the combinations")),
    Key("state", Named(AnyOf((Scalar(("integer", "boolean", "string")), STATE)),
                       "values each card carries and the rules change, with their initial value (`damage: 0`)")),
    Key("table", string("one card a row under a header of field names; an optional `count` column gives copies")),
    Key("count", Scalar(("integer",), "copies of a card type without fields (with `each` and no table: of each "
                                      "combination)", minimum=1)),
    Key("label", string('how a card is shown, e.g. "{value} {icon}"')),
    Key("text", string("what the cards are for")), Key("assumed", ASSUMED),
    Key("back", string('what the back shows, e.g. "Trial" (cards with the same back look alike face down)')),
    Key("template", string("the card's own printing template (Jinja2, `{% extends \"card.svg.j2\" %}`)")),
    Key("print", AnyOf((Scalar(("boolean",), "false: left out of card sheets (pawns, dice, a board)"),
                        Named(AnyOf((Scalar(("string", "boolean")), Named(Scalar(("string", "boolean"))))),
                              "how each field reads on the card: a format, false, or a format for each value")))),
    Key("component", string("what one is on the table: card (the default), token, tile, miniature, space, pawn, "
                            "die, ...")),
    Key("plural", string("the plural of its printed noun, where English has no rule for it")),
    Key("article", Choice(("a", "an"), "the article of its printed noun, where its sound is irregular")),
    Key("abilities", ListOf(NAME, "abilities every card of the type carries")),
    Key("facing", Choice(("up", "down"), "how these cards lie in any zone, whatever its facing")),
    Key("add", string("in a variant: cards to add, as a table with the same columns"), variant=True),
    Key("remove", string("in a variant: cards to remove, as a table of some of the columns (and `count`)"),
        variant=True),
))
CARD_KEYS = CARD.names


def read_card_types(reader, node, enums: dict) -> tuple[dict, list]:
    """Returns (card types by name, every card in table order)."""
    card_types: dict[str, ir.CardType] = {}
    cards: list[ir.Card] = []
    for name, (span, spec) in reader.entries(node, "cards"):
        if not isinstance(spec, YMap):
            reader.diag.error(span, f"card type '{name}' must be a mapping (fields:, table: or count:)")
            continue
        reader.keys(spec, CARD, f"card type '{name}'")
        if not reader.declare(name, "card type", span):
            continue
        fields, bounds = _fields(reader, spec.get("fields"), enums)
        state = _state(reader, spec.get("state"), enums, fields)
        label, back = _format(reader, spec, "label", fields), _format(reader, spec, "back", fields)
        card_types[name] = ir.CardType(
            name, tuple(ir.FieldDef(f, t) for f, t in fields.items()), label,
            reader.text(spec.get("text"), "text"), reader.text(spec.get("assumed"), "assumed"),
            state=state, back=back, template=_template(reader, spec.get("template")),
            printed=_printed(reader, spec.get("print")), lines=_lines(reader, spec.get("print"), fields, enums),
            **_noun(reader, spec),
            article=reader.article(spec, ("a", "an")),
            abilities=_abilities(reader, spec.get("abilities"), enums, name),
            facing=reader.choice(spec, "facing", CARD.choices("facing"), None), span=span)
        each = _each(reader, spec, name, fields, bounds, enums)
        copies = prod(len(values) for _, values in each)
        table = spec.get("table")
        if table is not None:
            rows = _table(reader, table, name, fields, bounds, enums, len(cards), each, copies, label)
        else:
            missing = [f for f in fields if f not in dict(each)]
            if missing and "each" in spec:
                reader.diag.error(spec.key_span("each"), f"the fields of '{name}' not in `each:` need a `table:`: "
                                  + ", ".join(missing), "add a table with their columns, or add them to `each:`")
            elif missing:
                reader.diag.error(span, f"card type '{name}' has fields but no 'table:' of cards")
            count_node = spec.get("count")
            count = count_node.value if isinstance(count_node, YScalar) else 1 if "each" in spec else None
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                reader.diag.error((count_node or spec).span, f"card type '{name}' needs `count: N` or a `table:`")
                count = 0
            where = count_node or spec.get("each") or spec
            rows = [({}, span, None)] * _within(reader, len(cards), count, where.span, copies)
        for combination in product(*(values for _, values in each)) if rows else ():
            chosen = {f: v for (f, _), v in zip(each, combination)}
            for values, row_span, text in rows:
                merged = {**chosen, **values}
                cards.append(ir.Card(len(cards), name, ir.frozen_map({f: merged[f] for f in fields if f in merged}),
                                     text, span=row_span))
    _check_state_names(reader, card_types)
    return card_types, cards


def _abilities(reader, node, enums, name: str) -> tuple[str, ...]:
    """`abilities: [steady_shield]`: what every card of the type carries (declared under `abilities:`)."""
    if node is None:
        return ()
    known = enums[ABILITY_TYPE].values if ABILITY_TYPE in enums else ()
    items = node.items if isinstance(node, YList) else [node]
    names = []
    for item in items:
        a = reader.text(item, "an ability")
        if a not in known:
            reader.diag.error(item.span, f"card type '{name}': unknown ability '{a}'",
                              did_you_mean(str(a), known) or "declare it under `abilities:`")
        else:
            names.append(a)
    return tuple(names)


def _within(reader, before: int, count: int, span: Span, copies: int = 1) -> int:
    """`count` if that many more components (each repeated `copies` times) stay
    within the limit (else an error and 0): a million copies are refused before
    they are made."""
    limit = reader.limits.components
    if before + count * copies <= limit:
        return count
    if before <= limit:  # report the first row past the limit only
        reader.diag.error(span, f"the ruleset has more than {limit:,} components",
                          over("a real game has a few hundred at most", limit, "components"))
    return 0


def _check_state_names(reader, card_types) -> None:
    """A name is printed on cards or changed in play, never both, so `c.damage`
    means the same kind of thing on every card type; one state name has one type."""
    printed = {f.name for ct in card_types.values() for f in ct.fields}
    seen: dict = {}
    for ct in card_types.values():
        for sf in ct.state:
            if sf.name in printed:
                reader.diag.error(sf.span, f"'{sf.name}' is a printed field of another card type",
                                  "give the state value its own name")
            elif sf.name in seen and seen[sf.name] != sf.type:
                reader.diag.error(sf.span, f"state '{sf.name}' is {seen[sf.name]} on another card type")
            seen.setdefault(sf.name, sf.type)


def _format(reader, spec, key: str, fields) -> str | None:
    """A text such as `label: "{value} {icon}"` whose braces name fields."""
    text = reader.text(spec.get(key), key)
    for ref in re.findall(r"{(\w+)}", text or ""):
        if ref not in fields:
            reader.diag.error(spec.value_span(key), f"{key} names unknown field '{ref}'", did_you_mean(ref, fields))
    return text


def _printed(reader, node) -> bool:
    """`print: false` leaves the type out of card sheets (a mapping of lines prints it)."""
    if node is None or isinstance(node, YMap):
        return True
    if not isinstance(node, YScalar) or not isinstance(node.value, bool):
        reader.diag.error(node.span, "print is true, false or a mapping of fields to how they read on the card",
                          "`print: false` leaves these components out of card sheets; "
                          "`print: {cost: \"Cost {cost}\", basic: false}` says how fields read")
        return True
    return node.value


def _lines(reader, node, fields: dict, enums: dict) -> tuple:
    """`print: {field: line}`: how each named field reads on the front (docs/printing.md, *Cards*).
    A line is `false` (not printed), a format whose braces name fields, or for a field of a
    type from `types:` a mapping from each value to its format (or `false`)."""
    if not isinstance(node, YMap):
        return ()
    lines: list[tuple[str, object]] = []
    for name, (span, spec) in node.entries.items():
        if name not in fields:
            reader.diag.error(span, f"print names unknown field '{name}'", did_you_mean(name, fields))
            continue
        if isinstance(spec, YMap):
            enum = enums.get(fields[name].name) if isinstance(fields[name], EnumT) else None
            if enum is None:
                reader.diag.error(span, f"a line for each value needs a field whose type is from `types:`; "
                                        f"'{name}' is not", f'give one line, such as {name}: "Power {{{name}}}"')
                continue
            by_value = []
            for value, (vspan, vspec) in spec.entries.items():
                if value not in enum.values:
                    reader.diag.error(vspan, f"'{value}' is not a value of '{name}'", did_you_mean(value, enum.values))
                    continue
                by_value.append((value, _line(reader, vspec, fields)))
            lines.append((name, tuple(by_value)))
        else:
            lines.append((name, _line(reader, spec, fields)))
    return tuple(lines)


def _line(reader, node, fields: dict) -> str | None:
    """One line of a card's front: `false`, or a format whose braces name fields."""
    if isinstance(node, YScalar) and node.value is False:
        return None
    text = reader.text(node, "a printed line")
    for ref in re.findall(r"{(\w+)}", text or ""):
        if ref not in fields:
            reader.diag.error(node.span, f"the line names unknown field '{ref}'", did_you_mean(ref, fields))
    return text


def _noun(reader, spec: YMap) -> dict:
    """`component: pawn` (what one of the type is) and `plural:` (its printed noun's
    plural, where English has no rule for it): nouns for print, checked here; the
    printed rules make the rest (`generators/nouns.py`)."""
    nouns = {}
    for key in ("component", "plural"):
        node = spec.get(key)
        text = reader.text(node, key) if node is not None else None
        if node is not None and text is not None and not re.fullmatch(r"[^\W\d_]+(?:[ -][^\W\d_]+)*", text):
            reader.diag.error(node.span, f"{key} is a noun, not '{text}'",
                              "e.g. `component: pawn` (card, tile, token, die, miniature, space ...)")
        elif text is not None:
            nouns[key] = text
    return nouns


def _template(reader, node) -> ir.TemplateText | None:
    """A card type's own printing template, kept with where its text starts."""
    if node is None:
        return None
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        reader.diag.error(node.span, "a card template is text", "write it as a block after `template: |`")
        return None
    return ir.TemplateText(node.value, span=node.span_at(1, 1))


def _fields(reader, node, enums) -> tuple[dict[str, Type], dict[str, tuple[int, int]]]:
    fields: dict[str, Type] = {}
    bounds: dict[str, tuple[int, int]] = {}
    for fname, (span, tnode) in reader.entries(node, "fields"):
        if fname == "count":
            reader.diag.error(span, "'count' is the number of copies, not a field")
            continue
        if isinstance(tnode, YList):  # inline type: its values listed here
            values = enum_values(reader, tnode)
            existing = enums.get(fname)
            if existing is not None and existing.values != values:
                reader.diag.error(tnode.span, f"type '{fname}' is already declared with other values")
                continue
            enums.setdefault(fname, ir.EnumDef(fname, values, span=tnode.span))
            fields[fname] = EnumT(fname)
            continue
        tname = str(tnode.value).strip() if isinstance(tnode, YScalar) else ""
        m = re.fullmatch(r"(-?[0-9]{1,18})\s*\.\.\s*(-?[0-9]{1,18})", tname)
        if m:
            fields[fname], bounds[fname] = INT, (int(m.group(1)), int(m.group(2)))
        elif tname in ("number", "int"):
            fields[fname] = INT
        elif tname == "text":
            fields[fname] = TEXT
        elif tname == "bool":
            fields[fname] = BOOL
        elif tname == "role":  # a card that belongs to a player: its seat's name, or none
            fields[fname] = ROLE
        elif tname in enums:
            fields[fname] = EnumT(tname)
        else:
            reader.diag.error((tnode or node).span, f"unknown field type '{tname}'",
                              did_you_mean(tname, ["number", "text", "bool", "role", *enums])
                              or "use number, text, bool, role, a range like 1..8, a type from `types:` or a list "
                                 "of values")
    return fields, bounds


def _state(reader, node, enums, fields) -> tuple[ir.StateField, ...]:
    """`state: {name: initial}` (the type follows from the initial value) or
    `{name: {type: T, initial: V}}` — as a variable's (`none` needs a type)."""
    state = []
    for name, (span, value) in reader.entries(node, "state"):
        if name in fields or name == "count":
            reader.diag.error(span, f"'{name}' is already a printed field of this card type",
                              "a state value needs its own name")
            continue
        spec = value if isinstance(value, YMap) else YMap(span=span, entries={"initial": (span, value)})
        reader.keys(spec, STATE, f"state '{name}'")
        ty, initial = typed_value(reader, spec, f"state '{name}'", span, enums, reader.card_type_names, reader.roles)
        if ty is not None:
            state.append(ir.StateField(name, ty, initial, span=span))
    return tuple(state)


def split_table(node: YScalar, diag) -> tuple[list[str] | None, Span, list[tuple[list[str], Span]]]:
    """A table's header cells and its rows' cells, each row with its span.

    Lines assembled from several files (`line_spans`) keep their own spans."""
    header: list[str] | None = None
    header_span = node.span
    rows: list[tuple[list[str], Span]] = []
    for number, line in enumerate(node.rows, 1):
        span = node.span_at(number, 1, number, len(line) + 1)
        try:
            cells = shlex.split(line, comments=True)
        except ValueError:
            diag.error(span, "unclosed quote in this row")
            continue
        if not cells:
            continue
        if header is None:
            header, header_span = cells, span
        else:
            rows.append((cells, span))
    return header, header_span, rows


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """Rows as aligned text under their header (cells quoted where needed)."""
    lines = [header] + [[shlex.quote(c) for c in row] for row in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "".join("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() + "\n" for line in lines)


def _table(reader, node, card_type: str, fields, bounds, enums, before: int, each=(),
           copies: int = 1, label: str | None = None) -> list[tuple[dict, Span, str | None]]:
    """The cards of a table, each with its own text (a `text` column, where the type has
    no field of that name); `before` components were read already, and each row stands
    for `copies` cards (one per combination of `each`)."""
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        reader.diag.error(node.span, "a card table is text: a header line of field names, then one card a row",
                          "write it as a block after `table: |`")
        return []
    header, span, lines = split_table(node, reader.diag)
    if header is None:
        reader.diag.error(node.span, f"the table of '{card_type}' is empty")
        return []
    each = dict(each)
    for col in header:
        if col in each:
            reader.diag.error(span, f"column '{col}' comes from `each:`: every row is repeated for each {col}",
                              f"leave the column out of the table, or '{col}' out of `each:`")
            return []
        if col not in ("count", "text") and col not in fields:
            reader.diag.error(span, f"unknown column '{col}' in the table of '{card_type}'",
                              did_you_mean(col, [*fields, "count", "text"]) or
                              f"declare it under `fields:` of '{card_type}'")
    for f in fields:
        if f not in header and f not in each:
            reader.diag.error(span, f"the table of '{card_type}' has no column for field '{f}'")
    rows: list[tuple[dict, Span, str | None]] = []
    for cells, span in lines:
        if before + len(rows) * copies > reader.limits.components:
            break  # reported already
        if len(cells) != len(header):
            reader.diag.error(span, f"this row has {len(cells)} values but the header names {len(header)} columns")
            continue
        values, count, ok, text = {}, 1, True, None
        for col, cell in zip(header, cells):
            if col == "count":
                if not re.fullmatch(r"[0-9]{1,9}", cell) or int(cell) < 1:
                    reader.diag.error(span, f"count must be a whole number of at least 1, not '{cell}'")
                    ok = False
                else:
                    count = int(cell)
            elif col == "text" and col not in fields:  # the card's own words, for its front
                text = cell
                for ref in re.findall(r"{(\w+)}", cell):
                    if ref not in fields:
                        reader.diag.error(span, f"the card's text names unknown field '{ref}'",
                                          did_you_mean(ref, fields) or "name a field in braces: {" + next(
                                              iter(fields), "field") + "}")
                        ok = False
            elif col in fields:
                value = _cell(reader, cell, fields[col], bounds.get(col), enums, span, f"column '{col}'")
                ok = ok and value is not _BAD
                values[col] = value
        for col, value in values.items():
            if isinstance(value, _Written):  # the row's own ability: named after the card
                named = label or next(("{%s}" % f for f, t in fields.items() if t == TEXT), None)
                values[col] = _inline(reader, value, card_type, named, values, enums)
        if ok:
            within = _within(reader, before + len(rows) * copies, count, span, copies)
            if not within:
                break  # past the limit: reported once
            rows.extend([(values, span, text)] * within)
    return rows


def _each(reader, spec: YMap, card_type: str, fields, bounds, enums) -> list[tuple[str, list]]:
    """`each:` as (field, its values) in order: `[suit, rank]` takes every value
    of each field's type (a type's, a range's, or false and true);
    `{suit: [spades, hearts], rank: 2..10}` lists them. [] without `each:`."""
    node = spec.get("each")
    if node is None:
        return []
    if isinstance(node, YList):
        entries: list[tuple[str | None, Span, YNode | None]] = [(reader.text(item, "a field name"), item.span, None)
                                                                for item in node.items]
    elif isinstance(node, YMap):
        entries = [(f, fspan, values) for f, (fspan, values) in node.entries.items()]
    else:
        entries = []
    if not entries:
        reader.diag.error(node.span, "`each:` names the fields whose every combination makes a card",
                          "a list of fields, e.g. `each: [suit]`, or fields and their values: "
                          "`each: {suit: [spades, hearts]}`")
        return []
    each: list[tuple[str, list]] = []
    for fname, fspan, values_node in entries:
        if fname is None:
            continue  # reported
        if fname not in fields:
            reader.diag.error(fspan, f"'{fname}' in `each:` is not a field of '{card_type}'",
                              did_you_mean(str(fname), fields) or f"declare it under `fields:` of '{card_type}'")
            continue
        if fname in dict(each):
            reader.diag.error(fspan, f"field '{fname}' is in `each:` twice")
            continue
        values = _each_values(reader, fname, fspan, values_node, fields[fname], bounds.get(fname), enums)
        each.append((fname, values or []))  # no values (reported): no cards, and no more errors about it
    return each


def _each_values(reader, fname: str, span: Span, node, ty: Type, bound, enums) -> list | None:
    """The values one field of `each:` takes, or None (reported)."""
    if node is None:  # the type's own values
        if isinstance(ty, EnumT):
            return list(enums[ty.name].values)
        if ty == BOOL:
            return [False, True]
        if bound is None:
            reader.diag.error(span, f"field '{fname}' has no list of values to go through",
                              f"give them: `each: {{{fname}: [...]}}`, or declare it as a range like 1..8")
            return None
        low, high = bound
    else:
        m = re.fullmatch(r"\s*(-?[0-9]{1,18})\s*\.\.\s*(-?[0-9]{1,18})\s*",
                         str(node.value)) if isinstance(node, YScalar) else None
        if m and ty == INT:
            low, high = int(m.group(1)), int(m.group(2))
            if bound and not (bound[0] <= low and high <= bound[1]):
                reader.diag.error(node.span, f"{low}..{high} in `each:` is outside {bound[0]}..{bound[1]}, "
                                  f"the values of field '{fname}'")
                return None
        elif isinstance(node, YList) and node.items:
            values = [_cell(reader, _cell_text(item), ty, bound, enums, item.span, f"`each:` of '{fname}'")
                      for item in node.items]
            return None if _BAD in values else values
        else:
            reader.diag.error(node.span, f"`each:` gives '{fname}' a list of values"
                              + (" or a range like 1..8" if ty == INT else ""),
                              f"e.g. `each: {{{fname}: [...]}}`, or `each: [{fname}]` for every value of its type")
            return None
    where = span if node is None else node.span
    if high - low + 1 > reader.limits.components:
        reader.diag.error(where, f"{low}..{high} makes more than {reader.limits.components:,} components",
                          over("a real game has a few hundred at most", reader.limits.components, "components"))
        return None
    if high < low:
        reader.diag.error(where, f"{low}..{high} has no values", "write the smaller number first")
        return None
    return list(range(low, high + 1))


def _cell_text(node) -> str:
    """A YAML value as a table would write it (`true`, not `True`)."""
    value = node.value if isinstance(node, YScalar) else None
    return str(value).lower() if isinstance(value, bool) else "" if value is None else str(value)


_BAD = object()


@dataclass(frozen=True)
class _Written:
    """A cell that writes its row's ability (`on EVENT ...: EFFECT`), until the row is read."""
    text: str
    span: Span


def _inline(reader, cell: _Written, card_type: str, label: str | None, values: dict, enums) -> str:
    """The name of an ability written in a row: the card's label (or first text
    field) as a name (`"Keen Eye"` -> keen_eye), made unique among the abilities; read later,
    once the events are known (abilities.read_inline)."""
    shown = re.sub(r"{(\w+)}", lambda m: str(values.get(m.group(1), "")), label) if label else ""
    base = re.sub(r"\W+", "_", shown.lower()).strip("_") or f"{card_type}_card"
    if base[0].isdigit():
        base = f"{card_type}_{base}"
    taken = {*enums[ABILITY_TYPE].values, *(a.name for a in reader.inline_abilities)}
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    reader.inline_abilities.append(InlineAbility(name, cell.text, cell.span))
    return name


def _cell(reader, cell: str, ty: Type, bound, enums, span: Span, where: str):
    """A value written in a table or in `each:` (`where`: "column 'value'")."""
    if ty == INT:
        if not re.fullmatch(r"-?[0-9]{1,18}", cell):
            reader.diag.error(span, f"'{cell}' in {where} is not a number")
            return _BAD
        value = int(cell)
        if bound and not bound[0] <= value <= bound[1]:
            reader.diag.error(span, f"{value} in {where} is outside {bound[0]}..{bound[1]}")
            return _BAD
        return value
    if ty == BOOL:
        if cell not in ("true", "false", "yes", "no"):
            reader.diag.error(span, f"'{cell}' in {where} must be true or false")
            return _BAD
        return cell in ("true", "yes")
    if ty == ROLE:
        roles = [r.name for r in reader.roles]
        if cell != "none" and cell not in roles:
            reader.diag.error(span, f"'{cell}' in {where} is not a player", did_you_mean(cell, roles)
                              or f"one of: {', '.join(roles)}, or none")
            return _BAD
        return None if cell == "none" else cell
    if ty == EnumT(ABILITY_TYPE) and cell == "none":  # a row without an ability
        return None
    if ty == EnumT(ABILITY_TYPE) and INLINE_START.match(cell) and cell not in enums[ty.name].values:
        if where.startswith("`each:`"):
            reader.diag.error(span, "an ability is written in a row of the table, not in `each:`")
            return _BAD
        return _Written(cell, cell_span(span, cell))
    if isinstance(ty, EnumT):
        values = enums[ty.name].values
        if cell not in values:
            reader.diag.error(span, f"'{cell}' is not a {ty.name}", did_you_mean(cell, values)
                              or f"one of: {', '.join(values)}")
            return _BAD
        return cell
    return cell
