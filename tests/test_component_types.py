"""Component types: decks built as products of columns (`each:`), types left
out of card sheets (`print: false`) and what a component is (`component:`)."""
import pytest
from helpers import position, refusal, rulelang

from generators.grammar import plural
from generators.markdown import to_markdown
from generators.nouns import type_noun
from generators.publish import CardOptions, card_sheets
from generators.quick import quick_reference
from generators.summary import summary
from rulelang import RulesetError, lint, load_ruleset, load_text
from rulelang.schema import schema
from rulelang.yamltree import load_yaml, plain

RANKS = "two three four five six seven eight nine ten jack queen king ace".split()
POINTS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]

DECK = """
game: deck
title: Deck
roles: [player]
types:
  suit: {values: [spades, hearts, diamonds, clubs], icons: true}
  rank: [two, three, four, five, six, seven, eight, nine, ten, jack, queen, king, ace]
cards:
  playing:
    fields: {suit: suit, rank: rank, points: 1..11}
    label: "{rank} of {suit}"
    each: [suit]
    table: |
      rank   points
""" + "".join(f"      {r:<6} {p}\n" for r, p in zip(RANKS, POINTS)) + """\
  chip:
    component: token
    print: false
    fields: {colour: [red, blue], value: 1..5}
    each: {colour: [blue, red], value: 2..3}
    count: 2
  die:
    component: die
    print: false
    count: 2
zones:
  deck: {facing: down}
setup: |
  move all c in box where c is playing to deck
modes:
  m:
    round:
      - step: Play
        do: |
          end game
"""


def test_each_repeats_the_table_for_every_value_first_field_slowest():
    rs = load_text(DECK, "deck.yaml")
    playing = [dict(c.values) for c in rs.cards if c.kind == "playing"]
    assert playing == [{"suit": s, "rank": r, "points": p}
                       for s in ("spades", "hearts", "diamonds", "clubs") for r, p in zip(RANKS, POINTS)]
    # a row's cards point at the row
    assert rs.cards[13].span.line == rs.cards[0].span.line == position(DECK, "two    2")[0]


def test_a_count_column_gives_copies_of_its_row_in_every_combination():
    table = "".join(f"      {r:<6} {p}\n" for r, p in zip(RANKS, POINTS))
    counted = "".join(f"      {r:<6} {p:<6} {2 if r == 'ace' else 1}\n" for r, p in zip(RANKS, POINTS))
    text = DECK.replace("      rank   points\n" + table, "      rank   points count\n" + counted)
    rs = load_text(text, "deck.yaml")
    playing = [(c.values["suit"], c.values["rank"]) for c in rs.cards if c.kind == "playing"]
    assert len(playing) == 56 and playing[12:15] == [("spades", "ace"), ("spades", "ace"), ("hearts", "two")]


def test_a_count_beside_a_table_is_a_warning_that_says_where_copies_go():
    # `count:` gives copies only without a table; beside one it was silently ignored, so a deck of one
    # suit per player came out a quarter of its size. A warning, not an error: a ruleset that checked still does.
    text = DECK.replace("    each: [suit]\n    table:", "    each: [suit]\n    count: 4\n    table:")
    rs = load_text(text, "deck.yaml")
    assert sum(c.kind == "playing" for c in rs.cards) == 52
    found = [w for w in lint.warnings(rs) if "count" in w.message]
    assert len(found) == 1 and found[0].severity == "warning"
    assert (found[0].span.line, found[0].span.col) == position(text, "count: 4")
    assert "no copies of card type 'playing'" in found[0].message and "`count` column" in found[0].hint
    assert not [w for w in lint.warnings(load_text(DECK, "deck.yaml")) if "count" in w.message]


def test_a_number_the_rules_read_that_no_card_shows_is_warned_of():
    """Love Letter from the docs: each card's own words took the place of its value, which the rules
    compare, so the value was on no card; a layout's corner (or the label, or the words) shows it."""
    table = "".join(f"      {r:<6} {p}\n" for r, p in zip(RANKS, POINTS))
    words = "".join(f'      {r:<6} {p:<6} "A {r}."\n' for r, p in zip(RANKS, POINTS))
    worded = DECK.replace("      rank   points\n" + table, "      rank   points text\n" + words).replace(
        "          end game", "          if sum(c.points for c in deck where c is playing) > 3:\n            end game")
    (found,) = [w for w in lint.warnings(load_text(worded, "deck.yaml")) if "no card shows" in w.message]
    assert found.severity == "warning" and (found.span.line, found.span.col) == position(worded, "playing:")
    assert "'points' of each card of type 'playing'" in found.message and "corner: points" in found.hint
    for shown in ('    label: "{rank} of {suit}"\n    layout: {corner: points}',  # in the corner
                  '    label: "{rank} of {suit} ({points})"'):  # or in the title
        text = worded.replace('    label: "{rank} of {suit}"', shown)
        assert not [w for w in lint.warnings(load_text(text, "deck.yaml")) if "no card shows" in w.message]
    plain = DECK.replace("          end game", "          if sum(c.points for c in deck where c is playing) > 3:\n            end game")
    assert not [w for w in lint.warnings(load_text(plain, "deck.yaml")) if "no card shows" in w.message]  # no words


