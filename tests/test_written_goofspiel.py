"""Goofspiel, written from the docs alone (tests/printing/goofspiel.yaml): each player bids a card of
their suit in secret for the prize turned up, the one highest bid takes it, a shared highest bid wins
nothing, and the bids are out of the game; whole games are held to a plain model of the rules."""
import json
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset

GOOFSPIEL = Path(__file__).resolve().parent / "printing" / "goofspiel.yaml"


@pytest.fixture(scope="module", params=[2, 3, 4])
def game(request):
    return Game(load_ruleset(str(GOOFSPIEL), {"players": str(request.param)}))


def cards(game, st, zone, owner=None) -> list[int]:
    return list(st.zones[game.zone_index(zone, owner=owner)])


def value(game, card: int) -> int:
    return game.ruleset.cards[card].values["value"]


def test_every_player_starts_with_one_card_of_each_rank(game):
    st = game.new_state(0)
    for p in game.roles:
        assert sorted(value(game, c) for c in cards(game, st, "hand", p)) == list(range(1, 14))
    assert len(cards(game, st, "prizes")) == 12 and len(cards(game, st, "shown")) == 1


@pytest.mark.parametrize("seed", range(12))
def test_whole_games_follow_a_plain_model_of_the_rules(game, seed):
    rng = random.Random(seed)
    st = game.new_state(seed)
    points = dict.fromkeys(game.roles, 0)
    while not game.is_terminal(st):
        (prize,) = cards(game, st, "shown")
        bids = {}
        for p in game.roles:  # each player bids in turn, in seat order
            d = game.decision(st)
            assert d.role == p and d.label == "bid"
            i = rng.randrange(len(d.options))
            bids[p] = d.options[i][0]
            game.apply(st, i)
        best = max(value(game, c) for c in bids.values())
        takers = [p for p, c in bids.items() if value(game, c) == best]
        if len(takers) == 1:
            points[takers[0]] += value(game, prize)
            assert prize in cards(game, st, "won", takers[0])
        else:
            assert prize in cards(game, st, "out")
        assert set(bids.values()) <= set(cards(game, st, "out"))
    assert st.round == 13 and not cards(game, st, "prizes")
    outcome = game.outcome(st)
    assert outcome["scores"] == points
    top = max(points.values())
    winners = [p for p in game.roles if points[p] == top]
    assert [p for p in game.roles if outcome["results"][p] == "win"] == (winners if len(winners) == 1 else [])


def test_a_shared_highest_bid_wins_nothing(game):
    st = game.new_state(3)
    (prize,) = cards(game, st, "shown")
    for _ in game.roles:  # every player bids their king
        d = game.decision(st)
        game.apply(st, next(i for i, (c,) in enumerate(d.options) if value(game, c) == 13))
    assert prize in cards(game, st, "out") and not any(cards(game, st, "won", p) for p in game.roles)


def test_no_bidder_is_shown_a_bid_before_all_are_shown(game):
    st = game.new_state(7)
    first = game.decision(st).options[5][0]
    game.apply(st, 5)
    seen = Viewer(game).observe(st, game.roles[1])
    assert seen["zones"]["bid of player_1"] == [None]  # a face-down card, not which
    assert f'"id": {first},' not in json.dumps(seen) and seen["events"][-1]["option"] == "a hidden card"
