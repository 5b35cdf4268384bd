"""The worked example of docs/agents.md: OpenSpiel's CFR on the `kuhn-poker`
ruleset, then its average policy against the random agent, seat by seat,
in a table like `rulelang compare` prints.

    python scripts/kuhn_cfr.py [--iterations 100] [--games 4000]

Each game of a seed is played twice, the same cards dealt (chance outcomes
from one stream per seed): once random against random, once with CFR in
the seat; the table gives each seat's win rate with its 95% interval and
the paired difference. Needs the `[rl]` extra.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from interpreter.adapters import load_game  # noqa: E402
from interpreter.analysis.stats import paired_difference, wilson  # noqa: E402


def play(game, seed: int, policies: dict) -> list[float]:
    """One game; a seat with a policy samples it, the others play uniformly at random."""
    deal, moves = random.Random(f"chance {seed}"), random.Random(f"moves {seed}")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[deal.randrange(len(outcomes))][0])
            continue
        player, legal = state.current_player(), state.legal_actions()
        policy = policies.get(player)
        if policy is None:
            state.apply_action(legal[moves.randrange(len(legal))])
        else:
            probs = policy.action_probabilities(state)
            state.apply_action(moves.choices(list(probs), weights=list(probs.values()))[0])
    return state.returns()


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description="CFR on kuhn-poker against the random agent")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--games", type=int, default=4000)
    args = p.parse_args(argv)
    game = load_game("kuhn-poker")
    solver = cfr.CFRSolver(game)
    for _ in range(args.iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    print(f"CFR, {args.iterations} iterations: NashConv {exploitability.nash_conv(game, policy):.4f} "
          f"({len(policy.state_lookup)} information states)")
    roles = game.driver.roles
    seeds = range(args.games)
    baseline = [play(game, s, {}) for s in seeds]
    print(f"{args.games} games each, the same deals: A = random against random, B = CFR in the seat\n")
    print(f"{'':<16}{'A':<22}{'B':<22}B − A")
    for seat, role in enumerate(roles):
        a = [1.0 if r[seat] > 0 else 0.0 for r in baseline]
        b = [1.0 if play(game, s, {seat: policy})[seat] > 0 else 0.0 for s in seeds]
        d = paired_difference(a, b)
        cells = []
        for wins in (a, b):
            low, high = wilson(int(sum(wins)), len(wins))
            cells.append(f"{sum(wins) / len(wins):.1%} [{low:.1%}, {high:.1%}]")
        star = "*" if d.p < 0.05 else ""
        print(f"{role + ' win rate':<16}{cells[0]:<22}{cells[1]:<22}{d.value * 100:+.1f} pts "
              f"[{d.low * 100:+.1f}, {d.high * 100:+.1f}]{star}")
    print("\n* significant at the 5% level; intervals are 95%")


if __name__ == "__main__":
    main()
