"""Reversi, written from the docs alone (tests/printing/reversi.yaml): a disc must enclose a straight row
of the other colour's discs, every enclosed disc turns over, a player who cannot place passes, and the
game ends when neither can. Positions are checked against a plain model of the rules."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

REVERSI = Path(__file__).resolve().parent / "printing" / "reversi.yaml"
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(REVERSI)))


def board(game, st) -> dict[tuple[int, int], str]:
    """Each disc on the board by its space (column, row): whose side it is."""
    return {game.layout.space[z]: game.state_of(st, held[-1], "side")
            for z, held in enumerate(st.zones) if game.layout.space[z] is not None and held}


def enclosed(discs, who, x, y):
    """The discs a disc of `who` at (x, y) would turn over."""
    turned = []
    for dx, dy in DIRECTIONS:
        run, k = [], 1
        while discs.get((x + k * dx, y + k * dy)) not in (None, who):
            run.append((x + k * dx, y + k * dy))
            k += 1
        if run and discs.get((x + k * dx, y + k * dy)) == who:
            turned += run
    return turned


def legal(discs, who):
    return sorted((x, y) for x in range(1, 9) for y in range(1, 9)
                  if (x, y) not in discs and enclosed(discs, who, x, y))


def options(game, d) -> list[tuple[int, int]]:
    return [game.layout.space[z] for (z,) in d.options]


def test_black_opens_with_the_four_moves_that_enclose_a_white_disc(game):
    st = game.new_state(0)
    assert board(game, st) == {(4, 4): "white", (5, 5): "white", (4, 5): "black", (5, 4): "black"}
    d = game.decision(st)
    assert d.role == "black" and sorted(options(game, d)) == [(3, 4), (4, 3), (5, 6), (6, 5)]
    game.apply(st, options(game, d).index((3, 4)))  # encloses (4, 4) against (5, 4)
    assert board(game, st) == {(3, 4): "black", (4, 4): "black", (5, 4): "black", (4, 5): "black",
                               (5, 5): "white"}


@pytest.mark.parametrize("seed", range(3))
def test_whole_games_follow_a_plain_model_of_the_rules(game, seed):
    rng = random.Random(seed)
    st = game.new_state(seed)
    while not game.is_terminal(st):
        d = game.decision(st)
        discs = board(game, st)
        assert sorted(options(game, d)) == legal(discs, d.role)  # a player with no move is never asked
        x, y = rng.choice(options(game, d))
        turned = enclosed(discs, d.role, x, y)
        game.apply(st, options(game, d).index((x, y)))
        if not game.is_terminal(st) or len(board(game, st)) > len(discs):
            assert board(game, st) == {**discs, **{s: d.role for s in turned}, (x, y): d.role}
    discs = board(game, st)
    assert len(discs) == 64 or not legal(discs, "black") and not legal(discs, "white")
    counts = {p: list(discs.values()).count(p) for p in ("black", "white")}
    assert game.outcome(st)["scores"] == counts
