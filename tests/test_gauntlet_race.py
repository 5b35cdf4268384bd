"""The Gauntlet, the race: every rule of the rulebook as a position and its result.

The default track (rulesets/gauntlet-race.yaml), columns from the left and
rows from the bottom:

    6  S.B..L.B..<        the way: along row 6 eastward, down (10,5),
    5           B         row 4 westward, down (2,3), row 2 eastward to F
    4  >...L.B.L.
    3   L                 arrows: (11,6) fires west, (1,4) and (1,2) east,
    2  >..B..L.BL.F               (3,1), (6,1) and (8,1) north
    1    ^  ^ ^

With a die of 3 every step is one space and no one is asked how far; a
player who played Swords or Arrow is asked whether to act before moving.
"""
from collections import Counter

import pytest
from helpers.race import Race

ACT_FIRST = "act then move"
STRAIGHT = "S.........F"  # a test track: nine plain tiles


def acting_first(role, label, options):
    return ACT_FIRST if label == "timing" else None


# ---------------------------------------------------------------- set-up

def test_two_players_use_the_36_brown_and_pink_cards_and_start_with_1_2_3():
    r = Race(2)
    cards = r.zone("deck") + r.zone("table") + r.owned("hand", "red") + r.owned("hand", "blue")
    assert len(cards) == 36 and len(set(cards)) == 36  # each symbol once with each value 1-6
    assert not any(r.game.ruleset.cards[c].values["deck"] == "light_green"
                   for c in r.game.cards("action") if r.st.where[c] != 0)
    assert r.owned("hand", "red") == ["shield 1", "brick 2", "lumber 3"]
    assert r.owned("hand", "blue") == ["shield 2", "brick 3", "lumber 1"]
    assert len(r.zone("table")) == 6  # three face up per player


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_use_all_54_cards_and_start_with_two_1s_and_a_2(players):
    r = Race(players)
    hands = {p: r.owned("hand", p) for p in r.players}
    cards = r.zone("deck") + r.zone("table") + [c for h in hands.values() for c in h]
    assert len(cards) == 54
    assert Counter(c.split()[0] for c in cards) == {s: 9 for s in ("swords", "arrow", "drop", "shield", "brick",
                                                                   "lumber")}
    for hand in hands.values():
        assert [c.split()[0] for c in hand] == ["shield", "brick", "lumber"]
        assert sorted(int(c.split()[1]) for c in hand) == [1, 1, 2]
    assert [h for h in hands.values()][:3] == [["shield 1", "brick 1", "lumber 2"], ["shield 1", "brick 2", "lumber 1"],
                                              ["shield 2", "brick 1", "lumber 1"]]
    assert len(r.zone("table")) == 3 * players
    assert all(r.life(p) == 3 and r.at(p) == (1, 6) for p in r.players)  # every cube next to the start


def test_the_starting_player_is_chosen_at_random_and_the_die_rerolls_1_and_2():
    starts, dice = set(), Counter()
    for seed in range(40):
        r = Race(3, seed)
        starts.add(r.get("start_player"))
        assert r.get("first_start") == r.get("start_player")
        dice[r.get("die")] += 1
        assert all(r.get("moves_left", p) == r.get("die") for p in r.players)
    assert starts == {"red", "blue", "yellow"}
    assert set(dice) == {3, 4, 5, 6}  # never 1 or 2


# ---------------------------------------------------------------- draw and plan

def test_draw_two_from_the_table_and_two_from_the_deck_from_the_starting_player_clockwise():
    r = Race(3)
    r.set("start_player", "blue")
    deck = len(r.zone("deck"))
    r.start("Draw cards")
    table = r.zone("table")
    assert r.decision.role == "blue" and r.options() == table  # any face-up card of the table
    asked = r.play("Planning")
    assert asked == [("blue", "take")] * 2 + [("yellow", "take")] * 2 + [("red", "take")] * 2
    assert all(len(r.owned("hand", p)) == 7 for p in r.players)
    assert len(r.zone("table")) == 3 and len(r.zone("deck")) == deck - 6


