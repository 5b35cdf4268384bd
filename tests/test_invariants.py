"""Card conservation: every component in exactly one zone at every moment.

With invariants on, the engine checks after every effect on the cards (move,
draw, shuffle, flip) that each card id
is in exactly one zone list, that `where` agrees, and that the state keeps
its shape. Here: random games of every bundled ruleset and mode, their
parameters varied, with the check on — 20 of each in the default run,
10,000 of each in the slow one (RULELANG_INVARIANT_GAMES=N sets another
number for both).
"""
import json
import multiprocessing
import os

import pytest
from helpers import bundled, rulelang
from helpers.random_games import CONFIGS, LONG_GAMES, parameter_sets, play_task, tasks

from interpreter.analysis.simulate import available_cores
from interpreter.engine.game import Game
from interpreter.engine.invariants import InvariantBroken
from rulelang import load_ruleset

GAMES = os.environ.get("RULELANG_INVARIANT_GAMES")  # per ruleset and mode
HUNDREDS_OF_DECISIONS = LONG_GAMES | {"gauntlet-race", "gauntlet-16-7"}


@pytest.mark.parametrize("games", [20, pytest.param(10_000, marks=pytest.mark.slow)])
def test_no_card_is_ever_lost_or_doubled_in_random_games_of_every_ruleset_and_mode(games):
    games = int(GAMES or games)
    # the default run leaves out the long games (their own module plays them); the slow run plays every
    # one; the rulesets whose games ask hundreds of decisions (a game is ~0.1-0.5 s) play a twentieth as
    # many games, and four in the default run, which plays each ruleset with no options and with all
    # of them (each game is compiled afresh with its checks: compiling is most of its cost)
    slow = games > 20
    configs = CONFIGS if slow else [(n, m) for n, m in CONFIGS if n not in LONG_GAMES]
    fewer = max(20, games // 20) if slow else 4
    wanted = {(n, m): fewer if n in HUNDREDS_OF_DECISIONS else games for n, m in configs}
    work = [t for config, n in wanted.items() for t in tasks(n, min(500, n), [config])] if slow \
        else default_tasks(configs, wanted)
    played = dict.fromkeys(configs, 0)
    with multiprocessing.get_context("fork").Pool(available_cores()) as pool:
        for name, mode, finished, _ in pool.imap_unordered(play_task, sorted(work, key=lambda t: t[1] != "versus")):
            played[name, mode] += finished
    assert all(played[c] >= n for c, n in wanted.items()), played


def default_tasks(configs, wanted: dict) -> list[tuple]:
    """The default run's (ruleset, mode, parameters, seeds): a ruleset of one mode with no options
    and with all of them (or its fewest players), the games shared between the two; a ruleset of
    several modes, each mode with one of the two sets by turns, shifted from one ruleset to the next
    (the Twenty Trials family: each of its modes is played with and without options). Compiling with
    the checks on is nearly all of this test's cost (the games are half a second in all); the slow
    run plays every mode with every set."""
    out = []
    for j, name in enumerate(dict.fromkeys(n for n, _ in configs)):
        modes, sets = [m for n, m in configs if n == name], parameter_sets(bundled(name))[:2]
        for i, mode in enumerate(modes):
            mine = sets if len(modes) == 1 else [sets[(i + j) % len(sets)]]
            share = -(-wanted[name, mode] // len(mine))
            out += [(name, mode, params, range(k * share, (k + 1) * share)) for k, params in enumerate(mine)]
    return out


def test_a_broken_state_is_caught_at_the_statement_that_follows():
    game = Game(load_ruleset("twenty-trials"), check_invariants=True)
    st = game.new_state(0)
    deck = game.zone_index("action_deck")
    st.zones[deck].append(st.zones[deck][0])  # one card in the deck twice
    with pytest.raises(InvariantBroken) as info:
        while st.outcome is None:
            game.apply(st, 0)
    d = info.value.diagnostic
    assert "in two places at once" in d.message or "twice" in d.message
    assert d.span is not None and d.span.file.endswith("twenty-trials.yaml")


@pytest.mark.parametrize("tamper, words", [
    (lambda st: st.zones[1].pop(), r"in no zone \(lost\)"),
    (lambda st: st.where.__setitem__(st.zones[1][0], 0), "but its place says"),
    (lambda st: st.zones[2].append(99_999), "which is no component"),
    (lambda st: st.props.append([]), "per-component state"),
])
def test_every_kind_of_breakage_is_named(tamper, words):
    game = Game(load_ruleset("twenty-trials"))
    st = game.new_state(3)
    game.check_state(st)
    tamper(st)
    with pytest.raises(InvariantBroken, match=words):
        game.check_state(st)


def test_off_by_default_and_on_with_the_option(tmp_path):
    assert not Game(load_ruleset("twenty-trials")).check_invariants
    r = rulelang("run", "gauntlet-gobbots", "--seed", "2", "--check-invariants", "--json")
    assert r.returncode == 0, r.stderr and json.loads(r.stdout)["ended_by"]
    r = rulelang("simulate", "twenty-trials", "--mode", "versus", "--games", "50", "--check-invariants", "--json")
    assert r.returncode == 0, r.stderr

