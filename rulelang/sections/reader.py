"""The reading of one ruleset file: what every section's reader is given.

`Reader` holds the file's positioned YAML, the limits, the problems found
(reported, never raised, so one run lists all of them) and the names
declared so far, with the small helpers every section uses to read a value
and report what is wrong with it.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

from .. import ir
from ..builtins import BUILTINS
from ..errors import Diagnostic, Diagnostics, Span, did_you_mean
from ..limits import DEFAULT, Limits
from ..parser import Origin, ParseError, parse_block, parse_expression
from ..words import CONTEXTUAL, KEYWORDS, PLACED, WORDS
from ..yamltree import YList, YMap, YNode, YScalar
from .shapes import Keys

LANGUAGE = 2  # the version of the language this rulelang reads (a file says which it is written in: `language:`)
# sections whose keys are names the ruleset declares
DECLARING = ("zones", "vars", "define", "procedures", "params", "types", "cards", "dice", "events", "abilities")

if TYPE_CHECKING:  # (variants reads card tables, whose cells this reads)
    from ..variants import Tree


D = TypeVar("D")



# keys other tools (and the words for them) spell differently: too far apart for `did_you_mean`
KEY_ALIASES = {"parameters": "params", "options": "params", "variables": "vars", "definitions": "define",
               "defines": "define", "functions": "define", "procedure": "procedures", "components": "cards",
               "description": "text", "ruling": "rulings", "mode": "modes", "zone": "zones", "var": "vars"}

class Reader:
    """Walks the positioned YAML; each section of the file is read by a function given this."""

    def __init__(self, tree: Tree, limits: Limits = DEFAULT, players=None):
        self.tree = tree.root
        self.limits = limits
        self.players_given = players  # `--set players=N`: the roles depend on it, so it is read first
        self.sources = tree.sources
        self.parsed = tree.parsed
        self.diag = Diagnostics()
        self.names: dict[str, tuple[str, Span]] = {}  # global name -> (what, where)
        self.inline_abilities: list = []  # abilities written in card rows (sections/abilities.py)
        self.roles: tuple[ir.Role, ...] = ()  # once read: a card's state value may name one
        self.card_type_names: dict[str, None] = {}  # before the cards are read: a state value's type may name one
        self.language = self.read_language()
        # the words the language took later that this ruleset names things with: its own reading wins (words.py)
        self.own = frozenset(_declared(self.tree)) & (WORDS if self.language < LANGUAGE else PLACED)
        self.notes: list[Diagnostic] = []  # what `check` says besides errors: a built-in a name hides
        self.refused: set[str] = set()  # names a declaration could not take (said once: their uses say nothing)

    def read_language(self) -> int:
        """`language: N`: the version the file is written in; a file without one is of version 1,
        where the names the language took later are the file's own to use."""
        node = self.tree.get("language") if isinstance(self.tree, YMap) else None
        if node is None:
            return 1
        if isinstance(node, YScalar) and type(node.value) is int and 1 <= node.value <= LANGUAGE:
            return node.value
        self.diag.error(node.span, f"language: must be a version of the language this rulelang reads, 1 to {LANGUAGE}",
                        f"`language: {LANGUAGE}` for a file written now; a file without one is read as version 1")
        return LANGUAGE

    def expect_map(self, node: YNode | None, what: str) -> YMap | None:
        if node is None:
            return None
        if isinstance(node, YMap):
            return node
        self.diag.error(node.span, f"{what} must be a mapping of names to values")
        return None

    def entries(self, node: YNode | None, what: str) -> list[tuple[str, tuple[Span, YNode]]]:
        """A mapping's entries, in order (none if it is missing, or reported if it is not a mapping)."""
        mapping = self.expect_map(node, what)
        return list(mapping.entries.items()) if mapping is not None else []

    def assumed(self, spec) -> str | None:
        """The `assumed:` note of a mapping: a value the rulebook does not give."""
        return self.text(spec.get("assumed"), "assumed") if isinstance(spec, YMap) else None

    def pin(self, spec) -> ir.Pin | None:
        """The fingerprint a mapping's `text:` (and a define's `means:`) was last checked against
        (`checked:`), and where the text is (the meaning, if given: it says most about the rules);
        None where it has no text. A fingerprint is 8 letters a to z."""
        if not isinstance(spec, YMap) or spec.get("text") is None and spec.get("means") is None:
            if isinstance(spec, YMap) and spec.get("checked") is not None:
                self.diag.error(spec.key_span("checked"), "`checked:` pins a `text:`, and there is no text here")
            return None
        node = spec.get("checked")
        checked = self.text(node, "checked") if node is not None else None
        if checked is not None and not re.fullmatch(r"[a-z]{8}", checked):
            self.diag.error(node.span, f"'{checked}' is not a text's fingerprint (8 letters a to z)",
                            "`rulelang check` prints the fingerprint to write")
            checked = None
        return ir.Pin(checked, (spec.get("means") or spec.get("text")).span)

    def article(self, spec: YMap, allowed: tuple[str, ...]) -> str | None:
        """`article:` of a role, zone or card type: how the printed rules introduce it."""
        node = spec.get("article")
        if node is None:
            return None
        value = "" if isinstance(node, YScalar) and node.value in (None, "none") else self.text(node, "article")
        if value not in allowed:
            self.diag.error(node.span, "article must be one of: " + ", ".join(a or "none" for a in allowed))
            return None
        return value

    def text(self, node: YNode | None, what: str) -> str | None:
        if node is None:
            return None
        if isinstance(node, YScalar) and isinstance(node.value, (str, int, float)):
            return str(node.value)
        self.diag.error(node.span, f"{what} must be text")
        return None

    def keys(self, node: YMap, table: Keys, what: str) -> None:
        """Report the keys of `node` that `table` does not have."""
        allowed = table.names
        for key, (span, _) in node.entries.items():
            if key not in allowed:
                alias = KEY_ALIASES.get(key)
                hint = f"did you mean '{alias}'?" if alias in allowed else did_you_mean(key, allowed)
                self.diag.error(span, f"unknown key '{key}' in {what}", hint or "allowed keys: " + ", ".join(allowed))

    def unknown(self, span: Span, what: str, name, known, hint: str | None = None) -> None:
        """`unknown WHAT 'NAME'`, with the closest known name as a hint; nothing for a name whose
        declaration was refused (a reserved word): that error, once, says what is wrong."""
        if name not in self.refused:
            self.diag.error(span, f"unknown {what} '{name}'", did_you_mean(str(name), known) or hint)

    def declare(self, name: str, what: str, span: Span) -> bool:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            self.diag.error(span, f"'{name}' is not a valid name for a {what}",
                            "names use letters, digits and _ (use _ instead of - or spaces)")
            return False
        later = name in CONTEXTUAL or name in BUILTINS  # taken after version 1: a version-1 file's to use
        if name in KEYWORDS or name == "box" or later and self.language >= LANGUAGE:
            hint = "`players:` declares the number of players" if name == "players" else \
                "a file without `language:` (version 1) may still use it" if later else None
            self.diag.error(span, f"'{name}' is a reserved word and cannot name a {what}", hint)
            self.refused.add(name)
            return False
        if name in BUILTINS and name not in self.names:
            written = name if BUILTINS[name].bare else f"{name}(...)"
            self.notes.append(Diagnostic(span, f"'{name}' names this ruleset's own {what}, so the built-in {written} "
                                               "is not available in it",
                                         "a ruleset's own names come first; `rulelang upgrade` renames this one "
                                         "(and writes `language: 2`) if you want the built-in", severity="note"))
        if name in self.names:
            other, where = self.names[name]
            place = f"line {where.line}" if where.file == span.file else str(where)
            self.diag.error(span, f"'{name}' is already the name of a {other} ({place})",
                            "every zone, variable, parameter, role, type and card type needs its own name")
            return False
        self.names[name] = (what, span)
        return True

    def snippet(self, node: YNode | None, kind: str) -> Any:
        """Parse a DSL value: `kind` is "block" or "expression" (None: there is none, or it is reported)."""
        if node is None:
            return None
        if isinstance(node, YScalar) and isinstance(node.value, bool) and kind == "expression":
            return ir.Const(node.value, span=node.span)
        if isinstance(node, YScalar) and isinstance(node.value, int) and kind == "expression":
            return ir.Const(node.value, span=node.span)
        if not isinstance(node, YScalar) or not isinstance(node.value, str):
            wanted = "statement block" if kind == "block" else "condition or value"
            self.diag.error(node.span, f"expected rules text here (a {wanted})",
                            "write it as a string, or as a block after '|'")
            return None
        same = (id(node), kind, self.limits.nesting, self.own)  # (the tree keeps the node: its id stays its own)
        if same in self.parsed:
            return self.parsed[same]
        origin = Origin(node.span_at)
        try:
            parsed = self.parsed[same] = (parse_block if kind == "block" else parse_expression)(
                node.value, origin, self.limits.nesting, self.own)
            return parsed
        except ParseError as exc:
            self.diag.items.append(exc.diagnostic)
            return None

    def choice(self, spec: YMap, key: str, allowed: tuple[str, ...], default: D) -> str | D:
        """One of the words `allowed` (reported if not, and `default` taken)."""
        node = spec.get(key)
        if node is None:
            return default
        value = self.text(node, key)
        if value is None or value not in allowed:
            self.diag.error(node.span, f"{key} must be one of: {', '.join(allowed)}", did_you_mean(str(value), allowed))
            return default
        return value

    def text_items(self, node: YNode | None, what: str) -> list[tuple[str, Span]]:
        if node is None:
            return []
        if not isinstance(node, YList):
            self.diag.error(node.span, f"expected a list of {what}s")
            return []
        return [(str(self.text(i, what)), i.span) for i in node.items]


def _declared(top) -> list[str]:
    """The names a file declares, before it is read (a define's or procedure's without its parameters)."""
    if not isinstance(top, YMap):
        return []
    names = []
    for section in DECLARING:
        node = top.get(section)
        if isinstance(node, YMap):
            names += [key.split("(")[0].strip() for key in node.entries]
    for section in ("roles",):
        node = top.get(section)
        if isinstance(node, YMap):
            names += list(node.entries)
        elif isinstance(node, YList):
            names += [str(i.value) for i in node.items if isinstance(i, YScalar)]
    players = top.get("players")
    names_node = players.get("names") if isinstance(players, YMap) else None
    if isinstance(names_node, YList):
        names += [str(i.value) for i in names_node.items if isinstance(i, YScalar)]
    return names
