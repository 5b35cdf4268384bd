"""Agents and what they may know: observations, player logs and the sampled
states search agents play ahead on never reveal a card the role cannot see."""
import io
import json

import pytest
from helpers import compiled, game_for, rulelang
from test_language import tiny

from interpreter.agents.base import AgentSpecError, PlayerView
from interpreter.agents.match import play
from interpreter.agents.registry import make_agent, parse_spec
from interpreter.agents.redeal import Redeal
from interpreter.agents.history import Other, Pick, Shuffle
from interpreter.agents.sampling import Sampler
from interpreter.engine.game import Game
from interpreter.engine.logs import GameLog, header
from interpreter.engine.view import Viewer
from interpreter.runtime.chance import Decided
from interpreter.runtime.state import NO_QUICK
from rulelang import load_ruleset, load_text

MODES = {"challenger": {}, "trialmaster": {}, "moderator": {}, "versus": {}}


def shown_ids(obs: dict) -> set[int]:
    return {c["id"] for cards in obs["zones"].values() for c in cards if c is not None}


def may_see(game, viewer, st, role) -> set[int]:
    """The cards a role may see, from the zone rules (independently of observe)."""
    seen = set()
    zones, mode = game.ruleset.zones, game.mode.visibility
    for zi, (name, owner) in enumerate(game.layout.instances[1:], 1):
        rule = mode.get(name, zones[name].seen_by)
        for c in st.zones[zi]:
            if rule == "open" or (rule == "owner" and owner == role) or (rule == "all" and st.face_up[c]):
                seen.add(c)
    return seen


@pytest.mark.parametrize("mode", list(MODES))
def test_no_observation_or_player_log_shows_a_hidden_card(mode):
    game = game_for(mode=mode, trial_modifiers=True, action_modifiers=True)
    viewer = Viewer(game)
    for seed in range(15):
        logs = {r: io.StringIO() for r in game.roles}
        head = header(game.ruleset, None, mode, seed, {r: "random" for r in game.roles})
        players = {r: GameLog(f, head, role=r) for r, f in logs.items()}
        st = game.new_state(seed)
        while not game.is_terminal(st):
            role = game.decision(st).role
            for r in game.roles:
                obs = viewer.observe(st, r)
                assert shown_ids(obs) == may_see(game, viewer, st, r), (mode, seed, r)
            # a decision's options name only cards its role sees
            site = game.decision(st).site if not game.decision(st).site.menu else None
            if site is not None:
                visible = shown_ids(viewer.observe(st, role))
                for option in game.decision(st).options:
                    assert {v for v, card in zip(option, site.is_card) if card and v is not None} <= visible
            index = make_agent("random", seed, role).choose(PlayerView(game, viewer, st))
            for log in players.values():
                log.decision(game, viewer, st, index)
            game.apply(st, index)
        for r, f in logs.items():
            for line in f.getvalue().splitlines()[1:]:
                record = json.loads(line)
                if record["type"] == "decision":
                    assert ("choice" in record) == (record["role"] == r)


def test_hidden_cards_are_never_named_by_a_players_log():
    game = game_for(mode="versus")
    log = io.StringIO()
    head = header(game.ruleset, None, "versus", 0, {"challenger": "random", "trialmaster": "random"})
    agents = {r: make_agent("random", 0, r) for r in game.roles}
    play(game, 0, agents, log=GameLog(log, head, role="challenger"))
    records = [json.loads(line) for line in log.getvalue().splitlines()]
    assert records[0]["log_of"] == "challenger"
    theirs = [r for r in records[1:-1] if r.get("role") == "trialmaster"]
    # who decided what label, and the option as the challenger saw it once play went on: the trial card
    # the trialmaster played face up by its name, never by its place in the trialmaster's hand
    assert theirs and all(set(r) == {"type", "n", "round", "step", "role", "label", "option"} for r in theirs)
    assert any(r["option"] != "a hidden card" for r in theirs)


# ------------------------------------------------------------------ sampled states


def sampler_for(game):
    return Sampler(game, Viewer(game))


def swap_hidden(game, st, zone_a: str, zone_b: str):
    """The same state with a card of zone_a and one of zone_b trading places."""
    other = st.clone()
    za, zb = game.zone_index(zone_a), game.zone_index(zone_b)
    i, j = 0, len(other.zones[zb]) - 1
    a, b = other.zones[za][i], other.zones[zb][j]
    other.zones[za][i], other.zones[zb][j] = b, a
    other.where[a], other.where[b] = zb, za
    other.face_up[a], other.face_up[b] = other.face_up[b], other.face_up[a]  # each place keeps its facing
    return other


