"""Documents as PDF through WeasyPrint (part of the optional `[pdf]` extra).

WeasyPrint lays out the HTML of a rules summary as print pages. It is
imported only when a PDF is asked for, so the rest of rulelang works
without it; when it is missing, `PdfUnavailable` says how to install it.
(Cards are drawn with cairo instead: see `drawing.py`.)
"""
from __future__ import annotations

import logging

INSTALL_HINT = "install the PDF extra: pip install 'rulelang[pdf]' (or, in a checkout, pip install '.[pdf]')"


class PdfUnavailable(Exception):
    """A library of the `[pdf]` extra (WeasyPrint, CairoSVG) is not installed."""


def _weasyprint():
    try:
        import weasyprint
    except ImportError:
        raise PdfUnavailable(f"PDF output needs WeasyPrint, which is not installed; {INSTALL_HINT}") from None
    except OSError as exc:  # installed, but its system libraries (Pango) are missing
        raise PdfUnavailable(f"WeasyPrint cannot start ({exc}); it needs the Pango library "
                             "(Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0)") from None
    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # its CSS notes are not the user's problem
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    return weasyprint


def available() -> bool:
    try:
        _weasyprint()
    except PdfUnavailable:
        return False
    return True


def render(html: str):
    """The laid-out document (its `.pages` can be counted before writing)."""
    return _weasyprint().HTML(string=html).render()


def html_to_pdf(html: str) -> bytes:
    return render(html).write_pdf()


def fit_one_page_each(make_html, count: int, smallest: float = 0.7) -> tuple[bytes, float, bool]:
    """Render `make_html(scale)`, shrinking the scale until the document has
    `count` pages (one per part). Returns (pdf, scale, fits)."""
    scale = 1.0
    while True:
        document = render(make_html(scale))
        if len(document.pages) <= count or scale <= smallest:
            return document.write_pdf(), scale, len(document.pages) <= count
        scale = round(scale - 0.05, 2)
