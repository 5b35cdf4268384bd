"""Reading back the rows an interrupted run left (`--resume`), trusting nothing.

`resumed` reads them (`read_rows`), checks each against the chain of checks
from what names the run, checks they are this run's first games, and plays
the last again; only then does the run write them back and play on. A rows
file is data from anyone: whatever it holds ends in a `RowsError` naming the
problem, or in the rows — never a row dropped unsaid (only a last line cut
short by a kill is dropped, and its game played again), never a file of
something else taken for ours, and so written over.
"""
from __future__ import annotations

import csv
import json
import os
from typing import Callable, Iterable

from rulelang.files import Unreadable, read_bytes

from .records import (
    CHECK,
    JOURNAL,
    RowsError,
    arrow_schema,
    as_text,
    chained,
    game_named,
    pyarrow_modules,
    suffix,
)

ROW_BYTES = 65_536  # what a rows file may hold per game, to resume it (a row is about 300 bytes)


def read_rows(path: str, fields: Iterable[str] | dict[str, type], games: int, run: str = "") -> list[dict]:
    """The complete rows of a file an earlier run of `games` games wrote (a
    torn last line is dropped), each checked against the chain from `run`
    (what names the run, as RowWriter was given it). A Parquet file's rows
    are those of its journal while it holds any (the run did not finish)."""
    typed, fields = fields, list(fields)
    if suffix(path) == ".parquet" and _journal_holds_rows(path):
        return read_rows(path + JOURNAL, fields, games, run)
    try:
        data = read_bytes(path, (games + 1) * ROW_BYTES, "a rows file of this run")
    except Unreadable as exc:
        raise RowsError(f"cannot resume {path}: {exc}") from None
    rows = _read_parquet(path, data, typed) if suffix(path) == ".parquet" else _read_text(path, data, fields)
    check = run
    for n, values in enumerate(rows, 1):
        check = chained(check, values, fields)
        if values[CHECK] != check:
            raise RowsError(f"{path}: row {n} ({game_named(values)}) is not as this run writes it: "
                            + ("it was written by another run (another ruleset, parameters, mode or agents), "
                               "or changed" if n == 1 else "it was changed, or rows were added, dropped or moved")
                            + " (its check does not match)")
    return rows


def _journal_holds_rows(path: str) -> bool:
    """Whether the journal of FILE.parquet is what to resume: it holds
    something, or there is no Parquet file (a run that wrote nothing yet;
    the resuming run's lock makes an empty journal before it reads)."""
    journal = path + JOURNAL
    return os.path.exists(journal) and (os.path.getsize(journal) > 0 or not os.path.exists(path))


