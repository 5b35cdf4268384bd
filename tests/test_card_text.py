"""A card's own words (a `text` column) and its abilities' texts on its front
and in the summary: what each card does, not only what its type is for."""
import re

import pytest
from helpers import refusal

from generators.cards import CardRenderer, CardSize
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: words
title: Words
players: 2
events:
  any_time(role p): a moment to play a card
abilities:
  quaff:
    on: any_time
    where: this in hand of p
    text: Play it at any time.
    do: |
      move this to discard
cards:
  potion:
    text: A card to drink.
    fields: {name: text, amount: 1..5}
    abilities: [quaff]
    table: |
      name    amount  count  text
      Tonic   3       2      "Gain {amount} health."
  rock:
    text: A rock.
    fields: {weight: 1..5}
    table: |
      weight
      4
zones:
  hand: {owner: each}
  discard: {}
modes:
  main:
    round:
      - step: Play
        do: |
          for p in players:
            window any_time(p)
          end game
"""


def front_words(rs, kind: str) -> str:
    card = next(c for c in rs.cards if c.kind == kind)
    svg = CardRenderer(rs, CardSize(63.5, 88.9)).front(card)
    return " ".join(re.findall(r"<tspan[^>]*>([^<]*)", svg))


def test_a_front_shows_the_card_s_own_words_and_its_abilities_instead_of_its_fields():
    rs = load_text(GAME, "words.yaml")
    words = front_words(rs, "potion")
    assert "Gain 3 health." in words and "Play it at any time." in words
    assert "amount" not in words and "A card to drink." not in words
    rock = front_words(rs, "rock")  # no words of its own: its fields and its type's text
    assert "A rock." in rock and "4" in rock


def test_the_summary_lists_what_each_card_does():
    text = to_markdown([summary(load_text(GAME, "words.yaml"))])
    assert "| name | amount | copies | what it does |" in text and "| Tonic | 3 | 2 | Gain 3 health. |" in text


@pytest.mark.parametrize("old, new, message", [
    ('"Gain {amount} health."', '"Gain {amont} health."', "the card's text names unknown field 'amont'"),
    ('"Gain {amount} health."', '"Gain health', "unclosed quote in this row"),
])
def test_a_bad_card_text_is_a_located_error(old, new, message):
    diagnostics = refusal(GAME.replace(old, new), "words.yaml")
    assert any(message in d.message for d in diagnostics)
    assert all(d.span is not None and d.span.line == GAME.splitlines().index('      Tonic   3       2      '
                                                                          '"Gain {amount} health."') + 1
               for d in diagnostics if message in d.message)


def test_a_field_numbered_after_a_function_word_is_not_an_ordinal():
    from generators.nouns import field_noun
    assert field_noun("to_4") == "to 4" and field_noun("command1") == "first command"
