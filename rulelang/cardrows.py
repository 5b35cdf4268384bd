"""A card type's cards: its `table:`, one card a row of typed cells (a
`count` column for copies, a `text` column for the card's own words, an
ability written in its cell), and `each:`, a deck as a product of fields'
values. `cardtable` reads the rest of a card type."""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from .abilities import ABILITY_TYPE
from .errors import Span, did_you_mean
from .limits import over
from .sections.abilities import INLINE_START, InlineAbility, cell_span
from .types import BOOL, INT, ROLE, TEXT, EnumT, Type
from .yamltree import YList, YMap, YNode, YScalar


def within_limit(reader, before: int, count: int, span: Span, copies: int = 1) -> int:
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


def read_table(reader, node, card_type: str, fields, bounds, enums, before: int, each=(),
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
            within = within_limit(reader, before + len(rows) * copies, count, span, copies)
            if not within:
                break  # past the limit: reported once
            rows.extend([(values, span, text)] * within)
    return rows


def read_each(reader, spec: YMap, card_type: str, fields, bounds, enums) -> list[tuple[str, list]]:
    """`each:` as (field, its values) in order: `[suit, rank]` takes every value
    of each field's type (a type's, a range's, or false and true), `suit` alone too;
    `{suit: [spades, hearts], rank: 2..10}` lists them. [] without `each:`."""
    node = spec.get("each")
    if node is None:
        return []
    if isinstance(node, YList):
        entries: list[tuple[str | None, Span, YNode | None]] = [(reader.text(item, "a field name"), item.span, None)
                                                                for item in node.items]
    elif isinstance(node, YMap):
        entries = [(f, fspan, values) for f, (fspan, values) in node.entries.items()]
    elif isinstance(node, YScalar) and isinstance(node.value, str) and node.value:  # `each: number`: one field
        entries = [(node.value, node.span, None)]
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
    once the events are known (sections/abilities.py: read_inline)."""
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
