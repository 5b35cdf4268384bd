"""Cards -> SVG, front and back, through Jinja2 templates.

Every card type has the default front template (`templates/cards/card.svg.j2`)
unless the ruleset gives its own under `template:`, which `extends` the
default and replaces some of its blocks:

    cards:
      trial:
        template: |
          {% extends "card.svg.j2" %}
          {% block art %}{{ text("sum ≥ " ~ card.values.value, ...) }}{% endblock %}

Ruleset templates are untrusted text: they run in Jinja2's sandbox, with
autoescaping (card text is data), and every error in one is reported at its
line in the ruleset file.
"""
from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from types import SimpleNamespace

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    PackageLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
)
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from rulelang import ir
from rulelang.abilities import ABILITY_TYPE
from rulelang.errors import Diagnostic, RulesetError, Span
from rulelang.labels import value_text
from rulelang.types import EnumT

from . import icons, prose, svg, textfit
from .components import card_label, fill_format, printed_cards, type_title
from .nouns import words

ACCENTS = ("#8c2f1b", "#1f4e79", "#2e6b30", "#6b3e8c", "#9c6b00", "#245f63", "#7a2148", "#4f5b1d")
# a back whose text names a colour is printed in it (mid tones, so its white lettering reads)
NAMED_BACKS = {"red": "#b3261e", "blue": "#1f4e79", "green": "#2e6b30", "light green": "#6a9f4b",
               "dark green": "#1e4620", "yellow": "#b58b00", "orange": "#c0641a", "brown": "#7a4a24",
               "pink": "#c2577f", "purple": "#6b3e8c", "grey": "#5f6368", "gray": "#5f6368", "black": "#222222",
               "light blue": "#4a86b8", "dark blue": "#1b2f5c", "teal": "#245f63"}