def test_a_redeal_depends_only_on_what_the_role_sees():
    game = game_for(mode="versus")
    st = game.new_state(4)
    twin = swap_hidden(game, st, "trials_hand", "trial_deck")  # the challenger cannot tell them apart
    assert twin.to_json() != st.to_json()
    redeal = Redeal(game, Viewer(game))
    for seed in range(5):
        assert redeal.sample(st, "challenger", seed).to_json() == redeal.sample(twin, "challenger", seed).to_json()
    # the trialmaster sees its own hand, so for it the two states differ
    assert redeal.sample(st, "trialmaster", 0).to_json() != redeal.sample(twin, "trialmaster", 0).to_json()
    # a state that is not where its history leads (arranged by hand) has nothing to replay: it is redealt
    assert sampler_for(game).prepare(twin, "challenger").kind == "redeal"


def seen_ever(game, st, role) -> set[int]:
    """Every card the role saw so far, at any stop of the game or after any effect (its answers replayed)."""
    seen, viewers = set(), []

    def look(s, span=None):  # (the setup every game shares runs while the game is made: no one watches it)
        for viewer in viewers:
            seen.update(c for c in range(len(s.where)) if s.where[c] == 0 or viewer.sees(s, c, role))  # the box is public
    replay = Game(game.ruleset, game.mode.name, explicit_chance=True, after_effect=look)
    viewers.append(Viewer(replay))
    r, answers = replay.new_state(st.seed), st.answers()
    while True:
        look(r)
        if r.chance is not None:
            replay.apply_chance(r, replay.sample_chance(r))
        elif not answers:
            return seen
        else:
            replay.apply(r, answers.pop(0))


@pytest.mark.parametrize("name, params, stop", [("twenty-trials", {}, 40), ("oh-hell", {"players": 3}, 25),
                                               pytest.param("hand-of-fate-ordeals", {"players": 2}, 30,
                                                            marks=pytest.mark.slow)])
def test_a_replayed_sample_knows_only_what_the_role_saw(name, params, stop):
    # what a replay keeps of the real game — the cards it puts back where they were, the choices
    # and picks it repeats — are cards the role saw; the rest is dealt again
    rs = load_ruleset(name, params={k: str(v) for k, v in params.items()})
    game = Game(rs, "versus" if name == "twenty-trials" else None)
    st = play(game, 3, {r: make_agent("random", 3, r) for r in game.roles}, stop_at=stop)
    role = st.pending.role
    sampler = sampler_for(game)
    belief = sampler.prepare(st, role)
    assert belief.kind == "replay"
    rules = sampler.replay_game.rules
    seen = seen_ever(game, st, role)
    kept = set()
    for e in belief.entries:
        if isinstance(e, Shuffle):
            kept |= {c for _, c in e.kept}
        elif isinstance(e, Pick) and e.row is not None:
            site = rules.chance_sites[e.site]
            kept |= {v for v, card in zip(e.row, site.is_card) if card}
        elif isinstance(e, Other) and e.values is not None:
            site = rules.sites[e.site]
            kept |= {v for v, card in zip(e.values, site.is_card) if card and not site.menu}
    assert kept - {None} <= seen


@pytest.mark.parametrize("name, params", [("twenty-trials", {}), ("oh-hell", {"players": 4}),
                                          pytest.param("hand-of-fate-ordeals", {"players": 3}, marks=pytest.mark.slow),
                                          pytest.param("gauntlet-16-7", {"players": 4}, marks=pytest.mark.slow)])
def test_a_replayed_sample_is_a_game_the_rules_reach_that_the_role_cannot_tell_apart(name, params):
    game = Game(load_ruleset(name, params={k: str(v) for k, v in params.items()}),
                "versus" if name == "twenty-trials" else None, check_invariants=True)
    sampler = sampler_for(game)
    search = sampler.search_game
    drawn = replays = 0
    for stop in (8, 16, 24):
        st = play(game, 5, {r: make_agent("random", 5, r) for r in game.roles}, stop_at=stop)
        role = st.pending.role
        belief = sampler.prepare(st, role)

        def seen_in(s):  # a sample leaves out the rolls and picks so far (history a play-out needs not)
            return {k: v for k, v in Viewer(search).observe(s, role).items() if k not in ("chance", "events")}
        seen = seen_in(belief.state)
        assert Viewer(search).observe(belief.state, role) == Viewer(game).observe(st, role)
        orders = set()
        for seed in range(4):
            s, replayed = sampler.draw(st, role, seed, belief)
            assert seen_in(s) == seen  # a replay, or else a redeal: either way what the role saw
            drawn += 1
            if not replayed:
                continue
            replays += 1
            orders.add(tuple(map(tuple, s.zones)))
            while s.outcome is None:  # a replay plays on to an end, invariants checked after every effect
                search.apply(s, 0)
        assert len(orders) != 1  # what the role cannot see is dealt again
    # a few positions of 16-7 ask whether a player holds a card it could play before a roll, which
    # random deals seldom get right: those samples are redeals
    assert replays >= drawn // 2, (replays, drawn)


