"""Where generated code comes from, as its notes say it: `FILE:LINE` of the rule.

Code written in place from a define or a procedure keeps the chain of where it
was written from: each span of an inlined body is a `Via`, which knows the call
it was written at (itself perhaps a `Via`) and what was called, so a note reads
`rulesets/twenty-trials.yaml:348 via can_complete :215`: the rule, then each
define or procedure on the way, at the line of its own that the code is.
A `Via` is a `Span` (errors are still located at the line that is wrong).
"""
from __future__ import annotations


from rulelang.errors import Span
from rulelang.files import location
from rulelang.records import record


@record
class Via(Span):
    """A span of a define's or procedure's body written in place at `call`, the call's own span."""
    call: Span | None = None
    name: str = ""  # the define or procedure


def origin(span: Span) -> str:
    """`FILE:LINE` of a rule, and for code written in place, the chain from the rule that called it."""
    if isinstance(span, Via) and span.call is not None:
        return f"{origin(span.call)} via {span.name} :{span.line}"
    return location(span)


def marker(call: Span | None, name: str):
    """A body being written in place is marked as written from the call, node by node, as the pass
    that copies it goes (fold.py): `mark(span)` is the span of a copied node, a `Via` of the call,
    so its notes say where it was written from (None: a call without a place, nothing to mark)."""
    if call is None:
        return None

    def mark(span: Span) -> Via:
        # Via(span.source, ..., call=call, name=name) as walk.replaced builds a node: a frozen
        # dataclass's __init__ sets each field through object.__setattr__, and every node of every
        # body written in place is marked (a tenth of folding Hand of Fate)
        made = object.__new__(Via)
        made.__dict__.update(source=span.source, line=span.line, col=span.col, end_line=span.end_line,
                             end_col=span.end_col, call=call, name=name)
        return made
    return mark
