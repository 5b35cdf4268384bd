"""`rulelang show` (a ruleset as it will run, variants merged) and `rulelang schema`."""
from __future__ import annotations

import json

from rulelang import find_ruleset, parse_assignments
from rulelang.loader import read_ruleset
from rulelang.schema import schema
from rulelang.variants import read_tree
from rulelang.yamltree import dump, plain

from .common import limits, ruleset_args


def add_commands(sub) -> None:
    p = sub.add_parser("show", help="print a ruleset as it will run: a variant merged with what it extends")
    ruleset_args(p)
    p.set_defaults(command=cmd_show)

    p = sub.add_parser("schema", help="print the JSON Schema of ruleset files (for editors)")
    p.set_defaults(command=cmd_schema)


def cmd_show(args) -> int:
    tree = read_tree(find_ruleset(args.ruleset), limits(args), args.extends_dir)
    ruleset = read_ruleset(tree, parse_assignments(args.set), limits(args))  # checked: show only what can run
    data = plain(tree.root)
    for name, value in ruleset.param_values.items():  # --set becomes the default shown
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
