"""The whole ruleset: every declaration, by name."""
from __future__ import annotations

from dataclasses import field

from ..records import record
from typing import Mapping

from .base import FrozenMap, Node
from .components import CardType, Card, Die, EnumDef, ParamDef, Players, Role, VarDef, Zone
from .definitions import Ability, Define, Event, Procedure
from .modes import Mode, Ruling
from .statements import Block


@record
class Ruleset(Node):
    name: str
    title: str
    credits: str | None
    roles: tuple[Role, ...]
    params: Mapping[str, ParamDef]
    enums: Mapping[str, EnumDef]
    card_types: Mapping[str, CardType]
    cards: tuple[Card, ...]
    zones: Mapping[str, Zone]
    vars: Mapping[str, VarDef]
    defines: Mapping[str, Define]
    procedures: Mapping[str, Procedure]
    setup: Block
    modes: Mapping[str, Mode]
    rulings: tuple[Ruling, ...]
    param_values: Mapping[str, object]  # defaults with --set applied
    source_hash: str = ""
    text: str | None = None  # what the game is about
    # the files it was read from, the most basic first: where it came from, not what it says
    files: tuple[str, ...] = field(default=(), compare=False, repr=False)
    players: Players | None = None  # seats made from a count (None: the roles are named)
    events: Mapping[str, Event] = field(default_factory=lambda: FrozenMap())
    abilities: Mapping[str, Ability] = field(default_factory=lambda: FrozenMap())
    dice: Mapping[str, Die] = field(default_factory=lambda: FrozenMap())  # `dice:` and the built-in d6
    number_digits: int = 18  # how many digits a number in play may have (`--limit number_digits`)
    language: int = 1  # the version of the language it is written in (`language:`; none: 1)
    # what `check` says besides errors: notes (a built-in a name of the ruleset's hides) and warnings
    notes: tuple = field(default=(), compare=False, repr=False)
    # what it was read from (loader.read_ruleset: its files' names and texts, the parameters, the limits),
    # as a SHA-256; what names compiled modes in their cache. A copy changed (dataclasses.replace) has none
    digest: str = field(default="", init=False, compare=False, repr=False)

    @property
    def default_mode(self) -> str:
        return next(iter(self.modes))
