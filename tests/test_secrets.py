"""No secret leaks: for every bundled ruleset and mode, no role's observation,
player's log or replayed player's log names a card that role cannot see — at
the start, all through random games, and after a save and resume.

The oracle does not use view.py. Which cards a role cannot see comes from the
ruleset (each zone's `seen_by`, a mode's `visibility:`) and the state (where
each card is, which way up). Two checks on every observation and log record:

* non-interference: deal the hidden cards again among the hidden places (each
  place keeps its facing) — the role cannot tell the two states apart, so
  what it is shown must be the same, id for id and letter for letter;
* a search: no hidden card's label appears in the text unless a card the
  role sees carries the same label (identity means which card: two copies of
  one card are the same to a player).
"""
import io
import json
import os
import random
import re

import pytest
from helpers import bundled, compiled, rulelang
from helpers.random_games import LONG_GAMES, SHORT, config_params, play_random
from helpers.secret_games import secret_games
from hypothesis import HealthCheck, given, settings

from interpreter.engine.game import Game
from interpreter.engine.logs import GameLog
from interpreter.engine.saves import load as load_save
from interpreter.engine.saves import restore
from interpreter.engine.view import REFEREE, Viewer
from interpreter.runtime.state import State
from rulelang import load_ruleset, load_text
from rulelang.types import BOOL

GAMES = 8  # per ruleset, mode and set of parameters (every decision of every game is checked for every role);
# a game of `players:` plays half as many in all, shared among its counts: its games are long, with many roles
CHECKS = 30  # in the default run, decisions checked in a game of `players:`: spread over it, from a seed's point


def parameter_sets(ruleset) -> list[dict]:
    """No options, and every true/false option on (more kinds of cards in play);
    for a game of `players:`, every count it allows (with no options)."""
    flags = [name for name, p in ruleset.params.items() if p.type == BOOL]
    counts = range(ruleset.players.low, ruleset.players.high + 1) if ruleset.players else ()
    plain = [{"players": str(n)} for n in counts] or [{}]
    return [{**SHORT.get(ruleset.name, {}), **s} for s in plain + ([{f: "true" for f in flags}] if flags else [])]


