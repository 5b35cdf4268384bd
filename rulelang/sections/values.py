"""Sections of values and their types: `types:` (named sets of values, their
icons), `params:`, `dice:` and `vars:`; and the types a parameter, a
variable or a state value is declared with."""
from __future__ import annotations

import re

from .. import ir
from ..errors import Span, did_you_mean
from ..words import KEYWORDS
from ..types import BOOL, INT, NONE, ROLE, TEXT, CardT, EnumT, ListT, Type, ZoneT
from ..yamltree import YList, YMap, YNode, YScalar
from .reader import Reader
from .shapes import ASSUMED, NAME, NAMES, AnyOf, Choice, Key, Keys, ListOf, Named, Scalar, string

TYPE_SPEC = Keys("a named set of values", (
    Key("values", ListOf(NAME), required=True), Key("text", string("what it is")),
    Key("icons", AnyOf((Scalar(("boolean",)), Named(Scalar(("string",)))),
                       "printed as icons: true (an icon named like each value) or {value: icon}")),
    Key("names", NAMES),
))
TYPE = AnyOf((ListOf(NAME, "the type's values"), TYPE_SPEC))
PARAM_SPEC = Keys("a parameter a player sets with --set NAME=VALUE", (
    Key("default", Scalar(("boolean", "integer", "string"), "true/false, a number, or one of the choices"),
        required=True),
    Key("text", string("what the parameter does")),
    Key("choices", ListOf(NAME, "the values it may take (also a type)")),
    Key("min", Scalar(("integer",))), Key("max", Scalar(("integer",))), Key("assumed", ASSUMED),
))
PARAM = AnyOf((Scalar(("boolean", "integer", "string"), "the default value"), PARAM_SPEC))
DIE = AnyOf((string("its faces: a range like 1..8"), ListOf(Scalar(("integer",)), "its faces, which may repeat")))
INITIAL = Scalar(("integer", "boolean", "string", "null"),
                 "a number, true/false, a value of a type, a role, or none (with `type:`)")
VAR_INITIAL = AnyOf((INITIAL, ListOf(Scalar(("integer",)), "a list of numbers (`[]`: the dice a roll puts there)")))
VAR_SPEC = Keys("a game variable", (
    Key("initial", VAR_INITIAL, required=True),
    Key("type", string("its type, where the initial value does not say it: role, a type, a card type")),
    Key("owner", Choice(("each",), "every player has their own, read `NAME of p`")),
    Key("min", Scalar(("integer",), "a number's lower bound: a change past it stops there")),
    Key("max", Scalar(("integer",), "a number's upper bound: a change past it stops there")),
    Key("seen_by", Choice(("all", "owner", "none"), "who sees its value: everyone, each player their own, or no one "
                                                    "until it is revealed (a roll into it is a secret roll)")),
    Key("text", string("what it counts")), Key("assumed", ASSUMED),
    Key("component", string("the components players count it with, as many as its `max:` (`cube`: a cube a "
                            "life point); listed among the components")),
))
VAR = AnyOf((Scalar(("integer", "boolean", "string"), "the initial value"), VAR_SPEC))
PARAM_KEYS, VAR_KEYS = PARAM_SPEC.names, VAR_SPEC.names
D6 = ir.Die("d6", (1, 2, 3, 4, 5, 6))  # built in: a ruleset may roll it without declaring it
MAX_FACES = 10_000  # a d100 is the largest die in common use


def read_enums(reader: Reader, node: YNode | None) -> dict[str, ir.EnumDef]:
    enums: dict[str, ir.EnumDef] = {}
    for name, (span, value) in reader.entries(node, "types"):
        text, icons_node, names_node = None, None, None
        listed: YNode | None = value
        if isinstance(value, YMap):
            reader.keys(value, TYPE_SPEC, f"type '{name}'")
            text = reader.text(value.get("text"), "text")
            icons_node, names_node = value.get("icons"), value.get("names")
            listed = value.get("values")
        if not isinstance(listed, YList) or not listed.items:
            reader.diag.error(span, f"type '{name}' must list its values, e.g. [red, green]")
            continue
        if reader.declare(name, "type", span):
            values = enum_values(reader, listed)
            enums[name] = ir.EnumDef(name, values, text, icons(reader, icons_node, values),
                                     printed_names(reader, names_node, values, f"type '{name}'"), span=span)
    return enums


