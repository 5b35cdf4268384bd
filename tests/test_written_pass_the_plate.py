"""Pass the Plate, written from the docs alone (tests/printing/pass-the-plate.yaml): a drafting game —
every player keeps one dish of their hand in secret, then passes the rest to the left; the dishes kept
score at the end of each round (dumplings by a table, tempura by pairs, sashimi by threes, nigiri by value).
Whole games are held to a plain model of the rules."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset

PLATE = Path(__file__).resolve().parent / "printing" / "pass-the-plate.yaml"
DUMPLINGS = [0, 1, 3, 6, 10, 15]


@pytest.fixture(scope="module", params=[2, 4])
def game(request):
    return Game(load_ruleset(str(PLATE), {"players": str(request.param)}))


def held(game, st, zone, owner=None) -> list[int]:
    return list(st.zones[game.zone_index(zone, owner=owner)])


def points(game, plate: list[int]) -> int:
    dish = [game.ruleset.cards[c].values["dish"] for c in plate]
    nigiri = sum(game.ruleset.cards[c].values["value"] for c in plate if dish[plate.index(c)] == "nigiri")
    return DUMPLINGS[min(dish.count("dumpling"), 5)] + 5 * (dish.count("tempura") // 2) \
        + 10 * (dish.count("sashimi") // 3) + nigiri


@pytest.mark.parametrize("seed", range(6))
def test_whole_games_follow_a_plain_model_of_the_rules(game, seed):
    rng = random.Random(seed)
    roles = game.roles
    st = game.new_state(seed)
    score = dict.fromkeys(roles, 0)
    while not game.is_terminal(st):
        plates = {p: [] for p in roles}
        for _ in range(7):
            hands = {p: held(game, st, "hand", p) for p in roles}
            assert all(len(h) == len(hands[roles[0]]) for h in hands.values())
            kept = {}
            for p in roles:  # each keeps one, in seat order
                d = game.decision(st)
                assert d.role == p and sorted(o[0] for o in d.options) == sorted(hands[p])
                i = rng.randrange(len(d.options))
                kept[p] = d.options[i][0]
                game.apply(st, i)
            for i, p in enumerate(roles):
                plates[p].append(kept[p])
                rest = sorted(c for c in hands[p] if c != kept[p])
                if rest:  # the rest of the hand went to the player on the left (the round's last dish: none)
                    assert sorted(held(game, st, "hand", roles[(i + 1) % len(roles)])) == rest
        for p in roles:
            score[p] += points(game, plates[p])
    assert game.outcome(st)["scores"] == score and st.round == 3


def test_a_kept_dish_is_hidden_until_all_are_kept(game):
    st = game.new_state(2)
    first = game.decision(st).options[0][0]
    game.apply(st, 0)
    seen = Viewer(game).observe(st, game.roles[1])
    assert seen["zones"]["picked of player_1"] == [None]
    assert all(c is None for c in seen["zones"]["hand of player_1"])
    assert first not in [c["id"] for zone in seen["zones"].values() for c in zone if c]