def test_a_sample_keeps_each_players_own_components_with_that_player():
    # every player draws, at random, tokens of their own colour from a bag only the owner sees:
    # a redeal of what the first player cannot see would swap tokens between the other two
    text = """
game: pouches
players: 3
types:
  colour: [c1, c2, c3]
cards:
  token:
    fields: {colour: colour, value: 1..6}
    each: [colour]
    table: |
      value
      1
      2
      3
      4
      5
      6
zones:
  pouch: {owner: each, seen_by: none}
  cup: {owner: each, seen_by: owner}
  table: {}
vars:
  points: {initial: 0, owner: each}
setup: |
  for p in players:
    move all t in box where t.colour == colour_of(p) to pouch of p
define:
  colour_of(role p):
    value: |
      case seat(p):
        1: c1
        2: c2
        else: c3
modes:
  game:
    round:
      - step: Draw
        do: |
          for p in players:
            take random t in pouch of p:
              move t to cup of p
      - step: Play
        do: |
          for p in players:
            p chooses t in cup of p as play:
              points of p += t.value
              move t to table
          if round == 3:
            end game
    score: points
"""
    from rulelang import load_text
    game = Game(load_text(text, "pouches.yaml"), check_invariants=True)
    st = play(game, 2, {r: make_agent("random", 2, r) for r in game.roles}, stop_at=4)
    role = st.pending.role
    sampler = sampler_for(game)
    colour = {c.id: c.values["colour"] for c in game.ruleset.cards}
    for seed in range(10):
        s, replayed = sampler.draw(st, role, seed)
        assert replayed
        for p in game.roles:
            mine = {colour[c] for z in ("pouch", "cup") for c in s.zones[game.zone_index(z, p)]}
            assert len(mine) <= 1, (seed, p)
    # a redeal mixes them up
    redeal = Redeal(game, Viewer(game))
    mixed = False
    for seed in range(10):
        s = redeal.sample(st, role, seed)
        mixed |= any(len({colour[c] for z in ("pouch", "cup") for c in s.zones[game.zone_index(z, p)]}) > 1
                     for p in game.roles)
    assert mixed


def test_a_sample_keeps_what_the_role_sees_and_deals_the_rest_again():
    game = game_for(mode="challenger", trial_modifiers=True, action_modifiers=True)
    sampler = sampler_for(game)
    st = game.new_state(2)
    seen = Viewer(game).observe(st, "challenger")
    decks = set()
    for seed in range(20):
        s, replayed = sampler.draw(st, "challenger", seed)
        assert replayed
        assert Viewer(sampler.search_game).observe(s, "challenger") == seen
        assert s.rng != st.rng
        for zi, (name, _) in enumerate(game.layout.instances[1:], 1):
            assert {game.layout.kind_of[c] for c in s.zones[zi]} <= game.possible.get(name, set())
            assert all(s.where[c] == zi for c in s.zones[zi])
        decks.add(tuple(s.zones[game.zone_index("action_deck")]))
    assert len(decks) > 15  # the deck order is not known


def test_a_sample_renames_locals_that_hold_hidden_cards():
    # a local bound to the top card of a face-down pile, then a decision
    text = tiny("let c = top(pile)\nsolo chooses n in [1, 2] as pick:\n  move c to out\nwin solo")
    text = text.replace("pile: {}", "pile: {facing: down}").replace("move box to pile", "move box to pile\n  shuffle pile")
    game = Game(load_text(text, "peek.yaml"))
    st = game.new_state(0)
    real = st.stack[-1].env["c"]
    for sampler in (sampler_for(game), Redeal(game, Viewer(game))):
        tops = set()
        for seed in range(12):
            s = sampler.sample(st, "solo", seed)
            assert s.stack[-1].env["c"] == s.zones[game.zone_index("pile")][-1]  # still "the top card"
            tops.add(s.stack[-1].env["c"])
        assert len(tops) > 1 and real in st.zones[game.zone_index("pile")]


