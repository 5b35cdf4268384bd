"""Where the rules move cards, seen from a test of them: which kinds of cards leave which zones after
the setup, what a block does to cards, what a condition counts, and whether the one can change the
other (first_matches.py asks). A zone given as a value (a parameter, a local) is ANY zone."""
from __future__ import annotations

from . import ir
from .effects import Effects
from .substitute import conjuncts
from .types import CardT, ZoneT
from .walk import walk


def follows_state(where, name: str, rs: ir.Ruleset, depth: int = 0) -> bool:
    """Whether a `where` reads what play changes: a game variable, a card's state, where cards lie or
    which way up (through the defines it calls); printed fields, marks, parameters and seats do not."""
    if where is None or depth > 8:
        return False
    states = {f.name for t in rs.card_types.values() for f in t.state}
    for n in walk(where):
        if isinstance(n, ir.Var) or isinstance(n, ir.Field) and n.name in states \
                or isinstance(n, (ir.ZoneRef, ir.Owned)) \
                or isinstance(n, ir.BuiltinCall) and n.name in ("face_up", "face_down", "size", "empty", "top",
                                                                "bottom", "column", "row", "in_game") \
                or isinstance(n, ir.Binary) and n.op in ("in", "not in") and isinstance(n.right.ty, ZoneT) \
                or isinstance(n, ir.Quantified) and any(isinstance(g.domain.ty, ZoneT) for g in n.binder.groups):
            return True
        if isinstance(n, ir.DefineCall) and n.name in rs.defines \
                and follows_state(rs.defines[n.name].body, name, rs, depth + 1):
            return True
    return False


def narrowed(where, name: str) -> frozenset:
    """The card kinds a `where` keeps the bound name to (`c is cube and ...`), if it says."""
    for c in conjuncts(where):
        if isinstance(c, ir.IsType) and not c.negated and c.subject == ir.Local(name):
            return frozenset({c.kind})
    return frozenset()


def cards_on(where, space: str) -> list[frozenset]:
    """The kinds of the cards a `where` over spaces looks for on the space: `exists a in s where ...`,
    `card in s`."""
    out = []
    for n in walk(where) if where is not None else ():
        if isinstance(n, ir.Quantified) and any(g.domain == ir.Local(space) for g in n.binder.groups):
            g = next(g for g in n.binder.groups if g.domain == ir.Local(space))
            kinds = narrowed(n.binder.where, g.names[0])
            out.append(kinds or (g.domain.ty.kinds if isinstance(g.domain.ty, ZoneT) else frozenset()))
        elif isinstance(n, ir.Binary) and n.op in ("in", "not in") and n.right == ir.Local(space) \
                and isinstance(n.left.ty, CardT):
            out.append(n.left.ty.kinds)
    return out


def moves_after_setup(rs: ir.Ruleset) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """(zone -> card kind -> the line of a move that takes such cards out of it, card kind -> the line of
    a move of it), for the moves of the rules after the setup: steps, watches, procedures, abilities."""
    blocks = [s.body for mode in rs.modes.values() for s in mode.round] + \
        [w.body for mode in rs.modes.values() for w in mode.watches] + \
        [p.body for p in rs.procedures.values()] + [a.body for a in rs.abilities.values()]
    leaving: dict[str, dict[str, int]] = {}
    moved: dict[str, int] = {}
    zones = ["box", *rs.zones]

    def out_of(zone: str, kinds, line: int, dest: str | None) -> None:
        if zone != dest:
            for kind in kinds:
                leaving.setdefault(zone, {}).setdefault(kind, line)

    for n in walk(tuple(blocks)):
        line = n.span.line if n.span is not None else 0
        if isinstance(n, ir.Move):
            dest = zone_name(n.dest)
            if n.every is not None:
                g = n.every.groups[0]
                kinds = narrowed(n.every.where, g.names[0]) or kinds_of(g.domain)
                source = zone_name(g.domain)
                for zone in ([source] if source is not None else zones):
                    out_of(zone, kinds, line, dest)
                for kind in kinds:
                    moved.setdefault(kind, line)
            for card in n.cards:
                source = zone_name(card) if isinstance(card.ty, ZoneT) else None
                kinds = kinds_of(card)
                for zone in ([source] if source is not None else zones):
                    out_of(zone, kinds, line, dest)
                for kind in kinds:
                    moved.setdefault(kind, line)
        elif isinstance(n, ir.Draw):
            source, dest = zone_name(n.source), zone_name(n.dest)
            kinds = kinds_of(n.source)
            for zone in ([source] if source is not None else zones):
                out_of(zone, kinds, line, dest)
            for kind in kinds:
                moved.setdefault(kind, line)
        elif isinstance(n, ir.Swap):  # each side's cards go where the other's are (two cards: anywhere)
            for one, other in ((n.first, n.second), (n.second, n.first)):
                source = zone_name(one) if isinstance(one.ty, ZoneT) else None
                dest = zone_name(other) if isinstance(other.ty, ZoneT) else None
                for zone in ([source] if source is not None else zones):
                    out_of(zone, kinds_of(one), line, dest)
                for kind in kinds_of(one):
                    moved.setdefault(kind, line)
    return leaving, moved


