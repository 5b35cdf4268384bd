"""Abilities with timing: card rules that answer named events, carried by a
card type or by one row of a table, with limits (once per event, per game),
"you may" as a decision, play windows; facing per component type."""
from __future__ import annotations

import pytest
from helpers import rulelang

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent, RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import RulesetError, load_text

DUEL = """
game: duel-abilities
title: Duel with abilities
players: 2
vars:
  health: {initial: 10, owner: each, min: 0, max: 10}
  bonus: {initial: 0, owner: each}
events:
  combat_start(role p): the start of a combat
  hit(role p, number amount): a hit on a player
  any_time(role p): a moment to play a card
abilities:
  shield:
    on: hit
    where: this in gear of p
    once: per combat_start
    optional: p
    text: Prevent 1 damage.
    do: |
      health of p += 1
  rage:
    on: combat_start
    where: this in gear of p
    do: |
      bonus of p += this.power
  potion:
    on: any_time
    where: this in gear of p
    once: per game
    do: |
      health of p += 3
cards:
  item:
    fields: {name: text, power: 0..3, ability: ability}
    table: |
      name       power  ability
      buckler    0      shield
      axe        2      rage
      flask      0      potion
      stick      1      none
  pawn:
    abilities: [rage]
    fields: {power: 0..3}
    facing: up
    table: |
      power
      1
zones:
  gear: {owner: each}
  tent: {facing: down}
modes:
  main:
    setup: |
      for c in box:
        if c is item and (c.name == "buckler" or c.name == "flask"):
          move c to gear of player_1
        elif c is item:
          move c to gear of player_2
        else:
          move c to tent
    round:
      - step: Fight
        do: |
          for p in players:
            trigger combat_start(p)
          for p in players:
            window any_time(p)
            health of p -= 2
            trigger hit(p, 2)
          if round == 3:
            end game
    score: health
"""


def game(text: str = DUEL, optimize: bool = True) -> Game:
    return Game(load_text(text, "duel.yaml"), optimize=optimize)


def variables(g, st) -> dict:
    return Viewer(g).observe(st, None)["vars"]


def test_abilities_answer_their_events_with_limits_and_choices():
    g = game()
    st = g.new_state(0)
    labels = []
    while not g.is_terminal(st):
        d = g.decision(st)
        labels.append((d.role, d.label, [Viewer(g).option(st, i) for i in g.legal_actions(st)]))
        g.apply(st, 0)  # play, use
    v = variables(g, st)
    # player 1: the potion once (capped at 10), then each round -2 and the shield's +1 once per combat
    assert v["health"] == {"player_1": 7, "player_2": 4}
    # rage answers every combat start for the axe in player 2's gear; the pawn in the tent is not in gear
    assert v["bonus"] == {"player_1": 0, "player_2": 6}
    assert labels[0] == ("player_1", "any_time", ["play", "pass"])
    assert labels[1][1] == "any_time" and labels[1][2] == ["item flask 0 potion, potion"]
    assert [lab for _, lab, _ in labels[2:]] == ["shield", "shield", "shield"]  # the potion is spent: no window
    assert labels[2][2] == ["use", "pass"]


def test_optimised_and_plain_rules_play_the_same_games():
    for seed in range(10):
        games = [game(optimize=o) for o in (True, False)]
        ends = [play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}).outcome for g in games]
        assert ends[0] == ends[1]


def test_a_window_in_a_menu_option_is_offered():
    text = DUEL.replace("            window any_time(p)\n",
                        "            p chooses act:\n              drink:\n                window any_time(p)\n"
                        "              wait:\n                pass\n")
    g = game(text)
    st = g.new_state(0)
    assert g.decision(st).label == "act"
    g.apply(st, 0)  # drink: the window, inside the menu's option
    assert g.decision(st).label == "any_time"


def test_a_card_type_s_facing_wins_over_the_zone_s():
    g = game()
    st = g.new_state(0)
    pawn = g.cards("pawn")[0]
    assert st.where[pawn] == g.zone_index("tent") and st.face_up[pawn]  # a face-down zone, the pawn face up


def test_a_use_flag_is_bookkeeping_not_a_card_s_state():
    g = game()
    st = g.new_state(0)
    while g.decision(st).label != "shield":
        g.apply(st, 0)
    g.apply(st, 0)
    seen = Viewer(g).observe(st, "player_1")
    assert "$" not in str(seen)


