"""A ruleset file -> checked IR.

    text --yamltree--> positioned YAML --_Reader--> declarations + parsed DSL
         --checker--> resolved, typed IR (`ir.Ruleset`)

Every problem found on the way is collected, so one run reports all of them.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from . import ir
from .abilities import ABILITY_TYPE, ability_names, read_abilities, read_events, read_inline, with_used_flags
from .builtins import RESERVED
from .cardtable import read_card_types
from .checker import check
from .errors import Diagnostic, Diagnostics, RulesetError, Source, Span, did_you_mean
from .files import find_ruleset
from .limits import DEFAULT, Limits, over
from .maps import GRAPH_KEYS, MAP_KEYS, Drawn, read_graph, read_grid_map
from .params import apply_params, whole_number
from .parser import KEYWORDS, Origin, ParseError, parse_block, parse_expression
from .types import BOOL, INT, NONE, ROLE, TEXT, CardT, EnumT, Type, ZoneT
from .variants import Tree, read_tree, resolve
from .yamltree import YList, YMap, YNode, YScalar, load_yaml

TOP_KEYS = ("game", "title", "credits", "source", "text", "assumed", "roles", "players", "params", "types",
            "cards", "zones", "vars", "dice", "define", "procedures", "events", "abilities", "setup", "modes",
            "rulings")
PARAM_KEYS = ("default", "text", "choices", "min", "max", "assumed")
ZONE_KEYS = ("owner", "facing", "seen_by", "holds", "kind", "text", "assumed", "columns", "rows", "article",
             *MAP_KEYS, *GRAPH_KEYS)
ROLE_KEYS = ("text", "article")
VAR_KEYS = ("initial", "type", "owner", "min", "max", "text", "assumed")
PLAYERS_KEYS = ("count", "default", "names", "text")
STEP_KEYS = ("step", "do", "text", "assumed")
RULING_KEYS = ("id", "text", "applies_to")
MODE_KEYS = ("title", "text", "roles", "setup", "round", "score", "ratings", "measures", "assumed",
             "visibility", "watch", "heuristics", "ranking", "quick")
MEASURE_KEYS = ("value", "when", "text")
D6 = ir.Die("d6", (1, 2, 3, 4, 5, 6))  # built in: a ruleset may roll it without declaring it
MAX_FACES = 10_000  # a d100 is the largest die in common use


def load_ruleset(ref: str, params: dict[str, str] | None = None, limits: Limits = DEFAULT,
                 extends_dirs=()) -> ir.Ruleset:
    """Load, check and configure a ruleset; raise RulesetError on any problem.
    `extends_dirs`: folders besides the ruleset's own whose files `extends:` may name."""
    return read_ruleset(read_tree(find_ruleset(ref), limits, extends_dirs), params, limits)


def load_text(text: str, name: str, params: dict[str, str] | None = None, limits: Limits = DEFAULT) -> ir.Ruleset:
    """A ruleset from text; `name` is its file name (an `extends:` path is taken from its folder)."""
    return read_ruleset(resolve(load_yaml(text, name, limits), Path(name), (), limits), params, limits)


def read_ruleset(tree: Tree, params: dict[str, str] | None = None, limits: Limits = DEFAULT) -> ir.Ruleset:
    params = params or {}
    return apply_params(_Reader(tree, limits, params.get("players")).read(), params)


def source_hash(sources: tuple[Source, ...]) -> str:
    """Names the exact text of a ruleset: every file of a variant's chain."""
    return hashlib.sha256(b"\0".join(s.text.encode("utf-8") for s in sources)).hexdigest()[:16]


# ------------------------------------------------------------------ reading


