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


QUICK_POINTS = 8.6  # the quick reference's text size at scale 1 (quick.css)
QUICK_SCALES = (1.0, 0.965, 0.93)  # the sizes tried for a one-page quick reference, largest first: never under 8 pt


def pages_pdf(documents) -> bytes:
    """Laid-out documents' pages in one PDF."""
    return documents[0].copy([p for d in documents for p in d.pages]).write_pdf()
