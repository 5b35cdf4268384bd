"""Hearts (`tests/printing/hearts.yaml`, written from the docs alone): each of its rules and rulings on a
position arranged by hand, and the printed rules a player reads for them."""
from pathlib import Path

import pytest
from helpers import Position, compiled

HEARTS = str(Path(__file__).resolve().parent / "printing" / "hearts.yaml")
GOLDEN = Path(__file__).resolve().parent / "golden"
PLAYERS = ["player_1", "player_2", "player_3", "player_4"]


def hearts(seed: int = 0) -> Position:
    return Position(compiled(HEARTS), seed)


def deal(p: Position, *hands: list[str]) -> Position:
    """Each player's hand, by the cards' labels ("two of clubs"); the rest of the deck where it was."""
    for who, hand in zip(PLAYERS, hands):
        cards = [p.card("playing", rank=label.split(" of ")[0], suit=label.split(" of ")[1]) for label in hand]
        p.put("hand", *cards, owner=who)
    return p


def taken(p: Position, who: str, *labels: str) -> Position:
    cards = [p.card("playing", rank=label.split(" of ")[0], suit=label.split(" of ")[1]) for label in labels]
    return p.put("taken", *cards, owner=who)


HEARTS_ALL = [f"{r} of hearts" for r in ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                          "jack", "queen", "king", "ace"]]


@pytest.mark.parametrize("round_, to", [(1, "player_2"), (2, "player_4"), (3, "player_3"), (5, "player_2")])
def test_three_cards_pass_left_then_right_then_across(round_, to):
    p = hearts(1)
    p.st.round = round_
    p.start("Pass")
    assert p.decision.label == "pass" and len(p.options()) == 286  # any three of thirteen
    first = p.options()[0]
    p.choose(first)
    for _ in range(3):
        p.choose(p.options()[0])
    assert set(first.split(", ")) <= set(p.zone("hand", to)) and len(p.zone("hand", "player_1")) == 13


def test_the_fourth_hand_passes_nothing():
    p = hearts(1)
    p.st.round = 4
    p.start("Pass")
    assert p.decision.label == "play"


def test_the_two_of_clubs_leads_and_no_points_go_to_the_first_trick():
    p = deal(hearts(), ["king of diamonds", "two of clubs", "three of hearts"],
             ["ace of clubs", "five of diamonds", "four of hearts"],
             ["queen of spades", "five of hearts", "two of diamonds"],
             ["six of hearts", "seven of hearts", "three of diamonds"])
    p.start("Play the tricks")
    assert p.options() == ["two of clubs"]  # its holder leads it
    p.choose("two of clubs")
    assert p.options() == ["ace of clubs"]  # follow suit
    p.choose("ace of clubs")
    assert p.options() == ["two of diamonds"]  # no heart, no queen of spades, on the first trick
    p.choose("two of diamonds")
    assert p.options() == ["three of diamonds"]
    p.choose("three of diamonds")
    assert p.options() == ["five of diamonds"]  # player 2 took the trick; hearts are not broken: not led


def test_a_hand_of_nothing_but_points_plays_them_to_the_first_trick_and_breaks_hearts():
    p = deal(hearts(), ["two of clubs", "king of diamonds", "three of hearts"],
             ["ace of clubs", "five of diamonds", "four of hearts"],
             ["queen of spades", "five of hearts", "two of diamonds"],
             ["six of hearts", "seven of hearts", "queen of hearts"])
    p.start("Play the tricks")
    p.choose("two of clubs").choose("ace of clubs").choose("two of diamonds")
    assert p.options() == ["six of hearts", "seven of hearts", "queen of hearts"]
    p.choose("six of hearts")
    assert p.options() == ["five of diamonds", "four of hearts"]  # broken: hearts may be led
    assert p.zone("taken", "player_2") and not p.zone("taken", "player_4")


def test_a_player_holding_only_hearts_may_lead_one_before_they_are_broken():
    p = deal(hearts(), ["two of clubs", "king of diamonds", "three of hearts"],
             ["ace of clubs", "five of hearts", "four of hearts"],
             ["two of diamonds", "queen of spades", "ten of hearts"],
             ["three of diamonds", "seven of hearts", "queen of hearts"])
    p.start("Play the tricks")
    p.choose("two of clubs").choose("ace of clubs").choose("two of diamonds").choose("three of diamonds")
    assert p.options() == ["five of hearts", "four of hearts"]


def score(p: Position) -> list[int]:
    return [p.var("points", who) for who in PLAYERS]


def test_hearts_score_a_point_each_and_the_queen_of_spades_thirteen():
    p = hearts()
    taken(p, "player_1", *HEARTS_ALL[:5])
    taken(p, "player_2", "queen of spades", "ace of clubs")
    taken(p, "player_3", *HEARTS_ALL[5:])
    p.start("Score")
    assert score(p) == [5, 13, 8, 0]


def test_shooting_the_moon_gives_every_other_player_26():
    p = hearts()
    taken(p, "player_3", *HEARTS_ALL, "queen of spades", "two of clubs")
    p.set("points", 10, "player_1")
    p.start("Score")
    assert score(p) == [36, 26, 0, 26]


def test_the_game_ends_at_the_end_of_a_hand_with_someone_on_100_and_the_lowest_score_wins():
    p = hearts()
    for who, points in zip(PLAYERS, [95, 40, 30, 60]):
        p.set("points", points, who)
    taken(p, "player_1", *HEARTS_ALL[:6])
    taken(p, "player_3", "queen of spades")
    p.start("Score")
    assert compiled(HEARTS).is_terminal(p.st) and score(p) == [101, 40, 43, 60]
    outcome = compiled(HEARTS).outcome(p.st)
    assert outcome["reason"] == "hundred" and outcome["places"]["player_2"] == 1 and outcome["places"]["player_1"] == 4
    assert outcome["results"] == {"player_1": "lose", "player_2": "win", "player_3": "lose", "player_4": "lose"}


def test_the_printed_rules_say_the_rules_of_hearts():
    rules = (GOLDEN / "hearts.md").read_text(encoding="utf-8").replace("\\", "")
    assert "For every player: that player chooses three playing cards in their hand" in rules
    assert "When the game ends, the player with the lowest *points* wins" in rules
    assert "If that playing card is a heart or the queen of spades: hearts are now broken." in rules
