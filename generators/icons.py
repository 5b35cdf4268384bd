"""Icons drawn as SVG, so cards and summaries print the same everywhere.

Every icon is drawn in a 24×24 box. A ruleset names them on a type's values
(`icons: true` when the values are icon names, or `icons: {dust: skull}`).
`light_NAME` and `dark_NAME` are NAME drawn in light or dark colours: pale
and nearly black, so that both differ from NAME's own colour. In text
(Markdown) each icon is a glyph: its shape's, after ○ or ● for light or
dark, so that every icon reads differently there too.
"""
from __future__ import annotations

from markupsafe import Markup

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError, did_you_mean
from rulelang.types import EnumT

INK = "#222"
_RAYS = "".join(
    f'<path d="M12 {y0}L{x1} {y1}L{x2} {y1}Z" transform="rotate({a} 12 12)"/>'
    for a, (y0, x1, x2, y1) in ((a, (0.8, 10.6, 13.4, 4.6)) for a in range(0, 360, 45)))

# name -> (SVG body using {fill} and {ink}, default fill, a glyph for text)
_SHAPES = {
    "sun": (f'<g fill="{{fill}}" stroke="{{ink}}" stroke-width="0.8" stroke-linejoin="round">{_RAYS}'
            '<circle cx="12" cy="12" r="5.6"/></g>', "#f2b632", "☀"),
    "moon": ('<path d="M15.5 2.5A9.8 9.8 0 1 0 21.5 17 7.6 7.6 0 1 1 15.5 2.5Z" fill="{fill}" '
             'stroke="{ink}" stroke-width="1" stroke-linejoin="round"/>', "#b8c4d6", "☾"),
    "light": ('<circle cx="12" cy="12" r="8.5" fill="{fill}" stroke="{ink}" stroke-width="1.2"/>'
              '<path d="M12 3.5A8.5 8.5 0 0 1 12 20.5Z" fill="{ink}" opacity="0.12"/>', "#fffbea", "○"),
    "dark": ('<circle cx="12" cy="12" r="8.5" fill="{fill}" stroke="{ink}" stroke-width="1.2"/>'
             '<path d="M12 3.5A8.5 8.5 0 0 0 12 20.5Z" fill="#fff" opacity="0.25"/>', "#2b2b38", "●"),
    "heart": ('<path d="M12 21C5 15.5 2.5 12 2.5 8.3 2.5 5.4 4.7 3.2 7.4 3.2 9.4 3.2 11 4.3 12 6 '
              '13 4.3 14.6 3.2 16.6 3.2 19.3 3.2 21.5 5.4 21.5 8.3 21.5 12 19 15.5 12 21Z" fill="{fill}"/>',
              "#c8102e", "♥"),
    "diamond": ('<path d="M12 1.8L20 12 12 22.2 4 12Z" fill="{fill}"/>', "#c8102e", "♦"),
    "club": ('<g fill="{fill}"><circle cx="12" cy="7" r="4.3"/><circle cx="6.8" cy="13.2" r="4.3"/>'
             '<circle cx="17.2" cy="13.2" r="4.3"/><path d="M11 12h2l1.6 9.5H9.4Z"/></g>', "#111", "♣"),
    "spade": ('<path d="M12 2C9 6.5 3 9.8 3 14 3 16.6 5 18.4 7.3 18.4 9 18.4 10.4 17.6 11.2 16.3L9.6 22h4.8'
              'L12.8 16.3C13.6 17.6 15 18.4 16.7 18.4 19 18.4 21 16.6 21 14 21 9.8 15 6.5 12 2Z" fill="{fill}"/>',
              "#111", "♠"),
    "star": ('<path d="M12 2l2.9 6.3 6.9.8-5.1 4.7 1.4 6.8L12 17.2l-6.1 3.4 1.4-6.8L2.2 9.1l6.9-.8Z" '
             'fill="{fill}" stroke="{ink}" stroke-width="0.8" stroke-linejoin="round"/>', "#f2b632", "★"),
    "swords": ('<g stroke="{ink}" stroke-width="1" fill="{fill}" stroke-linejoin="round">'
               '<path d="M3 3l2.5 0.3 11 11-2.2 2.2-11-11Z"/><path d="M21 3l-0.3 2.5-11 11-2.2-2.2 11-11Z"/>'
               '<path d="M13.5 17.5l4-4 1.2 1.2-4 4Z M6.5 13.5l4 4-1.2 1.2-4-4Z"/>'
               '<circle cx="19.5" cy="19.5" r="1.6"/><circle cx="4.5" cy="19.5" r="1.6"/></g>', "#c9ccd3", "⚔"),
    "arrow": ('<path d="M2.5 10h12V5l7 7-7 7v-5h-12Z" fill="{fill}" stroke="{ink}" stroke-width="1" '
              'stroke-linejoin="round"/>', "#2f7d32", "➜"),
    "drop": ('<path d="M12 2.2C9 7 5 11 5 15a7 7 0 0 0 14 0c0-4-4-8-7-12.8Z" fill="{fill}" stroke="{ink}" '
             'stroke-width="0.8"/><path d="M8.6 15.2a3.4 3.4 0 0 0 3 3.4" stroke="#fff" stroke-width="1.2" '
             'fill="none" stroke-linecap="round"/>', "#2a7fd4", "💧"),
    "shield": ('<path d="M12 2l8.5 3v6.5c0 5-3.6 9-8.5 10.5C7.1 20.5 3.5 16.5 3.5 11.5V5Z" fill="{fill}" '
               'stroke="{ink}" stroke-width="1"/><path d="M12 4.2v15.6" stroke="{ink}" stroke-width="0.8"/>',
               "#8a9bb0", "⛨"),
    "brick": ('<g fill="{fill}" stroke="{ink}" stroke-width="0.9"><rect x="2" y="4" width="9.5" height="5"/>'
              '<rect x="12.5" y="4" width="9.5" height="5"/><rect x="2" y="9.5" width="4.5" height="5"/>'
              '<rect x="7" y="9.5" width="10" height="5"/><rect x="17.5" y="9.5" width="4.5" height="5"/>'
              '<rect x="2" y="15" width="9.5" height="5"/><rect x="12.5" y="15" width="9.5" height="5"/></g>',
              "#b5532d", "🧱"),
    "lumber": ('<g stroke="{ink}" stroke-width="0.9"><path d="M5 7h14v10H5Z" fill="{fill}"/>'
               '<ellipse cx="5" cy="12" rx="2.6" ry="5" fill="#e3c290"/>'
               '<ellipse cx="5" cy="12" rx="1.1" ry="2.2" fill="none"/><path d="M9 10h8M10 14h7" fill="none"/></g>',
               "#9c6b30", "🪵"),
    "skull": ('<path d="M12 2.5c-5 0-8.5 3.4-8.5 8 0 2.8 1.4 4.6 3 5.6V20h11v-3.9c1.6-1 3-2.8 3-5.6 0-4.6-3.5-8-8.5-8Z" '
              'fill="{fill}" stroke="{ink}" stroke-width="0.9"/><circle cx="8.6" cy="11" r="2.1" fill="{ink}"/>'
              '<circle cx="15.4" cy="11" r="2.1" fill="{ink}"/><path d="M12 13.5l-1.2 2.3h2.4Z" fill="{ink}"/>'
              '<path d="M9.5 17.5v2.5M12 17.5v2.5M14.5 17.5v2.5" stroke="{ink}" stroke-width="0.8"/>', "#efe9dc",
              "☠"),
    "dust": ('<g fill="{fill}" stroke="{ink}" stroke-width="0.7"><circle cx="8" cy="14" r="4.5"/>'
             '<circle cx="14.5" cy="10" r="5"/><circle cx="17" cy="16" r="3.5"/><circle cx="5" cy="6" r="1.3"/>'
             '<circle cx="20" cy="5" r="1"/><circle cx="11" cy="20.5" r="1.1"/></g>', "#c7b28d", "∴"),
    "plague": ('<g fill="{fill}" stroke="{ink}" stroke-width="0.8"><circle cx="12" cy="12" r="5.5"/>'
               + "".join(f'<circle cx="12" cy="3.8" r="1.7" transform="rotate({a} 12 12)"/>'
                         f'<path d="M12 6.5V5.3" transform="rotate({a} 12 12)"/>' for a in range(0, 360, 60))
               + '</g><circle cx="10.5" cy="11" r="1.2" fill="{ink}"/><circle cx="13.8" cy="13.2" r="0.9" '
               'fill="{ink}"/>', "#7fae3a", "☣"),
    "scales": ('<g stroke="{ink}" stroke-width="1" fill="none" stroke-linecap="round"><path d="M12 3v17M7 20.5h10'
               'M4 6.5h16"/><path d="M4 6.5l-2.5 6.5M4 6.5l2.5 6.5M20 6.5l-2.5 6.5M20 6.5l2.5 6.5"/></g>'
               '<path d="M1 13h6a3 3 0 0 1-6 0ZM17 13h6a3 3 0 0 1-6 0Z" fill="{fill}" stroke="{ink}" '
               'stroke-width="0.8"/>', "#c9a227", "⚖"),
    "crown": ('<path d="M3 18l-1-11 5.5 4.5L12 4l4.5 7.5L22 7l-1 11Z" fill="{fill}" stroke="{ink}" '
              'stroke-width="0.9" stroke-linejoin="round"/><path d="M3 20.5h18" stroke="{ink}" stroke-width="1.6"/>',
              "#f2b632", "♛"),
    "boot": ('<path d="M6 2.5h7v9.5l5.8 2.6c1.9.9 2.7 2.4 2.7 4.1V20H3.5v-3.2L5 15V2.5Z" fill="{fill}" '
             'stroke="{ink}" stroke-width="0.9" stroke-linejoin="round"/><path d="M3.5 20h18v1.8h-18Z" fill="{ink}"/>',
             "#8a5a35", "👢"),
    "bolt": ('<path d="M13.5 1.8L4.5 13.5h6l-2 8.7 9.5-12.2h-6.2Z" fill="{fill}" stroke="{ink}" stroke-width="0.9" '
             'stroke-linejoin="round"/>', "#f2b632", "⚡"),
    "bread": ('<path d="M3 13c0-4.5 4-7.5 9-7.5s9 3 9 7.5v5.5H3Z" fill="{fill}" stroke="{ink}" stroke-width="0.9" '
              'stroke-linejoin="round"/><path d="M8 9.5l-1.5 3M12 8.8v3.4M16 9.5l1.5 3" stroke="{ink}" '
              'stroke-width="0.9" stroke-linecap="round"/>', "#d9a45b", "🍞"),
    "gem": ('<path d="M6.5 3.5h11l4 5.5L12 21 2.5 9Z" fill="{fill}" stroke="{ink}" stroke-width="0.9" '
            'stroke-linejoin="round"/><path d="M2.5 9h19M9 3.5 7.5 9 12 21l4.5-12-1.5-5.5" fill="none" '
            'stroke="{ink}" stroke-width="0.6"/>', "#5bb7c9", "💎"),
    "chain": ('<g fill="none" stroke-linecap="round">' + "".join(
        f'<rect x="{x}" y="8.5" width="10" height="7" rx="3.5" transform="rotate(-35 {x + 5} 12)" '
        f'stroke="{{ink}}" stroke-width="3.4"/><rect x="{x}" y="8.5" width="10" height="7" rx="3.5" '
        f'transform="rotate(-35 {x + 5} 12)" stroke="{{fill}}" stroke-width="1.8"/>' for x in (2.5, 11.5))
        + '</g>', "#b7bec9", "⛓"),
    "target": ('<circle cx="12" cy="12" r="9.5" fill="{fill}" stroke="{ink}" stroke-width="0.9"/>'
               '<circle cx="12" cy="12" r="6" fill="#fffdf7" stroke="{ink}" stroke-width="0.8"/>'
               '<circle cx="12" cy="12" r="2.6" fill="{fill}" stroke="{ink}" stroke-width="0.8"/>', "#c8102e", "⌖"),
    "coin": ('<circle cx="12" cy="12" r="9" fill="{fill}" stroke="{ink}" stroke-width="1"/>'
             '<circle cx="12" cy="12" r="6.2" fill="none" stroke="{ink}" stroke-width="0.7"/>', "#e0b73c", "◎"),
}
_ALIASES = {"hearts": "heart", "diamonds": "diamond", "clubs": "club", "spades": "spade",
            "skulls": "skull", "sword": "swords", "bricks": "brick", "arrows": "arrow", "coins": "coin"}