def test_each_without_a_table_makes_every_combination_count_times_over():
    rs = load_text(DECK, "deck.yaml")
    chips = [(c.values["colour"], c.values["value"]) for c in rs.cards if c.kind == "chip"]
    assert chips == [("blue", 2)] * 2 + [("blue", 3)] * 2 + [("red", 2)] * 2 + [("red", 3)] * 2


def test_each_of_a_range_and_a_bool_takes_every_value_in_order():
    text = DECK.replace("fields: {colour: [red, blue], value: 1..5}\n    each: {colour: [blue, red], value: 2..3}",
                        "fields: {value: 1..3, shiny: bool}\n    each: [value, shiny]")
    rs = load_text(text, "deck.yaml")
    assert [(c.values["value"], c.values["shiny"]) for c in rs.cards if c.kind == "chip"][::2] == \
        [(1, False), (1, True), (2, False), (2, True), (3, False), (3, True)]


def test_each_may_name_one_field_alone():
    alone = DECK.replace("each: [suit]", "each: suit")
    assert alone != DECK and load_text(alone, "deck.yaml").cards == load_text(DECK, "deck.yaml").cards


@pytest.mark.parametrize("change, needle, message, hint", [
    (("each: [suit]", "each: [suits]"), "suits]", "'suits' in `each:` is not a field of 'playing'",
     "did you mean 'suit'?"),
    (("each: [suit]", "each: suits"), "suits\n", "'suits' in `each:` is not a field of 'playing'",
     "did you mean 'suit'?"),
    (("each: [suit]", "each: [suit, suit]"), "suit]\n", "field 'suit' is in `each:` twice", None),
    (("      rank   points", "      suit   rank points"), "suit   rank points",
     "column 'suit' comes from `each:`: every row is repeated for each suit", "leave the column out"),
    (("colour: [blue, red]", "colour: [blue, rde]"), "rde", "'rde' is not a colour", "did you mean 'red'?"),
    (("value: 2..3", "value: 2..9"), "2..9", "2..9 in `each:` is outside 1..5, the values of field 'value'", None),
    (("value: 2..3", "value: [2, x]"), "x]", "'x' in `each:` of 'value' is not a number", None),
    (("value: 2..3", "value: 7"), "7}", "`each:` gives 'value' a list of values or a range like 1..8", None),
    (("each: {colour: [blue, red], value: 2..3}", "each: {colour: [blue, red]}"), "each: {colour",
     "the fields of 'chip' not in `each:` need a `table:`: value", "add a table"),
    (("value: 1..5}\n    each: {colour: [blue, red], value: 2..3}", "value: number}\n    each: [colour, value]"),
     "value]", "field 'value' has no list of values to go through", "each: {value: [...]}"),
    (("each: [suit]", "each: 3"), "3\n", "`each:` names the fields whose every combination makes a card",
     "a list of fields"),
])
def test_errors_in_each_are_located_at_the_value(change, needle, message, hint):
    text = DECK.replace(*change)
    assert text != DECK
    ds = refusal(text)
    d = next((d for d in ds if message in d.message), None)
    assert d is not None, [x.format() for x in ds]
    assert (d.span.line, d.span.col) == position(text, needle), d.format()
    assert hint is None or hint in d.hint


def test_a_huge_product_is_refused_before_it_is_made():
    text = DECK.replace("fields: {colour: [red, blue], value: 1..5}\n    each: {colour: [blue, red], value: 2..3}",
                        "fields: {a: number, b: number, c: number}\n"
                        "    each: {a: 1..5000, b: 1..5000, c: 1..5000}").replace("    count: 2\n  die", "  die")
    (d,) = refusal(text)
    assert "more than 10,000 components" in d.message and d.span.line == position(text, "{a: 1..5000")[0]


