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
`outcome_of` turns a row back into the outcome the summary counts (`recorded`
refuses a row that contradicts itself), so a resumed run ends with the same
summary as an uninterrupted one. A Parquet file is unreadable until its
footer is written, so its rows go first to a JSON Lines journal beside it
(FILE.parquet.partial.jsonl), which becomes the Parquet file when the run
ends (`finish`).

A run holds a lock on its file (`flock`; for Parquet, on the journal), so a
second run writing the same file is refused instead of tearing it. The last
column, `check`, chains each row to the ones before it (a hash of the
previous check and the row; the first row's, of what names the run:
ruleset, mode, parameters, agents — of every configuration, in a sweep): a
row edited, dropped or moved afterwards, or rows another run wrote, are
found when the file is resumed, instead of being counted. Anyone can
compute the chain again: it guards against mistakes and edits, not against
a forger who runs this code.
"""
from __future__ import annotations

import csv
import fcntl
import hashlib
import io
import json
import os
import stat
from contextlib import contextmanager
from typing import IO, Callable, Iterable

from rulelang import ir
from rulelang.files import Unreadable, read_bytes
from rulelang.types import BOOL

from .tally import outcome_label

FORMATS = (".csv", ".jsonl", ".json", ".parquet")
JOURNAL = ".partial.jsonl"  # beside a .parquet file while the run goes on
CHECK = "check"
ROW_BYTES = 65_536  # what a rows file may hold per game, to resume it (a row is about 200 bytes)


class RowsError(Exception):
    """A rows file that cannot be resumed (another run's, or damaged)."""


def measure_kinds(mode: ir.Mode) -> dict[str, bool]:
    """The mode's measures: name -> whether it is true/false (else a number)."""
    return {n: m.value.ty == BOOL for n, m in mode.measures.items()}


def columns(roles, measures: dict[str, bool], lead: dict[str, type] | None = None) -> dict[str, type]:
    """The row's fields and the type of each (str, int or bool): the `lead`
    columns first, which tell apart the runs that share a file (`ruleset`
    in compare, the configuration in a sweep), then the game's, and last
    the check."""
    fields = dict(lead or {}) | {"seed": int, "outcome": str, "ended_by": str, "reason": str, "ranked_by": str}
    for r in roles:
        fields.update({f"result_{r}": str, f"place_{r}": int, f"score_{r}": int, f"rating_{r}": str})
    fields.update(rounds=int, decisions=int)
    fields.update({name: bool if is_bool else int for name, is_bool in measures.items()})
    return fields | {"error": str, CHECK: str}


def run_name(ruleset_hash: str, mode: str, params: dict, agents: dict) -> str:
    """What names a run, and starts its chain of checks."""
    return json.dumps([ruleset_hash, mode, params, agents], sort_keys=True)


def as_text(value) -> str:
    """A value as CSV holds it, so rows read from any format compare and chain alike."""
    return "" if value is None else str(value)


def chained(previous: str, values: dict, fields: Iterable[str]) -> str:
    """The check of a row that follows the row whose check is `previous`."""
    text = json.dumps([previous] + [as_text(values.get(f)) for f in fields if f != CHECK])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def row(seed: int, outcome: dict, lead: dict | None = None) -> dict:
    values = dict(lead or {})
    if "error" in outcome:  # an agent failed this game
        return values | {"seed": seed, "outcome": "error", "error": outcome["error"]}
    values.update({"seed": seed, "outcome": outcome_label(outcome), "ended_by": outcome["ended_by"],
                   "reason": outcome["reason"], "ranked_by": outcome.get("ranked_by")})
    for role, result in outcome["results"].items():
        values[f"result_{role}"] = result
        values[f"place_{role}"] = outcome["places"][role]
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
    named = [r for r in roles if results[r] == wanted]  # `win X`: X is one player, or a team
    outcome = {"ended_by": ended_by, "role": (named[0] if len(named) == 1 else named) if wanted else None,
               "reason": text(values["reason"]), "results": results,
               "places": {r: number(values[f"place_{r}"]) for r in roles},
               "scores": {r: number(values[f"score_{r}"]) for r in scored},
               "ratings": {r: values[f"rating_{r}"] for r in roles if text(values.get(f"rating_{r}"))},
               "rounds": number(values["rounds"]), "decisions": number(values["decisions"])}
    if text(values.get("ranked_by")):
        outcome["ranked_by"] = values["ranked_by"]
    if measures:
        outcome["measures"] = {n: None if values.get(n) in (None, "") else
                               (values[n] in (True, "True") if is_bool else int(values[n]))
                               for n, is_bool in measures.items()}
    return outcome


def recorded(values: dict, path: str, roles, scored, measures: dict[str, bool]) -> dict:
    """The outcome a resumed row records (`outcome_of`); a row that says two
    things (its outcome and its results) or holds what no game gives is refused."""
    try:
        outcome = outcome_of(values, roles, scored, measures)
        if "error" in outcome or outcome_label(outcome) == values["outcome"]:
            return outcome
    except (KeyError, TypeError, ValueError):
        pass
    raise RowsError(f"{path}: the row of {_game(values)} is damaged; it cannot be resumed")


def _game(values: dict) -> str:
    """Which game a row is: its seed, and its configuration in a sweep."""
    return ", ".join(f"{key} {as_text(values.get(key))}" for key in ("config", "seed") if key in values)


def _suffix(path: str) -> str:
    suffix = next((f for f in FORMATS if path.endswith(f)), None)
    if suffix is None:
        raise ValueError(f"--out writes {', '.join(FORMATS)} files, not {path}")
    return suffix


def read_rows(path: str, fields: Iterable[str], games: int, run: str = "") -> list[dict]:
    """The complete rows of a file an earlier run of `games` games wrote (a
    torn last line is dropped), each checked against the chain from `run`
    (what names the run, as RowWriter was given it). A Parquet file's rows
    are those of its journal while it holds any (the run did not finish)."""
    fields = list(fields)
    if _suffix(path) == ".parquet" and _journal_holds_rows(path):
        return read_rows(path + JOURNAL, fields, games, run)
    try:
        data = read_bytes(path, (games + 1) * ROW_BYTES, "a rows file of this run")
    except Unreadable as exc:
        raise RowsError(f"cannot resume {path}: {exc}") from None
    rows = _read_parquet(path, data, fields) if _suffix(path) == ".parquet" else _read_text(path, data, fields)
    check = run
    for n, values in enumerate(rows, 1):
        check = chained(check, values, fields)
        if values[CHECK] != check:
            raise RowsError(f"{path}: row {n} ({_game(values)}) is not as this run writes it: "
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
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RowsError(f"cannot resume {path}: {exc}") from None
    lines = text.split("\n")[:-1]  # a last line without its newline was torn by the kill
    if _suffix(path) == ".csv":
        reader = csv.reader(io.StringIO("\n".join(lines) + "\n"))
        if next(reader, None) != fields:
            raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
        return [dict(zip(fields, cells)) for cells in reader if len(cells) == len(fields)]
    rows = []
    for line in lines:
        line = line.strip().rstrip(",")
        if line in ("[", "]", ""):
            continue
        try:
            values = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            break  # torn
        if not isinstance(values, dict) or list(values) != fields:
            raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
        rows.append(values)
    return rows


def _read_parquet(path: str, data: bytes, fields: list[str]) -> list[dict]:
    pa, pq = _pyarrow()
    try:
        table = pq.read_table(pa.BufferReader(data))
    except (OSError, pa.ArrowException) as exc:
        raise RowsError(f"cannot read {path} to resume it: {exc}") from None
    if table.column_names != fields:
        raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
    return table.to_pylist()


def saved(path: str) -> bool:
    """Whether an earlier run left rows at `path` to resume."""
    return os.path.exists(path) or path.endswith(".parquet") and os.path.exists(path + JOURNAL)


def resumed(path: str, fields: Iterable[str], keys: list[str], expected: Iterable[tuple],
            again: Callable[[dict], dict], games: int, run: str) -> list[dict]:
    """The rows an interrupted run of the same command left at `path`,
    checked: each as the run named `run` wrote it (`read_rows`: its chain of
    checks), their `keys` (whole numbers: the seed, the configuration) this
    run's first games, `expected` in order (of `games` at the most), and the
    last row what `again` gives — its game played again — so that rows of
    another ruleset, parameters, mode or agents are refused, the file left
    as it is."""
    fields = list(fields)
    rows = read_rows(path, fields, games, run)
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


@contextmanager
def _named(path: str):
    """An OSError (a full disk) names the file, for the message."""
    try:
        yield
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None


def _lock(path: str) -> int:
    """`path` open for writing, not emptied, and locked for this run."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            return fd
    except (BlockingIOError, FileNotFoundError):
        pass  # held by another run, or replaced by one (a resumed run) while we opened it
    os.close(fd)
    raise RowsError(f"another rulelang run is writing {path}; wait for it to end, or write elsewhere")


def open_rows(path: str, fields: Iterable[str] | dict[str, type], run: str = "") -> "RowWriter | ParquetRows":
    """A writer of rows to `path`, in the format its ending names (ValueError
    if none), its file locked; `start` it once a resumed run has read its rows."""
    if _suffix(path) == ".parquet":
        return ParquetRows(path, fields, run)
    return RowWriter(path, fields, run)


class RowWriter:
    """Writes rows as games finish, into a file it locks at once (so a resumed
    run reads it under the lock); `start` writes the header and the rows of
    the earlier run (from `read_rows`), these into a new file that replaces
    the old one whole."""

    def __init__(self, path: str, fields: Iterable[str], run: str = ""):
        self.kind, self.fields, self.first, self.path, self.check = _suffix(path), list(fields), True, path, run
        self.fd = _lock(path)
        self.file: IO[str] | None = None

    def start(self, rows: list[dict] = ()) -> None:
        with _named(self.path):
            self._start(rows)

    def _start(self, rows: list[dict]) -> None:
        target, fd = (self.path + ".resuming", _lock(self.path + ".resuming")) if rows else (self.path, self.fd)
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.ftruncate(fd, 0)
        self.file = open(fd, "w", encoding="utf-8", newline="", closefd=fd != self.fd)
        if self.kind == ".csv":
            self.csv = csv.DictWriter(self.file, self.fields, extrasaction="ignore")
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
            os.replace(target, self.path)  # the old file stays whole until the new one is

    def write(self, values: dict) -> None:
        with _named(self.path):
            self._write(values)

    def _write(self, values: dict) -> None:
        self.check = chained(self.check, values, self.fields)
        values = dict(values, check=self.check)
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
        if self.file is not None:
            self.file.close()
            self.file = None
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def finish(self) -> None:
        """The run is over."""
        self.close()


class ParquetRows:
    """Rows for FILE.parquet: written to the journal (a RowWriter, which locks
    it) as the games finish, and into the Parquet file, typed, by `finish`
    (written beside it, then renamed over it whole). The same rows make the
    same bytes: the schema comes from the fields' types, not from the values,
    and row groups have a fixed size."""
    GROUP = 65_536  # rows per row group

    def __init__(self, path: str, fields: dict[str, type], run: str = ""):
        self.pa, self.pq = _pyarrow()
        types = {int: self.pa.int64(), str: self.pa.string(), bool: self.pa.bool_()}
        self.path, self.schema = path, self.pa.schema([(name, types[t]) for name, t in fields.items()])
        self.journal = RowWriter(path + JOURNAL, list(fields), run)

    def start(self, rows: list[dict] = ()) -> None:
        self.journal.start(rows)

    def write(self, values: dict) -> None:
        self.journal.write(values)

    def close(self) -> None:
        self.journal.close()

    def finish(self) -> None:
        """The journal becomes the Parquet file; it stays open, and locked, until it is gone."""
        part = self.path + ".writing"
        with _named(self.path):
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
        self.journal.close()


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ValueError("Parquet files need pyarrow, the optional extra `parquet`: pip install 'rulelang[parquet]' "
                         "(from a checkout: pip install '.[parquet]'); or write .csv or .jsonl") from None
    return pyarrow, pyarrow.parquet