def test_the_deal_gives_each_hiding_place_the_first_card_of_the_shuffled_pool_that_fits():
    # the rule the sampler's deal keeps, written the slow, obvious way (HoF hides many types in many zones;
    # in Twenty Trials each place fits one type, in the Gobbots' stack every place every card: the deal's short cuts)
    from interpreter.runtime import rng
    for name, shape in (("hand-of-fate-ordeals", "mixed"), ("twenty-trials", "slots"), ("gauntlet-gobbots", "free")):
        game = compiled(name)
        sampler = Redeal(game, Viewer(game))
        st = game.new_state(3)
        role = game.decision(st).role
        hidden = sampler.hidden(st, role)
        kinds = {t for fits in hidden.fitting for t in fits}
        assert shape == ("free" if hidden.free else "slots" if hidden.slots else "mixed"), name
        assert len(kinds) > 1 or shape == "free"
        for seed in range(10):
            pool = list(hidden.cards)
            rng.shuffle(rng.derive(seed, "deal"), pool)
            expected = [None] * len(hidden.positions)
            for k in hidden.order:
                fits = sampler.allowed[hidden.positions[k][0]]
                expected[k] = pool.pop(next(j for j, c in enumerate(pool) if game.layout.kind_of[c] in fits))
            assert sampler.deal(hidden, rng.derive(seed, "deal")) == expected, (name, seed)


# ------------------------------------------------------------------ the agents


def test_quick_answers_are_the_agents_own():
    # the random agent hands the engine a one-call pick with the same answers as its method;
    # a subclass keeps its own quick answer, and one that only chooses otherwise has none
    from interpreter.agents.match import quick_of
    from interpreter.agents.simple import RandomAgent

    class Fixed(RandomAgent):
        def choose(self, view):
            return 0

        def quick(self, number, count, label):
            return 0

    class Chooses(RandomAgent):
        def choose(self, view):
            return 0

    agent = RandomAgent(5, "challenger")
    fast = quick_of(agent, "challenger")
    assert fast is not None and fast.__name__ != "quick"
    assert [fast(k, 7, "complete") for k in range(50)] == [RandomAgent.quick(agent, k, 7, "complete") for k in range(50)]
    assert quick_of(Fixed(5, "challenger"), "challenger")(3, 7, "complete") == 0
    assert quick_of(Chooses(5, "challenger"), "challenger") is None


@pytest.mark.parametrize("name, spec", [("twenty-trials", "random"), ("gauntlet-race", "random"),
                                        ("gauntlet-gobbots", "random:always=block_token:keep")])
def test_quick_answers_asked_at_the_decision_play_the_game_the_agent_chooses(name, spec):
    # in a simulation the generated code asks quick agents itself (a menu's too), and one that
    # declines a decision (`always`) is asked with a view: the game of choose() at every decision
    game = compiled(name)
    viewer = Viewer(game)
    for seed in range(4 if name != "gauntlet-race" else 1):  # random players wander the race's track long
        fast = play(game, seed, {r: make_agent(spec, seed, r) for r in game.roles})
        agents = {r: make_agent(spec, seed, r) for r in game.roles}
        st = game.new_state(seed)
        while st.outcome is None:
            p = st.pending
            if p is None:
                game.apply_chance(st, game.sample_chance(st))
            else:
                game.apply(st, agents[p.role].choose(PlayerView(game, viewer, st)))
        assert (fast.answers(), fast.outcome) == (st.answers(), st.outcome), (name, seed)
        assert fast.events == st.events, (name, seed)  # the race keeps its history: decisions and dice
        assert fast.quick is NO_QUICK  # quick answers only while the engine runs
        # a simulation reads only the outcome: with agents that never look, no decision is kept among the
        # events (the dice still are) nor among the answers; one that may look (`always`) gets the whole history
        unseen = play(game, seed, {r: make_agent(spec, seed, r) for r in game.roles}, history=False)
        assert unseen.outcome == st.outcome, (name, seed)
        assert unseen.answers() == (st.answers() if "always" in spec else []), (name, seed)
        kept = st.events if "always" in spec else [e for e in st.events or () if type(e) is not Decided]
        assert unseen.events == (kept if st.events is not None else None), (name, seed)


