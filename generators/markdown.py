"""A Document as Markdown (GitHub flavour: pipe tables).

Everything a ruleset writes is text, never markup: characters Markdown
gives a meaning to are escaped, a line never starts like a list item or a
heading ("1. ", "- "), and emphasis never starts or ends with a space (so
`*Assumed:* ` and not `*Assumed: *`, which Markdown does not read as emphasis).
"""
from __future__ import annotations

import re

from . import icons
from .document import Document, Items, Para, Section, Table, spans

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|&~])")
# at the start of a line these make a list item, a heading or a rule: escape their mark
_LINE_START = re.compile(r"^(\s*)(\d{1,9})([.)])(?=\s|$)|^(\s*)([-+=])(?=\s|$|[-=]+\s*$)")


def inline_markdown(text: str) -> str:
    """Inline text (the document's markers) as one line of Markdown."""
    out = []
    unmarked = False  # an icon with no symbol here: the space after it goes too
    for kind, piece in spans(text):
        if kind == "icon":
            out.append(icons.glyph(piece))
            unmarked = not out[-1]
            continue
        if unmarked:
            piece, unmarked = piece.removeprefix(" "), False
        piece = _SPECIAL.sub(r"\\\1", piece.replace("\n", " "))
        if kind in ("em", "strong"):
            mark = "*" if kind == "em" else "**"
            core = piece.strip()
            lead, trail = piece[:len(piece) - len(piece.lstrip())], piece[len(piece.rstrip()):]
            piece = f"{lead}{mark}{core}{mark}{trail}" if core else piece
        out.append(piece)
    return _line(" ".join("".join(out).split("\n")))


def _line(text: str) -> str:
    """A line that starts like Markdown block syntax made to start like text."""
    return _LINE_START.sub(lambda m: f"{m.group(1)}{m.group(2)}\\{m.group(3)}" if m.group(2) is not None
                           else f"{m.group(4)}\\{m.group(5)}", text.lstrip(), count=1)


def _items(items, ordered: bool, depth: int, out: list[str]) -> None:
    for i, item in enumerate(items, 1):
        bullet = f"{i}." if ordered and depth == 0 else "-"
        out.append("    " * depth + f"{bullet} {inline_markdown(item.text)}")
        _items(item.children, False, depth + 1, out)


def _block(block, out: list[str]) -> None:
    if isinstance(block, Section):
        out += ["#" * block.level + " " + inline_markdown(block.title), ""]
        for b in block.blocks:
            _block(b, out)
    elif isinstance(block, Para):
        out += [inline_markdown(block.text), ""]
    elif isinstance(block, Items):
        _items(block.items, block.ordered, 0, out)
        out.append("")
    elif isinstance(block, Table):
        out.append("| " + " | ".join(inline_markdown(h) for h in block.header) + " |")
        out.append("|" + "---|" * len(block.header))
        for row in block.rows:
            out.append("| " + " | ".join(inline_markdown(c) for c in row) + " |")
        out.append("")
    else:
        raise TypeError(f"unknown block {type(block).__name__}")


def to_markdown(docs: list[Document]) -> str:
    out: list[str] = []
    for doc in docs:
        out += ["# " + inline_markdown(doc.title), ""]
        if doc.subtitle:
            out += ["*" + inline_markdown(doc.subtitle) + "*", ""]
        for block in doc.blocks:
            _block(block, out)
    return "\n".join(out).rstrip("\n") + "\n"