def test_planning_three_cards_in_order_and_one_discarded():
    r = Race(3)
    r.set("start_player", "red")
    r.hand("red", "swords 6", "arrow 5", "drop 4", "shield 3", "brick 3", "lumber 3", "lumber 5")
    r.start("Planning")
    assert r.decision.role == "red" and r.decision.label == "first_card"
    r.choose("drop 4").choose("swords 6").choose("shield 3")
    assert r.decision.label == "discard" and r.options() == ["arrow 5", "brick 3", "lumber 3", "lumber 5"]
    r.choose("lumber 5")
    assert r.owned("plan", "red") == ["drop 4", "swords 6", "shield 3"]  # left to right: the first step first
    assert r.owned("hand", "red") == ["arrow 5", "brick 3", "lumber 3"]
    assert r.zone("discard") == ["lumber 5"]
    assert r.decision.role == "blue" and r.decision.label == "first_card"
    # the plan, the hand and the discard are face down: the others see how many, not which
    seen = str(r.viewer.observe(r.st, "blue"))
    assert not [c for c in ("drop 4", "swords 6", "shield 3", "lumber 5", "arrow 5") if c in seen]


# ---------------------------------------------------------------- order of play

@pytest.mark.parametrize("start, order", [("blue", ["yellow", "red", "blue"]), ("yellow", ["yellow", "red", "blue"]),
                                          ("red", ["red", "yellow", "blue"])])
def test_highest_number_first_ties_from_the_starting_player_clockwise(start, order):
    r = Race(3, track=STRAIGHT).moves(5).set("start_player", start)
    r.plan("red", "drop 4", "drop 1", "drop 2")
    r.plan("blue", "drop 2", "drop 6", "drop 3")
    r.plan("yellow", "shield 4", "shield 2", "shield 5")
    r.start("Action phase")
    asked = r.play()
    # with a die of 5 each player says how far to move in the first two steps (4 and 4, 2 in step 2)
    assert [role for role, label in asked if label == "how_far"] == order + ["blue", "yellow", "red"]


# ---------------------------------------------------------------- movement


def test_at_least_one_space_a_step_and_exactly_the_die_over_the_turn():
    r = Race(2, track=STRAIGHT).moves(6)
    r.plan("red", "drop 6", "drop 5", "drop 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")
    assert (r.decision.role, r.options()) == ("red", ["1", "2", "3", "4"])  # one space is kept for each later step
    r.choose("2")
    assert (r.decision.role, r.options()) == ("blue", ["1", "2", "3", "4"])
    r.choose("1")
    assert r.at("red") == (3, 1) and r.at("blue") == (2, 1)
    assert r.options() == ["1", "2", "3"]  # red in step 2: 4 moves left, one kept for step 3
    r.choose("1")
    assert r.decision.label == "move" and r.options() == ["track 2,1", "track 4,1"]  # back or on
    r.choose("track 4,1")
    r.choose("3")  # blue
    r.play(answer=r.forward())  # step 3: all the moves left, no question how far
    assert r.at("red") == (7, 1) and r.at("blue") == (7, 1)  # six spaces each, on one space together


def test_a_die_of_3_is_one_space_a_step():
    r = Race(2, track=STRAIGHT).moves(3)
    r.plan("red", "drop 6", "drop 5", "drop 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")
    asked = r.play(answer=r.forward())
    assert {label for _, label in asked} == {"move"}  # never how far: only back or on, in step 3
    assert r.game.step_name(r.st) == "Draw cards" and r.get("step_number") == 0  # the next turn
    assert r.at("red") == (4, 1) and r.at("blue") == (4, 1)


def test_never_onto_an_arrow_nor_back_onto_the_start():
    r = Race(2, track="S.>..F").moves(3)
    r.place("red", 2, 1).place("blue", 1, 1)
    r.plan("red", "brick 6", "lumber 5", "shield 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")
    assert r.at("red") == (2, 1)  # blocked every step: the moves are lost
    assert r.at("blue") == (2, 1)  # one step onto the track, then blocked


def test_blocked_ahead_a_player_moves_back_to_complete_the_die():
    """"You must move at least one space each step" and "complete the total number of
    moves": nothing forbids moving backwards, so a player blocked ahead steps back."""
    r = Race(2, track="S..>..F").moves(3)
    r.place("red", 3, 1).place("blue", 1, 1)
    r.plan("red", "brick 6", "lumber 5", "shield 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")  # one way at every move: nothing is asked
    assert r.game.step_name(r.st) == "Draw cards"
    # red: back to (2,1) (the arrow ahead), on to (3,1), back to (2,1); blue: (2,1), (3,1), (2,1)
    assert r.at("red") == (2, 1) and r.at("blue") == (2, 1)


