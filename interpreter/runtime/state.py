"""The game state: plain data only, cloned cheaply, saved to JSON.

    zones     card ids in each zone instance, bottom (left) first
    where     the zone instance of each card
    face_up   whether each card is face up
    vars      the ruleset's variables, by slot
    props     per-component state: a list per state name, a value per card
    rng       the RNG state (an int)
    stack     the flow position: frames [program, pc, locals]
    pending   the decision waiting for an answer, or None
    outcome   the result once the game has ended, or None
"""
from __future__ import annotations

import copy


class State:
    __slots__ = ("zones", "where", "face_up", "vars", "rng", "round", "steps", "decisions",
                 "stack", "pending", "outcome", "props")

    def __init__(self, zones, where, face_up, vars, rng, round=0, steps=0, decisions=0,
                 stack=None, pending=None, outcome=None, props=None):
        self.zones: list[list[int]] = zones
        self.where: list[int] = where
        self.face_up: list[bool] = face_up
        self.vars: list = vars
        self.rng: int = rng
        self.round: int = round
        self.steps: int = steps
        self.decisions: int = decisions
        self.stack: list[list] = stack if stack is not None else []
        self.pending: dict | None = pending
        self.outcome: dict | None = outcome
        self.props: list[list] = props if props is not None else []

    def clone(self) -> "State":
        return State(
            [z[:] for z in self.zones], self.where[:], self.face_up[:], self.vars[:], self.rng,
            self.round, self.steps, self.decisions,
            [[p, pc, copy.deepcopy(env)] for p, pc, env in self.stack],
            self.pending, self.outcome,  # pending and outcome are never mutated in place
            [p[:] for p in self.props])

    def to_json(self) -> dict:
        return {
            "zones": self.zones, "where": self.where, "face_up": self.face_up, "vars": self.vars,
            "rng": self.rng, "round": self.round, "steps": self.steps, "decisions": self.decisions,
            "stack": self.stack, "pending": self.pending, "outcome": self.outcome, "props": self.props,
        }

    @classmethod
    def from_json(cls, data: dict) -> "State":
        pending = data["pending"]
        if pending is not None:
            pending = dict(pending, options=[tuple(o) if isinstance(o, list) else o for o in pending["options"]])
        return cls(data["zones"], data["where"], data["face_up"], data["vars"], data["rng"],
                   data["round"], data["steps"], data["decisions"],
                   [list(f) for f in data["stack"]], pending, data["outcome"], data.get("props", []))
