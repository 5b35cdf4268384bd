"""`define:` and `procedures:`: named values and named statements, with their
parameters; text in the wrong one of the two is reported as misplaced."""
from __future__ import annotations

import re
from typing import Any

from .. import ir, texts
from ..types import BOOL
from ..errors import Span, did_you_mean
from ..parser import Origin, ParseError, parse_block, parse_expression
from ..yamltree import YMap, YNode, YScalar
from .reader import Reader
from .shapes import ASSUMED, CHECKED, EXPRESSION, PROSE, RULES, AnyOf, Key, Keys, Named
from .values import signature

PARAM_SPEC = Keys("a true/false parameter's words", (
    Key("text", PROSE),))  # "{p} acquires wherever they are": the condition the parameter stands for, printed
PARAMS = Named(PARAM_SPEC, "words for the parameters: `flag: {text: ...}` for a true/false one")
DEFINE_SPEC = Keys("a named value", (Key("value", EXPRESSION, required=True), Key("text", PROSE),
                                    Key("means", PROSE), Key("params", PARAMS), Key("checked", CHECKED),
                                    Key("assumed", ASSUMED)))
DEFINE = AnyOf((EXPRESSION, DEFINE_SPEC))
PROCEDURE_SPEC = Keys("named statements", (Key("do", RULES, required=True), Key("text", PROSE),
                                           Key("params", PARAMS), Key("checked", CHECKED),
                                           Key("assumed", ASSUMED)))
PROCEDURE = AnyOf((RULES, PROCEDURE_SPEC))


def read_functions(reader: Reader, node: YNode | None, what: str, enums, card_types) -> dict:
    result = {}
    for key, (span, value) in reader.entries(node, what):
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*", key)
        if not m:
            reader.diag.error(span, f"a {what} is written `name(param, type param): ...`, not '{key}'")
            continue
        name, params = m.group(1), signature(reader, m.group(2) or "", span, enums, card_types)
        text = means = None
        said: tuple[tuple[str, str], ...] = ()
        body_node: YNode | None = value
        if isinstance(value, YMap):
            field, other = ("value", "do") if what == "define" else ("do", "value")
            if other in value and field not in value:
                misplaced(reader, value.key_span(other), key, what)
                continue
            reader.keys(value, DEFINE_SPEC if what == "define" else PROCEDURE_SPEC, f"{what} '{name}'")
            text = reader.text(value.get("text"), "text")
            check_placeholders(reader, value.get("text"), [p for p, _ in params], f"{what} '{name}'")
            if what == "define":
                means = reader.text(value.get("means"), "means")
                check_placeholders(reader, value.get("means"), [p for p, _ in params], f"{what} '{name}'")
            said = param_texts(reader, value.get("params"), params, f"{what} '{name}'")
            body_node = value.get(field)
            if body_node is None:
                reader.diag.error(span, f"{what} '{name}' has no '{field}:'")
                continue
        body = function_body(reader, body_node, what, key, span)
        if not reader.declare(name, what, span) or body is None:
            continue
        made: ir.Define | ir.Procedure = ir.Define(name, params, body, text, reader.assumed(value), reader.pin(value),
                                                   means, said, span=span) if what == "define" else \
            ir.Procedure(name, params, body, text, reader.assumed(value), reader.pin(value), said, span=span)
        result[name] = made
    return result


def function_body(reader: Reader, node: YNode | None, what: str, key: str, span: Span) -> Any:
    """A define's value or a procedure's statements. Text that does not
    read as one but reads as the other is in the wrong section, and the
    error says so instead of pointing at its first word."""
    kind, other = ("expression", "block") if what == "define" else ("block", "expression")
    errors = len(reader.diag.items)
    body = reader.snippet(node, kind)
    if body is not None or len(reader.diag.items) != errors + 1 or not isinstance(node, YScalar) \
            or not isinstance(node.value, str):
        return body
    try:
        (parse_block if other == "block" else parse_expression)(node.value, Origin(node.span_at),
                                                                 reader.limits.nesting, reader.own)
    except ParseError:
        return None
    if other == "block" and node.value.strip().split()[1:2] == ["="]:
        return None  # `x = 1` as a value: more likely a comparison (the error says to use ==)
    del reader.diag.items[errors:]
    misplaced(reader, span, key, what)
    return None


def misplaced(reader: Reader, span: Span, key: str, what: str) -> None:
    if what == "procedure":
        reader.diag.error(span, f"'{key}' is a value, not statements: it is a define, under `procedures:`",
                        "move it under `define:` (procedures do things: move, draw, if ...)")
    else:
        reader.diag.error(span, f"'{key}' is statements, not a value: it is a procedure, under `define:`",
                        "move it under `procedures:` (defines name values and conditions)")


def param_texts(reader: Reader, node: YNode | None, params, what: str) -> tuple[tuple[str, str], ...]:
    """`params: {flag: {text: "{p} acquires wherever they are"}}`: the words of true/false parameters,
    each the condition it stands for where the rules read it (docs/language.md, *Printing*)."""
    types = dict(params)
    said = []
    for key, (span, spec) in reader.entries(node, f"the parameters of {what}"):
        if key not in types:
            reader.diag.error(span, f"{what} has no parameter '{key}'",
                              did_you_mean(key, list(types)) or ("its parameters: " + ", ".join(types) if types
                                                                 else f"{what} has no parameters"))
        elif types[key] != BOOL:
            reader.diag.error(span, f"parameter '{key}' of {what} is not true/false: only a true/false parameter has "
                                    "words of its own", "a parameter of another kind is said by its argument")
        elif reader.expect_map(spec, f"parameter '{key}' of {what}") is not None:
            assert isinstance(spec, YMap)
            reader.keys(spec, PARAM_SPEC, f"parameter '{key}' of {what}")
            text = reader.text(spec.get("text"), "text")
            check_placeholders(reader, spec.get("text"), list(types), f"parameter '{key}' of {what}")
            if text:
                said.append((key, text))
    return tuple(said)


def check_placeholders(reader: Reader, node: YNode | None, names, what: str) -> None:
    """`{name}` (and `{name?words|words}`) in a printing text must name one of `names`."""
    text = reader.text(node, "text") if node is not None else None
    for ref in texts.names(text or ""):
        if ref not in names:
            reader.diag.error(node.span, f"the text of {what} names unknown parameter '{ref}'",
                            did_you_mean(ref, names) or ("its parameters: " + ", ".join(names) if names
                                                         else f"{what} has no parameters"))
