"""Start-up: `rulelang --help` imports none of the machinery, and `check`
compiles a ruleset again only when something that can change its verdict has
changed — the text, the parameters, rulelang's own source — keeping what
passed in a cache on disk that a damaged or planted entry cannot fool into
running anything (cli/cache.py)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT

import cli.cache
import cli.check
from cli.main import main
from rulelang.errors import Diagnostic, RulesetError

RULES = """\
game: cached
players: {count: 2..3}
vars: {x: {initial: 0}}
modes:
  m:
    round:
      - step: Play
        do: |
          x += 1
          if x > 3:
            end game
"""


def test_help_imports_none_of_the_machinery():
    code = ("import sys; from cli.main import build_parser; build_parser().format_help(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rulelang', 'interpreter', 'generators')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """The modes `check` compiles, in a cache folder of this test's own."""
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    seen: list[tuple[int, str]] = []
    real = cli.check.compiled
    monkeypatch.setattr(cli.check, "compiled", lambda rs, mode: seen.append((len(rs.roles), mode)) or real(rs, mode))
    return seen


def check(capsys, *args) -> int:
    code = main(["check", *map(str, args)])
    capsys.readouterr()
    return code


def test_a_ruleset_checked_again_is_not_compiled_again(capsys, tmp_path, compiles):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    assert check(capsys, path) == 0 and compiles == [(2, "m"), (3, "m")]
    assert check(capsys, path) == 0 and len(compiles) == 2  # the cache's verdict
    assert check(capsys, path, "--set", "players=3") == 0 and len(compiles) == 3  # other parameters: compiled
    path.write_text(RULES.replace("x > 3", "x > 4"))
    assert check(capsys, path) == 0 and len(compiles) == 5  # another text: compiled


def test_a_damaged_or_planted_entry_is_compiled_again(capsys, tmp_path, compiles):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    assert check(capsys, path) == 0
    (entry,) = (tmp_path / "cache" / "checked").iterdir()
    for damaged in (b"", entry.read_bytes()[:20], b"import os\n", entry.read_bytes() + b"more"):
        entry.write_bytes(damaged)
        before = len(compiles)
        assert check(capsys, path) == 0 and len(compiles) == before + 2
        assert entry.read_bytes() == entry.name.encode() + b"\n"  # written whole again


def test_only_what_passed_is_kept(capsys, tmp_path, compiles, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)

    def fails(rs, mode):
        compiles.append((len(rs.roles), mode))
        raise RulesetError([Diagnostic(None, "these rules nest too deeply to compile")])
    monkeypatch.setattr(cli.check, "compiled", fails)
    assert check(capsys, path) == 2 and check(capsys, path) == 2 and len(compiles) == 2
    assert not (tmp_path / "cache" / "checked").exists()


def test_a_changed_rulelang_or_python_is_another_key(tmp_path, monkeypatch):
    from rulelang import load_ruleset
    from rulelang.limits import DEFAULT
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    rs = load_ruleset(str(path))
    key = cli.cache.key(rs, {}, [2, 3], DEFAULT)
    assert key == cli.cache.key(rs, {}, [2, 3], DEFAULT)
    assert key != cli.cache.key(rs, {}, [2, 3], DEFAULT.changed(["nesting=50"]))
    monkeypatch.setattr(cli.cache, "code_version", lambda: "another compiler")
    assert key != cli.cache.key(rs, {}, [2, 3], DEFAULT)
    monkeypatch.undo()
    monkeypatch.setattr(sys, "version", sys.version + " (another)")
    assert key != cli.cache.key(rs, {}, [2, 3], DEFAULT)


def test_the_cache_can_be_turned_off_and_is_bounded(capsys, tmp_path, compiles, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    monkeypatch.setenv("RULELANG_CACHE", "off")
    assert check(capsys, path) == 0 and check(capsys, path) == 0 and len(compiles) == 4
    assert not (tmp_path / "cache").exists()
    monkeypatch.delenv("RULELANG_CACHE")
    monkeypatch.setattr(cli.cache, "MOST_ENTRIES", 4)
    for i in range(7):
        cli.cache.remember(f"{i:064x}")
    assert len(list((tmp_path / "cache" / "checked").iterdir())) <= 4


def test_an_unwritable_cache_is_no_cache(capsys, tmp_path, compiles, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "file"))  # a file where a folder should be
    assert check(capsys, path) == 0 and check(capsys, path) == 0 and len(compiles) == 4
    monkeypatch.setenv("RULELANG_CACHE_DIR", "")
    monkeypatch.delenv("HOME")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(cli.cache.Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError())))
    assert check(capsys, path) == 0 and len(compiles) == 6  # no home: no cache
