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


SCALES = (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7)  # text sizes tried for a one-page document, largest first


def one_page(make_html):
    """The laid-out document at the largest of SCALES at which `make_html(scale)` fits one
    page, or None; by bisection: most pages fit at full size, the others in two or three tries."""
    laid = {0: render(make_html(SCALES[0]))}
    if len(laid[0].pages) == 1:
        return laid[0]
    low, high = 1, len(SCALES)  # SCALES[low - 1] does not fit; SCALES[high] does (high == len: none known)
    while low < high:
        middle = (low + high) // 2
        laid[middle] = render(make_html(SCALES[middle]))
        if len(laid[middle].pages) == 1:
            high = middle
        else:
            low = middle + 1
    return laid.get(high)


def pages_pdf(documents) -> bytes:
    """Laid-out documents' pages in one PDF."""
    return documents[0].copy([p for d in documents for p in d.pages]).write_pdf()
