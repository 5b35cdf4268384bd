"""The Challenger-mode rulings of COMPONENTS.md, each on a hand-built position."""
from helpers import Position, game_for


def setup_empty_deck(p: Position, hand_values, trial=("strength", 13)):
    """Chamber holds `trial`, hand the given cards, action deck empty, the rest discarded."""
    hand = [p.game.cards("action", value=v)[i] for i, v in enumerate(hand_values)]
    p.put("chamber", p.card("trial", kind=trial[0], value=trial[1]))
    p.put("hand", *hand)
    p.put("action_deck")
    p.put("action_discard", *[c for c in p.game.cards("action") if c not in hand])
    return hand


def test_refresh_reshuffles_and_draws_four():
    p = Position(game_for())
    setup_empty_deck(p, [1, 2])  # 1 + 2 cannot reach 13
    p.start("Engage the trial")
    reserve = p.st.zones[p.game.zone_index("reserve")]
    assert sorted(p.st.face_up[c] for c in reserve) == [False, True]  # one refresh used
    assert len(p.zone("action_discard")) == 0
    assert len(p.zone("hand")) >= 2  # drew four more, then discarded as the rules went on
    assert p.st.vars[p.game.layout.var_slot["refreshes_used"]] == 1


def test_exhausted_when_no_refresh_is_left():
    p = Position(game_for())
    setup_empty_deck(p, [1, 2])
    for r in p.game.cards("refresh"):
        p.st.face_up[r] = False
    p.start("Engage the trial")
    outcome = p.game.outcome(p.st)
    assert outcome["results"] == {"challenger": "lose"} and outcome["reason"] == "exhausted"


def test_draw_step_fills_the_hand_to_four_and_never_discards():
    p = Position(game_for())
    p.put("hand", *p.game.cards("action", value=1))  # two cards
    p.start("Draw cards")
    assert len(p.zone("hand")) == 4
    assert p.decision is not None  # the round went on to its first decision


def test_rating_on_a_win():
    game = game_for()
    ratings = {}
    for seed in range(400):
        st = game.new_state(seed)
        while st.outcome is None:
            game.apply(st, 0)
        if st.outcome["results"]["challenger"] == "win":
            score = st.outcome["scores"]["challenger"]
            expected = "bronze" if score <= 3 else "silver" if score <= 7 else "gold"
            assert st.outcome["ratings"] == {"challenger": expected}
            ratings[expected] = ratings.get(expected, 0) + 1
        else:
            assert st.outcome["ratings"] == {}
    assert ratings  # some wins were rated


def test_a_drawn_action_modifier_needs_no_discard():
    p = Position(game_for(action_modifiers=True))
    hand = [p.game.cards("action", value=v)[0] for v in (1, 2, 3, 4)]
    modifier = p.card("action_modifier", icon="dark_moon")
    p.put("chamber", p.card("trial", kind="strength", value=13))
    p.put("hand", *hand)
    rest = [c for c in p.game.cards("action") if c not in hand]
    p.put("action_deck", *rest, modifier)  # the modifier on top
    p.start("Engage the trial")
    assert "action modifier: dark moon" in p.zone("reserve")
    # the next decision discards for the card drawn after the modifier, not for the modifier
    assert p.decision.label == "discard" and len(p.options()) == 5