@pytest.mark.parametrize("old, new, message", [
    ("    on: hit\n", "    on: hits\n", "answers an unknown event 'hits'"),
    ("    once: per combat_start\n", "    once: per round\n", "`once:` is `per game` or `per EVENT`"),
    ("trigger hit(p, 2)", "trigger hit(p)", "event 'hit' takes 2 arguments, not 1"),
    ("trigger hit(p, 2)", "trigger hitt(p, 2)", "unknown event 'hitt'"),
    ("window any_time(p)", "window any_time(3)", "argument 'p' of event 'any_time' must be role"),
    ("      flask      0      potion", "      flask      0      potions", "'potions' is not a ability"),
    ("    abilities: [rage]", "    abilities: [rages]", "unknown ability 'rages'"),
    ("      bonus of p += this.power", "      bonus of p += this.powers", "no field 'powers'"),
    ("      health of p += 1\n  rage", "      trigger hit(p, 1)\n  rage", "can trigger itself again"),
])
def test_ability_mistakes_are_located(old, new, message):
    text = DUEL.replace(old, new)
    assert text != DUEL
    with pytest.raises(RulesetError) as info:
        load_text(text, "duel.yaml")
    d = next(d for d in info.value.diagnostics if message in d.message)
    assert d.span is not None and d.span.line > 1


def test_an_ability_no_card_carries_is_an_error():
    text = DUEL.replace("      flask      0      potion", "      flask      0      none")
    with pytest.raises(RulesetError, match="no card carries ability 'potion'"):
        load_text(text, "duel.yaml")


def test_a_new_card_with_an_ability_is_a_new_row(tmp_path):
    """A designer adds a card by editing only the table: its ability is a column."""
    text = DUEL.replace("      stick      1      none", "      stick      1      none\n      club       3      rage")
    g = game(text)
    st = play(g, 0, {r: FirstAgent(0, r) for r in g.roles})
    assert variables(g, st)["bonus"]["player_2"] == 3 * (2 + 3)  # axe and club, three combats


def test_a_row_writes_its_own_ability():
    """No `abilities:` at all: the club's row says what it does, with a limit and a choice."""
    start, end = DUEL.index("abilities:\n  shield"), DUEL.index("cards:\n")
    text = (DUEL[:start] + DUEL[end:]).replace("      buckler    0      shield\n", "").replace(
        "      axe        2      rage\n", "").replace("      flask      0      potion\n", "").replace(
        "    abilities: [rage]\n", "").replace(
        "      stick      1      none",
        '      stick      1      "on hit where this in gear of p once per combat_start optional p: health of p += 1"\n'
        '      club       3      "on combat_start where this in gear of p: bonus of p += this.power; bonus of p += 1"')
    g = game(text)
    assert set(g.ruleset.abilities) == {"stick", "club"} and g.ruleset.enums["ability"].values == ("stick", "club")
    st = g.new_state(0)
    asked = []
    while not g.is_terminal(st):
        asked.append(g.decision(st).label)
        g.apply(st, 0)  # use
    assert asked == ["stick"] * 3  # player 2 holds both: asked once a combat
    assert variables(g, st)["bonus"]["player_2"] == 3 * (3 + 1) and variables(g, st)["health"]["player_2"] == 4 + 3


@pytest.mark.parametrize("cell, message", [
    ('"on hit where this in gear of p health of p += 1"', "an ability written in a card row reads"),
    ('"on hit once per turn: health of p += 1"', "'turn' is not an event"),
    ('"on hit where this in gear of p:"', "does nothing"),
    ('"on hit where this in: health of p += 1"', "unexpected"),
    ('"on hit: health of p += 1; heal(p)"', "unknown procedure 'heal'"),
    ('"on hits: health of p += 1"', "unknown event 'hits'"),
])
def test_row_ability_mistakes_point_into_the_cell(cell, message):
    text = DUEL.replace("      stick      1      none", f"      stick      1      {cell}")
    with pytest.raises(RulesetError) as info:
        load_text(text, "duel.yaml")
    d = info.value.diagnostics[0]
    row = text.splitlines()[d.span.line - 1]
    assert message in d.message and row.startswith("      stick") and d.span.col > row.index('"'), d.format()


def test_summary_lists_abilities_and_the_command_line_plays_them(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    r = rulelang("summary", str(path))
    assert r.returncode == 0, r.stderr
    assert "**shield** (at a hit on a player, if this card is in the player's gear, once per combat start, as the player chooses): Prevent 1 damage." in r.stdout
    assert "every ability on a card that answers it takes effect, card by card" in r.stdout
    r = rulelang("simulate", str(path), "--games", "20")
    assert r.returncode == 0 and "20 games" in r.stdout, r.stderr


def test_card_fronts_say_what_each_card_does():
    """Its abilities on the card, in their `text:` or generated English; the ability column is not a value."""
    from generators.cards import CardRenderer, CardSize
    rs = load_text(DUEL, "duel.yaml")
    r = CardRenderer(rs, CardSize(63.5, 88.9))
    views = {v.values.name: v for v in (r.view(c) for c in rs.cards if c.kind == "item")}
    assert views["buckler"].text == "Prevent 1 damage."
    assert views["axe"].text == ("At the start of a combat, if this card is in the player's gear: "
                                 "Add the power of this card to the player's bonus.")
    assert views["stick"].text == "" and "ability" not in [f.name for f in views["axe"].fields]
    assert [a.name for a in views["flask"].abilities] == ["potion"]
