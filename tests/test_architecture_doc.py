"""docs/architecture.md's walk-through cannot go stale: every line of a bundled ruleset it
quotes (`rulesets/X.yaml:N`: `text`) is that line, every note it quotes is a note of the code
generated for that ruleset's first mode, and the log record it quotes is what a game writes."""
import json
import re

from helpers import ROOT

from cli.main import main
from interpreter.engine.game import Game
from rulelang import load_ruleset

DOC = (ROOT / "docs" / "architecture.md").read_text()
QUOTED_LINE = re.compile(r"`rulesets/([\w-]+)\.yaml:(\d+)`:\s+`([^`]+)`")
QUOTED_NOTE = re.compile(r"`(rulesets/([\w-]+)\.yaml:\d+(?: via \w+ :\d+)*)`")


def test_the_lines_it_quotes_are_the_rulesets_lines():
    quoted = QUOTED_LINE.findall(DOC)
    assert quoted
    for name, line, text in quoted:
        lines = (ROOT / "rulesets" / f"{name}.yaml").read_text().splitlines()
        assert lines[int(line) - 1].strip() == text, (name, line)


def test_the_notes_it_quotes_are_in_the_generated_code():
    notes: dict[str, set] = {}
    for note, name in QUOTED_NOTE.findall(DOC):
        if name not in notes:
            game = Game(load_ruleset(name))
            notes[name] = {n for unit in game.rules.units for _, n in unit.lines if n}
        assert note in notes[name], note


def test_the_log_record_it_quotes_is_written(tmp_path, capsys):
    record = re.search(r"`(\{\"type\": \"decision\".*?)`", DOC)[1]
    wanted = {k: v for k, v in re.findall(r'"(\w+)": "([^"]*)"', record)}
    log = tmp_path / "game.jsonl"
    assert main(["run", "twenty-trials", "--seed", "1", "--log", str(log)]) == 0  # (in this process: quicker)
    capsys.readouterr()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(all(r.get(k) == v for k, v in wanted.items()) for r in records), wanted
