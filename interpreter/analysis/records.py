"""One row per game, written as the games finish (`--out FILE`).

    FILE.csv    a header line, then one line per game
    FILE.jsonl  one JSON object per line
    FILE.json   a JSON array, one game per line

Rows come in seed order and each names its seed. Each row is written with
one write and flushed, and a `.json` array is closed after every row (the
next row overwrites the closing bracket), so a run killed at any moment
leaves a valid file holding every game finished so far. `--resume` reads
those rows back (`read_rows`, dropping a torn last line), rewrites them and
plays on from the next seed; `outcome_of` turns a row back into the outcome
the summary counts, so a resumed run ends with the same summary as an
uninterrupted one.

A run holds a lock on its file (`flock`), so a second run writing the same
file is refused instead of tearing it. The last column, `check`, chains
each row to the ones before it (a hash of the previous check and the row;
the first row's, of what names the run: ruleset, mode, parameters, agents):
a row edited, dropped or moved afterwards, or rows another run wrote, are
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
from typing import IO

from rulelang.files import Unreadable, read_bytes

from .tally import outcome_label

FORMATS = (".csv", ".jsonl", ".json")
CHECK = "check"
ROW_BYTES = 65_536  # what a rows file may hold per game, to resume it (a row is about 200 bytes)


class RowsError(Exception):
    """A rows file that cannot be resumed (another run's, or damaged)."""


def columns(roles, measures, entry: bool = False) -> list[str]:
    """The row's fields: `ruleset` first when several rulesets share a file."""
    return (["ruleset"] if entry else []) + ["seed", "outcome", "ended_by", "reason", "ranked_by"] + \
        [f"{what}_{r}" for r in roles for what in ("result", "place", "score", "rating")] + \
        ["rounds", "decisions"] + list(measures) + ["error", CHECK]


def run_name(ruleset_hash: str, mode: str, params: dict, agents: dict) -> str:
    """What names a run, and starts its chain of checks."""
    return json.dumps([ruleset_hash, mode, params, agents], sort_keys=True)


def as_text(value) -> str:
    """A value as CSV holds it, so rows read from any format compare and chain alike."""
    return "" if value is None else str(value)


def chained(previous: str, values: dict, fields: list[str]) -> str:
    """The check of a row that follows the row whose check is `previous`."""
    text = json.dumps([previous] + [as_text(values.get(f)) for f in fields if f != CHECK])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def row(seed: int, outcome: dict, entry: str | None = None) -> dict:
    values = {"ruleset": entry} if entry is not None else {}
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


def _suffix(path: str) -> str:
    suffix = next((f for f in FORMATS if path.endswith(f)), None)
    if suffix is None:
        raise ValueError(f"--out writes {', '.join(FORMATS)} files, not {path}")
    return suffix


def read_rows(path: str, fields: list[str], games: int, run: str = "") -> list[dict]:
    """The complete rows of a file an earlier run of `games` games wrote (a
    torn last line is dropped), each checked against the chain from `run`
    (what names the run, as RowWriter was given it)."""
    try:
        text = read_bytes(path, (games + 1) * ROW_BYTES, "a rows file of this run").decode("utf-8")
    except (Unreadable, UnicodeDecodeError) as exc:
        raise RowsError(f"cannot resume {path}: {exc}") from None
    lines = text.split("\n")[:-1]  # a last line without its newline was torn by the kill
    if _suffix(path) == ".csv":
        reader = csv.reader(io.StringIO("\n".join(lines) + "\n"))
        if next(reader, None) != fields:
            raise RowsError(f"{path} has other columns than this run writes; it was written by another run")
        rows = [dict(zip(fields, cells)) for cells in reader if len(cells) == len(fields)]
    else:
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
    check = run
    for n, values in enumerate(rows, 1):
        check = chained(check, values, fields)
        if values[CHECK] != check:
            raise RowsError(f"{path}: row {n} (seed {as_text(values.get('seed'))}) is not as this run writes it: "
                            + ("it was written by another run (another ruleset, parameters, mode or agents), "
                               "or changed" if n == 1 else "it was changed, or rows were added, dropped or moved")
                            + " (its check does not match)")
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


class RowWriter:
    """Writes rows as games finish, into a file it locks at once (so a resumed
    run reads it under the lock); `start` writes the header and the rows of
    the earlier run (from `read_rows`), these into a new file that replaces
    the old one whole."""

    def __init__(self, path: str, fields: list[str], run: str = ""):
        self.kind, self.fields, self.first, self.path, self.check = _suffix(path), fields, True, path, run
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
        os.close(self.fd)
