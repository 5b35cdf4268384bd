"""Trialmaster, Moderator and Versus modes of Twenty Trials, on hand-built
positions: each automated rule and each ruling, one test at a time."""
import pytest
from helpers import Position, game_for


def action(p: Position, value: int, icon: str | None = None) -> int:
    return p.card("action", value=value, icon=icon) if icon else p.game.cards("action", value=value)[0]


def actions(p: Position, *values) -> list[int]:
    """Distinct action cards with these values (the sun one first, then the moon one)."""
    taken = []
    for v in values:
        taken.append(next(c for c in p.game.cards("action", value=v) if c not in taken))
    return taken


def values(p: Position, zone: str) -> list[int]:
    col = p.game.layout.columns["value"]
    return [col[c] for c in p.st.zones[p.game.zone_index(zone)] if p.game.layout.kind_of[c] == "action"]


def trialmaster(**params) -> Position:
    return Position(game_for(mode="trialmaster", **params))


# ------------------------------------------------------------------ Trialmaster mode


def test_trialmaster_picks_from_a_hand_of_four_trials():
    p = trialmaster()
    assert p.decision.role == "trialmaster" and p.decision.label == "trial"
    assert len(p.options()) == 4 and len(p.zone("trials_hand")) == 4
    assert len(values(p, "chamber")) == 3  # the Challenger's row: three action cards, face up


def test_new_action_cards_are_added_on_the_left():
    p = trialmaster()
    row = actions(p, 1, 2)
    p.put("chamber", *row)
    p.put("action_deck", *actions(p, 8, 7))  # 7 on top
    p.start("Draw cards")
    assert values(p, "chamber") == [7, 1, 2]


def test_the_right_most_satisfying_pair_is_chosen():
    p = trialmaster()
    # strength 9 over the row 5 4 6 3: (5,4) (5,6) (4,6) (6,3) all meet it; (6,3) is right-most
    p.put("chamber", *actions(p, 5, 4, 6, 3), p.card("trial", kind="strength", value=9))
    p.start("Engage the trial")
    assert values(p, "action_discard") == [6, 3]


def test_the_right_most_pair_is_read_from_its_left_card():
    p = trialmaster()
    # strength 9 over 8 1 2 7: (8,1) (8,2) (8,7) (2,7) meet it; (2,7) has the right-most left card
    p.put("chamber", *actions(p, 8, 1, 2, 7), p.card("trial", kind="strength", value=9))
    p.start("Engage the trial")
    assert values(p, "action_discard") == [2, 7]


def test_the_challenger_draws_until_a_pair_meets_the_trial():
    p = trialmaster()
    p.put("chamber", *actions(p, 1, 2), p.card("trial", kind="strength", value=13))
    p.put("action_deck", *actions(p, 8, 3, 6, 5))  # 5 drawn first, then 6, 3, 8
    p.start("Engage the trial")
    # 5, 6 and 3 are drawn (each on the left) without meeting 13: the row is 3 6 5 1 2.
    # The 8 joins on the left and meets it with the 6 and with the 5; the 5 is further right.
    # Then the row 3 6 1 2 is trimmed to two from the right: 2, then 1.
    assert values(p, "action_discard") == [8, 5, 2, 1]
    assert values(p, "chamber")[-2:] == [3, 6]


def test_discards_come_from_the_right_and_the_chamber_is_trimmed_to_two():
    p = trialmaster()
    p.put("chamber", *actions(p, 1, 2, 3, 4), p.card("trial", kind="strength", value=9))
    p.start("Reset the chamber")
    assert values(p, "action_discard") == [4, 3]  # the right-most first
    assert values(p, "chamber")[-2:] == [1, 2]  # the two left-most stay (new ones join on their left)
    assert p.zone("trial_discard") == ["strength 9"]


def test_a_refresh_when_the_deck_is_empty():
    p = trialmaster()
    p.put("chamber", *actions(p, 1, 2), p.card("trial", kind="strength", value=13))
    p.put("action_deck")
    p.put("action_discard", *actions(p, 7, 6, 8, 5))
    p.start("Engage the trial")
    # the discard pile and the row (1, 2) are shuffled back; four are drawn, more until 13 is met
    assert p.st.vars[p.game.layout.var_slot["refreshes_used"]] == 1
    assert sorted(p.st.face_up[r] for r in p.game.cards("refresh")) == [False, True]
    assert p.st.vars[p.game.layout.var_slot["trials_completed"]] == 1


def test_the_challenger_is_exhausted_without_refreshes():
    p = trialmaster()
    p.put("chamber", *actions(p, 1, 2), p.card("trial", kind="strength", value=13))
    p.put("action_deck")
    for r in p.game.cards("refresh"):
        p.st.face_up[r] = False
    p.start("Engage the trial")
    outcome = p.game.outcome(p.st)
    assert outcome["results"] == {"trialmaster": "win", "challenger": "lose"}
    assert outcome["reason"] == "exhausted" and outcome["ratings"] == {}


