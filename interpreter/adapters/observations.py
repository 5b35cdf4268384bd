"""The observation tensor: what a role sees, as numbers in a fixed layout
read off the zone and component declarations.

Everything is taken from the role's observation (`Viewer.observe`), so a
tensor shows exactly what the view shows — no card the role cannot see,
by id or by place. Sections, in order (a card's index is its id, a place
is a zone instance — a space of a board, one role's own zone — box left out):

    cards      cards x places   1 where the role sees the card
    order      cards            its place in its zone, counted from the bottom (1 = bottom)
    face_down  cards            1 for a card seen lying face down (an open zone, one's own)
    hidden     places           how many cards there the role cannot see
    state      cards x state    each seen card's component state (`state:`)
    vars       variables        every variable, a per-player one once per role (0 where the role may not see it);
                                a list as its length, then its first LIST_ITEMS items (0 past its end)
    out        roles            1 for a player out of the game
    round      1                the round number
    step       steps            the step being played (Setup first)
    rolls      die faces        how often each face came up since the role last decided (in its sight)
    decision   labels           the role's pending decision
    chosen     sub x actions    the action ids already chosen in it (sub-decision by sub-decision)

Numbers are as they are in the game (true is 1; a type's value is its
position in the type, 1 for the first; a role its seat; a card its id + 1;
none, and a card the role cannot see, is 0).
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang.types import CardT, ListT

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.state import State
from .actions import ActionSpace

LIST_ITEMS = 8  # a list variable's items in the tensor (a fixed layout cannot hold a list of any length)


@dataclass(frozen=True)
class Section:
    name: str
    offset: int
    shape: tuple[int, ...]
    rows: tuple[str, ...]  # what each index of the first axis means
    text: str

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


class Encoding:
    def __init__(self, game: Game, viewer: Viewer, actions: ActionSpace):
        self.game, self.viewer, self.actions = game, viewer, actions
        rs, layout = game.ruleset, game.layout
        self.places = {}  # the observation's zone names and board spaces -> place index
        place_names = []
        for zi in range(1, len(layout.instances)):
            space, place = viewer.space[zi], layout.place[zi]
            key = (layout.instances[zi][0], place) if place is not None else \
                viewer.names[zi] if space is None else (layout.instances[zi][0], space[0], space[1])
            self.places[key] = len(place_names)
            place_names.append(viewer.zone_text(zi))
        cards = tuple(f"{c.id}: {viewer.card(c.id)}" for c in rs.cards)
        self.state_names = list(layout.state_slot)
        self.vars = [(v.name, v.owner == "each", self.numbers_of(v.type)) for v in rs.vars.values()]
        var_rows = []
        for v in rs.vars.values():
            named = [f"{v.name} length", *(f"{v.name} {i}" for i in range(1, LIST_ITEMS + 1))] \
                if isinstance(v.type, ListT) else [v.name]
            var_rows += [f"{row} of {r}" for r in game.roles for row in named] if v.owner == "each" else named
        self.steps = ["Setup", *(s.name for s in game.mode.round), "Game over"]
        self.faces = {}  # (die, face value) -> index
        for die in rs.dice.values():
            for face in dict.fromkeys(die.faces):
                self.faces[die.name, face] = len(self.faces)
        self.labels = {label: i for i, label in enumerate(actions.labels)}
        n, p = len(cards), len(place_names)
        parts = [
            ("cards", (n, p), cards, "1 where the role sees the card (columns: the places)"),
            ("order", (n,), cards, "its place in its zone, counted from the bottom (1 = bottom)"),
            ("face_down", (n,), cards, "1 for a card seen lying face down"),
            ("hidden", (p,), tuple(place_names), "how many cards there the role cannot see"),
            ("state", (n, len(self.state_names)), cards, "component state: " + (", ".join(self.state_names) or "none")),
            ("vars", (len(var_rows),), tuple(var_rows), "the variables"),
            ("out", (len(game.roles),), tuple(game.roles), "1 for a player out of the game"),
            ("round", (1,), ("round",), "the round number"),
            ("step", (len(self.steps),), tuple(self.steps), "1 for the step being played"),
            ("rolls", (len(self.faces),), tuple(f"{d} {f}" for d, f in self.faces),
             "how often each face came up since the role last decided"),
            ("decision", (len(self.labels),), tuple(self.labels), "1 for the role's pending decision"),
            ("chosen", (actions.widest, len(actions)), tuple(f"sub-decision {i + 1}" for i in range(actions.widest)),
             "1 for the action id chosen at each sub-decision so far"),
        ]
        self.sections, offset = [], 0
        for name, shape, rows, text in parts:
            self.sections.append(Section(name, offset, shape, rows, text))
            offset += self.sections[-1].size
        self.size = offset
        self.at = {s.name: s.offset for s in self.sections}
        self.place_names = place_names

    def value_of(self, ty):
        """How a variable's value of this type becomes a number."""
        rs, roles = self.game.ruleset, self.game.roles
        if isinstance(ty, CardT):  # a card the role sees as its id + 1 (0: none, or a card it cannot see)
            return lambda v: v + 1 if isinstance(v, int) and not isinstance(v, bool) else 0
        enum = rs.enums.get(getattr(ty, "name", None))
        if enum is not None:
            return lambda v: 0 if v is None else enum.values.index(v) + 1
        return lambda v: 0 if v is None else roles.index(v) + 1 if isinstance(v, str) and v in roles else \
            float(v) if isinstance(v, (int, bool)) else 0

    def numbers_of(self, ty):
        """How a variable's value of this type becomes numbers: one, or a list's length and items."""
        if not isinstance(ty, ListT):
            number = self.value_of(ty)
            return lambda v: [number(v)]
        item = self.value_of(ty.item)
        return lambda v: [0] * (LIST_ITEMS + 1) if v is None else \
            [len(v), *(item(x) for x in v[:LIST_ITEMS]), *[0] * (LIST_ITEMS - min(len(v), LIST_ITEMS))]

    def encode(self, st: State, role: str, chosen: tuple[int, ...], out) -> None:
        """Write the role's tensor into `out` (a zeroed buffer of `size` numbers)."""
        obs = self.viewer.observe(st, role)
        at, places, p = self.at, self.places, len(self.place_names)
        n_state = len(self.state_names)
        seen = [(places[name], cards) for name, cards in obs["zones"].items()]
        for board, spaces in obs.get("boards", {}).items():
            if isinstance(spaces, dict):  # a graph: its places by name
                seen += [(places[board, name], cards) for name, cards in spaces.items()]
                continue
            for y, row in enumerate(spaces, 1):  # a grid: rows of spaces, None for a gap of its map
                seen += [(places[board, x, y], cards) for x, cards in enumerate(row, 1) if cards is not None]
        game = self.game
        for place, cards in seen:
            for i, card in enumerate(cards, 1):
                if card is None:
                    out[at["hidden"] + place] += 1
                    continue
                c = card["id"]
                out[at["cards"] + c * p + place] = 1
                out[at["order"] + c] = i
                if card.get("face_down"):
                    out[at["face_down"] + c] = 1
                for k, name in enumerate(self.state_names):
                    value = game.state_of(st, c, name)
                    out[at["state"] + c * n_state + k] = float(value) if isinstance(value, (int, bool)) else 0
        k = at["vars"]
        values = obs["vars"]
        for name, each, numbers in self.vars:  # a value the role may not see (`seen_by:`) is left at 0
            for value in ([values.get(name, {}).get(r) for r in game.roles] if each else [values.get(name)]):
                for x in numbers(value):
                    out[k] = x
                    k += 1
        for r in obs.get("out", ()):
            out[at["out"] + game.roles.index(r)] = 1
        out[at["round"]] = obs["round"]
        if obs["step"] in self.steps:
            out[at["step"] + self.steps.index(obs["step"])] = 1
        for event in obs.get("chance", ()):
            if event["type"] == "roll":
                for face in event.get("faces", ()):  # a secret roll shows no faces
                    out[at["rolls"] + self.faces[event["die"], face]] += 1
        if "decision" in obs:
            out[at["decision"] + self.labels[obs["decision"]["label"]]] = 1
            for i, a in enumerate(chosen):
                out[at["chosen"] + i * len(self.actions) + a] = 1

    def describe(self) -> list[str]:
        lines = [f"{self.size} numbers:"]
        for s in self.sections:
            shape = " x ".join(map(str, s.shape))
            lines.append(f"  {s.name:<10} [{s.offset}:{s.offset + s.size}]  {shape:<8} {s.text}")
        lines.append("cards (rows of cards, order, face_down, state):")
        lines += [f"  {row}" for row in self.sections[0].rows]
        lines.append("places (columns of cards; hidden):")
        lines += [f"  {i}: {name}" for i, name in enumerate(self.place_names)]
        for name in ("vars", "step", "rolls", "decision"):
            rows = next(s.rows for s in self.sections if s.name == name)
            if rows:
                lines.append(f"{name}: " + ", ".join(f"{i}: {r}" for i, r in enumerate(rows)))
        return lines
