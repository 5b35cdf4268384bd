"""docs/authoring.md, followed as a newcomer would: every file written, every command run.

A file is a ```yaml block after `<!-- file: NAME -->`; a command is a `$ rulelang ...`
line in a ```console block, and the lines after it are what it prints (`…` stands
for lines left out; lines with a speed in games/s are not compared).
"""
import re
import shlex

import pytest
from helpers import ROOT
from helpers.commands import cli

DOC = (ROOT / "docs" / "authoring.md").read_text()
LANGUAGE = (ROOT / "docs" / "language.md").read_text()


def blocks(text: str):
    """(kind, file name or None, body) for each fenced block, in order."""
    for m in re.finditer(r"(?:<!-- file: (\S+) -->\n)?```(\w+)\n(.*?)```", text, re.S):
        yield m.group(2), m.group(1), m.group(3)


def commands(body: str):
    """(argv, expected lines) for each `$ ` line of a console block."""
    current = None
    for line in body.splitlines():
        if line.startswith("$ "):
            if current:
                yield current
            current = (shlex.split(line[2:]), [])
        elif current:
            current[1].append(line.rstrip())
    if current:
        yield current


def appears_in_order(expected: list[str], actual: list[str]) -> bool:
    lines = iter(actual)
    return all(any(a == e for a in lines) for e in expected)


# sections 1-4 build a game from nothing; 5-8 walk through the example games, whose
# rules tests/test_examples.py checks in the default run (their commands run in the slow one)
TUTORIAL, WALKTHROUGHS = DOC.split("\n## 5. ", 1)


@pytest.mark.parametrize("part", ["tutorial", pytest.param("walkthroughs", marks=pytest.mark.slow)])
def test_the_tutorial_runs_as_written(tmp_path, monkeypatch, capsys, part):
    monkeypatch.chdir(tmp_path)  # the commands run in this process (start-up is not what is tested), there
    ran = 0
    for kind, name, body in blocks(TUTORIAL if part == "tutorial" else WALKTHROUGHS):
        if name:
            (tmp_path / name).write_text(body)
        if kind != "console":
            continue
        for argv, shown in commands(body):
            assert argv[0] == "rulelang"
            code, out, err = cli(capsys, *argv[1:])
            expected = [line for line in shown if line and line != "…" and "games/s" not in line]
            failing = any("error:" in line for line in shown)
            assert code == (2 if failing else 0), (argv, err)
            actual = [line.rstrip() for line in (out + err).splitlines()]
            assert appears_in_order(expected, actual), (argv, "\n".join(actual))
            ran += 1
    assert ran >= 10
    if part == "tutorial":
        assert (tmp_path / "three-cards.png").is_file()


def anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_reference_link_leads_to_a_section():
    anchors = {anchor(h) for h in re.findall(r"^#+ (.+)$", LANGUAGE, re.M)}
    links = re.findall(r"\(language\.md#([\w-]+)\)", DOC)
    assert links and set(links) <= anchors


def table_names(text: str, section: str) -> list[str]:
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return [row.split("|")[1].strip() for row in re.findall(r"^\|.*\|$", part, re.M)[2:]]


def test_the_reference_lists_every_statement_and_expression():
    for section in ("Statements", "Expressions"):
        listed = table_names(DOC.replace("### ", "## "), section)
        for name in table_names(LANGUAGE, section):
            assert name in listed, f"docs/authoring.md has no line for '{name}' ({section})"
