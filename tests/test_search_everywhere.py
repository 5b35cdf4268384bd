"""The search agents play every bundled ruleset and example, at every count of players
it allows and in every mode, with the invariants checked after every effect, to the
end and without an error: on states the rules reach (agents/sampling.py), never on
invented ones. Slow: a game of MCTS looks ahead at every one of its decisions."""
import pytest

from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.engine.game import Game
from rulelang import bundled_names, load_ruleset

# a search player looks ahead to the end of the game at each of its decisions: the long games' own
# limits set low (Hand of Fate's rounds as well as the race's turns)
LIMITS = {"gauntlet-race": {"turn_limit": "30"}, "gauntlet-race-crossfire": {"turn_limit": "30"},
          "hand-of-fate-ordeals": {"round_limit": "10"}}


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
@pytest.mark.parametrize("spec", ["greedy:samples=2", "mcts:iterations=4,samples=4"])
def test_search_agents_play_everything_with_invariants_on(name, spec):
    short = LIMITS.get(name, {})
    base = load_ruleset(name, short)
    counts = [None] if base.players is None else range(base.players.low, base.players.high + 1)
    for n in counts:
        rs = base if n is None else load_ruleset(name, {**short, "players": str(n)})
        for mode in rs.modes:
            game = Game(rs, mode, check_invariants=True)
            # the search agent in the first seat, the others random (MCTS in every seat: hours)
            agents = {r: make_agent(spec if i == 0 else "random", 1, r) for i, r in enumerate(game.roles)}
            st = play(game, 1, agents)
            assert st.outcome is not None, (name, n, mode)
