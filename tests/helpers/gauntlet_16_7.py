"""Positions in 16-7: The Gauntlet, arranged by hand, with the dice given by
the test: the game runs with explicit chance, so every die waits for the face
a test names (`roll(4, 5)`) and every random pick for its outcome."""
from __future__ import annotations

from functools import lru_cache

from helpers import Position
from interpreter.engine.game import Game
from rulelang import load_ruleset

RULESET = "gauntlet-16-7"


@lru_cache(maxsize=None)
def game_167(players: int = 3, explicit_chance: bool = True, **params) -> Game:
    """One compiled game per count and parameters (a game holds no state of its
    own); with explicit chance, for positions whose dice a test names."""
    values = {"players": str(players), **{k: str(v) for k, v in params.items()}}
    return Game(load_ruleset(RULESET, values), explicit_chance=explicit_chance)


class Gauntlet167(Position):
    """Every pawn in room 1, every player's zones empty, the round's per-player
    values as at its start; then what a test arranges."""

    def __init__(self, players: int = 3, seed: int = 0, **params):
        super().__init__(game_167(players, True, **params), seed)
        self.players = list(self.game.roles)
        self.put("deck", *[c for k in ("green", "blue", "red") for c in self.game.cards(k)])
        for p in self.players:
            for zone in ("hand", "played", "taken", "effects", "foes"):
                self.game.arrange(self.st, zone, [], owner=p)
            self.room(p, 1)
        self.st.round = 1

    # ------------------------------------------------------------ arranging
    def player(self, seat: int) -> str:
        return self.players[seat - 1]

    def pawn(self, p: str) -> int:
        return self.card("pawn", seat=self.players.index(p) + 1)

    def room(self, p: str, n: int) -> "Gauntlet167":
        """Put p's pawn in room n."""
        pawn = self.pawn(p)
        for x in range(1, 14):
            here = self.game.zone_index("rooms", place=f"room_{x}")
            if pawn in self.st.zones[here]:
                self.game.arrange(self.st, "rooms", [c for c in self.st.zones[here] if c != pawn], place=f"room_{x}")
        there = self.game.zone_index("rooms", place=f"room_{n}")
        self.game.arrange(self.st, "rooms", [*self.st.zones[there], pawn], place=f"room_{n}")
        return self

    def spare(self, name: str) -> int:
        """A copy of an authored card, by its name, still in the draw pile."""
        deck = self.st.zones[self.game.zone_index("deck")]
        ids = [c for k in ("green", "blue", "red") for c in self.game.cards(k, name=name) if c in deck]
        assert ids, f"no {name} left in the draw pile"
        return ids[0]

    def deal(self, zone: str, p: str, names) -> "Gauntlet167":
        cards = []
        for name in names:
            cards.append(self.spare(name))
            self.put("deck", *[c for c in self.st.zones[self.game.zone_index("deck")] if c != cards[-1]])
        self.game.arrange(self.st, zone, [*self.st.zones[self.game.zone_index(zone, p)], *cards], owner=p)
        return self

    def give(self, p: str, *names: str) -> "Gauntlet167":
        """Put these cards (by name) from the draw pile in p's hand."""
        return self.deal("hand", p, names)

    def on(self, p: str, *names: str) -> "Gauntlet167":
        """Put these cards from the draw pile in play on p (revealed green cards, red cards played)."""
        return self.deal("effects", p, names)

    def set(self, var: str, p: str | None, value) -> "Gauntlet167":
        """A variable's value (p: whose, for a per-player variable)."""
        slot = self.game.layout.var_slot[var] + (self.players.index(p) if p is not None else 0)
        self.st.vars[slot] = value
        return self

    def get(self, var: str, p: str | None = None):
        slot = self.game.layout.var_slot[var] + (self.players.index(p) if p is not None else 0)
        return self.st.vars[slot]

    def bridge(self) -> int:
        return self.card("drawbridge")

    # ------------------------------------------------------------ playing
    def roll(self, *faces: int) -> "Gauntlet167":
        """The next dice come up with these faces (a d6's face f is outcome f - 1; the spinner's too)."""
        for f in faces:
            c = self.game.chance(self.st)
            assert c is not None and c.kind == "roll", f"no die is waiting for a {f} ({self.waiting()})"
            self.game.apply_chance(self.st, f - 1)
        return self

    def pick(self, outcome: int = 0) -> "Gauntlet167":
        c = self.game.chance(self.st)
        assert c is not None and c.kind == "pick", f"no random pick is waiting ({self.waiting()})"
        self.game.apply_chance(self.st, outcome)
        return self

    def waiting(self) -> str:
        """What the game waits for: a decision (`who: label`), a die, a pick, or the end."""
        if self.game.is_terminal(self.st):
            return "the game is over"
        c = self.game.chance(self.st)
        if c is not None:
            return f"{c.kind} at {c.at}"
        d = self.decision
        return f"{d.role}: {d.label} {self.options()}"

    def asks(self, role: str, label: str) -> bool:
        d = self.decision
        return d is not None and d.role == role and d.label == label

    def where(self, p: str) -> int:
        """The room p's pawn is in."""
        return int(self.game.layout.place[self.st.where[self.pawn(p)]].removeprefix("room_"))

    def cards_in(self, zone: str, p: str | None = None) -> list[str]:
        return [self.viewer.card(c) for c in self.st.zones[self.game.zone_index(zone, p)]]

    def state(self, card: int, name: str):
        return self.game.state_of(self.st, card, name)

    def outcome(self):
        return self.game.outcome(self.st)
