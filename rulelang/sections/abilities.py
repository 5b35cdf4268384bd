"""The `events:` and `abilities:` sections, and abilities written in a card row's
cell (what they mean to the IR: ../abilities.py)."""
from __future__ import annotations

import dataclasses
import re

from .. import ir
from ..errors import Span, did_you_mean
from ..parser import Origin, ParseError, parse_block, parse_expression
from ..yamltree import YMap, YNode, YScalar
from .shapes import ASSUMED, CHECKED, EXPRESSION, PROSE, RULES, Key, Keys, Scalar, expression, string
from .values import signature

ABILITY = Keys("an ability", (
    Key("on", string("the event it answers"), required=True), Key("where", EXPRESSION),
    Key("once", string("`per EVENT` or `per game`")),
    Key("optional", expression("the player who may use it or not")),
    Key("text", PROSE), Key("checked", CHECKED), Key("assumed", ASSUMED), Key("do", RULES, required=True)))
EVENT = Scalar(("string", "null"), "what happens, in a phrase")
ABILITY_KEYS = ABILITY.names


def ability_names(node: YNode | None) -> tuple[str, ...]:
    """The abilities a file declares, before they are read (card tables name them)."""
    return tuple(node.entries) if isinstance(node, YMap) else ()


def read_events(reader, node: YNode | None, enums, card_types) -> dict[str, ir.Event]:
    """`events: {name(type param, ...): text}`."""
    events = {}
    for key, (span, value) in reader.entries(node, "events"):
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*", key)
        if not m:
            reader.diag.error(span, f"an event is written `name(type param, ...)`, not '{key}'")
            continue
        name, params = m.group(1), signature(reader, m.group(2) or "", span, enums, card_types)
        text = reader.text(value, "text") if isinstance(value, YScalar) and value.value is not None else None
        if reader.declare(name, "event", span):
            events[name] = ir.Event(name, params, text, span=span)
    return events


def read_abilities(reader, node: YNode | None, events: dict[str, ir.Event]) -> dict[str, ir.Ability]:
    abilities = {}
    for name, (span, value) in reader.entries(node, "abilities"):
        if not isinstance(value, YMap):
            reader.diag.error(span, f"ability '{name}' is a mapping: `on:` an event, `do:` its rules",
                              "e.g. `{on: combat_start, do: ...}`")
            continue
        reader.keys(value, ABILITY, f"ability '{name}'")
        on = reader.text(value.get("on"), "an event")
        if on is None:
            reader.diag.error(span, f"ability '{name}' needs `on:`, the event it answers")
            continue
        if on not in events:
            reader.diag.error(value.value_span("on"), f"ability '{name}' answers an unknown event '{on}'",
                              did_you_mean(on, events) or "declare it under `events:`")
            continue
        once = read_once(reader, name, value.get("once"), events)
        body = reader.snippet(value.get("do"), "block") if value.get("do") is not None else None
        if value.get("do") is None:
            reader.diag.error(span, f"ability '{name}' needs `do:`, what it does")
        where = reader.snippet(value.get("where"), "expression") if value.get("where") is not None else None
        optional = reader.snippet(value.get("optional"), "expression") if value.get("optional") is not None else None
        if body is not None and reader.declare(name, "ability", span):
            abilities[name] = ir.Ability(name, on, body, where, once, optional, reader.text(value.get("text"), "text"),
                                         reader.assumed(value), reader.pin(value), span=span)
    return abilities


def read_once(reader, name: str, node: YNode | None, events) -> str | None:
    """`once: per EVENT` (until that event happens again) or `once: per game`."""
    if node is None:
        return None
    text = reader.text(node, "once") or ""
    m = re.fullmatch(r"\s*per\s+([A-Za-z_]\w*)\s*", text)
    if not m or m.group(1) != "game" and m.group(1) not in events:
        reader.diag.error(node.span, f"ability '{name}': `once:` is `per game` or `per EVENT`, not '{text}'",
                          did_you_mean(m.group(1), [*events, "game"]) if m else "e.g. `once: per combat_start`")
        return None
    return m.group(1)


# ---------------------------------------------------------------- abilities written in a card row
INLINE_START = re.compile(r"\s*on\s")  # a cell of an ability column that writes the ability itself
_HEAD = re.compile(r"\s*on\s+(?P<on>[A-Za-z_]\w*)(?:\s+where\s+(?P<where>.+?))?"
                   r"(?:\s+once\s+(?P<once>per\s+[A-Za-z_]\w*))?(?:\s+optional\s+(?P<optional>.+?))?\s*", re.S)
