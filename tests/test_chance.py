"""Chance as a first-class effect: dice (`dice:`, `roll`), random picks
(`take random`), and explicit chance (`Game(..., explicit_chance=True)`),
which must play exactly the games the inline draws play, seed for seed."""
import io
import json
import re

import pytest
from helpers import ROOT, compiled, rulelang
from helpers.random_games import config_params

from helpers.commands import cli
from generators.english import context, stmt
from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent, RandomAgent
from interpreter.agents.telling import render_chance
from interpreter.analysis.simulate import simulate
from interpreter.engine.game import Game
from interpreter.engine.invariants import InvariantBroken
from interpreter.engine.logs import GameLog, ReplayError, header, read_log, replay
from interpreter.engine.view import Viewer
from interpreter.runtime import rng
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.errors import IllegalAction, RuleError, Runaway
from rulelang import RulesetError, load_ruleset, load_text

LAB = """
game: dice-lab
title: Dice lab
roles: [solo]
dice:
  d8: 1..8
  attack: [0, 0, 1, 1, 2, 3]
cards:
  chip:
    fields: {value: number}
    state: {mark: 0}
    table: |
      value
      1
      2
      3
      4
zones:
  pile: {facing: down}
  out: {}
vars:
  total: 0
setup: |
  move box to pile
  shuffle pile
modes:
  lab:
    round:
      - step: Roll
        do: |
          {body}
          solo chooses k in [1, 2] as go:
            total += 0
          win solo
"""


def lab(body: str, **kw) -> Game:
    return Game(load_text(LAB.replace("{body}", body.replace("\n", "\n          ")), "lab.yaml"), **kw)


def first_game(game: Game, seed: int = 0):
    return play(game, seed, {r: FirstAgent(seed, r) for r in game.roles})


def same_game(st) -> tuple:
    """What a state means, whatever the chance mode compiled (block and site numbers differ)."""
    events = [("decided", e.role) if type(e).__name__ == "Decided" else e if type(e).__name__ == "Told"
              else (e.site.kind, e.site.at, e.value) for e in st.events or ()]
    return st.zones, st.where, st.face_up, st.vars, st.props, st.rng, st.decisions, st.outcome, events


def resolved(game: Game, st, choose=None):
    """Resolve chance events from the game's own RNG (or `choose(chance)`) up to the next decision."""
    events = []
    while game.chance(st) is not None:
        c = game.chance(st)
        events.append((c.kind, c.count))
        game.apply_chance(st, choose(c) if choose else game.sample_chance(st))
    return events


# ------------------------------------------------------------------ the language


