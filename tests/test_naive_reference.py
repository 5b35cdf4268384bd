"""Every pass of the compiler against the naive compile: the same games.

The naive compile (`CompileOptions.only()`: no pass at all) generates code
for the rules as checked, each construct the plainest way. Each pass alone,
and all of them together, must play the same games as it: the same decisions
with the same options, the same steps counted at each (steps do not depend
on the passes: docs/reliability.md), the same outcome or the same error.
The default run plays a slice (a few rulesets, every pass, a few games); the
slow run every bundled ruleset and example, every mode and player count (the
long games at their fewest players), with and without explicit chance.
"""
import pytest
from helpers import bundled
from helpers.random_games import LONG_GAMES

from interpreter.compiler.options import ALL, NAIVE, PASSES, CompileOptions
from interpreter.engine.game import DEFAULT_STEP_LIMIT, Game
from interpreter.runtime import rng
from interpreter.runtime.errors import RuleError
from rulelang import bundled_names, load_ruleset
from rulelang.files import location

CONFIGS = {"naive": NAIVE, **{name: CompileOptions.only(name) for name in PASSES}, "all": ALL}


def trace(game: Game, seed: int) -> list:
    """What a game is: at each decision (or chance event) its label and options and the steps
    and round so far; at the end its outcome, or the error that stopped it."""
    out = []
    streams = {role: rng.derive(seed, "agent:" + role) for role in game.roles}
    try:
        st = game.new_state(seed)
        while not game.is_terminal(st):
            c = game.chance(st)
            if c is not None:
                out.append(("chance", c.kind, c.at, c.count, st.steps, st.round))
                game.apply_chance(st, game.sample_chance(st))
                continue
            p = game.decision(st)
            out.append((p.label, p.at, p.options, st.steps, st.round))
            game.apply(st, rng.pick(streams[p.role], st.decisions, len(p.options)))
        out.append(("outcome", game.outcome(st), st.steps))
    except RuleError as exc:
        # the same error at the same line; the calls it was reached through, which its message adds,
        # are not known of a procedure that asks a decision unless it is written in place
        d = exc.diagnostic
        out.append(("error", type(exc).__name__, location(d.span) if d.span else None, exc.reason, d.hint))
    return out


def assert_same_games(name: str, mode: str, params: dict, games: int, configs, explicit_chance: bool = False,
                      step_limit: int = DEFAULT_STEP_LIMIT):
    rs = load_ruleset(name, params)
    naive = Game(rs, mode, passes=NAIVE, explicit_chance=explicit_chance, step_limit=step_limit)
    expected = [trace(naive, seed) for seed in range(games)]
    for label in configs:
        game = Game(rs, mode, passes=CONFIGS[label], explicit_chance=explicit_chance, step_limit=step_limit)
        for seed in range(games):
            got = trace(game, seed)
            if got != expected[seed]:
                first = next((i for i, (a, b) in enumerate(zip(got, expected[seed])) if a != b),
                             min(len(got), len(expected[seed])))
                pytest.fail(f"{name} {mode} {params} with {label}: seed {seed} differs from the naive compile "
                            f"at its entry {first}:\n  {label}: {got[first:first + 1]}\n  naive: "
                            f"{expected[seed][first:first + 1]}")


def player_counts(name: str) -> list[dict]:
    players = bundled(name).players
    return [{"players": str(n)} for n in range(players.low, players.high + 1)] if players else [{}]


# the default run: short games of every kind of rule (cards, a board, work counted, dice, several
# players, hidden cards), each pass alone and all together where it is quick to compile, the passes
# that have most to do there elsewhere
EVERY_PASS = [c for c in CONFIGS if c != "naive"]
SLICE = [("twenty-trials", "challenger", {}, 2, EVERY_PASS),
         ("twenty-trials", "versus", {"action_modifiers": "true"}, 1, ["reuse", "share", "hoist", "unswitch", "all"]),
         ("gauntlet-gobbots", "solitaire", {"hard": "true"}, 1, ["zones", "boards", "cards", "merge", "all"]),
         ("pig-race", None, {}, 2, EVERY_PASS), ("kuhn-poker", None, {}, 2, EVERY_PASS)]


@pytest.mark.parametrize("name, mode, params, games, configs", SLICE, ids=[f"{n}-{m or ''}" for n, m, *_ in SLICE])
def test_each_pass_plays_the_naive_games(name, mode, params, games, configs):
    mode = mode or next(iter(bundled(name).modes))
    assert_same_games(name, mode, params, games, configs)


def test_every_pass_plays_the_naive_games_with_explicit_chance():
    assert_same_games("pig-race", next(iter(bundled("pig-race").modes)), {}, 2, ["all", "merge", "quick", "hoist"],
                      explicit_chance=True)


# the long games (random players wander the race for hundreds of milliseconds a game, Hand of
# Fate compiles in seconds, each pass anew) at their fewest players, one game a pass: the slow run
# spends about three minutes of one core here in all
EVERYTHING = [(name, mode, params) for name in bundled_names() for mode in bundled(name).modes
              for params in player_counts(name)[:1 if name in LONG_GAMES else None]]


@pytest.mark.slow
@pytest.mark.parametrize("name, mode, params", EVERYTHING,
                         ids=[f"{n}-{m}-{p.get('players', '')}" for n, m, p in EVERYTHING])
def test_every_pass_plays_the_naive_games_of_every_ruleset_mode_and_player_count(name, mode, params):
    # a random race of a thousand rounds goes through more than a million bindings of big binders
    # with `inline` alone (its defines written into loops whose bindings count): work is bounded
    # apart from steps and by pass (docs/reliability.md), so the long games have room for it
    games, limit = (1, 10 * DEFAULT_STEP_LIMIT) if name in LONG_GAMES else (3, DEFAULT_STEP_LIMIT)
    assert_same_games(name, mode, params, games, [c for c in CONFIGS if c != "naive"], step_limit=limit)
    assert_same_games(name, mode, params, games, ["all", "merge", "quick"], explicit_chance=True, step_limit=limit)


def test_the_options_read_as_the_command_line_writes_them():
    assert CompileOptions.parse("all") == ALL and CompileOptions.parse("none") == NAIVE
    assert CompileOptions.parse("all,-merge") == ALL.replace(merge=False)
    assert CompileOptions.parse("fold, inline").names == ("fold", "inline")
    assert str(ALL) == "all" and str(NAIVE) == "none" and str(CompileOptions.only("zones", "fold")) == "fold,zones"
    with pytest.raises(ValueError, match="'-merg' is not a pass"):
        CompileOptions.parse("all,-merg")
