"""The rules a ruleset names: defines, procedures, events and the abilities that answer them."""
from __future__ import annotations

from dataclasses import field

from ..records import record
from ..types import Type
from .base import Node
from .expressions import Expr
from .statements import Block, Pin


@record
class Define(Node):
    """A named pure expression: `name(params): expression`."""
    name: str
    params: tuple[tuple[str, Type | None], ...]
    body: Expr
    text: str | None = None  # a phrase for printing; `{param}` stands for an argument
    assumed: str | None = None
    pin: Pin | None = field(default=None, compare=False)  # the text's fingerprint (`checked:`), if it has a text
    means: str | None = None  # what it means, in the author's words: printed instead of the generated meaning
    # `params: {flag: {text: ...}}`: the condition a true/false parameter stands for, as printed ("{p} is ambushed")
    param_texts: tuple[tuple[str, str], ...] = ()


@record
class Procedure(Node):
    """A named block of statements: `name(params): statements`."""
    name: str
    params: tuple[tuple[str, Type | None], ...]
    body: Block
    text: str | None = None
    assumed: str | None = None
    pin: Pin | None = field(default=None, compare=False)
    param_texts: tuple[tuple[str, str], ...] = ()  # as a define's


@record
class Event(Node):
    """A named moment the rules announce (`trigger`, `window`), with what it says."""
    name: str
    params: tuple[tuple[str, Type | None], ...]
    text: str | None = None


@record
class Ability(Node):
    """Card rules that answer an event. `this` is the card; the event's
    parameters are named as declared."""
    name: str
    on: str  # the event
    body: Block
    where: Expr | None = None  # when the card answers (default: always)
    once: str | None = None  # "game", or an event: at most once until it happens again
    optional: Expr | None = None  # "you may": the player who decides
    text: str | None = None
    assumed: str | None = None
    pin: Pin | None = field(default=None, compare=False)