def test_onto_brick_or_lumber_only_with_that_card_in_this_step():
    # (3,6) is brick: red with Brick climbs it, blue with Lumber is stopped in front of it
    r = Race(2).moves(3)
    r.place("red", 2, 6).place("blue", 2, 6)
    r.plan("red", "brick 6", "drop 5", "lumber 4")
    r.plan("blue", "lumber 6", "brick 5", "drop 4")
    r.start("Action phase").play(answer=r.forward())
    assert r.at("red") == (5, 6)  # brick in step 1, plain (4,6) in step 2, plain (5,6) in step 3
    assert r.at("blue") == (4, 6)  # stuck in step 1, brick in step 2, plain in step 3


def test_climbing_lumber_and_brick_along_the_track():
    r = Race(2).moves(3)
    r.place("red", 5, 6)  # lumber at (6,6), plain (7,6), brick (8,6)
    r.plan("red", "lumber 6", "drop 5", "brick 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase").play(answer=r.forward())
    assert r.at("red") == (8, 6)


def test_swords_before_or_after_moving():
    for timing, hit in ((ACT_FIRST, False), ("move then act", True)):
        r = Race(2, track=STRAIGHT).moves(3)
        r.place("red", 2, 1).place("blue", 4, 1)
        r.plan("red", "swords 6", "drop 5", "drop 4")
        r.plan("blue", "brick 1", "lumber 2", "brick 3")
        r.start("Action phase")
        assert r.decision.label == "timing" and r.options() == [ACT_FIRST, "move then act"]
        r.choose(timing)
        # blue is two spaces away before red moves, next to red after
        assert r.life("blue") == (2 if hit else 3)


# ---------------------------------------------------------------- swords

