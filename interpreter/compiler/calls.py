"""The built-in functions (rulelang.builtins) -> Python expressions: one method each."""
from __future__ import annotations

from rulelang.types import ZoneT

from . import pycode as code
from .context import Part
from .hoist import near_space


class Calls(Part):
    def __init__(self, gen):
        super().__init__(gen)
        self._near: dict[tuple[str, int, int], list] = {}  # near_table's tables

    def cards(self, e, fn, ctx):
        return self.g.exprs.cards_of(e, fn, ctx)

    def builtin_round(self, e, fn, ctx):
        return code.expr("st.round")

    def builtin_size(self, e, fn, ctx):
        return code.call("len", self.cards(e.args[0], fn, ctx))

    def builtin_empty(self, e, fn, ctx):
        return code.expr("not CARDS", CARDS=self.cards(e.args[0], fn, ctx))

    def builtin_top(self, e, fn, ctx):
        return code.expr("T[END] if (T := CARDS) else None", T=self.fresh("t"), END=-1 if e.name == "top" else 0,
                         CARDS=self.cards(e.args[0], fn, ctx))

    builtin_bottom = builtin_top

    def builtin_abs(self, e, fn, ctx):
        return code.call("abs", self.expr(e.args[0], fn, ctx))

    def builtin_min(self, e, fn, ctx):
        parts = [self.expr(a, fn, ctx) for a in e.args]
        if len(parts) > 1:
            return code.call(e.name, *parts)
        if e.name in ("min", "max"):
            return code.call("_reduce", e.name, parts[0], self.error(e.span, f"{e.name}() of an empty list"))
        return code.call(e.name, parts[0])

    builtin_max = builtin_sum = builtin_any = builtin_all = builtin_min

    def builtin_face_up(self, e, fn, ctx):
        value, check = self.g.exprs.card(e.args[0], fn, ctx)
        face = code.expr("face[C]", C=code.name(check) if check else value)
        face = face if e.name == "face_up" else code.expr("not FACE", FACE=face)
        if check is None:
            return face
        err = self.error(e.span, "there is no card here to look at")
        return code.expr("FACE if C is not None else _fail(ERR)", FACE=face, C=value, ERR=err)

    builtin_face_down = builtin_face_up

    def builtin_column(self, e, fn, ctx):
        """Where a card is: its space's coordinates; or a grid space's own."""
        name, args = e.name, e.args
        table = self.const(self.L.column_of if name == "column" else self.L.row_of)
        if isinstance(args[0].ty, ZoneT):  # a space (a zone instance): always on its board
            return code.expr("TABLE[Z]", TABLE=table, Z=self.expr(args[0], fn, ctx))
        value, check = self.g.exprs.card(args[0], fn, ctx)
        if check is None and self.g.exprs.on_grid(args[0], ctx) is not None:  # on one of a grid's spaces
            return code.expr("TABLE[where[C]]", TABLE=table, C=value)
        t, err = self.fresh("t"), self.error(e.span, f"{name}(): the card is not on a board")
        found = code.expr("(T := TABLE[where[C]]) is not None", T=t, TABLE=table, C=code.name(check) if check else value)
        if check is not None:
            found = code.expr("C is not None and FOUND", C=value, FOUND=found)
        return code.expr("T if FOUND else _fail(ERR)", T=t, FOUND=found, ERR=err)

    builtin_row = builtin_column

    def builtin_columns(self, e, fn, ctx):
        zone = self.L.rs.zones[e.args[0].zone]
        return code.const(zone.columns if e.name == "columns" else zone.rows)

    builtin_rows = builtin_columns

    def builtin_space(self, e, fn, ctx):
        zone, args = self.L.rs.zones[e.args[0].zone], e.args
        base = self.L.zone_base[zone.name]
        x, y = self.fresh("x"), self.fresh("y")
        err = self.error(e.span, f"space(): {zone.name} has columns 1..{zone.columns} and rows 1..{zone.rows}")
        near = near_space(args[1], args[2]) if self.options.boards and not zone.gaps else None
        fast = t = None
        if near is not None:  # space(B, column(c) + dx, row(c) + dy): from c's own space, when c is on B
            card, dx, dy = near
            value, check = self.g.exprs.card(card, fn, ctx)
            sure = check is None and self.g.exprs.on_grid(card, ctx) == zone.name  # bound from B: on its spaces
            if sure and dx == dy == 0:
                return code.expr("where[C]", C=value)
            t = self.fresh("t")
            fast = code.expr("(T := NEAR[where[C]]) is not None", T=t, NEAR=self.const(self.near_table(zone, dx, dy)),
                             C=code.name(check) if check else value)
            if check is not None:
                fast = code.expr("C is not None and FAST", C=value, FAST=fast)
            if sure:  # on B, so off B's edge
                return code.expr("T if FAST else _fail(ERR)", T=t, FAST=fast, ERR=err)
        found = code.expr("BASE + (Y - 1) * COLUMNS + X - 1 if 1 <= (X := XV) <= COLUMNS and 1 <= (Y := YV) <= ROWS "
                          "else _fail(ERR)", BASE=base, Y=y, X=x, COLUMNS=zone.columns, ROWS=zone.rows,
                          XV=self.expr(args[1], fn, ctx), YV=self.expr(args[2], fn, ctx), ERR=err)
        if fast is not None:  # elsewhere, or off B: as written, for the same value or error
            return code.expr("T if FAST else FOUND", T=t, FAST=fast, FOUND=found)
        if not zone.gaps:
            return found
        t, gap = self.fresh("t"), self.error(e.span, f"space(): {zone.name}'s map has no space there (a gap)")
        return code.expr("T if not GAPS[(T := FOUND)] else _fail(ERR)", T=t, GAPS=self.const(self.L.gap),
                         FOUND=found, ERR=gap)

    def near_table(self, zone, dx: int, dy: int) -> list:
        """For each zone instance, the space of grid `zone` dx columns and dy rows from it when
        the instance is one of the grid's spaces and that space is on the grid; else None.
        One list per offset, so the constants table holds it once."""
        key = (zone.name, dx, dy)
        if key not in self._near:
            base, n = self.L.board_range(zone.name)
            table = [None] * len(self.L.instances)
            for z in range(base, base + n):
                x, y = self.L.space[z]
                if 1 <= x + dx <= zone.columns and 1 <= y + dy <= zone.rows:
                    table[z] = z + dx + dy * zone.columns
            self._near[key] = table
        return self._near[key]

    def builtin_spaces(self, e, fn, ctx):
        base, n = self.L.board_range(e.args[0].zone)
        return self.const([base + i for i in range(n) if not self.L.gap[base + i]])

    def builtin_neighbours(self, e, fn, ctx):
        return code.expr("NEIGHBOURS[Z]", NEIGHBOURS=self.const(self.L.neighbours), Z=self.expr(e.args[0], fn, ctx))

    def builtin_distance(self, e, fn, ctx):
        err = self.error(e.span, f"{e.name}(): there is no way from the one space to the other")
        a, b = (self.expr(x, fn, ctx) for x in e.args)
        way = code.call("_way", self.const(self.L.neighbours), a, b, e.name == "toward", err, self.const({}))
        if not self.g.folding:
            return way
        # a constant being computed: a search counts the spaces it may look at as work
        board = e.args[0].ty.board if isinstance(e.args[0].ty, ZoneT) and e.args[0].ty.board else None
        spaces = self.L.board_range(board)[1] if board is not None else len(self.L.instances)
        return code.expr("(_work(st, SPACES, SPAN, LIMIT), WAY)[1]", SPACES=spaces, SPAN=self.const(e.span),
                         LIMIT=self.g.work_limit, WAY=way)

    builtin_toward = builtin_distance

    def builtin_place(self, e, fn, ctx):
        zone = self.L.rs.zones[e.args[0].zone]
        index = self.const({p: self.L.zone_base[zone.name] + i for i, p in enumerate(zone.places)})
        return code.expr("INDEX[P]", INDEX=index, P=self.expr(e.args[1], fn, ctx))

    def builtin_players(self, e, fn, ctx):
        return self.const(list(self.L.roles))

    def builtin_current(self, e, fn, ctx):
        """Whose turn it is: none outside a round's turns, and in a mode without them."""
        return code.const(None) if self.L.turn_slot is None else code.expr("st.vars[SLOT]", SLOT=self.L.turn_slot)

    def builtin_lines(self, e, fn, ctx):
        """Every line of n spaces in a row on a grid: a list made once for each grid and n."""
        board = e.args[0].zone if e.name == "lines" else e.args[0].ty.board
        zone = self.L.rs.zones[board]
        base, count = self.L.board_range(board)
        gaps = self.const(frozenset(base + i for i in range(count) if self.L.gap[base + i]))
        through = [self.expr(e.args[0], fn, ctx)] if e.name == "lines_through" else []
        return code.call("_lines", zone.columns, zone.rows, base, gaps, self.expr(e.args[1], fn, ctx), *through)

    builtin_lines_through = builtin_lines

    def builtin_seat(self, e, fn, ctx):
        return code.expr("SEAT + 1", SEAT=self.g.exprs.seat_index(e.args[0], fn, ctx, e.span))

    def builtin_in_game(self, e, fn, ctx):
        return code.expr("not st.vars[OUT + SEAT]", OUT=self.L.out_slot,
                         SEAT=self.g.exprs.seat_index(e.args[0], fn, ctx, e.span))

    def builtin_left_of(self, e, fn, ctx):
        step = {"left_of": 1, "right_of": -1, "clockwise": 0}[e.name]
        seat = self.g.exprs.seat_index(e.args[0], fn, ctx, e.span)
        roles = self.L.roles
        if self.g.puts_out or not self.options.idioms:
            return code.call("_turn", "st", self.const(roles), self.L.out_slot, seat, step)
        # no rule puts a player out: the neighbour is a constant's item, the players clockwise a copy of one
        if step == 0:
            return code.call("list", code.expr("ROT[SEAT]", ROT=self.const(self.g.rotations), SEAT=seat))
        return code.expr("ROLES[(SEAT + STEP) % N]", ROLES=self.const(roles), SEAT=seat, STEP=step, N=len(roles))

    builtin_right_of = builtin_clockwise = builtin_left_of