def test_agent_specs():
    assert parse_spec("mcts:iterations=20,c=1.5") == ("mcts", {"iterations": 20, "c": 1.5})
    assert parse_spec("greedy") == ("greedy", {})
    with pytest.raises(AgentSpecError, match="has no option 'depht=2'"):
        parse_spec("greedy:depht=2")
    with pytest.raises(AgentSpecError, match="must be a whole number"):
        parse_spec("mcts:iterations=many")
    with pytest.raises(AgentSpecError, match="unknown agent 'genius'"):
        parse_spec("genius")
    r = rulelang("run", "twenty-trials", "--agent", "challenger=mcts:iterations=0")
    assert r.returncode == 2 and "iterations from 1 to 1,000,000" in r.stderr and "Traceback" not in r.stderr
    for spec in ("mcts:iterations=999999999999999", "mcts:seconds=1e9", "greedy:samples=10000000"):
        with pytest.raises(AgentSpecError, match="from 1 to|from 0 to"):
            make_agent(spec, 0, "challenger")


def test_always_fixes_one_decision_and_leaves_the_others_to_the_agent():
    from helpers.gauntlet_16_7 import Gauntlet167
    assert parse_spec("greedy:always=approach:together,samples=2") == \
        ("greedy", {"always": ("approach", "together"), "samples": 2})
    with pytest.raises(AgentSpecError, match="must be LABEL:OPTION, not 'approach'"):
        parse_spec("random:always=approach")
    p = Gauntlet167(3)
    p.start("Reveal green cards")  # player 2 chooses to face room 1 with player 1 or alone
    view = PlayerView(p.game, Viewer(p.game), p.st)
    assert view.label == "approach" and view.options == ["separately", "together"]
    for kind in ("random", "greedy"):
        for way in ("together", "separately"):
            agent = make_agent(f"{kind}:always=approach:{way}", 3, view.role)
            assert view.options[agent.choose(view)] == way
    # a decision of another label is the agent's own: as it would choose without `always`
    path = make_agent("random:always=forbidden_path:take_path", 3, view.role)
    assert path.choose(view) == make_agent("random", 3, view.role).choose(view)


@pytest.mark.parametrize("spec", ["greedy:samples=2", "mcts:iterations=15"])
def test_search_agents_play_every_mode_the_same_way_twice(spec):
    for mode in ("challenger", "trialmaster", "moderator"):
        game = game_for(mode=mode)
        outcomes = []
        for _ in range(2):
            agents = {r: make_agent(spec, 7, r) for r in game.roles}
            outcomes.append(play(game, 7, agents).outcome)
        assert outcomes[0] == outcomes[1]


def test_search_agents_never_touch_the_real_state():
    """They read the game only through PlayerView: the observation, the options and samples."""
    game = game_for(mode="versus")
    viewer = Viewer(game)
    st = game.new_state(1)
    before = st.to_json()
    for spec in ("greedy", "mcts:iterations=10"):
        view = PlayerView(game, viewer, st)
        make_agent(spec, 1, view.role).choose(view)
        assert st.to_json() == before


def test_greedy_beats_random_in_moderator_mode():
    from interpreter.analysis.simulate import simulate
    game = game_for(mode="moderator")
    greedy = sum(simulate(game, 60, 0, {"moderator": "greedy:samples=1"}).won["moderator"])
    random = sum(simulate(game, 60, 0, {"moderator": "random"}).won["moderator"])
    assert greedy > random


def test_a_players_log_from_the_command_line(tmp_path):
    path = tmp_path / "tm.jsonl"
    r = rulelang("run", "twenty-trials", "--mode", "versus", "--log", str(path), "--log-as", "trialmaster")
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["log_of"] == "trialmaster"
    assert all("choice" not in rec for rec in records if rec.get("role") == "challenger")
    again = rulelang("replay", str(path))
    assert again.returncode == 1 and "only a full log" in again.stderr


def test_a_rule_that_fails_inside_a_search_is_reported_as_found_by_that_agent(tmp_path):
    # the second option breaks a rule (the top card of an empty pile): a random game that never takes it
    # plays on; a search agent that looks ahead finds it, and the message says it was its search
    text = tiny("solo chooses n in [1, 2] as pick:\n  if n == 2:\n    move top(out) to pile\n"
                "  total += n\nif total > 2:\n  win solo")
    path = tmp_path / "trap.yaml"
    path.write_text(text)
    ok = rulelang("run", str(path), "--agent", "solo=first")
    assert ok.returncode == 0, ok.stderr
    r = rulelang("run", str(path), "--agent", "solo=mcts:iterations=4")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "the rules failed inside the search of agent 'mcts:iterations=4' (solo), in a game they can reach" \
        in r.stderr
    assert "while agent 'mcts:iterations=4', playing solo, searched ahead" in r.stderr