def test_swords_strike_the_same_or_an_adjacent_space_not_diagonally_nor_across_a_gap():
    r = Race(4).moves(3)
    r.place("red", 10, 5)  # brick between the top run and the middle run
    r.place("blue", 9, 6)  # diagonal
    r.place("yellow", 10, 4)  # below: next to it
    r.place("green", 9, 4)  # diagonal
    r.plan("red", "swords 6", "shield 1", "shield 2")
    r.plan("blue", "shield 3", "shield 4", "shield 5")
    r.plan("yellow", "lumber 1", "brick 2", "brick 1")  # no Drop: the blow stays
    r.plan("green", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert [r.life(p) for p in r.players] == [3, 3, 2, 3]


def test_swords_choose_whom_to_strike_when_several_are_in_reach():
    r = Race(3).moves(3)
    r.place("red", 4, 6).place("blue", 4, 6).place("yellow", 5, 6)
    r.plan("red", "swords 6", "drop 1", "drop 2")
    r.plan("blue", "drop 3", "drop 4", "drop 5")
    r.plan("yellow", "brick 1", "brick 2", "lumber 1")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert r.decision.label == "strike" and r.options() == ["blue", "yellow"]
    r.choose("yellow")
    assert [r.life(p) for p in r.players] == [3, 3, 2]


def test_a_shield_stops_the_sword():
    r = Race(2).moves(3)
    r.place("red", 4, 6).place("blue", 5, 6)
    r.plan("red", "swords 6", "drop 1", "drop 2")
    r.plan("blue", "shield 1", "lumber 4", "brick 5")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert r.life("blue") == 3


def test_players_at_the_start_cannot_be_struck():
    r = Race(2).moves(3)
    r.place("red", 2, 6)  # blue waits at the start, next to it
    r.plan("red", "swords 6", "drop 1", "drop 2")
    r.plan("blue", "lumber 3", "brick 4", "brick 5")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert r.life("blue") == 3


def test_players_at_the_start_cannot_strike():
    """The start is not a square of the track: a player waiting there neither strikes nor is struck."""
    r = Race(2).moves(3)
    r.place("red", 2, 6)  # next to the start, where blue waits
    r.plan("blue", "swords 6", "drop 1", "drop 2")
    r.plan("red", "lumber 3", "brick 4", "brick 5")
    r.start("Action phase")
    assert r.decision.role == "blue" and r.decision.label == "timing"
    r.choose(ACT_FIRST)  # strike before moving off the start: no one in reach
    assert r.life("red") == 3


# ---------------------------------------------------------------- arrows

def test_an_arrow_volley_is_stopped_by_brick():
    # yellow plays Arrow: every arrow fires. (11,6) fires west over (10,6) and (9,6) and stops
    # at the brick on (8,6): green behind it is safe, and so is a player on the brick itself.
    r = Race(4).moves(3)
    r.place("red", 10, 6).place("blue", 9, 6).place("green", 7, 6).place("yellow", 8, 6)
    r.plan("yellow", "arrow 6", "drop 1", "drop 2")
    r.plan("red", "brick 1", "brick 2", "brick 3")
    r.plan("blue", "lumber 1", "lumber 2", "lumber 3")
    r.plan("green", "shield 1", "shield 2", "shield 3")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert {p: r.life(p) for p in r.players} == {"red": 2, "blue": 2, "yellow": 3, "green": 3}


def test_two_arrows_hit_twice_and_lumber_shelters():
    # (3,4) lies in the line of (1,4) firing east and (3,1) firing north; (2,4) only in the first;
    # (1,4)'s line stops at the lumber on (5,4), and (3,1)'s at the brick on (3,6)
    r = Race(4).moves(3)
    r.place("red", 3, 4).place("blue", 2, 4).place("yellow", 5, 4).place("green", 3, 6)
    r.plan("yellow", "arrow 6", "drop 1", "drop 2")
    r.plan("red", "shield 1", "brick 2", "brick 3")
    r.plan("blue", "lumber 1", "lumber 2", "lumber 3")
    r.plan("green", "drop 3", "drop 4", "drop 5")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert {p: r.life(p) for p in r.players} == {"red": 3, "blue": 2, "yellow": 3, "green": 3}  # red's shield
    r = Race(4).moves(3)
    r.place("red", 3, 4).place("blue", 2, 4).place("yellow", 5, 4).place("green", 3, 6)
    r.plan("yellow", "arrow 6", "drop 1", "drop 2")
    r.plan("red", "brick 1", "brick 2", "brick 3")
    r.plan("blue", "lumber 1", "lumber 2", "lumber 3")
    r.plan("green", "drop 3", "drop 4", "drop 5")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert {p: r.life(p) for p in r.players} == {"red": 1, "blue": 2, "yellow": 3, "green": 3}


def test_the_archer_is_hit_by_the_arrows_too():
    r = Race(2).moves(3)
    r.place("red", 9, 6)
    r.plan("red", "arrow 6", "brick 1", "brick 2")
    r.plan("blue", "drop 3", "drop 4", "drop 5")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert r.life("red") == 2


def test_a_shield_against_a_sword_and_an_arrow_in_one_step():
    # red strikes blue on (4,4), moves on to (3,4), and yellow's Arrow fires (1,4) east over
    # (2,4)-(4,4) and (3,1) north over (3,4): blue's Shield stops the blow and the arrow;
    # red is hit by both arrows
    for shield, blue_life in ((True, 3), (False, 1)):
        r = Race(3).moves(3)
        r.place("red", 4, 4).place("blue", 4, 4).place("yellow", 5, 6)
        r.plan("red", "swords 6", "brick 1", "brick 2")
        r.plan("yellow", "arrow 5", "brick 3", "brick 4")
        r.plan("blue", "shield 1" if shield else "lumber 4", "lumber 1", "lumber 2")
        r.start("Action phase")
        r.choose(ACT_FIRST)  # red
        r.choose(ACT_FIRST)  # yellow
        assert (r.life("red"), r.life("blue"), r.life("yellow")) == (1, blue_life, 3)


def test_the_shield_lasts_only_its_step():
    r = Race(2).moves(3)
    r.place("red", 4, 6).place("blue", 5, 6)
    r.plan("red", "swords 6", "swords 5", "drop 1")
    r.plan("blue", "shield 1", "lumber 4", "brick 2")
    r.start("Action phase")
    r.choose(ACT_FIRST)  # step 1: shielded
    assert r.life("blue") == 3
    r.choose(ACT_FIRST)  # step 2: red has moved onto blue's space (blue is stopped by the lumber); no shield now
    assert r.life("blue") == 2


# ---------------------------------------------------------------- drop and knock-outs

def test_drop_heals_one_up_to_three():
    r = Race(2).moves(3)
    r.place("red", 4, 6).place("blue", 4, 6)
    r.set("life", 2, "red")
    r.plan("red", "drop 6", "brick 5", "brick 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")
    assert r.life("red") == 3 and r.life("blue") == 3  # not beyond three


def test_knocked_out_for_the_rest_of_the_turn_and_the_next_then_back_with_3():
    r = Race(3).moves(3).set("start_player", "red")
    r.place("red", 2, 4).place("blue", 4, 6).place("yellow", 5, 6)
    r.set("life", 1, "red")
    r.plan("yellow", "arrow 6", "drop 1", "drop 2")
    r.plan("red", "drop 5", "drop 4", "drop 3")
    r.plan("blue", "swords 4", "swords 3", "swords 5")
    r.start("Action phase")
    r.choose(ACT_FIRST)
    assert r.life("red") == 0 and r.get("knocked_out", "red") == 2
    r.play(answer=acting_first)
    assert r.at("red") == (2, 4) and r.life("red") == 0  # no moving, no healing
    assert r.get("knocked_out", "red") == 1
    # the next turn: no drawing, planning or moving; back with 3 life points at its end
    hand = r.owned("hand", "red")
    asked = r.next_turn().play(answer=acting_first)
    assert ("blue", "take") in asked and ("blue", "first_card") in asked
    assert all(role != "red" for role, _ in asked) and r.owned("hand", "red") == hand
    assert r.at("red") == (2, 4)
    assert r.life("red") == 3 and r.get("knocked_out", "red") == 0
    assert ("red", "take") in r.next_turn().play("Planning")


def test_a_knocked_out_player_is_not_hit_again():
    # blue, off the track at the start, fires three times along row 6 at red on (9,6)
    r = Race(2).moves(3)
    r.place("red", 9, 6)
    r.set("life", 1, "red")
    r.plan("red", "shield 1", "drop 2", "drop 3")
    r.plan("blue", "arrow 6", "arrow 5", "arrow 4")
    r.start("Action phase")
    r.choose(ACT_FIRST)  # step 1: red's Shield, revealed with blue's Arrow, guards red
    assert r.life("red") == 1
    r.choose(ACT_FIRST)  # step 2: red is knocked out (and does not heal)
    assert r.life("red") == 0 and r.get("knockouts") == 1
    r.choose(ACT_FIRST)  # step 3: not hit again
    assert r.life("red") == 0 and r.get("knockouts") == 1 and r.life("blue") == 3


# ---------------------------------------------------------------- turn end

def test_the_die_passes_left_and_the_table_is_filled_again():
    r = Race(3).set("start_player", "blue")
    r.start("Draw cards")
    r.play("Planning")
    assert len(r.zone("table")) == 3  # 9 turned up at set-up, 6 taken
    r.play()
    assert r.get("start_player") == "yellow" and r.decision.role == "yellow"
    assert len(r.zone("table")) == 9  # two new cards per player


def test_two_cards_a_player_are_turned_up_even_when_a_knocked_out_player_did_not_draw():
    r = Race(3).set("start_player", "red")
    r.set("knocked_out", 1, "blue")
    r.start("Draw cards")
    r.play("Planning")
    assert len(r.zone("table")) == 9 - 4  # red and yellow took two each; blue did not draw
    r.play(answer=r.forward())
    assert len(r.zone("table")) == 5 + 6  # "turn up two new cards per player"


def test_shuffle_the_discard_pile_into_the_deck_when_it_runs_out():
    r = Race(2)
    r.put("deck", *r.cards("swords 6"))
    r.put("discard", *r.cards("drop 1", "drop 2", "drop 3", "drop 4"))
    r.put("table")
    r.start("Turn end")
    # two cards a player: the deck's one, then the discard pile shuffled into a new deck
    assert len(r.zone("table")) == 4 and r.zone("table")[0] == "swords 6"
    assert len(r.zone("deck")) == 1 and r.zone("discard") == []
    assert sorted(r.zone("table")[1:] + r.zone("deck")) == ["drop 1", "drop 2", "drop 3", "drop 4"]


# ---------------------------------------------------------------- the end

def reach_end(red_life: int, blue_life: int, blue_from: tuple[int, int]) -> Race:
    """Red one space before the end, blue further back; both reach it this turn."""
    r = Race(2).moves(3)
    r.place("red", 11, 2).place("blue", *blue_from)
    r.set("life", red_life, "red").set("life", blue_life, "blue")
    r.plan("red", "brick 2", "brick 3", "brick 4")
    r.plan("blue", "lumber 6", "lumber 5", "lumber 4")
    r.start("Action phase").play(answer=r.forward())
    return r


def test_reaching_the_end_most_life_wins():
    r = reach_end(red_life=2, blue_life=3, blue_from=(10, 2))  # red there in step 1, blue in step 2
    assert (r.get("reached_step", "red"), r.get("reached_step", "blue")) == (1, 2)
    assert r.outcome()["results"] == {"red": "lose", "blue": "win"}


def test_reaching_the_end_tied_on_life_earliest_step_wins():
    r = reach_end(red_life=3, blue_life=3, blue_from=(10, 2))
    assert r.outcome()["results"] == {"red": "win", "blue": "lose"}


def test_reaching_the_end_tied_on_life_and_step_the_first_to_step_on_it_wins():
    r = reach_end(red_life=2, blue_life=2, blue_from=(11, 2))  # both in step 1: blue's 6 before red's 2
    assert r.get("reached_step", "red") == r.get("reached_step", "blue") == 1
    assert r.outcome()["results"] == {"red": "lose", "blue": "win"}


def test_a_drop_played_on_the_move_that_reaches_the_end_heals():
    """The rulebook lets a player act before or after moving: the Drop of the step in
    which a player reaches the end still heals, and decides the tie on life points."""
    r = Race(2).moves(3)
    r.place("red", 11, 2).place("blue", 11, 2)
    r.set("life", 2, "red").set("life", 3, "blue")
    r.plan("red", "drop 6", "brick 1", "brick 2")
    r.plan("blue", "brick 5", "brick 3", "brick 4")
    r.start("Action phase")
    assert r.get("reached_step", "red") == r.get("reached_step", "blue") == 1
    assert r.life("red") == 3  # healed on arriving
    assert r.outcome()["results"] == {"red": "win", "blue": "lose"}  # tied on life: red stepped on the end first


def test_an_arrow_played_on_the_move_that_reaches_the_end_fires_after_it():
    r = Race(2).moves(3)
    r.place("red", 11, 2).place("blue", 2, 4)  # blue in the line of (1,4) firing east
    r.plan("red", "arrow 6", "brick 1", "brick 2")
    r.plan("blue", "lumber 1", "lumber 2", "lumber 3")
    r.start("Action phase")
    assert r.decision.label == "timing"
    r.choose("move then act")
    assert r.get("reached_step", "red") == 1 and r.life("blue") == 2 and r.life("red") == 3


def test_a_player_at_the_end_takes_no_part_in_the_later_steps():
    r = Race(2).moves(3)
    r.place("red", 11, 2).place("blue", 2, 6)
    r.set("life", 1, "red")
    r.plan("red", "brick 6", "drop 5", "drop 4")  # at the end in step 1; the Drops of steps 2 and 3 do nothing
    r.plan("blue", "brick 1", "drop 2", "drop 3")
    r.start("Action phase").play(answer=r.forward())
    assert r.get("reached_step", "red") == 1 and r.life("red") == 1


def test_the_game_ends_at_the_end_of_the_turn_in_which_someone_reached_the_end():
    r = Race(2).moves(3)
    r.place("red", 11, 2)
    r.plan("red", "brick 6", "brick 5", "brick 4")
    r.plan("blue", "drop 1", "drop 2", "drop 3")
    r.start("Action phase")
    assert r.st.outcome is not None and r.outcome()["reason"] == "reached_the_end"
    assert r.outcome()["places"] == {"red": 1, "blue": 2} and r.outcome()["rounds"] == 1
    assert r.at("red") == (12, 2)


def test_a_malformed_track_is_a_located_error():
    from helpers import refusal
    text = "extends: gauntlet-race\ngame: bad-track\nzones:\n  track:\n    map: |\n      S.B.X..F\n"
    d = refusal(text, "bad-track.yaml")[0]
    assert "'X' is not in the legend" in d.message and (d.span.line, d.span.col) == (6, 11)


def test_the_turn_limit_ends_a_game_nobody_finishes_nearest_the_end_first():
    """Not in the rulebook (ruling turn-limit): computer players who wander the track for ever."""
    r = Race(2, turn_limit=10)
    r.place("red", 8, 2).place("blue", 3, 6)
    r.st.round = 10
    r.start("Turn end")
    out = r.outcome()
    assert out["reason"] == "out_of_turns" and out["results"] == {"red": "win", "blue": "lose"}
    assert out["ranked_by"] == "to_go"
