"""The generators' front door: a ruleset in, finished files out.

    summary_file(rs, "md" | "html" | "pdf", mode=None, quick=False) -> bytes
    card_sheets(rs, options, "pdf" | "html") -> (bytes, warnings)
    card_images(rs, options, "png" | "svg") -> ([(file name, bytes)], warnings)

Card sheets and images hold the cards of the printed types only (`print: false`
leaves a type out).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError

from . import bounded, drawing, pdf
from .cards import CardRenderer, CardSize
from .components import card_label, printed_cards
from .html import to_html
from .markdown import to_markdown
from .quick import QUICK_DETAIL, quick_pages
from .sheets import PAPERS, sheet_html, sheet_pages
from .summary import summary

SUMMARY_FORMATS = ("md", "html", "pdf")


def summary_file(rs: ir.Ruleset, fmt: str, mode: str | None = None, quick: bool = False) -> tuple[bytes, list[str]]:
    """The rules summary (or the quick reference: one page per mode) as a file's bytes,
    with warnings (a quick reference that does not fit one page even when shrunk)."""
    modes = [mode] if mode else list(rs.modes)
    docs = [d for m in modes for d in quick_pages(rs, m)] if quick else [summary(rs, mode)]
    if fmt == "md":
        return to_markdown(docs).encode("utf-8"), []
    if fmt == "html":
        return to_html(docs, quick=quick).encode("utf-8"), []
    if not quick:
        return pdf.html_to_pdf(to_html(docs)), []
    pages, warnings = [], []
    for m in modes:  # each page fitted on its own: smaller text, then less detail
        for n in range(len(quick_pages(rs, m))):
            for detail in range(QUICK_DETAIL, -1, -1):
                doc = quick_pages(rs, m, detail)[n]
                page = pdf.one_page(lambda s: to_html([doc], quick=True, scale=s))
                if page is not None:
                    break
            if page is None:
                warnings.append(f"the quick reference of mode {m} ({doc.subtitle}) needs more than one page "
                                f"even at {pdf.SCALES[-1]:.0%} size")
                page = pdf.render(to_html([doc], quick=True, scale=pdf.SCALES[-1]))
            pages.append(page)
    return pdf.pages_pdf(pages), warnings


@dataclass(frozen=True)
class CardOptions:
    width: float = 63.5
    height: float = 88.9
    bleed: float = 0.0
    paper: str = "a4"
    crop_marks: bool = False
    backs: bool = False
    cpu_seconds: float | None = None  # the bound on drawing them all (default: by the number of faces)

    def __post_init__(self):
        """Numbers a program may pass wrong (NaN, huge): refused here, as the command line refuses them."""
        for name, low, high in (("width", 10, 300), ("height", 10, 300), ("bleed", 0, 10)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ValueError(f"a card's {name} must be a number from {low} to {high} mm, not {value!r:.40}")
        if self.cpu_seconds is not None and not 0 < self.cpu_seconds <= 86_400:
            raise ValueError(f"cpu_seconds must be more than 0 and at most a day, not {self.cpu_seconds!r:.40}")

    @property
    def size(self) -> CardSize:
        return CardSize(self.width, self.height, self.bleed)

    def bound(self, rs: ir.Ruleset) -> bounded.Bound:
        """Generous for any real deck (a card takes 10 to 30 ms), and finite for a hostile one."""
        faces = len(printed_cards(rs)) * (2 if self.backs else 1)
        return bounded.Bound(self.cpu_seconds if self.cpu_seconds is not None else 10 + 0.25 * faces)


def card_sheets(rs: ir.Ruleset, options: CardOptions, fmt: str) -> tuple[bytes, list[str]]:
    """Every card as many times as it is in the game, n-up on pages (a grid for each size of
    piece); with backs, each front page is followed by its mirrored back page (long-edge
    duplex). Drawn in a child process under a bound (`bounded.py`): templates are untrusted."""
    return _bounded(rs, options, _sheets, fmt)


def card_images(rs: ir.Ruleset, options: CardOptions, fmt: str = "png", dpi: int = 300):
    """One file per card (and per back), for print-on-demand services; drawn as `card_sheets` is."""
    return _bounded(rs, options, _images, fmt, dpi)


def _bounded(rs: ir.Ruleset, options: CardOptions, work, *args):
    bound = options.bound(rs)
    try:
        return bounded.run(work, (rs, options, *args), bound)
    except bounded.TooCostly as exc:
        kind = rs.card_types.get(exc.kind) if exc.kind else None
        where = (kind.template or kind).span if kind else None
        raise RulesetError([Diagnostic(where, f"{exc.doing}: stopped, {exc}",
                                       "a card template's loops, or the SVG it writes, cost too much to draw; "
                                       "see docs/reliability.md, *Card templates*")]) from None


def _render(rs: ir.Ruleset, options: CardOptions, progress):
    renderer = CardRenderer(rs, options.size, progress)
    fronts = [renderer.front(c) for c in printed_cards(rs)]
    backs = [renderer.back(c) for c in printed_cards(rs)] if options.backs else None
    return renderer, fronts, backs


def _sheets(rs: ir.Ruleset, options: CardOptions, fmt: str, progress) -> tuple[bytes, list[str]]:
    renderer, fronts, backs = _render(rs, options, progress)
    sizes = [CardSize(*renderer.piece_size(c.kind), options.bleed) for c in printed_cards(rs)]
    plan = sheet_pages(sizes, options.paper, options.crop_marks, backs is not None)
    warnings = [str(w) for w in renderer.warnings]
    if fmt == "html":
        return sheet_html(options.paper, plan, fronts, backs, f"{rs.title} — cards").encode("utf-8"), warnings
    faces = list(dict.fromkeys(fronts + (backs or [])))  # each distinct face drawn once
    number = {svg: i for i, svg in enumerate(faces)}
    placed = [([(number[(fronts if page.side == "front" else backs)[i]], x, y) for i, x, y in page.slots],
               page.marks) for page in plan]
    drawing_of = _drawing(rs, faces, fronts, backs or [], progress)
    return drawing.sheets_pdf(PAPERS[options.paper], faces, placed, drawing_of), warnings


def _images(rs: ir.Ruleset, options: CardOptions, fmt: str, dpi: int, progress):
    renderer, fronts, backs = _render(rs, options, progress)
    names = [_file_name(rs, c) for c in printed_cards(rs)]
    faces = list(zip(names, fronts))
    if backs is not None:
        faces += [(f"{n}-back", s) for n, s in zip(names, backs)]
    warnings = [str(w) for w in renderer.warnings]
    if fmt == "svg":
        return [(f"{n}.svg", s.encode("utf-8")) for n, s in faces], warnings
    distinct = list(dict.fromkeys(s for _, s in faces))  # each face drawn once
    drawing_of = _drawing(rs, distinct, fronts, backs or [], progress)
    png_of = dict(zip(distinct, drawing.faces_png(distinct, dpi, drawing_of)))
    return [(f"{n}.png", png_of[s]) for n, s in faces], warnings


def _drawing(rs: ir.Ruleset, faces: list[str], fronts: list[str], backs: list[str], progress):
    """progress(i) for drawing face i: says which card (the first with that face) is being drawn."""
    cards = printed_cards(rs)
    first = {}
    for side, svgs in (("", fronts), ("the back of ", backs)):
        for card, svg in zip(cards, svgs):
            first.setdefault(svg, (f"drawing {side}card {card.id + 1} ({card_label(rs, card)})", card.kind))
    return lambda i: progress(*first[faces[i]])


def _file_name(rs: ir.Ruleset, card: ir.Card) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", card_label(rs, card).lower()).strip("-") or card.kind
    return f"{card.id + 1:03d}-{slug}"