def _read_text(path: str, data: bytes, fields: list[str]) -> list[dict]:
    """The rows of a CSV, JSON Lines or JSON file as RowWriter writes them.
    Only a last line without its line break may be cut short (the run was
    killed while writing it): it is dropped, and its game played again.
    Anything else that is not as written — a line that does not parse, in
    the middle or not, a file that does not start as ours — is refused,
    so no row is dropped unsaid and no file of something else is written over."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RowsError(f"cannot resume {path}: it is not a text file this run writes") from None
    if not text:
        return []  # a run that had written nothing yet
    lines = text.split("\n")
    lines.pop()  # after the last line break: nothing, or a line torn by the kill
    rows = _csv_rows(path, lines, fields) if suffix(path) == ".csv" else _json_rows(path, lines, fields)
    if not rows and not lines:
        raise RowsError(f"cannot resume {path}: it holds no complete line; it is not a rows file this run writes")
    return rows


def _csv_rows(path: str, lines: list[str], fields: list[str]) -> list[dict]:
    rows = []
    for n, line in enumerate(lines, 1):
        try:
            cells = next(csv.reader([line.removesuffix("\r")]), [])
        except csv.Error as exc:  # a stray carriage return, a field longer than the csv module reads
            raise RowsError(f"{path} is damaged at line {n}: {exc}; it cannot be resumed") from None
        if n == 1:
            if cells != fields:
                raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
            continue
        if len(cells) != len(fields):
            raise RowsError(f"{path} is damaged at line {n}: it has {len(cells)} fields, not {len(fields)}; "
                            "it cannot be resumed")
        rows.append(dict(zip(fields, cells)))
    return rows


def _json_rows(path: str, lines: list[str], fields: list[str]) -> list[dict]:
    array = suffix(path) == ".json"
    if array and lines and lines[0] != "[":
        raise RowsError(f"{path} is not a rows file this run writes (it does not start with a line '['); "
                        "it cannot be resumed")
    rows = []
    for n, line in enumerate(lines, 1):
        if array and (n == 1 or line == "]" and n == len(lines)):
            continue
        body = line.removesuffix(",") if array else line
        try:
            values = json.loads(body)
        except RecursionError:
            values = None
        except ValueError:  # not JSON, or a whole number of more digits than Python reads
            values = None
        if not isinstance(values, dict):
            raise RowsError(f"{path} is damaged at line {n}: it is not a row as this run writes it; "
                            "it cannot be resumed")
        if list(values) != fields:
            raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
        rows.append(values)
    return rows


def _read_parquet(path: str, data: bytes, fields: dict[str, type] | list[str]) -> list[dict]:
    pa, pq = pyarrow_modules()
    try:
        table = pq.read_table(pa.BufferReader(data))
    except (OSError, pa.ArrowException) as exc:
        raise RowsError(f"cannot read {path} to resume it: {exc}") from None
    if table.column_names != list(fields):
        raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
    if isinstance(fields, dict):
        wanted = arrow_schema(pa, fields)
        odd = [f.name for f, w in zip(table.schema, wanted) if f.type != w.type]
        if odd:
            raise RowsError(f"{path} has columns of other types than this run writes ({', '.join(odd[:3])}); "
                            "it cannot be resumed")
    return table.to_pylist()


def saved(path: str) -> bool:
    """Whether an earlier run left rows at `path` to resume."""
    return os.path.exists(path) or path.endswith(".parquet") and os.path.exists(path + JOURNAL)


def resumed(path: str, fields: Iterable[str] | dict[str, type], keys: list[str], expected: Iterable[tuple],
            again: Callable[[dict], dict], games: int, run: str) -> list[dict]:
    """The rows an interrupted run of the same command left at `path`,
    checked: each as the run named `run` wrote it (`read_rows`: its chain of
    checks), their `keys` (whole numbers: the seed, the configuration) this
    run's first games, `expected` in order (of `games` at the most), and the
    last row what `again` gives — its game played again — so that rows of
    another ruleset, parameters, mode or agents are refused, the file left
    as it is."""
    rows = read_rows(path, fields, games, run)
    fields = list(fields)
    expected = iter(expected)

    def named(key) -> str:
        return ", ".join(f"{k} {v}" for k, v in zip(keys, key))
    for n, values in enumerate(rows, 1):
        try:
            got = tuple(int(values[k]) for k in keys)
        except (TypeError, ValueError):
            raise RowsError(f"{path} is damaged: its row {n} has no whole number for {' and '.join(keys)}") from None
        wanted = next(expected, None)
        if got != wanted:
            raise RowsError(f"{path} holds games that are not the first games of this run: its row {n} is the "
                            f"game of {named(got)}, where this run's is " +
                            (f"the game of {named(wanted)}" if wanted else "already over"))
    if rows:
        played, last = again(rows[-1]), rows[-1]
        if any(as_text(played.get(f)) != as_text(last.get(f)) for f in fields if f != CHECK):
            raise RowsError(f"{path} was written by another run: the game of "
                            f"{named(tuple(int(last[k]) for k in keys))} now plays differently "
                            "(another ruleset, parameters, mode or agents?)")
    return rows