_TONES = {  # light_/dark_ variants: a fill per shape or a default, far from every shape's own colour
    "light": {None: "#fdfbf3"},
    "dark": {"sun": "#4a2e08", "moon": "#1f2a44", None: "#2b2b38"},
}
_TONE_GLYPHS = {"light": "○", "dark": "●"}


def _outlined(shape: str) -> bool:
    """Only shapes drawn with an outline stay readable in a light or dark tone (light and dark are tones)."""
    return "{ink}" in _SHAPES[shape][0] and shape not in _TONES


def names() -> list[str]:
    base = sorted(_SHAPES)
    return base + sorted(_ALIASES) + [f"{t}_{b}" for t in _TONES for b in base if _outlined(b)]


def _resolve(name: str) -> tuple[str, str, str] | None:
    """(shape, fill, tone) for an icon name, or None if there is no such icon."""
    tone, _, rest = name.partition("_")
    if tone in _TONES and rest:
        shape = _ALIASES.get(rest, rest)
        if shape in _SHAPES and _outlined(shape):
            fills = _TONES[tone]
            return shape, fills.get(shape, fills[None]), tone
    shape = _ALIASES.get(name, name)
    return (shape, _SHAPES[shape][1], "") if shape in _SHAPES else None


def exists(name: str) -> bool:
    return _resolve(name) is not None


