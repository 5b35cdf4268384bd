"""Python's cyclic garbage collector paused while a pass builds many objects.

Reading a ruleset and compiling a mode each make hundreds of thousands of small
objects (parse trees, IR nodes, generated code as `ast` nodes) that stay alive
while the pass runs; the collector, started every 700 allocations, walks the
young ones again and again and finds nothing to free: a fifth of a compile's
time (Hand of Fate). What the pass leaves unreachable is freed by reference
counting as before; cycles wait for the collector's next run, after the pass.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off inside, as it was after (a pause inside another changes nothing)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
