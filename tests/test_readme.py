"""The README's example sessions show what the commands really print."""
import re
import shlex

import pytest
from helpers import ROOT, rulelang

# `$ rulelang ...` and the lines under it up to a blank line; `...` elides lines
SESSION = re.compile(r"^\$ rulelang (.+)\n((?:.+\n)*)", re.MULTILINE)
SESSIONS = [(m.group(1), m.group(2).splitlines()) for m in SESSION.finditer((ROOT / "README.md").read_text())
            if not m.group(1).startswith("play")]  # play waits for a person


def test_the_readme_has_example_sessions():
    assert len(SESSIONS) >= 3


@pytest.mark.parametrize("command, shown", SESSIONS, ids=[c for c, _ in SESSIONS])
def test_readme_session_prints_what_it_shows(command, shown):
    result = rulelang(*shlex.split(command))
    assert result.returncode == 0, result.stderr
    printed = result.stdout.splitlines()
    at = 0
    for line in shown:
        if line.strip() == "...":
            continue
        assert line in printed[at:], f"{line!r} is not printed by 'rulelang {command}' where the README shows it"
        at = printed.index(line, at) + 1