def checked(game: Game, seed: int, checks: int | None):
    """Which decisions of a game to check: all (`checks` None, or a game of
    up to `checks` decisions), else every n-th and the end, as long as the
    game is, from a point that moves with the seed."""
    if checks is None:
        return lambda st: True
    stride = -(-play_random(game, seed).decisions // checks)
    return lambda st: (st.decisions + seed) % stride == 0 or st.outcome is not None


def hidden_from(game: Game, st: State, role: str | None) -> list[int]:
    """The cards `role` cannot see, from the zone rules (the box: out of play, shown to no one)."""
    zones, mode = game.ruleset.zones, game.mode.visibility
    hidden = list(st.zones[0])
    for zi, (name, owner) in enumerate(game.layout.instances[1:], 1):
        rule = mode.get(name, zones[name].seen_by)
        for c in st.zones[zi]:
            seen = rule == "open" or (rule == "owner" and owner == role) or (rule == "all" and st.face_up[c])
            if not seen:
                hidden.append(c)
    return hidden


def dealt_again(st: State, hidden: list[int], seed: int) -> State:
    """The state with the hidden cards in other hidden places: each card takes
    its per-component state along, each place keeps its facing."""
    other = st.clone()
    places = [(other.where[c], other.zones[other.where[c]].index(c), other.face_up[c]) for c in hidden]
    order = hidden[:]
    random.Random(seed).shuffle(order)
    for c, (zi, i, up) in zip(order, places):
        other.zones[zi][i], other.where[c], other.face_up[c] = c, zi, up
    if other.pending is not None and not other.pending.site.menu:  # its options name places: the card now at each
        now = {old: new for old, new in zip(hidden, order)}
        d = other.pending
        other.pending = d._replace(options=[tuple(now.get(v, v) if card else v for v, card in zip(o, d.site.is_card))
                                            for o in d.options])
    return other


class Labels:
    def __init__(self, game: Game, viewer: Viewer):
        self.viewer = viewer
        self.pattern = {}
        for c in range(len(game.ruleset.cards)):
            label = viewer.card(c)
            self.pattern.setdefault(label, re.compile(r"(?<![\w])" + re.escape(label) + r"(?![\w])"))

    def named(self, text: str, st: State, hidden: list[int]) -> list[str]:
        """The labels only hidden cards carry that `text` names, once the
        labels of the cards the role may see are taken out of it (longest
        first: "Slash 1, Thrust 1" is one card, not "Thrust 1")."""
        hidden_set = set(hidden)
        shown = {self.viewer.card(c) for c in range(len(st.where)) if c not in hidden_set}
        named = []
        for label in {self.viewer.card(c) for c in hidden} - shown:
            if label not in text:  # the quick test first; most labels are nowhere
                continue
            rest = text
            for other in sorted((s for s in shown if label in s), key=len, reverse=True):
                rest = self.pattern[other].sub("\0", rest)
            if self.pattern[label].search(rest):
                named.append(label)
        return named


def check(game, viewer, labels, st, role, seed, where: str) -> None:
    hidden = hidden_from(game, st, role)
    seen = json.dumps(viewer.observe(st, role), sort_keys=True)
    leaked = labels.named(seen, st, hidden)
    assert not leaked, f"{where}: {role}'s observation names hidden cards {leaked}"
    twin = dealt_again(st, hidden, seed * 1000 + st.decisions)
    assert json.dumps(viewer.observe(twin, role), sort_keys=True) == seen, \
        f"{where}: {role}'s observation changes when the cards it cannot see are dealt again"
    if game.decision(st) is not None and role is not None:  # the role's log record of this decision
        mine = log_record(game, viewer, st, role)
        assert mine == log_record(game, viewer, twin, role), \
            f"{where}: {role}'s log record of this decision depends on cards it cannot see"
        assert not labels.named(mine, st, hidden), f"{where}: {role}'s log names hidden cards"


def check_everyone(game, viewer, labels, st, seed, where: str) -> None:
    """The checks for every role and a spectator (None)."""
    for role in [*game.roles, None]:
        check(game, viewer, labels, st, role, seed, where)


def log_record(game, viewer, st, role) -> str:
    """The role's log records of this decision: the rolls and picks before it, and the decision's."""
    out = io.StringIO()
    log = GameLog(out, {}, role)
    log.decision(game, viewer, st, 0)
    log.tell(viewer, st)  # another's decision, as the role is told of it (once play goes on: here, at once)
    return "\n".join(out.getvalue().splitlines()[1:])


@pytest.mark.parametrize("thorough", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["sampled", "every"])
@pytest.mark.parametrize("name, mode", config_params())
def test_no_role_sees_a_card_it_cannot_see(name, mode, thorough):
    """The long games of `players:` sampled in the default run; every decision
    of every game of every set of parameters in the slow one."""
    checked_count = 0
    ruleset = bundled(name)
    sets = parameter_sets(ruleset)
    share = max(1, GAMES // 2 // len(sets)) if ruleset.players and not thorough \
        else 2 if name in LONG_GAMES else GAMES  # games of hundreds of decisions: every decision of fewer games
    for i, params in enumerate(sets):
        game = compiled(name, mode, params)
        viewer = Viewer(game)
        labels = Labels(game, viewer)
        for seed in range(i * share, (i + 1) * share):
            wanted = checked(game, seed, CHECKS if ruleset.players and not thorough else None)

            def on_decision(st):
                nonlocal checked_count
                if not wanted(st):
                    return
                where = f"{name} {mode} {params} seed {seed}, decision {st.decisions}"
                check_everyone(game, viewer, labels, st, seed, where)
                checked_count += 1
                if checked_count % 5 == 2 and st.outcome is None:  # saved and resumed: still nothing more
                    resumed = game.state_from_json(json.loads(json.dumps(st.to_json())))
                    for role in game.roles:
                        assert viewer.observe(resumed, role) == viewer.observe(st, role)
                        check(game, viewer, labels, resumed, role, seed, where + " (resumed)")
            play_random(game, seed, on_decision)
    assert checked_count > GAMES or ruleset.players and checked_count > share * len(sets)


BLIND_PICKS = """
game: blind-picks
title: Blind picks
roles: [alice, bob]
cards:
  gem:
    fields: {value: 1..9}
    label: "gem {value}"
    table: |
      value
      1
      2
      3
      4
      5
      6
      7
      8
      9
zones:
  bag: {facing: down}
  hand: {owner: each, seen_by: owner, kind: hand}
  table: {kind: row}
setup: |
  move box to bag
  shuffle bag
modes:
  play:
    round:
      - step: Turn
        do: |
          if size(bag) < 2:
            end game as bag_empty
          repeat 2 times:
            take random g in bag:
              move g to hand of alice
          roll 2 d6 into faces
          take random g in hand of alice:
            move g to hand of bob
          alice chooses g in hand of alice as show:
            move g to table
          if not empty(hand of bob):
            bob chooses g in hand of bob as keep:
              move g to table
    score:
      alice: sum(g.value for g in table)
      bob: size(hand of bob)
"""


def test_random_picks_among_hidden_cards_name_none():
    """Picks from a face-down bag and from one player's hand: the observations
    and logs of the other name no card they cannot see; the referee's names all."""
    game = Game(load_text(BLIND_PICKS, "blind.yaml"), "play")
    viewer = Viewer(game)
    labels = Labels(game, viewer)
    hidden_picks = 0
    for seed in range(GAMES):
        def on_decision(st):
            nonlocal hidden_picks
            check_everyone(game, viewer, labels, st, seed, f"blind picks seed {seed}, decision {st.decisions}")
            hidden_picks += sum(e.get("picked") == "a hidden card" for e in viewer.observe(st, "alice")["chance"])
        play_random(game, seed, on_decision)
    assert hidden_picks > GAMES  # the checks saw picks the reader could not see
    out = io.StringIO()
    st = game.new_state(1)
    GameLog(out, {}, None).decision(game, viewer, st, 0)
    assert "gem " in out.getvalue() and "a hidden card" not in out.getvalue()  # the referee's log names them


def test_the_oracle_catches_a_leak():
    """A viewer that shows one face-down card is caught by both checks."""
    game = Game(load_ruleset("twenty-trials"))
    viewer = Viewer(game)
    labels = Labels(game, viewer)
    st = game.new_state(1)
    deck = game.zone_index("action_deck")

    class Leaky(Viewer):
        def observe(self, st, role):
            obs = super().observe(st, role)
            obs["zones"]["action_deck"][-1] = {"id": st.zones[deck][-1], "card": self.card(st.zones[deck][-1])}
            return obs
    with pytest.raises(AssertionError, match="names hidden cards"):
        check(game, Leaky(game), labels, st, "challenger", 1, "leaky")
    ids_only = Leaky(game)
    ids_only.labels = ["?"] * len(ids_only.labels)
    with pytest.raises(AssertionError, match="changes when the cards it cannot see are dealt again"):
        check(game, ids_only, labels, st, "challenger", 1, "leaky ids")


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
@pytest.mark.parametrize("seed", [0, 1])
def test_a_players_log_and_the_replayed_players_log_name_no_hidden_card(tmp_path, seed):
    full = tmp_path / "full.jsonl"
    args = ["run", "twenty-trials", "--mode", "versus", "--seed", str(seed), "--set", "trial_modifiers=true"]
    assert rulelang(*args, "--log", str(full)).returncode == 0
    for role in ("challenger", "trialmaster"):
        mine = tmp_path / f"{role}.jsonl"
        assert rulelang(*args, "--log", str(mine), "--log-as", role).returncode == 0
        replayed = rulelang("replay", str(full), "--as", role)
        assert replayed.returncode == 0, replayed.stderr
        assert replayed.stdout == mine.read_text()  # the same projection, whether written live or afterwards
        records = [json.loads(line) for line in mine.read_text().splitlines()]
        assert records[0]["log_of"] == role
        for record in records[1:-1]:  # the others' decisions: who decided what, as the player was told of it
            if record["type"] == "decision":
                assert ("choice" in record) == (record["role"] == role) and "option" in record
    assert rulelang("replay", str(full), "--as", "nobody").returncode == 2


def test_a_resumed_game_shows_what_it_showed_before(tmp_path):
    save = tmp_path / "game.json"
    assert rulelang("run", "twenty-trials", "--mode", "versus", "--stop-at", "7", "--save", str(save)).returncode == 0
    game = Game(load_ruleset("twenty-trials"), "versus")
    viewer = Viewer(game)
    st = restore(game, load_save(str(save)), str(save))
    for role in game.roles:
        check(game, viewer, Labels(game, viewer), st, role, 0, "resumed from a file")
    mine = tmp_path / "tm.jsonl"
    r = rulelang("run", "twenty-trials", "--resume", str(save), "--log", str(mine), "--log-as", "trialmaster")
    assert r.returncode == 0, r.stderr
    assert all("choice" not in rec for rec in map(json.loads, mine.read_text().splitlines())
               if rec.get("role") == "challenger")


# ---------------------------------------------------------------- decision options (issue 20, item 3)

BLIND_CHOICES = BLIND_PICKS.replace("""          repeat 2 times:
            take random g in bag:
              move g to hand of alice""", """          alice chooses g in bag as dig:
            move g to hand of alice
          bob chooses g in hand of alice as steal:
            move g to hand of bob
          repeat 2 times:
            alice chooses g in bag as dig:
              move g to hand of alice""").replace("size(bag) < 2", "size(bag) < 3") \
    .replace("game: blind-picks", "game: blind-choices")


class RefereeOptions(Viewer):
    """The viewer as it was before issue 20: every option by its cards' labels, whoever reads it."""
    def option(self, st, index, reader=None):
        return super().option(st, index)


def test_options_over_cards_the_chooser_cannot_see_name_where_they_lie():
    """Choices from a face-down bag and from another player's hand: the chooser is
    offered places, not cards, in its observation, in `play` and in its log; the
    referee's log names the cards (it is a replay)."""
    game = Game(load_text(BLIND_CHOICES, "blind.yaml"), "play")
    viewer = Viewer(game)
    labels = Labels(game, viewer)
    blind = 0
    for seed in range(GAMES):
        def on_decision(st):
            nonlocal blind
            check_everyone(game, viewer, labels, st, seed, f"blind choices seed {seed}, decision {st.decisions}")
            d = game.decision(st)
            if d is not None and d.label in ("dig", "steal"):
                options = viewer.observe(st, d.role)["decision"]["options"]
                where = "bag, face down" if d.label == "dig" else "hand of alice, unseen"
                assert options[-1] == f"the top card of {where}", options
                assert all(o.endswith(where) for o in options)
                assert len(options) < 2 or options[-2] == f"the 2nd card from the top of {where}"
                blind += 1
        play_random(game, seed, on_decision)
    assert blind > GAMES
    st = game.new_state(1)
    out = io.StringIO()
    GameLog(out, {}, None).decision(game, viewer, st, 0)
    assert "gem " in json.loads(out.getvalue().splitlines()[1])["option"]  # the referee's log names the card
    # the same games through the old viewer: the checks catch the options
    with pytest.raises(AssertionError, match="names hidden cards|changes when"):
        check(game, RefereeOptions(game), labels, st, "alice", 1, "options by label")


def test_play_shows_the_chooser_places_not_cards(tmp_path):
    path = tmp_path / "blind.yaml"
    path.write_text(BLIND_CHOICES)
    r = rulelang("play", str(path), "--as", "alice", "--seed", "3", input="1\n" * 40)
    shown = r.stdout
    assert "the top card of bag, face down" in shown, shown[-2000:]
    dig = shown.split("dig", 1)[1].split("\n>", 1)[0]
    assert "gem " not in dig, dig


@given(secret_games())
@settings(max_examples=int(os.environ.get("RULELANG_FUZZ_EXAMPLES", 30)), derandomize=True, deadline=None,
          database=None, suppress_health_check=list(HealthCheck))
def test_generated_games_keep_their_secrets(text):
    """Generated games (tests/helpers/secret_games.py): choices, draws and random
    picks from places seen by all, by their owner or by no one, face up or down;
    every decision checked for every role and a spectator, options included."""
    game = Game(load_text(text, "generated.yaml"), "play")
    viewer = Viewer(game)
    labels = Labels(game, viewer)
    for seed in range(2):
        def on_decision(st):
            check_everyone(game, viewer, labels, st, seed, f"seed {seed}, decision {st.decisions} of\n{text}")
            if st.decisions % 3 == 1 and st.outcome is None:  # saved and resumed: the same
                resumed = game.state_from_json(json.loads(json.dumps(st.to_json())))
                for role in game.roles:
                    assert viewer.observe(resumed, role) == viewer.observe(st, role)
        play_random(game, seed, on_decision)


TELLING = BLIND_PICKS.replace("""          repeat 2 times:
            take random g in bag:
              move g to hand of alice""", """          alice chooses g in bag where g.value > 3 as dig:
            move g to hand of alice
          alice chooses g in bag as fair:
            move g to hand of alice
          alice chooses size_up:
            big if exists s in hand of bob where s.value > 5:
              pass
            small:
              pass""").replace("size(bag) < 2", "size(bag) < 4")


def test_check_warns_of_options_that_depend_on_cards_the_chooser_cannot_see(tmp_path):
    """`where g.value > 3` over a face-down bag, a menu option's guard over the other
    player's hand: no way of naming the options hides what their being offered says."""
    path = tmp_path / "telling.yaml"
    path.write_text(TELLING)
    r = rulelang("check", str(path))
    assert r.returncode == 0, r.stderr
    warned = [line for line in r.stderr.splitlines() if ": warning: " in line]
    assert len(warned) == 2, r.stderr
    assert "decision 'dig' offers depends on cards alice may not see (in bag)" in warned[0]
    assert "decision 'size_up' offers depends on cards alice may not see (in hand)" in warned[1]
    # and the oracle sees the leak the warning is about: dealt again, the bag offers other places
    game = Game(load_text(TELLING, "telling.yaml"), "play")
    viewer = Viewer(game)
    st = game.new_state(0)
    assert game.decision(st).label == "dig"
    hidden = hidden_from(game, st, "alice")
    shown = viewer.observe(st, "alice")["decision"]["options"]
    differs = 0
    for seed in range(10):
        twin = dealt_again(st, hidden, seed)
        twin.pending = None  # the options of the twin game, enumerated again from its bag
        game.start_step(twin, "Turn")
        differs += viewer.observe(twin, "alice")["decision"]["options"] != shown
    assert differs


@given(secret_games())
@settings(max_examples=20, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_generated_games_have_no_telling_options(text):
    from rulelang import lint
    assert lint.warnings(load_text(text, "generated.yaml")) == []


TELLING_WORDS = BLIND_PICKS.split("modes:")[0] + """modes:
  play:
    round:
      - step: Turn
        do: |
          if size(bag) < 3:
            end game as bag_empty
          move top(bag) to hand of alice
          let mine = top(hand of alice)
          alice chooses n in 1..2 as bet labelled "{n} on {mine}":
            move top(bag) to table
          bob chooses n in 1..2 as guess labelled "{n} under {top(bag)}":
            move top(bag) to table
    score:
      alice: sum(g.value for g in table)
      bob: size(hand of alice)
"""


def test_options_words_name_no_card_their_reader_cannot_see():
    """Words (`labelled`) that name a card a reader cannot see (a `let` of alice's card, the face-down
    bag's top) read to that reader as the options' values; `check` warns where the chooser is blind."""
    game = Game(load_text(TELLING_WORDS, "words.yaml"), "play", history=True)
    viewer, st = Viewer(game), game.new_state(3)
    mine = viewer.labels[st.zones[game.zone_index("hand", "alice")][-1]]
    assert [viewer.option(st, i, "alice") for i in range(2)] == [f"1 on {mine}", f"2 on {mine}"]
    assert [viewer.option(st, i, "bob") for i in range(2)] == ["1", "2"]
    assert viewer.option(st, 0, None) == "1"  # a spectator
    game.apply(st, 1)
    told = [e for e in viewer.events(st, "bob") if e.get("type") == "decision"]
    assert told[-1]["option"] == "2"
    assert viewer.option(st, 0, "bob") == "1" and "under gem" in viewer.option(st, 0, REFEREE)
    from rulelang import lint
    warned = [d.message for d in lint.warnings(game.ruleset) if "words of decision" in d.message]
    assert warned == ["the words of decision 'guess' may name or read cards its chooser may not see (in bag): "
                      "the chooser is shown its options without them"]


def test_a_card_variable_names_its_card_only_to_who_sees_it():
    """A variable holding the face-down bag's top card shows its id only once
    the reader sees the card: an id names a card (the tensor's rows say which)."""
    text = BLIND_PICKS.split("modes:")[0].replace(
        "setup: |", "vars:\n  drawn: {type: gem, initial: none}\nsetup: |") + """modes:
  play:
    round:
      - step: Turn
        do: |
          drawn = top(bag)
          alice chooses n in 1..2 as bet:
            move top(bag) to table
          end game
    score:
      alice: size(table)
"""
    game = Game(load_text(text, "drawn.yaml"), "play")
    viewer, st = Viewer(game), game.new_state(1)
    card = viewer.variables(st)["drawn"]
    assert isinstance(card, int)
    assert viewer.observe(st, "alice")["vars"] == {"drawn": "a hidden card"}
    game.apply(st, 0)  # on the table now, face up
    assert viewer.observe(st, "bob")["vars"] == {"drawn": card}
