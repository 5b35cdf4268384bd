"""A card's SVG, checked and cleaned before it leaves the card renderer.

A card template is untrusted text, and the SVG it writes is opened in
browsers (the HTML sheets, a folder of SVG files) and drawn by CairoSVG. So
every card's SVG is parsed and rebuilt from what allow-lists keep:

- text that is not well-formed XML, or declares a DOCTYPE (entities), is an
  error, and so is an `<svg>` of another size than the card's;
- only the SVG elements that draw are kept (no script, `foreignObject`,
  animation, link, or element of another namespace: XHTML's `img`, `video`,
  `meta` ...), with only the attributes that draw (no `onload=`);
- a reference (`href`, `url(...)`) must be to an element of the card
  (`#grad`) or, for `<image>`, an inline PNG, JPEG, GIF or WebP; styles go
  through a CSS tokenizer (`css.py`);
- what would make drawing endless is an error: a number that is not finite
  or is beyond ±100,000, elements nested more than 64 deep, a `<use>` that
  refers to itself, and references that multiply past 20,000 elements drawn
  (eight levels of `<use>` each using the last ten times).

The card is written out again from the cleaned tree, so what leaves is
exactly what was checked.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from rulelang.errors import Crosses

from . import css

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"

MOST_BYTES = 4_000_000  # a card's SVG, inline images included
MOST_DEPTH = 64
MOST_DRAWN = 20_000  # elements drawn, counting each use of a referenced one

ELEMENTS = frozenset("""
    svg g defs symbol use title desc rect circle ellipse line polyline polygon path text tspan textPath
    linearGradient radialGradient stop clipPath mask pattern marker image style filter feGaussianBlur feOffset
    feFlood feBlend feComposite feMerge feMergeNode feColorMatrix feDropShadow
""".split())
NUMBERS = frozenset("""
    x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height dx dy rotate offset d points transform viewBox
    gradientTransform patternTransform refX refY markerWidth markerHeight textLength pathLength startOffset
    stdDeviation k1 k2 k3 k4 values opacity fill-opacity stroke-opacity stop-opacity flood-opacity stroke-width
    stroke-miterlimit stroke-dashoffset stroke-dasharray font-size letter-spacing word-spacing
""".split())
WORDS = frozenset("""
    id class version baseProfile preserveAspectRatio gradientUnits spreadMethod clipPathUnits maskUnits
    maskContentUnits patternUnits patternContentUnits markerUnits orient filterUnits primitiveUnits in in2
    result mode operator type lengthAdjust method spacing side
""".split())
ATTRIBUTES = NUMBERS | WORDS | css.PROPERTIES | {"style", "href"}
SPACE = {f"{{{XML}}}space", f"{{{XML}}}lang"}
HREF = f"{{{XLINK}}}href"
IMAGE_DATA = re.compile(r"\s*data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*", re.I)
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
NOT_FINITE = re.compile(r"nan|inf", re.I)
URL = re.compile(r"url\(\s*['\"]?\s*#([^'\")\s]+)", re.I)


class BadSvg(Crosses, ValueError):
    """SVG that cannot be shown as it is; the message says where in it, the hint what to do."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def clean(svg: str, size: tuple[float, float] | None = None) -> str:
    """The card's SVG rebuilt from what the allow-lists keep; `size`: the face's (width, height) in mm."""
    if len(svg) > MOST_BYTES:
        raise BadSvg(f"it is {len(svg):,} characters long, more than a card may be ({MOST_BYTES:,})",
                     "draw with shapes; an inline image should be small")
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
    _depth(root)
    if _local(root.tag) != "svg" or _namespace(root.tag) not in ("", SVG):
        raise BadSvg(f"its outermost element is <{_local(root.tag)}>, not <svg>")
    _keep(root)
    if size is not None:
        _check_size(root, size)
    _check_references(root)
    return _written(root)


def _written(root) -> str:
    """The tree as text, names written plainly (`href`, SVG's own namespace on the root): not
    through ElementTree's prefixes, which any other library may register over."""
    for element in root.iter():
        element.tag = _local(element.tag)
        for name in [n for n in element.attrib if n.startswith("{")]:
            value = element.attrib.pop(name)
            element.attrib["href" if name == HREF else "xml:" + _local(name)] = value
    root.set("xmlns", SVG)
    return ET.tostring(root, encoding="unicode")


def _local(name) -> str:
    return name.rpartition("}")[2] if isinstance(name, str) else ""


def _namespace(name: str) -> str:
    return name[1:].partition("}")[0] if name.startswith("{") else ""


def _depth(root) -> None:
    """Elements nested at most MOST_DEPTH deep (checked without recursion, before anything recurses)."""
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        if depth > MOST_DEPTH:
            raise BadSvg(f"its elements are nested more than {MOST_DEPTH} deep", "use fewer nested groups")
        stack.extend((child, depth + 1) for child in element)


