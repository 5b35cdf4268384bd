"""The placeholders of a printing `text:`: `{param}`, and `{param?words|other words}` for a true/false one.

    text: "{p} fights {royal?the Royalty and its minions|{n} minions}"

`{p}` is the argument said where it stands. `{royal?A|B}` says A where the
argument is true and B where it is false (either may be empty, and may hold
`{param}`s of its own): a true/false argument read aloud as "true" or "false"
would say nothing a player can use. The loader checks the names; the
printed-rules checks (`printed.py`) warn where a text leaves a parameter out.
"""
from __future__ import annotations

import re

_REF = r"\{\w+\}"
CHOICE = re.compile(r"\{(\w+)\?((?:[^{}|]|" + _REF + r")*)(?:\|((?:[^{}|]|" + _REF + r")*))?\}")
PLAIN = re.compile(r"\{(\w+)\}")


def names(text: str) -> list[str]:
    """Every parameter a text names, in order, once each (those inside alternatives too)."""
    found = []
    for m in re.finditer(r"\{(\w+)(?:\?|\})", text):
        found.append(m.group(1))
    return list(dict.fromkeys(found))


def choose(text: str, decided: dict[str, bool]) -> str:
    """The text with each `{p?A|B}` whose argument is known replaced by A or B."""
    def pick(m):
        name, yes, no = m.group(1), m.group(2), m.group(3) or ""
        if name not in decided:
            return m.group(0)
        return yes if decided[name] else no
    return CHOICE.sub(pick, text)
