"""One row per game, written as the games finish (`--out FILE`).

    FILE.csv      a header line, then one line per game
    FILE.jsonl    one JSON object per line
    FILE.json     a JSON array, one game per line
    FILE.parquet  a Parquet table, typed columns (needs pyarrow: the extra `parquet`)

Rows come in seed order and each names its seed and what played it (its
provenance: rulelang's version, the ruleset, its hash, the mode, the
parameters, the agents). Each row is written with one write and flushed,
and a `.json` array is closed after every row (the next row overwrites the
closing bracket), so a run killed at any moment leaves a valid file holding
every game finished so far. `--resume` reads those rows back (resume.py),
rewrites them and plays on from the next game; `outcome_of` turns a row back
into the outcome the summary counts (`recorded` refuses a row that
contradicts itself), so a resumed run ends with the same summary as an
uninterrupted one. A Parquet file is unreadable until its
footer is written, so its rows go first to a JSON Lines journal beside it
(FILE.parquet.partial.jsonl), which becomes the Parquet file when the run
ends (`finish`).

A run holds a lock on its file (locks.py; for Parquet, on the journal), so a
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
import hashlib
import json
import os
import stat
from contextlib import contextmanager
from typing import IO, Iterable

from rulelang import ir, version
from rulelang.types import BOOL, INT

from .locks import LockHeld, locked, release
from .tally import outcome_label

FORMATS = (".csv", ".jsonl", ".json", ".parquet")
JOURNAL = ".partial.jsonl"  # beside a .parquet file while the run goes on
CHECK = "check"
MEASURE, PARAM = "measure_", "param_"  # the columns of a ruleset's measures and parameters


class RowsError(Exception):
    """A rows file that cannot be resumed (another run's, or damaged)."""


def measure_kinds(mode: ir.Mode) -> dict[str, bool]:
    """The mode's measures: name -> whether it is true/false (else a number)."""
    return {n: m.value.ty == BOOL for n, m in mode.measures.items()}


def columns(roles, measures: dict[str, bool], lead: dict[str, type] | None = None) -> dict[str, type]:
    """The row's fields and the type of each (str, int or bool): the `lead`
    columns first, which say what played the game (`provenance_fields`, and
    the configuration in a sweep), then the game's, and last the check.
    What a ruleset names is namespaced — `result_ROLE`, `measure_NAME`,
    `param_NAME`, `agent_ROLE` — so no name of it can be a column of ours."""
    fields = dict(lead or {}) | {"seed": int, "outcome": str, "ended_by": str, "reason": str, "ranked_by": str}
    for r in roles:
        fields.update({f"result_{r}": str, f"place_{r}": int, f"score_{r}": int, f"rating_{r}": str})
    fields.update(rounds=int, decisions=int)
    fields.update({MEASURE + name: bool if is_bool else int for name, is_bool in measures.items()})
    return fields | {"error": str, CHECK: str}


def provenance_fields(params: dict[str, type], roles) -> dict[str, type]:
    """The columns that say what played a game: rulelang's version, the ruleset (as
    named, and the hash of its text), the mode, each parameter and each role's agent."""
    return ({"rulelang": str, "ruleset": str, "ruleset_hash": str, "mode": str}
            | {PARAM + p: t for p, t in params.items()} | {f"agent_{r}": str for r in roles})


def provenance(label: str, ruleset: ir.Ruleset, mode: str, agents: dict[str, str]) -> dict:
    """A run's values of `provenance_fields`."""
    return ({"rulelang": version(), "ruleset": label, "ruleset_hash": ruleset.source_hash, "mode": mode}
            | {PARAM + p: v for p, v in ruleset.param_values.items()} | {f"agent_{r}": k for r, k in agents.items()})


def param_types(rulesets) -> dict[str, type]:
    """Each parameter the rulesets declare, and the type of its values in a row."""
    return {name: bool if p.type == BOOL else int if p.type == INT else str
            for rs in rulesets for name, p in rs.params.items()}


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
    values.update({MEASURE + n: v for n, v in outcome.get("measures", {}).items()})
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
        kept = {n: values.get(MEASURE + n) for n in measures}
        outcome["measures"] = {n: None if kept[n] in (None, "") else
                               (kept[n] in (True, "True") if is_bool else int(kept[n]))
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
    raise RowsError(f"{path}: the row of {game_named(values)} is damaged; it cannot be resumed")


def game_named(values: dict) -> str:
    """Which game a row is: its seed, and its configuration in a sweep."""
    def shown(value) -> str:  # a file may hold anything: a seed of 5,000 digits is not quoted whole
        text = as_text(value)
        return text if len(text) <= 24 else text[:20] + "..."
    return ", ".join(f"{key} {shown(values.get(key))}" for key in ("config", "seed") if key in values)


def suffix(path: str) -> str:
    suffix = next((f for f in FORMATS if path.endswith(f)), None)
    if suffix is None:
        raise ValueError(f"--out writes {', '.join(FORMATS)} files, not {path}")
    return suffix


def arrow_schema(pa, fields: dict[str, type]):
    types = {int: pa.int64(), str: pa.string(), bool: pa.bool_()}
    return pa.schema([(name, types[t]) for name, t in fields.items()])


@contextmanager
def _named(path: str):
    """An OSError (a full disk) names the file, for the message."""
    try:
        yield
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None


def _lock(path: str) -> int:
    """`path` open for writing, not emptied, and locked for this run (locks.py)."""
    try:
        return locked(path)
    except LockHeld:
        raise RowsError(f"another rulelang run is writing {path}; wait for it to end, or write elsewhere") from None


def open_rows(path: str, fields: Iterable[str] | dict[str, type], run: str = "",
              about: dict | None = None) -> "RowWriter | ParquetRows":
    """A writer of rows to `path`, in the format its ending names (ValueError
    if none), its file locked; `start` it once a resumed run has read its rows.
    `about` (what made the rows: the command's runs, rulelang's version) goes
    into a Parquet file's metadata, under the key `rulelang`, as JSON."""
    if suffix(path) == ".parquet":
        return ParquetRows(path, fields, run, about)
    return RowWriter(path, fields, run)


class RowWriter:
    """Writes rows as games finish, into a file it locks at once (so a resumed
    run reads it under the lock); `start` writes the header and the rows of
    the earlier run (from `read_rows`), these into a new file that replaces
    the old one whole."""

    def __init__(self, path: str, fields: Iterable[str], run: str = ""):
        self.kind, self.fields, self.first, self.path, self.check = suffix(path), list(fields), True, path, run
        self.fds = [_lock(path)]  # locked: the file, and the new file a resumed run writes
        self.file: IO[str] | None = None

    def start(self, rows: list[dict] = ()) -> None:
        with _named(self.path):
            self._start(rows)

    def _start(self, rows: list[dict]) -> None:
        target = self.path + ".resuming" if rows else self.path
        if rows:
            self.fds.append(_lock(target))
        fd = self.fds[-1]
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.ftruncate(fd, 0)
        self.file = open(fd, "w", encoding="utf-8", newline="", closefd=False)  # the locks are closed by close()
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
        try:
            if self.file is not None:
                self.file, file = None, self.file
                file.close()
        finally:
            while self.fds:
                release(self.fds.pop())

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

    def __init__(self, path: str, fields: dict[str, type], run: str = "", about: dict | None = None):
        self.pa, self.pq = pyarrow_modules()
        self.path, self.schema = path, arrow_schema(self.pa, fields)
        if about is not None:
            self.schema = self.schema.with_metadata({"rulelang": json.dumps(about, sort_keys=True)})
        self.journal = RowWriter(path + JOURNAL, list(fields), run)

    def start(self, rows: list[dict] = ()) -> None:
        self.journal.start(rows)

    def write(self, values: dict) -> None:
        self.journal.write(values)

    def close(self) -> None:
        """Stopped early: the journal stays for --resume, unless it holds nothing (the lock made it)."""
        try:
            if self.journal.fds and os.path.exists(self.path) and os.path.getsize(self.journal.path) == 0:
                os.remove(self.journal.path)
        except OSError:
            pass  # gone already: nothing to tidy
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


def pyarrow_modules():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ValueError("Parquet files need pyarrow, the optional extra `parquet`: pip install 'rulelang[parquet]' "
                         "(from a checkout: pip install '.[parquet]'); or write .csv or .jsonl") from None
    return pyarrow, pyarrow.parquet
