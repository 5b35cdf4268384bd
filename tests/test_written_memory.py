"""Memory, written from the docs alone (tests/printing/memory.yaml): a pair is kept and its finder goes
again, a miss is turned back where it lay and the turn passes, and what lies face down stays secret."""
import json
from pathlib import Path

import pytest

from interpreter.agents.base import PlayerView
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset

MEMORY = Path(__file__).resolve().parent / "printing" / "memory.yaml"


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(MEMORY)))


def picture(game, card: int) -> str:
    return game.ruleset.cards[card].values["picture"]


def turn(game, st, want_pair: bool) -> tuple[int, int]:
    """Turn a first card, then one of the same picture (or not): the two cards turned."""
    first = game.decision(st).options[0][0]
    game.apply(st, 0)
    options = [o[0] for o in game.decision(st).options]
    second = next(c for c in options if (picture(game, c) == picture(game, first)) == want_pair)
    game.apply(st, options.index(second))
    return first, second


def test_a_pair_is_kept_and_its_finder_goes_again(game):
    st = game.new_state(5)
    first, second = turn(game, st, want_pair=True)
    assert {first, second} <= set(st.zones[game.zone_index("pairs", owner="ann")])
    assert game.decision(st).role == "ann"


def test_a_miss_is_turned_face_down_where_it_lay_and_the_turn_passes(game):
    st = game.new_state(5)
    first, second = turn(game, st, want_pair=False)
    assert not st.face_up[first] and not st.face_up[second]
    assert st.where[first] == game.zone_index("table", space=(1, 1))  # the first option: the bottom left
    assert game.decision(st).role == "ben"


def test_a_face_down_card_is_named_to_no_one(game):
    st = game.new_state(5)
    viewer = Viewer(game)
    options = PlayerView(game, viewer, st).options
    assert all(o.endswith("face down") for o in options)  # where each lies, never what
    first, second = turn(game, st, want_pair=False)
    seen = json.dumps(viewer.observe(st, "ben"))  # both turned back: no picture on the table is named
    assert not any(p in seen for p in ("sun", "moon", "star", "tree", "fish", "bird", "boat", "house"))


def test_every_game_ends_with_every_pair_taken(game):
    from interpreter.agents.match import play
    from interpreter.agents.simple import RandomAgent
    for seed in range(30):
        outcome = play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}).outcome
        assert sum(outcome["scores"].values()) == 8


def test_the_second_card_chosen_is_the_second_and_the_first_the_first():
    text = (Path(__file__).resolve().parent / "golden" / "memory-game.md").read_text(encoding="utf-8")
    assert "The player to move chooses another picture card on the table that is face down, then:" in text
    assert "Turn face up the second picture card." in text  # was "the other picture card": the first, it read
    assert "If the first picture card has the same picture as the second picture card" in text
