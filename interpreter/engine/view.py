"""What a role may see: card labels, option descriptions, observations.

Visibility rules (per zone, from the ruleset; a mode's `visibility:` may
override them):
  seen_by: all    face-up cards are seen by everyone, face-down by no one
  seen_by: owner  the zone's owner sees every card in it, others see none
  seen_by: none   no one sees the cards, only how many there are
  open            (a mode's visibility) everyone sees every card, face down
                  too, in order

A hidden card appears as None: no label, no id (an id would let an agent
follow a card through a shuffle, which no player can). A card seen lying
face down (in an open zone, or the owner's own) says so ("face_down").

A board's spaces appear under "boards" as rows of spaces (bottom row first);
a card's state values (`state:`), where they differ from their initial
value, appear as its "state" text ("damage 2, guarded").

In a game whose rules roll dice or pick at random, "chance" lists what
chance brought since the role's last decision: every roll (public) and
every pick, a picked card named only if the role sees it now. In a game
that keeps a history (one a person plays: `Game(history=True)`, or one
that rolls or picks), "events" lists everything public since the role's
last decision, in order: the others' choices (an option's card named only
if the role sees it now, else as a hidden card), the rolls and the picks.
The players out of the game are under "out", and why under "out_reasons".

Variables the rules keep only for measures (`rulelang/statistics.py`) are
named under "statistics": a screen for players leaves them out.
"""
from __future__ import annotations

import functools
import weakref

from rulelang import hidden
from rulelang.hidden import span_key
from rulelang.labels import card_label, value_text, words
from rulelang.statistics import statistics
from rulelang.types import CardT

from ..runtime.chance import ChanceEvent, Decided, Told, since_decision, since_own
from ..runtime.state import State
from .game import Game

HIDDEN = "a hidden card"  # a picked card the reader cannot see
HIDDEN_PICK = "a hidden pick"  # a pick whose values are read off cards the reader may not see
REFEREE = "$referee"  # the reader who sees every card (no role is named with a `$`)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# what a Viewer reads of its game and never changes, made once a game: a Viewer is made for every
# log, play, adapter and agent view, and working out the ruleset's statistics costs more than a game
_LABELS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_STATISTICS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


_BLIND: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _blind(game: Game) -> hidden.Findings:
    """What rules tell readers of cards they may not see (rulelang/hidden.py), once a game: the random
    picks whose values come from such cards, the decisions whose options' words name or read them."""
    if game not in _BLIND:
        asks = any(site.kind == "pick" for site in game.rules.chance_sites) or game.rules.labels
        _BLIND[game] = hidden.told(game.ruleset, game.mode) if asks else hidden.Findings()
    return _BLIND[game]


def _holds_cards(ty) -> bool:
    return isinstance(ty, CardT)  # a variable's list holds numbers only (sections/values.py)


def _as_is(st: State, value, role: str | None):
    return value


def _labels(game: Game) -> list[str]:
    """Every card's label."""
    if game not in _LABELS:
        _LABELS[game] = [card_label(game.ruleset, c) for c in game.ruleset.cards]
    return _LABELS[game]


def _statistics(game: Game) -> list[str]:
    """The ruleset's statistics, sorted: worked out when an observation first names them (a walk of
    the whole ruleset that a simulation whose agents never look at the table does not pay)."""
    if game not in _STATISTICS:
        _STATISTICS[game] = sorted(statistics(game.ruleset))
    return _STATISTICS[game]