def counted_with(reader: Reader, spec, what: str, high: int | None) -> str | None:
    """`component: cube`: players count the variable with components (a cube a life point), as many
    as its `max:`; the printed components count them."""
    node = spec.get("component") if isinstance(spec, YMap) else None
    if node is None:
        return None
    noun = reader.text(node, "component")
    if noun is None or not re.fullmatch(r"[^\W\d_]+(?:[ -][^\W\d_]+)*", noun):
        reader.diag.error(node.span, f"component is a noun, not '{noun}'", "e.g. `component: cube`")
        return None
    if high is None:
        reader.diag.error(node.span, f"{what} is counted with components, so it needs `max:` (how many)")
        return None
    return noun


def printed_names(reader: Reader, node: YNode | None, known, what: str) -> ir.FrozenMap:
    """`names: {side_b: B side, t: Trickster}`: what the printed rules call a value or a field
    (a name is for the rules; this is for players). Each key must be one of `known`."""
    if node is None:
        return ir.frozen_map({})
    out = {}
    for key, (span, value) in (reader.expect_map(node, "names") or YMap(span=None)).entries.items():
        if key not in known:
            reader.diag.error(span, f"{what} has no '{key}' to name", did_you_mean(key, list(known))
                              or "names: maps its own names to the words players read")
            continue
        text = reader.text(value, "a printed name")
        if text is not None and text.strip():
            out[key] = text.strip()
    return ir.frozen_map(out)


def icons(reader: Reader, node: YNode | None, values: tuple[str, ...]) -> ir.FrozenMap:
    """`icons: true` (each value is the icon of its name) or `{value: icon}`."""
    if node is None or isinstance(node, YScalar) and node.value is False:
        return ir.frozen_map({})
    if isinstance(node, YScalar) and node.value is True:
        return ir.frozen_map({v: v for v in values})
    if not isinstance(node, YMap):
        reader.diag.error(node.span, "icons must be `true` or a mapping of values to icon names",
                        "e.g. `icons: {dust: skull, plague: drop}`")
        return ir.frozen_map({})
    icons = {}
    for value, (vspan, icon) in node.entries.items():
        if value not in values:
            reader.diag.error(vspan, f"'{value}' is not one of this type's values", did_you_mean(value, values))
        else:
            icons[value] = reader.text(icon, "an icon name")
    return ir.frozen_map(icons)


def enum_values(reader: Reader, node: YList) -> tuple[str, ...]:
    values = []
    for item in node.items:
        v = reader.text(item, "a value")
        if v is None:
            continue
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v) or v in KEYWORDS:
            reader.diag.error(item.span, f"'{v}' cannot be a value name",
                            "values are names: letters, digits and _, not a reserved word")
        elif v in values:
            reader.diag.error(item.span, f"value '{v}' is listed twice")
        else:
            values.append(v)
    return tuple(values)


