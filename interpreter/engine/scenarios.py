"""Scenarios: a position set up by hand — cards placed, variables set — that
a game starts from instead of its first turn.

A designer tests an ending without playing to it: the last trial of Twenty
Trials with a chosen hand, a Gauntlet with a Gobbot one row from the wall.
A scenario is a small YAML file, read and checked like a ruleset (every
problem located, with a hint), for one ruleset:

    scenario: The last trial
    ruleset: twenty-trials          # the `game:` it is written for
    mode: challenger                # optional; the ruleset's first by default
    params: {trial_modifiers: true} # optional
    round: 20                       # optional: the round it starts in
    step: Engage the trial          # optional: the step it starts at (the round's first)
    zones:                          # each zone named holds exactly these cards, bottom first
      hand: [6 light sun, 7 light sun, 8 dark sun, 1 dark moon]
      trial_deck: [strength 9]
      hand: {alice: [king], bob: []}            # a zone each player has: by player
      gauntlet: {"2,3": [gobbot 1 2 2]}         # a grid: by space; a graph: by place
    others: action_deck             # where cards pushed out of those zones go (default: box, out of play)
    shuffle: [action_deck]          # shuffled once all is placed
    vars: {score: 3, life: {alice: 2, bob: 5}}
    states: ...                     # a card's state: {card: LABEL, STATE: VALUE} in a zone's list

Cards are named as players name them (their labels); a label named twice
means two copies. A game starts from a scenario as `start(game, seed)`
says: the rules' own setup runs from the seed, then the scenario's cards
and values are placed, the zones it names shuffled from the game's own
random numbers, and play begins at the start of its step. The same
scenario and seed always give the same game.

A scenario can set no more than the rules could hold — cards only where a
zone may hold them, values of their variable's type within its bounds, a
step's start, never a pending decision, an outcome or the random numbers —
and the engine's invariants are checked once it is placed. Cards lie as
their zone turns them: a scenario cannot show a card the rules hide. So a
save of a game started from a scenario (which carries the scenario, as a
save carries its seed) can be no more forged than a scenario can be written.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TypeGuard
from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError, Source, Span, did_you_mean
from rulelang.files import Unreadable, decode, read_bytes
from rulelang.labels import card_label
from rulelang.limits import DEFAULT, Limits
from rulelang.types import BOOL, INT, ROLE, TEXT, CardT, EnumT
from rulelang.yamltree import YList, YMap, YNode, YScalar, load_yaml

from ..runtime import rng
from ..runtime.layout import move_card
from ..runtime.state import State
from .game import Game

SCENARIO_BYTES = 1_000_000
KEYS = ("scenario", "text", "ruleset", "mode", "params", "round", "step", "zones", "others", "shuffle", "vars")


@dataclass(frozen=True)
class Scenario:
    """A scenario file as read, its shape checked; `placed(game)` checks it against a game."""
    name: str
    path: str
    text: str  # the file's text: what a save and a log carry
    ruleset: str
    mode: str | None
    params: dict[str, str]
    root: YMap

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]

    def placed(self, game: Game) -> "Placement":
        """What this scenario places in a game of these rules; every problem located (RulesetError)."""
        return _Resolver(self, game).placement()

    def start(self, game: Game, seed: int) -> State:
        """A game of `game`'s rules with seed `seed`, begun from this scenario."""
        return self.placed(game).start(seed)

    def record(self, everything: bool = True) -> dict:
        """What a save or a log header keeps of it: its text for the referee; only its name
        and hash for a player's log (its text may name cards that player cannot see)."""
        return {"name": self.name, "hash": self.hash, **({"path": self.path, "text": self.text} if everything else {})}