def test_variants_add_and_remove_rows_of_an_each_table(tmp_path):
    (tmp_path / "deck.yaml").write_text(DECK)
    (tmp_path / "short.yaml").write_text("""\
extends: deck.yaml
game: short
cards:
  playing:
    remove: |
      rank
      two
    add: |
      rank points
      two  1
  chip:
    each: {value: [5]}
""")
    rs = load_ruleset(str(tmp_path / "short.yaml"))
    spades = [(c.values["rank"], c.values["points"]) for c in rs.cards if c.values.get("suit") == "spades"]
    assert spades == [*zip(RANKS[1:], POINTS[1:]), ("two", 1)]
    assert sum(c.kind == "playing" for c in rs.cards) == 52
    assert [(c.values["colour"], c.values["value"]) for c in rs.cards if c.kind == "chip"] == \
        [("blue", 5)] * 2 + [("red", 5)] * 2
    shown = rulelang("show", str(tmp_path / "short.yaml"))
    assert shown.returncode == 0, shown.stderr
    assert "each: [suit]" in shown.stdout and "value: [5]" in shown.stdout and "two    1" in shown.stdout


def test_a_variant_cannot_name_an_each_column_in_add_or_remove(tmp_path):
    (tmp_path / "deck.yaml").write_text(DECK)
    variant = """\
extends: deck.yaml
game: short
cards:
  playing:
    remove: |
      suit   rank
      spades two
  chip:
    add: |
      colour value
      red    4
"""
    (tmp_path / "short.yaml").write_text(variant)
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(tmp_path / "short.yaml"))
    suit, chip = info.value.diagnostics
    assert suit.message.startswith("column 'suit' comes from `each:`") and suit.span.line == 6
    assert "change `each:`" in suit.hint
    assert chip.message == "card type 'chip' has no table of cards to change" and "`each:`" in chip.hint


# ------------------------------------------------------------ print: false and the noun


def test_print_false_leaves_a_type_out_of_card_sheets():
    rs = load_text(DECK, "deck.yaml")
    from generators.components import printed
    assert [printed(ct) for ct in rs.card_types.values()] == [True, False, False]
    html, _ = card_sheets(rs, CardOptions(), "html")
    assert html.decode().count('class="card"') == 52


def test_the_component_noun_counts_components_in_the_summary():
    rs = load_text(DECK, "deck.yaml")
    assert [rs.card_types[k].component for k in ("playing", "chip", "die")] == ["card", "token", "die"]
    assert [type_noun(rs.card_types[k]).many for k in ("playing", "chip", "die")] == \
        ["playing cards", "chips", "dice"]
    md = to_markdown([summary(rs)])
    assert "52 playing cards, 8 chip tokens and 2 dice." in md
    assert "### Chips (8 tokens)" in md and "### Playing cards (52)" in md  # each has a table to follow
    assert "### Dice" not in md  # nothing to say of them beyond their count
    quick = to_markdown([quick_reference(rs, "m")])
    assert "## Components" in quick and "52 playing cards, 8 chip tokens and 2 dice" in quick


def test_plurals():
    assert [plural(n) for n in ("tile", "die", "box", "city", "day", "victory point", "match")] == \
        ["tiles", "dice", "boxes", "cities", "days", "victory points", "matches"]
    rs = load_text(DECK.replace("component: die", "component: die\n    plural: dies"), "deck.yaml")
    assert rs.card_types["die"].plural == "dies" and type_noun(rs.card_types["die"]).many == "dies"
    assert rs.card_types["chip"].plural is None  # English's rule, made where it is printed


@pytest.mark.parametrize("change, message", [
    (("print: false\n    count: 2", "print: no\n    count: 2"), "print is true, false or a mapping of fields to how they read on the card"),
    (("component: token", "component: 3 tokens"), "component is a noun, not '3 tokens'"),
])
def test_bad_print_and_component_values_are_located(change, message):
    text = DECK.replace(*change)
    (d,) = refusal(text)
    assert d.message == message and d.span.line == position(text, change[1])[0]


def test_cards_refuses_a_ruleset_with_nothing_to_print(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text(DECK.replace("  playing:\n", "  playing:\n    print: false\n"))
    r = rulelang("cards", str(path), "-o", str(tmp_path / "out.html"))
    assert r.returncode != 0 and "no cards to print" in r.stderr and "Traceback" not in r.stderr
    assert "every component type has `print: false`" in r.stderr
    r = rulelang("cards", "pig-race", "-o", str(tmp_path / "out.html"))  # a game of dice alone
    assert r.returncode != 0 and "pig-race has no cards to print: it has no components" in r.stderr


def test_the_schema_accepts_each_print_and_component():
    jsonschema = pytest.importorskip("jsonschema")
    data = plain(load_yaml(DECK, "deck.yaml"))
    assert list(jsonschema.Draft7Validator(schema()).iter_errors(data)) == []
    data["cards"]["chip"]["print"] = "no"
    assert list(jsonschema.Draft7Validator(schema()).iter_errors(data))