def read_params(reader: Reader, node: YNode | None, enums) -> dict[str, ir.ParamDef]:
    params = {}
    for name, (span, value) in reader.entries(node, "params"):
        spec = value if isinstance(value, YMap) else None
        if spec is not None:
            reader.keys(spec, PARAM_SPEC, f"parameter '{name}'")
            default_node = spec.get("default")
        else:
            default_node = value
        choices_node = spec.get("choices") if spec is not None else None
        if not isinstance(default_node, YScalar) or default_node.value is None:
            reader.diag.error(span, f"parameter '{name}' needs a default value",
                            f"e.g. `{name}: {{default: false, text: ...}}`")
            continue
        default = default_node.value
        choices: tuple = ()
        if isinstance(default, bool):
            ty: Type = BOOL
        elif isinstance(default, int):
            ty = INT
        elif isinstance(default, str) and isinstance(choices_node, YList):
            choices = enum_values(reader, choices_node)
            if default not in choices:
                reader.diag.error(default_node.span, f"default '{default}' is not one of the choices")
            ty = EnumT(f"{name}")
        else:
            reader.diag.error(default_node.span, f"parameter '{name}' must default to true/false, a number, "
                            "or one of its `choices:`")
            continue
        what = f"parameter '{name}'"
        low = bound(reader, spec, "min", what) if spec is not None else None
        high = bound(reader, spec, "max", what) if spec is not None else None
        if reader.declare(name, "parameter", span):
            text = reader.text(spec.get("text"), "text") if spec is not None else None
            params[name] = ir.ParamDef(name, ty, default, text, choices, low, high,
                                       assumed=reader.assumed(spec), span=span)
            if choices:  # a parameter with choices is also its own enum type
                enums.setdefault(name, ir.EnumDef(name, choices, text, span=span))
    return params


def read_dice(reader: Reader, node: YNode | None) -> dict[str, ir.Die]:
    """`dice: {d8: 1..8, attack: [0, 0, 1, 1, 2, 3]}`: each die by its faces
    (a range, or a list of numbers that may repeat)."""
    dice = {}
    for name, (span, value) in reader.entries(node, "dice"):
        die_faces = faces(reader, value, name, span)
        if reader.declare(name, "die", span) and die_faces:
            dice[name] = ir.Die(name, die_faces, span=span)
    return dice


def faces(reader: Reader, node: YNode | None, name: str, span: Span) -> tuple[int, ...]:
    """A die's faces: a range `1..8` or a list of numbers."""
    where = node.span if node is not None else span
    if isinstance(node, YList):
        faces = tuple(item.value for item in node.items if isinstance(item, YScalar) and type(item.value) is int)
        if len(faces) != len(node.items):
            reader.diag.error(where, f"the faces of die '{name}' are numbers", "e.g. [0, 0, 1, 1, 2, 3]")
            return ()
    else:
        text = str(node.value).strip() if isinstance(node, YScalar) else ""
        m = re.fullmatch(r"(-?[0-9]{1,18})\s*\.\.\s*(-?[0-9]{1,18})", text)
        if not m:
            reader.diag.error(where, f"die '{name}' needs its faces: a range like 1..8 or a list of numbers")
            return ()
        low, high = int(m.group(1)), int(m.group(2))
        faces = tuple(range(low, min(high, low + MAX_FACES) + 1))
    if not 0 < len(faces) <= MAX_FACES:
        reader.diag.error(where, f"die '{name}' needs 1 to {MAX_FACES:,} faces")
        return ()
    return faces


def read_vars(reader: Reader, node: YNode | None, enums, card_types, roles) -> dict[str, ir.VarDef]:
    """`name: INITIAL` or `name: {initial:, type:, owner: each, min:, max:, text:}`."""
    variables = {}
    for name, (span, value) in reader.entries(node, "vars"):
        spec = value if isinstance(value, YMap) else YMap(span=span, entries={"initial": (span, value)})
        reader.keys(spec, VAR_SPEC, f"variable '{name}'")
        what = f"variable '{name}'"
        ty, initial = typed_value(reader, spec, what, span, enums, card_types, roles, lists=True)
        if ty is None:
            continue
        owner = reader.choice(spec, "owner", VAR_SPEC.choices("owner"), None) if spec.get("owner") is not None else None
        low, high = bound(reader, spec, "min", what), bound(reader, spec, "max", what)
        if (low is not None or high is not None) and ty != INT:
            reader.diag.error(span, f"only a number has bounds; {what} is {ty}")
        elif low is not None and high is not None and low > high:
            reader.diag.error(span, f"{what}: min {low} is above max {high}")
        elif ty == INT and not (low if low is not None else initial) <= initial \
                <= (high if high is not None else initial):
            reader.diag.error(span, f"{what} starts at {initial}, outside its bounds {low}..{high}")
        seen_by = reader.choice(spec, "seen_by", VAR_SPEC.choices("seen_by"), "all")
        if seen_by == "owner" and owner != "each":
            reader.diag.error(spec.get("seen_by").span, f"only a player's own variable is seen by its owner; "
                              f"{what} is one for the whole game", "add `owner: each`, or say `seen_by: none`")
        if reader.declare(name, "variable", span):
            variables[name] = ir.VarDef(name, ty, initial, reader.text(spec.get("text"), "text"),
                                        reader.assumed(spec), owner, low, high,
                                        component=counted_with(reader, spec, what, high), seen_by=seen_by,
                                        span=span)
    return variables