def read_scenario(text: str, path: str, limits: Limits = DEFAULT) -> Scenario:
    """A scenario's text, its shape checked (RulesetError, located)."""
    root = load_yaml(text, path, limits)
    problems: list[Diagnostic] = []
    if not isinstance(root, YMap):
        raise RulesetError([Diagnostic(root.span, "a scenario is a mapping of keys (scenario:, ruleset:, zones:, ...)")])
    for key, (span, _) in root.entries.items():
        if key not in KEYS:
            problems.append(Diagnostic(span, f"a scenario has no key '{key}'",
                                       did_you_mean(key, KEYS) or "keys: " + ", ".join(KEYS)))
    game = root.get("ruleset")
    if not _is_text(game):
        problems.append(Diagnostic(game.span if game else root.span, "a scenario names the ruleset it is for: "
                                   "ruleset: NAME (the ruleset's `game:`)"))
    mode = root.get("mode")
    if mode is not None and not _is_text(mode):
        problems.append(Diagnostic(mode.span, "mode: names one of the ruleset's modes"))
    params = root.get("params")
    if params is not None and (not isinstance(params, YMap) or any(
            isinstance(v, (YMap, YList)) for _, v in params.entries.values())):
        problems.append(Diagnostic(params.span, "params: is a mapping of parameter names to values"))
    if problems or not _is_text(game):
        raise RulesetError(problems)
    name = root.get("scenario")
    given = params.entries.items() if isinstance(params, YMap) else ()
    return Scenario(str(name.value) if _is_text(name) else path, path, text, str(game.value),
                    str(mode.value) if _is_text(mode) else None,
                    {k: _param_text(v.value) if isinstance(v, YScalar) else "" for k, (_, v) in given}, root)


def load_scenario(path: str, limits: Limits = DEFAULT) -> Scenario:
    try:
        data = read_bytes(path, min(SCENARIO_BYTES, limits.file_bytes), "a scenario")
    except Unreadable as exc:
        raise RulesetError([Diagnostic(None, str(exc))]) from None
    return read_scenario(decode(data, path), path, limits)


def scenario_of(record: dict, limits: Limits = DEFAULT) -> Scenario:
    """The scenario a save or a log carries (its `record()`)."""
    return read_scenario(record["text"], record.get("path") or record.get("name") or "scenario", limits)


def _is_text(node: YNode | None) -> TypeGuard[YScalar]:
    return isinstance(node, YScalar) and isinstance(node.value, str) and node.value.strip() != ""


def _param_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Placement:
    """A scenario resolved against one game: zone instance -> cards, and the rest."""
    game: Game
    zones: tuple[tuple[int, tuple[int, ...]], ...]
    others: int  # the zone instance cards pushed out go to (0: the box)
    shuffle: tuple[int, ...]
    vars: tuple[tuple[int, object], ...]  # (slot, value)
    states: tuple[tuple[int, int, object], ...]  # (state slot, card, value)
    round: int | None
    step: str

    def start(self, seed: int) -> State:
        game, layout = self.game, self.game.layout
        st = game.new_state(seed)  # the rules' own setup, from the seed
        placed = {c for _, cards in self.zones for c in cards}
        others = self.others
        for zi, cards in self.zones:
            for c in list(st.zones[zi]):
                if c not in placed:  # pushed out: to `others:` if it may hold the card, else to the box
                    to = others if others and layout.kind_of[c] in self.holds(others) else 0
                    move_card(st, c, to, True, _facing(game, c, to))
            for c in cards:
                move_card(st, c, zi, True, _facing(game, c, zi))
        for zi in self.shuffle:
            st.rng = rng.shuffle(st.rng, st.zones[zi])
        for slot, value in self.vars:
            st.vars[slot] = value
        for slot, card, value in self.states:
            st.props[slot][card] = value
        if self.round is not None:
            st.round = self.round
        if st.events is not None:
            st.events.clear()  # the setup's rolls and picks are not this game's news
        game.check_state(st)
        game.start_step(st, self.step)
        return st

    def holds(self, zi: int) -> set[str]:
        """The card types a zone instance may hold in this game."""
        name = self.game.layout.instances[zi][0]
        zone, possible = self.game.ruleset.zones[name], self.game.possible
        kinds = set(zone.holds or self.game.ruleset.card_types)
        return kinds & set(possible.get(name, ())) if possible is not None else kinds


def _facing(game: Game, card: int, zi: int) -> bool:
    own = game.layout.card_facing[card]  # a card type's own facing wins over the zone's
    return game.layout.facing_up[zi] if own is None else own


