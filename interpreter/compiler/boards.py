"""Going through a board: how the binders of a whole board are written (for binders.py).

A board is a list of spaces, each a zone; most of a grid's spaces hold one card or none.
Listing them all is what costs (`Expressions.cards_of` lists them in one go), so where the
rules allow:

- `exists` and `count` of a type look at the cards of that type that can be there, each
  tested for being on the board (`candidate_loops`: the Gauntlet's 3 Soldiers, not its 18
  spaces), and a big board few cards reach is searched card by card (`board_scan`);
- `ordered by` a card's column and row lists the spaces in that order rather than sorting
  the cards (`space_order`);

each only where the test the bindings pass can never fail (hoist.never_fails), or where the
order they are tested in is the board's own: a game stops with the same error where it would.
"""
from __future__ import annotations

import ast
import dataclasses

from rulelang import ir
from rulelang.files import location
from rulelang.types import BoardT, ZoneT
from rulelang.walk import walk

from . import pycode as code
from . import tuning
from .context import Bound, Ctx, LazyBound, Part
from .hoist import Grid, never_fails, surely_computed_first
from .nodes import Hoisted
from .pycode import LOAD, STORE, CallNested
from .unit import Function


class Boards(Part):
    """The binder generator's ways through a board."""

    def candidate_loops(self, b: ir.Binder, fn, out: list, ctx: Ctx, leaf) -> bool:
        """`exists` or `count` of one name over a whole board, through the cards that can be there
        (of the type its `where` first tests for), each tested for being on the board: listing a
        board's spaces costs about as much per space as this costs per card (a Gauntlet of 18 spaces,
        its 3 Soldiers). Only when the rest of the test can never fail: then the order the bindings
        are tested in changes nothing. False when the binder is not of that shape, or no quicker."""
        g = b.groups[0]
        if not ctx.unordered or len(b.groups) != 1 or len(g.names) != 1 or not isinstance(g.domain.ty, BoardT) \
                or ctx.bindings is None:
            return False
        name, zone = g.names[0], g.domain.zone
        kind, rest = split_kind_test(b.where, name)
        cards = self.board_candidates(zone, kind)
        base, n = self.L.board_range(zone)
        if cards is None or len(cards) > n or ctx.bindings * len(cards) > tuning.FREE_BINDINGS:
            return False
        grid = self.on_grid_board(zone)
        placed = {name: self.grid(zone)} if grid else {}
        if rest is not None and not never_fails(rest, {name}, self.surely_there(rest, {name}, placed, ctx), placed):
            return False
        v = self.fresh("v")
        inner = ctx.bind({name: Bound(v, True, zone if grid else None)}).but(bindings=ctx.bindings * len(cards))
        stmts = leaf(inner)
        test = code.expr("A <= where[V] < B", A=base, V=v, B=base + n)
        if rest is not None:
            test = ast.BoolOp(ast.And(), [test, self.expr(rest, fn, inner)])
        out.append(ast.For(ast.Name(v, STORE), self.const(tuple(cards)), [ast.If(test, stmts, [])], [], None))
        return True

    @staticmethod
    def surely_there(e: ir.Expr, cards: set[str], placed: dict, ctx: Ctx) -> set[str]:
        """The lazy values of e that fail at its first evaluation if they fail at all: those it surely
        computes first, and a card's row where its column is one of those (or its column where its
        row is): a card is on a grid's space, which has both, or it has neither."""
        lazy = {n: v.value for n, v in ctx.scope.items() if isinstance(v, LazyBound)}
        first = set(surely_computed_first(e, cards, placed))
        where = {_position_of(lazy[n]) for n in first if n in lazy}
        return first | {h.name for h in walk(e) if isinstance(h, Hoisted) and h.name in lazy
                        and _position_of(lazy[h.name]) in where - {None}}

    def space_order(self, b: ir.Binder) -> list[int] | None:
        """For `ordered by` keys made of the column and row of one name's card on a whole grid board
        (and numbers, + - *): the board's spaces in the order the keys put them (ties as the board
        has them). A stable sort puts the cards in that order of their spaces, each space's as it
        lists them. None for other keys."""
        g = b.groups[0]
        if len(b.groups) != 1 or len(g.names) != 1 or not isinstance(g.domain.ty, BoardT) \
                or not self.on_grid_board(g.domain.zone) or self.L.rs.zones[g.domain.zone].gaps:
            return None
        base, n = self.L.board_range(g.domain.zone)
        keys = {z: tuple(_key_at(k.value, g.names[0], self.L.space[z]) for k in b.order) for z in range(base, base + n)}
        if any(None in key for key in keys.values()):
            return None
        return sorted(keys, key=lambda z: tuple(-x if k.descending else x for x, k in zip(keys[z], b.order)))

    def where_never_fails(self, b: ir.Binder, ctx: Ctx) -> bool:
        """Whether the test of one name over a grid board can never fail (hoist.never_fails), its
        `exists x in SPACE where x is T` tests made by one set operation, counting no work."""
        g, where = b.groups[0], b.where
        if where is None:
            return True
        name, zone = g.names[0], self.L.rs.zones[g.domain.zone]
        size_bound = self.g.binders.size_bound
        size = size_bound(g.domain)
        tests = [q for q in walk(where) if isinstance(q, ir.Quantified)]
        small = ctx.bindings is not None and size is not None and all(
            (bound := size_bound(q.binder.groups[0].domain)) is not None
            and ctx.bindings * size * bound <= tuning.FREE_BINDINGS for q in tests)
        placed = {name: self.grid(zone.name)}
        return never_fails(where, {name}, self.surely_there(where, {name}, placed, ctx), placed, kind_tests=small)

    def grid(self, board: str) -> Grid:
        z = self.L.rs.zones[board]
        return Grid(board, z.columns, z.rows, bool(z.gaps))

    def on_grid_board(self, board: str) -> bool:
        """Every space of the board has a column and a row (cards there have both)."""
        base, n = self.L.board_range(board)
        return all(self.L.space[z] for z in range(base, base + n))

    def board_candidates(self, board: str, kind: str | None = None) -> list[int] | None:
        """The cards that can ever be on a board (of one type, if given), by the zone analysis;
        None when the rules were not analysed."""
        possible = self.program.possible if self.program is not None else None
        if possible is None:
            return None
        kinds = possible.get(board, frozenset())
        return [c for c, k in enumerate(self.L.kind_of) if k in kinds and (kind is None or k == kind)]

    def few_on_board(self, board: str, spaces: int) -> list[int] | None:
        """The cards that can ever be on a board, when the zone analysis says they are few beside
        its spaces (a track of 72 spaces and 4 cubes); None when looking at every space is as quick."""
        cards = self.board_candidates(board)
        return cards if cards is not None and len(cards) * tuning.FEW_CARDS <= spaces else None

    def scans_board(self, e: ir.Quantified) -> list[int] | None:
        """The few cards board_scan looks at, if e is of its shape."""
        groups, kind, where = e.binder.groups, e.kind, e.binder.where
        if kind not in ("exists", "count", "first", "last") or e.binder.order or len(groups) != 1 \
                or len(groups[0].names) != 1 or not isinstance(groups[0].domain.ty, BoardT):
            return None
        g, name = groups[0], groups[0].names[0]
        few = self.few_on_board(g.domain.zone, self.L.board_range(g.domain.zone)[1])
        if few is None or where is not None and not never_fails(where, {name},
                                                                set(surely_computed_first(where, {name}))):
            return None
        return few

    def board_scan(self, e: ir.Quantified, fn, ctx: Ctx) -> ast.expr | None:
        """`exists`, `count`, `first` or `last` of one name over a big board that few cards can reach
        (a track and its cubes): those cards looked at in their own order, each tested for being on the
        board, with no list of them made in the board's order (`first` and `last` sort the matches into
        it, when there are several). Only when the test can never fail: then looking at the cards in
        another order, or at more of them, changes nothing. None when the quantifier is not of that shape."""
        few = self.scans_board(e)
        if few is None:
            return None
        groups, kind, where = e.binder.groups, e.kind, e.binder.where
        g, name = groups[0], groups[0].names[0]
        base, n = self.L.board_range(g.domain.zone)
        q, v = Function(self.fresh("q"), note=location(e.span) if e.span is not None else None), self.fresh("v")
        grid = g.domain.zone if self.on_grid_board(g.domain.zone) else None
        inner = ctx.bind({name: Bound(v, True, grid)}).but(
            pure=True, bindings=ctx.bindings * len(few) if ctx.bindings is not None else None)
        test = code.expr("A <= st.where[V] < B", A=base, V=v, B=base + n)
        if where is not None:
            test = ast.BoolOp(ast.And(), [test, self.expr(where, q, inner)])
        found = self.fresh("found")
        if kind == "exists":
            setup, leaf, finish = [], code.stmts("return True"), code.stmts("return False")
        elif kind == "count":
            setup, leaf, finish = [code.assign(found, 0)], code.stmts("F += 1", F=found), code.stmts("return F", F=found)
        else:
            setup, leaf = [code.assign(found, ast.List([], LOAD))], code.stmts("F.append(V)", F=found, V=v)
            finish = code.stmts("if not F:\n    _fail(ERR)\nreturn F[0] if len(F) == 1 else _board_order(st, F)[END]",
                                F=found, ERR=self.error(e.span, f"{kind}(): no card or value matches"),
                                END=0 if kind == "first" else -1)
        q.body += setup + [ast.For(ast.Name(v, STORE), self.const(few), [ast.If(test, leaf, [])], [], None)] + finish
        fn.prelude.append(self.g.units.nested_function(q))
        return CallNested(q.name)