class Viewer:
    def __init__(self, game: Game):
        self.game = game
        rs = game.ruleset
        self.labels = _labels(game)
        zones = rs.zones
        layout = game.layout
        self.instances = layout.instances
        self.space = layout.space
        self.names = [name if owner is None or zones[name].owner != "each" else f"{name} of {owner}"
                      for name, owner in self.instances]
        mode = game.mode.visibility  # a mode may change who sees a zone
        self.seen_by = [None] + [mode.get(name, zones[name].seen_by) for name, _ in self.instances[1:]]
        self.boards = {z.name: z for z in zones.values() if z.board}
        self.place = layout.place
        # state values shown: (name, slot, initial value per card)
        self.state = [(name, slot, layout.initial_state[slot]) for name, slot in layout.state_slot.items()
                      if "$" not in name]  # the rules' own bookkeeping (an ability's use) is not shown
        self.option_labels = game.rules.labels or {}  # decision site -> how its options read (`labelled`)
        # per card, the state values its label names (most name none: their label never changes)
        reads = {k: tuple(f.name for f in ct.state if ct.label and "{" + f.name + "}" in ct.label)
                 for k, ct in rs.card_types.items()}
        self.reads_state = [reads[c.kind] for c in rs.cards]
        # the slots of variables not everyone sees: slot -> the one player who does (None: no one)
        self.secret: dict[int, str | None] = {}
        self.slot_names: dict[int, str] = {}  # how such a slot is named: "dice of red"
        layout = game.layout
        for v in rs.vars.values():
            if v.seen_by != "all":
                first = layout.var_slot[v.name]
                for i, r in enumerate(layout.roles if v.owner == "each" else [None]):
                    self.secret[first + i] = r if v.seen_by == "owner" else None
                    self.slot_names[first + i] = words(v.name) + (f" of {words(r)}" if r is not None else "")

    @property
    def statistics(self) -> list[str]:
        """Variables kept only for measures: in the observation, but named so a screen can leave them out."""
        return _statistics(self.game)

    def card(self, c: int) -> str:
        return self.labels[c]

    def label(self, st: State, c: int) -> str:
        """A card's label now: one that names state values (`"{face} showing"`) reads them."""
        reads = self.reads_state[c]
        if not reads:
            return self.labels[c]
        slots = self.game.layout.state_slot
        return card_label(self.game.ruleset, self.game.ruleset.cards[c],
                          {name: st.props[slots[name]][c] for name in reads})

    def state_text(self, st: State, c: int) -> str:
        """A card's state values that differ from their initial ones."""
        parts = []
        for name, slot, initial in self.state:
            value = st.props[slot][c]
            if value != initial[c]:
                parts.append(words(name) if value is True else f"{words(name)} {self.value(value)}")
        return ", ".join(parts)

    def card_text(self, st: State, c: int) -> str:
        """A card as an option names it: its label, its state and, on a board, its space."""
        text = self.label(st, c)
        state = self.state_text(st, c) if self.state else ""
        if state:
            text += f" ({state})"
        return text + (f" at {self.where_on_board(st.where[c])}" if self.on_board(st.where[c]) else "")

    def on_board(self, zi: int) -> bool:
        return self.space[zi] is not None or self.place[zi] is not None

    def where_on_board(self, zi: int) -> str:
        """A space as a player names it: `2,3` on a grid, `room_6` on a graph."""
        space = self.space[zi]
        return f"{space[0]},{space[1]}" if space is not None else words(self.place[zi])

    def zone_text(self, zi: int) -> str:
        """A zone as an option names it: `hand of alice`, a board's space `gauntlet 2,3`."""
        return f"{self.names[zi]} {self.where_on_board(zi)}" if self.on_board(zi) else self.names[zi]

    def value(self, v) -> str | None:
        """A bound value as text; None (no card) is left out."""
        return None if v is None else value_text(v)

    def option(self, st: State, index: int, reader: str | None = REFEREE) -> str:
        """An option as a person reads it: as the referee, its cards by label; as a
        reader (a role; None: a spectator), a card the reader cannot see as what it
        sees of it — where it lies (`the 3rd card from the top of deck, face down`)."""
        d = self.game.decision(st)
        values = d.options[index]
        if d.site.menu:
            return words(values[0])
        labelled = self.option_words(d.site, reader)
        if labelled is not None and (reader == REFEREE or all(
                not card or v is None or self.sees(st, v, reader) for v, card in zip(values, d.site.is_card))):
            env = st.stack[-1].env  # the locals the words read, bound where it is asked
            return labelled(st, {**{n: env[n] for n in d.site.reads}, **dict(zip(d.site.names, values))})
        parts = [(self.card_text(st, v) if reader == REFEREE or self.sees(st, v, reader)
                  else self.unseen_card(st, v, reader)) if card else self.zone_text(v) if zone else self.value(v)
                 for v, card, zone in zip(values, d.site.is_card, d.site.is_zone) if v is not None]
        return ", ".join(parts) if parts else "(nothing)"

    def choice(self, st: State, e: Decided, reader: str | None) -> dict:
        """Another player's decision as `reader` is told of it: the option, its cards by label if
        the reader sees them now, else as HIDDEN."""
        site, record = e.site, {"type": "decision", "role": e.role}
        if site is None:  # a history that kept no options
            return record
        record["label"] = site.label
        if site.menu:
            record["option"] = words(e.option[0])
            return record
        labelled = self.option_words(site, reader) if len(e.bound) == len(site.reads) else None
        if labelled is not None and (reader == REFEREE or all(
                not card or v is None or self.sees(st, v, reader) for v, card in zip(e.option, site.is_card))):
            record["option"] = labelled(st, {**dict(zip(site.reads, e.bound)), **dict(zip(site.names, e.option))})
            return record
        parts = [(self.card_text(st, v) if reader == REFEREE or self.sees(st, v, reader) else HIDDEN) if card
                 else self.zone_text(v) if zone else self.value(v)
                 for v, card, zone in zip(e.option, site.is_card, site.is_zone) if v is not None]
        record["option"] = ", ".join(parts) if parts else "(nothing)"
        return record

    def events(self, st: State, role: str | None) -> list[dict]:
        """Everything public since `role` last decided, in order (see the module's text)."""
        out = []
        for e in since_own(st.events or [], role):
            if type(e) is Decided:
                if e.role != role:
                    out.append(self.choice(st, e, role))
            elif type(e) is Told:
                out.append(self.told(st, e, role))
            else:
                out.append(self.chance_event(st, e, role))
        return out

    def unseen_card(self, st: State, c: int, reader: str | None) -> str:
        """A card `reader` cannot see, by its place: a zone and how far from its top."""
        zi = st.where[c]
        cards = st.zones[zi]
        from_top = len(cards) - cards.index(c)
        place = "the top card" if from_top == 1 else f"the {ordinal(from_top)} card from the top"
        how = "face down" if self.visible(st, zi, reader) else "unseen"
        return f"{place} of {self.zone_text(zi)}, {how}"

    def chance_event(self, st: State, e: ChanceEvent, role: str | None, everything: bool = False) -> dict:
        """A roll or pick as a record: a picked card by its label if `role` sees
        it now (or `everything`: the referee), else as HIDDEN; a pick whose
        values come from cards `role` may not see (a worth read off a hidden
        card: rulelang/hidden.py) as HIDDEN_PICK."""
        site = e.site
        if site.kind == "roll":
            if not everything and e.target is not None and not self.sees_target(st, e.target, role):
                record = {"type": "roll", "at": site.at, "die": site.die, "dice": len(e.value), "secret": True}
                if e.target[0] == "var":
                    record["into"] = self.slot_names[e.target[1]]
                return record
            return {"type": "roll", "at": site.at, "die": site.die, "faces": list(e.value)}
        if not everything and role in self.blind_picks.get(span_key(site.span), ()):
            return {"type": "pick", "at": site.at, "picked": HIDDEN_PICK}
        parts = [(self.card_text(st, v) if everything or self.sees(st, v, role) else HIDDEN) if card
                 else self.value(v) for v, card in zip(e.value, site.is_card) if v is not None]
        return {"type": "pick", "at": site.at, "picked": ", ".join(parts) if parts else "(nothing)"}

    @functools.cached_property
    def blind_picks(self) -> dict:
        """Random picks whose values come from cards a reader may not see: place -> those readers."""
        return _blind(self.game).picks

    def option_words(self, site, reader: str | None):
        """How a decision's options read (`labelled`), if they read so to `reader`: not to a reader
        they may tell about cards it cannot see (then the options read as their values)."""
        labelled = self.option_labels.get(site.index)
        if labelled is None or reader == REFEREE:
            return labelled
        told = _blind(self.game).words.get(span_key(site.span))
        return None if told is not None and reader in told.readers else labelled

    def sees_target(self, st: State, target: tuple, role: str | None) -> bool:
        """Whether `role` sees what a roll went into: a secret variable's slot, a card's state."""
        if target[0] == "var":
            return role is not None and role == self.secret.get(target[1], "$all")
        return self.sees(st, target[1], role)

    def told(self, st: State, e: Told, role: str | None, everything: bool = False) -> dict:
        """A reveal or an announcement as `role` is told of it: what was shown, if shown to them."""
        record = {"type": e.kind, "to": e.to}
        if e.subject[0] == "zone":
            record["what"] = self.zone_text(e.subject[1])
        elif e.subject[0] == "value":
            record["what"] = e.subject[1]
        if everything or e.to is None or e.to == role:
            if e.kind == "announce" or e.subject[0] == "value":
                record["text"] = e.text
            else:
                record["shown"] = ", ".join(self.label(st, c) for c in e.cards) or "nothing"
        else:
            record["cards"] = len(e.cards)
        return record

    def sees(self, st: State, c: int, role: str | None) -> bool:
        """Whether `role` sees card c where it is now."""
        zi = st.where[c]
        return self.visible(st, zi, role) and (st.face_up[c] or self.sees_face_down(zi))

    def visible(self, st: State, zi: int, role: str | None) -> bool:
        seen = self.seen_by[zi]
        if seen == "owner":
            return role is not None and self.instances[zi][1] == role
        return seen in ("all", "open")

    def sees_face_down(self, zi: int) -> bool:
        """Whoever sees this zone sees its face-down cards too."""
        return self.seen_by[zi] in ("owner", "open")

    def seen(self, st: State, zi: int, role: str | None) -> list:
        """The cards of a zone instance as `role` sees them (None: hidden)."""
        if not self.visible(st, zi, role):
            return [None] * len(st.zones[zi])
        all_cards = self.sees_face_down(zi)
        cards = []
        for c in st.zones[zi]:
            if all_cards or st.face_up[c]:
                card = {"id": c, "card": self.label(st, c)}
                state = self.state_text(st, c) if self.state else ""
                if state:
                    card["state"] = state
                if not st.face_up[c]:  # seen lying face down (an open zone, the owner's own)
                    card["face_down"] = True
                cards.append(card)
            else:
                cards.append(None)
        return cards

    def signature(self, st: State, role: str | None) -> tuple:
        """What `role` sees now, as a value equal for two states exactly when `observe` is (and
        quicker to make): the cards seen, by id, with their facing and state; how many each hidden
        place holds; the variables; the round, the step; what it was told since its last decision;
        its decision's options."""
        zones, face_up, seen = st.zones, st.face_up, []
        props = st.props
        for zi in range(1, len(zones)):
            z = zones[zi]
            if not self.visible(st, zi, role):
                seen.append(len(z))
            elif self.sees_face_down(zi):
                seen.append(tuple((c, face_up[c], *(p[c] for p in props)) for c in z))
            else:
                seen.append(tuple((c, *(p[c] for p in props)) if face_up[c] else None for c in z))
        told = repr(self.events(st, role)) if st.events is not None else None
        d = st.pending
        asked = (d.label, tuple(self.option(st, i, role) for i in range(len(d.options)))) \
            if d is not None and d.role == role else None
        secret = self.secret
        known = tuple(v for i, v in enumerate(st.vars) if i not in secret or secret[i] == role) if secret \
            else tuple(st.vars)
        return (st.round, self.game.step_name(st), tuple(seen), known, told, asked, repr(st.outcome))

    def variables(self, st: State, role: str | None = REFEREE) -> dict:
        """Every variable (a per-player one as {player: value}), as `role` sees it: a value it
        may not see (`seen_by:`) is left out, a card it cannot see now is HIDDEN (its id would name it)."""
        layout, values, secret = self.game.layout, {}, self.secret
        for v in self.game.ruleset.vars.values():
            first = layout.var_slot[v.name]
            shown = self.card_value if role != REFEREE and _holds_cards(v.type) else _as_is
            if v.owner == "each":
                values[v.name] = {r: shown(st, st.vars[first + i], role) for i, r in enumerate(layout.roles)
                                  if role == REFEREE or first + i not in secret or secret[first + i] == role}
            elif role == REFEREE or first not in secret:
                values[v.name] = shown(st, st.vars[first], role)
        return values

    def card_value(self, st: State, value, role: str | None):
        """A card variable's value (a card or none) as `role` sees it."""
        return value if value is None or self.sees(st, value, role) else HIDDEN

    def out(self, st: State) -> list[str]:
        """The players out of the game, in the order they left it."""
        layout = self.game.layout
        flags = st.vars[layout.out_slot:layout.out_slot + len(layout.roles)]
        return [r for _, r in sorted((k, r) for k, r in zip(flags, layout.roles) if k)]

    def observe(self, st: State, role: str | None) -> dict:
        """Everything `role` may see now; role None is a spectator."""
        zones = {}
        # a grid: rows of spaces (bottom row first; a gap of its map is None); a graph: place -> cards
        boards = {name: {} if z.kind == "graph" else [[] for _ in range(z.rows)] for name, z in self.boards.items()}
        gap = self.game.layout.gap
        for zi in range(1, len(self.instances)):
            if self.space[zi] is not None:
                boards[self.instances[zi][0]][self.space[zi][1] - 1].append(None if gap[zi] else self.seen(st, zi, role))
            elif self.place[zi] is not None:
                boards[self.instances[zi][0]][self.place[zi]] = self.seen(st, zi, role)
            else:
                zones[self.names[zi]] = self.seen(st, zi, role)
        obs = {
            "role": role, "round": st.round, "step": self.game.step_name(st), "players": list(self.game.roles),
            "zones": zones,
            "vars": self.variables(st, role),
        }
        if boards:
            obs["boards"] = boards
        if self.statistics:
            obs["statistics"] = list(self.statistics)
        out = self.out(st)
        if out:
            obs["out"] = out
            why = self.game.layout.why_slot
            obs["out_reasons"] = {r: st.vars[why + self.game.layout.role_index[r]] or "out" for r in out}
        if st.events is not None:
            obs["chance"] = [self.chance_event(st, e, role) for e in since_decision(st.events, role)]
            obs["events"] = self.events(st, role)
        d = self.game.decision(st)
        if d is not None and d.role == role:
            obs["decision"] = {"label": d.label,
                               "options": [self.option(st, i, role) for i in range(len(d.options))]}
        if st.outcome is not None:
            obs["outcome"] = st.outcome
        return obs