INLINE_FORM = "on EVENT [where CONDITION] [once per EVENT] [optional PLAYER]: EFFECT; EFFECT ..."


@dataclasses.dataclass(frozen=True)
class InlineAbility:
    """An ability written in a card table's cell, read once the events are known.
    `span`: the cell in its file (one line), where its text starts."""
    name: str
    text: str
    span: Span


def cell_span(row: Span, text: str) -> Span:
    """Where a cell's text is on its row as written (a variant's table is
    re-assembled, so the row's own line is searched): the row's start if not found."""
    line = row.source.line(row.line) if row.line == row.end_line or not row.end_line else ""
    at = line.find(text, max(row.col - 1, 0))
    col = at + 1 if at >= 0 else row.col
    return Span(row.source, row.line, col, row.line, col + len(text) if at >= 0 else row.end_col)


def _top_level(text: str, chars: str) -> list[int]:
    """Positions of `chars` outside brackets and quotes."""
    found, depth, quote = [], 0, None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in chars and depth == 0:
            found.append(i)
    return found


def read_inline(reader, inline: InlineAbility, events: dict[str, ir.Event]) -> ir.Ability | None:
    """`on EVENT [where C] [once per E] [optional P]: S; S`: the ability of one
    card row, parsed with the grammar of `abilities:`; errors point into the cell."""
    text, span = inline.text, inline.span

    def at(offset: int, lengths: list[int] | None = None):
        """An Origin for a snippet starting `offset` characters into the cell
        (`lengths`: the lines a `;`-separated effect was cut into, with their offsets)."""
        def locate(line, col, end_line, end_col):
            starts = lengths or [offset]
            first = starts[min(line, len(starts)) - 1] + col - 1
            last = starts[min(end_line, len(starts)) - 1] + end_col - 1
            return Span(span.source, span.line, span.col + first, span.line, span.col + max(last, first))
        return Origin(locate)

    colons = _top_level(text, ":")
    head = _HEAD.fullmatch(text[:colons[0]]) if colons else None
    if head is None:
        reader.diag.error(span, "an ability written in a card row reads "
                          f"`{INLINE_FORM}`", "e.g. \"on card_played where this == c: draw_cards(p, 1)\"; "
                          "or name an ability declared under `abilities:`")
        return None
    on = head.group("on")
    if on not in events:
        reader.diag.error(_sub(span, head.start("on"), len(on)), f"this card's ability answers an unknown event '{on}'",
                          did_you_mean(on, events) or "declare it under `events:`")
        return None
    once = None
    if head.group("once"):
        once = head.group("once").split()[-1]
        if once != "game" and once not in events:
            reader.diag.error(_sub(span, head.start("once"), len(head.group("once"))),
                              f"`once per {once}`: '{once}' is not an event",
                              did_you_mean(once, [*events, "game"]) or "`once per game` or `once per EVENT`")
            return None
    try:
        where = parse_expression(head.group("where"), at(head.start("where")), reader.limits.nesting, reader.own) \
            if head.group("where") else None
        optional = parse_expression(head.group("optional"), at(head.start("optional")), reader.limits.nesting,
                                    reader.own) \
            if head.group("optional") else None
        effect, starts = [], []
        bounds = [colons[0], *_top_level(text[colons[0] + 1:], ";")]
        bounds = [colons[0]] + [colons[0] + 1 + b for b in bounds[1:]] + [len(text)]
        for begin, end in zip(bounds, bounds[1:]):
            piece = text[begin + 1:end]
            if piece.strip():
                starts.append(begin + 1 + len(piece) - len(piece.lstrip()))
                effect.append(piece.strip())
        if not effect:
            reader.diag.error(span, "this card's ability does nothing: write its effect after the `:`",
                              "e.g. `: draw_cards(p, 1)`; separate statements with `;`")
            return None
        body = parse_block("\n".join(effect), at(0, starts), reader.limits.nesting, reader.own)
    except ParseError as exc:
        reader.diag.items.append(exc.diagnostic)
        return None
    if not reader.declare(inline.name, "ability", span):
        return None
    return ir.Ability(inline.name, on, body, where, once, optional, None, None, span=span)


def _sub(span: Span, offset: int, length: int) -> Span:
    return Span(span.source, span.line, span.col + offset, span.line, span.col + offset + length)
