"""A Document as one self-contained HTML file (styles inline, icons as SVG)."""
from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from . import icons
from .document import Document, Items, Para, Section, Table, spans


def inline(text: str) -> Markup:
    """Inline markers -> HTML; the text itself is escaped (it is data)."""
    out = []
    for kind, piece in spans(text):
        if kind == "icon":
            out.append(icons.inline(piece))
        elif kind == "text":
            out.append(escape(piece))
        else:
            out.append(Markup(f"<{kind}>") + escape(piece) + Markup(f"</{kind}>"))  # em, strong
    return Markup("").join(out)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=PackageLoader("generators", "templates"), autoescape=select_autoescape(["j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["inline"] = inline
    env.tests["section"] = lambda b: isinstance(b, Section)
    env.tests["para"] = lambda b: isinstance(b, Para)
    env.tests["items"] = lambda b: isinstance(b, Items)
    env.tests["table"] = lambda b: isinstance(b, Table)
    return env


def to_html(docs: list[Document], quick: bool = False, scale: float = 1.0) -> str:
    """Every document in one page; a quick reference puts each on a page of its own."""
    css = environment().loader.get_source(environment(), "quick.css" if quick else "summary.css")[0]
    return environment().get_template("document.html.j2").render(
        docs=docs, css=Markup(css), quick=quick, scale=scale, title=docs[0].title if docs else "")
