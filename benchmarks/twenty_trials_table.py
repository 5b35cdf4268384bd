"""How hard is each mode of Twenty Trials? Win rates by mode x agent x modifiers.

    python benchmarks/twenty_trials_table.py            # every cell, two processes
    python benchmarks/twenty_trials_table.py --jobs 1

Plays every cell (seeds 0..N-1, so any game can be replayed with
`rulelang run --seed`), solves Moderator deals, and writes the tables into
docs/twenty-trials.md between the `<!-- table -->` markers. Finished cells
are kept in benchmarks/results/twenty-trials-table.json, so an interrupted
run picks up where it stopped (delete the file to start afresh).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.analysis.simulate import simulate  # noqa: E402
from interpreter.analysis.solver import solve  # noqa: E402
from interpreter.analysis.stats import wilson  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "twenty-trials-table.json"
DOC = ROOT / "docs" / "twenty-trials.md"
GAMES, MCTS_GAMES, VERSUS_MCTS_GAMES, SOLVED = 2000, 100, 20, 500
MCTS = "mcts:iterations=100"
MODIFIERS = {"without": {}, "with": {"trial_modifiers": "true", "action_modifiers": "true"}}


def cells() -> list[dict]:
    """Every cell of the tables: mode, modifiers, agents, games."""
    out = []
    for mode, role in (("challenger", "challenger"), ("trialmaster", "trialmaster"), ("moderator", "moderator")):
        for mods in (("without",) if mode == "moderator" else ("without", "with")):
            for agent, games in (("random", GAMES), ("greedy", GAMES), (MCTS, MCTS_GAMES)):
                out.append({"mode": mode, "mods": mods, "agents": {role: agent}, "games": games, "role": role})
    versus = [("random", "random", GAMES), ("greedy", "random", GAMES), ("random", "greedy", GAMES),
              ("greedy", "greedy", GAMES), (MCTS, "greedy", VERSUS_MCTS_GAMES),
              ("greedy", MCTS, VERSUS_MCTS_GAMES)]
    for mods in ("without", "with"):
        for challenger, trialmaster, games in versus:
            out.append({"mode": "versus", "mods": mods, "role": "challenger", "games": games,
                        "agents": {"challenger": challenger, "trialmaster": trialmaster}})
    return out


def key(cell: dict) -> str:
    agents = ",".join(f"{r}={a}" for r, a in cell["agents"].items())
    return f"{cell['mode']}|{cell['mods']}|{agents}|{cell['games']}"


def run_cell(cell: dict) -> tuple[str, dict]:
    game = Game(load_ruleset("twenty-trials", MODIFIERS[cell["mods"]]), cell["mode"])
    start = time.perf_counter()
    summary = simulate(game, cell["games"], 0, cell["agents"])
    return key(cell), {"wins": sum(summary.won[cell["role"]]), "games": cell["games"],
                       "mean_rounds": sum(summary.rounds) / len(summary.rounds),
                       "seconds": round(time.perf_counter() - start, 1)}


def run_solver(_=None) -> tuple[str, dict]:
    game = Game(load_ruleset("twenty-trials"), "moderator")
    start = time.perf_counter()
    verdicts = [solve(game, seed).winnable for seed in range(SOLVED)]
    return "solver", {"winnable": verdicts.count(True), "not": verdicts.count(False),
                      "unknown": verdicts.count(None), "deals": SOLVED,
                      "seconds": round(time.perf_counter() - start, 1)}


def run_job(job):
    return run_solver() if job == "solver" else run_cell(job)


def rate(wins: int, games: int) -> str:
    lo, hi = wilson(wins, games)
    return f"{wins / games:.1%} [{lo:.1%}, {hi:.1%}]"


def cell_rate(result: dict | None) -> str:
    return rate(result["wins"], result["games"]) if result else "…"


def rounds(result: dict | None) -> str:
    return f"{result['mean_rounds']:.1f}" if result else "…"


def agent_name(spec: str) -> str:
    return "mcts" if spec.startswith("mcts") else spec


def tables(results: dict) -> str:
    lines = ["Win rate of the player's role with a 95% (Wilson) interval, games on seeds 0..N-1;",
             f"random and greedy: {GAMES} games a cell; mcts ({MCTS.split(':')[1]} per decision): "
             f"{MCTS_GAMES} games a cell, {VERSUS_MCTS_GAMES} in Versus. \"Modifiers\": both "
             "`trial_modifiers` and `action_modifiers` on.", ""]
    lines += ["| mode | player | agent | without modifiers | with modifiers | mean rounds (without) |",
              "|---|---|---|---|---|---|"]
    for cell in cells():
        if cell["mode"] == "versus" or cell["mods"] != "without":
            continue
        r = results.get(key(cell))
        w = results.get(key(dict(cell, mods="with")))
        with_mods = "no modifiers in this mode" if cell["mode"] == "moderator" else cell_rate(w)
        lines.append(f"| {cell['mode']} | {cell['role']} | {agent_name(cell['agents'][cell['role']])} | "
                     f"{cell_rate(r)} | {with_mods} | {rounds(r)} |")
    lines += ["", "Versus: the Challenger's win rate (the Trialmaster wins the rest).", "",
              "| challenger | trialmaster | games | without modifiers | with modifiers | mean rounds (without) |",
              "|---|---|---|---|---|---|"]
    for cell in cells():
        if cell["mode"] != "versus" or cell["mods"] != "without":
            continue
        r, w = results.get(key(cell)), results.get(key(dict(cell, mods="with")))
        lines.append(f"| {agent_name(cell['agents']['challenger'])} | {agent_name(cell['agents']['trialmaster'])} | "
                     f"{cell['games']} | {cell_rate(r)} | {cell_rate(w)} | {rounds(r)} |")
    s = results.get("solver")
    if s:
        lines += ["", f"Moderator deals solved exhaustively (`rulelang solve`), seeds 0..{s['deals'] - 1}: "
                      f"**{rate(s['winnable'], s['deals'])}** winnable ({s['winnable']} of {s['deals']}; "
                      f"{s['unknown']} unknown)."]
    return "\n".join(lines)


def write_doc(results: dict) -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = "<!-- table -->", "<!-- /table -->"
    before, _, rest = text.partition(start)
    _, _, after = rest.partition(end)
    DOC.write_text(f"{before}{start}\n{tables(results)}\n{end}{after}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    todo = [c for c in cells() if key(c) not in results] + ([] if "solver" in results else ["solver"])
    # the slowest first, so two processes finish together
    todo.sort(key=lambda c: 0 if c == "solver" else -c["games"] * (50 if "mcts" in key(c) else 1))
    RESULTS.parent.mkdir(exist_ok=True)
    with Pool(args.jobs) as pool:
        for name, result in pool.imap_unordered(run_job, todo):
            results[name] = result
            RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True))
            print(name, result, flush=True)
    write_doc(results)


if __name__ == "__main__":
    main()
