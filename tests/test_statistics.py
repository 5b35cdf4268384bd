"""Statistics: variables only measures read are not rules — left out of the
printed rules and of the play screen (rulelang/statistics.py)."""
from generators.markdown import to_markdown
from generators.summary import summary
from interpreter.agents.terminal import render_board
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset, load_text
from rulelang.statistics import statistics

GAME = """
game: stats
title: Stats
players: 2
vars:
  points: {initial: 0, owner: each, text: points}
  tries: {initial: 0, text: tries so far}
  first_big: {initial: 0, text: the round of the first big roll}
  best: {initial: 0, text: the best roll}
modes:
  main:
    round:
      - step: Roll
        do: |
          for p in players:
            roll d6 into x
            tries += 1
            if x == 6 and first_big == 0:
              first_big = round
            if x > best:
              best = x
            points of p += x
          if round == 3:
            end game
    score: points
    measures:
      tries: tries
      first_big: first_big
"""


def test_a_variable_only_measures_read_is_a_statistic_and_not_printed():
    rs = load_text(GAME, "stats.yaml")
    # best is read by nothing but its own update: a statistic too; points is scored: a rule
    assert statistics(rs) == {"tries", "first_big", "best"}
    text = to_markdown([summary(rs)])
    assert "points" in text and "tries" not in text and "first big" not in text and "best" not in text


def test_a_statistic_read_by_a_rule_is_a_rule():
    rs = load_text(GAME.replace("if round == 3:", "if round == 3 or tries > 10:"), "stats.yaml")
    assert statistics(rs) == {"first_big", "best"}


def test_the_play_screen_leaves_statistics_out():
    g = Game(load_text(GAME, "stats.yaml"))
    st = g.new_state(0)
    obs = Viewer(g).observe(st, "player_1")
    assert obs["statistics"] == ["best", "first_big", "tries"] and "tries" in obs["vars"]
    board = render_board(obs, {}, "player_1")
    assert "points" in board and "tries" not in board and "best" not in board


def test_the_gauntlet_s_counts_for_its_measures_are_statistics():
    rs = load_ruleset("gauntlet-16-7")
    assert statistics(rs) == {"teams_formed", "bridge_turns", "bridge_lowered_at", "bridge_raised", "path_taken",
                              "counters_played", "joins", "winner"}
