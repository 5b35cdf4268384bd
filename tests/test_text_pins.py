"""Hand-written text pinned to the rules it describes (`rulelang/pins.py`): words on any statement,
block or step print instead of the generated English, and a change to the rules under them makes
`rulelang check` warn at the text's line until the author confirms the words (`checked:`)."""
import pytest
from test_examples import cli
from test_language import DUEL

from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import RulesetError, find_ruleset, lint, load_text, pins

WORDS = '"Bob takes the table if it holds the highest card, or passes.":'


def with_words(pin: str = "", source: str = DUEL) -> str:
    """DUEL with words over step Settle's first two statements (indented under them)."""
    start, end = source.index("          let best = "), source.index("          if round == rounds:")
    head = f"          {WORDS[:-1]}{' checked ' + pin if pin else ''}:\n"
    body = "".join("  " + line + "\n" for line in source[start:end].rstrip("\n").split("\n"))
    return source[:start] + head + body + source[end:]


def current(text: str) -> str:
    [t] = [t for t in pins.texts(load_text(text, "duel.yaml")) if t.what == "words in the rules"]
    return t.current


def stale_lines(text: str) -> list[int]:
    return [d.span.line for d in lint.warnings(load_text(text, "duel.yaml")) if "have changed" in d.message]


def test_words_on_statements_print_instead_of_their_english():
    text = with_words()
    md = to_markdown([summary(load_text(text, "duel.yaml"))])
    assert "- Bob takes the table if it holds the highest card, or passes." in md
    assert "Bob chooses one of these" not in md  # the statements under the words are not said again
    assert "- If the round number is the *rounds* option: the game ends." in md  # the statements after them are


def test_a_change_to_the_rules_under_a_text_warns_at_its_line_until_it_is_checked_again():
    pin = current(with_words())
    pinned = with_words(pin)
    assert stale_lines(pinned) == []
    changed = pinned.replace("passes += 1", "passes += 2")
    line = changed.split("\n").index(next(x for x in changed.split("\n") if WORDS[:-1] in x)) + 1
    assert stale_lines(changed) == [line]  # at the text's own line
    warning = next(d for d in lint.warnings(load_text(changed, "duel.yaml")) if "have changed" in d.message)
    new = current(changed)
    assert new != pin and f"checked {new}" in warning.hint  # the hint says what to write
    assert stale_lines(changed.replace(f"checked {pin}", f"checked {new}")) == []  # confirmed


def test_the_fingerprint_is_of_the_meaning_not_the_layout():
    pin = current(with_words())
    spaced = with_words().replace("max(x.rank for x in table)", "max( x.rank  for x in table )  # the best")
    assert current(spaced) == pin
    renamed_elsewhere = with_words().replace("passes: 0", "passes: {initial: 0, text: passes so far}")
    assert current(renamed_elsewhere) == pin  # a variable's description is no rule


def test_a_change_in_a_define_the_rules_use_makes_the_text_stale():
    source = DUEL.replace("vars:", "define:\n  top_rank(): max(x.rank for x in table)\nvars:", 1)
    base = with_words(source=source.replace("let best = max(x.rank for x in table)", "let best = top_rank()"))
    assert "let best = top_rank()" in base
    pin = current(base)
    assert current(base.replace("top_rank(): max(x.rank", "top_rank(): min(x.rank")) != pin


def test_step_texts_are_pinned_too_and_strict_text_makes_a_stale_one_an_error(capsys, tmp_path):
    text = DUEL.replace("      - step: Settle\n", "      - step: Settle\n        text: Bob takes or passes.\n"
                                                  "        checked: aaaaaaaa\n")
    stale = [d for d in lint.warnings(load_text(text, "duel.yaml")) if "have changed" in d.message]
    assert [d.span.line for d in stale] == [text.split("\n").index("        text: Bob takes or passes.") + 1]
    path = tmp_path / "duel.yaml"
    path.write_text(text)
    code, out, err = cli(capsys, "check", path)
    assert code == 0 and "warning: the rules under this text (step Settle) have changed" in err
    code, out, err = cli(capsys, "check", path, "--strict-text")
    assert code == 2 and "error: the rules under this text (step Settle) have changed" in err
    code, out, err = cli(capsys, "check", path, "--texts")
    assert f"step Settle: {stale[0].hint.split('checked: ')[1][:8]} (stale)" in out


def test_a_fingerprint_is_eight_letters_and_checked_stays_a_name_players_may_use():
    bad = DUEL.replace("      - step: Settle\n", "      - step: Settle\n        text: Bob takes or passes.\n"
                                                 "        checked: 12ab\n")
    with pytest.raises(RulesetError, match="not a text's fingerprint"):
        load_text(bad, "duel.yaml")
    named = DUEL.replace("passes: 0", "passes: 0\n  checked: 0").replace("passes += 1", "passes += 1\n"
                                                                                      "              checked += 1")
    load_text(named, "duel.yaml")


def test_hand_of_fate_quick_pages_are_pinned():
    from helpers import bundled
    rs = bundled("hand-of-fate-ordeals")
    pages = [p for m in rs.modes.values() for p in m.quick]
    assert pages and all(p.pin is not None and p.pin.checked for p in pages)
    assert not [t for t in pins.texts(rs) if t.stale]


def test_a_terms_meaning_in_the_authors_words_is_printed_and_pinned():
    """`means:` on a define: its meaning as the author words it, in the Terms; the terms its rules
    use are defined where the words name them ("meet", "shows"), not where the words say them
    ("the values … stands for"); a change to its rules warns at the meaning's line."""
    source = find_ruleset("twenty-trials").read_text()
    md = to_markdown([summary(load_text(source, "twenty-trials.yaml"), "challenger")])
    assert "- **a pair of cards in the hand can complete the trial**: the values of two action cards of your " \
           "hand meet the trial, and for each" in md
    assert "**X and Y meet a trial card**" in md and "**an icon shows an aspect**" in md  # named: defined
    assert "stands for with" not in md and "the ways to use action modifiers" not in md  # said in the words
    assert stale_lines_of(source, "twenty-trials.yaml") == []
    changed = source.replace("strength: x + y >= t.value", "strength: x + y > t.value")
    means = [i for i, line in enumerate(changed.split("\n"), 1) if line.strip().startswith("means:")]
    assert len(means) == 5 and set(means) <= set(stale_lines_of(changed, "twenty-trials.yaml"))  # at each meaning


def stale_lines_of(text: str, name: str) -> list[int]:
    return [d.span.line for d in lint.warnings(load_text(text, name)) if "have changed" in d.message]
