"""No Thanks!, written from the docs alone (tests/printing/no-thanks.yaml): a chip paid passes the card
on, a card taken brings its chips and its taker decides on the next, a player without chips must take,
and a run of cards counts only its lowest; whole games are held to a plain model of the rules."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

NO_THANKS = Path(__file__).resolve().parent / "printing" / "no-thanks.yaml"


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(NO_THANKS)))


def number(game, card: int) -> int:
    return game.ruleset.cards[card].values["number"]


def on_offer(game, st) -> int:
    (card,) = st.zones[game.zone_index("offer")]
    return card


def test_paying_passes_the_card_on_and_taking_brings_its_chips(game):
    st = game.new_state(1)
    offered = on_offer(game, st)
    game.apply(st, 0)  # Amy pays
    assert game.decision(st).role == "bo"  # the turn passed
    game.apply(st, 1)  # Bo takes: the card and Amy's chip
    assert offered in st.zones[game.zone_index("taken", owner="bo")]
    assert game.decision(st).role == "bo" and on_offer(game, st) != offered  # Bo decides on the next card


def total(cards: list[int], purse: int) -> int:
    held = set(cards)
    return sum(n for n in held if n - 1 not in held) - purse


def test_a_run_counts_only_its_lowest_card():
    assert total([10, 11, 12, 20], 3) == 10 + 20 - 3
    assert total([5, 7], 0) == 12


def purse(game, st, role: str) -> int:
    return st.vars[game.layout.var_slot["purse"] + game.layout.role_index[role]]


@pytest.mark.parametrize("seed", range(25))
def test_whole_games_play_as_the_rules_say(game, seed):
    """Every decision is a player's with chips; chips are never made or lost; a chip paid goes on the
    card; the totals are the model's (a run counts its lowest card, less the chips held)."""
    rng = random.Random(seed)
    st = game.new_state(seed)
    roles = game.roles
    while not game.is_terminal(st):
        d = game.decision(st)
        before = purse(game, st, d.role)
        assert before > 0
        assert sum(purse(game, st, r) for r in roles) + st.vars[game.layout.var_slot["pot"]] == 11 * len(roles)
        choice = rng.randrange(len(d.options))
        game.apply(st, choice)
        if d.options[choice] == ("pay",):
            assert purse(game, st, d.role) == before - 1
    held = {r: [number(game, c) for c in st.zones[game.zone_index("taken", owner=r)]] for r in roles}
    assert sum(map(len, held.values())) == 33 - 9
    assert game.outcome(st)["scores"] == {r: total(held[r], purse(game, st, r)) for r in roles}


def test_its_printed_rules_say_the_deck_the_card_on_offer_and_the_sum_as_a_player_would():
    text = (Path(__file__).resolve().parent / "golden" / "no-thanks-game.md").read_text(encoding="utf-8")
    assert "One card of each number, from 3 to 35." in text  # was a table of 33 rows, one copy each
    assert "Move the card on offer to the cards taken of the player to move." in text  # was "all cards in"
    assert "the sum of the numbers of the number cards in the player's cards taken" in text  # was "total number"
