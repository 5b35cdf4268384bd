"""A mode's `quick:`: the quick reference's pages, their steps, sentences and sections."""
from __future__ import annotations

from .. import ir
from ..errors import did_you_mean
from ..yamltree import YList, YMap, YNode
from .reader import Reader
from .shapes import ANYTHING, CHECKED, AnyOf, Choice, Key, Keys, ListOf, Scalar, string

QUICK_RULE = Keys("a sentence with a bold lead-in and sentences under it", (
    Key("title", string("its lead-in")), Key("text", string("the sentence")),
    Key("rules", ListOf(ANYTHING, "the sentences under it"))))
QUICK_PAGE = Keys("a page", (
    Key("title", string("its heading")),
    Key("steps", ListOf(Scalar(("string",)), "steps printed in full")),
    Key("rules", ListOf(AnyOf((Scalar(("string",)), QUICK_RULE)), "summary sentences, each text or {text:, rules:}")),
    Key("also", ListOf(Choice(ir.QUICK_SECTIONS), "generated sections on this page")),
    Key("checked", CHECKED)))


def read_quick(reader: Reader, node: YNode | None, steps) -> tuple[ir.QuickPage, ...]:
    """`quick:` pages: `{title:, steps: [step names], rules: [sentences], also: [sections]}`."""
    if node is None:
        return ()
    if not isinstance(node, YList):
        reader.diag.error(node.span, "quick is a list of pages", "- {title: The turn, steps: [Draw, Play]}")
        return ()
    names = [s.name for s in steps]
    pages = []
    for item in node.items:
        if not isinstance(item, YMap):
            reader.diag.error(item.span, "a quick-reference page is a mapping (title:, steps:, rules:, also:)")
            continue
        reader.keys(item, QUICK_PAGE, "a quick-reference page")
        chosen = []
        for n in reader.text_items(item.get("steps"), "a step's name"):
            if n[0] not in names:
                reader.diag.error(n[1], f"unknown step '{n[0]}'", did_you_mean(n[0], names))
            else:
                chosen.append(n[0])
        also = []
        for n in reader.text_items(item.get("also"), "a section"):
            if n[0] not in ir.QUICK_SECTIONS:
                reader.diag.error(n[1], f"unknown section '{n[0]}'", "sections: " + ", ".join(ir.QUICK_SECTIONS))
            else:
                also.append(n[0])
        checked = item.get("checked")
        pin = None
        if item.get("rules") is not None:  # its sentences summarise the mode: pinned to its rules
            pin = reader.pin(YMap(entries={**item.entries, "text": item.entries["rules"]}, span=item.span))
        elif checked is not None:
            reader.diag.error(item.key_span("checked"), "`checked:` pins a page's `rules:`, and this page has none")
        pages.append(ir.QuickPage(reader.text(item.get("title"), "title") or "Quick reference", tuple(chosen),
                                  quick_rules(reader, item.get("rules")), tuple(also), pin, span=item.span))
    return tuple(pages)


def quick_rules(reader: Reader, node: YNode | None) -> tuple[ir.QuickRule, ...]:
    """Sentences, each a text or `{title:, text:, rules: [...]}`: a bold lead-in, sentences under it."""
    if node is None:
        return ()
    if not isinstance(node, YList):
        reader.diag.error(node.span, "rules is a list of sentences")
        return ()
    out = []
    for item in node.items:
        if isinstance(item, YMap):
            reader.keys(item, QUICK_RULE, "a quick-reference sentence")
            out.append(ir.QuickRule(reader.text(item.get("text"), "text") or "", quick_rules(reader, item.get("rules")),
                                    reader.text(item.get("title"), "title"), span=item.span))
        else:
            out.append(ir.QuickRule(reader.text(item, "a sentence") or "", span=item.span))
    return tuple(out)
