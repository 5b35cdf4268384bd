"""The score distribution of a ruleset under several parameter settings and
agents, as a Markdown table.

    python scripts/score_table.py gauntlet-gobbots --agents random greedy --games 2000 \
        --option "standard" --option "Command board B: command_board_b=true" \
        [--into docs/gauntlet-gobbots.md]

Each `--option` is `TITLE: P=V, P=V` (or just `TITLE` for the defaults). The
agent kind plays every role; `KIND:N` plays N games instead of `--games` (for
slow agents). With `--into FILE` the table replaces the lines
between `<!-- score-table:begin -->` and `<!-- score-table:end -->` in FILE.
Game i of each row is the game `rulelang run RULESET --seed S+i` plays with
those parameters, so any game in the table can be replayed on its own.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.analysis.simulate import simulate  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402

BEGIN, END = "<!-- score-table:begin -->", "<!-- score-table:end -->"


def parse_option(text: str) -> tuple[str, dict[str, str]]:
    title, _, assignments = text.partition(":")
    params = {}
    for item in filter(None, (a.strip() for a in assignments.split(","))):
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"score_table: '{item}' in option '{text}' is not P=V")
        params[name.strip()] = value.strip()
    return title.strip(), params


def score_heading(game: Game, score: int) -> str:
    """A score, with the name of the rating that is exactly that score, if any."""
    for rating in game.mode.ratings:
        if rating.low == score and rating.high == score:
            return f"{score} ({rating.name.replace('_', ' ')})"
    return str(score)


def parse_agent(text: str, games: int) -> tuple[str, int]:
    kind, _, count = text.partition(":")
    if count and not count.isdigit():
        raise SystemExit(f"score_table: '{text}' is not KIND or KIND:GAMES")
    return kind, int(count) if count else games


def table(ruleset_ref: str, options: list[str], agents: list[str], games: int, seed: int, jobs: int = 1) -> str:
    rows, scores_seen, headings = [], set(), {}
    for option in options:
        title, params = parse_option(option)
        game = Game(load_ruleset(ruleset_ref, params))
        for kind, played in (parse_agent(a, games) for a in agents):
            summary = simulate(game, played, seed, {role: kind for role in game.roles}, jobs=jobs)
            role = game.roles[0]
            counts = Counter(summary.scores[role])
            scores_seen |= set(counts)
            # every score observed, and every score a rating names on its own (0% is news too)
            named = {r.low for r in game.mode.ratings if r.high == r.low}
            scores_seen |= named
            for s in set(counts) | named:
                headings.setdefault(s, score_heading(game, s))
            wins = sum(summary.won[role]) / played
            rows.append((title, kind, played, counts, sum(summary.scores[role]) / played, wins,
                         sum(summary.rounds) / played))
    scores = sorted(scores_seen)
    lines = ["| option | agent | games | " + " | ".join(headings[s] for s in scores) + " | mean score | wins | rounds |",
             "|---|---|" + "---:|" * (len(scores) + 4)]
    for title, kind, played, counts, mean_score, wins, rounds in rows:
        cells = [f"{counts.get(s, 0) / played:.1%}" for s in scores]
        lines.append(f"| {title} | {kind} | {played} | " + " | ".join(cells) +
                     f" | {mean_score:.2f} | {wins:.1%} | {rounds:.1f} |")
    lines.append("")
    lines.append(f"Each row plays its games (the *games* column) on the seeds from {seed} on; "
                 f"made with `python scripts/score_table.py {ruleset_ref} --agents {' '.join(agents)} --games {games}`.")
    return "\n".join(lines)


def write_into(path: Path, text: str) -> None:
    doc = path.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"score_table: {path} has no {BEGIN} ... {END} section")
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    path.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ruleset")
    p.add_argument("--agents", nargs="+", default=["random"], help="agent kinds (each plays every role)")
    p.add_argument("--option", action="append", default=[], metavar="'TITLE: P=V, ...'",
                   help="a row's title and parameters (repeatable; default: the defaults only)")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--into", type=Path, help="replace the score-table section of this Markdown file")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (the table is the same for any number)")
    args = p.parse_args(argv)
    text = table(args.ruleset, args.option or ["defaults"], args.agents, args.games, args.seed, args.jobs)
    if args.into:
        write_into(args.into, text)
    else:
        print(text)


if __name__ == "__main__":
    main()
