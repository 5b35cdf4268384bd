"""A JSON Schema for ruleset files, so an editor can check and complete them.

`rulelang schema` prints it. An editor with a YAML language server (VS Code's
YAML extension, Neovim's yamlls, …) uses it for completion, hover text and
on-the-fly errors. The schema knows the YAML structure only; the rules text
inside (`do:`, `define:`, …) is checked by `rulelang check`.
"""
from __future__ import annotations

from .ir import QUICK_SECTIONS

DRAFT = "http://json-schema.org/draft-07/schema#"


def _obj(description: str, properties: dict, required=(), extra: bool = False) -> dict:
    schema = {"type": "object", "description": description, "properties": properties,
              "additionalProperties": extra}
    if required:
        schema["required"] = list(required)
    return schema


def _named(description: str, value: dict) -> dict:
    """A mapping from names the author chooses to `value`."""
    return {"type": "object", "description": description, "additionalProperties": value}


def _text(description: str) -> dict:
    return {"type": "string", "description": description}


RULES = {"type": "string", "description": "rules text: statements, one a line (write it after `|`)"}
EXPRESSION = {"type": ["string", "integer", "boolean"], "description": "a value or condition in the rules language"}
TEXT = _text("prose shown to players instead of the generated sentence")
ASSUMED = _text("a value the rulebook does not give, chosen here; say why")
NAME = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}

PARAM = {"oneOf": [
    {"type": ["boolean", "integer", "string"], "description": "the default value"},
    _obj("a parameter a player sets with --set NAME=VALUE", {
        "default": {"type": ["boolean", "integer", "string"], "description": "true/false, a number, or one of the choices"},
        "text": _text("what the parameter does"),
        "choices": {"type": "array", "items": NAME, "description": "the values it may take (also a type)"},
        "min": {"type": "integer"}, "max": {"type": "integer"}, "assumed": ASSUMED,
    }, required=["default"]),
]}

TYPE = {"oneOf": [
    {"type": "array", "items": NAME, "description": "the type's values"},
    _obj("a named set of values", {
        "values": {"type": "array", "items": NAME}, "text": _text("what it is"),
        "icons": {"type": ["boolean", "object"], "additionalProperties": {"type": "string"},
                  "description": "printed as icons: true (an icon named like each value) or {value: icon}"},
    }, required=["values"]),
]}

TABLE = _text("one card a row under a header of field names; an optional `count` column gives copies")
CARD = _obj("a type of component (cards by default; `component:` says what else)", {
    "fields": _named("each card's fields: number, text, bool, a range like 1..8, a type, or a list of values",
                     {"type": ["string", "array"]}),
    "each": {"oneOf": [
        {"type": "array", "items": NAME, "description": "fields whose every value (their type's, in order) "
                                                         "makes a card with each row of the table"},
        _named("fields and the values to go through: a list, or a range like 2..10",
               {"type": ["array", "string"], "items": {"type": ["string", "integer", "boolean"]}})],
        "description": "a deck as a product: each row of `table` is repeated once per combination of these "
                       "fields' values (first field slowest), and the table leaves their columns out; "
                       "without `table`, the cards are the combinations"},
    "table": TABLE,
    "count": {"type": "integer", "minimum": 1,
              "description": "copies of a card type without fields (with `each` and no table: of each combination)"},
    "label": _text('how a card is shown, e.g. "{value} {icon}"'),
    "text": _text("what the cards are for"), "assumed": ASSUMED,
    "state": _named("values each card carries and the rules change, with their initial value (`damage: 0`)",
                    {"type": ["integer", "boolean", "string"]}),
    "back": _text('what the back shows, e.g. "Trial" (cards with the same back look alike face down)'),
    "template": _text("the card's own printing template (Jinja2, `{% extends \"card.svg.j2\" %}`)"),
    "print": {"oneOf": [{"type": "boolean", "description": "false: left out of card sheets (pawns, dice, a board)"},
                        _named("how each field reads on the card: a format, false, or a format for each value",
                               {"oneOf": [{"type": ["string", "boolean"]},
                                          {"type": "object", "additionalProperties": {"type": ["string", "boolean"]}}]})]},
    "component": _text("what one is on the table: card (the default), token, tile, miniature, space, pawn, die, ..."),
    "plural": _text("the plural of its printed noun, where English has no rule for it"),
    "article": {"enum": ["a", "an"], "description": "the article of its printed noun, where its sound is irregular"},
    "abilities": {"type": "array", "items": NAME, "description": "abilities every card of the type carries"},
    "facing": {"enum": ["up", "down"], "description": "how these cards lie in any zone, whatever its facing"},
    "add": _text("in a variant: cards to add, as a table with the same columns"),
    "remove": _text("in a variant: cards to remove, as a table of some of the columns (and `count`)"),
})

