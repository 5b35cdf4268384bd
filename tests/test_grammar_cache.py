"""The grammar's parse tables kept in the cache folder (rulelang/syntax.py): read
back, they parse as the tables built from grammar.lark do; a damaged, planted or
foreign entry is no entry (the tables are built again, and written whole); and
nothing is read from the shared temporary folder, where Lark's own cache would
unpickle a file anyone could have planted."""
from __future__ import annotations

import os
import pickle

import pytest

import rulelang.syntax as syntax
from rulelang import disk_cache

SNIPPETS = ["x += 1\nif x > 3:\n    end game\n", "move top of deck to hand of p\n",
            "for c in hand of p:\n    move c to discard\n"]


@pytest.fixture
def tables(monkeypatch, tmp_path):
    """The grammar's folder of this test's own, and how many times the tables were built."""
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path))
    built: list[dict] = []
    real = syntax.Lark

    class Counted(real):  # (Lark.__new__(Lark) of the kept tables is not counted)
        def __init__(self, grammar, **options):
            built.append(options)
            super().__init__(grammar, **options)
    monkeypatch.setattr(syntax, "Lark", Counted)
    syntax.lark.cache_clear()
    yield tmp_path / syntax.TABLES, built
    syntax.lark.cache_clear()  # (the next test's parser is this run's own again)


def parsed(parser) -> list:
    return [parser.parse(s, start="block") for s in SNIPPETS]


def fresh():
    syntax.lark.cache_clear()
    return syntax.lark()


def test_kept_tables_parse_as_built_ones(tables):
    where, built = tables
    first = fresh()
    again = fresh()
    assert len(built) == 1 and "cache" not in built[0]  # built once; Lark's own cache never asked
    assert parsed(again) == parsed(first)
    (entry,) = [p for p in where.iterdir() if not p.name.startswith(".")]
    assert oct(entry.stat().st_mode & 0o777) == "0o600"


def test_a_damaged_planted_or_foreign_entry_is_no_entry(tables):
    where, built = tables
    expected = parsed(fresh())
    (entry,) = [p for p in where.iterdir() if not p.name.startswith(".")]
    whole = entry.read_bytes()
    key = (where / ".key").read_bytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 1
    code = pickle.dumps(os.system)  # a pickle that names a function: refused even under the right key
    for damaged in (b"", whole[:100], bytes(flipped), whole + b"x",
                    disk_cache.seal(b"k" * 32, whole.split(b"\n", 1)[1]), disk_cache.seal(key, code),
                    disk_cache.seal(key, pickle.dumps({"data": {}, "memo": {}}))):
        entry.write_bytes(damaged)
        assert syntax._kept(where, entry.name) is None
    entry.chmod(0o666)  # others could have written it
    assert syntax._kept(where, entry.name) is None
    entry.chmod(0o600)
    before = len(built)
    assert parsed(fresh()) == expected and len(built) == before + 1  # built again
    assert parsed(fresh()) == expected and len(built) == before + 1  # and written whole again


def test_no_cache_folder_is_no_cache(tables, monkeypatch, tmp_path):
    where, built = tables
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "file"))  # a file where a folder should be
    assert parsed(fresh()) and len(built) == 1 and not where.exists()
