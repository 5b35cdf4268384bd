"""A scripted Hand of Fate player: plays its cards, buys Attack cards, fights what it can beat,
hunts the level's Royalty and the King. It reads only what its role sees (its observation) and
the options' text, and decides by rule — fast, where a search agent takes minutes a game — so
that tests and rule coverage reach the King, his Pursuit and his defeat.

    rulelang coverage hand-of-fate-ordeals --agents-from tests/helpers/hand_of_fate_player.py \\
        --agent player_1=scripted --agent player_2=scripted
"""
from __future__ import annotations

from interpreter.agents import register
from interpreter.agents.base import Agent, PlayerView

PLACES = {"north_west": (0, 2), "north": (1, 2), "north_east": (2, 2), "west": (0, 1), "centre": (1, 1),
          "east": (2, 1), "south_west": (0, 0), "south": (1, 0), "south_east": (2, 0)}
ATTACKS = ["Heavy Blow", "Shadow Step", "Battle Cry", "Hack"]  # best first
BUY = ["Berserker Greatsword", "Short Sword", "Heavy Blow", "Shadow Step", "Battle Cry", "Twin Daggers", "Long Road",
       "Iron Helm", "Silken Robes", "Buckler", "Health Elixir", "Recall", "Quick Wits", "Trail Rations", "Second Wind",
       "Captain's Pistol"]
POWER = {"Heavy Blow": 3, "Shadow Step": 2, "Hack": 2, "Battle Cry": 1}
EVENTS = {"Town", "Shrine", "Well", "The Forge", "Demon Trader", "Kallas's Favour"}
NEED = {"Jack": 8, "Queen": 10, "King": 12}  # the strength (below) to take each Royalty on


class ScriptedHandOfFate(Agent):
    name = "scripted"

    def __init__(self, seed: int, role: str):
        self.role = role

    def choose(self, view: PlayerView) -> int:
        options = view.options
        pick = getattr(self, "on_" + view.label, None)
        answer = pick(view, options) if pick is not None else None
        return options.index(answer) if answer in options else 0

    # ------------------------------------------------------------ what the player sees
    def seen(self, view: PlayerView) -> tuple[dict, dict, dict]:
        o = view.observation
        return o, o["vars"], o["zones"]

    def mine(self, zones: dict, zone: str) -> list[str]:
        return [c["card"] for c in zones.get(f"{zone} of {self.role}", []) if c]

    def strength(self, view: PlayerView) -> int:
        """Power ready for a fight: bound cards, the weapon, and about 1.5 a card of the Strike Bonus."""
        o, v, zones = self.seen(view)
        bound = sum(POWER.get(c.split(" (")[0], 1) for c in self.mine(zones, "bound"))
        gear = self.mine(zones, "gear")
        weapon = 3 if any("Greatsword" in g or "Kraken" in g for g in gear) else 2 if "Short Sword" in gear else 1
        strike = 3 if any("Greatsword" in g for g in gear) else 2
        return bound + weapon + int(strike * 1.5)

    def where(self, view: PlayerView) -> tuple[str | None, dict]:
        """My place, and each place's face-up Encounter (None if face down, absent if empty)."""
        o = view.observation
        me, encounters = None, {}
        seat = int(self.role.rsplit("_", 1)[1])
        for place, cards in o["boards"]["realm"].items():
            for c in cards:
                if c is None:
                    encounters[place] = None
                elif c["card"] == f"adventurer {seat}":
                    me = place
                elif not c["card"].startswith(("adventurer", "King token", "king token")):
                    encounters[place] = c["card"]
        return me, encounters

    def target(self, view: PlayerView) -> str | None:
        """Where to go: the King token, or the face-up Royalty Encounter when strong enough for it; else
        the nearest face-down Encounter, or a combat to grow stronger on."""
        me, encounters = self.where(view)
        o = view.observation
        strength = self.strength(view)
        for place, cards in o["boards"]["realm"].items():
            if any(c and "token" in c["card"].lower() for c in cards) and strength >= NEED["King"]:
                return place
        for place, name in encounters.items():
            if name in NEED and strength >= NEED[name]:
                return place
        hidden = [p for p, name in encounters.items() if name is None]
        combats = [p for p, name in encounters.items() if name and name not in EVENTS and name not in NEED]
        choices = hidden or combats
        return min(choices, key=lambda p: _steps(me, p)) if choices and me else None

    # ------------------------------------------------------------ decisions, by label
    def on_fatigue(self, view, options):
        return "keep" if "keep" in options else "play" if "play" in options else "release"

    def on_any_time(self, view, options):
        o, v, zones = self.seen(view)
        return "play" if v["health"][self.role] <= 5 and "play" in options else "pass"

    def on_play(self, view, options):
        for name in ATTACKS:
            if name in options:
                return name
        return options[0]

    def on_explore(self, view, options):
        o, v, zones = self.seen(view)
        me, encounters = self.where(view)
        here, health, strength = encounters.get(me), v["health"][self.role], self.strength(view)
        if "play" in options:
            return "play"
        if "fight_king" in options and (strength >= NEED["King"] or health >= 8):
            return "fight_king"
        if "activate" in options:
            need = NEED.get(here)
            if need is not None:
                if strength >= need:
                    return "activate"
            elif here not in EVENTS:  # a combat: Fame, Token Shards, and a stronger deck
                if health >= 5 and strength >= 6:
                    return "activate"
            elif here == "Shrine" and health <= 7 or here == "Demon Trader" and v["shards"][self.role] >= 3:
                return "activate"
        goal = self.target(view)
        if "move" in options and goal is not None and goal != me and (v["food"][self.role] > 0 or health > 6):
            return "move"
        if "activate" in options and here in ("Well", "Town", "Kallas's Favour"):
            return "activate"
        return "done"

    def on_move_to(self, view, options):
        goal = self.target(view)
        return min(options, key=lambda o: _steps(o.split()[-1], goal) if goal else 0)

    def on_acquire(self, view, options):
        return "play" if "play" in options else "buy" if "buy" in options else \
            "flourish" if "flourish" in options and "buy" not in options else "done"

    def on_buy(self, view, options):
        return next((o for name in BUY for o in options if o == name), options[0])

    on_exchange = on_buy

    def on_exchange_for(self, view, options):
        return "card" if "card" in options else "done"

    def on_assign(self, view, options):
        return "card" if "card" in options else "equipment" if "equipment" in options else "stop"

    def on_assign_card(self, view, options):
        # the strongest card at the enemy first listed (minions before the Royalty, as the rules say)
        return max(options, key=lambda o: POWER.get(o.split(",")[0].split(" (")[0], 1))

    def on_push_or_flee(self, view, options):
        o, v, zones = self.seen(view)
        pain = len([c for c in zones.get("enemies", []) if c])
        return "push" if "push" in options and v["health"][self.role] > pain + 3 else "flee"

    def on_loot(self, view, options):
        return "relic" if "relic" in options else "exchange" if "exchange" in options else "skip"

    def on_king_attacks(self, view, options):
        o, v, zones = self.seen(view)
        return "fight" if self.strength(view) >= NEED["King"] or v["health"][self.role] <= 5 else "retreat"


def _steps(a: str | None, b: str | None) -> int:
    if a not in PLACES or b not in PLACES:
        return 0
    (x, y), (u, w) = PLACES[a], PLACES[b]
    return abs(x - u) + abs(y - w)


register("scripted", ScriptedHandOfFate)
