"""Styles in a card's SVG, cleaned through a real CSS tokenizer (tinycss2).

A card template is untrusted, and CSS can reach out: `@import`, `url(...)`,
`image-set(...)`, and each of them spelt with escapes (`@\\69mport`,
`u\\72l(`) that a pattern over the raw text misses. So styles are tokenized
as a browser would, escapes decoded, and rebuilt from what an allow-list
keeps: rules of selectors and declarations (no at-rule of any kind), the
properties SVG draws with, and values made of words, numbers, colours and
references to the card's own elements (`url(#gradient)`). Everything else is
dropped, and what is kept is written out again from the tokens, so no escape
survives to be read another way.
"""
from __future__ import annotations

import math
import re

import tinycss2

LARGEST = 100_000  # no number on a card is larger (mm, or a unitless ratio)
# the CSS properties SVG draws with (its presentation attributes)
PROPERTIES = frozenset("""
    alignment-baseline baseline-shift clip-path clip-rule color display dominant-baseline fill fill-opacity
    fill-rule filter flood-color flood-opacity font font-family font-size font-size-adjust font-stretch font-style
    font-variant font-weight image-rendering letter-spacing lighting-color marker marker-end marker-mid
    marker-start mask opacity overflow paint-order shape-rendering stop-color stop-opacity stroke stroke-dasharray
    stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width text-anchor
    text-decoration text-rendering vector-effect visibility word-spacing writing-mode
""".split())
FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla"})  # and url(#id), checked on its own
PLAIN = frozenset({"whitespace", "comment", "ident", "hash", "literal", "string"})
LOCAL = re.compile(r"#[A-Za-z_][\w.:-]*")


def local(reference: str) -> bool:
    """A reference to an element of the card itself (`#grad`): it reads nothing."""
    return LOCAL.fullmatch(reference.strip()) is not None


def safe_value(tokens) -> bool:
    """Whether a value's tokens are all words, bounded numbers, colours and local references."""
    for t in tokens:
        if t.type in PLAIN:
            continue
        if t.type in ("number", "percentage", "dimension"):
            if not (math.isfinite(t.value) and abs(t.value) <= LARGEST):
                return False
        elif t.type == "url":
            if not local(t.value):
                return False
        elif t.type == "function":
            if t.lower_name == "url":
                args = [a for a in t.arguments if a.type not in ("whitespace", "comment")]
                if not (len(args) == 1 and args[0].type == "string" and local(args[0].value)):
                    return False
            elif t.lower_name not in FUNCTIONS or not safe_value(t.arguments):
                return False
        elif t.type in ("() block", "[] block"):
            if not safe_value(t.content):
                return False
        else:  # at-keywords, {} blocks, unicode ranges, parse errors
            return False
    return True


def value(text: str) -> str | None:
    """An attribute's value as CSS would read it, rewritten from its tokens; None if it is not safe."""
    tokens = tinycss2.parse_component_value_list(text)
    return tinycss2.serialize(tokens).strip() if safe_value(tokens) else None


def declarations(text: str) -> str:
    """A `style` attribute: the safe declarations of the allowed properties, rewritten."""
    return _declarations(tinycss2.parse_declaration_list(text, skip_comments=True, skip_whitespace=True))


def stylesheet(text: str) -> str:
    """A `<style>` element's text: its rules of selectors and safe declarations; no at-rule."""
    rules = []
    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule" or not safe_value(rule.prelude):
            continue  # @import, @font-face, @namespace, ... and parse errors
        body = _declarations(tinycss2.parse_declaration_list(rule.content, skip_comments=True,
                                                             skip_whitespace=True))
        if body:
            rules.append(f"{tinycss2.serialize(rule.prelude).strip()} {{{body}}}")
    return "\n".join(rules)


def _declarations(nodes) -> str:
    kept = []
    for d in nodes:
        if d.type == "declaration" and d.lower_name in PROPERTIES and safe_value(d.value):
            kept.append(f"{d.lower_name}:{tinycss2.serialize(d.value).strip()}"
                        + (" !important" if d.important else ""))
    return ";".join(kept)
