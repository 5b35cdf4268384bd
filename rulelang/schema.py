"""A JSON Schema for ruleset files, so an editor can check and complete them.

`rulelang schema` prints it. An editor with a YAML language server (VS Code's
YAML extension, Neovim's yamlls, …) uses it for completion, hover text and
on-the-fly errors. It is written out from the tables the loader's readers
check keys against (`loader.FILE` and the sections' `Keys`,
rulelang/sections/shapes.py), so the two say the same. The schema knows the
YAML structure only; the rules text inside (`do:`, `define:`, …) is checked
by `rulelang check`.
"""
from __future__ import annotations

from typing import Any

from .loader import FILE
from .sections.shapes import AnyOf, Anything, Choice, Keys, ListOf, Named, Scalar, Shape

DRAFT = "http://json-schema.org/draft-07/schema#"


def schema() -> dict[str, Any]:
    return {"$schema": DRAFT, "title": "rulelang ruleset", **json_schema(FILE)}


def json_schema(shape: Shape) -> dict[str, Any]:
    """One shape as JSON Schema (draft 7)."""
    out: dict[str, Any]
    if isinstance(shape, Anything):
        return {}
    if isinstance(shape, Scalar):
        out = {"type": shape.types[0] if len(shape.types) == 1 else list(shape.types)}
        if shape.pattern is not None:
            out["pattern"] = shape.pattern
        if shape.minimum is not None:
            out["minimum"] = shape.minimum
        if shape.maximum is not None:
            out["maximum"] = shape.maximum
        if shape.rules is not None:
            out["x-rules"] = shape.rules  # a keyword of our own (validators ignore it): rules text, for editors
    elif isinstance(shape, Choice):
        out = {"enum": list(shape.words)}
    elif isinstance(shape, ListOf):
        out = {"type": "array", "items": json_schema(shape.item)}
    elif isinstance(shape, Named):
        out = {"type": "object", "additionalProperties": json_schema(shape.value)}
    elif isinstance(shape, Keys):
        out = {"type": "object", "properties": {k.name: json_schema(k.shape) for k in shape.keys},
               "additionalProperties": False}
        required = [k.name for k in shape.keys if k.required]
        if required:
            out["required"] = required
        if shape.one_key:
            out["minProperties"] = out["maxProperties"] = 1
    elif isinstance(shape, AnyOf):
        out = {"anyOf": [json_schema(s) for s in shape.shapes]}
    else:
        raise TypeError(f"no JSON Schema for {type(shape).__name__}")
    text = getattr(shape, "text", "")
    return {**out, "description": text} if text else out
