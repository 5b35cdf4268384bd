"""Lists in generated code: a type's values, an item by its place, the lines of a grid."""
from __future__ import annotations


class Lists:
    """Mixed into the expressions' generator."""

    def expr_typevalues(self, e, fn, scope):
        return self.const(list(self.L.rs.enums[e.enum].values))

    def expr_index(self, e, fn, scope):
        err = self.error(e.span, "no such item of the list")
        return f"_item({self.expr(e.obj, fn, scope)}, {self.expr(e.index, fn, scope)}, {err})"

    def builtin_lines(self, e, fn, scope):
        """Every line of n spaces in a row on a grid: a list made once for each grid and n."""
        board = e.args[0].zone if e.name == "lines" else e.args[0].ty.board
        zone = self.L.rs.zones[board]
        base, count = self.L.board_range(board)
        gaps = frozenset(base + i for i in range(count) if self.L.gap[base + i])
        through = f", {self.expr(e.args[0], fn, scope)}" if e.name == "lines_through" else ""
        return f"_lines({zone.columns}, {zone.rows}, {base}, {self.const(gaps)}, {self.expr(e.args[1], fn, scope)}" \
               f"{through})"

    builtin_lines_through = builtin_lines
