"""`modes:`: each mode's roles, setup, round of steps, scores, ratings,
measures, visibility, watches, heuristics and ranking (its `quick:` pages: `quick`)."""
from __future__ import annotations

import re

from .. import ir
from ..errors import Span, did_you_mean
from ..yamltree import YList, YMap, YNode, YScalar
from .quick import QUICK_PAGE, read_quick
from .reader import Reader
from .shapes import (ASSUMED, CHECKED, EXPRESSION, PROSE, RULES, AnyOf, Choice, Key, Keys, ListOf, Named, Scalar, expression,
                     string)

STEP_BODY = (Key("do", RULES), Key("text", PROSE), Key("checked", CHECKED), Key("assumed", ASSUMED))
STEP = Keys("a step of the round", (Key("step", string("its name (variants refer to it)"), required=True),
                                    Key("do", RULES, required=True), *STEP_BODY[1:]))
# a variant's changes to an inherited round (rulelang/variants.py makes them)
CHANGES = (
    Keys("in a variant: replace an inherited step", (Key("replace", string("the step's name"), required=True),
                                                     *STEP_BODY)),
    Keys("in a variant: a new step, `before:` or `after:` another (default: last)", (
        Key("insert", string("the new step's name"), required=True), Key("before", string("a step's name")),
        Key("after", string("a step's name")), Key("do", RULES, required=True), *STEP_BODY[1:])),
    Keys("in a variant: remove an inherited step", (Key("remove", string("the step's name"), required=True),)),
)
MEASURE_SPEC = Keys("a figure recorded when a game ends", (
    Key("value", EXPRESSION, required=True),
    Key("when", expression("the games it applies to (default: all)")),
    Key("text", string("what it measures"))))
WATCH = Keys("as soon as `when` holds: stop the step, run `do`, go on at `then`", (
    Key("when", EXPRESSION, required=True), Key("do", RULES, required=True),
    Key("then", string("the step to go on with (default: the next)")), Key("text", PROSE),
    Key("checked", CHECKED)))
TURNS = Keys("the steps each player takes in turn, and in what order", (
    Key("steps", ListOf(Scalar(("string",)), "the steps a turn is, one after the other (default: all)")),
    Key("order", expression("the players, in the order they take their turns each round (default: seat order)"))))
PER_PLAYER = string("a per-player variable or a define of one player")
RANK_KEY = Keys("a tie-breaker: `highest: NAME` or `lowest: NAME`",
                (Key("highest", PER_PLAYER), Key("lowest", PER_PLAYER)), one_key=True)
VISIBILITY = Choice(("all", "owner", "none", "open"), "who sees a zone in this mode")
MODE = Keys("a way to play", (
    Key("title", string("its title")), Key("text", string("what it is")),
    Key("roles", ListOf(Scalar(("string",)), "who plays (default: every role)")),
    Key("setup", RULES),
    Key("round", ListOf(AnyOf((STEP, *CHANGES)), "the steps, in order")),
    Key("turns", AnyOf((Scalar(("boolean",), "`true`: every step of the round is each player's turn"), TURNS))),
    Key("score", AnyOf((Named(EXPRESSION, "each role's score when the game ends"), PER_PLAYER))),
    Key("ratings", Named(Scalar(("string", "integer")), "names for a winner's score: a range like 0..3 or 8..")),
    Key("measures", Named(AnyOf((EXPRESSION, MEASURE_SPEC)),
                          "figures recorded when a game ends, reported by simulate and compare")),
    Key("assumed", ASSUMED),
    Key("visibility", AnyOf((Choice(("open",)), Named(VISIBILITY)),
                            "`open`: every card seen by everyone, face down ones and deck order too")),
    Key("watch", ListOf(WATCH, "conditions checked as soon as the game changes")),
    Key("heuristics", AnyOf((Named(EXPRESSION, "per role, a number: higher is better for that role (read by "
                                               "search agents)"), PER_PLAYER))),
    Key("ranking", ListOf(AnyOf((PER_PLAYER, RANK_KEY)), "how `end game` places the players: each key breaks "
                                                         "the ties of those before")),
    Key("quick", ListOf(QUICK_PAGE, "the quick reference's pages (docs/printing.md)")),
    Key("extends", string("another mode of this ruleset that this one starts as a copy of"), variant=True),
))
STEP_KEYS, MODE_KEYS, MEASURE_KEYS = STEP.names, MODE.names, MEASURE_SPEC.names


