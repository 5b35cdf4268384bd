"""The figures of docs/gauntlet-16-7.md: 16-7: The Gauntlet simulated for 3, 4
and 5 players with random, greedy and MCTS players, and whether joining a
team pays.

    python benchmarks/gauntlet_16_7_table.py [--scale 0.1] [--jobs 2] [--into docs/gauntlet-16-7.md]

Two tables. *Players* — per count of players and agents: the win rate of
each seat (seat 1's with its 95% interval), the game's length in rounds,
teams formed, how long the Drawbridge held, when it was first lowered, how often it was raised again
and how many players took the Forbidden Path. *Teams* — four players, the
last seat (the one with the most teams to join) always facing a room
together, always separately, or as its agent chooses
(`KIND:always=approach:together`), against three players of the same kind.
`--scale` multiplies every count of games (for a quick look). With
`--into FILE` each table replaces the lines between its `<!-- NAME:begin -->`
and `<!-- NAME:end -->` markers in FILE. Game i of a row is
`rulelang run gauntlet-16-7 --seed i --set players=N` with that row's agents.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.analysis.simulate import simulate  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402

RULESET = "gauntlet-16-7"  # --ruleset FILE: a copy, so editing the bundled file cannot break a long run
MCTS = "mcts:iterations=20"

# (title, count of players, agent of each seat (the last repeated), games)
PLAYERS_ROWS = [
    *[("random", n, ["random"], 1000) for n in (3, 4, 5)],
    *[("greedy", n, ["greedy"], 60) for n in (3, 4, 5)],
    *[("greedy in seat 1, random", n, ["greedy", "random"], 200) for n in (3, 4, 5)],
    *[("MCTS (20 iterations) in seat 1, random", n, [MCTS, "random"], 24) for n in (3, 4, 5)],
]
# (title, agent of the last seat, agent of the others, games)
TEAM_ROWS = [
    ("random, always together", "random:always=approach:together", "random", 1500),
    ("random, always separately", "random:always=approach:separately", "random", 1500),
    ("random, as it comes", "random", "random", 1500),
    ("greedy, always together", "greedy:always=approach:together", "greedy", 60),
    ("greedy, always separately", "greedy:always=approach:separately", "greedy", 60),
    ("greedy, as greedy chooses", "greedy", "greedy", 60),
]


ARGS = argparse.Namespace(ruleset=RULESET)


def measure(data: dict, name: str) -> str:
    m = data["measures"][name]
    return f"{m['mean']:.1f}" if m.get("mean") is not None else "—"


def run(players: int, kinds: list[str], games: int, jobs: int) -> tuple[dict, list[str]]:
    game = Game(load_ruleset(ARGS.ruleset, {"players": str(players)}))
    agents = {r: kinds[min(i, len(kinds) - 1)] for i, r in enumerate(game.roles)}
    data = simulate(game, games, 0, agents, jobs=jobs).to_json()
    assert data["errors"]["games"] == 0, data["errors"]
    return data, list(game.roles)


def players_table(scale: float, jobs: int) -> str:
    head = ("| agents | players | games | seat 1 (95% interval) | seat 2 | seat 3 | seat 4 | seat 5 | rounds "
            "| teams formed | Drawbridge held (turns) | first lowered (round) | raised again | Forbidden Path |")
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for title, players, kinds, games in PLAYERS_ROWS:
        games = max(2, round(games * scale))
        data, roles = run(players, kinds, games, jobs)
        low, high = data["win_rate"][roles[0]]["ci95"]
        seats = [f"{data['win_rate'][roles[0]]['rate']:.0%} [{low:.0%}, {high:.0%}]"]
        seats += [f"{data['win_rate'][r]['rate']:.0%}" for r in roles[1:]] + ["—"] * (5 - players)
        lines.append(f"| {title} | {players} | {games} | " + " | ".join(seats)
                     + f" | {data['mean_rounds']:.1f} | {measure(data, 'teams_formed')}"
                     + f" | {measure(data, 'bridge_turns')} | {measure(data, 'bridge_lowered_at')}"
                     + f" | {measure(data, 'bridge_raised')} | {measure(data, 'path_taken')} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def teams_table(scale: float, jobs: int) -> str:
    lines = ["| seat 4 of 4 faces a room | games | seat 4 wins (95% interval) | winner joined a team | teams formed "
             "| rounds |", "|---|---:|---:|---:|---:|---:|"]
    for title, last, others, games in TEAM_ROWS:
        games = max(2, round(games * scale))
        data, roles = run(4, [others, others, others, last], games, jobs)
        rate = data["win_rate"][roles[-1]]
        low, high = rate["ci95"]
        joined = data["measures"]["winner_joined"]["rate"]
        lines.append(f"| {title} | {games} | {rate['rate']:.1%} [{low:.1%}, {high:.1%}] | {joined:.0%} "
                     f"| {measure(data, 'teams_formed')} | {data['mean_rounds']:.1f} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def put_into(path: Path, name: str, table: str, note: str) -> None:
    text = path.read_text()
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{path} has no {begin} ... {end}")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{begin}\n{table}\n\n{note}\n{end}{tail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every count of games")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--into", type=Path, help="a Markdown file with the tables' markers")
    parser.add_argument("--only", choices=["players", "teams"], help="make one table")
    parser.add_argument("--ruleset", default=RULESET, help="the ruleset (a file or a bundled name)")
    args = parser.parse_args()
    ARGS.ruleset = args.ruleset
    made = ("Made with `python benchmarks/gauntlet_16_7_table.py"
            f"{' --scale ' + str(args.scale) if args.scale != 1 else ''}`.")
    if args.only != "teams":
        table = players_table(args.scale, args.jobs)
        if args.into:
            put_into(args.into, "players-table", table, made)
    if args.only != "players":
        table = teams_table(args.scale, args.jobs)
        if args.into:
            put_into(args.into, "teams-table", table, made)


if __name__ == "__main__":
    main()
