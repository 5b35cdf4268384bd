"""Benchmark: the bundled Oh Hell example (random players) through the interpreter and
through a hand-written simulator of the same rules, at 3, 4 and 5 players, in one run.

    python benchmarks/bench_oh_hell.py [--games N] [--rounds R] [--check-games M] [--players 3,4,5]

The hand-written side (`stdlib_oh_hell.py`) uses the standard library's RNG, so it plays
other games for a seed; before timing, each side plays `--check-games` games and their
outcomes must have the same distribution (`distributions.py`: each player's points, the
winner's points, the exact bids of a game, a shared first place, the first seat's place),
with random players and with steady ones, who bid their share of the tricks and play their
lowest card (a game fixed by its deal: following suit, the hook, trumps all show), or the run fails: a baseline of other rules
cannot pass. Then the two are timed in alternating rounds
(`paired.py`) and the median ratio interpreter / hand-written is printed.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import stdlib_oh_hell  # noqa: E402
from paired import arguments, checked_and_timed  # noqa: E402

from interpreter.analysis.work import Player, Setup  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def interpreted(game: Game, seed: int) -> dict:
    """One game of random players, as `simulate` plays it (its worker's Player: no history kept, only the
    outcome is read); its outcome as the hand-written side reports it (by seat)."""
    player = _PLAYERS.get(id(game))
    if player is None:
        player = _PLAYERS[id(game)] = Player(Setup.of(game, {r: "random" for r in game.roles}), game)
    return _by_seat(game, player.play(seed))


_PLAYERS: dict[int, Player] = {}  # a game's Player, made once (as a simulation's worker keeps it)


def interpreted_steady(game: Game, seed: int) -> dict:
    """One game of steady players (stdlib_oh_hell.share and .lowest): their share of the tricks bid
    (the cards in hand over the players), their lowest card played."""
    value, suit, n = game.layout.columns["value"], game.layout.columns["suit"], len(game.roles)
    st = game.new_state(seed)
    while not game.is_terminal(st):
        d = game.decision(st)
        options = d.options
        if d.label == "bid":
            size = len(st.zones[game.zone_index("hand", owner=d.role)])
            key = (lambda i: (abs(options[i][0] * n - size), options[i][0]))
        else:
            key = (lambda i: (value[options[i][0]], suit[options[i][0]]))
        game.apply(st, min(range(len(options)), key=key))
    return _by_seat(game, st.outcome)


def _by_seat(game: Game, o: dict) -> dict:
    return {"points": [o["scores"][r] for r in game.roles], "exact": o["measures"]["exact_bids"],
            "places": [o["places"][r] for r in game.roles]}


def by_hand(players: int, seed: int, steady: bool = False) -> dict:
    o = stdlib_oh_hell.play(seed, players, steady=steady)
    return {"points": o["points"], "exact": sum(o["exact"]), "places": o["places"]}


def statistics_of(outcomes: list[dict]) -> dict[str, list]:
    return {"a player's points": [x for o in outcomes for x in o["points"]],
            "the winner's points": [max(o["points"]) for o in outcomes],
            "exact bids in a game": [o["exact"] for o in outcomes],
            "first place shared": [o["places"].count(1) > 1 for o in outcomes],
            "the first seat's place": [o["places"][0] for o in outcomes]}


def main() -> int:
    parser = arguments(__doc__, games=500, check_games=5000)
    parser.add_argument("--players", default="3,4,5", help="player counts (default 3,4,5)")
    args = parser.parse_args()
    different = False
    for n in map(int, args.players.split(",")):
        game = Game(load_ruleset("oh-hell", {"players": str(n)}))
        different |= checked_and_timed(f"Oh Hell, {n} players", [
            ("random players", lambda s: interpreted(game, s), lambda s: by_hand(n, s)),
            ("steady players", lambda s: interpreted_steady(game, s), lambda s: by_hand(n, s, steady=True))],
            statistics_of, args)
    if different:
        print("the hand-written simulator does not play the ruleset's game: its ratio means nothing")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