def read_modes(reader: Reader, node: YNode | None, roles, zones, variables, defines) -> dict[str, ir.Mode]:
    modes: dict[str, ir.Mode] = {}
    modes_map = reader.expect_map(node, "modes")
    if modes_map is None or not modes_map.entries:
        reader.diag.error((node or reader.tree).span, "the ruleset has no 'modes:'",
                        "a mode says how a game is played: its setup and its round of steps")
        return modes
    role_names = [r.name for r in roles]
    for name, (span, spec) in modes_map.entries.items():
        if not isinstance(spec, YMap):
            reader.diag.error(span, f"mode '{name}' must be a mapping (title:, round:, ...)")
            continue
        reader.keys(spec, MODE, f"mode '{name}'")
        mode_roles = []
        roles_node = spec.get("roles")
        for item in (roles_node.items if isinstance(roles_node, YList) else []):
            r = reader.text(item, "a role")
            if r not in role_names:
                reader.unknown(item.span, "role", r, role_names)
            else:
                mode_roles.append(r)
        steps = read_steps(reader, spec.get("round"), name, span)
        playing = tuple(mode_roles or role_names)
        per_player = _PerPlayer(reader, variables, defines, playing)
        score, heuristics = spec.get("score"), spec.get("heuristics")
        modes[name] = ir.Mode(
            name, reader.text(spec.get("title"), "title") or name.replace("_", " ").title(),
            reader.text(spec.get("text"), "text"), playing,
            reader.snippet(spec.get("setup"), "block") or () if spec.get("setup") else (),
            steps, per_player.table(score, "score") if isinstance(score, YScalar)
            else role_expressions(reader, score, "score", role_names),
            read_ratings(reader, spec.get("ratings")),
            assumed=reader.assumed(spec), measures=read_measures(reader, spec.get("measures")),
            visibility=ir.frozen_map(read_visibility(reader, spec.get("visibility"), zones)),
            watches=read_watches(reader, spec.get("watch"), steps),
            heuristics=per_player.table(heuristics, "heuristics")
            if isinstance(heuristics, YScalar)
            else role_expressions(reader, heuristics, "heuristics", role_names),
            ranking=per_player.ranking(spec.get("ranking")), quick=read_quick(reader, spec.get("quick"), steps),
            turns=read_turns(reader, spec.get("turns"), steps), span=span)
    return modes


def read_turns(reader: Reader, node: YNode | None, steps: tuple[ir.Step, ...]) -> ir.Turns | None:
    """`turns: true` (every step of the round is a turn), or `turns: {steps: [..], order: EXPR}`:
    the steps a turn is, one after the other in the round, and who takes their turns in what order."""
    if node is None or isinstance(node, YScalar) and node.value is False:
        return None
    if isinstance(node, YScalar) and node.value is True:
        return ir.Turns(0, len(steps) - 1, span=node.span) if steps else None
    if not isinstance(node, YMap):
        reader.diag.error(node.span, "turns: is `true`, or `{steps: [STEP, ...], order: PLAYERS}`",
                          "e.g. `turns: {steps: [Roll, Move], order: clockwise(start)}`")
        return None
    reader.keys(node, TURNS, "turns")
    names = [s.name for s in steps]
    wanted = reader.text_items(node.get("steps"), "step name") if node.get("steps") is not None \
        else [(n, node.span) for n in names]
    places = []
    for name, where in wanted:
        if name not in names:
            reader.diag.error(where, f"there is no step '{name}' in this mode's round",
                              did_you_mean(name, names) or "steps: " + ", ".join(names))
        else:
            places.append(names.index(name))
    if not places:
        return None
    first, last = min(places), max(places)
    if sorted(places) != list(range(first, last + 1)):
        reader.diag.error((node.get("steps") or node).span, "a turn is steps one after the other in the round",
                          f"list them in order, from '{names[first]}' to '{names[last]}', with none left out")
        return None
    order = reader.snippet(node.get("order"), "expression") if node.get("order") is not None else None
    return ir.Turns(first, last, order, span=node.span)


def read_steps(reader: Reader, node: YNode | None, mode: str, span: Span) -> tuple[ir.Step, ...]:
    if not isinstance(node, YList) or not node.items:
        reader.diag.error(node.span if node else span, f"mode '{mode}' needs a 'round:' list of steps",
                        "each step is `- step: Name` with `do: |` and its statements")
        return ()
    steps, seen = [], set()
    for item in node.items:
        if not isinstance(item, YMap):
            reader.diag.error(item.span, "a step is a mapping: `- step: Name` and `do: ...`")
            continue
        reader.keys(item, STEP, "a step")
        name = reader.text(item.get("step"), "step name")
        if not name:
            reader.diag.error(item.span, "this step has no name", "add `step: Name` (variants refer to steps by name)")
            continue
        if name in seen:
            reader.diag.error(item.value_span("step"), f"two steps are named '{name}' in mode '{mode}'")
        seen.add(name)
        body = reader.snippet(item.get("do"), "block") if item.get("do") is not None else None
        if item.get("do") is None:
            reader.diag.error(item.span, f"step '{name}' has no 'do:'")
        steps.append(ir.Step(name, body or (), reader.text(item.get("text"), "text"), reader.assumed(item),
                             reader.pin(item), span=item.span))
    return tuple(steps)


def role_expressions(reader: Reader, node: YNode | None, what: str, role_names) -> ir.FrozenMap:
    """`{ROLE: EXPRESSION}` (a mode's `score:` or `heuristics:`)."""
    result = {}
    for role, (rspan, expr_node) in reader.entries(node, what):
        if role not in role_names:
            reader.unknown(rspan, "role", role, role_names)
            continue
        expr = reader.snippet(expr_node, "expression")
        if expr is not None:
            result[role] = expr
    return ir.frozen_map(result)


