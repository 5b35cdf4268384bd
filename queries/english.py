"""What an IR node means in English, as the printed rules say it (Markdown).

Asked of the English generator's public API (`generators.prose`), so a hover
says a rule in the words the printed summary uses. A hover must answer even
where the generator cannot: a failure is no English, not an error.
"""
from __future__ import annotations

from generators.prose import english as prose
from rulelang import ir


def english(rs: ir.Ruleset, node, mode: str | None = None) -> str | None:
    """The Markdown of a statement, an expression, a block, an ability, a define, a
    procedure, a step or a watch; None where there is none."""
    try:
        return prose(rs, node, mode).markdown() or None
    except Exception:  # noqa: BLE001 - the generator's failure must not take the editor down
        return None
