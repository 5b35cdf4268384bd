"""The public English API (`generators.prose`): what card faces and editors' hovers print."""
import pytest
from helpers import bundled

from generators.prose import Prose, card_rules, english
from rulelang import ir


@pytest.fixture(scope="module")
def trials():
    return bundled("twenty-trials")


def test_a_statement_is_a_sentence_and_an_expression_a_phrase(trials):
    step = trials.modes["challenger"].round[0]
    said = english(trials, step.body[0], mode="challenger")
    assert isinstance(said, Prose) and said.text[:1].isupper() and said.text.endswith(".")
    top = ir.BuiltinCall("top", (ir.ZoneRef("action_deck"),), ty=None)
    assert english(trials, top).text == "the top card of the Action Deck"


def test_a_block_keeps_its_nesting_and_speaks_to_the_mode_s_player(trials):
    engage = trials.modes["challenger"].round[2]
    said = english(trials, engage.body, mode="challenger")
    assert any(line.lines for line in said.lines)  # the loop's body sits under it
    assert "you choose" in said.text.lower() or "your hand" in said.text
    markdown = said.markdown()
    assert markdown.startswith("- ") and "\n    - " in markdown


def test_a_step_a_define_a_procedure_and_a_watch_have_english(trials):
    mode = trials.modes["challenger"]
    assert english(trials, mode.round[3], mode="challenger").lines
    define = next(d for d in trials.defines.values() if d.text)
    assert english(trials, define).text
    procedure = next(iter(trials.procedures.values()))
    assert english(trials, procedure).lines
    watch = next(w for m in trials.modes.values() for w in m.watches)
    assert english(trials, watch).text


def test_an_ability_and_a_card_say_what_the_card_does():
    hof = bundled("hand-of-fate-ordeals")
    ability = hof.abilities["pickpocket"]
    assert english(hof, ability).text
    card = next(c for c in hof.cards if c.values.get("ability") == "pickpocket")
    said = card_rules(hof, card)
    assert said.text and english(hof, ability).text in said.text
    plain_card = next(c for c in hof.cards if c.kind == "pain")  # no ability, no words of its own
    assert card_rules(hof, plain_card).lines == ()


def test_anything_else_is_refused_with_what_it_takes(trials):
    with pytest.raises(TypeError, match="give an expression, a statement"):
        english(trials, trials.zones["chamber"])
