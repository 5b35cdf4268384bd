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
`count:` for a card type without fields, gives copies.

`state:` gives each card of the type values the rules change in play (damage
tokens, a marker), with their initial values: `state: {damage: 0, guarded: false}`.
"""
from __future__ import annotations

import re
import shlex

from . import ir
from .errors import Span, did_you_mean
from .limits import over
from .types import BOOL, INT, TEXT, EnumT, Type
from .yamltree import YList, YMap, YScalar

CARD_KEYS = ("fields", "state", "table", "count", "label", "text", "assumed", "back", "template", "component",
             "plural", "article")


def read_card_types(reader, node, enums: dict) -> tuple[dict, list]:
    """Returns (card types by name, every card in table order)."""
    card_types: dict[str, ir.CardType] = {}
    cards: list[ir.Card] = []
    for name, (span, spec) in (reader.expect_map(node, "cards") or YMap(span=None)).entries.items():
        if not isinstance(spec, YMap):
            reader.diag.error(span, f"card type '{name}' must be a mapping (fields:, table: or count:)")
            continue
        reader.keys(spec, CARD_KEYS, f"card type '{name}'")
        if not reader.declare(name, "card type", span):
            continue
        fields, bounds = _fields(reader, spec.get("fields"), enums)
        state = _state(reader, spec.get("state"), enums, fields)
        label, back = _format(reader, spec, "label", fields), _format(reader, spec, "back", fields)
        card_types[name] = ir.CardType(
            name, tuple(ir.FieldDef(f, t) for f, t in fields.items()), label,
            reader.text(spec.get("text"), "text"), reader.text(spec.get("assumed"), "assumed"),
            state=state, back=back, template=_template(reader, spec.get("template")),
            component=_component(reader, spec.get("component")), plural=reader.text(spec.get("plural"), "plural"),
            article=reader.article(spec, ("a", "an")), span=span)
        table = spec.get("table")
        if table is not None:
            rows = _table(reader, table, name, fields, bounds, enums, len(cards))
        else:
            if fields:
                reader.diag.error(span, f"card type '{name}' has fields but no 'table:' of cards")
            count_node = spec.get("count")
            count = count_node.value if isinstance(count_node, YScalar) else None
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                reader.diag.error((count_node or spec).span, f"card type '{name}' needs `count: N` or a `table:`")
                count = 0
            rows = [({}, span)] * _within(reader, len(cards), count, (count_node or spec).span)
        for values, row_span in rows:
            cards.append(ir.Card(len(cards), name, ir.frozen_map(values), span=row_span))
    _check_state_names(reader, card_types)
    return card_types, cards


def _component(reader, node) -> str:
    """`component:` the physical kind, a noun: card (the default), token, tile, miniature, space, ..."""
    if node is None:
        return "card"
    name = reader.text(node, "component")
    if name is None or not re.fullmatch(r"[a-z]+( [a-z]+)?", name):
        reader.diag.error(node.span, "component is a noun for what the piece is: card, token, tile, miniature, ...")
        return "card"
    return name


def _within(reader, before: int, count: int, span: Span) -> int:
    """`count` if that many more components stay within the limit (else an error
    and 0): a million copies are refused before they are made."""
    limit = reader.limits.components
    if before + count <= limit:
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
            reader.diag.error(spec.get(key).span, f"{key} names unknown field '{ref}'", did_you_mean(ref, fields))
    return text


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
    for fname, (span, tnode) in (reader.expect_map(node, "fields") or YMap(span=None)).entries.items():
        if fname == "count":
            reader.diag.error(span, "'count' is the number of copies, not a field")
            continue
        if isinstance(tnode, YList):  # inline type: its values listed here
            values = reader.enum_values(tnode)
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
        elif tname in enums:
            fields[fname] = EnumT(tname)
        else:
            reader.diag.error((tnode or node).span, f"unknown field type '{tname}'",
                              did_you_mean(tname, ["number", "text", "bool", *enums])
                              or "use number, text, bool, a range like 1..8, a type from `types:` or a list of values")
    return fields, bounds


def _state(reader, node, enums, fields) -> tuple[ir.StateField, ...]:
    """`state: {name: initial}`: the type follows from the initial value."""
    enum_of = {v: e.name for e in enums.values() for v in e.values}
    state = []
    for name, (span, value) in (reader.expect_map(node, "state") or YMap(span=None)).entries.items():
        initial = value.value if isinstance(value, YScalar) else None
        if name in fields or name == "count":
            reader.diag.error(span, f"'{name}' is already a printed field of this card type",
                              "a state value needs its own name")
        elif isinstance(initial, bool):
            state.append(ir.StateField(name, BOOL, initial, span=span))
        elif isinstance(initial, int):
            state.append(ir.StateField(name, INT, initial, span=span))
        elif isinstance(initial, str) and initial in enum_of:
            state.append(ir.StateField(name, EnumT(enum_of[initial]), initial, span=span))
        else:
            reader.diag.error(span, f"state '{name}' needs an initial value: a number, true/false or a value of a type",
                              f"e.g. `state: {{{name}: 0}}`")
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


def _table(reader, node, card_type: str, fields, bounds, enums, before: int) -> list[tuple[dict, Span]]:
    """The cards of a table; `before` components were read already."""
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        reader.diag.error(node.span, "a card table is text: a header line of field names, then one card a row",
                          "write it as a block after `table: |`")
        return []
    header, span, lines = split_table(node, reader.diag)
    if header is None:
        reader.diag.error(node.span, f"the table of '{card_type}' is empty")
        return []
    for col in header:
        if col != "count" and col not in fields:
            reader.diag.error(span, f"unknown column '{col}' in the table of '{card_type}'",
                              did_you_mean(col, [*fields, "count"]) or
                              f"declare it under `fields:` of '{card_type}'")
    for f in fields:
        if f not in header:
            reader.diag.error(span, f"the table of '{card_type}' has no column for field '{f}'")
    rows: list[tuple[dict, Span]] = []
    for cells, span in lines:
        if len(rows) + before > reader.limits.components:
            break  # reported already
        if len(cells) != len(header):
            reader.diag.error(span, f"this row has {len(cells)} values but the header names {len(header)} columns")
            continue
        values, count, ok = {}, 1, True
        for col, cell in zip(header, cells):
            if col == "count":
                if not re.fullmatch(r"[0-9]{1,9}", cell) or int(cell) < 1:
                    reader.diag.error(span, f"count must be a whole number of at least 1, not '{cell}'")
                    ok = False
                else:
                    count = int(cell)
            elif col in fields:
                value = _cell(reader, cell, fields[col], bounds.get(col), enums, span, col)
                ok = ok and value is not _BAD
                values[col] = value
        if ok:
            rows.extend([(values, span)] * _within(reader, before + len(rows), count, span))
    return rows


_BAD = object()


def _cell(reader, cell: str, ty: Type, bound, enums, span: Span, col: str):
    if ty == INT:
        if not re.fullmatch(r"-?[0-9]{1,18}", cell):
            reader.diag.error(span, f"'{cell}' in column '{col}' is not a number")
            return _BAD
        value = int(cell)
        if bound and not bound[0] <= value <= bound[1]:
            reader.diag.error(span, f"{value} in column '{col}' is outside {bound[0]}..{bound[1]}")
            return _BAD
        return value
    if ty == BOOL:
        if cell not in ("true", "false", "yes", "no"):
            reader.diag.error(span, f"'{cell}' in column '{col}' must be true or false")
            return _BAD
        return cell in ("true", "yes")
    if isinstance(ty, EnumT):
        values = enums[ty.name].values
        if cell not in values:
            reader.diag.error(span, f"'{cell}' is not a {ty.name}", did_you_mean(cell, values)
                              or f"one of: {', '.join(values)}")
            return _BAD
        return cell
    return cell
