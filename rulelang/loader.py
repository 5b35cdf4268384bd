"""A ruleset file -> checked IR.

    text --yamltree--> positioned YAML --sections--> declarations + parsed DSL
         --checker--> resolved, typed IR (`ir.Ruleset`)

Every problem found on the way is collected, so one run reports all of them.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from . import ir
from .abilities import ABILITY_TYPE, with_used_flags
from .cardtable import CARD, read_card_types
from .checker import Checker, check
from .checker.ruleset import check_ruleset
from .errors import Diagnostic, RulesetError, Source
from .files import find_ruleset
from .limits import DEFAULT, Limits
from .params import apply_params
from .sections.abilities import ABILITY, EVENT, ability_names, read_abilities, read_events, read_inline
from .sections.functions import DEFINE, PROCEDURE, read_functions
from .sections.modes import MODE, read_modes
from .sections.players import PLAYERS, ROLES, read_players, read_roles
from .sections.reader import LANGUAGE, Reader
from .sections.rulings import RULING, read_rulings
from .sections.shapes import ASSUMED, RULES, Key, Keys, ListOf, Named, Scalar, string
from .sections.values import D6, DIE, PARAM, TYPE, VAR, read_dice, read_enums, read_params, read_vars
from .sections.zones import ZONE, read_zones
from .types import EnumT
from .variants import Tree, read_tree, resolve
from .yamltree import YMap, YNode, load_yaml

__all__ = ["load_ruleset", "load_text", "read_ruleset", "read_partly", "source_hash", "FILE", "TOP_KEYS"]

# the sections of a ruleset file (`rulelang schema` writes this out for editors)
FILE = Keys("A tabletop game's rules as text: structure and data in YAML, conditions and effects in the "
            "rules language (see docs/language.md).", (
                Key("game", Scalar(("string",), "the ruleset's id", pattern="^[A-Za-z0-9_-]+$")),
                Key("language", Scalar(("integer",), "the version of the language it is written in (none: 1, whose "
                                                     "names the language took later are still the file's own)",
                                       minimum=1, maximum=LANGUAGE)),
                Key("title", string("the game's title")), Key("credits", string("who made the game")),
                Key("source", string("where the rules come from")), Key("text", string("what the game is about")),
                Key("assumed", ASSUMED),
                Key("roles", ROLES),
                Key("players", PLAYERS),
                Key("params", Named(PARAM, "options a player sets with --set NAME=VALUE")),
                Key("types", Named(TYPE, "named sets of values")),
                Key("cards", Named(CARD, "component types; one row of `table` per card")),
                Key("zones", Named(ZONE, "where components are")),
                Key("vars", Named(VAR, "game variables")),
                Key("dice", Named(DIE, "dice by their faces: a range like 1..8, or a list of numbers that may "
                                       "repeat (d6 is built in)")),
                Key("define", Named(DEFINE, "named pure values: `name(type param, ...)`")),
                Key("procedures", Named(PROCEDURE, "named statements: `name(param, ...)`")),
                Key("events", Named(EVENT, "named moments the rules announce: `name(type param, ...)`, with a "
                                           "phrase for them")),
                Key("abilities", Named(ABILITY, "card rules that answer an event")),
                Key("setup", RULES),
                Key("modes", Named(MODE, "ways to play; the first is the default")),
                Key("rulings", ListOf(RULING, "how ambiguities were decided")),
                Key("extends", string("the ruleset this variant changes: a bundled name or a path from this "
                                      "file's folder"), variant=True),
            ))
TOP_KEYS = FILE.names


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
    ruleset = apply_params(read_file(Reader(tree, limits, params.get("players"))), params)
    object.__setattr__(ruleset, "digest", read_digest(tree, params, limits))  # (frozen: set once, as made)
    return ruleset


def read_digest(tree: Tree, params: dict[str, str], limits: Limits) -> str:
    """Names everything a ruleset read is made from: each file of its chain (name and text), the
    parameters set and the limits (`Ruleset.digest`)."""
    said = json.dumps([[[s.name, s.text] for s in tree.sources], sorted((k, str(v)) for k, v in params.items()),
                       sorted(dataclasses.asdict(limits).items())])
    return hashlib.sha256(said.encode()).hexdigest()


def read_partly(tree: Tree, limits: Limits = DEFAULT) -> tuple[ir.Ruleset, list[Diagnostic]]:
    """For editors, which ask about a file while it is being typed: the IR of
    whatever could be read, checked, and the diagnostics `read_ruleset` would
    raise (as it does, the checking errors are left out when reading failed:
    most would follow from what could not be read). The IR of a ruleset with
    errors is for questions (what is this name, what is in scope), never to
    run. A file that is not a ruleset at all still raises RulesetError."""
    reader = Reader(tree, limits)
    ck = Checker(read_declarations(reader), limits.nesting)
    checked = check_ruleset(ck)
    return checked, reader.diag.items or ck.diag.items


def source_hash(sources: tuple[Source, ...]) -> str:
    """Names the exact text of a ruleset: every file of a variant's chain."""
    return hashlib.sha256(b"\0".join(s.text.encode("utf-8") for s in sources)).hexdigest()[:16]


