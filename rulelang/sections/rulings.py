"""`rulings:`: how the ruleset decided what the rulebook leaves open, and where each applies."""
from __future__ import annotations

from .. import ir
from ..errors import did_you_mean
from ..yamltree import YList, YMap, YNode
from .reader import Reader
from .shapes import AnyOf, Key, Keys, ListOf, string

RULING_SPEC = Keys("how an ambiguity of the rulebook was decided", (
    Key("id", string("a short name"), required=True), Key("text", string("the ruling"), required=True),
    Key("applies_to", AnyOf((string("a mode (name or title) or a step"),
                             ListOf(string("a mode (name or title) or a step"))),
                            "the modes named, or else every mode with a step named; default: every mode"))))
RULING = AnyOf((RULING_SPEC, Keys("in a variant: drop an inherited ruling",
                                  (Key("remove", string("its id"), required=True, variant=True),))))
RULING_KEYS = RULING_SPEC.names


def read_rulings(reader: Reader, node: YNode | None, modes: dict[str, ir.Mode]) -> tuple[ir.Ruling, ...]:
    rulings = []
    if node is None:
        return ()
    items = node.items if isinstance(node, YList) else None
    if items is None:
        reader.diag.error(node.span, "rulings must be a list of `- id: ...` and `text: ...`")
        return ()
    for item in items:
        if not isinstance(item, YMap):
            reader.diag.error(item.span, "a ruling is a mapping with `id:` and `text:`")
            continue
        reader.keys(item, RULING_SPEC, "a ruling")
        rid, text = reader.text(item.get("id"), "id"), reader.text(item.get("text"), "text")
        if not rid or not text:
            reader.diag.error(item.span, "a ruling needs both `id:` and `text:`")
            continue
        rulings.append(ir.Ruling(rid, text, applies_to(reader, item.get("applies_to"), modes), span=item.span))
    return tuple(rulings)


def applies_to(reader: Reader, node: YNode | None, modes: dict[str, ir.Mode]) -> tuple[str, ...]:
    """A ruling's `applies_to:`: one name or a list, each a mode (name or title), a step or `setup`."""
    if node is None:
        return ()
    items = node.items if isinstance(node, YList) else [node]
    known = [*modes, *(m.title for m in modes.values()), *(s.name for m in modes.values() for s in m.round),
             "setup"]
    names = []
    for item in items:
        name = reader.text(item, "applies_to")
        if name is not None and name not in known:
            reader.diag.error(item.span, f"'{name}' is not a mode, a step or the setup of this ruleset",
                            did_you_mean(name, known) or "modes: " + ", ".join(modes))
        elif name is not None:
            names.append(name)
    return tuple(names)
