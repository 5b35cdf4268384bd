"""The cache of compiled modes (interpreter/engine/compiled_cache.py): a game of a
ruleset compiled before gets its compiled rules back without the compiler, plays
the same games with them, and is never fooled — a stale, damaged, planted or
world-writable entry is no entry — and `check` and `simulate` share it."""
from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys

import pytest
from helpers import ROOT

import interpreter.compiler.rules
from cli.main import main
from interpreter.compiler import tuning
from interpreter.engine import compiled_cache
from interpreter.engine.game import Game
from rulelang import disk_cache, load_ruleset
from rulelang.params import apply_params

RULES = """\
game: compiled
players: {count: 2..3}
vars: {x: {initial: 0}, r: {initial: 0}}
params: {goal: {default: 3, min: 1, max: 9}}
cards:
  token:
    fields: {value: 1..2}
    table: |
      value
      1
      2
      2
zones:
  pile: {facing: down}
  hand: {owner: each, seen_by: owner, kind: hand}
setup: |
  move box to pile
  shuffle pile
modes:
  m:
    watch:
      - when: x > 40
        do: |
          end game
    round:
      - step: Play
        do: |
          for p in players:
            if size(pile) > 0:
              move top(pile) to hand of p
            if size(hand of p) > 0:
              p chooses c in hand of p as play labelled "play {c.value}":
                x += c.value
                move c to pile
            roll d6 into r
            x += r
          if x > goal * 3:
            end game
"""


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """The modes compiled (not found in the cache), in a cache folder of this test's own."""
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    seen: list[str] = []
    real = interpreter.compiler.rules.compile_rules
    monkeypatch.setattr(interpreter.compiler.rules, "compile_rules",
                        lambda rs, mode, *a: seen.append(mode.name) or real(rs, mode, *a))
    return seen


def ruleset(tmp_path, text=RULES, params=None):
    path = tmp_path / "compiled.yaml"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return load_ruleset(str(path), params or {})


def entries(tmp_path) -> list:
    folder = tmp_path / "cache" / "compiled"
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def games(game: Game, seeds=range(6)) -> list:
    """Random games played by the public API: their decisions and outcomes."""
    played = []
    for seed in seeds:
        pick, st, answers = random.Random(seed), game.new_state(seed), []
        while not game.is_terminal(st):
            answers.append(pick.randrange(len(game.legal_actions(st))))
            game.apply(st, answers[-1])
        played.append((answers, game.outcome(st)))
    return played


def test_a_hit_plays_the_same_games_without_compiling(tmp_path, compiles):
    rs = ruleset(tmp_path)
    missed = Game(rs, cached=True)
    hit = Game(ruleset(tmp_path), cached=True)  # (read again: another IR, the same text)
    assert compiles == ["m"] and len(entries(tmp_path)) == 1
    assert games(hit) == games(missed) == games(Game(rs))
    assert [u.text().split("\n", 1)[1] for u in hit.rules.units] == \
        [u.text().split("\n", 1)[1] for u in missed.rules.units]  # `show --python` says the same
    assert {u.name for u in hit.rules.units}.isdisjoint(u.name for u in missed.rules.units)  # (tracebacks' notes)
    assert hit.rules.program == missed.rules.program  # read only when asked for
    assert hit.rules.sites == missed.rules.sites and hit.possible == missed.possible


