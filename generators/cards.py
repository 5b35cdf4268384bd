"""Cards -> SVG, front and back, through Jinja2 templates.

Every card type has the default front template (`templates/cards/card.svg.j2`)
unless the ruleset gives its own under `template:`, which `extends` the
default and replaces some of its blocks:

    cards:
      trial:
        template: |
          {% extends "card.svg.j2" %}
          {% block art %}{{ text("sum ≥ " ~ card.values.value, face.art.x, ...) }}{% endblock %}

The default front lays a card out by role (`layout.py`: title, corner,
stats, art, lines, rules), one layout for every card of a type, and each
text of a type is printed at one size: every card of the type is fitted
first, and then all are drawn at the size the fullest of them needs.

Ruleset templates are untrusted text: they run in Jinja2's sandbox, with
autoescaping (card text is data), and every error in one is reported at its
line in the ruleset file; what they write is cleaned (`svg.py`), and they
are drawn under a bound (`bounded.py`, in `publish.py`).
"""
from __future__ import annotations

import math
import traceback
from dataclasses import dataclass

from jinja2 import BaseLoader, ChoiceLoader, PackageLoader, StrictUndefined, TemplateNotFound, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError, Span

from . import icons, layout, prose, svg, textfit
from .cardview import contents, view
from .components import card_label, fill_format, printed_cards
from .palette import palette


@dataclass(frozen=True)
class CardSize:
    width: float  # mm, at the trim
    height: float
    bleed: float = 0.0


@dataclass
class FitWarning:
    card: str
    message: str

    def __str__(self) -> str:
        return f"{self.card}: {self.message}"


class _RulesetTemplates(BaseLoader):
    """The ruleset's own templates, named by card type."""

    def __init__(self, rs: ir.Ruleset):
        self.templates = {kind: ct.template for kind, ct in rs.card_types.items() if ct.template is not None}

    def get_source(self, environment, name):
        kind = name.removeprefix("ruleset:")
        if not name.startswith("ruleset:") or kind not in self.templates:
            raise TemplateNotFound(name)
        return self.templates[kind].text, f"<ruleset template {kind}>", lambda: True


