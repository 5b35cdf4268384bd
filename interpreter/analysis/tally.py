"""What many games add up to: the numbers a designer reads.

A `Tally` keeps one value per game for everything it reports (in seed
order), so two summaries of the same seeds can be compared game by game
(see compare.py), and reports them with 95% intervals: win rate per role,
outcome counts, score, game length in rounds and decisions, and the
measures the mode declares (`measures:`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rulelang import ir
from rulelang.types import BOOL

from ..engine.game import Game
from .stats import mean, mean_interval, quartiles, wilson


def outcome_label(outcome: dict) -> str:
    who = outcome.get("role")
    team = isinstance(who, list) and len(who) > 1
    who = " and ".join(who) if isinstance(who, list) else who
    reason = f" ({outcome['reason']})" if outcome.get("reason") else ""
    if outcome["ended_by"] == "win":
        return f"{who} win{'' if team else 's'}{reason}"
    if outcome["ended_by"] == "lose":
        return f"{who} lose{'' if team else 's'}{reason}"
    winners = [r for r, res in outcome["results"].items() if res == "win"]
    on = outcome.get("ranked_by", "score")
    return (f"{winners[0]} wins on {on.replace('_', ' ')}" if winners else "draw") + reason


@dataclass
class Tally:
    games: int
    seed: int
    mode: str
    agents: dict
    params: dict
    roles: tuple
    measure_info: dict = field(default_factory=dict)  # name -> (is a rate, text)
    outcomes: Counter = field(default_factory=Counter)
    won: dict = field(default_factory=dict)  # role -> [1 or 0 per game]
    places: dict = field(default_factory=dict)  # role -> [place per game: 1 first, ties share]
    scores: dict = field(default_factory=dict)  # role -> [score per game]
    ratings: Counter = field(default_factory=Counter)
    rounds: list = field(default_factory=list)
    decisions: list = field(default_factory=list)
    measures: dict = field(default_factory=dict)  # name -> [value or None per game]
    errors: list = field(default_factory=list)  # (seed, message) of each game an agent failed
    seconds: float = 0.0
    played: int = 0  # games played by this run (a resumed run read the others from its rows)
    jobs: int = 1

    @classmethod
    def for_game(cls, game: Game, games: int, seed: int, agents: dict) -> "Tally":
        return cls.for_mode(game.ruleset, game.mode, games, seed, agents)

    @classmethod
    def for_mode(cls, ruleset: ir.Ruleset, mode: ir.Mode, games: int, seed: int, agents: dict) -> "Tally":
        info = {n: (m.value.ty == BOOL, m.text) for n, m in mode.measures.items()}
        return cls(games, seed, mode.name, dict(agents), dict(ruleset.param_values), mode.roles,
                   info, won={r: [] for r in mode.roles}, places={r: [] for r in mode.roles},
                   scores={r: [] for r in mode.score},
                   measures={n: [] for n in info})

    def add(self, outcome: dict) -> None:
        """The next game's outcome, or `{"error": message}` for a game an agent
        failed: it counts in no figure, but keeps its place (None) in every
        per-game list, so two summaries still pair game by game."""
        if "error" in outcome:
            self.errors.append((self.seed + len(self.rounds), outcome["error"]))
            for column in (*self.won.values(), *self.places.values(), *self.scores.values(), self.rounds,
                           self.decisions, *self.measures.values()):
                column.append(None)
            return
        self.outcomes[outcome_label(outcome)] += 1
        results, places, won, placed = outcome["results"], outcome["places"], self.won, self.places
        for role in self.roles:  # (this runs for every game of a simulation)
            won[role].append(1 if results.get(role) == "win" else 0)
            placed[role].append(places[role])
        for role, score in outcome["scores"].items():
            self.scores.setdefault(role, []).append(score)
        for role, rating in outcome["ratings"].items():
            self.ratings[f"{role}: {rating}"] += 1
        self.rounds.append(outcome["rounds"])
        self.decisions.append(outcome["decisions"])
        if self.measures:
            values = outcome.get("measures", {})
            for name, column in self.measures.items():
                column.append(values.get(name))

    @property
    def completed(self) -> int:
        """The games that ended (an agent failed the others): every figure is over these."""
        return self.games - len(self.errors)

    def measure_values(self, name: str) -> list:
        """The games where the measure applies, as numbers (true is 1)."""
        return [int(v) for v in self.measures[name] if v is not None]

    def to_json(self) -> dict:
        n = self.completed
        won = {r: sum(filter(None, self.won[r])) for r in self.roles}
        scores = {r: finished(s) for r, s in self.scores.items()}
        rounds, decisions = finished(self.rounds), finished(self.decisions)
        return {
            "games": self.games, "seed": self.seed, "mode": self.mode, "agents": self.agents, "params": self.params,
            "outcomes": dict(self.outcomes.most_common()),
            "errors": {"games": len(self.errors), "first": [{"seed": s, "error": e} for s, e in self.errors[:10]]},
            "win_rate": {r: {"rate": won[r] / n, "ci95": list(wilson(won[r], n))} if n else {"rate": None, "ci95": None}
                         for r in self.roles},  # no rate from no games
            "mean_score": {r: mean(scores[r]) if scores.get(r) else None for r in self.roles},
            "places": {r: distribution(finished(self.places[r])) for r in self.roles},
            "score": {r: distribution(s) for r, s in scores.items()},
            "ratings": dict(sorted(self.ratings.items())),
            "mean_rounds": mean(rounds) if rounds else None, "mean_decisions": mean(decisions) if decisions else None,
            "rounds": distribution(rounds), "decisions": distribution(decisions),
            "measures": {name: self.measure_json(name) for name in self.measures},
            "games_per_second": self.played / self.seconds if self.seconds > 0 and self.played else None,
        }

    def measure_json(self, name: str) -> dict:
        is_rate, text = self.measure_info[name]
        values = self.measure_values(name)
        head = {"text": text, "games": len(values)}
        if is_rate:
            return head | ({"rate": sum(values) / len(values), "ci95": list(wilson(sum(values), len(values)))}
                           if values else {"rate": None, "ci95": None})
        return head | distribution(values)


def finished(values: list) -> list:
    """A per-game list without the games an agent failed."""
    return [v for v in values if v is not None]


def distribution(values: list) -> dict:
    """Mean with its interval, quartiles and the count of every value."""
    if not values:
        return {"mean": None}
    m, lo, hi = mean_interval(values)
    low, q1, median, q3, high = quartiles(values)
    return {"mean": m, "ci95": [lo, hi], "min": low, "q1": q1, "median": median, "q3": q3, "max": high,
            "counts": {str(v): c for v, c in sorted(Counter(values).items())}}


# ------------------------------------------------------------------ text


def format_tally(tally: Tally) -> str:
    data = tally.to_json()
    last = data["seed"] + data["games"] - 1
    lines = [f"{data['games']} games of mode {data['mode']}, seeds {data['seed']}..{last}, "
             f"agents: {', '.join(f'{r}={k}' for r, k in data['agents'].items())}"]
    lines.append("outcomes:")
    errors = data["errors"]["games"]
    outcomes = dict(data["outcomes"], **({"error (an agent failed)": errors} if errors else {}))
    width = max((len(k) for k in outcomes), default=0)
    for label, count in outcomes.items():
        lines.append(f"  {label:<{width}}  {count:>7}  {count / data['games']:7.1%}")
    if errors:
        first = data["errors"]["first"][0]
        lines.append(f"errors: {errors} game(s) ended when an agent failed; the figures below leave them out; "
                     f"first, seed {first['seed']}: {first['error']}")
    lines.append("win rate (95% interval):")
    for role, w in data["win_rate"].items():
        if w["rate"] is None:
            lines.append(f"  {role}: no game finished")
            continue
        lo, hi = w["ci95"]
        lines.append(f"  {role}: {w['rate']:.1%}  [{lo:.1%}, {hi:.1%}]")
    if len(tally.roles) > 2:  # with two, a place says no more than the win rate
        lines.append("places (1 is first; players tied share a place):")
        width = max(len(r) for r in tally.roles)
        for role, dist in data["places"].items():
            counts = dist.get("counts", {})
            shares = "  ".join(f"{place}: {counts[place] / tally.completed:6.1%}" for place in counts)
            lines.append(f"  {role:<{width}}  mean {dist['mean']:.2f}  {shares}" if dist["mean"] is not None
                         else f"  {role}: no game finished")
    for role, dist in data["score"].items():
        lines.append(f"score ({role}): {describe_numbers(dist)}")
        lines.extend(histogram(dist.get("counts", {})))
    if data["ratings"]:
        lines.append("ratings: " + ", ".join(f"{k} {v}" for k, v in data["ratings"].items()))
    lines.append(f"rounds: {describe_numbers(data['rounds'])}")
    lines.append(f"decisions: {describe_numbers(data['decisions'])}")
    if data["measures"]:
        lines.append("measures (95% interval):")
        for name, m in data["measures"].items():
            lines.append(f"  {name}" + (f" — {m['text']}" if m["text"] else ""))
            lines.append(f"    {describe_measure(m, data['games'])}")
    if data["games_per_second"]:
        jobs = f" ({tally.jobs} jobs)" if tally.jobs > 1 else ""
        lines.append(f"speed: {data['games_per_second']:,.0f} games/s{jobs}")
    return "\n".join(lines)


def describe_numbers(d: dict) -> str:
    if d["mean"] is None:
        return "no games"
    lo, hi = d["ci95"]
    return (f"mean {d['mean']:.2f} [{lo:.2f}, {hi:.2f}]; median {d['median']}, "
            f"quartiles {d['q1']}–{d['q3']}, range {d['min']}–{d['max']}")


def describe_measure(m: dict, games: int) -> str:
    where = f"; in {m['games']} of {games} games" if m["games"] != games else ""
    if "rate" in m:
        if m["rate"] is None:
            return "applies to no game"
        lo, hi = m["ci95"]
        return f"{m['rate']:.1%} [{lo:.1%}, {hi:.1%}]{where}"
    return describe_numbers(m) + where


def histogram(counts: dict, width: int = 40, most: int = 30) -> list[str]:
    """A few lines of bars, one per value, if there are not too many values."""
    if not counts or len(counts) > most:
        return []
    total, top = sum(counts.values()), max(counts.values())
    size = max(len(k) for k in counts)
    return [f"  {k:>{size}} {'█' * max(1, round(width * c / top)) if c else '':<{width}} {c:>7} {c / total:6.1%}"
            for k, c in counts.items()]
