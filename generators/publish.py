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
from .quick import CUTS, TITLES, quick_pages
from .sheets import PAPERS, sheet_html, sheet_pages
from .summary import summary

SUMMARY_FORMATS = ("md", "html", "pdf")


def summary_file(rs: ir.Ruleset, fmt: str, mode: str | None = None, quick: bool = False) -> tuple[bytes, list[str]]:
    """The rules summary (or the quick reference: one page per mode, or the pages its `quick:`
    gives) as a file's bytes, with warnings (what a quick reference left out to fit its sheet)."""
    modes = [mode] if mode else list(rs.modes)
    docs = [d for m in modes for d in quick_pages(rs, m)] if quick else [summary(rs, mode)]
    if fmt == "md":
        return to_markdown(docs).encode("utf-8"), []
    if fmt == "html":
        return to_html(docs, quick=quick).encode("utf-8"), []
    if not quick:
        return pdf.html_to_pdf(to_html(docs)), []
    pages, warnings = [], []
    laid: dict[str, object] = {}  # a page's HTML -> its layout: modes alike (aliased) are laid out once
    for m in modes:
        for n in range(len(quick_pages(rs, m))):
            page, cut = _fitted(rs, m, n, laid)
            doc = quick_pages(rs, m)[n]
            points = f"{pdf.QUICK_POINTS * pdf.QUICK_SCALES[-1]:.0f} pt"
            if cut:
                warnings.append(f"the quick reference of mode {m} ({doc.subtitle}) does not fit one page at {points}: "
                                "left out " + ", ".join(TITLES[c] for c in cut) + " (the full summary has them)")
            elif len(page.pages) > 1:
                warnings.append(f"the quick reference of mode {m} ({doc.subtitle}) needs {len(page.pages)} pages "
                                f"even at {points} with every section it may lose left out: printed in full; give "
                                "the mode `quick:` pages, or shorter words for its steps (`text:`)")
            pages.append(page)
    return pdf.pages_pdf(pages), warnings


def _fitted(rs: ir.Ruleset, mode: str, n: int, laid: dict):
    """Page `n` of a mode's quick reference laid out on one sheet, at the largest text size that
    fits (never under 8 pt), leaving out whole sections (`quick.CUTS`, in order) only if it must;
    with what it left out. The tries run from the whole page at full size to the smallest size
    with every section cut; each leaves out no more than the one before it, so the best that fits
    is found by bisection. A page that fits nowhere is printed complete, on as many sheets as it takes."""
    held = _held(rs, mode, n)
    cuts = [c for c in CUTS if c in held]
    tries = [((), scale) for scale in pdf.QUICK_SCALES] + \
        [(tuple(cuts[:i]), pdf.QUICK_SCALES[-1]) for i in range(1, len(cuts) + 1)]

    def layout(i):
        cut, scale = tries[i]
        html = to_html([quick_pages(rs, mode, frozenset(cut))[n]], quick=True, scale=scale)
        if html not in laid:
            laid[html] = pdf.render(html)
        return laid[html]

    if len(layout(0).pages) == 1:
        return layout(0), []
    low, high = 1, len(tries)  # tries[low - 1] does not fit; tries[high] does (high == len: none known)
    while low < high:
        middle = (low + high) // 2
        if len(layout(middle).pages) == 1:
            high = middle
        else:
            low = middle + 1
    if high == len(tries):  # nothing fits one sheet: all of it, at the smallest size
        return layout(len(pdf.QUICK_SCALES) - 1), []
    present = {b.title for b in quick_pages(rs, mode)[n].blocks}
    return layout(high), [c for c in tries[high][0] if TITLES[c] in present]


def _held(rs: ir.Ruleset, mode: str, n: int) -> set[str]:
    """The sections page `n` of the mode's quick reference holds (a cut of one it lacks is no cut)."""
    m = rs.modes[mode]
    return set(m.quick[n].also) if m.quick else set(ir.QUICK_SECTIONS)


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