class CardRenderer:
    """Renders a ruleset's cards (`size`: of the cards whose type gives none); collects text-fit warnings."""

    def __init__(self, rs: ir.Ruleset, size: CardSize, progress=None):
        icons.check_icons(rs)
        _check_layout_icons(rs)
        self.rs, self.size = rs, size
        self.progress = progress or (lambda doing, kind: None)  # told of each card as it is made
        self.own = _RulesetTemplates(rs)
        self.env = SandboxedEnvironment(
            loader=ChoiceLoader([self.own, PackageLoader("generators", "templates/cards")]),
            autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.warnings: list[FitWarning] = []
        self._current, self._kind = "", next(iter(rs.card_types), "")  # the card being drawn, for errors
        self.roles = {kind: layout.roles(ct) for kind, ct in rs.card_types.items()}
        self.colours = palette(rs, printed_cards(rs) or list(rs.cards), self.back_text)
        self.templates = {kind: self._template(kind) for kind in rs.card_types}
        self.back_template = self.env.get_template("back.svg.j2")
        self._said: dict[str, str] = {}  # an ability's English, said once for all its cards
        self._faces: dict[str, layout.Face] = {}
        self._fallback: dict[str, str] = {}
        self._backs: dict[tuple, str] = {}
        self.sizes: dict[tuple, float] = {}  # the one text size of each role of a type, once measured
        self._measured: dict[tuple, float] | None = None  # while measuring: the sizes the texts fit at
        self._group = ""  # the card type (or "back") whose texts share sizes

    # ---- templates and their errors
    def _template(self, kind: str):
        if kind not in self.own.templates:
            return self.env.get_template("card.svg.j2")
        try:
            return self.env.get_template("ruleset:" + kind)
        except TemplateSyntaxError as exc:
            raise self._error(kind, exc.lineno, f"error in the card template: {exc.message}") from None
        except TemplateNotFound as exc:
            raise self._error(kind, 1, f"the card template names an unknown template '{exc.name}'",
                              'extend the default with {% extends "card.svg.j2" %}') from None

    def _error(self, kind: str | None, line: int | None, message: str, hint: str | None = None) -> RulesetError:
        """An error at a line of the card type's own template (or at the card type, whose text it is)."""
        owner = self.own.templates.get(kind) or self.rs.card_types.get(kind)
        start = owner.span if owner else None
        span = Span(start.source, start.line + (line or 1) - 1, start.col) if start else None
        return RulesetError([Diagnostic(span, message, hint or "see docs/printing.md for the template variables")])

    def _render(self, template, kind: str | None, context: dict, outer: tuple[float, float]) -> str:
        """The card's SVG, checked and cleaned (svg.py); a template's failures located at its line."""
        try:
            return svg.clean(template.render(context), outer)
        except RulesetError:
            raise
        except svg.BadSvg as exc:
            raise self._error(kind, None, f"{self._current}: the card template writes SVG that cannot be "
                                          f"shown: {exc}", exc.hint) from None
        except Exception as exc:  # noqa: BLE001 - whatever a template does wrong is the template's error
            if kind not in self.own.templates:
                raise
            line = next((f.lineno for f in reversed(traceback.extract_tb(exc.__traceback__))
                         if f.filename == f"<ruleset template {kind}>"), None)
            raise self._error(kind, line, *_template_mistake(exc)) from None

    # ---- a type's layout, and its one text size per role
    def piece_size(self, kind: str) -> tuple[float, float]:
        """A face's width and height in mm: its type's own size, else the cards' size."""
        return self.roles[kind].size or (self.size.width, self.size.height)

    def face(self, kind: str) -> layout.Face:
        """The type's layout, made with its cards' contents; its texts measured for one size each."""
        if kind not in self._faces:
            ct, roles = self.rs.card_types[kind], self.roles[kind]
            distinct: dict = {}
            for c in self.rs.cards:
                if c.kind == kind:
                    distinct.setdefault((tuple(c.values.items()), c.text), c)
            cards = list(distinct.values())
            plain = [view(self.rs, c, roles, self.said) for c in cards]
            # a type's own text is what each card does where no card of it has rules of its own
            fallback = (ct.text or "") if roles.shape == "card" and not any(v.own for v in plain) else ""
            art_block = kind in self.own.templates and "art" in self.templates[kind].blocks
            self._fallback[kind] = fallback
            width, height = self.piece_size(kind)
            self._faces[kind] = layout.face(roles.shape, width, height, contents(
                [view(self.rs, c, roles, self.said, fallback) for c in cards], roles, art_block))
            self._measure(kind, [lambda c=c: self._front(c) for c in cards])
        return self._faces[kind]

    def _measure(self, group: str, renders) -> None:
        """Render each of a group's faces once, noting the size each text fits at; the group's texts
        in one role (or one box) are then all drawn at the smallest of them."""
        self._measured, warnings = {}, len(self.warnings)
        try:
            for render in renders:
                render()
        finally:
            measured, self._measured = self._measured, None
            del self.warnings[warnings:]
        self.sizes.update(measured)

    def view(self, card: ir.Card):
        """The card as its front's template sees it (`card`): its parts by role (`cardview.py`)."""
        self.face(card.kind)
        return view(self.rs, card, self.roles[card.kind], self.said, self._fallback[card.kind])

    def said(self, ability: str) -> str:
        """What an ability does, as the card prints it: its `text:`, or the printed rules' English
        (`generators/prose.py`, the one entry point for the English of an IR node)."""
        if ability not in self._said:
            self._said[ability] = prose.english(self.rs, self.rs.abilities[ability]).text
        return self._said[ability]

    # ---- what a template calls
    def text(self, text, x, y, width, height, size, min_size=None, bold=False, align="left",
             valign="top", colour="#1d1d1d", role=None, condense=False) -> Markup:
        text = str(text)
        if len(text) > textfit.MOST_CHARACTERS:  # fitting it would take seconds, printing it is hopeless
            raise RulesetError([Diagnostic(self.rs.card_types[self._kind].span,
                                           f"{self._current}: a text of {len(text):,} characters, more than "
                                           f"a card can show ({textfit.MOST_CHARACTERS:,})",
                                           "put the long text in the rules, and a short one on the card")])
        x, y, width, height, size, min_size = textfit.box(x, y, width, height, size, min_size)
        key = (self._group, str(role) if role is not None else (round(x, 2), round(y, 2), round(width, 2),
                                                                round(height, 2), round(size, 3), bool(bold)))
        agreed = self.sizes.get(key)
        if agreed is not None and agreed < size:  # the size every card of the type can have
            size, min_size = agreed, min(min_size, agreed)
        f = textfit.fit(text, width, height, size, min_size, bool(bold), bool(condense))
        if self._measured is not None:
            self._measured[key] = min(self._measured.get(key, math.inf), f.size)
        elif not f.fits:
            shown = text if len(text) <= 60 else text[:57] + "..."
            self.warnings.append(FitWarning(self._current, f"text does not fit its box even at "
                                                           f"{f.size:.1f} mm: “{shown}”"))
        return textfit.svg_text(f, x, y, width, height, align, valign, bool(bold), str(colour))

    def icon(self, name, x, y, size) -> Markup:
        if not icons.exists(str(name)):
            raise RulesetError([Diagnostic(None, f"a card template asks for unknown icon '{name}'",
                                           "icons: " + ", ".join(icons.names()[:24]) + ", ...")])
        return icons.placed(str(name), textfit.number(x, "x"), textfit.number(y, "y"),
                            textfit.number(size, "the icon's size", 0, textfit.LARGEST, above=0))

    def _common(self, width: float, height: float, accent: str) -> dict:
        return {"game": {"title": self.rs.title, "name": self.rs.name},
                "size": {"width": width, "height": height, "bleed": self.size.bleed},
                "accent": accent, "font": textfit.FONT_FAMILY, "text": self.text, "icon": self.icon, "mm": _mm}

    def _outer(self, width: float, height: float) -> tuple[float, float]:
        """The size of a face's SVG, in mm: the piece and its bleed."""
        return width + 2 * self.size.bleed, height + 2 * self.size.bleed

    # ---- cards
    def front(self, card: ir.Card) -> str:
        self.face(card.kind)
        return self._front(card)

    def _front(self, card: ir.Card) -> str:
        self._current, self._kind, self._group = f"card {card.id + 1} ({card_label(self.rs, card)})", card.kind, \
            card.kind
        self.progress(self._current, card.kind)
        face, (width, height) = self._faces[card.kind], self.piece_size(card.kind)
        shown = self.view(card)
        context = {**self._common(width, height, self.colours.accent[card.kind]), "card": shown,
                   "face": face.view(), "placed": layout.place(face, shown.stats, shown.lines),
                   "paper": self.colours.paper(card.kind)}
        return self._render(self.templates[card.kind], card.kind, context, self._outer(width, height))

    def back_text(self, card: ir.Card) -> str:
        ct = self.rs.card_types[card.kind]
        return fill_format(ct.back, card) if ct.back else self.rs.title

    def back(self, card: ir.Card) -> str:
        """The back; every card with the same back text and shape gets the same picture."""
        if not self._backs:  # every back's texts measured together: one size for them all
            cards = {self._back_key(c): c for c in printed_cards(self.rs) or self.rs.cards}
            self._measure("back", [lambda c=c: self._back_svg(c) for c in cards.values()])
            self._backs = {key: self._back_svg(c) for key, c in cards.items()}
        key = self._back_key(card)
        if key not in self._backs:
            self._backs[key] = self._back_svg(card)
        return self._backs[key]

    def _back_key(self, card: ir.Card) -> tuple:
        return self.back_text(card), self.roles[card.kind].shape, self.piece_size(card.kind)

    def _back_svg(self, card: ir.Card) -> str:
        text, shape, (width, height) = self._back_key(card)
        self._current, self._kind, self._group = f"back “{text}”", card.kind, "back"
        self.progress(self._current, card.kind)
        context = {**self._common(width, height, self.colours.backs.get(text, self.colours.accent[card.kind])),
                   "back": text, "shape": shape}
        return self._render(self.back_template, None, context, self._outer(width, height))


def _check_layout_icons(rs: ir.Ruleset) -> None:
    """Every icon a card type's `layout:` names exists; the error points at the layout."""
    problems = [Diagnostic(ct.layout.span, f"card type '{kind}': unknown icon '{icon}' for field '{field}'",
                           "icons: " + ", ".join(icons.names()[:30]) + ", ...")
                for kind, ct in rs.card_types.items() if ct.layout is not None
                for field, icon in ct.layout.icons if not icons.exists(icon)]
    if problems:
        raise RulesetError(problems)


def _template_mistake(exc: BaseException) -> tuple[str, str]:
    """What a template did wrong, and a hint, from the exception it raised."""
    if isinstance(exc, RecursionError):
        return "the card template calls itself without end", "a macro that calls itself needs a case where it stops"
    if isinstance(exc, TemplateNotFound):  # a path, a module: a template reads nothing but templates
        return (f"the card template names an unknown template '{exc.name}'",
                "a card template may include or extend only rulelang's card templates (card.svg.j2, "
                "back.svg.j2); it reads no files")
    if isinstance(exc, textfit.BadBox):
        return (f"a box in the card template: {exc}",
                "text(t, x, y, width, height, size, min_size=..., align='left'|'center'|'right', "
                "valign='top'|'middle'|'bottom'), in mm from the card's top-left corner")
    if isinstance(exc, MemoryError):
        return "the card template needs more memory than a card may use", "build smaller strings and lists"
    if isinstance(exc, ZeroDivisionError):
        return "the card template divides by zero", "check the divisor first: {% if n %}...{% endif %}"
    if isinstance(exc, OverflowError):
        return "the card template makes a number too large to use", "numbers on a card are millimetres"
    try:
        said = str(exc)
    except Exception:  # noqa: BLE001 - an exception whose message cannot be made
        said = type(exc).__name__
    said = said if len(said) <= 200 else said[:197] + "..."
    return f"error in the card template: {said}", "see docs/printing.md for the template variables"


def _mm(x) -> str:
    """A length for SVG: two decimals, no trailing zeros."""
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
