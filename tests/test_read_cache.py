"""The cache of rulesets read (cli/read_cache.py): a command given a text it has
read before gets the same IR back without reading it, plays the same games
with it, and is never fooled — a stale, damaged, planted or foreign entry is
no entry, an unwritable cache is no cache — and never crashes on one."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import pytest
from helpers import ROOT

import cli.cache
import cli.read_cache as read_cache
import rulelang.loader
from cli.main import main
from interpreter.engine.game import Game
from rulelang import RulesetError, disk_cache
from rulelang.limits import DEFAULT

RULES = """\
game: cached
players: {count: 2..3}
vars: {x: {initial: 0}, r: {initial: 0}}
params: {goal: {default: 3, min: 1, max: 9}}
modes:
  m:
    round:
      - step: Play
        do: |
          roll d6 into r
          x += r
          if x > goal * 3:
            end game
"""


@pytest.fixture
def reads(monkeypatch, tmp_path):
    """The rulesets read from their text (not from the cache), in a cache folder of this test's own."""
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    seen: list[str] = []
    real = rulelang.loader.read_ruleset
    monkeypatch.setattr(rulelang.loader, "read_ruleset",
                        lambda tree, params=None, limits=DEFAULT: seen.append(tree.sources[-1].name) or
                        real(tree, params, limits))
    return seen


def load(path, params=None, limits=DEFAULT, dirs=()):
    return read_cache.load(str(path), params or {}, limits, dirs)


def entries(tmp_path) -> list:
    return [p for p in (tmp_path / "cache" / "read").iterdir() if not p.name.startswith(".")]


def games(ruleset) -> list:
    """The outcomes of a few games, each decision answered by the seed."""
    game, found = Game(ruleset), []
    for seed in range(20):
        st = game.new_state(seed=seed)
        while not game.is_terminal(st):
            game.apply(st, seed % len(game.legal_actions(st)))
        found.append(game.outcome(st))
    return found


def test_a_ruleset_read_again_is_not_read_again(tmp_path, reads):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    first = load(path)
    again = load(path)
    assert reads == [str(path)] and again == first and again is not first
    assert games(again) == games(first)
    assert load(path, {"goal": "4"}).param_values["goal"] == 4 and len(reads) == 2  # other parameters
    assert load(path, limits=DEFAULT.changed(["nesting=50"])) == first and len(reads) == 3  # other limits
    path.write_text(RULES.replace("goal * 3", "goal * 2"))
    assert load(path) != first and len(reads) == 4  # another text
    assert load(path) != first and len(reads) == 4


def test_another_rulelang_or_python_is_another_entry(tmp_path, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    name = read_cache._asked(str(path), {}, DEFAULT, ())[2]
    assert name == read_cache._asked(str(path), {}, DEFAULT, ())[2]
    assert name != read_cache._asked(str(path), {}, DEFAULT, (str(tmp_path),))[2]  # --extends-dir
    monkeypatch.setattr(cli.cache, "code_version", lambda: "another compiler")
    assert name != read_cache._asked(str(path), {}, DEFAULT, ())[2]
    monkeypatch.undo()
    monkeypatch.setattr(sys, "version", sys.version + " (another)")
    assert name != read_cache._asked(str(path), {}, DEFAULT, ())[2]


def test_a_bundled_ruleset_plays_the_same_games_from_the_cache(reads):
    fresh = load("twenty-trials")
    cached = load("twenty-trials")
    assert len(reads) == 1 and cached == fresh
    assert games(cached) == games(fresh)


def test_a_changed_base_is_read_again(tmp_path, reads):
    (tmp_path / "base.yaml").write_text(RULES)
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\ngame: variant\n")
    assert load(variant) == load(variant) and len(reads) == 1
    (tmp_path / "base.yaml").write_text(RULES.replace("goal * 3", "goal *"))  # broken: the variant is too
    with pytest.raises(RulesetError) as broken:
        load(variant)
    assert "base.yaml:12" in broken.value.format()


def test_a_damaged_planted_or_foreign_entry_is_no_entry(tmp_path, reads):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    expected = load(path)
    (entry,) = entries(tmp_path)
    whole = entry.read_bytes()
    mac, _, signed = whole.partition(b"\n")
    flipped = bytearray(whole)
    flipped[-10] ^= 1
    for damaged in (b"", whole[:20], whole[:-1], b"\n\n", bytes(flipped), whole + b"more", mac + b"\n",
                    b"cos\nsystem\n(S'touch planted'\ntR."):
        entry.write_bytes(damaged)
        before = len(reads)
        assert load(path) == expected and len(reads) == before + 1
        assert entry.read_bytes() == whole  # written whole again
    entry.chmod(0o666)  # others could have written it
    assert load(path) == expected and len(reads) == before + 2
    # planted: code in a pickle, under the cache's own key (which only its owner can read) and under another
    key = (tmp_path / "cache" / "read" / ".key").read_bytes()
    head, _, _ = signed.partition(b"\n")
    evil = head + b"\n" + pickle.dumps(os.system, protocol=4)
    for signer in (key, b"k" * 32):
        entry.write_bytes(disk_cache.seal(signer, evil))
        entry.chmod(0o600)
        assert load(path) == expected and len(reads) == before + 3 + (signer != key)
    # a broken text with an entry of a good one planted under its name: the text is read, and refused
    bad = RULES.replace("goal * 3", "goal *")
    path.write_text(bad)
    name = read_cache._asked(str(path), {}, DEFAULT, ())[2]
    (entry.parent / name).write_bytes(whole)
    with pytest.raises(RulesetError) as broken:
        load(path)
    assert "cached.yaml:12" in broken.value.format()  # errors placed as ever


def test_an_entry_of_records_only(tmp_path, reads):
    """Even under the right key, an entry holds the IR's records and nothing else."""
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    load(path)
    (entry,) = entries(tmp_path)
    key = (tmp_path / "cache" / "read" / ".key").read_bytes()
    head = entry.read_bytes().split(b"\n")[1]
    for payload in (pickle.dumps(os.getcwd), pickle.dumps({"not": "a ruleset"}), pickle.dumps(json.JSONDecoder)):
        signed = head + b"\n" + payload
        entry.write_bytes(disk_cache.seal(key, signed))
        before = len(reads)
        assert load(path).name == "cached" and len(reads) == before + 1


def test_an_unwritable_or_turned_off_cache_is_no_cache(tmp_path, reads, monkeypatch):
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "file"))  # a file where a folder should be
    assert load(path) == load(path) and len(reads) == 2
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RULELANG_CACHE", "off")
    assert load(path) == load(path) and len(reads) == 4 and not (tmp_path / "cache").exists()
    monkeypatch.delenv("RULELANG_CACHE")
    monkeypatch.setattr(cli.cache, "code_version", lambda: None)  # its own source unreadable: nothing trusted
    assert load(path) == load(path) and len(reads) == 6 and not (tmp_path / "cache").exists()


