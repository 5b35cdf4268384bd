"""Cards drawn with cairo (through CairoSVG): PDF sheets and PNG images.

Each distinct face (front or back) is drawn once, into a cairo recording;
the sheets then place recordings, which cairo writes into the PDF once each
and reuses, so a deck's copies and its identical backs cost almost nothing
and the file stays small. Crop marks are drawn on the sheet itself.

Why not WeasyPrint, which makes the summaries? Its SVG renderer lays out
text one letter at a time through Pango; a 60-card deck with backs took
about 3 s to draw that way, and about 0.7 s with cairo
(benchmarks/bench_card_sheets.py).
"""
from __future__ import annotations

import io

from .pdf import INSTALL_HINT, PdfUnavailable

PT = 72 / 25.4  # PDF points per millimetre


def _cairo():
    try:
        import cairocffi
        import cairosvg.parser
        import cairosvg.surface
    except ImportError:
        raise PdfUnavailable(f"card PDFs and PNGs need CairoSVG, which is not installed; {INSTALL_HINT}") from None
    except OSError as exc:  # installed, but the cairo library is missing
        raise PdfUnavailable(f"CairoSVG cannot start ({exc}); it needs the cairo library "
                             "(Debian: apt-get install libcairo2)") from None
    return cairocffi, cairosvg


def _recordings(svgs: list[str], progress) -> list:
    """Each SVG drawn once into a cairo recording surface, in points."""
    cairo, cairosvg = _cairo()

    class Recording(cairosvg.surface.PDFSurface):  # PDF units (points), drawn into memory
        def _create_surface(self, width, height):
            return cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, width, height)), width, height

    recordings = []
    for i, svg in enumerate(svgs):
        progress(i)
        recordings.append(Recording(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, 96).cairo)
    return recordings


def _nothing(i: int) -> None:
    pass


def sheets_pdf(paper: tuple[float, float], faces: list[str], pages, progress=_nothing) -> bytes:
    """A PDF of sheets: `pages` lists, per page, (slots, marks): slots are (face index, x, y)
    with x, y in mm from the page's top-left corner, marks crop-mark lines in mm.
    `progress(i)` is told of each face as it is drawn."""
    cairo, _ = _cairo()
    recordings = _recordings(faces, progress)
    out = io.BytesIO()
    surface = cairo.PDFSurface(out, paper[0] * PT, paper[1] * PT)
    context = cairo.Context(surface)
    for slots, marks in pages:
        for face, x, y in slots:
            context.save()
            context.translate(x * PT, y * PT)
            context.set_source_surface(recordings[face], 0, 0)
            context.paint()
            context.restore()
        if marks:
            context.set_source_rgb(0, 0, 0)
            context.set_line_width(0.2 * PT)
            for x1, y1, x2, y2 in marks:
                context.move_to(x1 * PT, y1 * PT)
                context.line_to(x2 * PT, y2 * PT)
            context.stroke()
        surface.show_page()
    surface.finish()
    return out.getvalue()


def faces_png(faces: list[str], dpi: int = 300, progress=_nothing) -> list[bytes]:
    """Each SVG as a PNG at `dpi` (the SVGs give their size in mm)."""
    _, cairosvg = _cairo()
    pngs = []
    for i, svg in enumerate(faces):
        progress(i)
        out = io.BytesIO()
        surface = cairosvg.surface.PNGSurface(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), out, dpi)
        surface.finish()
        pngs.append(out.getvalue())
    return pngs
