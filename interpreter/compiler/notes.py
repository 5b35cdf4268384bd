"""Where generated code comes from, as its notes say it: `FILE:LINE` of the rule."""
from __future__ import annotations

from rulelang.files import location


def origin(span) -> str:
    return location(span)
