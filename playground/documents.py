"""The Read panel: the printed rules, the quick reference and the cards,
made by the same generators as `rulelang summary` and `rulelang cards`.

A document is kept under a random name and served on its own address
(`/doc/NAME`) with a policy that lets it run nothing and load nothing
(the page shows it in a sandboxed frame); the generators escape the
ruleset's text in it as they do for print. Cards come back as the SVG
the printer draws, cleaned as it cleans them, and the page shows each as
an image (an image's scripts never run).
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from generators.components import printed_cards
from generators.publish import CardOptions, card_images, summary_file
from rulelang import ir
from rulelang.labels import card_label

KEPT = 40  # documents kept for the frames that show them
MOST_CARDS = 400  # distinct faces sent at once (the bundled rulesets: under 170)
DOCUMENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; sandbox"


class Documents:
    def __init__(self):
        self._docs: OrderedDict[str, bytes] = OrderedDict()
        self._made: dict = {}  # (what was made, from what) -> its name, while kept
        self._lock = threading.Lock()

    def rules(self, rs: ir.Ruleset, mode: str | None, quick: bool) -> str:
        """The name of the summary (or quick reference) of a ruleset, made once."""
        key = (rs.source_hash, tuple(sorted(rs.param_values.items())), rs.files, mode, quick)
        with self._lock:
            name = self._made.get(key)
            if name in self._docs:
                return name
        data, _ = summary_file(rs, "html", mode, quick)
        return self._keep(key, data)

    def _keep(self, key, data: bytes) -> str:
        name = secrets.token_hex(12)
        with self._lock:
            self._docs[name] = data
            self._made[key] = name
            while len(self._docs) > KEPT:
                old, _ = self._docs.popitem(last=False)
                self._made = {k: v for k, v in self._made.items() if v != old}
        return name

    def get(self, name: str) -> bytes | None:
        with self._lock:
            return self._docs.get(name)


def cards(rs: ir.Ruleset) -> dict:
    """Each distinct card face as the printer draws it, with how many of it the game has."""
    printed = printed_cards(rs)
    if not printed:
        return {"cards": [], "warnings": [], "note": "this ruleset prints no cards"}
    files, warnings = card_images(rs, CardOptions(), "svg")
    faces: OrderedDict[str, dict] = OrderedDict()
    for card, (_, svg) in zip(printed, files):
        text = svg.decode("utf-8")
        face = faces.setdefault(text, {"label": card_label(rs, card), "kind": card.kind, "count": 0, "svg": text})
        face["count"] += 1
    shown = list(faces.values())
    note = f"the first {MOST_CARDS} of {len(shown)} faces" if len(shown) > MOST_CARDS else None
    return {"cards": shown[:MOST_CARDS], "warnings": warnings, "note": note}
