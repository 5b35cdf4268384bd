"""The intermediate representation: plain, frozen data.

The parser builds these nodes with names unresolved (`Name`, `Call`); the
checker returns the same tree with every name resolved (`Local`, `Var`,
`Param`, `EnumValue`, `ZoneRef`, `RoleRef`, `DefineCall`, `BuiltinCall`) and
every expression's type filled in. Nothing downstream (interpreter,
generators) ever sees an unresolved name or raw YAML.

Every node carries its source `span`; spans and types are left out of
equality so two rulesets compare by meaning, not by layout. One module per
kind of node: expressions, statements, components (what is on the table),
definitions (named rules), modes, the ruleset; every consumer imports them
from here (`from rulelang import ir`, `ir.Move`).
"""
from typing import TypeVar

from .base import frozen_map, FrozenMap, Node
from .expressions import (
    Binary, Binder, BinderGroup, BuiltinCall, Call, Case, CaseArm, Const, DefineCall, EnumValue, Expr, Field,
    IfExpr, Index, IsType, ListExpr, Local, Name, OrderKey, Owned, Param, Quantified, RangeExpr, RoleRef, Template,
    TypeValues, Unary, Var, ZoneRef,
)
from .statements import (
    Announce, Assign, Block, CallProc, Choose, Draw, Eliminate, EndGame, Flip, For, If, Let, Menu, MenuOption, Move,
    Pass, Pin, Prose, Repeat, Reveal, Roll, Shuffle, Stmt, Swap, Take, Trigger,
    While,
)
from .components import (
    Card, CardLayout, CardType, Die, EnumDef, FieldDef, ParamDef, Players, Role, StateField, TemplateText, VarDef,
    Zone,
)
from .definitions import Ability, Define, Event, Procedure
from .modes import Measure, Mode, QUICK_SECTIONS, QuickPage, QuickRule, RankKey, Rating, Ruling, Step, Turns, Watch
from .ruleset import Ruleset

N = TypeVar("N", bound=Node)
PARSER_ONLY: tuple[type[Expr], ...] = (Name, Call, Owned)  # resolved by the checker, never in a checked ruleset


def _concrete(base: type[N]) -> tuple[type[N], ...]:
    """The classes of this package under `base`, in the order they are declared."""
    found: list[type[N]] = []
    for sub in base.__subclasses__():
        if sub.__module__.startswith(__name__ + "."):
            found += [sub, *_concrete(sub)]
    return tuple(found)


# every expression and statement class of the IR: a pass over the IR handles each or says it does not
EXPRESSIONS: tuple[type[Expr], ...] = _concrete(Expr)
STATEMENTS: tuple[type[Stmt], ...] = _concrete(Stmt)

__all__ = [
    "frozen_map", "FrozenMap", "Node", "Binary", "Binder", "BinderGroup", "BuiltinCall", "Call", "Case", "CaseArm",
    "Const", "DefineCall", "EnumValue", "Expr", "Field", "IfExpr", "Index", "IsType", "ListExpr", "Local", "Name",
    "OrderKey", "Owned", "Param", "Quantified", "RangeExpr", "RoleRef", "Template", "TypeValues", "Unary", "Var",
    "ZoneRef", "Announce", "Assign", "Block", "CallProc", "Choose", "Draw", "Eliminate", "EndGame", "Flip", "For",
    "If", "Let", "Menu", "MenuOption", "Move", "Pass", "Repeat", "Reveal", "Roll", "Shuffle", "Stmt", "Swap",
    "Take", "Trigger", "While", "Card", "CardType", "Die",
    "EnumDef", "FieldDef", "ParamDef", "Players", "Role", "StateField", "TemplateText", "VarDef", "Zone", "Ability",
    "Define", "Event", "Procedure", "Measure", "Mode", "QUICK_SECTIONS", "QuickPage", "QuickRule", "RankKey",
    "Rating", "Ruling", "Step", "Turns", "Watch", "Ruleset", "PARSER_ONLY", "EXPRESSIONS", "STATEMENTS",
]