ZONE = {"oneOf": [{"type": "null"}, _obj("a place for cards", {
    "owner": _text("a role, or `each` for one zone per role (`hand of p`)"),
    "facing": {"enum": ["up", "down"], "description": "how cards are turned when they enter"},
    "seen_by": {"enum": ["all", "owner", "none"], "description": "who sees its face-up cards"},
    "holds": {"type": ["string", "array"], "items": {"type": "string"}, "description": "the card types allowed in it"},
    "kind": {"enum": ["pile", "row", "hand", "area", "grid", "graph"],
             "description": "how it is shown and described; `grid` makes a board of columns × rows spaces, "
                            "`graph` a board of places joined by links"},
    "columns": {"type": "integer", "minimum": 1, "description": "a grid's number of columns"},
    "rows": {"type": "integer", "minimum": 1, "description": "a grid's number of rows"},
    "map": _text("a grid drawn as text: one character a space, top row first, a blank for no space"),
    "legend": _named("what each character of the map marks: a value, or {mark: value}",
                     {"type": ["string", "object"]}),
    "marks": _named("the fields a board's spaces are marked with, and their types", {"type": "string"}),
    "places": {"type": ["array", "object"], "description": "a graph's places, in order (a list of names, "
                                                           "or names with their marks)"},
    "links": _text("a graph's links, a chain a line: `a - b - c` (both ways), `a -> b` (one way)"),
    "text": _text("its name for players"), "assumed": ASSUMED,
    "article": {"enum": ["the", "none"], "description": "`none` for a name printed without `the`"},
})]}

VAR = {"oneOf": [
    {"type": ["integer", "boolean", "string"], "description": "the initial value"},
    _obj("a game variable", {
        "initial": {"type": ["integer", "boolean", "string"], "description": "a number, true/false, a value of a type, "
                                                                              "a role, or none (with `type:`)"},
        "type": _text("its type, where the initial value does not say it: role, a type, a card type"),
        "owner": {"enum": ["each"], "description": "every player has their own, read `NAME of p`"},
        "min": {"type": "integer", "description": "a number's lower bound: a change past it stops there"},
        "max": {"type": "integer", "description": "a number's upper bound: a change past it stops there"},
        "text": _text("what it counts"), "assumed": ASSUMED}, required=["initial"]),
]}

PLAYERS = {"oneOf": [
    {"type": ["integer", "string"], "description": "how many play: a number, or a range like 2..4"},
    _obj("seats made from a number of players (`--set players=N`)", {
        "count": {"type": ["integer", "string"], "description": "a number, or a range like 2..4"},
        "default": {"type": "integer", "description": "how many play unless --set players=N says (default: the fewest)"},
        "names": {"type": "array", "items": NAME, "description": "a name per seat, in seat order "
                                                                 "(default: player_1, player_2, ...)"},
        "text": _text("who the players are")}, required=["count"]),
]}

PER_PLAYER = _text("a per-player variable or a define of one player")
RANKING = {"type": "array", "description": "how `end game` places the players: each key breaks the ties of those before",
           "items": {"oneOf": [PER_PLAYER, _obj("a tie-breaker", {"highest": PER_PLAYER}, required=["highest"]),
                               _obj("a tie-breaker", {"lowest": PER_PLAYER}, required=["lowest"])]}}

DEFINE = {"oneOf": [EXPRESSION, _obj("a named value", {"value": EXPRESSION, "text": TEXT, "assumed": ASSUMED},
                                     required=["value"])]}
PROCEDURE = {"oneOf": [RULES, _obj("named statements", {"do": RULES, "text": TEXT, "assumed": ASSUMED},
                                   required=["do"])]}

STEP_BODY = {"do": RULES, "text": TEXT, "assumed": ASSUMED}
STEP = _obj("a step of the round", {"step": _text("its name (variants refer to it)"), **STEP_BODY},
            required=["step", "do"])
CHANGES = [
    _obj("in a variant: replace an inherited step", {"replace": _text("the step's name"), **STEP_BODY},
         required=["replace"]),
    _obj("in a variant: a new step, `before:` or `after:` another (default: last)", {
        "insert": _text("the new step's name"), "before": _text("a step's name"), "after": _text("a step's name"),
        **STEP_BODY}, required=["insert", "do"]),
    _obj("in a variant: remove an inherited step", {"remove": _text("the step's name")}, required=["remove"]),
]

MEASURE = {"oneOf": [EXPRESSION, _obj("a figure recorded when a game ends", {
    "value": EXPRESSION, "when": {**EXPRESSION, "description": "the games it applies to (default: all)"},
    "text": _text("what it measures"),
}, required=["value"])]}

