"""A card's SVG, checked and cleaned before it leaves the card renderer.

A card template is untrusted text, and the SVG it writes is opened in
browsers (the HTML sheets, a folder of SVG files) and drawn by CairoSVG. So
every card's SVG is parsed: text that is not well-formed XML, or that
declares a DOCTYPE (entities), is an error; what could run or reach out is
stripped — scripts, `foreignObject`, animations (`<set>` can write an
`href`), event attributes (`onload=`), processing instructions, and every
reference that is not inside the card (`javascript:` URLs, links to files
or web addresses, which CairoSVG would open and a browser would fetch,
`url(...)` and `@import` in styles). A clean card is returned as it was.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")

RUNS = {"script", "foreignobject", "handler", "listener", "set", "animate", "animatecolor", "animatemotion",
        "animatetransform", "discard", "iframe", "embed", "object"}  # compared in lower case
INSIDE = re.compile(r"\s*(#|data:image/(png|jpeg|gif|webp)[;,])", re.I)  # a reference that reads nothing
OUTSIDE_CSS = re.compile(r"url\(\s*['\"]?\s*(?!#)|@import|expression\(", re.I)


class BadSvg(ValueError):
    """SVG that cannot be shown as it is; the message says where in it."""


def clean(svg: str) -> str:
    if re.search(r"<!(DOCTYPE|ENTITY)", svg, re.I):
        raise BadSvg("it declares a DOCTYPE or entities, which a card's SVG may not")
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_pis=True))
    try:
        parser.feed(svg)
        root = parser.close()
    except ET.ParseError as exc:
        line, col = exc.position
        raise BadSvg(f"it is not well-formed XML at line {line}, column {col + 1} of the card's SVG "
                     f"({str(exc).split(':')[0]})") from None
    if _local(root.tag) != "svg":
        raise BadSvg(f"its outermost element is <{_local(root.tag)}>, not <svg>")
    return ET.tostring(root, encoding="unicode") if _strip(root) else svg


def _local(name: str) -> str:
    return name.rpartition("}")[2]


def _strip(element) -> bool:
    """Remove what runs or reaches out from `element`'s tree; whether anything was."""
    changed = False
    for child in list(element):
        if not isinstance(child.tag, str) or _local(child.tag).lower() in RUNS or (
                _local(child.tag).lower() == "style" and OUTSIDE_CSS.search(child.text or "")):
            element.remove(child)  # a processing instruction's tag is a function
            changed = True
        else:
            changed |= _strip(child)
    for name, value in list(element.attrib.items()):
        local = _local(name).lower()
        if local.startswith("on") or (local in ("href", "src") and not INSIDE.match(value)) \
                or OUTSIDE_CSS.search(value):
            del element.attrib[name]
            changed = True
    return changed