def test_the_cache_is_bounded(tmp_path, reads, monkeypatch):
    path = tmp_path / "cached.yaml"
    monkeypatch.setattr(read_cache, "MOST_ENTRIES", 4)
    for i in range(7):
        path.write_text(RULES.replace("goal * 3", f"goal * {i}"))
        load(path)
    assert len(entries(tmp_path)) <= 4
    monkeypatch.setattr(read_cache, "MOST_BYTES", 100)  # an entry too big is not written
    path.write_text(RULES.replace("goal * 3", "goal * 9"))
    load(path)
    assert len(entries(tmp_path)) <= 4 and load(path) and len(reads) == 9


def test_a_warm_command_reads_no_text(tmp_path, reads, capsys):
    """Filled by one command, the cache answers the next: `simulate` imports neither YAML nor
    Lark nor the loader; and an error is placed at its file, line and column as ever."""
    path = tmp_path / "cached.yaml"
    path.write_text(RULES)
    assert main(["run", str(path)]) == 0 and len(reads) == 1
    code = ("import sys; from cli.main import main; code = main(['simulate', sys.argv[1], '--games', '3', "
            "'--jobs', '1']); print(sorted(m for m in ('yaml', 'lark', 'rulelang.loader') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True,
                          check=True, env={**os.environ, "RULELANG_CACHE_DIR": str(tmp_path / "cache")})
    assert done.stdout.splitlines()[-1] == "[]"
    path.write_text(RULES.replace("goal * 3", "goal *"))
    assert main(["run", str(path)]) == 2
    assert "cached.yaml:12" in capsys.readouterr().err


def test_the_code_version_changes_with_any_source_file_and_only_with_one(tmp_path):
    """Every entry's name holds `code_version`: a source file added, grown or written again names
    other entries; what is not source (bytecode, notes) does not; a package that cannot be read, none."""
    for name in ("rulelang/ir/a.py", "rulelang/grammar.lark", "interpreter/b.py", "cli/c.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    first = disk_cache.source_version(str(tmp_path))
    assert first is not None and disk_cache.source_version(str(tmp_path)) == first
    (tmp_path / "rulelang/ir/__pycache__").mkdir()
    (tmp_path / "rulelang/ir/__pycache__/a.py").write_text("")
    (tmp_path / "cli/notes.txt").write_text("")
    assert disk_cache.source_version(str(tmp_path)) == first
    versions = {first}
    for change in (lambda: (tmp_path / "rulelang/ir/a.py").write_text("x = 22\n"),
                   lambda: os.utime(tmp_path / "rulelang/grammar.lark", ns=(1, 10**18)),
                   lambda: (tmp_path / "interpreter/new.py").write_text("x = 1\n")):
        change()
        versions.add(disk_cache.source_version(str(tmp_path)))
    assert len(versions) == 4
    (tmp_path / "cli").rename(tmp_path / "elsewhere")
    assert disk_cache.source_version(str(tmp_path)) is None
