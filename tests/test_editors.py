"""The VS Code extension's files: the grammar made from the language, the settings the server reads."""
import importlib.util
import json
import re

from helpers import ROOT

VSCODE = ROOT / "editors" / "vscode"


def grammar_script():
    spec = importlib.util.spec_from_file_location("vscode_grammar", ROOT / "scripts" / "vscode_grammar.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_grammar_is_made_from_the_language_as_it_is():
    assert (VSCODE / "syntaxes" / "rulelang.injection.json").read_text(encoding="utf-8") == grammar_script().text(), \
        "run python scripts/vscode_grammar.py"


def test_the_grammar_finds_the_rules_of_the_bundled_rulesets():
    grammar = grammar_script().grammar()
    block, line, quoted = (re.compile(p.get("begin") or p["match"]) for p in grammar["patterns"])
    for pattern in grammar["repository"]["rules"]["patterns"]:
        re.compile(pattern["match"])  # Oniguruma reads these as Python does
    text = (ROOT / "rulesets" / "twenty-trials.yaml").read_text(encoding="utf-8").splitlines()
    blocks = [t for t in text if block.match(t)]
    assert any(t.strip() == "do: |" for t in blocks) and "  trials_met_by_pool(): |" in blocks
    assert [m.group(4) for t in text if (m := quoted.match(t)) and m.group(2) == "action_row()"] == \
        ["[c for c in chamber where c is action]"]
    assert "first(t in chamber where t is trial)" in [m.group(3) for t in text if (m := line.match(t))]


def test_the_extension_passes_the_settings_the_server_reads():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    settings = package["contributes"]["configuration"]["properties"]
    assert set(settings) == {"rulelang.command", "rulelang.extendsDirs", "rulelang.debounce"}
    script = (VSCODE / "extension.js").read_text(encoding="utf-8")
    features = (ROOT / "langserver" / "features.py").read_text(encoding="utf-8")
    for option in ("extendsDirs", "debounce"):
        assert f"{option}:" in script and f'"{option}"' in features
