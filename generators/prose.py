"""The English of one IR node: the public entry point for other packages.

    from generators.prose import english, card_rules

    english(rs, stmt).text           # "Draw an action card."
    english(rs, expr).text           # "the top card of the Action Deck" (a phrase: no capital, no full stop)
    english(rs, rs.abilities["x"])   # when the ability answers and what it does
    card_rules(rs, card).text        # what this card does: its own words and its abilities

`english(rs, node, mode=None)` takes an expression, a statement, a block (a
tuple of statements), an ability, a define, a procedure, a step or a watch,
and returns a `Prose`: its sentences as `Line`s (a line's `lines` are the
ones under it), `.text` as one paragraph of plain text (for a card face)
and `.markdown()` (for an editor's hover). `mode` names the mode whose
players the rules speak to ("you" where one player decides).

This module is the stable API: the card faces (`generators/cards.py`) and the
language server use it, and the rest of `generators/` may change behind it.
It never prints an IR node in any other form than the printed rules do, so a
hover, a card and the rules summary say the same thing in the same words.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rulelang import ir
from rulelang.abilities import ABILITY_TYPE
from rulelang.types import EnumT

from .abilities import ability_text
from .components import fill_format
from .document import Item, clean, plain, sentence
from .english import block, context, expr, stmt
from .glossary import term, term_item
from .markdown import inline_markdown
from .statements import watch
from .summary import step_blocks

__all__ = ["Line", "Prose", "english", "card_rules"]


@dataclass(frozen=True)
class Line:
    """One sentence (or, for an expression, one phrase) and the lines under it."""
    text: str  # plain text
    markdown: str  # the same in Markdown (names in italics, terms in bold)
    lines: tuple["Line", ...] = ()


@dataclass(frozen=True)
class Prose:
    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        """Every line in reading order, as one paragraph of plain text."""
        def flat(lines):
            return [x for line in lines for x in (line.text, *flat(line.lines))]
        return " ".join(flat(self.lines))

    def markdown(self) -> str:
        """One line as a paragraph; several (or nested ones) as a Markdown list."""
        if len(self.lines) == 1 and not self.lines[0].lines:
            return self.lines[0].markdown

        def listed(lines, depth):
            return [x for line in lines for x in ("    " * depth + "- " + line.markdown, *listed(line.lines, depth + 1))]
        return "\n".join(listed(self.lines, 0))


def english(rs: ir.Ruleset, node, mode: str | None = None) -> Prose:
    """The printed rules' English for `node` (see the module docstring for what it may be)."""
    ctx = context(rs, rs.modes[mode] if mode is not None else None)
    if isinstance(node, ir.Expr):
        return _prose([Item(expr(ctx, node))])
    if isinstance(node, ir.Stmt):
        return _prose(stmt(ctx, node))
    if isinstance(node, tuple) and all(isinstance(s, ir.Stmt) for s in node):
        return _prose(block(ctx, node))
    if isinstance(node, ir.Ability):
        return _prose([Item(ability_text(ctx, node))])
    if isinstance(node, (ir.Define, ir.Procedure)):
        item = term_item(ctx, node.name)
        return _prose([item] if item is not None else [Item(term(ctx, node.text, node.name, node.params, node.body))])
    if isinstance(node, ir.Step):
        turns = ctx.mode.turns if ctx.mode is not None else None
        if turns is not None and node in ctx.mode.round[turns.first:turns.last + 1]:
            ctx = replace(ctx, turn=True)  # a turn's step speaks to the player whose turn it is
        return _prose(step_blocks(ctx, node)[0].items if not node.text else [Item(sentence(clean(node.text)))])
    if isinstance(node, ir.Watch):
        return _prose([watch(ctx, node)])
    raise TypeError(f"no English for {type(node).__name__}: give an expression, a statement, a block, "
                    "an ability, a define, a procedure, a step or a watch")


def card_rules(rs: ir.Ruleset, card: ir.Card) -> Prose:
    """What one card does, as its face says it: its own words (a `text` column, fields filled
    in), then the English of each ability it carries (its type's and its row's)."""
    ct = rs.card_types[card.kind]
    lines = [Item(fill_format(card.text, card))] if card.text else []
    carried = list(ct.abilities) + [card.values[f.name] for f in ct.fields
                                    if f.type == EnumT(ABILITY_TYPE) and card.values[f.name] is not None]
    ctx = context(rs)
    lines += [Item(ability_text(ctx, rs.abilities[name])) for name in dict.fromkeys(carried)]
    return _prose(lines)


def _prose(items: list[Item]) -> Prose:
    return Prose(tuple(_line(i) for i in items))


def _line(item: Item) -> Line:
    return Line(plain(item.text), inline_markdown(item.text), tuple(_line(c) for c in item.children))
