"""For Sale, written from the docs alone (tests/printing/for-sale.yaml): houses bought at auction (a
pass takes the cheapest house for half the bid, the last bidder the best for the whole bid and starts the
next auction), then sold for cheques (the best house offered takes the biggest cheque). A plain model of
the rules plays along with the engine, the same answers given to both, and must offer the same choices
to the same players and end with the same money."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

FOR_SALE = Path(__file__).resolve().parent / "printing" / "for-sale.yaml"


@pytest.fixture(scope="module", params=[3, 4, 6])
def game(request):
    return Game(load_ruleset(str(FOR_SALE), {"players": str(request.param)}))


def value(game, card: int) -> int:
    values = game.ruleset.cards[card].values
    return values.get("value", values.get("amount"))


def model(game, st):
    """The rules in plain Python, as a generator: it yields (player, options) at every decision and is
    sent the index chosen; what chance dealt (the houses and cheques on offer, the first starter) it reads
    from the engine's state when the round it comes in begins."""
    roles = list(game.roles)
    zone = lambda name: list(st.zones[game.zone_index(name)])  # noqa: E731
    coins = dict.fromkeys(roles, 18 if len(roles) <= 4 else 14)
    owned = {p: [] for p in roles}
    money = dict.fromkeys(roles, 0)
    starter = st.vars[game.layout.var_slot["starter"]]
    for _ in range(30 // len(roles) - (2 if len(roles) == 3 else 0)):  # the auctions
        offer = zone("house_offer")
        bidding, bid, top = dict.fromkeys(roles, True), dict.fromkeys(roles, 0), 0
        while sum(bidding.values()) > 1:
            start = roles.index(starter)
            for p in [roles[(start + i) % len(roles)] for i in range(len(roles))]:
                if not (bidding[p] and sum(bidding.values()) > 1):
                    continue
                options = [0, *range(top + 1, coins[p] + 1)]
                n = options[(yield p, options)]
                if n == 0:
                    cheapest = min(offer, key=lambda c: value(game, c))
                    offer.remove(cheapest)
                    owned[p].append(cheapest)
                    coins[p] -= bid[p] - bid[p] // 2
                    bidding[p] = False
                else:
                    bid[p] = top = n
        (last,) = [p for p in roles if bidding[p]]
        owned[last] += offer
        coins[last] -= bid[last]
        starter = last
    while any(owned.values()):  # the sales
        cheques = zone("cheque_offer")
        offered = {}
        for p in roles:
            offered[p] = owned[p][(yield p, list(owned[p]))]
            owned[p].remove(offered[p])
        for p in sorted(roles, key=lambda p: -value(game, offered[p])):
            best = max(cheques, key=lambda c: value(game, c))
            cheques.remove(best)
            money[p] += value(game, best)
    yield None, ({p: coins[p] + money[p] for p in roles}, coins)


@pytest.mark.parametrize("seed", range(4))
def test_a_whole_game_follows_a_plain_model_of_the_rules(game, seed):
    rng = random.Random(seed)
    st = game.new_state(seed)
    rules = model(game, st)
    expected = next(rules)
    while not game.is_terminal(st):
        d = game.decision(st)
        who, options = expected
        assert d.role == who, (st.round, d.label)
        if d.label == "raise":
            assert [o[0] for o in d.options] == options
        else:
            assert d.label == "sell" and [o[0] for o in d.options] == options
        i = rng.randrange(len(d.options))
        game.apply(st, i)
        expected = rules.send(i)
    who, (wealth, coins) = expected
    assert who is None and {p: game.score(st, p) for p in game.roles} == wealth
    best = max((wealth[p], coins[p]) for p in game.roles)  # the richest; of those, the most coins left
    winners = {p for p in game.roles if (wealth[p], coins[p]) == best}
    results = game.outcome(st)["results"]
    assert {p for p, r in results.items() if r == ("win" if len(winners) == 1 else "draw")} == winners


def test_the_printed_rules_end_the_game_when_the_cheques_are_gone_and_say_the_bids_plainly():
    text = (Path(__file__).resolve().parent / "golden" / "for-sale.md").read_text(encoding="utf-8")
    assert "- The game ends in step 2 (Sell), when there are no cheques.\n" in text  # not "there are cheques and …"
    assert "(fewer if the cheques run out)" in text  # a plural zone's verb agrees
    assert "chooses a number N among 0 and any number from (*top bid* + 1) to their *coins*" in text  # no letter B
