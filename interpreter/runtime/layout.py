"""Where everything lives in a `State`, for one ruleset and mode.

Zone instances (the box first, then each zone: one per role if owned by
each, one per space of a grid), variable slots (one per player for a
per-player variable, and which players are out of the game), the printed
fields of the cards as columns, and the per-component state slots. The compiler generates
code against a layout; the engine, the view and the samplers read states
through it.
"""
from __future__ import annotations

from rulelang import ir

# the slots a mode of turns keeps: whose turn it is, the round's turn order, the place of the next in it
TURN_VARS = ("$current", "$turn_order", "$turn_next")


class Layout:
    """Where everything lives in a `State` for one ruleset and mode."""

    def __init__(self, rs: ir.Ruleset, mode: ir.Mode, step_limit: int):
        self.rs, self.mode, self.step_limit = rs, mode, step_limit
        self.roles = mode.roles
        self.role_index = {r: i for i, r in enumerate(self.roles)}
        # zone instances: the box first, then each zone (one per role if owned by
        # each; one per space of a board: a grid's bottom row first, left to
        # right, a gap of its map included; a graph's places as listed)
        self.zone_base: dict[str, int] = {"box": 0}
        self.instances: list[tuple[str, str | None]] = [("box", None)]  # (zone, owner)
        self.space: list[tuple[int, int] | None] = [None]  # (column, row) of each grid space
        self.place: list[str | None] = [None]  # the name of each graph place
        for z in rs.zones.values():
            self.zone_base[z.name] = len(self.instances)
            if z.kind == "grid":
                cells = [(x, y) for y in range(1, z.rows + 1) for x in range(1, z.columns + 1)]
                self.instances += [(z.name, z.owner)] * len(cells)
                self.space += cells
                self.place += [None] * len(cells)
            elif z.kind == "graph":
                self.instances += [(z.name, z.owner)] * len(z.places)
                self.space += [None] * len(z.places)
                self.place += list(z.places)
            elif z.owner == "each":
                self.instances += [(z.name, r) for r in self.roles]
                self.space += [None] * len(self.roles)
                self.place += [None] * len(self.roles)
            else:
                self.instances.append((z.name, z.owner))
                self.space.append(None)
                self.place.append(None)
        self.gap = [False] * len(self.instances)  # a grid map's blank: an instance, but no space
        self.neighbours: list[list[int]] = [[] for _ in self.instances]
        self.marks: dict[str, list] = {}  # mark field -> its value on each zone instance (None elsewhere)
        for z in rs.zones.values():
            if z.board:
                self._board(z)
        self.column_of = [s[0] if s else None for s in self.space]
        self.row_of = [s[1] if s else None for s in self.space]
        self.facing_up = [True] + [rs.zones[name].facing == "up" for name, _ in self.instances[1:]]
        # variables: a slot each, a per-player variable a slot per player (in seat
        # order); then, per player, when they left the game (0: still in it, k:
        # the k-th out) and why
        self.var_slot: dict[str, int] = {}
        self.initial_vars: list = []
        self.bounds: list[tuple[int, int | None, int | None]] = []  # (slot, min, max) of bounded numbers
        for v in rs.vars.values():
            self.var_slot[v.name] = first = len(self.initial_vars)
            width = len(self.roles) if v.owner == "each" else 1
            self.initial_vars += [v.initial] * width
            if v.low is not None or v.high is not None:
                self.bounds += [(first + i, v.low, v.high) for i in range(width)]
        self.out_slot = len(self.initial_vars)
        self.why_slot = self.out_slot + len(self.roles)
        self.initial_vars += [0] * len(self.roles) + [None] * len(self.roles)
        # a mode of turns (`turns:`): whose turn it is, the round's turn order, the next in it
        self.turn_slot = None
        if mode.turns is not None:
            self.turn_slot = len(self.initial_vars)
            for i, name in enumerate(TURN_VARS):
                self.var_slot[name] = self.turn_slot + i
            self.initial_vars += [None, [], 0]
        self.kind_of = [c.kind for c in rs.cards]
        # how each card lies wherever it is, if its type says (`facing:`); None: as its zone says
        self.card_facing = [None if rs.card_types[k].facing is None else rs.card_types[k].facing == "up"
                            for k in self.kind_of]
        self.columns: dict[str, list] = {}
        for card in rs.cards:
            for name, value in card.values.items():
                self.columns.setdefault(name, [None] * len(rs.cards))[card.id] = value
        self.is_kind = {k: [kind == k for kind in self.kind_of] for k in rs.card_types}
        self.kind_count = {k: self.kind_of.count(k) for k in rs.card_types}
        # per-component state: one slot per state name, a value per card (None
        # for cards whose type lacks it)
        self.state_slot: dict[str, int] = {}
        self.initial_state: list[list] = []
        for ct in rs.card_types.values():
            for sf in ct.state:
                if sf.name not in self.state_slot:
                    self.state_slot[sf.name] = len(self.initial_state)
                    self.initial_state.append([None] * len(rs.cards))
                column = self.initial_state[self.state_slot[sf.name]]
                for card in rs.cards:
                    if card.kind == ct.name:
                        column[card.id] = sf.initial

    def var_names(self) -> list[str]:
        """What each variable slot holds, in words (`life of alice`)."""
        names = [""] * len(self.initial_vars)
        for v in self.rs.vars.values():
            first = self.var_slot[v.name]
            if v.owner == "each":
                for i, r in enumerate(self.roles):
                    names[first + i] = f"{v.name} of {r}"
            else:
                names[first] = v.name
        for i, r in enumerate(self.roles):
            names[self.out_slot + i], names[self.why_slot + i] = f"{r} out", f"why {r} is out"
        if self.turn_slot is not None:
            names[self.turn_slot:self.turn_slot + 3] = ["whose turn it is", "the turn order", "the next turn"]
        return names

    def _board(self, z: ir.Zone) -> None:
        """A board's gaps, marks and neighbours, by zone instance."""
        base = self.zone_base[z.name]
        for i in z.gaps:
            self.gap[base + i] = True
        for mark in z.marks:  # declared: a map that uses none of a mark's values still has it (None everywhere)
            self.marks.setdefault(mark, [None] * len(self.instances))
        for i, marked in enumerate(z.space_marks):
            for mark, value in marked.items():
                self.marks.setdefault(mark, [None] * len(self.instances))[base + i] = value
        if z.kind == "graph":
            for a, b in z.links:
                self.neighbours[base + a].append(base + b)
            return
        for i in range(z.spaces):  # a grid: the spaces left, right, below and above, gaps left out
            x, y = i % z.columns, i // z.columns
            steps = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            self.neighbours[base + i] = [base + ny * z.columns + nx for nx, ny in sorted(steps, key=lambda s: (s[1], s[0]))
                                         if 0 <= nx < z.columns and 0 <= ny < z.rows
                                         and ny * z.columns + nx not in z.gaps]

    def board_range(self, board: str) -> tuple[int, int]:
        """The first zone instance of a board and how many spaces it has (gaps included)."""
        z = self.rs.zones[board]
        return self.zone_base[board], z.spaces


def move_card(st, card: int, dest: int, top: bool, facing_up: bool) -> None:
    """The one way a card changes zone (generated code inlines the same four steps)."""
    st.zones[st.where[card]].remove(card)
    if top:
        st.zones[dest].append(card)
    else:
        st.zones[dest].insert(0, card)
    st.where[card] = dest
    st.face_up[card] = facing_up
