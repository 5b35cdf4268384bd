"""Rulesets as the page names them — a file of the folder or a bundled one,
as saved or as the editor holds it now — read, checked and compiled once.

The text the editor holds is read as if it were the file (its folder is
where `extends:` looks), so what the page plays, reads and simulates is what
it shows, saved or not.
"""
from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from interpreter.engine.game import Game
from rulelang import ir, load_text
from rulelang.errors import Diagnostic, RulesetError
from rulelang.files import BUNDLED
from rulelang.labels import card_label

from .folder import Folder

KEPT = 24  # rulesets and games kept compiled


@dataclass(frozen=True)
class Named:
    """A ruleset as a request names it: its file, and its text if the editor's differs from the file's."""
    name: str
    text: str | None = None
    params: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, data: dict) -> Named:
        params = data.get("params") or {}
        if not isinstance(params, dict) or len(params) > 200:
            raise RulesetError([Diagnostic(None, "parameters are a mapping of names to values")])
        text = data.get("text")
        return cls(str(data.get("path", "")), text if isinstance(text, str) else None,
                   tuple(sorted((str(k), _param(v)) for k, v in params.items() if v not in (None, ""))))


def _param(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Rulesets:
    """Rulesets and games of one folder, kept compiled (a few at a time)."""

    def __init__(self, folder: Folder):
        self.folder = folder
        self._rulesets: OrderedDict = OrderedDict()
        self._games: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def text(self, named: Named) -> str:
        return named.text if named.text is not None else self.folder.read(named.name)

    def ruleset(self, named: Named) -> ir.Ruleset:
        """The checked ruleset (RulesetError, located, when it is not)."""
        path = str(self.folder.path_of(named.name))
        text = self.text(named)
        key = (path, hashlib.sha256(text.encode()).hexdigest(), named.params)
        with self._lock:
            if key in self._rulesets:
                self._rulesets.move_to_end(key)
                return self._rulesets[key]
        rs = load_text(text, path, dict(named.params))
        with self._lock:
            self._rulesets[key] = rs
            while len(self._rulesets) > KEPT:
                self._rulesets.popitem(last=False)
        return rs

    def game(self, named: Named, mode: str | None) -> Game:
        rs = self.ruleset(named)
        key = (rs.source_hash, tuple(sorted(rs.param_values.items())), mode or rs.default_mode, rs.files)
        with self._lock:
            if key in self._games:
                self._games.move_to_end(key)
                return self._games[key]
        game = Game(rs, mode)
        with self._lock:
            self._games[key] = game
            while len(self._games) > KEPT:
                self._games.popitem(last=False)
        return game

    def shown(self, file: str | None) -> str | None:
        """A file a diagnostic names, as the page names it: by its path in the folder, a
        bundled ruleset as `bundled:NAME`; never by a path outside the folder."""
        if file is None:
            return None
        real = Path(os.path.realpath(file))
        if real.is_relative_to(self.folder.root):
            return self.folder.name(real)
        if real.is_relative_to(BUNDLED):
            return "bundled:" + real.stem
        return real.name


def describe(rs: ir.Ruleset) -> dict:
    """What the page offers to choose from: modes and their roles, parameters, and for setting
    up a scenario the zones, variables and card labels."""
    modes = [{"name": m.name, "title": m.title, "roles": list(m.roles),
              "steps": [s.name for s in m.round]} for m in rs.modes.values()]
    params = []
    for p in rs.params.values():
        params.append({"name": p.name, "text": p.text, "type": str(p.type), "default": p.default,
                       "value": rs.param_values.get(p.name), "choices": list(p.choices),
                       "low": p.low, "high": p.high})
    zones = [{"name": z.name, "kind": z.kind, "owner": z.owner, "text": z.text,
              "holds": list(z.holds), "places": list(z.places), "columns": z.columns, "rows": z.rows}
             for z in rs.zones.values()]
    variables = [{"name": v.name, "type": str(v.type), "owner": v.owner, "initial": v.initial,
                  "text": v.text, "low": v.low, "high": v.high} for v in rs.vars.values()]
    labels: dict[str, list[str]] = {}
    for card in rs.cards:
        labels.setdefault(card.kind, [])
        label = card_label(rs, card)
        if label not in labels[card.kind]:
            labels[card.kind].append(label)
    return {"name": rs.name, "title": rs.title, "modes": modes, "params": params, "zones": zones,
            "vars": variables, "cards": labels}
