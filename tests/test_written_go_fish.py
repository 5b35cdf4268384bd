"""Go Fish, written from the docs alone (tests/printing/go-fish.yaml): a hit hands over every card of
the rank and the asker asks again, a miss draws and passes (unless the draw is the rank asked for),
books of four are laid down, and no player is shown another's hand."""
import json
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset

GO_FISH = Path(__file__).resolve().parent / "printing" / "go-fish.yaml"


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(GO_FISH)))


def hand(game, st, role):
    return list(st.zones[game.zone_index("hand", owner=role)])


def rank(game, card):
    return game.ruleset.cards[card].values["rank"]


@pytest.mark.parametrize("seed", range(20))
def test_each_ask_plays_as_the_rules_say(game, seed):
    rng = random.Random(seed)
    st = game.new_state(seed)
    while not game.is_terminal(st):
        d = game.decision(st)
        i = rng.randrange(len(d.options))
        asked, r = d.options[i]
        assert asked != d.role and any(rank(game, c) == r for c in hand(game, st, d.role))  # a rank one holds
        theirs = [c for c in hand(game, st, asked) if rank(game, c) == r]
        stock = list(st.zones[game.zone_index("stock")])
        game.apply(st, i)
        if theirs:  # every one of them handed over (then laid down in a book of four, or held), and ask again
            mine = hand(game, st, d.role) + list(st.zones[game.zone_index("books", owner=d.role)])
            assert set(theirs) <= set(mine) and not any(rank(game, c) == r for c in hand(game, st, asked))
        elif stock and rank(game, stock[-1]) != r and not game.is_terminal(st):
            assert game.decision(st).role != d.role or len(game.roles) == 1  # a miss passes the turn
    books = [len(st.zones[game.zone_index("books", owner=p)]) for p in game.roles]
    assert sum(books) == 52 and all(n % 4 == 0 for n in books)
    assert sum(game.outcome(st)["scores"].values()) == 13


def test_no_player_is_shown_another_players_hand(game):
    st = game.new_state(3)
    held = {game.ruleset.cards[c].values["rank"] + " of " + game.ruleset.cards[c].values["suit"]
            for c in hand(game, st, "alice")}
    seen = json.dumps(Viewer(game).observe(st, "bob"))
    assert held and not any(label in seen for label in held)