def _keep(element) -> None:
    """Keep in `element`'s tree only the allowed elements and attributes, values checked."""
    if _namespace(element.tag) == "":  # CairoSVG draws an SVG without its namespace: say it
        element.tag = f"{{{SVG}}}{element.tag}"
    for child in list(element):
        if not isinstance(child.tag, str) or _namespace(child.tag) not in ("", SVG) \
                or _local(child.tag) not in ELEMENTS:
            _remove(element, child)  # a processing instruction's tag is a function
        else:
            _keep(child)
    if _local(element.tag) == "style":  # all its text, the text after a child element too
        text = "".join(element.itertext())
        for child in list(element):
            element.remove(child)
        element.text = css.stylesheet(text)
    for name, value in list(element.attrib.items()):
        kept = _attribute(element, name, value)
        if kept is None:
            del element.attrib[name]
        else:
            element.attrib[name] = kept


def _remove(parent, child) -> None:
    """Remove `child`, keeping the text that followed it."""
    if child.tail:
        siblings = list(parent)
        before = siblings.index(child) - 1
        if before >= 0:
            siblings[before].tail = (siblings[before].tail or "") + child.tail
        else:
            parent.text = (parent.text or "") + child.tail
    parent.remove(child)


def _attribute(element, name: str, value: str) -> str | None:
    """The attribute's value as kept, or None to drop it."""
    if name in SPACE:
        return value
    local = "href" if name == HREF else name
    if local not in ATTRIBUTES or (_namespace(name) and name != HREF):
        return None  # event handlers (onload=), other namespaces' attributes, anything unknown
    if local == "href":
        inline = _local(element.tag) == "image" and IMAGE_DATA.fullmatch(value)
        return value.strip() if css.local(value) or inline else None
    if local == "style":
        return css.declarations(value)
    if local in NUMBERS:
        _check_numbers(element, local, value)
    if local in css.PROPERTIES:  # read as CSS, escapes and all
        return css.value(value)
    return None if "url(" in value.lower() else value


def _check_numbers(element, name: str, value: str) -> None:
    if NOT_FINITE.search(value) or any(not math.isfinite(float(n)) or abs(float(n)) > css.LARGEST
                                       for n in NUMBER.findall(value)):
        shown = value if len(value) <= 40 else value[:37] + "..."
        raise BadSvg(f'<{_local(element.tag)} {name}="{shown}"> holds a number that is not finite or is beyond '
                     f"±{css.LARGEST:,}", "a card is drawn in millimetres: its numbers are small")
    if name == "stroke-dasharray":
        dashes = [abs(float(n)) for n in NUMBER.findall(value)]
        if dashes and 0 < sum(dashes) < 0.05:
            raise BadSvg(f'<{_local(element.tag)} stroke-dasharray="{value[:40]}"> draws dashes too small to see',
                         "dashes and gaps of 0.05 mm or more")


def _check_size(root, size: tuple[float, float]) -> None:
    """The outer <svg> is the face's size, in mm (a template draws on the card; it does not size it)."""
    for name, want in zip(("width", "height"), size):
        given = root.get(name)
        m = re.fullmatch(r"\s*([0-9.]+)\s*mm\s*", given or "")
        if m is None or abs(float(m.group(1)) - want) > 0.01:
            raise BadSvg(f'its <svg {name}="{(given or "")[:40]}"> is not the card\'s {name}, {want:g}mm',
                         'keep the outer <svg> of card.svg.j2 ({% extends "card.svg.j2" %}) and change blocks')


def _check_references(root) -> None:
    """No reference refers to itself, and references multiply to at most MOST_DRAWN elements drawn."""
    ids = {e.get("id"): e for e in root.iter() if e.get("id")}
    drawn: dict[int, int] = {}
    inside: set[int] = set()

    def count(element) -> int:
        key = id(element)
        if key in drawn:
            return drawn[key]
        if key in inside:
            raise BadSvg(f'<{_local(element.tag)} id="{element.get("id")}"> refers to itself, through <use> '
                         "or url(#...)", "a <use> may refer only to an element outside it")
        inside.add(key)
        total = 1 + sum(count(child) for child in element)
        for ref in _references(element):
            if ref in ids:
                total += count(ids[ref])
            if total > MOST_DRAWN:
                break
        inside.discard(key)
        if total > MOST_DRAWN:
            raise BadSvg(f"its references (<use>, url(#...)) draw more than {MOST_DRAWN:,} elements",
                         "draw fewer copies; a <use> of a <use> multiplies them")
        drawn[key] = total
        return total

    count(root)


def _references(element) -> list[str]:
    refs = []
    for name, value in element.attrib.items():
        if name in ("href", HREF) and value.startswith("#"):
            refs.append(value[1:])
        elif "url(" in value.lower():
            refs += URL.findall(value)
    return refs
