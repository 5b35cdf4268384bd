"""One row per game, written as the games finish (`--out FILE`).

    FILE.csv      a header line, then one line per game
    FILE.jsonl    one JSON object per line
    FILE.json     a JSON array, one game per line
    FILE.parquet  a Parquet table, typed columns (needs pyarrow: the extra `parquet`)

Rows come in seed order and each names its seed. Each row is written with
one write and flushed, and a `.json` array is closed after every row (the
next row overwrites the closing bracket), so a run killed at any moment
leaves a valid file holding every game finished so far. `--resume` reads
those rows back (`resumed`: it drops a torn last line, and checks they are
this run's first games), rewrites them and plays on from the next game;
`outcome_of` turns a row back into the outcome the summary counts, so a
resumed run ends with the same summary as an uninterrupted one. A Parquet
file is unreadable until its footer is written, so its rows go first to a
JSON Lines journal beside it (FILE.parquet.partial.jsonl), which becomes the
Parquet file when the run ends (`finish`).
"""
from __future__ import annotations

import csv
import io
import json
import os
from typing import IO, Callable, Iterable

from rulelang import ir
from rulelang.types import BOOL

from .tally import outcome_label

FORMATS = (".csv", ".jsonl", ".json", ".parquet")
JOURNAL = ".partial.jsonl"  # beside a .parquet file while the run goes on


class RowsError(Exception):
    """A rows file that cannot be resumed (another run's, or damaged)."""


def measure_kinds(mode: ir.Mode) -> dict[str, bool]:
    """The mode's measures: name -> whether it is true/false (else a number)."""
    return {n: m.value.ty == BOOL for n, m in mode.measures.items()}


def columns(roles, measures: dict[str, bool], lead: dict[str, type] | None = None) -> dict[str, type]:
    """The row's fields and the type of each (str, int or bool): the `lead`
    columns first, which tell apart the runs that share a file (`ruleset`
    in compare, the configuration in a sweep), then the game's."""
    fields = dict(lead or {}) | {"seed": int, "outcome": str, "ended_by": str, "reason": str}
    for r in roles:
        fields.update({f"result_{r}": str, f"score_{r}": int, f"rating_{r}": str})
    fields.update(rounds=int, decisions=int)
    fields.update({name: bool if is_bool else int for name, is_bool in measures.items()})
    return fields | {"error": str}


def row(seed: int, outcome: dict, lead: dict | None = None) -> dict:
    values = dict(lead or {})
    if "error" in outcome:  # an agent failed this game
        return values | {"seed": seed, "outcome": "error", "error": outcome["error"]}
    values.update({"seed": seed, "outcome": outcome_label(outcome), "ended_by": outcome["ended_by"],
                   "reason": outcome["reason"]})
    for role, result in outcome["results"].items():
        values[f"result_{role}"] = result
        values[f"score_{role}"] = outcome["scores"].get(role)
        values[f"rating_{role}"] = outcome["ratings"].get(role)
    values.update(rounds=outcome["rounds"], decisions=outcome["decisions"])
    values.update(outcome.get("measures", {}))
    return values


def outcome_of(values: dict, roles, scored, measures: dict[str, bool]) -> dict:
    """The outcome a row was written from (`scored`: the roles with a score;
    `measures`: name -> is true/false). Reads CSV text as well as JSON values."""
    def number(v):
        return None if v in (None, "") else int(v)

    def text(v):
        return None if v in (None, "") else v
    if values.get("outcome") == "error":
        return {"error": values.get("error") or "an agent failed"}
    results = {r: values[f"result_{r}"] for r in roles}
    ended_by = values["ended_by"]
    wanted = {"win": "win", "lose": "lose"}.get(ended_by)
    outcome = {"ended_by": ended_by, "role": next((r for r in roles if results[r] == wanted), None) if wanted else None,
               "reason": text(values["reason"]), "results": results,
               "scores": {r: number(values[f"score_{r}"]) for r in scored},
               "ratings": {r: values[f"rating_{r}"] for r in roles if text(values.get(f"rating_{r}"))},
               "rounds": number(values["rounds"]), "decisions": number(values["decisions"])}
    if measures:
        outcome["measures"] = {n: None if values.get(n) in (None, "") else
                               (values[n] in (True, "True") if is_bool else int(values[n]))
                               for n, is_bool in measures.items()}
    return outcome


def _suffix(path: str) -> str:
    suffix = next((f for f in FORMATS if path.endswith(f)), None)
    if suffix is None:
        raise ValueError(f"--out writes {', '.join(FORMATS)} files, not {path}")
    return suffix


def read_rows(path: str, fields: Iterable[str]) -> list[dict]:
    """The complete rows of a file an earlier run wrote (a torn last line is dropped)."""
    suffix, fields = _suffix(path), list(fields)
    if suffix == ".parquet":
        if os.path.exists(path + JOURNAL):  # the run did not finish
            return read_rows(path + JOURNAL, fields)
        return _read_parquet(path, fields)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise RowsError(f"cannot read {path} to resume it: {exc}") from None
    lines = text.split("\n")[:-1]  # a last line without its newline was torn by the kill
    if suffix == ".csv":
        reader = csv.reader(io.StringIO("\n".join(lines) + "\n"))
        header = next(reader, None)
        if header != fields:
            raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
        return [dict(zip(fields, cells)) for cells in reader if len(cells) == len(fields)]
    rows = []
    for line in lines:
        line = line.strip().rstrip(",")
        if line in ("[", "]", ""):
            continue
        try:
            values = json.loads(line)
        except json.JSONDecodeError:
            break  # torn
        if not isinstance(values, dict) or list(values) != fields:
            raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
        rows.append(values)
    return rows


