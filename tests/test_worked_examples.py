"""The worked examples of the rulebook's Challenger section, as positions.

Each sets up the position the example describes and checks the options the
rules offer are exactly the ones the rulebook's rules allow (the rulings in
the ruleset say how an option is counted).
"""
from helpers import Position, game_for


def pairs(position: Position) -> set[frozenset]:
    """The complete options as sets of card labels (modifier uses shown too)."""
    assert position.decision.label == "complete"
    return {frozenset(option.split(", ")) for option in position.options()}


def test_strength_example():
    # Strength 11; hand 2, 3, 5, 8: "discard either the 3 and 8, or the 5 and 8".
    p = Position(game_for())
    p.put("chamber", p.card("trial", kind="strength", value=11))
    p.put("hand", *(p.card("action", value=v, icon=i) for v, i in
                     [(2, "dark_sun"), (3, "dark_sun"), (5, "dark_sun"), (8, "dark_sun")]))
    p.start("Engage the trial")
    assert pairs(p) == {frozenset({"3 dark sun", "8 dark sun"}), frozenset({"5 dark sun", "8 dark sun"})}


def test_balance_with_trial_modifier_example():
    # Balance 1 and a sun trial modifier; hand 3☀ 5☀ 6☾ 7☾: only 5☀ and 6☾.
    p = Position(game_for(trial_modifiers=True))
    p.put("chamber", p.card("trial", kind="balance", value=1), p.card("trial_modifier", aspect="sun"))
    p.put("hand", p.card("action", value=3, icon="dark_sun"), p.card("action", value=5, icon="dark_sun"),
          p.card("action", value=6, icon="dark_moon"), p.card("action", value=7, icon="dark_moon"))
    p.start("Engage the trial")
    assert pairs(p) == {frozenset({"5 dark sun", "6 dark moon"})}


def test_precision_with_action_modifier_example():
    # Precision 4; hand 2, 5, 7, 8; an action modifier lets the 5 be any value.
    # The rulebook shows one way ("convert 5 to a 3, then discard this card and
    # the 7"); the rules allow exactly three: the 5, used as any value, with each
    # other card that some value completes (2 with 2 or 6, 7 with 3, 8 with 4).
    p = Position(game_for(action_modifiers=True))
    modifier = p.card("action_modifier", icon="dark_sun")
    p.put("chamber", p.card("trial", kind="precision", value=4))
    p.put("reserve", *p.game.cards("refresh"), modifier)
    p.put("hand", p.card("action", value=2, icon="light_moon"), p.card("action", value=5, icon="dark_sun"),
          p.card("action", value=7, icon="light_sun"), p.card("action", value=8, icon="light_moon"))
    p.start("Engage the trial")
    used = "action modifier: dark sun"
    rulebook = frozenset({"5 dark sun", "7 light sun", used})
    assert rulebook in pairs(p)
    assert pairs(p) == {frozenset({"2 light moon", "5 dark sun", used}), rulebook,
                        frozenset({"5 dark sun", "8 light moon", used})}
    p.choose("5 dark sun, 7 light sun, action modifier: dark sun")
    assert "action modifier: dark sun" in p.zone("removed")  # a used action modifier leaves the game


def test_stealth_draw_and_discard_example():
    # Stealth 8; hand 4, 5, 7, 8: no pair. Draw a 2, discard the 7; then 2+4 or 2+5.
    p = Position(game_for())
    hand = [p.card("action", value=v, icon=i) for v, i in
            [(4, "light_sun"), (5, "dark_sun"), (7, "light_sun"), (8, "dark_sun")]]
    two = p.card("action", value=2, icon="dark_sun")
    rest = [c for c in p.game.cards("action") if c not in hand + [two]]
    p.put("chamber", p.card("trial", kind="stealth", value=8))
    p.put("hand", *hand)
    p.put("action_deck", *rest, two)  # the 2 on top
    p.start("Engage the trial")
    assert p.decision.label == "discard"
    assert p.options() == ["4 light sun", "5 dark sun", "7 light sun", "8 dark sun", "2 dark sun"]
    p.choose("7 light sun")
    assert pairs(p) == {frozenset({"2 dark sun", "4 light sun"}), frozenset({"2 dark sun", "5 dark sun"})}
