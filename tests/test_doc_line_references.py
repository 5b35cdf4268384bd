"""A line of a bundled ruleset named in the docs (`rulesets/X.yaml:N`) is there, and is what the
docs say it is: the decision a label names (`complete (rulesets/twenty-trials.yaml:365)`), the
text quoted before it (`` `if use_spinner:` @ rulesets/gauntlet-16-7.yaml:320 ``). Rulesets
change; a number written by hand goes stale without this (docs/architecture.md's walk-through is
checked more closely by test_architecture_doc.py)."""
import re

import pytest
from helpers import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
REFERENCE = re.compile(r"rulesets/([\w-]+)\.yaml:(\d+)")
LABELLED = re.compile(r"(?:'(\w+)', '|'?(\w+)'? \()rulesets/([\w-]+)\.yaml:(\d+)")
QUOTED = re.compile(r"`([^`]+)` @ rulesets/([\w-]+)\.yaml:(\d+)")


def ruleset_lines(name: str) -> list[str] | None:
    path = ROOT / "rulesets" / f"{name}.yaml"
    return path.read_text().splitlines() if path.is_file() else None  # (an example's own file: not ours)


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_line_of_a_ruleset_the_docs_name_is_what_they_say(doc):
    text = doc.read_text()
    wrong = []
    for name, line in REFERENCE.findall(text):
        lines = ruleset_lines(name)
        if lines is not None and not (int(line) <= len(lines) and lines[int(line) - 1].strip()):
            wrong.append(f"{name}.yaml:{line} is not a line of rules")
    for quoted_label, label, name, line in LABELLED.findall(text):
        lines, label = ruleset_lines(name), quoted_label or label
        if lines is not None and int(line) <= len(lines) and f"as {label}" not in lines[int(line) - 1]:
            asked = [i + 1 for i, s in enumerate(lines) if re.search(rf"\bas {label}\b", s)]
            wrong.append(f"{name}.yaml:{line} does not ask '{label}' (it is asked at {asked})")
    for quote, name, line in QUOTED.findall(text):
        lines = ruleset_lines(name)
        if lines is not None and int(line) <= len(lines) and quote not in lines[int(line) - 1]:
            wrong.append(f"{name}.yaml:{line} does not read `{quote}`")
    assert not wrong, f"{doc.name}: " + "; ".join(wrong)


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_link_of_the_docs_leads_somewhere(doc):
    broken = []
    for target in LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+:", target):  # (a web address: not checked here)
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists() or anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert not broken, f"{doc.name}: {broken}"