def saved(path: str) -> bool:
    """Whether an earlier run left rows at `path` to resume."""
    return os.path.exists(path) or path.endswith(".parquet") and os.path.exists(path + JOURNAL)


def resumed(path: str, fields: Iterable[str], keys: list[str], expected: Iterable[tuple],
            again: Callable[[dict], dict]) -> list[dict]:
    """The rows an interrupted run of the same command left at `path`,
    checked: their `keys` (whole numbers: the seed, the configuration) must
    be this run's first games, `expected` in order, and the last row must be
    what `again` gives — its game played again — so that rows of another
    ruleset, parameters, mode or agents are refused, the file left as it is."""
    fields = list(fields)
    rows = read_rows(path, fields)
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
    if rows and _as_text(again(rows[-1]), fields) != _as_text(rows[-1], fields):
        last = tuple(int(rows[-1][k]) for k in keys)
        raise RowsError(f"{path} was written by another run: the game of {named(last)} now plays differently "
                        "(another ruleset, parameters, mode or agents?)")
    return rows


def _as_text(values: dict, fields: list[str]) -> dict:
    """A row as CSV would hold it, to compare rows read from any format."""
    return {f: "" if values.get(f) is None else str(values.get(f)) for f in fields}


def open_rows(path: str, fields: dict[str, type], rows: list[dict] = ()) -> "RowWriter | ParquetRows":
    """A writer of rows to `path`, in the format its ending names (ValueError if none)."""
    if _suffix(path) == ".parquet":
        return ParquetRows(path, fields, rows)
    return RowWriter(path, list(fields), rows)


class RowWriter:
    """Writes rows as games finish; `rows` (from `read_rows`) are written first,
    into a new file that replaces the old one whole (a resumed run)."""

    def __init__(self, path: str, fields: list[str], rows: list[dict] = ()):
        self.kind, self.fields, self.first, self.path = _suffix(path), fields, True, path
        target = path + ".resuming" if rows else path
        self.file: IO[str] = open(target, "w", encoding="utf-8", newline="")
        if self.kind == ".csv":
            self.csv = csv.DictWriter(self.file, fields, extrasaction="ignore")
            self.csv.writeheader()
        elif self.kind == ".json":
            self.file.write("[")
            self.end = self.file.tell()
            self.file.write("\n]\n")
        self.file.flush()
        for values in rows:
            self.write(values)
        if rows:
            self.file.flush()
            os.fsync(self.file.fileno())
            os.replace(target, path)  # the old file stays whole until the new one is

    def write(self, values: dict) -> None:
        if self.kind == ".csv":
            self.csv.writerow({k: "" if v is None else v for k, v in values.items()})
        else:
            text = json.dumps({f: values.get(f) for f in self.fields})
            if self.kind == ".json":  # over the closing bracket, which it writes again
                self.file.seek(self.end)
                text = ("\n" if self.first else ",\n") + text
                self.end += len(text.encode("utf-8"))
                text += "\n]\n"
            else:
                text += "\n"
            self.file.write(text)
        self.first = False
        self.file.flush()

    def close(self) -> None:
        self.file.close()

    def finish(self) -> None:
        """The run is over."""
        self.close()


class ParquetRows:
    """Rows for FILE.parquet: written to the journal as the games finish, and
    into the Parquet file, typed, by `finish` (written beside it, then renamed
    over it whole). The same rows make the same bytes: the schema comes from
    the fields' types, not from the values, and row groups have a fixed size."""
    GROUP = 65_536  # rows per row group

    def __init__(self, path: str, fields: dict[str, type], rows: list[dict] = ()):
        self.pa, self.pq = _pyarrow()
        types = {int: self.pa.int64(), str: self.pa.string(), bool: self.pa.bool_()}
        self.path, self.schema = path, self.pa.schema([(name, types[t]) for name, t in fields.items()])
        self.journal = RowWriter(path + JOURNAL, list(fields), rows)

    def write(self, values: dict) -> None:
        self.journal.write(values)

    def close(self) -> None:
        self.journal.close()

    def finish(self) -> None:
        self.journal.close()
        part = self.path + ".writing"
        with open(self.journal.path, encoding="utf-8") as lines, self.pq.ParquetWriter(part, self.schema) as out:
            group = []
            for line in lines:
                group.append(json.loads(line))
                if len(group) == self.GROUP:
                    out.write_table(self.pa.Table.from_pylist(group, self.schema))
                    group = []
            if group:
                out.write_table(self.pa.Table.from_pylist(group, self.schema))
        os.replace(part, self.path)
        os.remove(self.journal.path)


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ValueError("Parquet files need pyarrow, the optional extra `parquet`: pip install 'rulelang[parquet]' "
                         "(from a checkout: pip install '.[parquet]'); or write .csv or .jsonl") from None
    return pyarrow, pyarrow.parquet


def _read_parquet(path: str, fields: list[str]) -> list[dict]:
    pa, pq = _pyarrow()
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise RowsError(f"cannot read {path} to resume it: {exc}") from None
    if table.column_names != fields:
        raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
    return table.to_pylist()
