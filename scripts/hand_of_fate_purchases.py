"""Which cards computer players acquire in Hand of Fate: Ordeals, and how far
their games go: plays games with the given agent in every seat and counts the
options chosen at the `buy` and `exchange` decisions (the figures in
docs/hand-of-fate-ordeals.md).

    python scripts/hand_of_fate_purchases.py --agent greedy --players 2 --games 4
"""
from __future__ import annotations

import argparse
import collections

from interpreter.agents.base import PlayerView
from interpreter.agents.registry import AGENTS
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--round-limit", type=int, default=40)
    args = ap.parse_args()
    g = Game(load_ruleset("hand-of-fate-ordeals", {"players": str(args.players),
                                                   "round_limit": str(args.round_limit)}))
    viewer = Viewer(g)
    bought, levels, rounds = collections.Counter(), collections.Counter(), []
    for seed in range(args.games):
        agents = {r: AGENTS[args.agent](seed, r) for r in g.roles}
        st = g.new_state(seed)
        while st.outcome is None:
            d = g.decision(st)
            i = agents[d.role].choose(PlayerView(g, viewer, st))
            if d.label in ("buy", "exchange"):
                bought[viewer.option(st, i)] += 1
            g.apply(st, i)
        v = viewer.observe(st, None)["vars"]
        levels[v["level"]] += 1
        rounds.append(v["game_round"])
    print(f"{args.games} games, {args.players} players, agent {args.agent}: levels reached {dict(levels)}, "
          f"rounds {sum(rounds) / len(rounds):.1f}")
    for name, n in bought.most_common(10):
        print(f"  {name:24} {n:4}  {n / args.games:.1f} a game")


if __name__ == "__main__":
    main()
