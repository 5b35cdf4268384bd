"""A Document as Markdown (GitHub flavour: pipe tables)."""
from __future__ import annotations

import re

from .document import Document, Items, Para, Section, Table, spans

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")
# plain text has no pictures: an icon becomes a close symbol (the text beside it names it)
_SYMBOLS = {"sun": "☀", "moon": "☾", "light": "○", "dark": "●", "heart": "♥", "hearts": "♥", "diamond": "♦",
            "diamonds": "♦", "club": "♣", "clubs": "♣", "spade": "♠", "spades": "♠", "star": "★",
            "swords": "⚔", "shield": "⛨", "drop": "💧", "skull": "☠", "scales": "⚖", "crown": "♛",
            "arrow": "➶", "brick": "🧱", "lumber": "🪵"}


def _inline(text: str) -> str:
    out = []
    unmarked = False  # an icon with no symbol here: the space after it goes too
    for kind, piece in spans(text):
        if kind == "icon":
            out.append(_SYMBOLS.get(piece.rpartition("_")[2], ""))
            unmarked = not out[-1]
            continue
        if unmarked:
            piece, unmarked = piece.removeprefix(" "), False
        if kind == "code":  # a code span needs no escapes (it holds no backtick)
            out.append(f"`{piece}`")
            continue
        piece = _SPECIAL.sub(r"\\\1", piece)
        out.append({"em": f"*{piece}*", "strong": f"**{piece}**"}.get(kind, piece))
    return "".join(out)


def _items(items, ordered: bool, depth: int, out: list[str]) -> None:
    for i, item in enumerate(items, 1):
        bullet = f"{i}." if ordered and depth == 0 else "-"
        out.append("    " * depth + f"{bullet} {_inline(item.text)}")
        _items(item.children, False, depth + 1, out)


def _block(block, out: list[str]) -> None:
    if isinstance(block, Section):
        out += ["#" * block.level + " " + _inline(block.title), ""]
        for b in block.blocks:
            _block(b, out)
    elif isinstance(block, Para):
        out += [_inline(block.text), ""]
    elif isinstance(block, Items):
        _items(block.items, block.ordered, 0, out)
        out.append("")
    elif isinstance(block, Table):
        out.append("| " + " | ".join(_inline(h) for h in block.header) + " |")
        out.append("|" + "---|" * len(block.header))
        for row in block.rows:
            out.append("| " + " | ".join(_inline(c) for c in row) + " |")
        out.append("")
    else:
        raise TypeError(f"unknown block {type(block).__name__}")


def to_markdown(docs: list[Document]) -> str:
    out: list[str] = []
    for doc in docs:
        out += ["# " + _inline(doc.title), ""]
        if doc.subtitle:
            out += ["*" + _inline(doc.subtitle) + "*", ""]
        for block in doc.blocks:
            _block(block, out)
    return "\n".join(out).rstrip("\n") + "\n"