def test_action_modifiers_are_used_only_when_no_pair_meets_without_them():
    p = trialmaster(action_modifiers=True)
    modifier = p.card("action_modifier", icon="dark_moon")
    p.put("reserve", *p.game.cards("refresh"), modifier)
    # stealth 5: 4+1 meets it without help; 7 (dark moon) as anything would be further right
    p.put("chamber", action(p, 4, "light_sun"), action(p, 1, "dark_moon"), action(p, 7, "dark_moon"),
          p.card("trial", kind="stealth", value=5))
    p.start("Engage the trial")
    assert values(p, "action_discard") == [4, 1] and "action modifier: dark moon" in p.zone("reserve")


def test_an_action_modifier_is_used_when_needed():
    p = trialmaster(action_modifiers=True)
    modifier = p.card("action_modifier", icon="dark_moon")
    p.put("reserve", *p.game.cards("refresh"), modifier)
    p.put("chamber", action(p, 8, "dark_sun"), action(p, 7, "dark_moon"), p.card("trial", kind="stealth", value=9))
    p.put("action_deck")  # 8 + 7 > 9; the 7 (dark moon) used as a 1 meets it
    p.start("Engage the trial")
    assert values(p, "action_discard") == [8, 7] and p.zone("removed") == ["action modifier: dark moon"]


def test_the_trialmaster_may_add_trial_modifiers():
    p = trialmaster(trial_modifiers=True)
    p.put("reserve", *p.game.cards("refresh"), p.card("trial_modifier", aspect="sun"))
    p.put("trials_hand", p.card("trial", kind="balance", value=0))
    p.start("Reveal the trial")
    p.choose("balance 0")
    assert p.decision.label == "add_modifier" and p.options() == ["(nothing)", "trial modifier: sun"]
    p.choose("trial modifier: sun")
    assert "trial modifier: sun" in p.zone("chamber") or p.zone("trial_discard")


def test_the_challenger_is_rated_when_it_wins():
    game = game_for(mode="trialmaster")
    for seed in range(200):
        st = game.new_state(seed)
        while not game.is_terminal(st):
            game.apply(st, 0)
        if st.outcome["results"]["challenger"] == "win":
            assert st.outcome["ratings"]["challenger"] in ("bronze", "silver", "gold")
            return
    pytest.fail("the automated Challenger never won in 200 games")


# ------------------------------------------------------------------ Moderator mode


def test_the_moderator_sees_every_card_and_the_order_of_the_decks():
    from interpreter.engine.view import Viewer
    game = game_for(mode="moderator")
    st = game.new_state(3)
    obs = Viewer(game).observe(st, "moderator")
    deck = st.zones[game.zone_index("action_deck")]
    assert [c["id"] for c in obs["zones"]["action_deck"]] == deck
    assert all(c is not None for cards in obs["zones"].values() for c in cards)


def test_moderator_mode_never_uses_modifiers():
    game = game_for(mode="moderator", trial_modifiers=True, action_modifiers=True)
    st = game.new_state(0)
    kinds = {game.layout.kind_of[c] for zone in st.zones[1:] for c in zone}
    assert kinds == {"trial", "action", "refresh"}


def test_moderator_options_are_a_trial_and_two_action_cards_that_meet_it():
    p = Position(game_for(mode="moderator"))
    p.put("chamber", *actions(p, 1, 2, 7, 8), p.card("trial", kind="strength", value=13),
          p.card("trial", kind="balance", value=0))
    p.start("Engage a trial")
    assert p.decision.label == "engage"
    assert p.options() == ["strength 13, 7 light sun, 8 dark sun"]
    p.choose("strength 13, 7 light sun, 8 dark sun")
    assert p.zone("trial_discard") == ["strength 13"] and "balance 0" in p.zone("chamber")
    assert values(p, "action_discard") == [7, 8]


def test_the_moderator_loses_when_no_trial_can_be_met():
    p = Position(game_for(mode="moderator"))
    p.put("chamber", *actions(p, 1, 2, 7, 8), p.card("trial", kind="balance", value=0))
    p.start("Engage a trial")
    assert p.game.outcome(p.st)["results"] == {"moderator": "lose"}


