"""The node every IR record is, and the read-only tables the IR keeps names in."""
from __future__ import annotations

from dataclasses import field

from ..errors import Span
from ..records import record


@record
class Node:
    # where it was written; left out of equality, so two rulesets compare by meaning, not by layout
    span: Span | None = field(default=None, kw_only=True, compare=False, repr=False)


class FrozenMap(dict):
    """A read-only dict: the IR's name tables. Picklable, unlike MappingProxyType."""

    def _readonly(self, *args, **kwargs):
        raise TypeError("the IR is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __reduce__(self):
        return (FrozenMap, (dict(self),))

    def __hash__(self):  # frozen dataclasses holding it stay hashable
        return hash(tuple(self.items()))


def frozen_map(d) -> FrozenMap:
    return FrozenMap(d)
