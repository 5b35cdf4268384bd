"""One row per game, written as the games finish (`--out FILE`).

    FILE.csv    a header line, then one line per game
    FILE.jsonl  one JSON object per line
    FILE.json   a JSON array, one game per line

Rows come in seed order and each names its seed; every format is written a
line at a time and flushed as it goes, so an interrupted run leaves every
finished game readable, and a later run can pick up after the last seed.
"""
from __future__ import annotations

import csv
import json
from typing import IO

from .summary import outcome_label

FORMATS = (".csv", ".jsonl", ".json")


def columns(roles, measures, entry: bool = False) -> list[str]:
    """The row's fields: `ruleset` first when several rulesets share a file."""
    return (["ruleset"] if entry else []) + ["seed", "outcome", "ended_by", "reason"] + \
        [f"{what}_{r}" for r in roles for what in ("result", "score", "rating")] + \
        ["rounds", "decisions"] + list(measures)


def row(seed: int, outcome: dict, entry: str | None = None) -> dict:
    values = {"ruleset": entry} if entry is not None else {}
    values.update({"seed": seed, "outcome": outcome_label(outcome), "ended_by": outcome["ended_by"],
                   "reason": outcome["reason"]})
    for role, result in outcome["results"].items():
        values[f"result_{role}"] = result
        values[f"score_{role}"] = outcome["scores"].get(role)
        values[f"rating_{role}"] = outcome["ratings"].get(role)
    values.update(rounds=outcome["rounds"], decisions=outcome["decisions"])
    values.update(outcome.get("measures", {}))
    return values


class RowWriter:
    def __init__(self, path: str, fields: list[str]):
        suffix = next((f for f in FORMATS if path.endswith(f)), None)
        if suffix is None:
            raise ValueError(f"--out writes {', '.join(FORMATS)} files, not {path}")
        self.kind, self.fields, self.first = suffix, fields, True
        self.file: IO[str] = open(path, "w", encoding="utf-8", newline="")
        if suffix == ".csv":
            self.csv = csv.DictWriter(self.file, fields, extrasaction="ignore")
            self.csv.writeheader()
        elif suffix == ".json":
            self.file.write("[")

    def write(self, values: dict) -> None:
        if self.kind == ".csv":
            self.csv.writerow({k: "" if v is None else v for k, v in values.items()})
        else:
            text = json.dumps({f: values.get(f) for f in self.fields})
            if self.kind == ".json":
                text = ("\n" if self.first else ",\n") + text
            self.file.write(text + ("\n" if self.kind == ".jsonl" else ""))
        self.first = False
        self.file.flush()

    def close(self) -> None:
        if self.kind == ".json":
            self.file.write("\n]\n")
        self.file.close()
