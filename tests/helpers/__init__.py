"""Shared test helpers: games, positions arranged by hand, and running the
command line as a user would. Test modules import them from here (and the
helpers of a kind from the modules beside this one)."""
from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import RulesetError, ir, load_ruleset, load_text

ROOT = Path(__file__).resolve().parent.parent.parent


def bundled(name: str, params: dict | None = None) -> ir.Ruleset:
    """A bundled ruleset (or a ruleset file) with its defaults or these parameters, loaded once a
    process: test modules read them while being collected, and the IR is frozen, so one copy serves all."""
    return _ruleset(name, _key(params or {}))


def compiled(name: str, mode: str | None = None, params: dict | None = None, **options) -> Game:
    """`Game(bundled(name, params), mode, **options)`, compiled once a process: a game holds no
    state of its own (each game's state is a State), and compiling is most of the cost of many
    tests (a second for the race or Hand of Fate), so the tests that only play a game share it."""
    rs = bundled(name, params)
    return _game(name, mode or rs.default_mode, _key(params or {}), tuple(sorted(options.items())))


def _key(params: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in params.items()))


@cache
def _ruleset(name: str, params: tuple) -> ir.Ruleset:
    return load_ruleset(name, dict(params) or None)


@cache
def _game(name: str, mode: str, params: tuple, options: tuple) -> Game:
    return Game(_ruleset(name, params), mode, **dict(options))


def assert_plays_as_plain(fast: Game, plain: Game, seeds: int, step: int) -> None:
    """The optimised and the plain program of one ruleset offer the same decisions and end the same,
    for `seeds` games with answers spread over the options (`step` apart)."""
    for seed in range(seeds):
        a, b = fast.new_state(seed), plain.new_state(seed)
        while not fast.is_terminal(a):
            d, e = fast.decision(a), plain.decision(b)
            assert (d.label, d.options) == (e.label, e.options), seed
            i = (seed * step + a.decisions) % len(d.options)
            fast.apply(a, i)
            plain.apply(b, i)
        assert fast.outcome(a) == plain.outcome(b), seed


def game_for(ruleset_name: str = "twenty-trials", mode: str | None = None, **params) -> Game:
    """A bundled ruleset's game with these parameters, compiled once a process (`compiled`)."""
    return compiled(ruleset_name, mode, params)


class Position:
    """A game state arranged by hand, to check what the rules offer there."""

    def __init__(self, game: Game, seed: int = 0):
        self.game, self.viewer = game, Viewer(game)
        self.st = game.new_state(seed)

    def card(self, kind: str, /, **fields) -> int:
        ids = self.game.cards(kind, **fields)
        assert ids, f"no {kind} card with {fields}"
        return ids[0]

    def put(self, zone: str, *cards: int, owner: str | None = None) -> "Position":
        """Make a zone (`owner`'s own, for a zone each player has) hold these cards, bottom first."""
        self.game.arrange(self.st, zone, list(cards), owner)
        return self

    def var(self, name: str, owner: str | None = None):
        """A variable's value (`owner`'s, for a per-player variable)."""
        return self.st.vars[self._slot(name, owner)]

    def set(self, name: str, value, owner: str | None = None) -> "Position":
        self.st.vars[self._slot(name, owner)] = value
        return self

    def _slot(self, name: str, owner: str | None) -> int:
        layout = self.game.layout
        return layout.var_slot[name] + (layout.role_index[owner] if owner is not None else 0)

    def start(self, step: str) -> "Position":
        self.game.start_step(self.st, step)
        return self

    @property
    def decision(self):
        return self.game.decision(self.st)

    def options(self) -> list[str]:
        return [self.viewer.option(self.st, i) for i in self.game.legal_actions(self.st)]

    def choose(self, text: str) -> "Position":
        self.game.apply(self.st, self.options().index(text))
        return self

    def zone(self, name: str, owner: str | None = None) -> list[str]:
        return [self.viewer.card(c) for c in self.st.zones[self.game.zone_index(name, owner)]]


def refusal(text: str, name: str = "bad.yaml") -> list:
    """The diagnostics with which the front end refuses a ruleset's text."""
    try:
        load_text(text, name)
    except RulesetError as exc:
        return exc.diagnostics
    raise AssertionError("the ruleset was accepted")


def position(text: str, needle: str) -> tuple[int, int]:
    """The line and column (from 1) where `needle` first is in `text`."""
    before = text[:text.index(needle)]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def rulelang(*args: str, input: str | None = None, cwd=None, env=None, **options) -> subprocess.CompletedProcess:
    """Run the command line as a user would: with Python's compiled-module cache,
    even where the environment turns it off (the suite starts the command about
    150 times; compiling rulelang's modules each time cost a fifth of its run)."""
    env = {k: v for k, v in (env if env is not None else os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True,
                          input=input, cwd=cwd or ROOT, timeout=120, env=env, **options)
