"""Start-up: `rulelang --help` imports none of the machinery, and `check`
compiles a ruleset again only when something that can change its verdict has
changed — the text, the parameters, rulelang's own source — keeping what
passed in a cache on disk that a damaged or planted entry cannot fool into
running anything (cli/cache.py)."""
from __future__ import annotations

import json
import os
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
    monkeypatch.setattr(cli.check, "compiled",
                        lambda rs, mode, **kw: seen.append((len(rs.roles), mode)) or real(rs, mode, **kw))
    return seen


def check(capsys, *args) -> int:
    code = main(["check", *map(str, args)])
    capsys.readouterr()
    return code


def said(capsys, *args) -> tuple[int, str, str]:
    code = main(["check", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def entries(tmp_path) -> list:
    return [p for p in (tmp_path / "cache" / "checked").iterdir() if not p.name.startswith(".")]


def test_a_ruleset_checked_again_is_not_compiled_again(capsys, tmp_path, compiles):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    assert check(capsys, path) == 0 and compiles == [(3, "m")]  # read at 2 and 3 players, compiled at 3
    assert check(capsys, path) == 0 and len(compiles) == 1  # the cache's verdict
    assert check(capsys, path, "--set", "players=3") == 0 and len(compiles) == 2  # other parameters: compiled
    path.write_text(RULES.replace("x > 3", "x > 4"))
    assert check(capsys, path) == 0 and len(compiles) == 3  # another text: compiled
    assert check(capsys, path, "--no-cache") == 0 and len(compiles) == 4


def test_a_warm_check_says_what_the_cold_one_said(capsys, tmp_path, compiles):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)  # `x` is printed as "x": a warning, with its place
    for options in ([], ["--texts"], ["--format", "json"], ["--strict-text"]):
        cold = said(capsys, path, "--no-cache", *options)
        assert said(capsys, path, *options) == cold  # cold, and remembered
        before = len(compiles)
        assert said(capsys, path, *options) == cold and len(compiles) == before  # warm
    assert "cached.yaml:3:" in said(capsys, path)[2]  # (the warning, placed, from the cache)


def test_a_changed_base_is_checked_again(capsys, tmp_path, compiles):
    (tmp_path / "base.yaml").write_text(RULES)
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\ngame: variant\n")
    assert check(capsys, variant) == 0 and check(capsys, variant) == 0 and len(compiles) == 1
    (tmp_path / "base.yaml").write_text(RULES.replace("x > 3", "x >"))  # broken: the variant is too
    code, _, err = said(capsys, variant)
    assert code == 2 and "base.yaml:10" in err
    # a name found elsewhere than before (a file beside the variant now has the bundled name it gives)
    variant.write_text("extends: pig-race\ngame: variant\n")
    assert check(capsys, variant) == 0 and check(capsys, variant) == 0 and len(compiles) == 2
    (tmp_path / "pig-race").write_text(RULES.replace("x > 3", "x >"))
    assert check(capsys, variant) == 2


def test_a_damaged_planted_or_copied_entry_is_no_verdict(capsys, tmp_path, compiles):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    assert check(capsys, path) == 0
    (entry,) = entries(tmp_path)
    whole = entry.read_bytes()
    for damaged in (b"", whole[:20], b"import os\n", whole + b"more", b"[]", whole.replace(b'"ok": true', b'"ok": 1'),
                    b"[" * 500_000, whole.replace(b'"mac": "', b'"mac": "\\u00e9')):
        entry.write_bytes(damaged)
        before = len(compiles)
        assert check(capsys, path) == 0 and len(compiles) == before + 1
        assert entry.read_bytes() == whole  # written whole again
    entry.chmod(0o666)  # others could have written it
    assert check(capsys, path) == 0 and len(compiles) == before + 2
    # a broken text with an entry saying it passed: planted with another key, or copied from another cache
    bad = RULES.replace("x > 3", "x >")
    path.write_text(bad)
    asked = cli.cache.Asked(str(path), (), (), (), ())
    planted = json.loads(whole)
    planted["name"] = asked.name(path, bad.encode())
    planted["mac"] = cli.cache._mac(b"k" * 32, planted)
    (entry.parent / planted["name"]).write_text(json.dumps(planted))
    code, _, err = said(capsys, path)
    assert code == 2 and "cached.yaml:10" in err
    (entry.parent / ".key").write_bytes(b"k" * 32)  # the other cache's key copied too: believed (the key is the trust)
    assert check(capsys, path) == 0
    (entry.parent / ".key").chmod(0o664)  # a key others may write is no key: nothing is believed
    code, _, err = said(capsys, path)
    assert code == 2 and "cached.yaml:10" in err


def test_only_what_passed_is_kept(capsys, tmp_path, compiles, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)

    def fails(rs, mode, **kw):
        compiles.append((len(rs.roles), mode))
        raise RulesetError([Diagnostic(None, "these rules nest too deeply to compile")])
    monkeypatch.setattr(cli.check, "compiled", fails)
    assert check(capsys, path) == 2 and check(capsys, path) == 2 and len(compiles) == 2
    assert not (tmp_path / "cache" / "checked").exists()


def test_a_changed_rulelang_or_python_is_another_key(tmp_path, monkeypatch):
    path = tmp_path / "cached.yaml"
    data = RULES.encode()
    asked = cli.cache.Asked(str(path), (), (), (), ())
    key = asked.name(path, data)
    assert key == asked.name(path, data)
    assert key != cli.cache.Asked(str(path), (), ("nesting=50",), (), ()).name(path, data)
    assert key != cli.cache.Asked(str(path), ("players=3",), (), (), ()).name(path, data)
    assert key != asked.name(path, data.replace(b"3", b"4"))
    monkeypatch.setattr(cli.cache, "code_version", lambda: "another compiler")
    assert key != asked.name(path, data)
    monkeypatch.undo()
    monkeypatch.setattr(sys, "version", sys.version + " (another)")
    assert key != asked.name(path, data)


def test_the_cache_can_be_turned_off_and_is_bounded(capsys, tmp_path, compiles, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    monkeypatch.setenv("RULELANG_CACHE", "off")
    assert check(capsys, path) == 0 and check(capsys, path) == 0 and len(compiles) == 2
    assert not (tmp_path / "cache").exists()
    monkeypatch.delenv("RULELANG_CACHE")
    assert check(capsys, path, "--no-cache") == 0 and not (tmp_path / "cache").exists()
    monkeypatch.setattr(cli.cache, "MOST_ENTRIES", 4)
    for i in range(7):
        path.write_text(RULES.replace("x > 3", f"x > {i}"))
        assert check(capsys, path) == 0
    assert len(entries(tmp_path)) <= 4 and (tmp_path / "cache" / "checked" / ".key").exists()


def test_an_unwritable_cache_is_no_cache(capsys, tmp_path, compiles, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "file"))  # a file where a folder should be
    assert check(capsys, path) == 0 and check(capsys, path) == 0 and len(compiles) == 2
    monkeypatch.setenv("RULELANG_CACHE_DIR", "")
    monkeypatch.delenv("HOME")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(cli.cache.Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError())))
    assert check(capsys, path) == 0 and len(compiles) == 3  # no home: no cache


def test_a_warm_check_reads_no_ruleset(tmp_path):
    """Answered from the cache, `check` imports neither the loader nor YAML nor Lark (nor the compiler)."""
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    env = {**os.environ, "RULELANG_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-m", "cli", "check", str(path)], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    code = ("import sys; from cli.main import main; code = main(['check', sys.argv[1]]); "
            "print(sorted(m for m in ('yaml', 'lark', 'rulelang.loader', 'interpreter') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