def test_a_hit_imports_none_of_the_compiler(tmp_path, compiles):
    Game(ruleset(tmp_path), cached=True)  # (compiled here, found there)
    code = ("import sys; from rulelang import load_ruleset; from interpreter.engine.game import Game; "
            f"Game(load_ruleset({str(tmp_path / 'compiled.yaml')!r}, {{}}), cached=True); "
            "print(sorted(m for m in sys.modules if m.startswith('interpreter.compiler.')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "RULELANG_CACHE_DIR": str(tmp_path / "cache")})
    # what generated code and the engine share (compiled.py, the prelude), never a pass or the code generator
    assert done.stdout.split() == ["['interpreter.compiler.compiled',", "'interpreter.compiler.notes',",
                                   "'interpreter.compiler.options',", "'interpreter.compiler.prelude',",
                                   "'interpreter.compiler.tuning']"]


def test_what_the_code_depends_on_names_another_entry(tmp_path, compiles, monkeypatch):
    Game(ruleset(tmp_path), cached=True)
    Game(ruleset(tmp_path, RULES.replace("goal * 3", "goal * 4")), cached=True)  # the text edited
    Game(ruleset(tmp_path, RULES, {"goal": "5"}), cached=True)  # another parameter
    Game(ruleset(tmp_path), cached=True, step_limit=5000)  # another step limit
    Game(ruleset(tmp_path), cached=True, optimize=False)  # other passes
    Game(ruleset(tmp_path), cached=True, explicit_chance=True)
    monkeypatch.setattr(tuning, "INLINE_BUDGET", 0)  # the compiler tuned otherwise
    Game(ruleset(tmp_path), cached=True)
    monkeypatch.undo()
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(disk_cache, "code_version", lambda: "another compiler")  # rulelang's source changed
    Game(ruleset(tmp_path), cached=True)
    assert len(entries(tmp_path)) == 8


def test_only_a_ruleset_read_as_it_is_and_a_game_not_watched_is_kept(tmp_path, compiles):
    rs = ruleset(tmp_path)
    assert rs.digest
    changed = dataclasses.replace(rs, title="Another")  # changed in Python: not what the text says
    assert not changed.digest
    Game(changed, cached=True)
    Game(rs, cached=True, check_invariants=True)  # its effects watched: compiled with the watcher
    Game(rs)  # (a Game by default: compiled, as tests and tools that tune the compiler need)
    assert entries(tmp_path) == [] and compiles == ["m", "m", "m"]


def test_a_sweeps_configuration_is_named_by_its_values(tmp_path, compiles):
    rs = ruleset(tmp_path)
    five, again, six = apply_params(rs, {"goal": "5"}), apply_params(rs, {"goal": "5"}), apply_params(rs, {"goal": 6})
    assert five.digest == again.digest and len({rs.digest, five.digest, six.digest}) == 3
    assert games(Game(five, cached=True), range(4)) == games(Game(again, cached=True), range(4)) != \
        games(Game(six, cached=True), range(4))
    assert compiles == ["m", "m"]


@pytest.mark.parametrize("damage", ["flipped", "truncated", "planted", "world-writable", "emptied"])
def test_a_damaged_entry_is_no_entry(tmp_path, compiles, damage):
    rs = ruleset(tmp_path)
    expected = games(Game(rs, cached=True), range(4))
    (entry,) = entries(tmp_path)
    data = entry.read_bytes()
    if damage == "flipped":  # a byte of the code changed: the HMAC says no
        entry.write_bytes(data[:-100] + bytes([data[-100] ^ 1]) + data[-99:])
    elif damage == "truncated":
        entry.write_bytes(data[:len(data) // 2])
    elif damage == "planted":  # signed with another key: what someone without this user's key wrote
        (tmp_path / "cache" / "compiled" / ".key").write_bytes(os.urandom(32))
    elif damage == "world-writable":
        os.chmod(entry, 0o666)
    else:
        entry.write_bytes(b"")
    assert games(Game(rs, cached=True), range(4)) == expected and compiles == ["m", "m"]
    if damage != "world-writable":  # (written again, whole; a file someone else may write is left alone)
        Game(rs, cached=True)
        assert compiles == ["m", "m"]


def test_the_cache_turned_off_is_neither_read_nor_written(tmp_path, compiles, monkeypatch):
    monkeypatch.setenv("RULELANG_CACHE", "off")
    rs = ruleset(tmp_path)
    Game(rs, cached=True)
    Game(rs, cached=True)
    assert compiles == ["m", "m"] and not (tmp_path / "cache").exists()


def test_check_and_simulate_share_compiled_modes_and_no_cache_uses_none(tmp_path, compiles, capsys):
    path = tmp_path / "solo.yaml"
    path.write_text(RULES.replace("players: {count: 2..3}", "roles: [a, b]"))
    assert main(["check", "--no-cache", str(path)]) == 0 and compiles == ["m"] and entries(tmp_path) == []
    assert main(["check", str(path)]) == 0 and compiles == ["m", "m"] and len(entries(tmp_path)) == 1
    assert main(["simulate", str(path), "--games", "3", "--jobs", "1"]) == 0
    assert compiles == ["m", "m"]  # the mode check compiled
    capsys.readouterr()


def test_a_signed_entry_builds_records_only(tmp_path, compiles):
    rs = ruleset(tmp_path)
    Game(rs, cached=True)
    (entry,) = entries(tmp_path)
    marker = tmp_path / "ran"
    evil = b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR."  # a pickle that calls os.system
    disk_cache.keep_headed(entry.parent, entry.name, compiled_cache.FORMAT, {}, evil, compiled_cache.MOST_BYTES, 10)
    Game(rs, cached=True)  # signed with this cache's key, yet no record: compiled again, nothing run
    assert compiles == ["m", "m"] and not marker.exists()
