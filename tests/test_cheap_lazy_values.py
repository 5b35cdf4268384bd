"""A lazy value that costs no more than the test of whether it is computed yet, and never fails
(a variable, a comparison of locals and variables, a field of the top or bottom card of the
very zone the loops go through, inside their test that it has a card) is computed before the
loops that ask it, not tested at every binding (hoist.cheap_and_safe). One that may fail, or
costs more (a quantifier), stays lazy. The games are the plain rules' either way."""
import re

from helpers import assert_plays_as_plain, compiled

from interpreter.compiler.options import NAIVE


def _functions(game) -> dict[str, str]:
    """Each generated function's text by the rules' line it comes from (its first line's note)."""
    text = "\n".join(unit.text() for unit in game.rules.units)
    found: dict[str, str] = {}
    for m in re.finditer(r"^( *)def \w+\(.*\):  # (\S+)\n((?:\1 .*\n|\n)*)", text, re.MULTILINE):
        found.setdefault(m.group(2), m.group(3))
    return found


def test_the_led_suit_is_read_once_before_the_trick_is_gone_through():
    fast = compiled("oh-hell", params={"players": 4})
    winning = _functions(fast)["rulesets/examples/oh-hell.yaml:84"]  # first(c in trick ordered by strength(c) ...)
    assert "is not UNSET" not in winning  # neither trump() nor led() is tested at each card
    assert re.search(r"if d\d+:\n +h\d+ = .*\n +h\d+ = .*\n +for ", winning)  # both read once, inside `if trick:`


def test_a_comparison_with_a_variable_is_computed_first_a_quantifier_stays_lazy():
    text = "\n".join(unit.text() for unit in compiled("oh-hell", params={"players": 4}).rules.units)
    # may_bid: p != dealer (computed first) or sum(bid of q for q in players where q != p) + b != ... (lazy)
    assert re.search(r"h\d+ = v\d+ != (?:st\.)?vars\[\d+\]\n", text)
    assert re.search(r"\(h(\d+) if h\1 is not UNSET else \(h\1 := sum\(", text)


def test_oh_hell_plays_as_written():
    for players in (3, 5):
        assert_plays_as_plain(compiled("oh-hell", params={"players": players}),
                              compiled("oh-hell", params={"players": players}, passes=NAIVE), seeds=3, step=2)


def test_a_test_already_in_a_local_is_not_copied_before_the_branches():
    for name, params in (("oh-hell", {"players": 4}), ("twenty-trials", None)):
        text = "\n".join(unit.text() for unit in compiled(name, params=params).rules.units)
        assert not re.search(r"^ *t\d+ = h\d+$", text, re.MULTILINE), name  # (was: t53 = h47; if t53: ...)