class _Reader:
    """Walks the positioned YAML and builds the (unchecked) declarations."""

    def __init__(self, tree: Tree, limits: Limits = DEFAULT, players=None):
        self.tree = tree.root
        self.limits = limits
        self.players_given = players  # `--set players=N`: the roles depend on it, so it is read first
        self.sources = tree.sources
        self.diag = Diagnostics()
        self.names: dict[str, tuple[str, Span]] = {}  # global name -> (what, where)
        self.inline_abilities: list = []  # abilities written in card rows (abilities.InlineAbility)

    # ---- small helpers that report instead of raising
    def expect_map(self, node: YNode | None, what: str) -> YMap | None:
        if node is None:
            return None
        if isinstance(node, YMap):
            return node
        self.diag.error(node.span, f"{what} must be a mapping of names to values")
        return None

    def assumed(self, spec) -> str | None:
        """The `assumed:` note of a mapping: a value the rulebook does not give."""
        return self.text(spec.get("assumed"), "assumed") if isinstance(spec, YMap) else None

    def article(self, spec: YMap, allowed: tuple[str, ...]) -> str | None:
        """`article:` of a role, zone or card type: how the printed rules introduce it."""
        node = spec.get("article")
        if node is None:
            return None
        value = "" if isinstance(node, YScalar) and node.value in (None, "none") else self.text(node, "article")
        if value not in allowed:
            self.diag.error(node.span, "article must be one of: " + ", ".join(a or "none" for a in allowed))
            return None
        return value

    def text(self, node: YNode | None, what: str) -> str | None:
        if node is None:
            return None
        if isinstance(node, YScalar) and isinstance(node.value, (str, int, float)):
            return str(node.value)
        self.diag.error(node.span, f"{what} must be text")
        return None

    def keys(self, node: YMap, allowed, what: str) -> None:
        for key, (span, _) in node.entries.items():
            if key not in allowed:
                self.diag.error(span, f"unknown key '{key}' in {what}",
                                did_you_mean(key, allowed) or "allowed keys: " + ", ".join(allowed))

    def declare(self, name: str, what: str, span: Span) -> bool:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            self.diag.error(span, f"'{name}' is not a valid name for a {what}",
                            "names use letters, digits and _ (use _ instead of - or spaces)")
            return False
        if name in KEYWORDS or name in RESERVED:
            hint = "`players:` declares the number of players" if name == "players" else None
            self.diag.error(span, f"'{name}' is a reserved word and cannot name a {what}", hint)
            return False
        if name in self.names:
            other, where = self.names[name]
            place = f"line {where.line}" if where.file == span.file else str(where)
            self.diag.error(span, f"'{name}' is already the name of a {other} ({place})",
                            "every zone, variable, parameter, role, type and card type needs its own name")
            return False
        self.names[name] = (what, span)
        return True

    def snippet(self, node: YNode, kind: str):
        """Parse a DSL value: `kind` is "block" or "expression"."""
        if isinstance(node, YScalar) and isinstance(node.value, bool) and kind == "expression":
            return ir.Const(node.value, span=node.span)
        if isinstance(node, YScalar) and isinstance(node.value, int) and kind == "expression":
            return ir.Const(node.value, span=node.span)
        if not isinstance(node, YScalar) or not isinstance(node.value, str):
            self.diag.error(node.span, f"expected rules text here (a {'statement block' if kind == 'block' else 'condition or value'})",
                            "write it as a string, or as a block after '|'")
            return None
        origin = Origin(node.span_at)
        try:
            return (parse_block if kind == "block" else parse_expression)(node.value, origin, self.limits.nesting)
        except ParseError as exc:
            self.diag.items.append(exc.diagnostic)
            return None

    # ---- the file
    def read(self) -> ir.Ruleset:
        top = self.tree
        if not isinstance(top, YMap):
            raise RulesetError([Diagnostic(top.span, "a ruleset must be a YAML mapping (game:, title:, ...)")])
        self.keys(top, TOP_KEYS, "the ruleset")
        game = self.text(top.get("game"), "game")
        if not game:
            self.diag.error(top.span, "the ruleset has no 'game:' name", "add e.g. `game: my-game` at the top")
        title = self.text(top.get("title"), "title") or game or "untitled"
        dice = self.read_dice(top.get("dice"))
        players, players_param = self.read_players(top.get("players"))
        roles = self.roles = self.read_roles(top.get("roles"), players)
        self.card_type_names = _card_type_names(top.get("cards"))  # a state value's type may name one
        enums = self.read_enums(top.get("types"))
        declared = ability_names(top.get("abilities"))
        own_type = ABILITY_TYPE not in enums  # a card names its ability in a field of this type (or writes one)
        if own_type:
            enums[ABILITY_TYPE] = ir.EnumDef(ABILITY_TYPE, declared, span=(top.get("abilities") or top).span)
        card_types, cards = read_card_types(self, top.get("cards"), enums)
        if own_type and self.inline_abilities:  # the abilities written in card rows are values of the type too
            enums[ABILITY_TYPE] = ir.EnumDef(ABILITY_TYPE, (*declared, *(a.name for a in self.inline_abilities)),
                                             span=enums[ABILITY_TYPE].span)
        elif own_type and not declared and not any(f.type == EnumT(ABILITY_TYPE) for ct in card_types.values()
                                                   for f in ct.fields):
            del enums[ABILITY_TYPE]  # no ability anywhere: the name stays free
        params = self.read_params(top.get("params"), enums)
        if players_param is not None:  # `players` is a reserved name: only `players:` makes this parameter
            params = {"players": players_param, **params}
        zones = self.read_zones(top.get("zones"), roles, card_types, enums)
        variables = self.read_vars(top.get("vars"), enums, card_types, roles)
        defines = self.read_functions(top.get("define"), "define", enums, card_types)
        procedures = self.read_functions(top.get("procedures"), "procedure", enums, card_types)
        events = read_events(self, top.get("events"), enums, card_types)
        abilities = read_abilities(self, top.get("abilities"), events)
        for inline in self.inline_abilities:
            ability = read_inline(self, inline, events)
            if ability is not None:
                abilities[ability.name] = ability
        card_types = with_used_flags(card_types, cards, abilities)
        setup = self.snippet(top.get("setup"), "block") if top.get("setup") else ()
        modes = self.read_modes(top.get("modes"), roles, zones, variables, defines)
        if "d6" not in self.names:  # built in, unless the ruleset gives the name to something of its own
            dice["d6"] = D6
        rulings = self.read_rulings(top.get("rulings"), modes)
        ruleset = ir.Ruleset(
            game or "untitled", title, self.text(top.get("credits"), "credits"), roles,
            ir.frozen_map(params), ir.frozen_map(enums), ir.frozen_map(card_types), tuple(cards),
            ir.frozen_map(zones), ir.frozen_map(variables), ir.frozen_map(defines),
            ir.frozen_map(procedures), setup or (), ir.frozen_map(modes), rulings,
            ir.frozen_map({n: p.default for n, p in params.items()}),
            source_hash(self.sources), text=self.text(top.get("text"), "text"),
            files=tuple(s.name for s in self.sources), players=players, dice=ir.frozen_map(dice),
            events=ir.frozen_map(events), abilities=ir.frozen_map(abilities), span=top.span,
            number_digits=self.limits.number_digits)
        if self.diag:
            raise RulesetError(self.diag.items)
        return check(ruleset, self.limits)  # raises RulesetError listing every problem

    def read_dice(self, node: YNode | None) -> dict[str, ir.Die]:
        """`dice: {d8: 1..8, attack: [0, 0, 1, 1, 2, 3]}`: each die by its faces
        (a range, or a list of numbers that may repeat)."""
        dice = {}
        for name, (span, value) in (self.expect_map(node, "dice") or YMap(span=None)).entries.items():
            faces = self.faces(value, name, span)
            if self.declare(name, "die", span) and faces:
                dice[name] = ir.Die(name, faces, span=span)
        return dice

    def faces(self, node: YNode | None, name: str, span: Span) -> tuple[int, ...]:
        """A die's faces: a range `1..8` or a list of numbers."""
        where = node.span if node is not None else span
        if isinstance(node, YList):
            faces = tuple(item.value for item in node.items if isinstance(item, YScalar) and type(item.value) is int)
            if len(faces) != len(node.items):
                self.diag.error(where, f"the faces of die '{name}' are numbers", "e.g. [0, 0, 1, 1, 2, 3]")
                return ()
        else:
            text = str(node.value).strip() if isinstance(node, YScalar) else ""
            m = re.fullmatch(r"(-?[0-9]{1,18})\s*\.\.\s*(-?[0-9]{1,18})", text)
            if not m:
                self.diag.error(where, f"die '{name}' needs its faces: a range like 1..8 or a list of numbers")
                return ()
            low, high = int(m.group(1)), int(m.group(2))
            faces = tuple(range(low, min(high, low + MAX_FACES) + 1))
        if not 0 < len(faces) <= MAX_FACES:
            self.diag.error(where, f"die '{name}' needs 1 to {MAX_FACES:,} faces")
            return ()
        return faces

    def read_players(self, node: YNode | None) -> tuple[ir.Players | None, ir.ParamDef | None]:
        """`players: {count: 2..4, default: 3, names: [...]}` (or `players: 2..4`): the
        seats, and the `players` parameter that sets how many play."""
        if node is None:
            return None, None
        spec = node if isinstance(node, YMap) else YMap(span=node.span, entries={"count": (node.span, node)})
        self.keys(spec, PLAYERS_KEYS, "players")
        count = spec.get("count")
        m = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:\.\.\s*([0-9]{1,3}))?\s*", str(count.value)) \
            if isinstance(count, YScalar) else None
        low, high = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
        if not m or not 1 <= low <= high:
            self.diag.error((count or spec).span, "players need a count: a number or a range like 2..4",
                            "e.g. `players: {count: 2..4, default: 3}`")
            return None, None
        if high > self.limits.components:
            self.diag.error(count.span, f"{high} players is more than a game can seat")
            return None, None
        default_node = spec.get("default")
        default = default_node.value if isinstance(default_node, YScalar) else low
        if not isinstance(default, int) or isinstance(default, bool) or not low <= default <= high:
            self.diag.error(default_node.span, f"the default number of players must be a number in {low}..{high}")
            default = low
        names_node = spec.get("names")
        if names_node is None:
            names = tuple(f"player_{i}" for i in range(1, high + 1))
        elif not isinstance(names_node, YList) or len(names_node.items) < high:
            self.diag.error(names_node.span, f"players need a name for each of the {high} seats",
                            "e.g. `names: [north, east, south, west]`, in seat order")
            return None, None
        else:
            names = tuple(self.text(item, "a player's name") or f"player_{i}"
                          for i, item in enumerate(names_node.items, 1))
        text = self.text(spec.get("text"), "text")
        players = ir.Players(low, high, default, names, text, span=spec.span)
        param = ir.ParamDef("players", INT, default, text or "the number of players", low=low, high=high,
                            span=spec.span)
        return players, param

    def player_count(self, players: ir.Players) -> int:
        """How many play: `--set players=N` (checked with the other parameters), or the default."""
        given = whole_number(str(self.players_given)) if self.players_given is not None else None
        if given is not None and players.low <= given <= players.high:
            return given
        return players.default

    def read_roles(self, node: YNode | None, players: ir.Players | None) -> tuple[ir.Role, ...]:
        if players is not None:
            if node is not None:
                self.diag.error(node.span, "a ruleset names its roles or counts its players, not both",
                                "keep `roles:` for a game of named roles, `players:` for a number of seats")
            n = self.player_count(players)
            return tuple(ir.Role(name, span=players.span) for name in players.names[:n])
        if node is None:
            self.diag.error(self.tree.span, "the ruleset declares no 'roles:'",
                            "add e.g. `roles: [player]`, or `players: 2..4` for a number of seats")
            return ()
        roles = []
        if isinstance(node, YList):
            for item in node.items:
                name = self.text(item, "a role")
                if name and self.declare(name, "role", item.span):
                    roles.append(ir.Role(name, span=item.span))
        elif isinstance(node, YMap):
            for name, (span, value) in node.entries.items():
                if self.declare(name, "role", span):
                    spec = value if isinstance(value, YMap) else YMap(span=span)
                    self.keys(spec, ROLE_KEYS, f"role '{name}'")
                    text = spec.get("text") if isinstance(value, YMap) else value
                    roles.append(ir.Role(name, self.text(text, "role text") if text else None,
                                         self.article(spec, ("the", "")), span=span))
        else:
            self.diag.error(node.span, "roles must be a list of names")
        return tuple(roles)

    def read_enums(self, node: YNode | None) -> dict[str, ir.EnumDef]:
        enums: dict[str, ir.EnumDef] = {}
        for name, (span, value) in (self.expect_map(node, "types") or YMap(span=None)).entries.items():
            text, icons_node = None, None
            if isinstance(value, YMap):
                self.keys(value, ("values", "text", "icons"), f"type '{name}'")
                text = self.text(value.get("text"), "text")
                icons_node = value.get("icons")
                value = value.get("values")
            if not isinstance(value, YList) or not value.items:
                self.diag.error(span, f"type '{name}' must list its values, e.g. [red, green]")
                continue
            if self.declare(name, "type", span):
                values = self.enum_values(value)
                enums[name] = ir.EnumDef(name, values, text, self.icons(icons_node, values), span=span)
        return enums

    def icons(self, node: YNode | None, values: tuple[str, ...]) -> ir.FrozenMap:
        """`icons: true` (each value is the icon of its name) or `{value: icon}`."""
        if node is None or isinstance(node, YScalar) and node.value is False:
            return ir.frozen_map({})
        if isinstance(node, YScalar) and node.value is True:
            return ir.frozen_map({v: v for v in values})
        if not isinstance(node, YMap):
            self.diag.error(node.span, "icons must be `true` or a mapping of values to icon names",
                            "e.g. `icons: {dust: skull, plague: drop}`")
            return ir.frozen_map({})
        icons = {}
        for value, (vspan, icon) in node.entries.items():
            if value not in values:
                self.diag.error(vspan, f"'{value}' is not one of this type's values", did_you_mean(value, values))
            else:
                icons[value] = self.text(icon, "an icon name")
        return ir.frozen_map(icons)

    def enum_values(self, node: YList) -> tuple[str, ...]:
        values = []
        for item in node.items:
            v = self.text(item, "a value")
            if v is None:
                continue
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v) or v in KEYWORDS:
                self.diag.error(item.span, f"'{v}' cannot be a value name",
                                "values are names: letters, digits and _, not a reserved word")
            elif v in values:
                self.diag.error(item.span, f"value '{v}' is listed twice")
            else:
                values.append(v)
        return tuple(values)

    def read_params(self, node: YNode | None, enums) -> dict[str, ir.ParamDef]:
        params = {}
        for name, (span, value) in (self.expect_map(node, "params") or YMap(span=None)).entries.items():
            spec = value if isinstance(value, YMap) else None
            if spec is not None:
                self.keys(spec, PARAM_KEYS, f"parameter '{name}'")
                default_node = spec.get("default")
            else:
                default_node = value
            if not isinstance(default_node, YScalar) or default_node.value is None:
                self.diag.error(span, f"parameter '{name}' needs a default value",
                                f"e.g. `{name}: {{default: false, text: ...}}`")
                continue
            default = default_node.value
            choices: tuple = ()
            if isinstance(default, bool):
                ty: Type = BOOL
            elif isinstance(default, int):
                ty = INT
            elif isinstance(default, str) and spec is not None and isinstance(spec.get("choices"), YList):
                choices = self.enum_values(spec.get("choices"))
                if default not in choices:
                    self.diag.error(default_node.span, f"default '{default}' is not one of the choices")
                ty = EnumT(f"{name}")
            else:
                self.diag.error(default_node.span, f"parameter '{name}' must default to true/false, a number, "
                                "or one of its `choices:`")
                continue
            low = spec.get("min").value if spec is not None and isinstance(spec.get("min"), YScalar) else None
            high = spec.get("max").value if spec is not None and isinstance(spec.get("max"), YScalar) else None
            if self.declare(name, "parameter", span):
                text = self.text(spec.get("text"), "text") if spec is not None else None
                params[name] = ir.ParamDef(name, ty, default, text, choices, low, high,
                                           assumed=self.assumed(spec), span=span)
                if choices:  # a parameter with choices is also its own enum type
                    enums.setdefault(name, ir.EnumDef(name, choices, text, span=span))
        return params

    def read_zones(self, node: YNode | None, roles, card_types, enums) -> dict[str, ir.Zone]:
        zones = {}
        role_names = [r.name for r in roles]
        for name, (span, value) in (self.expect_map(node, "zones") or YMap(span=None)).entries.items():
            spec = value if isinstance(value, YMap) else YMap(span=span)
            if value is not None and not isinstance(value, YMap) and not (isinstance(value, YScalar) and value.value is None):
                self.diag.error(value.span, f"zone '{name}' must be a mapping like {{facing: down}}")
            self.keys(spec, ZONE_KEYS, f"zone '{name}'")
            owner = self.text(spec.get("owner"), "owner")
            if owner is not None and owner != "each" and owner not in role_names:
                self.diag.error(spec.get("owner").span, f"unknown role '{owner}'",
                                did_you_mean(owner, role_names + ["each"]))
            facing = self.choice(spec, "facing", ("up", "down"), "up")
            seen_by = self.choice(spec, "seen_by", ("all", "owner", "none"), "all")
            kind = self.choice(spec, "kind", ("pile", "row", "hand", "area", "grid", "graph"), "pile")
            drawn = self.board(name, spec, kind, owner, enums)
            if seen_by == "owner" and owner is None:
                self.diag.error(spec.get("seen_by").span, f"zone '{name}' is seen by its owner but has no owner")
            holds = []
            holds_node = spec.get("holds")
            if holds_node is not None:
                items = holds_node.items if isinstance(holds_node, YList) else [holds_node]
                for item in items:
                    t = self.text(item, "a card type")
                    if t is not None and t not in card_types:
                        self.diag.error(item.span, f"unknown card type '{t}'", did_you_mean(t, card_types))
                    elif t is not None:
                        holds.append(t)
            if self.declare(name, "zone", span):
                zones[name] = ir.Zone(name, owner, facing, seen_by, tuple(holds), kind,
                                      self.text(spec.get("text"), "text"), columns=drawn.columns, rows=drawn.rows,
                                      assumed=self.assumed(spec), article=self.article(spec, ("the", "")),
                                      gaps=drawn.gaps, marks=ir.frozen_map(drawn.marks),
                                      space_marks=tuple(ir.frozen_map(m) for m in drawn.space_marks),
                                      places=drawn.places, links=drawn.links, picture=drawn.picture,
                                      span=span)
                if drawn.places:  # a graph's place names are a type named after it
                    enums.setdefault(name, ir.EnumDef(name, drawn.places, span=span))
        if "box" in zones:
            self.diag.error(zones["box"].span, "'box' is the built-in zone that holds unused components")
        return zones

    def board(self, name: str, spec: YMap, kind: str, owner, enums) -> Drawn:
        """A board's spaces: a grid's size (or its map), a graph's places and links."""
        keys = {"grid": ("columns", "rows", *MAP_KEYS), "graph": (*GRAPH_KEYS, "marks")}.get(kind, ())
        for key in ("columns", "rows", *MAP_KEYS, *GRAPH_KEYS):
            if key not in keys and spec.get(key) is not None:
                needs = "kind: graph" if key in GRAPH_KEYS else "kind: grid"
                self.diag.error(spec.get(key).span, f"only a {needs.split()[1]} has {key}",
                                f"add `{needs}` to zone '{name}'")
        if kind in ("grid", "graph") and owner == "each":
            self.diag.error(spec.get("owner").span, f"a {kind} cannot belong to each role (yet)",
                            f"declare one {kind} per role")
        if kind == "graph":
            return read_graph(self, name, spec, enums)
        if kind != "grid":
            return Drawn()
        drawn = read_grid_map(self, name, spec, enums)
        if drawn is not None:
            for key in ("columns", "rows"):
                if spec.get(key) is not None:
                    self.diag.error(spec.get(key).span, f"a board drawn as a map takes its {key} from the map")
            return drawn
        return Drawn(*self.grid_size(name, spec))

    def grid_size(self, name: str, spec: YMap) -> tuple[int, int]:
        """A grid without a map needs `columns:` and `rows:`."""
        size = []
        for key in ("columns", "rows"):
            node = spec.get(key)
            value = node.value if isinstance(node, YScalar) else None
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                self.diag.error((node or spec).span, f"grid '{name}' needs `{key}:` a whole number of at least 1")
                value = 1
            size.append(value)
        if size[0] * size[1] > self.limits.board_spaces:
            self.diag.error(spec.span, f"grid '{name}' has {size[0] * size[1]:,} spaces, more than "
                            f"{self.limits.board_spaces:,}",
                            over("a board is rarely larger than a few hundred spaces", self.limits.board_spaces,
                                 "board_spaces"))
            size = [1, 1]
        return size[0], size[1]

    def choice(self, spec: YMap, key: str, allowed, default: str) -> str:
        node = spec.get(key)
        if node is None:
            return default
        value = self.text(node, key)
        if value not in allowed:
            self.diag.error(node.span, f"{key} must be one of: {', '.join(allowed)}", did_you_mean(str(value), allowed))
            return default
        return value

    def read_vars(self, node: YNode | None, enums, card_types, roles) -> dict[str, ir.VarDef]:
        """`name: INITIAL` or `name: {initial:, type:, owner: each, min:, max:, text:}`."""
        variables = {}
        for name, (span, value) in (self.expect_map(node, "vars") or YMap(span=None)).entries.items():
            spec = value if isinstance(value, YMap) else YMap(span=span, entries={"initial": (span, value)})
            self.keys(spec, VAR_KEYS, f"variable '{name}'")
            what = f"variable '{name}'"
            ty, initial = self.typed_value(spec, what, span, enums, card_types, roles)
            if ty is None:
                continue
            owner = self.choice(spec, "owner", ("each",), None) if spec.get("owner") is not None else None
            low, high = self.bound(spec, "min", what), self.bound(spec, "max", what)
            if (low is not None or high is not None) and ty != INT:
                self.diag.error(span, f"only a number has bounds; {what} is {ty}")
            elif low is not None and high is not None and low > high:
                self.diag.error(span, f"{what}: min {low} is above max {high}")
            elif ty == INT and not (low if low is not None else initial) <= initial <= (high if high is not None else initial):
                self.diag.error(span, f"{what} starts at {initial}, outside its bounds {low}..{high}")
            if self.declare(name, "variable", span):
                variables[name] = ir.VarDef(name, ty, initial, self.text(spec.get("text"), "text"),
                                            self.assumed(spec), owner, low, high, span=span)
        return variables

    def typed_value(self, spec: YMap, what: str, span: Span, enums, card_types, roles):
        """(type, initial value) of a variable or a state value: the type is
        `type:`, or follows from the initial value (a number, true/false, a
        value of a type, a role); `none` needs a `type:`."""
        node = spec.get("initial")
        initial = node.value if isinstance(node, YScalar) else None
        declared = None
        if spec.get("type") is not None:
            tname = self.text(spec.get("type"), "a type")
            declared = self.type_named(tname, spec.get("type").span, enums, card_types) if tname else None
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
            self.diag.error(span, f"{what} needs an initial value: a number, true/false, a value of a type "
                                  "or a role (with `type:`, also none)", hint)
            return None, None
        return declared or found, initial

    def bound(self, spec: YMap, key: str, what: str) -> int | None:
        node = spec.get(key)
        if node is None:
            return None
        if not isinstance(node, YScalar) or not isinstance(node.value, int) or isinstance(node.value, bool):
            self.diag.error(node.span, f"{what}: `{key}:` must be a whole number")
            return None
        return node.value

    def read_functions(self, node: YNode | None, what: str, enums, card_types) -> dict:
        result = {}
        for key, (span, value) in (self.expect_map(node, what) or YMap(span=None)).entries.items():
            m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*", key)
            if not m:
                self.diag.error(span, f"a {what} is written `name(param, type param): ...`, not '{key}'")
                continue
            name, params = m.group(1), self.signature(m.group(2) or "", span, enums, card_types)
            text = None
            body_node = value
            if isinstance(value, YMap):
                field, other = ("value", "do") if what == "define" else ("do", "value")
                if other in value and field not in value:
                    self.misplaced(value.key_span(other), key, what)
                    continue
                self.keys(value, (field, "text", "assumed"), f"{what} '{name}'")
                text = self.text(value.get("text"), "text")
                self.check_placeholders(value.get("text"), [p for p, _ in params], f"{what} '{name}'")
                body_node = value.get(field)
                if body_node is None:
                    self.diag.error(span, f"{what} '{name}' has no '{field}:'")
                    continue
            body = self.function_body(body_node, what, key, span)
            if not self.declare(name, what, span) or body is None:
                continue
            cls = ir.Define if what == "define" else ir.Procedure
            result[name] = cls(name, params, body, text, self.assumed(value), span=span)
        return result

    def function_body(self, node: YNode, what: str, key: str, span: Span):
        """A define's value or a procedure's statements. Text that does not
        read as one but reads as the other is in the wrong section, and the
        error says so instead of pointing at its first word."""
        kind, other = ("expression", "block") if what == "define" else ("block", "expression")
        errors = len(self.diag.items)
        body = self.snippet(node, kind)
        if body is not None or len(self.diag.items) != errors + 1 or not isinstance(node, YScalar) \
                or not isinstance(node.value, str):
            return body
        try:
            (parse_block if other == "block" else parse_expression)(node.value, Origin(node.span_at),
                                                                     self.limits.nesting)
        except ParseError:
            return None
        if other == "block" and node.value.strip().split()[1:2] == ["="]:
            return None  # `x = 1` as a value: more likely a comparison (the error says to use ==)
        del self.diag.items[errors:]
        self.misplaced(span, key, what)
        return None

    def misplaced(self, span: Span, key: str, what: str) -> None:
        if what == "procedure":
            self.diag.error(span, f"'{key}' is a value, not statements: it is a define, under `procedures:`",
                            "move it under `define:` (procedures do things: move, draw, if ...)")
        else:
            self.diag.error(span, f"'{key}' is statements, not a value: it is a procedure, under `define:`",
                            "move it under `procedures:` (defines name values and conditions)")

    def check_placeholders(self, node: YNode | None, names, what: str) -> None:
        """`{name}` in a printing text must name one of `names`."""
        text = self.text(node, "text") if node is not None else None
        for ref in re.findall(r"{(\w+)}", text or ""):
            if ref not in names:
                self.diag.error(node.span, f"the text of {what} names unknown parameter '{ref}'",
                                did_you_mean(ref, names) or ("its parameters: " + ", ".join(names) if names
                                                             else f"{what} has no parameters"))

    def signature(self, text: str, span: Span, enums, card_types) -> tuple:
        params = []
        for part in filter(None, (p.strip() for p in text.split(","))):
            words = part.split()  # `name` or `type name`
            type_name, name = (words[0], words[-1]) if len(words) == 2 else ("", part)
            if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in KEYWORDS:
                self.diag.error(span, f"'{name}' is not a valid parameter name")
                continue
            params.append((name, self.type_named(type_name, span, enums, card_types) if type_name else None))
        return tuple(params)

    def type_named(self, name: str, span: Span, enums, card_types) -> Type | None:
        simple = {"number": INT, "int": INT, "bool": BOOL, "text": TEXT, "role": ROLE,
                  "card": CardT(frozenset(card_types)), "zone": ZoneT(frozenset(card_types))}
        if name in simple:
            return simple[name]
        if name == "board":
            self.diag.error(span, "a board cannot be a parameter: its spaces are found by its name",
                            "name the board inside the define, or pass one of its spaces as a `zone`")
            return None
        if name in enums:
            return EnumT(name)
        if name in card_types:
            return CardT(frozenset({name}))
        self.diag.error(span, f"unknown type '{name}'", did_you_mean(name, [*simple, *enums, *card_types]))
        return None

    def read_modes(self, node: YNode | None, roles, zones, variables, defines) -> dict[str, ir.Mode]:
        modes = {}
        modes_map = self.expect_map(node, "modes")
        if modes_map is None or not modes_map.entries:
            self.diag.error((node or self.tree).span, "the ruleset has no 'modes:'",
                            "a mode says how a game is played: its setup and its round of steps")
            return modes
        role_names = [r.name for r in roles]
        for name, (span, spec) in modes_map.entries.items():
            if not isinstance(spec, YMap):
                self.diag.error(span, f"mode '{name}' must be a mapping (title:, round:, ...)")
                continue
            self.keys(spec, MODE_KEYS, f"mode '{name}'")
            mode_roles = []
            roles_node = spec.get("roles")
            for item in (roles_node.items if isinstance(roles_node, YList) else []):
                r = self.text(item, "a role")
                if r not in role_names:
                    self.diag.error(item.span, f"unknown role '{r}'", did_you_mean(str(r), role_names))
                else:
                    mode_roles.append(r)
            steps = self.read_steps(spec.get("round"), name, span)
            playing = tuple(mode_roles or role_names)
            per_player = _PerPlayer(self, variables, defines, playing)
            modes[name] = ir.Mode(
                name, self.text(spec.get("title"), "title") or name.replace("_", " ").title(),
                self.text(spec.get("text"), "text"), playing,
                self.snippet(spec.get("setup"), "block") or () if spec.get("setup") else (),
                steps, per_player.table(spec.get("score"), "score") if isinstance(spec.get("score"), YScalar)
                else self.role_expressions(spec.get("score"), "score", role_names),
                self.read_ratings(spec.get("ratings")),
                assumed=self.assumed(spec), measures=self.read_measures(spec.get("measures")),
                visibility=ir.frozen_map(self.read_visibility(spec.get("visibility"), zones)),
                watches=self.read_watches(spec.get("watch"), steps),
                heuristics=per_player.table(spec.get("heuristics"), "heuristics")
                if isinstance(spec.get("heuristics"), YScalar)
                else self.role_expressions(spec.get("heuristics"), "heuristics", role_names),
                ranking=per_player.ranking(spec.get("ranking")), quick=self.read_quick(spec.get("quick"), steps),
                span=span)
        return modes

    def read_quick(self, node: YNode | None, steps) -> tuple[ir.QuickPage, ...]:
        """`quick:` pages: `{title:, steps: [step names], rules: [sentences], also: [sections]}`."""
        if node is None:
            return ()
        if not isinstance(node, YList):
            self.diag.error(node.span, "quick is a list of pages", "- {title: The turn, steps: [Draw, Play]}")
            return ()
        names = [s.name for s in steps]
        pages = []
        for item in node.items:
            if not isinstance(item, YMap):
                self.diag.error(item.span, "a quick-reference page is a mapping (title:, steps:, rules:, also:)")
                continue
            self.keys(item, ("title", "steps", "rules", "also"), "a quick-reference page")
            chosen = []
            for n in self.text_items(item.get("steps"), "a step's name"):
                if n[0] not in names:
                    self.diag.error(n[1], f"unknown step '{n[0]}'", did_you_mean(n[0], names))
                else:
                    chosen.append(n[0])
            also = []
            for n in self.text_items(item.get("also"), "a section"):
                if n[0] not in ir.QUICK_SECTIONS:
                    self.diag.error(n[1], f"unknown section '{n[0]}'", "sections: " + ", ".join(ir.QUICK_SECTIONS))
                else:
                    also.append(n[0])
            pages.append(ir.QuickPage(self.text(item.get("title"), "title") or "Quick reference", tuple(chosen),
                                      self.quick_rules(item.get("rules")), tuple(also), span=item.span))
        return tuple(pages)

    def text_items(self, node: YNode | None, what: str) -> list[tuple[str, object]]:
        if node is None:
            return []
        if not isinstance(node, YList):
            self.diag.error(node.span, f"expected a list of {what}s")
            return []
        return [(str(self.text(i, what)), i.span) for i in node.items]

    def quick_rules(self, node: YNode | None) -> tuple[ir.QuickRule, ...]:
        """Sentences, each a text or `{title:, text:, rules: [...]}`: a bold lead-in, sentences under it."""
        if node is None:
            return ()
        if not isinstance(node, YList):
            self.diag.error(node.span, "rules is a list of sentences")
            return ()
        out = []
        for item in node.items:
            if isinstance(item, YMap):
                self.keys(item, ("title", "text", "rules"), "a quick-reference sentence")
                out.append(ir.QuickRule(self.text(item.get("text"), "text") or "", self.quick_rules(item.get("rules")),
                                        self.text(item.get("title"), "title"), span=item.span))
            else:
                out.append(ir.QuickRule(self.text(item, "a sentence") or "", span=item.span))
        return tuple(out)

    def role_expressions(self, node: YNode | None, what: str, role_names) -> ir.FrozenMap:
        """`{ROLE: EXPRESSION}` (a mode's `score:` or `heuristics:`)."""
        result = {}
        for role, (rspan, expr_node) in (self.expect_map(node, what) or YMap(span=None)).entries.items():
            if role not in role_names:
                self.diag.error(rspan, f"unknown role '{role}'", did_you_mean(role, role_names))
                continue
            expr = self.snippet(expr_node, "expression")
            if expr is not None:
                result[role] = expr
        return ir.frozen_map(result)

    def read_visibility(self, node: YNode | None, zones) -> dict[str, str]:
        """`visibility: open` (every role sees every card) or `{ZONE: all|owner|none|open}`."""
        if node is None:
            return {}
        if isinstance(node, YScalar):
            if node.value != "open":
                self.diag.error(node.span, "visibility is `open` or a mapping of zones to all, owner, none or open",
                                "`visibility: open` lets every role see every card, face-down ones included")
                return {}
            return {z: "open" for z in zones}
        result = {}
        for zone, (zspan, value) in (self.expect_map(node, "visibility") or YMap(span=None)).entries.items():
            seen = self.text(value, "visibility")
            if zone not in zones:
                self.diag.error(zspan, f"unknown zone '{zone}'", did_you_mean(zone, zones))
            elif seen not in ("all", "owner", "none", "open"):
                self.diag.error(value.span, f"visibility of a zone is all, owner, none or open, not '{seen}'",
                                did_you_mean(str(seen), ("all", "owner", "none", "open")))
            elif seen == "owner" and zones[zone].owner is None:
                self.diag.error(value.span, f"zone '{zone}' has no owner to see it")
            else:
                result[zone] = seen
        return result

    def read_watches(self, node: YNode | None, steps) -> tuple[ir.Watch, ...]:
        """`watch:` — a list of `- when: CONDITION`, `do: STATEMENTS`, `then: STEP`."""
        if node is None:
            return ()
        if not isinstance(node, YList):
            self.diag.error(node.span, "watch: is a list of `- when: CONDITION` with `do:` (and `then: STEP`)")
            return ()
        step_names = [s.name for s in steps]
        watches = []
        for item in node.items:
            if not isinstance(item, YMap):
                self.diag.error(item.span, "a watch is a mapping: `- when: CONDITION` and `do: ...`")
                continue
            self.keys(item, ("when", "do", "then", "text"), "a watch")
            if item.get("when") is None or item.get("do") is None:
                self.diag.error(item.span, "a watch needs `when:` (a condition) and `do:` (statements)")
                continue
            then = self.text(item.get("then"), "then")
            if then is not None and then not in step_names:
                self.diag.error(item.get("then").span, f"no step named '{then}' in this mode",
                                did_you_mean(then, step_names) or "steps: " + ", ".join(step_names))
            when, body = self.snippet(item.get("when"), "expression"), self.snippet(item.get("do"), "block")
            if when is not None and body is not None:
                watches.append(ir.Watch(when, body, then, self.text(item.get("text"), "text"), span=item.span))
        return tuple(watches)

    def read_steps(self, node: YNode | None, mode: str, span: Span) -> tuple[ir.Step, ...]:
        if not isinstance(node, YList) or not node.items:
            self.diag.error(node.span if node else span, f"mode '{mode}' needs a 'round:' list of steps",
                            "each step is `- step: Name` with `do: |` and its statements")
            return ()
        steps, seen = [], set()
        for item in node.items:
            if not isinstance(item, YMap):
                self.diag.error(item.span, "a step is a mapping: `- step: Name` and `do: ...`")
                continue
            self.keys(item, STEP_KEYS, "a step")
            name = self.text(item.get("step"), "step name")
            if not name:
                self.diag.error(item.span, "this step has no name", "add `step: Name` (variants refer to steps by name)")
                continue
            if name in seen:
                self.diag.error(item.get("step").span, f"two steps are named '{name}' in mode '{mode}'")
            seen.add(name)
            body = self.snippet(item.get("do"), "block") if item.get("do") is not None else None
            if item.get("do") is None:
                self.diag.error(item.span, f"step '{name}' has no 'do:'")
            steps.append(ir.Step(name, body or (), self.text(item.get("text"), "text"), self.assumed(item),
                                 span=item.span))
        return tuple(steps)

    def read_ratings(self, node: YNode | None) -> tuple[ir.Rating, ...]:
        ratings = []
        for name, (span, value) in (self.expect_map(node, "ratings") or YMap(span=None)).entries.items():
            text = str(value.value) if isinstance(value, YScalar) else ""
            m = re.fullmatch(r"\s*([0-9]{1,18})\s*(?:\.\.\s*([0-9]{1,18})?)?\s*", text)
            if not m:
                self.diag.error(value.span, f"a rating is a range of scores like 0..3 or 8.., not '{text}'")
                continue
            low = int(m.group(1))
            high = int(m.group(2)) if m.group(2) else (low if ".." not in text else None)
            ratings.append(ir.Rating(name, low, high, span=span))
        return tuple(ratings)

    def read_measures(self, node: YNode | None) -> ir.FrozenMap:
        measures = {}
        for name, (span, value) in (self.expect_map(node, "measures") or YMap(span=None)).entries.items():
            text, when = None, None
            if isinstance(value, YMap):
                self.keys(value, MEASURE_KEYS, f"measure '{name}'")
                text = self.text(value.get("text"), "text")
                when = self.snippet(value.get("when"), "expression") if "when" in value else None
                value = value.get("value")
                if value is None:
                    self.diag.error(span, f"measure '{name}' has no 'value:'")
                    continue
            expr = self.snippet(value, "expression")
            if expr is not None:
                measures[name] = ir.Measure(name, expr, when, text, span=span)
        return ir.frozen_map(measures)

    def read_rulings(self, node: YNode | None, modes: dict[str, ir.Mode]) -> tuple[ir.Ruling, ...]:
        rulings = []
        if node is None:
            return ()
        items = node.items if isinstance(node, YList) else None
        if items is None:
            self.diag.error(node.span, "rulings must be a list of `- id: ...` and `text: ...`")
            return ()
        for item in items:
            if not isinstance(item, YMap):
                self.diag.error(item.span, "a ruling is a mapping with `id:` and `text:`")
                continue
            self.keys(item, RULING_KEYS, "a ruling")
            rid, text = self.text(item.get("id"), "id"), self.text(item.get("text"), "text")
            if not rid or not text:
                self.diag.error(item.span, "a ruling needs both `id:` and `text:`")
                continue
            rulings.append(ir.Ruling(rid, text, self.applies_to(item.get("applies_to"), modes), span=item.span))
        return tuple(rulings)

    def applies_to(self, node: YNode | None, modes: dict[str, ir.Mode]) -> tuple[str, ...]:
        """A ruling's `applies_to:`: one name or a list, each a mode (name or title), a step or `setup`."""
        if node is None:
            return ()
        items = node.items if isinstance(node, YList) else [node]
        known = [*modes, *(m.title for m in modes.values()), *(s.name for m in modes.values() for s in m.round),
                 "setup"]
        names = []
        for item in items:
            name = self.text(item, "applies_to")
            if name is not None and name not in known:
                self.diag.error(item.span, f"'{name}' is not a mode, a step or the setup of this ruleset",
                                did_you_mean(name, known) or "modes: " + ", ".join(modes))
            elif name is not None:
                names.append(name)
        return tuple(names)


