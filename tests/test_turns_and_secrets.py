"""Turns as part of the language (`turns:`, `current`), secret rolls (a variable only
its owner sees), reveals and announcements: how they play, print, show, log and
how a search agent's samples keep them secret."""
import io
import json

import pytest
from helpers import rulelang

from generators.prose import english
from interpreter.agents.base import PlayerView
from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.agents.sampling import Sampler
from interpreter.engine.game import Game
from interpreter.engine.logs import GameLog, header
from interpreter.engine.view import Viewer
from rulelang import RulesetError, lint, load_text

TURNS = """
game: turns
players:
  count: 2..4
  names: [red, blue, green, yellow]
vars:
  start: {type: role, initial: none}
  pos: {initial: 0, owner: each, max: 9}
  order: {type: role, initial: none}
  seen: {initial: 0}
setup: |
  start = blue
modes:
  race:
    turns:
      steps: [Roll, Move]
      order: clockwise(start)
    round:
      - step: Deal
        do: |
          seen = 0
      - step: Roll
        do: |
          current chooses how:
            one:
              pos of current += 1
            two:
              pos of current += 2
      - step: Move
        do: |
          seen += 1
          if pos of current >= 9:
            win current as home
          if current == blue and round == 2:
            eliminate blue as retired
      - step: Pass
        do: |
          start = left_of(start)
          if round == 20:
            end game
    score: pos
"""


def test_each_player_takes_a_turn_in_the_order_given_skipping_those_out():
    game = Game(load_text(TURNS, "turns.yaml", {"players": "3"}), check_invariants=True)
    st = game.new_state(0)
    who, seen = [], game.layout.var_slot["seen"]
    while st.outcome is None and st.round <= 3:
        who.append((st.round, game.decision(st).role, st.vars[seen]))
        game.apply(st, 0)
    # round 1 from blue, round 2 from green (the start passes left), round 3 without blue (retired);
    # the Deal step runs once a round, before the turns (it sets `seen` to 0; each turn's Move adds 1)
    assert who == [(1, "blue", 0), (1, "green", 1), (1, "red", 2), (2, "green", 0), (2, "red", 1),
                   (2, "blue", 2), (3, "red", 0), (3, "green", 1)]


def test_whose_turn_it_is_is_none_outside_the_turns():
    text = TURNS.replace("          start = left_of(start)", "          start = left_of(start)\n"
                                                             "          order = current")
    game = Game(load_text(text, "turns.yaml", {"players": "2"}))
    st = game.new_state(0)
    game.apply(st, 0)
    game.apply(st, 0)
    assert st.vars[game.layout.var_slot["order"]] is None


def test_a_watch_in_a_turns_last_step_goes_on_with_the_next_players_turn():
    text = TURNS.replace("    score: pos", "    score: pos\n    watch:\n      - when: seen == 1\n        do: |\n"
                                          "          seen = 10")
    game = Game(load_text(text, "turns.yaml", {"players": "3"}))
    st = game.new_state(0)
    who = []
    for _ in range(4):
        who.append(game.decision(st).role)
        game.apply(st, 0)
    assert who == ["blue", "green", "red", "green"]


def test_turns_print_as_your_turn():
    rs = load_text(TURNS, "turns.yaml", {"players": "3"})
    from generators.summary import summary  # noqa: F401 (the renderings register on import)
    text = english(rs, rs.modes["race"].round[1], "race").text
    assert "You choose one of these:" in text and "add 1 to your pos" in text



@pytest.mark.parametrize("body, said", [
    ("if again:\n              pos of current += 2", "You may add 2 to your pos."),  # said by what a yes does
    ("pos of current += 1 if again else 2", "You choose yes or no (again), then add (1 if again is on; "
                                            "otherwise 2) to your pos."),
])
def test_a_yes_or_no_choice_is_said_by_what_it_does(body, said):
    text = TURNS.replace("""current chooses how:
            one:
              pos of current += 1
            two:
              pos of current += 2""", f"current chooses again in [false, true] as push:\n            {body}")
    rs = load_text(text, "turns.yaml", {"players": "3"})
    from generators.summary import summary  # noqa: F401 (the renderings register on import)
    assert english(rs, rs.modes["race"].round[1], "race").text == said


def test_a_round_of_turns_is_said_as_such(tmp_path):
    path = tmp_path / "turns.yaml"
    path.write_text(TURNS)
    r = rulelang("summary", str(path), "--set", "players=3")
    assert r.returncode == 0, r.stderr
    assert "Each round begins with step 1. Then every player still in the game takes a turn, one after the " \
           "other (each player in turn from *start*, clockwise). On your turn, play steps 2 and 3. Once every " \
           "player has had their turn, the round ends with step 4." in r.stdout
    assert "#### Step 2: Roll (on your turn)" in r.stdout and "- You choose one of these:" in r.stdout


@pytest.mark.parametrize("turns, message", [
    ("{steps: [Roll, Pass]}", "a turn is steps one after the other"),
    ("{steps: [Rol]}", "did you mean 'Roll'"),
    ("{order: 3}", "the turn order must be list of role, but this is number"),
    ("maybe", "turns: is `true`"),
])
def test_bad_turns(turns, message):
    text = TURNS.replace("""    turns:
      steps: [Roll, Move]
      order: clockwise(start)""", f"    turns: {turns}")
    with pytest.raises(RulesetError, match=message):
        load_text(text, "turns.yaml")


