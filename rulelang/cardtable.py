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
from itertools import product
from math import prod

from . import ir
from .abilities import ABILITY_TYPE
from .cardlayout import LAYOUT, read_layout
from .errors import Diagnostic, did_you_mean
from .sections.shapes import ASSUMED, NAME, NAMES, AnyOf, Choice, Key, Keys, ListOf, Named, Scalar, string
from .cardrows import read_each, read_table, within_limit
from .sections.values import INITIAL, enum_values, printed_names, typed_value
from .types import BOOL, INT, ROLE, TEXT, EnumT, Type
from .yamltree import YList, YMap, YScalar

STATE = Keys("a state value", (Key("type", string("its type, where the initial value does not say it")),
                              Key("initial", INITIAL, required=True)))
CARD = Keys("a type of component (cards by default; `component:` says what else)", (
    Key("fields", Named(AnyOf((Scalar(("string",)), ListOf(NAME))),
                        "each card's fields: number, text, bool, a range like 1..8, a type, or a list of values")),
    Key("each", AnyOf((ListOf(NAME, "fields whose every value (their type's, in order) makes a card with each row "
                                    "of the table"), NAME,
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
    Key("print", AnyOf((Scalar(("boolean",), "false: left out of card sheets; true: on them (a miniature, a "
                                              "board's space: only when asked)"),
                        Named(AnyOf((Scalar(("string", "boolean")), Named(Scalar(("string", "boolean"))))),
                              "how each field reads on the card: a format, false, or a format for each value")))),
    Key("component", string("what one is on the table: card (the default), token, tile, miniature, space, pawn, "
                            "die, ...")),
    Key("plural", string("the plural of its printed noun, where English has no rule for it")),
    Key("article", Choice(("a", "an"), "the article of its printed noun, where its sound is irregular")),
    Key("abilities", ListOf(NAME, "abilities every card of the type carries")),
    Key("facing", Choice(("up", "down"), "how these cards lie in any zone, whatever its facing")),
    Key("names", NAMES),
    Key("layout", LAYOUT),
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
        # a label may name state values too (`"{face} showing"`): it reads them as play goes
        label = _format(reader, spec, "label", {**fields, **{f.name: f.type for f in state}})
        back = _format(reader, spec, "back", fields)
        card_types[name] = ir.CardType(
            name, tuple(ir.FieldDef(f, t) for f, t in fields.items()), label,
            reader.text(spec.get("text"), "text"), reader.text(spec.get("assumed"), "assumed"),
            state=state, back=back, template=_template(reader, spec.get("template")),
            printed=_printed(reader, spec.get("print")), lines=_lines(reader, spec.get("print"), fields, enums),
            **_noun(reader, spec),
            article=reader.article(spec, CARD.choices("article")),
            abilities=_abilities(reader, spec.get("abilities"), enums, name),
            facing=reader.choice(spec, "facing", CARD.choices("facing"), None),
            layout=read_layout(reader, spec.get("layout"), fields, name),
            names=printed_names(reader, spec.get("names"), [*fields, *(s.name for s in state)], f"card type '{name}'"),
            span=span)
        each = read_each(reader, spec, name, fields, bounds, enums)
        copies = prod(len(values) for _, values in each)
        table = spec.get("table")
        if table is not None:
            rows = read_table(reader, table, name, fields, bounds, enums, len(cards), each, copies, label)
            if "count" in spec:  # (a warning, not an error: a ruleset that checked with it still checks)
                reader.notes.append(Diagnostic(
                    spec.key_span("count"), f"`count:` makes no copies of card type '{name}': with a `table:`, "
                    "each row is one card", "give each row's copies in a `count` column of the table "
                    "(`rank value count`), or list each card on its own row", severity="warning"))
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
            rows = [({}, span, None)] * within_limit(reader, len(cards), count, where.span, copies)
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


def _printed(reader, node) -> bool | None:
    """`print: false` leaves the type out of card sheets, `print: true` puts it in; None (no
    `print:`, or a mapping of lines): as its component is (generators/components.py)."""
    if node is None or isinstance(node, YMap):
        return None
    if not isinstance(node, YScalar) or not isinstance(node.value, bool):
        reader.diag.error(node.span, "print is true, false or a mapping of fields to how they read on the card",
                          "`print: false` leaves these components out of card sheets, `print: true` puts them in; "
                          "`print: {cost: \"Cost {cost}\", basic: false}` says how fields read")
        return None
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
        elif tname in reader.refused:  # its declaration was refused, and said so: read its cells as text
            fields[fname] = TEXT
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
