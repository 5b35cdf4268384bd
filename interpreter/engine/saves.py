"""A game saved at a decision, as JSON, and resumed later.

The file names the ruleset and its hash: a state refers to positions in the
compiled rules, so it resumes only under the very ruleset that saved it.
"""
from __future__ import annotations

import json

from rulelang import ir
from rulelang.files import Unreadable, read_bytes

from ..runtime.state import State
from .game import Game
from .invariants import InvariantBroken

STATE_FORMAT = "rulelang-state/1"
SAVE_BYTES = 16 * 2**20  # a state of 10,000 components is a few hundred kilobytes


class SaveError(Exception):
    pass


def save(path: str, ruleset: ir.Ruleset, ruleset_path: str | None, mode: str, seed: int,
         agents: dict[str, str], st: State) -> None:
    data = {"format": STATE_FORMAT, "ruleset": ruleset.name, "path": ruleset_path,
            "hash": ruleset.source_hash, "mode": mode, "params": dict(ruleset.param_values),
            "seed": seed, "agents": agents, "state": st.to_json()}
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror}") from None


def load(path: str) -> dict:
    """The saved record, its "state" as saved (`restore` makes it a `State`)."""
    try:
        data = json.loads(read_bytes(path, SAVE_BYTES, "a saved game"))
    except (Unreadable, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read the saved game {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise SaveError(f"{path} is not a saved rulelang game")
    return data


def restore(game: Game, data: dict, path: str) -> State:
    """The saved state, for the game compiled from the very ruleset that saved it."""
    try:
        st = game.state_from_json(data["state"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SaveError(f"{path} holds a damaged game state ({exc!r})") from None
    try:  # a saved file is input like any other: never play on from a damaged state
        game.check_state(st)
    except InvariantBroken as exc:
        raise SaveError(f"{path} holds a damaged game state: {exc.diagnostic.message}") from None
    return st


def check_same_ruleset(data: dict, ruleset: ir.Ruleset) -> None:
    if data["hash"] != ruleset.source_hash:
        raise SaveError(f"the saved game was played under another version of {data['ruleset']} "
                        f"(hash {data['hash']}, now {ruleset.source_hash}); it cannot resume")