class _Resolver:
    """Checks a scenario against a game and resolves its names; collects every problem."""

    def __init__(self, scenario: Scenario, game: Game):
        self.scenario, self.game = scenario, game
        self.rs, self.layout = game.ruleset, game.layout
        self.problems: list[Diagnostic] = []
        self.labels: dict[str, list[int]] = {}
        for card in self.rs.cards:
            self.labels.setdefault(card_label(self.rs, card), []).append(card.id)
        self.taken: set[int] = set()

    def error(self, span: Span | None, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(span, message, hint))

    def placement(self) -> Placement:
        s, root = self.scenario, self.scenario.root
        if s.ruleset != self.rs.name:
            self.error(root.value_span("ruleset"), f"this scenario is for '{s.ruleset}', not {self.rs.name}",
                       f"write ruleset: {self.rs.name} if it fits these rules")
        if s.mode is not None and s.mode != self.game.mode.name:
            self.error(root.value_span("mode"), f"this scenario is for mode '{s.mode}', and the game is of mode "
                                                f"'{self.game.mode.name}'")
        cards, states = self.zones(root.get("zones"))
        others = self.one_zone(root.get("others"), "others") if "others" in root else 0
        if others and any(zi == others for zi, _ in cards):
            self.error(root.value_span("others"), "others: is where cards pushed out of the zones listed go, "
                                                  "so it cannot be one of them")
        shuffle = self.shuffled(root.get("shuffle"))
        values = self.variables(root.get("vars"))
        round_ = self.round(root.get("round"))
        step = self.step(root.get("step"))
        if self.problems:
            raise RulesetError(self.problems)
        return Placement(self.game, cards, others, shuffle, values, tuple(states), round_, step)

    # ------------------------------------------------------------ zones and cards
    def zones(self, node: YNode | None) -> tuple[tuple, list]:
        out: list = []
        states: list = []  # (state slot, card, value)
        if node is None:
            return (), states
        if not isinstance(node, YMap):
            self.error(node.span, "zones: is a mapping of zone names to lists of cards")
            return (), states
        seen: set[int] = set()
        for name, (span, value) in node.entries.items():
            for zi, where, cards in self.instances(name, span, value):
                if zi in seen:
                    self.error(where, f"{self.zone_text(zi)} is given twice")
                seen.add(zi)
                out.append((zi, tuple(self.cards(zi, cards, states))))
        return tuple(out), states

    def instances(self, name: str, span: Span, value: YNode):
        """(zone instance, where, its list node) for a `zones:` entry."""
        base, _, owner = name.partition(" of ")
        zone = self.rs.zones.get(base.strip())
        if zone is None:
            self.error(span, f"no zone '{base.strip()}' in {self.rs.name}", did_you_mean(base.strip(), self.rs.zones))
            return
        keyed = zone.board or zone.owner == "each"
        if owner:
            if zone.owner != "each":
                self.error(span, f"{zone.name} is not a zone each player has; name it alone")
                return
            role = self.role(owner.strip(), span)
            if role is not None:
                yield self.game.zone_index(zone.name, role), span, value
            return
        if not keyed:
            yield self.game.zone_index(zone.name), span, value
            return
        what = "space (\"column,row\")" if zone.kind == "grid" else "place" if zone.board else "player"
        if not isinstance(value, YMap):
            self.error(value.span, f"{zone.name} is a zone {'of many spaces' if zone.board else 'each player has'}: "
                                   f"give its cards by {what}, as {{KEY: [cards]}}")
            return
        for key, (kspan, cards) in value.entries.items():
            zi = self.part(zone, key, kspan)
            if zi is not None:
                yield zi, kspan, cards

    def part(self, zone: ir.Zone, key: str, span: Span) -> int | None:
        """The zone instance of a player's zone, a grid's space or a graph's place."""
        try:
            if zone.kind == "grid":
                x, _, y = key.partition(",")
                zi = self.game.zone_index(zone.name, space=(int(x), int(y)))
                if self.layout.gap[zi]:
                    raise ValueError(f"{zone.name} {key} is a gap of its map")
                return zi
            if zone.kind == "graph":
                return self.game.zone_index(zone.name, place=key)
        except ValueError as exc:
            message = str(exc) if "gap" in str(exc) or zone.kind == "graph" else \
                f"{zone.name} has no space '{key}' (columns 1..{zone.columns}, rows 1..{zone.rows})"
            hint = did_you_mean(key, zone.places) if zone.kind == "graph" else "write a space as \"COLUMN,ROW\""
            self.error(span, message, hint)
            return None
        role = self.role(key, span)
        return self.game.zone_index(zone.name, role) if role is not None else None

    def role(self, name: str, span: Span) -> str | None:
        if name in self.game.roles:
            return name
        self.error(span, f"no player '{name}' in mode {self.game.mode.name}",
                   did_you_mean(name, self.game.roles) or "players: " + ", ".join(self.game.roles))
        return None

    def cards(self, zi: int, node: YNode, states: list) -> list[int]:
        if isinstance(node, YScalar) and node.value is None:
            return []  # `hand:` with nothing after it: empty
        if not isinstance(node, YList):
            self.error(node.span, "a zone's cards are a list, bottom first: [LABEL, LABEL, ...] ([] for none)")
            return []
        out = []
        for item in node.items:
            extra = item if isinstance(item, YMap) else None
            label = item.get("card") if isinstance(item, YMap) else item
            if label is None:
                self.error(item.span, "a card with its state is written {card: LABEL, STATE: VALUE, ...}")
                continue
            c = self.card(label)
            if c is None:
                continue
            if self.can_hold(zi, c, label.span):
                out.append(c)
            if extra is not None:
                states += self.card_states(c, extra)
        return out

    def card(self, node: YNode) -> int | None:
        """The next copy, not placed yet, of the card a label names."""
        if not isinstance(node, YScalar) or node.value is None or isinstance(node.value, bool):
            self.error(node.span, "a card is named by its label, as players read it")
            return None
        label = str(node.value)
        copies = self.labels.get(label)
        if copies is None:
            self.error(node.span, f"no card '{label}' in {self.rs.name}", did_you_mean(label, self.labels))
            return None
        free = [c for c in copies if c not in self.taken]
        if not free:
            self.error(node.span, f"'{label}' is placed more often than there are copies ({len(copies)})")
            return None
        self.taken.add(free[0])
        return free[0]

    def can_hold(self, zi: int, c: int, span: Span) -> bool:
        name = self.layout.instances[zi][0]
        zone, kind = self.rs.zones[name], self.layout.kind_of[c]
        possible = self.game.possible
        if zone.holds and kind not in zone.holds or possible is not None and kind not in possible.get(name, ()):
            self.error(span, f"a {kind} card cannot be in {name} in this game",
                       f"{name} holds {', '.join(zone.holds)}" if zone.holds else
                       "no rule of this mode ever puts one there")
            return False
        return True

    def card_states(self, c: int, node: YMap) -> list[tuple[int, int, object]]:
        kind = self.rs.card_types[self.layout.kind_of[c]]
        fields = {f.name: f for f in kind.state}
        out = []
        for name, (span, value) in node.entries.items():
            if name == "card":
                continue
            field = fields.get(name)
            if field is None:
                self.error(span, f"a {kind.name} card has no state '{name}'",
                           did_you_mean(name, fields) or ("its state: " + ", ".join(fields) if fields
                                                          else f"{kind.name} cards have no state"))
                continue
            ok, v = self.value(field.type, value, None, None)
            if ok:
                out.append((self.layout.state_slot[name], c, v))
        return out

    def one_zone(self, node: YNode | None, key: str) -> int:
        """A zone of one instance (`others:`, an entry of `shuffle:`): NAME, or NAME of PLAYER."""
        if not _is_text(node):
            self.error(node.span if node is not None else None, f"{key}: names a zone")
            return 0
        base, _, owner = str(node.value).partition(" of ")
        zone = self.rs.zones.get(base.strip())
        if base == "box" and not owner:
            return 0  # out of the game (the default)
        if zone is None:
            self.error(node.span, f"no zone '{base.strip()}' in {self.rs.name}", did_you_mean(base.strip(), self.rs.zones))
        elif zone.board:
            self.error(node.span, f"{zone.name} is a board of many spaces; {key}: names a pile, hand or row")
        elif zone.owner == "each" and not owner:
            self.error(node.span, f"every player has a {zone.name}: name one, as '{zone.name} of PLAYER'")
        elif zone.owner != "each" and owner:
            self.error(node.span, f"{zone.name} is not a zone each player has; name it alone")
        elif not owner:
            return self.game.zone_index(zone.name)
        elif (role := self.role(owner.strip(), node.span)) is not None:
            return self.game.zone_index(zone.name, role)
        return 0

    def shuffled(self, node: YNode | None) -> tuple[int, ...]:
        if node is None:
            return ()
        if not isinstance(node, YList):
            self.error(node.span, "shuffle: is a list of zones")
            return ()
        return tuple(zi for item in node.items if (zi := self.one_zone(item, "shuffle")))

    # ------------------------------------------------------------ values
    def variables(self, node: YNode | None) -> tuple[tuple[int, object], ...]:
        out: list[tuple[int, object]] = []
        if node is None:
            return ()
        if not isinstance(node, YMap):
            self.error(node.span, "vars: is a mapping of variable names to values")
            return ()
        for name, (span, value) in node.entries.items():
            var = self.rs.vars.get(name)
            if var is None:
                self.error(span, f"no variable '{name}' in {self.rs.name}", did_you_mean(name, self.rs.vars))
                continue
            first = self.layout.var_slot[name]
            if var.owner != "each":
                ok, v = self.value(var.type, value, var.low, var.high)
                if ok:
                    out.append((first, v))
            elif not isinstance(value, YMap):
                self.error(value.span, f"every player has their own {name}: give it by player, as {{PLAYER: VALUE}}")
            else:
                for role, (rspan, item) in value.entries.items():
                    if self.role(role, rspan) is not None:
                        ok, v = self.value(var.type, item, var.low, var.high)
                        if ok:
                            out.append((first + self.layout.role_index[role], v))
        return tuple(out)

    def value(self, ty, node: YNode, low: int | None, high: int | None) -> tuple[bool, object]:
        """(ok, the value) of a YAML scalar for a value of type `ty`."""
        v = node.value if isinstance(node, YScalar) else node
        if isinstance(ty, CardT):
            if v is None:
                return True, None
            c = self.card(node)
            if c is not None and ty.kinds and self.layout.kind_of[c] not in ty.kinds:
                self.error(node.span, f"expected a card of type {' or '.join(sorted(ty.kinds))}, not {_shown(v)}")
                c = None
            return c is not None, c
        if ty == INT:
            problem = "expected a whole number" if type(v) is not int or abs(v) >= 10**18 else _bounds(v, low, high)
        elif ty == BOOL:
            problem = None if type(v) is bool else "expected true or false"
        elif ty == TEXT:
            problem = None if isinstance(v, str) else "expected text"
        elif ty == ROLE:
            problem = None if v is None or v in self.game.roles else \
                f"expected a player ({', '.join(self.game.roles)}) or none"
        elif isinstance(ty, EnumT):
            values = self.rs.enums[ty.name].values if ty.name in self.rs.enums else ()
            problem = None if v is None or v in values else f"expected one of: {', '.join(values)}"
        else:
            problem = f"a scenario cannot set a value of type {ty}"
        if problem:
            self.error(node.span, f"{problem}, not {_shown(v)}")
            return False, None
        return True, v

    def round(self, node: YNode | None) -> int | None:
        if node is None:
            return None
        v = node.value if isinstance(node, YScalar) else None
        if type(v) is not int or not 1 <= v <= 10**9:
            self.error(node.span, "round: is a whole number from 1")
            return None
        return v

    def step(self, node: YNode | None) -> str:
        steps = [s.name for s in self.game.mode.round]
        if node is None:
            return steps[0]
        name = str(node.value) if isinstance(node, YScalar) else ""
        if name not in steps:
            self.error(node.span, f"mode {self.game.mode.name} has no step '{name}'",
                       did_you_mean(name, steps) or "steps: " + ", ".join(steps))
            return steps[0]
        return name

    def zone_text(self, zi: int) -> str:
        name, owner = self.layout.instances[zi]
        space, place = self.layout.space[zi], self.layout.place[zi]
        where = f" {space[0]},{space[1]}" if space else f" {place}" if place else ""
        return name + where + (f" of {owner}" if owner and self.rs.zones[name].owner == "each" else "")


def _bounds(v, low, high) -> str | None:
    if low is not None and v < low or high is not None and v > high:
        return f"expected a number in {'' if low is None else low}..{'' if high is None else high}"
    return None


def _shown(v) -> str:
    text = repr(v) if isinstance(v, str) else "true" if v is True else "false" if v is False else \
        "nothing" if v is None else str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def source_of(scenario: Scenario) -> Source:
    return Source(scenario.path, scenario.text)
