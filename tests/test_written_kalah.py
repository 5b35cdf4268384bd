"""Kalah, written from the docs alone (tests/printing/kalah.yaml): its rules' examples played, and
whole games held to a plain model of the rules (sowing, the store skipped, another turn, capture,
the sweep at the end).

The board from South's side: pits s1..s6, South's store, then North's n1..n6 and store, sown in that
order round the board; n(7-i) lies opposite s(i)."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

KALAH = Path(__file__).resolve().parent / "printing" / "kalah.yaml"
ORDER = ["s1", "s2", "s3", "s4", "s5", "s6", "south_store", "n1", "n2", "n3", "n4", "n5", "n6", "north_store"]
STORE = {"south": 6, "north": 13}


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(KALAH)))


def board(game, st) -> list[int]:
    return [len(st.zones[game.zone_index("board", place=p)]) for p in ORDER]


def sow(game, st, place):
    game.apply(st, game.decision(st).options.index((game.zone_index("board", place=place),)))


def model_sow(b: list[int], who: str, pit: int) -> str:
    """The rules as a player plays them, on counts; returns who moves next."""
    mine, theirs = STORE[who], STORE["north" if who == "south" else "south"]
    n, b[pit], pos = b[pit], 0, pit
    while n:
        pos = (pos + 1) % 14
        if pos != theirs:
            b[pos] += 1
            n -= 1
    if pos != mine and (pos < 6) == (who == "south") and b[pos] == 1 and b[12 - pos]:
        b[mine] += b[pos] + b[12 - pos]
        b[pos] = b[12 - pos] = 0
    if not any(b[0:6]) or not any(b[7:13]):
        b[6] += sum(b[0:6])
        b[13] += sum(b[7:13])
        b[0:6] = b[7:13] = [0] * 6
    return who if pos == mine else ("north" if who == "south" else "south")


def test_a_last_seed_in_your_store_gives_you_another_turn(game):
    st = game.new_state(0)
    sow(game, st, "s3")  # 4 seeds: s4, s5, s6, South's store
    assert board(game, st)[2:7] == [0, 5, 5, 5, 1] and game.decision(st).role == "south"


def test_the_seeds_go_on_round_the_board_and_the_turn_passes(game):
    st = game.new_state(0)
    sow(game, st, "s6")  # 4 seeds: South's store, n1, n2, n3
    assert board(game, st)[5:10] == [0, 1, 5, 5, 5] and game.decision(st).role == "north"


def test_a_last_seed_in_an_empty_pit_of_yours_captures_it_and_the_seeds_opposite(game):
    st = game.new_state(0)
    sow(game, st, "s1")  # s2 .. s5: North's turn
    sow(game, st, "n4")  # n5, n6, North's store, s1 (South's pit: nothing for North to capture)
    sow(game, st, "s2")  # 5 seeds: s3 .. s6, South's store: South again
    assert board(game, st)[11] == 5 and game.decision(st).role == "south"
    sow(game, st, "s1")  # 1 seed into s2, empty: it and n5's 5 seeds opposite go to South's store
    assert board(game, st) == [0, 0, 6, 6, 6, 5, 7, 4, 4, 4, 0, 0, 5, 1]
    assert game.decision(st).role == "north"


@pytest.mark.parametrize("seed", range(40))
def test_whole_games_play_as_the_rules_say(game, seed):
    rng = random.Random(seed)
    st = game.new_state(seed)
    b, who, captures = [4] * 6 + [0] + [4] * 6 + [0], "south", 0
    while not game.is_terminal(st):
        d = game.decision(st)
        assert d.role == who
        option = rng.randrange(len(d.options))
        pit = ORDER.index(game.ruleset.zones["board"].places[d.options[option][0] - game.layout.zone_base["board"]])
        stores = b[6] + b[13]
        who = model_sow(b, who, pit)
        captures += b[6] + b[13] - stores > 1
        game.apply(st, option)
        assert board(game, st) == b
    assert sum(b) == 48 and b[6] + b[13] == 48
    scores = game.outcome(st)["scores"]
    assert (scores["south"], scores["north"]) == (b[6], b[13])