def test_current_in_rules_with_no_turns_is_warned_of():
    """Outside a mode's turns `current` is no one: rules with no turns that read it fail at run time
    where it is used (Love Letter, written from the docs, played its turns in its own loop)."""
    text = TURNS.replace("""    turns:
      steps: [Roll, Move]
      order: clockwise(start)
""", "")
    found = [w for w in lint.warnings(load_text(text, "turns.yaml")) if "`current`" in w.message]
    lines = text.splitlines()
    assert [lines[w.span.line - 1].strip() for w in found if w.span is not None][:2] == \
        ["current chooses how:", "pos of current += 1"]  # at each place it is read
    assert "no mode here has turns: it is always no one" in found[0].message and "`turns:`" in (found[0].hint or "")
    assert not [w for w in lint.warnings(load_text(TURNS, "turns.yaml")) if "`current`" in w.message]


# ---------------------------------------------------------------- secret rolls, reveals, announcements

CUPS = """
game: cups
players: 3
vars:
  dice: {initial: [], owner: each, seen_by: owner, text: the dice under a player's cup}
  call: {initial: 0, owner: each}
modes:
  m:
    round:
      - step: Roll
        do: |
          for p in players:
            roll 3 d6 into dice of p
      - step: Call
        do: |
          for p in players:
            p chooses n in 1..6 as call labelled "{n} pips":
              call of p = n
              announce "{p} calls {n}"
          reveal dice of player_1
          reveal dice of player_2 to player_3
          if round == 2:
            end game
    score: call
"""


def test_a_secret_roll_is_seen_by_its_owner_only_until_revealed():
    game = Game(load_text(CUPS, "cups.yaml"))
    viewer = Viewer(game)
    st = game.new_state(4)
    obs = viewer.observe(st, "player_3")
    assert list(obs["vars"]["dice"]) == ["player_3"]  # its own dice only
    rolls = [e for e in obs["events"] if e["type"] == "roll"]
    assert [("faces" in e, e.get("into")) for e in rolls] == \
        [(False, "dice of player 1"), (False, "dice of player 2"), (True, None)]
    for _ in range(3):
        game.apply(st, 0)
    told = [e for e in viewer.observe(st, "player_3")["events"] if e["type"] in ("reveal", "announce")]
    assert [e["type"] for e in told] == ["announce", "reveal", "reveal"]
    assert "text" in told[1] and "text" in told[2]  # both shown to player 3
    hidden = [e for e in viewer.observe(st, "player_1")["events"] if e["type"] == "reveal"][1]
    assert hidden == {"type": "reveal", "to": "player_3", "what": "dice of player 2", "cards": 0}


def test_reveals_and_announcements_are_in_the_logs_secrets_only_in_the_referees():
    game = Game(load_text(CUPS, "cups.yaml"))
    logs = {r: io.StringIO() for r in (None, "player_1")}
    agents = {r: make_agent("random", 2, r) for r in game.roles}
    head = header(game.ruleset, None, "m", 2, {r: "random" for r in game.roles})
    st = game.new_state(2)
    viewers = Viewer(game)
    outs = {r: GameLog(f, head, r) for r, f in logs.items()}
    while st.outcome is None:
        i = agents[st.pending.role].choose(PlayerView(game, viewers, st))
        for log in outs.values():
            log.decision(game, viewers, st, i)
        game.apply(st, i)
    for log in outs.values():
        log.outcome(viewers, st)
    referee = [json.loads(x) for x in logs[None].getvalue().splitlines()]
    mine = [json.loads(x) for x in logs["player_1"].getvalue().splitlines()]
    assert all("faces" in r for r in referee if r["type"] == "roll")
    assert sum("faces" in r for r in mine if r["type"] == "roll") == 2  # its own two rolls
    assert any(r["type"] == "reveal" and r.get("to") == "player_3" and "text" not in r for r in mine)
    assert any(r["type"] == "announce" for r in mine)
    assert any(r.get("option") == "1 pips" for r in mine if r["type"] == "decision" and r["role"] != "player_1")


def test_printed_rules_say_who_sees_a_secret_roll():
    rs = load_text(CUPS, "cups.yaml")
    text = english(rs, rs.modes["m"].round[0].body, "m").text
    assert "roll three dice (d6) for that player's dice, where only that player sees them" in text.lower()
    said = english(rs, rs.modes["m"].round[1].body, "m").text
    assert "Show Player 1's dice to every player" in said and "Show Player 2's dice to Player 3 only" in said
    assert "Say aloud: “that player's name calls N”" in said  # N: the number just chosen, a blank for the name


def test_samples_roll_again_what_the_role_has_not_seen_and_keep_what_was_revealed():
    game = Game(load_text(CUPS, "cups.yaml"), check_invariants=True)
    st = play(game, 3, {r: make_agent("random", 3, r) for r in game.roles}, stop_at=4)  # round 2, player_2 calls
    role = st.pending.role
    sampler = Sampler(game, Viewer(game))
    slot = game.layout.var_slot["dice"]
    seen_before = set()
    for seed in range(8):
        s, replayed = sampler.draw(st, role, seed)
        assert replayed
        assert s.vars[slot + 1] == st.vars[slot + 1]  # its own dice: as they are
        seen_before.add((tuple(s.vars[slot]), tuple(s.vars[slot + 2])))
    assert len(seen_before) > 4  # the others' dice of this round are rolled again
    # round 1's dice of player 1 were revealed to everyone: every sample's replay keeps them
    belief = sampler.prepare(st, role)
    first_round = [e for e in belief.entries if type(e).__name__ == "Roll"][:9]
    assert [e.outcome is not None for e in first_round] == [True] * 3 + [True] * 3 + [False] * 3