@pytest.mark.parametrize("body, check", [
    ("roll d6 into x\ntotal = x", lambda v: 1 <= v <= 6),
    ("roll d8 into x\ntotal = x", lambda v: 1 <= v <= 8),
    ("roll 3 attack into xs\ntotal = sum(xs) * 10 + size(xs)", lambda v: v % 10 == 3 and v // 10 <= 9),
    ("roll d6 into total\nwhile total <= 5:\n  roll d6 into total", lambda v: v == 6),
    ("roll 0 d6 into xs\ntotal = size(xs)", lambda v: v == 0),
    ("take random c in pile where c.value > 2:\n  total = c.value", lambda v: v in (3, 4)),
    ("take random a, b in pile:\n  total = a.value + b.value", lambda v: 3 <= v <= 7),
    ("let c = top(pile)\nroll d6 into c.mark\ntotal = c.mark", lambda v: 1 <= v <= 6),
])
def test_rolls_and_random_picks(body, check):
    for optimize in (True, False):
        values = {first_game(lab(body, optimize=optimize), seed).vars[0] for seed in range(40)}
        assert all(check(v) for v in values), (body, values)
        assert len(values) > 1 or "while" in body or "0 d6" in body, (body, values)  # it is chance


def test_a_roll_draws_one_number_per_die_from_the_state_rng():
    game = lab("roll 3 d8 into xs\nroll attack into total\nlet t = sum(xs)")
    st = game.new_state(5)
    state = rng.derive(5, "game")
    state = rng.shuffle(state, list(range(4)))  # the setup's shuffle comes first
    faces = []
    for _ in range(3):
        state, i = rng.below(state, 8)
        faces.append(i + 1)
    state, i = rng.below(state, 6)
    assert [e.value for e in st.events] == [tuple(faces), ((0, 0, 1, 1, 2, 3)[i],)]
    assert st.vars[0] == (0, 0, 1, 1, 2, 3)[i] and st.rng == state


def test_rolls_and_picks_inside_procedures_keep_their_locals_apart():
    text = LAB.replace("setup: |", "procedures:\n  bump(): |\n    roll d6 into x\n    total += x\nsetup: |")
    body = "let x = 100\nbump()\nbump()\ntotal += x"
    for optimize in (True, False):
        game = Game(load_text(text.replace("{body}", body.replace("\n", "\n          ")), "lab.yaml"),
                    optimize=optimize)
        st = first_game(game, 3)
        rolled = [e.value[0] for e in st.events if type(e).__name__ == "ChanceEvent"]
        assert st.vars[0] == 100 + sum(rolled) and len(rolled) == 2


def test_take_random_with_no_binding_is_a_located_rule_error():
    body = "take random c in pile where c.value > 9:\n  total = c.value"
    text = LAB.replace("{body}", body.replace("\n", "\n          "))
    for explicit in (False, True):
        with pytest.raises(RuleError) as info:
            game = Game(load_text(text, "lab.yaml"), explicit_chance=explicit)
            resolved(game, game.new_state(0))
        d = info.value.diagnostic
        assert "take random: no binding matches" in d.message and "guard it" in d.hint
        assert d.span.line == text.splitlines().index("          take random c in pile where c.value > 9:") + 1


@pytest.mark.parametrize("count, message", [("-1", "must be 0 to 1,000,000"), ("2000000", "must be 0 to 1,000,000")])
def test_a_count_of_dice_is_bounded(count, message):
    with pytest.raises(RuleError, match=message):
        lab(f"let n = {count}\nroll n d6 into xs").new_state(0)


def test_dice_count_against_the_step_limit():
    with pytest.raises(Runaway) as info:
        lab("let n = 5000\nroll n d6 into xs", step_limit=1000).new_state(0)
    message = info.value.diagnostic.message
    assert "rolls too many dice" in message and "`roll n d6 into xs`" in message


@pytest.mark.parametrize("body, message, hint", [
    ("roll d20 into x", "unknown die 'd20'", "declare it under `dice:`, e.g. `dice: {d20: 1..20}`"),
    ("roll atack into x", "unknown die 'atack'", "did you mean 'attack'?"),
    ("roll true d6 into xs", "the number of dice must be number", None),
    ("roll 2 d6 into total", "'total' is number, but several dice give list of number", "sum(faces)"),
    ("roll 2 d6 into xs\nroll d6 into xs", "'xs' is list of number, but one die gives a number", "roll 1 d6 into xs"),
    ("roll d6 into pile", "cannot change the zone 'pile'", None),
    ("let d8 = 3", "already the name of a die", None),
    ("total = d8", "'d8' is a die, not a value", "roll it"),
    ("take random c in []:\n  pass", "take random: `[]` is empty, so there is nothing to bind", None),
    ("roll d6 into", "unexpected end of line", None),
])
def test_checks_are_located_with_hints(body, message, hint):
    text = LAB.replace("{body}", body.replace("\n", "\n          "))
    with pytest.raises(RulesetError) as info:
        load_text(text, "lab.yaml")
    d = next(d for d in info.value.diagnostics if message in d.message)
    assert d.span is not None and d.span.line >= 31  # in the step's rules
    assert hint is None or hint in (d.hint or "")


@pytest.mark.parametrize("dice, message", [
    ("{pile: 1..6}", "already the name of a die"),
    ("{d4: []}", "needs 1 to 10,000 faces"),
    ("{d4: [1, two]}", "faces of die 'd4' are numbers"),
    ("{d4: four}", "needs its faces"),
    ("{huge: 1..20000}", "needs 1 to 10,000 faces"),
    ("{face: 1..6}", "reserved word"),
])
def test_bad_dice_declarations(dice, message):
    with pytest.raises(RulesetError, match=message):
        load_text(LAB.replace("  d8: 1..8\n  attack: [0, 0, 1, 1, 2, 3]\n", f"  {dice[1:-1]}\n")
                  .replace("{body}", "pass"), "lab.yaml")


def test_d6_is_built_in_unless_the_ruleset_uses_the_name():
    rs = load_text(LAB.replace("{body}", "pass"), "lab.yaml")
    assert rs.dice["d6"].faces == (1, 2, 3, 4, 5, 6) and rs.dice["attack"].faces == (0, 0, 1, 1, 2, 3)
    zone = load_text(LAB.replace("  out: {}", "  d6: {}").replace("{body}", "move top(pile) to d6"), "lab.yaml")
    assert "d6" not in zone.dice  # a ruleset written before dice keeps its names
    with pytest.raises(RulesetError) as info:
        load_text(LAB.replace("  out: {}", "  d6: {}").replace("{body}", "roll d6 into x"), "lab.yaml")
    assert "is the name of a zone here, so there is no built-in d6" in info.value.diagnostics[0].hint
    own = load_text(LAB.replace("d8: 1..8", "d6: [1, 1, 1, 2, 2, 3]").replace("{body}", "pass"), "lab.yaml")
    assert own.dice["d6"].faces == (1, 1, 1, 2, 2, 3)


# ------------------------------------------------------------------ explicit chance


def test_explicit_chance_stops_at_every_die_pick_and_shuffle_step():
    game = lab("roll 2 d6 into xs\ntake random c in pile:\n  total = c.value", explicit_chance=True)
    st = game.new_state(1)
    c = game.chance(st)
    assert c.kind == "shuffle" and c.count == 4 and c.at == "lab.yaml:25"
    assert c.outcomes == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    assert game.decision(st) is None and game.current_role(st) == CHANCE and not game.is_terminal(st)
    assert not game.legal_actions(st)
    with pytest.raises(IllegalAction, match="apply_chance"):
        game.apply(st, 0)
    before = json.dumps(st.to_json())
    for bad in (4, -1, "1", True, None):
        with pytest.raises(IllegalAction):
            game.apply_chance(st, bad)
    assert json.dumps(st.to_json()) == before  # a bad outcome changes nothing
    # a shuffle of 4 cards is 3 Fisher-Yates steps, then two dice, then a pick of 4
    assert resolved(game, st) == \
        [("shuffle", 4), ("shuffle", 3), ("shuffle", 2), ("roll", 6), ("roll", 6), ("pick", 4)]
    assert game.decision(st).label == "go" and game.current_role(st) == "solo"
    with pytest.raises(IllegalAction, match="no chance event"):
        game.apply_chance(st, 0)
    with pytest.raises(IllegalAction, match="no chance event"):
        game.sample_chance(st)


def test_outcomes_chosen_from_outside_are_what_happens():
    game = lab("roll 2 attack into xs\ntake random c in pile where c.value >= 3:\n  total = c.value * 100 + sum(xs)",
               explicit_chance=True)
    st = game.new_state(0)
    # no shuffle step moves a card: the pile stays 1, 2, 3, 4 (each step swaps the card at i with itself)
    steps = iter([3, 2, 1, 5, 5, 1])
    resolved(game, st, lambda c: next(steps))
    pile = [game.ruleset.cards[c].values["value"] for c in st.zones[game.zone_index("pile")]]
    assert pile == [1, 2, 3, 4] and st.vars[0] == 4 * 100 + 3 + 3


def test_sample_chance_draws_exactly_what_the_inline_rules_draw():
    body = "roll 3 d8 into xs\ntake random c in pile:\n  roll attack into total"
    inline, explicit = lab(body), lab(body, explicit_chance=True)
    for seed in range(20):
        a, b = inline.new_state(seed), explicit.new_state(seed)
        resolved(explicit, b)
        assert same_game(a) == same_game(b), seed


def random_trace(game: Game, seed: int) -> tuple:
    """A random game, chance resolved from the game's RNG: every decision offered and the outcome."""
    viewer = Viewer(game)
    st = game.new_state(seed)
    streams = {role: rng.derive(seed, "agent:" + role) for role in game.roles}
    offered = []
    while not game.is_terminal(st):
        if game.chance(st) is not None:
            game.apply_chance(st, game.sample_chance(st))
            continue
        d = game.decision(st)
        offered.append((d.role, d.label, [viewer.option(st, i) for i in range(len(d.options))], st.rng))
        game.apply(st, rng.pick(streams[d.role], st.decisions, len(d.options)))
    return offered, same_game(st)


@pytest.mark.parametrize("name, mode", config_params())
def test_explicit_chance_plays_exactly_the_inline_game(name, mode):
    inline, explicit = compiled(name, mode), compiled(name, mode, explicit_chance=True)
    for seed in range(8):
        assert random_trace(inline, seed) == random_trace(explicit, seed), (name, mode, seed)


def test_explicit_chance_plays_the_same_with_every_option_and_unoptimised():
    rs = load_ruleset("twenty-trials", {"trial_modifiers": "true", "action_modifiers": "true"})
    for mode in ("challenger", "versus"):
        games = [Game(rs, mode), Game(rs, mode, explicit_chance=True), Game(rs, mode, optimize=False,
                                                                             explicit_chance=True)]
        for seed in range(5):
            traces = [random_trace(g, seed) for g in games]
            assert traces[0] == traces[1] == traces[2], (mode, seed)
    pig = load_ruleset("pig-race", {"players": "3"})
    assert random_trace(Game(pig, optimize=False, explicit_chance=True), 4) == random_trace(Game(pig), 4)


def test_a_pending_chance_survives_clone_and_json():
    game = Game(load_ruleset("pig-race"), explicit_chance=True)
    st = game.new_state(2)
    while game.chance(st) is None or game.chance(st).site.die != "gust":
        if game.chance(st) is not None:
            game.apply_chance(st, game.sample_chance(st))
        else:
            game.apply(st, 1)  # stop: the gust dice are rolled
    game.apply_chance(st, 3)  # the first die of a roll: the second is pending
    copy, saved = game.clone(st), game.state_from_json(json.loads(json.dumps(st.to_json())))
    assert game.chance(copy) == game.chance(saved) == game.chance(st)
    for s in (st, copy, saved):
        game.apply_chance(s, 5)
        resolved(game, s)
    assert st.to_json() == copy.to_json() == saved.to_json()


def test_play_resolves_chance_from_the_games_own_rng_and_jobs_change_nothing():
    for players in ("2", "3"):
        rs = load_ruleset("pig-race", {"players": players})
        inline, explicit = Game(rs), Game(rs, explicit_chance=True)
        for seed in range(10):
            agents = {r: RandomAgent(seed, r) for r in inline.roles}
            assert play(inline, seed, agents).outcome == play(explicit, seed, dict(agents)).outcome
    game = Game(rs)
    one, two = simulate(game, 200, seed=3, jobs=1).to_json(), simulate(game, 200, seed=3, jobs=2).to_json()
    assert {k: v for k, v in one.items() if k != "games_per_second"} == \
        {k: v for k, v in two.items() if k != "games_per_second"}


# ------------------------------------------------------------------ logs, replays, observations


def test_rolls_and_picks_are_logged_before_the_next_decision_and_replayed(tmp_path, capsys):
    path = tmp_path / "pig.jsonl"
    assert cli(capsys, "run", "pig-race", "--set", "players=3", "--seed", "6", "--log", path)[0] == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = [rec["type"] for rec in records]
    assert kinds[:2] == ["header", "pick"] and "roll" in kinds and kinds[-1] == "outcome"
    pick = records[1]
    assert pick["picked"] in ("red", "blue", "green") and pick["at"].startswith("rulesets/examples/pig-race.yaml:")
    roll = next(rec for rec in records if rec["type"] == "roll")
    assert roll["die"] == "d6" and all(1 <= f <= 6 for f in roll["faces"]) and roll["n"] == 0
    for before, after in zip(records, records[1:]):  # each chance record is followed by its decision (or the end)
        if before["type"] in ("roll", "pick") and after["type"] == "decision":
            assert before["n"] == after["n"]
    assert cli(capsys, "replay", path)[0] == 0
    mine = tmp_path / "green.jsonl"  # a player's log, written live or projected from the referee's: the same
    assert cli(capsys, "run", "pig-race", "--set", "players=3", "--seed", "6", "--log", mine, "--log-as", "green")[0] == 0
    code, out, _ = cli(capsys, "replay", path, "--as", "green")
    assert code == 0 and out == mine.read_text() and '"type": "roll"' in out
    tampered = tmp_path / "tampered.jsonl"
    roll["faces"] = [9] * len(roll["faces"])
    tampered.write_text("".join(json.dumps(rec) + "\n" for rec in records))
    code, out, err = cli(capsys, "replay", tampered)
    assert code != 0 and "a roll of d6: [9" in err and "but the ruleset now makes" in err


def test_a_replay_fails_where_the_rules_now_roll_differently(tmp_path):
    rs = load_ruleset("pig-race")
    out = io.StringIO()
    game = Game(rs)
    play(game, 1, {r: RandomAgent(1, r) for r in game.roles}, log=GameLog(out, header(rs, None, "race", 1, {})))
    path = tmp_path / "pig.jsonl"
    path.write_text(out.getvalue())
    logged = read_log(str(path))
    replay(game, logged)
    other = load_text((ROOT / "rulesets" / "examples" / "pig-race.yaml").read_text()
                      .replace("gust: [-1, 0, 0, 1, 1, 2]", "gust: [2, 2, 2, 2, 2, 2]"), "pig-race.yaml")
    with pytest.raises(ReplayError, match="the log has"):
        replay(Game(other), logged)


def test_the_observation_shows_the_rolls_since_the_roles_last_decision():
    game = Game(load_ruleset("pig-race"))
    viewer = Viewer(game)
    st = game.new_state(6)
    seen = {r: [] for r in game.roles}  # every chance event, as each role's observations showed it
    while not game.is_terminal(st):
        role = game.current_role(st)
        obs = viewer.observe(st, role)
        seen[role] += obs["chance"]
        game.apply(st, 0 if st.decisions % 3 else 1)
    all_events = [viewer.chance_event(st, e, None) for e in st.events if type(e).__name__ == "ChanceEvent"]
    last = {r: max((i for i, e in enumerate(st.events) if getattr(e, "role", None) == r), default=-1)
            for r in game.roles}
    for role in game.roles:  # each role saw every event up to its last decision, in order
        shown = [viewer.chance_event(st, e, None) for e in st.events[:last[role]] if type(e).__name__ == "ChanceEvent"]
        assert seen[role] == shown
    assert all_events[0]["type"] == "pick" and all_events[1]["type"] == "roll"


def test_the_terminal_says_what_was_rolled():
    obs = {"chance": [{"type": "roll", "at": "x:1", "die": "d6", "faces": [3, 5]},
                      {"type": "roll", "at": "x:2", "die": "gust", "faces": [-1]},
                      {"type": "pick", "at": "x:3", "picked": "2"}]}
    assert render_chance(obs).splitlines() == ["  Chance since your last choice:", "    rolled 3 and 5 (d6)",
                                               "    rolled -1 (gust)", "    picked at random: 2"]
    assert render_chance({}) == render_chance({"chance": []}) == ""
    r = rulelang("play", "pig-race", "--seed", "1", input="1\n" * 100)
    assert r.returncode == 0, r.stderr
    assert "picked at random:" in r.stdout and "(d6)" in r.stdout and "Game over" in r.stdout


def test_games_without_dice_remember_nothing():
    game = Game(load_ruleset("twenty-trials"))
    st = game.new_state(1)
    assert st.events is None and "chance" not in Viewer(game).observe(st, "challenger")


# ------------------------------------------------------------------ printing


def test_english_for_rolls_and_picks():
    rs = load_text(LAB.replace("{body}", "roll 2 d6 into xs\nroll d6 into total\nroll attack into x\n"
                                         "roll total d8 into ys\ntake random c in pile:\n  move c to out"
                               .replace("\n", "\n          ")), "lab.yaml")
    ctx = context(rs, rs.modes["lab"])
    texts = [re.sub("[\x0e\x11]", "*", item.text) for s in rs.modes["lab"].round[0].body[:5] for item in stmt(ctx, s)]
    assert texts[:4] == ["Roll two dice (d6); call the result *xs*.", "Roll a die (d6) for *total*.",
                         "Roll the attack; call the result X.", "Roll *total* dice (d8); call the result *ys*."]
    assert texts[4] == "Pick a chip card in the pile at random, then move it to the out."


def test_the_summary_lists_the_dice(capsys):
    code, out, err = cli(capsys, "summary", "pig-race")
    assert code == 0, err
    assert "Dice: *gust* (faces -1, 0, 0, 1, 1 and 2) and *d6*" in out
    assert "Roll a die (d6); call the result X." in out  # a one-letter name: a letter, as a rulebook writes it
    assert "Pick the start player at random." in out  # was: "Pick a player at random, then that player becomes …"
    code, out, err = cli(capsys, "summary", "pig-race", "--quick")  # a game of dice and no cards
    assert code == 0, err
    assert out.startswith("# Pig Race\n") and "## Components" not in out and "\n.\n" not in out
    assert "And these actions:" not in out  # an action's text says what it does: the full summary spells it out


def test_check_and_run_an_example_by_path(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = cli(capsys, "check", "rulesets/examples/pig-race.yaml")
    assert code == 0 and "Pig Race" in out
    code, out, _ = cli(capsys, "simulate", "rulesets/examples/pig-race.yaml", "--games", "200", "--set", "players=3",
                       "--jobs", "1")
    assert code == 0 and "200 games of mode race" in out and "agents: red=random, blue=random, green=random" in out


def test_a_remembered_pick_of_no_component_breaks_the_state():
    game = lab("take random c in pile:\n  total = c.value")
    st = game.new_state(0)
    game.check_state(st)
    st.events[0] = st.events[0]._replace(value=(999,))
    with pytest.raises(InvariantBroken, match="names something that is no component"):
        game.check_state(st)