MODE = _obj("a way to play", {
    "extends": _text("another mode of this ruleset that this one starts as a copy of"),
    "title": _text("its title"), "text": _text("what it is"),
    "roles": {"type": "array", "items": {"type": "string"}, "description": "who plays (default: every role)"},
    "setup": RULES,
    "round": {"type": "array", "items": {"oneOf": [STEP, *CHANGES]}, "description": "the steps, in order"},
    "score": {"oneOf": [_named("each role's score when the game ends", EXPRESSION), PER_PLAYER]},
    "ranking": RANKING,
    "quick": {"type": "array", "description": "the quick reference's pages (docs/printing.md)", "items": _obj(
        "a page", {"title": _text("its heading"),
                   "steps": {"type": "array", "items": {"type": "string"}, "description": "steps printed in full"},
                   "rules": {"type": "array", "description": "summary sentences, each text or {text:, rules:}"},
                   "also": {"type": "array", "items": {"enum": list(QUICK_SECTIONS)},
                            "description": "generated sections on this page"}})},
    "ratings": _named("names for a winner's score: a range like 0..3 or 8..", {"type": ["string", "integer"]}),
    "measures": _named("figures recorded when a game ends, reported by simulate and compare", MEASURE),
    "visibility": {"oneOf": [{"enum": ["open"]}, _named("who sees a zone in this mode",
                                                          {"enum": ["all", "owner", "none", "open"]})],
                   "description": "`open`: every card seen by everyone, face down ones and deck order too"},
    "watch": {"type": "array", "description": "conditions checked as soon as the game changes",
              "items": _obj("as soon as `when` holds: stop the step, run `do`, go on at `then`", {
                  "when": EXPRESSION, "do": RULES, "then": _text("the step to go on with (default: the next)"),
                  "text": TEXT}, required=["when", "do"])},
    "heuristics": {"oneOf": [_named("per role, a number: higher is better for that role (read by search agents)",
                                    EXPRESSION), PER_PLAYER]},
    "assumed": ASSUMED,
})

RULING = {"oneOf": [
    _obj("how an ambiguity of the rulebook was decided", {
        "id": _text("a short name"), "text": _text("the ruling"),
        "applies_to": {"oneOf": [_text("a mode (name or title) or a step"),
                                 {"type": "array", "items": _text("a mode (name or title) or a step")}],
                       "description": "the modes named, or else every mode with a step named; default: every mode"}},
        required=["id", "text"]),
    _obj("in a variant: drop an inherited ruling", {"remove": _text("its id")}, required=["remove"]),
]}

SCHEMA = {
    "$schema": DRAFT,
    "title": "rulelang ruleset",
    **_obj("A tabletop game's rules as text: structure and data in YAML, conditions and effects in the "
           "rules language (see docs/language.md).", {
        "extends": _text("the ruleset this variant changes: a bundled name or a path from this file's folder"),
        "game": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$", "description": "the ruleset's id"},
        "title": _text("the game's title"), "credits": _text("who made the game"),
        "source": _text("where the rules come from"), "text": _text("what the game is about"), "assumed": ASSUMED,
        "roles": {"oneOf": [{"type": "array", "items": NAME},
                            _named("who makes decisions", {"oneOf": [{"type": ["string", "null"]},
                                                                      _obj("a role", {"text": _text("who"), "article": {
                                                                          "enum": ["the", "none"],
                                                                          "description": "the Dealer, or North (none)"}})]})]},
        "players": PLAYERS,
        "params": _named("options a player sets with --set NAME=VALUE", PARAM),
        "types": _named("named sets of values", TYPE),
        "cards": _named("component types; one row of `table` per card", CARD),
        "zones": _named("where components are", ZONE),
        "vars": _named("game variables", VAR),
        "dice": _named("dice by their faces: a range like 1..8, or a list of numbers that may repeat "
                       "(d6 is built in)", {"type": ["string", "array"], "items": {"type": "integer"}}),
        "define": _named("named pure values: `name(type param, ...)`", DEFINE),
        "procedures": _named("named statements: `name(param, ...)`", PROCEDURE),
        "events": _named("named moments the rules announce: `name(type param, ...)`, with a phrase for them",
                         {"type": ["string", "null"]}),
        "abilities": _named("card rules that answer an event", _obj("an ability", {
            "on": _text("the event it answers"), "where": EXPRESSION, "once": _text("`per EVENT` or `per game`"),
            "optional": {**EXPRESSION, "description": "the player who may use it or not"}, "do": RULES,
            "text": TEXT, "assumed": ASSUMED}, required=["on", "do"])),
        "setup": RULES,
        "modes": _named("ways to play; the first is the default", MODE),
        "rulings": {"type": "array", "items": RULING, "description": "how ambiguities were decided"},
    }),
}


def schema() -> dict:
    return SCHEMA