def body(name: str) -> str:
    shape, fill, _ = _resolve(name)
    return _SHAPES[shape][0].format(fill=fill, ink=INK)


def glyph(name: str) -> str:
    """The icon as text: its shape's glyph, after ○ or ● for a light or dark one."""
    shape, _, tone = _resolve(name)
    return _TONE_GLYPHS.get(tone, "") + _SHAPES[shape][2]


def placed(name: str, x: float, y: float, size: float) -> Markup:
    """The icon as an SVG group, its box's top-left corner at (x, y)."""
    return Markup(f'<g transform="translate({x:.2f} {y:.2f}) scale({size / 24:.4f})">{body(name)}</g>')


def inline(name: str, size: str = "1.1em") -> Markup:
    """The icon as a standalone <svg>, for HTML text."""
    return Markup(f'<svg class="icon" viewBox="0 0 24 24" width="{size}" height="{size}" role="img" '
                  f'aria-label="{name.replace("_", " ")}"><title>{name.replace("_", " ")}</title>{body(name)}</svg>')


def check_icons(rs: ir.Ruleset) -> None:
    """Every icon a ruleset names must exist, and two values never print the same icon;
    the error points at the type."""
    problems = []
    drawn: dict[tuple, str] = {}  # (shape, fill, tone) -> the value drawn so
    for enum in rs.enums.values():
        for value, name in enum.icons.items():
            if name is not None and not exists(name):
                problems.append(Diagnostic(enum.span, f"unknown icon '{name}' for {enum.name} value '{value}'",
                                           did_you_mean(name, names()) or "icons: " + ", ".join(sorted(_SHAPES))))
            elif name is not None and drawn.setdefault(_resolve(name), value) != value:
                other = drawn[_resolve(name)]
                problems.append(Diagnostic(enum.span, f"values '{other}' and '{value}' would print the same icon",
                                           "give each value an icon of its own (light_NAME and dark_NAME are "
                                           "other colours of NAME)"))
    if problems:
        raise RulesetError(problems)


def card_icons(rs: ir.Ruleset, card: ir.Card) -> list[tuple[str, str, str]]:
    """(field, value, icon) for each field of a card whose value has an icon."""
    out = []
    ct = rs.card_types[card.kind]
    for f in ct.fields:
        enum = rs.enums.get(f.type.name) if isinstance(f.type, EnumT) else None
        value = card.values.get(f.name)
        if enum is not None and value in enum.icons:
            out.append((f.name, value, enum.icons[value]))
    return out