def typed_value(reader: Reader, spec: YMap, what: str, span: Span, enums, card_types, roles, lists: bool = False):
    """(type, initial value) of a variable or a state value: the type is
    `type:`, or follows from the initial value (a number, true/false, a
    value of a type, a role); `none` needs a `type:`."""
    node = spec.get("initial")
    if isinstance(node, YList) and lists:  # a variable's list of numbers: `initial: []`, the dice a roll puts there
        values = [i.value for i in node.items if isinstance(i, YScalar)]
        if len(values) != len(node.items) or not all(type(v) is int for v in values):
            reader.diag.error(node.span, f"{what} starts as a list: of numbers only", "e.g. `initial: []`")
            return None, None
        return ListT(INT), values
    initial = node.value if isinstance(node, YScalar) else None
    declared = None
    if spec.get("type") is not None:
        tname = reader.text(spec.get("type"), "a type")
        declared = type_named(reader, tname, spec.value_span("type"), enums, card_types) if tname else None
        if declared is None:
            return None, None
    enum_of = {v: e.name for e in enums.values() for v in e.values}
    role_names = {r.name for r in roles}
    if isinstance(initial, bool):
        found: Type | None = BOOL
    elif isinstance(initial, int):
        found = INT
    elif isinstance(initial, str) and initial in role_names:
        found = ROLE
    elif isinstance(initial, str) and initial in enum_of:
        found = EnumT(enum_of[initial])
    elif initial in (None, "none") and isinstance(node, YScalar) and declared is not None \
            and declared.fits(NONE):
        return declared, None  # `none`: no role, no card, no value yet
    else:
        found = None
    if found is None or declared is not None and not declared.fits(found):
        hint = "e.g. `{type: role, initial: none}`" if initial is None else \
            f"a {declared} cannot start as {initial!r}" if declared is not None else None
        reader.diag.error(span, f"{what} needs an initial value: a number, true/false, a value of a type "
                              "or a role (with `type:`, also none)", hint)
        return None, None
    return declared or found, initial


def bound(reader: Reader, spec: YMap, key: str, what: str) -> int | None:
    node = spec.get(key)
    if node is None:
        return None
    if not isinstance(node, YScalar) or not isinstance(node.value, int) or isinstance(node.value, bool):
        reader.diag.error(node.span, f"{what}: `{key}:` must be a whole number")
        return None
    return node.value


def type_named(reader: Reader, name: str, span: Span, enums, card_types) -> Type | None:
    simple = {"number": INT, "int": INT, "bool": BOOL, "text": TEXT, "role": ROLE,
              "card": CardT(frozenset(card_types)), "zone": ZoneT(frozenset(card_types))}
    if name in simple:
        return simple[name]
    if name == "board":
        reader.diag.error(span, "a board cannot be a parameter: its spaces are found by its name",
                        "name the board inside the define, or pass one of its spaces as a `zone`")
        return None
    if name in enums:
        return EnumT(name)
    if name in card_types:
        return CardT(frozenset({name}))
    reader.unknown(span, "type", name, [*simple, *enums, *card_types])
    return None


def signature(reader: Reader, text: str, span: Span, enums, card_types) -> tuple:
    params = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        words = part.split()  # `name` or `type name`
        type_name, name = (words[0], words[-1]) if len(words) == 2 else ("", part)
        if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in KEYWORDS:
            reader.diag.error(span, f"'{name}' is not a valid parameter name")
            continue
        params.append((name, type_named(reader, type_name, span, enums, card_types) if type_name else None))
    return tuple(params)
