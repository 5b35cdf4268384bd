"""Dominoes, written from the docs alone (tests/printing/dominoes.yaml): the highest double leads, a tile
is played where a half matches an open end, a player who cannot play draws until able or passes, and a
hand's winner (the first out of tiles, or the fewest pips when nobody can play) scores the pips left in the
others' hands. Each move is held to a plain model of the rules, which also foresees the draws, passes and
score that follow it, up to the next decision or the end of the hand."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

DOMINOES = Path(__file__).resolve().parent / "printing" / "dominoes.yaml"


@pytest.fixture(scope="module", params=[2, 3, 4])
def game(request):
    return Game(load_ruleset(str(DOMINOES), {"players": str(request.param), "target": "60"}))


def halves(game, tile: int) -> tuple[int, int]:
    values = game.ruleset.cards[tile].values
    return values["low"], values["high"]


def var(game, st, name: str) -> int:
    return st.vars[game.layout.var_slot[name]]


def table(game, st) -> dict:
    """What the model needs: each hand, the boneyard (its top last), the two open ends, the points."""
    return {"hands": {p: list(st.zones[game.zone_index("hand", owner=p)]) for p in game.roles},
            "bone": list(st.zones[game.zone_index("boneyard")]),
            "ends": [var(game, st, "left_end"), var(game, st, "right_end")],
            "points": {p: game.score(st, p) for p in game.roles}}


def plays(game, t: dict, p: str) -> list[tuple[int, str]]:
    """The model's legal plays, in hand order, the left end first."""
    return [(tile, side) for tile in t["hands"][p] for i, side in enumerate(("left", "right"))
            if t["ends"][i] in halves(game, tile)]


def after(game, t: dict, p: str, tile: int, side: str):
    """The model's game after p plays: (the next player to decide, the table then), or (None, the points
    each player scores this hand) once the hand is over."""
    roles, i = list(game.roles), ("left", "right").index(side)
    t["hands"][p].remove(tile)
    low, high = halves(game, tile)
    t["ends"][i] = high if low == t["ends"][i] else low
    passes = 0
    while all(t["hands"].values()) and passes < len(roles):
        p = roles[(roles.index(p) + 1) % len(roles)]
        while not plays(game, t, p) and t["bone"]:
            t["hands"][p].append(t["bone"].pop())
        if plays(game, t, p):
            return p, t
        passes += 1
    pips = {q: sum(sum(halves(game, x)) for x in t["hands"][q]) for q in roles}
    winner = min(roles, key=lambda q: pips[q])  # the first in seat order among equals
    return None, {q: sum(pips.values()) - pips[q] if q == winner else 0 for q in roles}


def lead_rank(game, tile: int) -> int:
    low, high = halves(game, tile)
    return 100 + low if low == high else low + high


@pytest.mark.parametrize("seed", range(6))
def test_every_move_follows_a_plain_model_of_the_rules(game, seed):
    rng = random.Random(seed)
    st = game.new_state(seed)
    expected, hands = None, 0
    while not game.is_terminal(st):
        d = game.decision(st)
        t = table(game, st)
        line = st.zones[game.zone_index("line")]
        if expected is None:  # a new hand: the highest double (else the most pips) dealt was set (the first
            hands += 1        # to play may have drawn since: the others' hands are as dealt)
            held = [x for p, h in t["hands"].items() if p != d.role for x in h]
            assert len(line) == 1 and all(lead_rank(game, line[0]) > lead_rank(game, x) for x in held)
        else:
            assert (d.role, t) == expected
        assert d.label == "play"
        options = [(o[0], o[1]) for o in d.options]
        assert options == plays(game, t, d.role)
        i = rng.randrange(len(options))
        tile, side = options[i]
        before = t["points"]
        nxt, foreseen = after(game, table(game, st), d.role, tile, side)
        game.apply(st, i)
        if nxt is not None:
            expected = (nxt, foreseen)
            placed = st.zones[game.zone_index("line")]
            assert (placed[0] if side == "left" else placed[-1]) == tile
        else:  # the hand is over: scored as foreseen, then dealt again (or the game is over)
            assert {p: game.score(st, p) - before[p] for p in game.roles} == foreseen
            expected = None
    outcome = game.outcome(st)
    best = max(game.score(st, p) for p in game.roles)
    assert best >= 60 and hands >= 1
    assert {p for p, r in outcome["results"].items() if r == "win"} == \
        ({p for p in game.roles if game.score(st, p) == best} if sum(game.score(st, p) == best for p in game.roles) == 1
         else set())


def test_a_hand_deals_seven_tiles_to_two_players_and_five_to_more():
    for players, size in ((2, 7), (3, 5), (4, 5)):
        g = Game(load_ruleset(str(DOMINOES), {"players": str(players)}))
        st = g.new_state(1)
        dealt = sum(len(st.zones[g.zone_index("hand", owner=p)]) for p in g.roles)
        drawn_since = 28 - len(st.zones[g.zone_index("boneyard")]) - 1  # the set tile is on the line
        assert dealt + 1 + len(st.zones[g.zone_index("boneyard")]) == 28 and drawn_since >= players * size - 1


def test_the_printed_rules_say_the_ends_the_assumed_hand_size_and_the_tiles_as_a_player_reads_them():
    text = (Path(__file__).resolve().parent / "golden" / "dominoes.md").read_text(encoding="utf-8")
    assert "such that that tile matches that side end" in text  # the text's "the {e} end": not "the that side"
    assert "- **The tiles dealt to each player**: seven for two players" in text  # not "Term hand size"
    assert "| high | lows | cards |" in text  # the tiles of a row differ: they are not copies


def test_the_play_area_says_how_tiles_lie_and_a_game_of_open_pieces_says_nothing():
    golden = Path(__file__).resolve().parent / "golden"
    assert "| zone | tiles lie | belongs to | laid out as |" in (golden / "dominoes.md").read_text(encoding="utf-8")
    assert "| zone | holds | belongs to | laid out as |" in (golden / "ludo-lite.md").read_text(encoding="utf-8")
