"""`swap`: two cards change places, or two zones their cards — the statement added by following
docs/architecture.md's "Adding a statement", as its proof: it checks with located errors, plays
the same with every pass as naive, prints in English, and takes no name a ruleset already uses."""
import pytest
from test_language import TINY, run_once, tiny
from test_naive_reference import CONFIGS, trace

from generators.markdown import to_markdown
from generators.summary import summary
from interpreter.compiler.options import NAIVE
from interpreter.engine.game import Game
from rulelang import load_text
from rulelang.errors import RulesetError


@pytest.mark.parametrize("body, total", [
    # the pile holds 1 2 3 4 (4 on top); zones exchange their cards, each in its order
    ("move top(pile) to out\nswap pile with out\ntotal = size(pile) * 100 + top(out).value * 10 + bottom(out).value\n"
     "win solo", 131),
    # two cards: each where the other lay, at its place in that zone
    ("move top(pile) to out\nswap bottom(pile) with top(out)\ntotal = top(out).value * 10 + bottom(pile).value\n"
     "win solo", 14),
    ("swap bottom(pile) with top(pile)\ntotal = top(pile).value * 10 + bottom(pile).value\nwin solo", 14),
    ("let c = bottom(pile)\nswap c with c\ntotal = bottom(pile).value\nwin solo", 1),
    ("swap pile with pile\ntotal = size(pile)\nwin solo", 4),
])
def test_swap_plays_the_same_optimised_and_naive(body, total):
    for optimize in (True, False):
        assert run_once(tiny(body), optimize=optimize).vars[0] == total, (body, optimize)


def test_moved_cards_lie_as_their_new_zone_does():
    text = tiny("move top(pile) to out\nswap bottom(pile) with top(out)\n"
                "total = (10 if face_down(top(out)) else 0) + (1 if face_down(bottom(pile)) else 0)\nwin solo")
    for optimize in (True, False):
        assert run_once(text.replace("  out: {}", "  out: {facing: down}"), optimize=optimize).vars[0] == 10


# two kinds of card: the tokens reach the pile only by a swap, so a type test there must not fold
# away (the zone analysis follows swaps); decisions choose what is swapped, every pass plays it
GAME = TINY.replace("cards:\n", "cards:\n  token:\n    fields: {value: number}\n    table: |\n      value\n      7\n"
                                "      8\n").replace("move box to pile", "move all c in box where c is chip to pile\n"
                                                      "  move all c in box where c is token to stash") \
    .replace("  out: {}", "  out: {}\n  stash: {facing: down}").replace("{body}", """repeat 3 times:
            solo chooses c in pile, d in stash as trade:
              swap c with d
            if exists c in pile where c is token:
              total += 1
            solo chooses keep in [1, 2] as whole:
              if keep == 2:
                swap pile with stash
          total = total * 100 + sum(c.value for c in pile)
          win solo""")


def test_every_pass_plays_the_naive_games():
    rs = load_text(GAME, "swap.yaml")
    expected = [trace(Game(rs, passes=NAIVE), seed) for seed in range(6)]
    assert len({str(e) for e in expected}) > 1  # the games differ: the decisions matter
    for label, options in CONFIGS.items():
        game = Game(rs, passes=options)
        assert [trace(game, seed) for seed in range(6)] == expected, label


@pytest.mark.parametrize("body, line, col, message", [
    ("swap top(pile) with out", 1, 21, "cannot swap a card with a zone's cards"),
    ("swap 3 with out", 1, 6, "swap exchanges two cards or two zones' cards, and this is number"),
    ("swap pile out", 1, 11, "unexpected 'out'"),
])
def test_a_wrong_swap_is_located(body, line, col, message):
    text = tiny(body + "\nwin solo")
    with pytest.raises(RulesetError) as info:
        load_text(text, "t.yaml")
    d = info.value.diagnostics[0]
    start = text.splitlines().index("          " + body) + 1
    assert (d.span.line, d.span.col) == (start + line - 1, 10 + col) and message in d.message, str(info.value)


def test_a_swap_keeps_to_what_zones_hold():
    holds = GAME.replace("  stash: {facing: down}", "  stash: {facing: down, holds: [token]}")
    with pytest.raises(RulesetError, match="chip cards cannot go to stash, where the other card may lie"):
        load_text(holds, "t.yaml")
    with pytest.raises(RulesetError, match="chip cards cannot go to stash: it holds only token"):
        load_text(holds.replace("swap c with d", "pass"), "t.yaml")


def test_a_ruleset_that_names_things_swap_or_with_still_checks_and_plays():
    """The words came after version 2: read by their place in every version, reserved in none."""
    for version in ("", "language: 2\n"):
        own = version + TINY.replace("setup: |", "procedures:\n  swap(): |\n    total += 1\nsetup: |") \
            .replace("  out: {}", "  out: {}\n  with: {}").replace("{body}", "swap()\n"
                                                                  "          move top(pile) to with\n"
                                                                  "          swap pile with with\n"
                                                                  "          total = total * 10 + size(pile)\n"
                                                                  "          win solo")
        assert run_once(own).vars[0] == 11
        local = version + tiny("let swap = 2\nswap += 1\nfor with in pile where with.value > swap:\n"
                               "  total += with.value\nwin solo")
        assert run_once(local).vars[0] == 4

def test_the_printed_rules_say_what_a_swap_does():
    text = to_markdown([summary(load_text(GAME, "swap.yaml"))])
    assert "swap that chip card with that token card (each takes the other's place)" in text.lower() or \
        "(each takes the other's place)" in text, text
    assert "exchange the cards in the pile with those in the stash" in text.lower(), text