class _PerPlayer:
    """A mode's per-player numbers named once for every player: `score: points`,
    `heuristics: outlook` and `ranking: [{highest: life}, {lowest: finished_at}]` name a per-player
    variable (`points of p`) or a define of one player (`points(p)`)."""

    def __init__(self, reader: _Reader, variables, defines, roles: tuple[str, ...]):
        self.reader, self.variables, self.defines, self.roles = reader, variables, defines, roles

    def values(self, node: YNode, what: str) -> dict[str, ir.Expr]:
        name = self.reader.text(node, what)
        var, define = self.variables.get(name), self.defines.get(name)
        if var is not None and var.owner == "each":
            def value(r):
                return ir.Owned(ir.Name(name, span=node.span), ir.Name(r, span=node.span), span=node.span)
        elif define is not None and len(define.params) == 1:
            def value(r):
                return ir.Call(name, (ir.Name(r, span=node.span),), span=node.span)
        else:
            self.reader.diag.error(node.span, f"{what} names a per-player variable or a define of one player, "
                                              f"not '{name}'",
                                   did_you_mean(str(name), [n for n, v in self.variables.items() if v.owner]
                                                + [n for n, d in self.defines.items() if len(d.params) == 1])
                                   or "e.g. `vars: {points: {initial: 0, owner: each}}` and `score: points`")
            return {}
        return {r: value(r) for r in self.roles}

    def table(self, node: YNode, what: str) -> ir.FrozenMap:
        return ir.frozen_map(self.values(node, what))

    def ranking(self, node: YNode | None) -> tuple[ir.RankKey, ...]:
        if node is None:
            return ()
        if not isinstance(node, YList):
            self.reader.diag.error(node.span, "a ranking is a list of tie-breakers, the first deciding first",
                                   "e.g. `ranking: [{highest: fame}, {lowest: deaths}]`")
            return ()
        keys = []
        for item in node.items:
            lowest, value = False, item
            if isinstance(item, YMap):
                self.reader.keys(item, ("highest", "lowest"), "a ranking key")
                if len(item.entries) != 1:
                    self.reader.diag.error(item.span, "a ranking key is `highest: NAME` or `lowest: NAME`")
                    continue
                (word, (_, value)), = item.entries.items()
                lowest = word == "lowest"
            values = self.values(value, "a ranking key")
            if values:
                keys.append(ir.RankKey(str(value.value), ir.frozen_map(values), lowest, span=item.span))
        return tuple(keys)


def _card_type_names(node: YNode | None) -> dict:
    """The card types a file declares, by name, before they are read."""
    return dict.fromkeys(node.entries) if isinstance(node, YMap) else {}
