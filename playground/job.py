"""One simulation, in a process of its own (`python -m playground.job`):
the request on standard input as JSON, progress and the result on
standard output as JSON lines.

It runs apart from the server so that cancelling it is ending a process
group (its workers too), and a ruleset that eats memory or time takes down
only itself. It plays what `rulelang simulate` and `rulelang compare` play,
with the same seeds, and reports the same figures.
"""
from __future__ import annotations

import json
import sys
import time

from interpreter.agents.registry import make_agent
from interpreter.analysis.compare import compare, comparison_json, format_comparison
from interpreter.analysis.simulate import available_cores, simulate
from interpreter.analysis.tally import format_tally
from interpreter.engine.game import Game
from rulelang import RulesetError, load_text


def _say(record: dict) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def run(request: dict) -> dict:
    entries, games, seed = request["entries"], request["games"], request["seed"]
    plays = []
    for entry in entries:
        rs = load_text(entry["text"], entry["path"], entry["params"])
        game = Game(rs, request.get("mode"))
        kinds = {role: request["agents"].get(role, "random") for role in game.roles}
        for role, kind in kinds.items():
            make_agent(kind, 0, role)  # checked before any game
        plays.append((entry["label"], game, kinds))
    total, done, last = games * len(plays), [0], [0.0]

    def on_game(_seed: int, _outcome: dict) -> None:
        done[0] += 1
        now = time.monotonic()
        if now - last[0] > 0.15 or done[0] == total:
            last[0] = now
            _say({"progress": done[0], "total": total})

    jobs = min(2, available_cores())
    summaries = [simulate(game, games, seed, kinds, jobs, on_game) for _, game, kinds in plays]
    labels = [label for label, _, _ in plays]
    if len(summaries) == 1:
        return {"kind": "simulate", "tally": summaries[0].to_json(), "text": format_tally(summaries[0])}
    metrics = compare(summaries)
    return {"kind": "compare", "labels": labels, "tallies": [s.to_json() for s in summaries],
            "comparison": comparison_json(labels, summaries, metrics),
            "text": format_comparison(labels, summaries, metrics)}


def main() -> int:
    request = json.loads(sys.stdin.read())
    try:
        _say({"result": run(request)})
    except RulesetError as exc:
        _say({"error": exc.format()})
    except Exception as exc:  # noqa: BLE001 - the rules failed in a game, an agent: said to the page
        message = getattr(exc, "diagnostic", None)
        _say({"error": message.format() if message is not None else f"{type(exc).__name__}: {exc}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