def split_kind_test(where: ir.Expr | None, name: str) -> tuple[str | None, ir.Expr | None]:
    """(T, the rest of the test) for a `where` that first tests `name is T` (alone, or on the left
    of `and`s); (None, where) otherwise."""
    if isinstance(where, ir.IsType) and not where.negated and isinstance(where.subject, ir.Local) \
            and where.subject.name == name:
        return where.kind, None
    if isinstance(where, ir.Binary) and where.op == "and":
        kind, left = split_kind_test(where.left, name)
        if kind is not None:
            return kind, where.right if left is None else dataclasses.replace(where, left=left)
    return None, where


def _position_of(e: ir.Expr):
    """The card whose `column` or `row` e is, as an expression; None if e is neither."""
    if isinstance(e, ir.BuiltinCall) and e.name in ("column", "row") and len(e.args) == 1 \
            and not isinstance(e.args[0].ty, ZoneT):
        return e.args[0]
    return None


def _key_at(e: ir.Expr, name: str, space: tuple[int, int]) -> int | None:
    """An `ordered by` key's value for a card of `name` on a grid space (column, row), if it
    depends on nothing else: numbers, its column and row, + - *; None otherwise."""
    if isinstance(e, ir.Const) and type(e.value) is int:
        return e.value
    if _position_of(e) is not None and isinstance(e.args[0], ir.Local) and e.args[0].name == name:
        return space[0] if e.name == "column" else space[1]
    if isinstance(e, ir.Unary) and e.op == "-":
        x = _key_at(e.operand, name, space)
        return -x if x is not None else None
    if isinstance(e, ir.Binary) and e.op in ("+", "-", "*"):
        x, y = _key_at(e.left, name, space), _key_at(e.right, name, space)
        if x is None or y is None:
            return None
        return x + y if e.op == "+" else x - y if e.op == "-" else x * y
    return None
