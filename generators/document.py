"""A small document model: what the summary builds and the writers print.

Inline text is a plain string with a few marker characters for emphasis,
strong text and icons, so the English renderer can build sentences with
ordinary string operations and each writer (Markdown, HTML) turns the
markers into its own markup after escaping the text. Text from a ruleset
goes through `clean()` first, so it can never contain a marker.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_EM, _STRONG, _ICON, _END = "\x0e", "\x0f", "\x10", "\x11"
_MARKERS = re.compile("[\x0e\x0f\x10\x11\x12]")
_BACKTICKED = re.compile(r"`([^`\n]+)`")
INLINE = re.compile(f"([{_EM}{_STRONG}{_ICON}])([^{_END}]*){_END}")


def clean(text: str) -> str:
    """Ruleset text made safe to embed: marker characters removed, and a name in backticks
    (`` `complete` ``, `` `side_b` ``) printed as a name is in the rules: in italics, as words."""
    return _BACKTICKED.sub(lambda m: em(m.group(1).replace("_", " ")), _MARKERS.sub("", text))


def em(text: str) -> str:
    return f"{_EM}{text}{_END}"


def strong(text: str) -> str:
    return f"{_STRONG}{text}{_END}"


def icon(name: str) -> str:
    """An icon by name; writers show it as a picture (HTML) or its name (Markdown)."""
    return f"{_ICON}{name}{_END}"


def capital(text: str) -> str:
    """Upper-case the first letter, unless the text starts with a name in italics (*ma* is none)."""
    if text.startswith(_EM):
        return text
    i = 0
    while i < len(text) and not text[i].isalnum():  # skip leading markers
        i += 1
    return text[:i] + text[i:i + 1].upper() + text[i + 1:]


def sentence(text: str) -> str:
    """A sentence: capitalised, ending with a full stop unless it ends with its own punctuation (a
    quotation's too: Say aloud: “Go fish!”)."""
    text = capital(text.strip())
    return text if text.endswith((".", ":", "!", "?", ".”", "!”", "?”")) else text + "."


def plain(text: str) -> str:
    """Inline text without its markup (icons become their names)."""
    return INLINE.sub(lambda m: m.group(2).replace("_", " ") if m.group(1) == _ICON else m.group(2), text)


def spans(text: str):
    """Yield (kind, text) pieces: kind is "text", "em", "strong" or "icon"."""
    kinds = {_EM: "em", _STRONG: "strong", _ICON: "icon"}
    pos = 0
    for m in INLINE.finditer(text):
        if m.start() > pos:
            yield "text", text[pos:m.start()]
        yield kinds[m.group(1)], m.group(2)
        pos = m.end()
    if pos < len(text):
        yield "text", text[pos:]


@dataclass
class Item:
    """One entry of a list: a sentence, and the entries under it."""
    text: str
    children: list["Item"] = field(default_factory=list)


@dataclass
class Para:
    text: str


@dataclass
class Items:
    items: list[Item]
    ordered: bool = False


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]


@dataclass
class Section:
    title: str
    blocks: list = field(default_factory=list)
    level: int = 2

    @property
    def anchor(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", plain(self.title).lower()).strip("-")


@dataclass
class Document:
    title: str
    subtitle: str | None = None
    blocks: list = field(default_factory=list)  # paragraphs, then sections