ANY = None  # a zone not known (a zone given as a value)


def card_moves(fx: Effects, stmts) -> frozenset:
    """What stmts (through what they call) do to cards: (kinds, zone they go to or ANY) for each move and
    draw, ("all", ANY) for a shuffle, a flip or an elimination (order, faces, seats: anything)."""
    return fx.fold(stmts, "card moves", _moves)


def _moves(n) -> frozenset:
    if isinstance(n, ir.Move):
        kinds = set()
        for card in n.cards:
            kinds |= kinds_of(card)
        if n.every is not None:
            g = n.every.groups[0]
            kinds |= narrowed(n.every.where, g.names[0]) or kinds_of(g.domain)
        return frozenset({(frozenset(kinds), zone_name(n.dest))})
    if isinstance(n, ir.Draw):
        return frozenset({(kinds_of(n.source), zone_name(n.dest))})
    if isinstance(n, ir.Swap):  # two cards go where the other lay: a zone not known
        return frozenset({(kinds_of(n.first), zone_name(n.second) if isinstance(n.second.ty, ZoneT) else ANY),
                          (kinds_of(n.second), zone_name(n.first) if isinstance(n.first.ty, ZoneT) else ANY)})
    if isinstance(n, (ir.Shuffle, ir.Flip, ir.Eliminate)):
        return frozenset({("all", ANY)})
    return frozenset()


def card_reads(fact, rs: ir.Ruleset) -> list:
    """Where a fact counts cards: (zone or ANY, kinds or "all") for each zone it reads."""
    out = []
    for n in walk(fact):
        if isinstance(n, ir.Quantified):
            for g in n.binder.groups:
                if isinstance(g.domain.ty, ZoneT):
                    kinds = narrowed(n.binder.where, g.names[0]) if len(g.names) == 1 else frozenset()
                    out.append((zone_name(g.domain), kinds or g.domain.ty.kinds))
        elif isinstance(n, ir.BuiltinCall) and n.name in ("face_up", "face_down", "top", "bottom", "column", "row",
                                                           "in_game", "left_of", "right_of", "clockwise"):
            out.append((ANY, "all"))
        elif isinstance(n, (ir.ZoneRef, ir.Owned)) or isinstance(n, ir.BuiltinCall) and n.name in ("size", "empty"):
            zone = n if isinstance(n, ir.ZoneRef) else n.args[0] if isinstance(n, ir.BuiltinCall) and n.args else None
            ty = zone.ty if zone is not None else None
            out.append((zone_name(zone) if zone is not None else ANY, ty.kinds if isinstance(ty, ZoneT) else "all"))
    return out


def disturbs(moves: list, reads: list) -> bool:
    """Whether a move may change what a fact counts: cards of a kind it counts go somewhere other than
    the zone it counts them in (a move within a board leaves the board's count alone)."""
    for kinds, dest in moves:
        for zone, counted in reads:
            if kinds == "all" or counted == "all" or kinds & counted:
                if zone is ANY or dest is ANY or zone != dest:
                    return True
    return False


def zone_name(e) -> str | None:
    """The zone (or the board a space is of) an expression names, if it says which."""
    if isinstance(e, ir.ZoneRef):
        return e.zone
    if isinstance(e.ty, ZoneT) and e.ty.board is not None:
        return e.ty.board
    return None


def kinds_of(e) -> frozenset:
    ty = e.ty
    if isinstance(ty, (CardT, ZoneT)):
        return ty.kinds
    return frozenset()
