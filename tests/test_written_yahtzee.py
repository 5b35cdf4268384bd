"""Yahtzee, written from the docs alone (tests/printing/yahtzee.yaml): its rules' examples played with
dice thrown by hand, and whole games held to a plain model of the score sheet (each box once, the 35
points for ones to sixes at 63, 100 more for each Yahtzee after one scored for 50)."""
import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

YAHTZEE = Path(__file__).resolve().parent / "printing" / "yahtzee.yaml"
UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]


def model_points(category: str, faces: list[int]) -> int:
    """A box's points for five dice, as the rulebook states them."""
    counts = Counter(faces)
    if category in UPPER:
        n = UPPER.index(category) + 1
        return n * counts[n]
    straight = max(k for k in range(1, 6) if any(all(x in counts for x in range(lo, lo + k)) for lo in range(1, 7 - k + 1)))
    return {"three_of_a_kind": sum(faces) if max(counts.values()) >= 3 else 0,
            "four_of_a_kind": sum(faces) if max(counts.values()) >= 4 else 0,
            "full_house": 25 if sorted(counts.values()) == [2, 3] else 0,
            "small_straight": 30 if straight >= 4 else 0,
            "large_straight": 40 if straight == 5 else 0,
            "yahtzee": 50 if len(counts) == 1 else 0,
            "chance": sum(faces)}[category]


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(YAHTZEE)), explicit_chance=True)


def throw(game, st, faces):
    for f in faces:
        assert game.chance(st).count == 6
        game.apply_chance(st, f - 1)


def choose(game, st, option):
    d = game.decision(st)
    game.apply(st, d.options.index((option,)))


def faces(game, st) -> list[int]:
    return [game.state_of(st, c, "face") for c in game.cards("die")]


def category(game, card: int) -> str:
    return game.ruleset.cards[card].values["category"]


def score(game, st, cat: str) -> int:
    """Score the dice in the current player's box `cat`: its points."""
    d = game.decision(st)
    assert d.site.label == "box"
    box = next(o[0] for o in d.options if category(game, o[0]) == cat)
    game.apply(st, d.options.index((box,)))
    return game.state_of(st, box, "points")


def test_a_full_house_scores_25_or_its_sum_as_three_of_a_kind(game):
    st = game.new_state(0)
    throw(game, st, [3, 3, 3, 5, 5])
    choose(game, st, "stop")
    as_three, as_four = game.clone(st), game.clone(st)
    assert score(game, st, "full_house") == 25
    assert score(game, as_three, "three_of_a_kind") == 19 and score(game, as_four, "four_of_a_kind") == 0


def test_dice_rolled_again_are_the_chosen_ones_only(game):
    st = game.new_state(0)
    throw(game, st, [1, 2, 3, 4, 6])
    choose(game, st, "roll_again")
    for _ in range(4):
        choose(game, st, "keep")
    choose(game, st, "reroll")
    throw(game, st, [5])
    assert faces(game, st) == [1, 2, 3, 4, 5]
    choose(game, st, "stop")
    assert score(game, st, "large_straight") == 40


def test_three_rolls_at_most_then_the_dice_are_scored(game):
    st = game.new_state(0)
    throw(game, st, [6, 6, 1, 2, 3])
    for again in ([4, 5, 6], [6, 6, 6]):
        choose(game, st, "roll_again")
        choose(game, st, "keep")
        choose(game, st, "keep")
        for face in again:  # each die is rolled as it is chosen
            choose(game, st, "reroll")
            throw(game, st, [face])
    assert game.decision(st).site.label == "box"  # no third chance to roll again
    assert score(game, st, "yahtzee") == 50


def test_a_second_yahtzee_after_one_scored_for_50_scores_100_more(game):
    st = game.new_state(0)
    for player, box in (("player_1", "yahtzee"), ("player_2", "twos"), ("player_1", "twos")):
        throw(game, st, [2] * 5)
        choose(game, st, "stop")
        assert game.decision(st).role == player
        score(game, st, box)
    assert game.score(st, "player_1") == 50 + 10 + 100 and game.score(st, "player_2") == 10


@pytest.mark.parametrize("seed", range(12))
def test_whole_games_score_as_the_sheet_says(seed):
    game = Game(load_ruleset(str(YAHTZEE)))
    rng = random.Random(seed)
    st = game.new_state(seed)
    sheets: dict[str, dict[str, int]] = {"player_1": {}, "player_2": {}}
    bonus = Counter()
    while not game.is_terminal(st):
        d = game.decision(st)
        option = rng.randrange(len(d.options))
        if d.site.label == "box":
            dice = faces(game, st)
            sheet = sheets[d.role]
            if len(set(dice)) == 1 and sheet.get("yahtzee") == 50:
                bonus[d.role] += 100
            cat = category(game, d.options[option][0])
            assert cat not in sheet  # each box once
            sheet[cat] = model_points(cat, dice)
        game.apply(st, option)
    for role, sheet in sheets.items():
        assert len(sheet) == 13
        upper = sum(sheet[c] for c in UPPER)
        assert game.outcome(st)["scores"][role] == sum(sheet.values()) + (35 if upper >= 63 else 0) + bonus[role]