PAPERS = ("#f6e9e2", "#e4ecf5", "#e5f0e2", "#ede3f3", "#f6eddb", "#e0eeee", "#f3e1e8", "#eef0dd")
# a card type named after a colour is printed in it (the Gauntlet's green, blue and red cards)
NAMED = {"red": 0, "blue": 1, "green": 2, "purple": 3, "yellow": 4, "orange": 4, "teal": 5, "pink": 6, "olive": 7}


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
    """Renders a ruleset's cards at one size; collects text-fit warnings."""

    def __init__(self, rs: ir.Ruleset, size: CardSize, progress=None):
        icons.check_icons(rs)
        self.rs, self.size = rs, size
        self.progress = progress or (lambda doing, kind: None)  # told of each card as it is made
        self.own = _RulesetTemplates(rs)
        self.env = SandboxedEnvironment(
            loader=ChoiceLoader([self.own, PackageLoader("generators", "templates/cards")]),
            autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.warnings: list[FitWarning] = []
        self._current, self._kind = "", next(iter(rs.card_types), "")  # the card being drawn, for errors
        self.kind_index = {kind: i for i, kind in enumerate(rs.card_types)}
        self._backs: dict[str, str] = {}
        # each distinct back its own colour, in the order the cards first show it
        texts = list(dict.fromkeys(self.back_text(c) for c in printed_cards(rs)))
        self.back_colours = {t: NAMED_BACKS.get(t.lower().replace("_", " ").replace("-", " "),
                                                ACCENTS[(i + len(rs.card_types)) % len(ACCENTS)])
                             for i, t in enumerate(texts)}
        self.templates = {kind: self._template(kind) for kind in rs.card_types}
        self.back_template = self.env.get_template("back.svg.j2")
        self._said: dict[str, str] = {}  # an ability's English, said once for all its cards

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

    def _outer(self) -> tuple[float, float]:
        """The size of a face's SVG, in mm: the card and its bleed."""
        return self.size.width + 2 * self.size.bleed, self.size.height + 2 * self.size.bleed

    def _error(self, kind: str, line: int | None, message: str, hint: str | None = None) -> RulesetError:
        """An error at a line of the card type's own template (or at the card type, whose text it is)."""
        owner = self.own.templates.get(kind) or self.rs.card_types.get(kind)
        start = owner.span if owner else None
        span = Span(start.source, start.line + (line or 1) - 1, start.col) if start else None
        return RulesetError([Diagnostic(span, message, hint or "see docs/printing.md for the template variables")])

    def _render(self, template, kind: str, context: dict) -> str:
        """The card's SVG, checked and cleaned (svg.py); a template's failures located at its line."""
        try:
            return svg.clean(template.render(context), self._outer())
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

    # ---- the context a template sees
    def context(self, card: ir.Card, back: bool = False) -> dict:
        index = NAMED.get(card.kind, self.kind_index[card.kind])
        return {
            "card": self.view(card), "game": {"title": self.rs.title, "name": self.rs.name},
            "size": {"width": self.size.width, "height": self.size.height, "bleed": self.size.bleed},
            "accent": ACCENTS[index % len(ACCENTS)], "paper": PAPERS[index % len(PAPERS)],
            "font": textfit.FONT_FAMILY, "text": self.text, "icon": self.icon, "mm": _mm,
        }

    def view(self, card: ir.Card) -> SimpleNamespace:
        """The card as plain data for templates (`card.values.kind`, `card.title`, ...)."""
        ct = self.rs.card_types[card.kind]
        in_label = set(re.findall(r"{(\w+)}", ct.label or ""))
        lines = dict(ct.lines)
        fields, number, card_icons, abilities = [], None, [], list(ct.abilities)
        for f in ct.fields:
            value = card.values[f.name]
            if f.type == EnumT(ABILITY_TYPE):  # a rule, printed as what the card does (below), not as a value
                abilities += [value] if value is not None else []
                continue
            enum = self.rs.enums.get(f.type.name) if isinstance(f.type, EnumT) else None
            icon = enum.icons.get(value) if enum is not None else None
            worded = card.text is not None  # the card's own words say what its fields would
            in_title = f.name in in_label or icon is not None or worded  # said already: title, icon or words
            spec = lines.get(f.name, DEFAULT)  # a line the ruleset gives is printed even for a field in the title
            fields.append({"name": f.name, "title": words(f.name), "value": value, "text": value_text(value),
                           "icon": icon, "in_title": in_title,
                           "line": None if in_title and spec is DEFAULT else field_line(card, f.name, spec)})
            if icon:
                card_icons.append({"field": f.name, "value": value, "icon": icon})
            if number is None and not worded and isinstance(value, int) and not isinstance(value, bool):
                number = value
        title = card_label(self.rs, card)
        # what the card does: its own words, then its abilities'; else what its type is for
        own = [fill_format(card.text, card)] if card.text else []
        return SimpleNamespace(
            id=card.id, kind=card.kind, type=type_title(card.kind), label=title, title=title[:1].upper() + title[1:],
            fields=[SimpleNamespace(**f) for f in fields], lines=[f["line"] for f in fields if f["line"]],
            values=SimpleNamespace(**card.values),
            number=number, icons=[SimpleNamespace(**i) for i in card_icons],
            abilities=[SimpleNamespace(name=a, title=words(a), text=self.said(a)) for a in abilities],
            text=" ".join(own + [self.said(a) for a in abilities]) or ct.text or "", type_text=ct.text or "")

    def said(self, ability: str) -> str:
        """What an ability does, as the card prints it: its `text:`, or the printed rules' English
        (`generators/prose.py`, the one entry point for the English of an IR node)."""
        if ability not in self._said:
            self._said[ability] = prose.english(self.rs, self.rs.abilities[ability]).text
        return self._said[ability]

    def text(self, text, x, y, width, height, size, min_size=None, bold=False, align="left",
             valign="top", colour="#1d1d1d") -> Markup:
        text = str(text)
        if len(text) > textfit.MOST_CHARACTERS:  # fitting it would take seconds, printing it is hopeless
            raise RulesetError([Diagnostic(self.rs.card_types[self._kind].span,
                                           f"{self._current}: a text of {len(text):,} characters, more than "
                                           f"a card can show ({textfit.MOST_CHARACTERS:,})",
                                           "put the long text in the rules, and a short one on the card")])
        x, y, width, height, size, min_size = textfit.box(x, y, width, height, size, min_size)
        f = textfit.fit(text, width, height, size, min_size, bool(bold))
        if not f.fits:
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

    # ---- cards
    def front(self, card: ir.Card) -> str:
        self._current, self._kind = f"card {card.id + 1} ({card_label(self.rs, card)})", card.kind
        self.progress(self._current, card.kind)
        return self._render(self.templates[card.kind], card.kind, self.context(card))

    def back_text(self, card: ir.Card) -> str:
        ct = self.rs.card_types[card.kind]
        return fill_format(ct.back, card) if ct.back else self.rs.title

    def back(self, card: ir.Card) -> str:
        """The back; every card with the same back text gets the same picture."""
        text = self.back_text(card)
        if text not in self._backs:
            self._backs[text] = self._back_svg(text, card.kind)
        return self._backs[text]

    def _back_svg(self, text: str, kind: str) -> str:
        self._current, self._kind = f"back “{text}”", kind
        self.progress(self._current, kind)
        colour = self.back_colours.get(text, ACCENTS[0])
        context = {"back": text, "game": {"title": self.rs.title, "name": self.rs.name},
                   "size": {"width": self.size.width, "height": self.size.height, "bleed": self.size.bleed},
                   "accent": colour, "font": textfit.FONT_FAMILY, "text": self.text, "icon": self.icon, "mm": _mm}
        return self._render(self.back_template, None, context)


DEFAULT = object()  # a field the card type's `print:` does not name


def field_line(card: ir.Card, name: str, spec) -> str | None:
    """How a field reads on the card's front, or None where the card shows nothing for it.
    By default "Title: value", and a flag its title alone when it is true (a card never
    prints "yes" or "no"). A `print:` line is a format, left out when the field is 0, false or
    none (cards print no empty numbers), or a format for each value of the field."""
    value = card.values[name]
    if spec is DEFAULT:
        if isinstance(value, bool):
            return _capital(words(name)) if value else None
        return f"{words(name)}: {value_text(value)}"
    if isinstance(spec, tuple):
        spec = dict(spec).get(value)
    elif value is None or value is False or (value == 0 and not isinstance(value, str)):
        return None
    return _capital(fill_format(spec, card)) if spec else None


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


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _mm(x) -> str:
    """A length for SVG: two decimals, no trailing zeros."""
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