def test_the_moderator_refresh_keeps_the_two_chamber_cards():
    p = Position(game_for(mode="moderator"))
    kept = actions(p, 1, 8)
    p.put("chamber", *kept)
    p.put("action_deck")
    p.put("action_discard", *[c for c in p.game.cards("action") if c not in kept])
    p.start("Draw cards")
    row = [c for c in p.st.zones[p.game.zone_index("chamber")] if p.game.layout.kind_of[c] == "action"]
    assert len(row) == 4 and set(kept) <= set(row)
    assert len(p.st.zones[p.game.zone_index("action_deck")]) == 12 and p.zone("action_discard") == []


# ------------------------------------------------------------------ Versus mode


def versus() -> Position:
    return Position(game_for(mode="versus"))


def test_versus_the_challenger_places_three_cards_then_the_trialmaster_a_trial():
    p = versus()
    assert (p.decision.role, p.decision.label, len(p.options())) == ("challenger", "place", 4)
    p.game.apply(p.st, 0)
    assert len(values(p, "chamber")) == 3 and len(p.zone("hand")) == 1
    assert (p.decision.role, p.decision.label) == ("trialmaster", "trial")


def test_versus_a_trial_is_met_the_moment_two_cards_in_the_chamber_meet_it():
    p = versus()
    p.put("chamber", *actions(p, 2, 3), p.card("trial", kind="strength", value=9))
    p.put("hand", *actions(p, 7, 1))
    p.start("Engage the trial")
    assert (p.decision.role, p.decision.label) == ("challenger", "turn")
    p.choose("play card")
    p.choose(p.options()[0])  # the 7: 2 + 7 and 3 + 7 both meet strength 9
    assert (p.decision.role, p.decision.label) == ("challenger", "complete")
    assert len(p.options()) == 2
    p.game.apply(p.st, 1)  # 3 and 7
    assert values(p, "action_discard") == [3, 7]
    assert p.zone("trial_discard") == ["strength 9"]
    # the 2 went back to the hand; the next round has begun
    assert 2 in values(p, "hand") and p.st.vars[p.game.layout.var_slot["trials_completed"]] == 1


def test_versus_the_trialmaster_answers_each_turn():
    p = versus()
    p.put("chamber", *actions(p, 1, 2), p.card("trial", kind="strength", value=13))
    p.put("hand", *actions(p, 3))
    p.start("Engage the trial")
    p.choose("play card")
    p.choose(p.options()[0])
    assert (p.decision.role, p.decision.label) == ("trialmaster", "turn")
    assert "pass turn" in p.options() and "exchange trial" in p.options()


def test_versus_trial_modifiers_go_to_the_trialmasters_own_reserve():
    p = Position(game_for(mode="versus", trial_modifiers=True))
    modifier = p.card("trial_modifier", aspect="moon")
    p.put("trials_hand")
    p.put("trial_deck", *p.game.cards("trial")[:5], modifier)
    p.start("Draw cards")
    assert p.zone("tm_reserve") == ["trial modifier: moon"]
    assert len(p.zone("trials_hand")) == 4


def test_versus_the_challenger_is_exhausted():
    p = versus()
    p.put("chamber", *actions(p, 1, 2), p.card("trial", kind="strength", value=13))
    p.put("hand", *actions(p, 3))
    p.put("action_deck")
    for r in p.game.cards("refresh"):
        p.st.face_up[r] = False
    p.start("Engage the trial")
    assert p.game.outcome(p.st)["results"] == {"challenger": "lose", "trialmaster": "win"}


def test_the_solvers_winning_line_wins_and_a_lost_deal_has_none():
    from interpreter.analysis.solver import solve
    game = game_for(mode="moderator")
    for seed in (2, 4):
        result = solve(game, seed)
        assert result.winnable and len(result.choices) == 20
        st = game.new_state(seed)
        for i in result.choices:
            game.apply(st, i)
        assert st.outcome["results"] == {"moderator": "win"}
    lost = solve(game, 29)
    assert lost.winnable is False and lost.choices == []
    # here every option of the first decision loses at once
    st = game.new_state(29)
    for i in range(len(game.decision(st).options)):
        after = st.clone()
        game.apply(after, i)
        assert after.outcome["results"] == {"moderator": "lose"}
    assert solve(game, 4, max_positions=10).winnable is None


def test_versus_the_challenger_wins_on_finishing_the_gauntlet():
    """The twentieth trial met: the Challenger wins (random Trialmasters stop random Challengers sooner)."""
    p = versus()
    p.set("trials_completed", 19)
    p.put("chamber", *actions(p, 2, 3), p.card("trial", kind="strength", value=9))
    p.put("hand", *actions(p, 7, 1))
    p.start("Engage the trial")
    p.choose("play card")
    p.choose(p.options()[0])  # the 7 meets the strength 9 with the 2 or the 3
    p.game.apply(p.st, 0)
    out = p.game.outcome(p.st)
    assert out["results"] == {"challenger": "win", "trialmaster": "lose"} and out["reason"] == "finished"