def read_ratings(reader: Reader, node: YNode | None) -> tuple[ir.Rating, ...]:
    ratings = []
    for name, (span, value) in reader.entries(node, "ratings"):
        text = str(value.value) if isinstance(value, YScalar) else ""
        m = re.fullmatch(r"\s*([0-9]{1,18})\s*(?:\.\.\s*([0-9]{1,18})?)?\s*", text)
        if not m:
            reader.diag.error(value.span, f"a rating is a range of scores like 0..3 or 8.., not '{text}'")
            continue
        low = int(m.group(1))
        high = int(m.group(2)) if m.group(2) else (low if ".." not in text else None)
        ratings.append(ir.Rating(name, low, high, span=span))
    return tuple(ratings)


def read_measures(reader: Reader, node: YNode | None) -> ir.FrozenMap:
    measures = {}
    for name, (span, value) in reader.entries(node, "measures"):
        text, when = None, None
        if isinstance(value, YMap):
            reader.keys(value, MEASURE_SPEC, f"measure '{name}'")
            text = reader.text(value.get("text"), "text")
            when = reader.snippet(value.get("when"), "expression") if "when" in value else None
            if value.get("value") is None:
                reader.diag.error(span, f"measure '{name}' has no 'value:'")
                continue
        expr = reader.snippet(value.get("value") if isinstance(value, YMap) else value, "expression")
        if expr is not None:
            measures[name] = ir.Measure(name, expr, when, text, span=span)
    return ir.frozen_map(measures)


def read_visibility(reader: Reader, node: YNode | None, zones) -> dict[str, str]:
    """`visibility: open` (every role sees every card) or `{ZONE: all|owner|none|open}`."""
    if node is None:
        return {}
    if isinstance(node, YScalar):
        if node.value != "open":
            reader.diag.error(node.span, "visibility is `open` or a mapping of zones to all, owner, none or open",
                            "`visibility: open` lets every role see every card, face-down ones included")
            return {}
        return {z: "open" for z in zones}
    result = {}
    for zone, (zspan, value) in reader.entries(node, "visibility"):
        seen = reader.text(value, "visibility")
        if zone not in zones:
            reader.unknown(zspan, "zone", zone, zones)
        elif seen not in VISIBILITY.words:
            reader.diag.error(value.span, f"visibility of a zone is all, owner, none or open, not '{seen}'",
                            did_you_mean(str(seen), VISIBILITY.words))
        elif seen == "owner" and zones[zone].owner is None:
            reader.diag.error(value.span, f"zone '{zone}' has no owner to see it")
        else:
            result[zone] = seen
    return result


def read_watches(reader: Reader, node: YNode | None, steps) -> tuple[ir.Watch, ...]:
    """`watch:` — a list of `- when: CONDITION`, `do: STATEMENTS`, `then: STEP`."""
    if node is None:
        return ()
    if not isinstance(node, YList):
        reader.diag.error(node.span, "watch: is a list of `- when: CONDITION` with `do:` (and `then: STEP`)")
        return ()
    step_names = [s.name for s in steps]
    watches = []
    for item in node.items:
        if not isinstance(item, YMap):
            reader.diag.error(item.span, "a watch is a mapping: `- when: CONDITION` and `do: ...`")
            continue
        reader.keys(item, WATCH, "a watch")
        if item.get("when") is None or item.get("do") is None:
            reader.diag.error(item.span, "a watch needs `when:` (a condition) and `do:` (statements)")
            continue
        then = reader.text(item.get("then"), "then")
        if then is not None and then not in step_names:
            reader.diag.error(item.value_span("then"), f"no step named '{then}' in this mode",
                            did_you_mean(then, step_names) or "steps: " + ", ".join(step_names))
        when, body = reader.snippet(item.get("when"), "expression"), reader.snippet(item.get("do"), "block")
        if when is not None and body is not None:
            watches.append(ir.Watch(when, body, then, reader.text(item.get("text"), "text"), reader.pin(item),
                                    span=item.span))
    return tuple(watches)


class _PerPlayer:
    """A mode's per-player numbers named once for every player: `score: points`,
    `heuristics: outlook` and `ranking: [{highest: life}, {lowest: finished_at}]` name a per-player
    variable (`points of p`) or a define of one player (`points(p)`)."""

    def __init__(self, reader: Reader, variables, defines, roles: tuple[str, ...]):
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
                self.reader.keys(item, RANK_KEY, "a ranking key")
                if len(item.entries) != 1:
                    self.reader.diag.error(item.span, "a ranking key is `highest: NAME` or `lowest: NAME`")
                    continue
                (word, (_, value)), = item.entries.items()
                lowest = word == "lowest"
            values = self.values(value, "a ranking key")
            if values:
                assert isinstance(value, YScalar)  # (a name: values() found what it names)
                keys.append(ir.RankKey(str(value.value), ir.frozen_map(values), lowest, span=item.span))
        return tuple(keys)
