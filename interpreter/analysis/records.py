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
"""
from __future__ import annotations

import csv
import io
import json
import os
from typing import IO

from .tally import outcome_label

FORMATS = (".csv", ".jsonl", ".json")


class RowsError(Exception):
    """A rows file that cannot be resumed (another run's, or damaged)."""


def columns(roles, measures, entry: bool = False) -> list[str]:
    """The row's fields: `ruleset` first when several rulesets share a file."""
    return (["ruleset"] if entry else []) + ["seed", "outcome", "ended_by", "reason"] + \
        [f"{what}_{r}" for r in roles for what in ("result", "score", "rating")] + \
        ["rounds", "decisions"] + list(measures) + ["error"]


def row(seed: int, outcome: dict, entry: str | None = None) -> dict:
    values = {"ruleset": entry} if entry is not None else {}
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


def read_rows(path: str, fields: list[str]) -> list[dict]:
    """The complete rows of a file an earlier run wrote (a torn last line is dropped)."""
    suffix = _suffix(path)
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