# ------------------------------------------------------------------ reading


def read_file(reader: Reader) -> ir.Ruleset:
    """The file read, then checked; RulesetError listing every problem of the first that fails."""
    ruleset = read_declarations(reader)
    if reader.diag:
        raise RulesetError(reader.diag.items)
    return check(ruleset, reader.limits)


def read_declarations(reader: Reader) -> ir.Ruleset:
    """The file, section by section, in the order their names depend on (unchecked; its problems in `reader.diag`)."""
    top = reader.tree
    if not isinstance(top, YMap):
        raise RulesetError([Diagnostic(top.span, "a ruleset must be a YAML mapping (game:, title:, ...)")])
    reader.keys(top, FILE, "the ruleset")
    game = reader.text(top.get("game"), "game")
    if not game:
        reader.diag.error(top.span, "the ruleset has no 'game:' name", "add e.g. `game: my-game` at the top")
    title = reader.text(top.get("title"), "title") or game or "untitled"
    dice = read_dice(reader, top.get("dice"))
    players, players_param = read_players(reader, top.get("players"))
    roles = reader.roles = read_roles(reader, top.get("roles"), players)
    reader.card_type_names = _card_type_names(top.get("cards"))  # a state value's type may name one
    enums = read_enums(reader, top.get("types"))
    declared = ability_names(top.get("abilities"))
    own_type = ABILITY_TYPE not in enums  # a card names its ability in a field of this type (or writes one)
    if own_type:
        enums[ABILITY_TYPE] = ir.EnumDef(ABILITY_TYPE, declared, span=(top.get("abilities") or top).span)
    card_types, cards = read_card_types(reader, top.get("cards"), enums)
    if own_type and reader.inline_abilities:  # the abilities written in card rows are values of the type too
        enums[ABILITY_TYPE] = ir.EnumDef(ABILITY_TYPE, (*declared, *(a.name for a in reader.inline_abilities)),
                                         span=enums[ABILITY_TYPE].span)
    elif own_type and not declared and not any(f.type == EnumT(ABILITY_TYPE) for ct in card_types.values()
                                               for f in ct.fields):
        del enums[ABILITY_TYPE]  # no ability anywhere: the name stays free
    params = read_params(reader, top.get("params"), enums)
    if players_param is not None:  # `players` is a reserved name: only `players:` makes this parameter
        params = {"players": players_param, **params}
    zones = read_zones(reader, top.get("zones"), roles, card_types, enums)
    variables = read_vars(reader, top.get("vars"), enums, card_types, roles)
    defines = read_functions(reader, top.get("define"), "define", enums, card_types)
    procedures = read_functions(reader, top.get("procedures"), "procedure", enums, card_types)
    events = read_events(reader, top.get("events"), enums, card_types)
    abilities = read_abilities(reader, top.get("abilities"), events)
    for inline in reader.inline_abilities:
        ability = read_inline(reader, inline, events)
        if ability is not None:
            abilities[ability.name] = ability
    card_types = with_used_flags(card_types, cards, abilities)
    setup = reader.snippet(top.get("setup"), "block") if top.get("setup") else ()
    modes = read_modes(reader, top.get("modes"), roles, zones, variables, defines)
    if "d6" not in reader.names:  # built in, unless the ruleset gives the name to something of its own
        dice["d6"] = D6
    rulings = read_rulings(reader, top.get("rulings"), modes)
    ruleset = ir.Ruleset(
        game or "untitled", title, reader.text(top.get("credits"), "credits"), roles,
        ir.frozen_map(params), ir.frozen_map(enums), ir.frozen_map(card_types), tuple(cards),
        ir.frozen_map(zones), ir.frozen_map(variables), ir.frozen_map(defines),
        ir.frozen_map(procedures), setup or (), ir.frozen_map(modes), rulings,
        ir.frozen_map({n: p.default for n, p in params.items()}),
        source_hash(reader.sources), text=reader.text(top.get("text"), "text"),
        files=tuple(s.name for s in reader.sources), players=players, dice=ir.frozen_map(dice),
        events=ir.frozen_map(events), abilities=ir.frozen_map(abilities), span=top.span,
        number_digits=reader.limits.number_digits, language=reader.language, notes=tuple(reader.notes))
    return ruleset


def _card_type_names(node: YNode | None) -> dict:
    """The card types a file declares, by name, before they are read."""
    return dict.fromkeys(node.entries) if isinstance(node, YMap) else {}
