"""`rulelang show` (a ruleset as it will run, variants merged; the Python
generated from one mode; or a mode's action ids and observation tensor) and
`rulelang schema`."""
from __future__ import annotations

import json

from interpreter.adapters.driver import Driver
from interpreter.compiler.options import ALL, NAIVE
from interpreter.engine.game import Game
from rulelang import find_ruleset, parse_assignments
from rulelang.loader import read_ruleset
from rulelang.schema import schema
from rulelang.variants import read_tree
from rulelang.yamltree import dump, plain

from .common import UsageError, limits, load, passes_arg, ruleset_args


def show_arguments(p) -> None:
    ruleset_args(p)
    p.add_argument("--python", action="store_true",
                   help="print the Python code generated for a mode instead, each line noted with the "
                        "ruleset line it comes from")
    p.add_argument("--observation", action="store_true",
                   help="print a mode's action ids and observation tensor instead, as the OpenSpiel, PettingZoo "
                        "and Gymnasium adapters give them (`rulelang docs agents`)")
    p.add_argument("--mode", help="the mode, with --python or --observation (default: the ruleset's first)")
    p.add_argument("--plain", action="store_true", help="with --python: the rules as written (--passes none)")
    passes_arg(p)
    p.set_defaults(command=cmd_show)


def schema_arguments(p) -> None:
    p.set_defaults(command=cmd_schema)


ARGUMENTS = {"show": show_arguments, "schema": schema_arguments}


def cmd_show(args) -> int:
    if args.python and args.observation:
        raise UsageError("--python and --observation show different things: give one")
    if args.python:
        return show_python(args)
    if args.observation:
        return show_observation(args)
    if args.mode or args.plain or args.passes:
        raise UsageError("--mode goes with --python or --observation, --plain and --passes with --python")
    tree = read_tree(find_ruleset(args.ruleset), limits(args), args.extends_dir)
    ruleset = read_ruleset(tree, parse_assignments(args.set), limits(args))  # checked: show only what can run
    data = plain(tree.root)
    for name, value in ruleset.param_values.items():  # --set becomes the default shown
        if name == "players" and ruleset.players is not None:  # the count of `players:`, not under `params:`
            if isinstance(data["players"], dict):
                data["players"]["default"] = value
            continue
        spec = data["params"][name]
        if isinstance(spec, dict):
            spec["default"] = value
        else:
            data["params"][name] = value
    files = ", ".join(s.name for s in tree.sources)
    print(f"# {ruleset.name}, as it will run: merged from {files}")
    if args.set:
        print(f"# with {', '.join(args.set)}")
    print(f"# hash {ruleset.source_hash}")
    print(dump(data), end="")
    return 0


def cmd_schema(args) -> int:
    print(json.dumps(schema(), indent=2))
    return 0


def show_observation(args) -> int:
    """The action space and the observation tensor of one mode (interpreter/adapters)."""
    if args.plain or args.passes:
        raise UsageError("--plain and --passes go with --python")
    ruleset = load(args)
    driver = Driver(Game(ruleset, args.mode, cached=True))
    print(f"# {ruleset.name}, mode {driver.game.mode.name}: what an agent of OpenSpiel, PettingZoo or Gymnasium "
          "answers with and sees (`rulelang docs agents`).")
    print("\n".join(["", "## Actions", *driver.actions.describe(), "", "## Observation", *driver.encoding.describe()]))
    return 0


def show_python(args) -> int:
    """The generated code of one mode, in the order it was generated: constants
    and notes as comments (the code that runs has neither; see compiler/unit.py)."""
    ruleset = load(args)
    if args.plain and args.passes:
        raise UsageError("--plain is --passes none: give one")
    game = Game(ruleset, args.mode, passes=NAIVE if args.plain else args.passes, cached=True)
    how = "compiled as written (no pass)" if game.passes == NAIVE else \
        "optimised for these parameters" if game.passes == ALL else f"with the passes {game.passes}"
    print(f"# {ruleset.name}, mode {game.mode.name}: the Python generated from its rules, {how}.")
    print("# `# FILE:LINE` names the rule each line comes from; kN are constants from the ruleset,")
    print("# passed in as data (their values are noted beside them), never written into the code.")
    for unit in game.rules.units:
        print()
        print(unit.text(), end="")
    return 0
