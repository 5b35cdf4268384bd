"""The locals of the rules that always hold a card (or a player), never none.

A name bound only by binders over zones or boards (`for c in hand`, `p chooses
c in hand`, `take first c in deck`) or over lists of their cards (`[g for g in
gauntlet where ...]`), or by `let` from such a name (an inlined
procedure's parameter), holds a card wherever it is read, so reading its
fields needs no test for none. So does a name bound only by binders over the
players (`for p in clockwise(dealer)`) hold a player: its seat needs no test. Any other binding (a `let` of any other value,
an assignment, a roll, a called procedure's parameter, a binder over any other
list, which may hold none) leaves a name out.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import BoardT, ZoneT
from rulelang.walk import dispatch, walk

from .nodes import Program


def locals_always_cards(program: Program, ruleset: ir.Ruleset) -> frozenset[str]:
    bindings: dict[str, list] = {}  # name -> "card", or the Local a let copies, or None (anything else)
    parts = [program.setup, *(s.body for s in program.steps), *program.procedures.values(),
             *(w.body for w in program.watches)]
    binds = _Binds()
    for part in parts:
        for node in (n for item in part for n in walk(item)):
            if isinstance(node, ir.Stmt):
                for name, way in dispatch(binds, "binds", node):
                    bindings.setdefault(name, []).append(way)
    for proc in program.procedures:  # those still called (the rest are inlined, their parameters lets)
        for name, _ in ruleset.procedures[proc].params:
            bindings.setdefault(name, []).append(None)
    found: set[str] = set()
    while True:  # the least fixed point: a copy counts once what it copies is in
        more = {name for name, ways in bindings.items() if name not in found and all(
            way == "card" or isinstance(way, tuple) and way[1] in found for way in ways)}
        if not more:
            return frozenset(found)
        found |= more


class _Binds:
    """The locals each statement binds, and how: (name, "card"), (name, ("copy", other)), (name, None)."""
    DECLINES = {ir.Trigger: "triggers and windows are written out before code is generated (abilities.py)"}

    def binds_for(self, s) -> list:
        return [(name, "card" if never_none(g.domain) else None) for g in s.binder.groups for name in g.names]

    binds_choose = binds_take = binds_decide = binds_takefrom = binds_for

    def binds_let(self, s: ir.Let) -> list:
        return [(s.name, ("copy", s.value.name) if isinstance(s.value, ir.Local) else None)]

    def binds_assign(self, s: ir.Assign | ir.Roll) -> list:
        return [(s.target.name, None)] if isinstance(s.target, ir.Local) else []

    binds_roll = binds_assign

    def binds_nothing(self, s: ir.Stmt) -> list:
        return []

    binds_move = binds_draw = binds_swap = binds_shuffle = binds_flip = binds_if = binds_while = binds_repeat = binds_menu = \
        binds_endgame = binds_eliminate = binds_callproc = binds_pass = binds_reveal = binds_announce = binds_nothing


def never_none(domain: ir.Expr) -> bool:
    """Whether every item of a binder's domain is a card or a player, never none: see _cards_only;
    the players (`players`, `clockwise(p)`); a list known before play that holds no none."""
    if isinstance(domain, ir.Const):  # (`players` is one, once folded)
        return isinstance(domain.value, (list, tuple)) and None not in domain.value
    return _cards_only(domain) or isinstance(domain, ir.BuiltinCall) and domain.name in ("players", "clockwise")


def _cards_only(domain: ir.Expr) -> bool:
    """A zone, a board, or a list of cards from them (`[g for g in gauntlet where ...]`)."""
    if isinstance(domain.ty, (ZoneT, BoardT)):
        return True
    if isinstance(domain, ir.Quantified) and domain.kind == "list" and isinstance(domain.value, ir.Local):
        return any(domain.value.name in g.names and _cards_only(g.domain) for g in domain.binder.groups)
    return False
