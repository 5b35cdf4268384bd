"""Write the VS Code extension's TextMate grammar for rules inside YAML strings.

    python scripts/vscode_grammar.py

The grammar (`editors/vscode/syntaxes/rulelang.injection.json`) is injected
into VS Code's YAML grammar: it colours the rules language in the values of
the keys that hold rules (`do:`, `setup:`, `where:` ..., and the entries of
`define:` and `procedures:`, whose keys carry parameters), as blocks after
`|` or `>` and on the key's own line. Its words come from the language
itself — the parser's keywords, the built-ins' table, the schema's rules
keys — so `tests/test_editors.py` fails when the file is out of date.
The language server's semantic tokens then colour each name by what it names.
"""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "rulelang.injection.json"


def rules_keys(schema: dict) -> list[str]:
    """The keys whose values are rules text, wherever the schema puts them."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                alternatives = (sub.get("anyOf") or sub.get("oneOf") or [sub]) if isinstance(sub, dict) else []
                if any(isinstance(a, dict) and a.get("x-rules") for a in alternatives):
                    found.add(key)
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(found)


def grammar() -> dict:
    import sys
    sys.path.insert(0, str(ROOT))
    from rulelang.builtins import BUILTINS
    from rulelang.parser import KEYWORDS
    from rulelang.schema import schema

    keys = "|".join(rules_keys(schema()))
    head = rf"^(\s*)(?:-\s+)?((?:{keys})|[A-Za-z_]\w*\s*\([^)]*\))\s*:"
    return {
        "scopeName": "rulelang.injection",
        "injectionSelector": "L:source.yaml -comment",
        "patterns": [
            {"comment": "rules in a block: `do: |` and the lines indented under it",
             "begin": head + r"\s*([|>][-+0-9]*)\s*(#.*)?$",
             "beginCaptures": {"2": {"name": "entity.name.tag.yaml"}, "3": {"name": "keyword.control.flow.block-scalar.yaml"},
                               "4": {"name": "comment.line.number-sign.yaml"}},
             "end": r"^(?!\1\s+\S|\s*$)",
             "contentName": "meta.embedded.block.rulelang",
             "patterns": [{"include": "#rules"}]},
            {"comment": "rules on the key's line: `where: c is action`",
             "match": head + r"\s+(?![|>\"'{\[])(.+?)\s*$",
             "captures": {"2": {"name": "entity.name.tag.yaml"},
                          "3": {"name": "meta.embedded.line.rulelang", "patterns": [{"include": "#rules"}]}}},
            {"comment": "rules in quotes on the key's line: `action_row(): \"[c for c in chamber]\"`",
             "match": head + r"\s+(\"|')(.*)(\3)\s*$",
             "captures": {"2": {"name": "entity.name.tag.yaml"}, "3": {"name": "punctuation.definition.string.yaml"},
                          "4": {"name": "meta.embedded.line.rulelang", "patterns": [{"include": "#rules"}]},
                          "5": {"name": "punctuation.definition.string.yaml"}}},
        ],
        "repository": {"rules": {"patterns": [
            {"name": "comment.line.number-sign.rulelang", "match": r"#.*$"},
            {"name": "string.quoted.double.rulelang", "match": r'"(?:[^"\\]|\\.)*"'},
            {"name": "keyword.control.rulelang", "match": rf"\b(?:{'|'.join(sorted(KEYWORDS))})\b"},
            {"name": "support.function.rulelang",
             "match": rf"\b(?:{'|'.join(sorted(b.name for b in BUILTINS.values()))})\b"},
            {"name": "constant.numeric.rulelang", "match": r"\b[0-9]+\b"},
            {"name": "entity.name.function.rulelang", "match": r"\b[A-Za-z_]\w*(?=\s*\()"},
            {"name": "variable.other.property.rulelang", "match": r"(?<=\.)[A-Za-z_]\w*"},
            {"name": "keyword.operator.rulelang", "match": r"==|!=|<=|>=|\+=|-=|\.\.|[-+*/%<>=]"},
        ]}},
    }


def text() -> str:
    return json.dumps(grammar(), indent=2) + "\n"


if __name__ == "__main__":
    GRAMMAR.write_text(text(), encoding="utf-8")
    print(GRAMMAR.relative_to(ROOT))
