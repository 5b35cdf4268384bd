"""What a player never does is never printed: each sentence here was printed before, and is what a
rulebook editor struck (session six). Checked on bundled games and on games written from the docs
alone (`tests/printing/`), so that the cause is fixed, not the sentence.
"""
import re
from pathlib import Path

import pytest
from helpers import bundled

from generators.markdown import to_markdown
from generators.quick import quick_pages
from generators.summary import summary
from rulelang import RulesetError, ir, load_text
from rulelang.types import INT, ROLE

HERE = Path(__file__).resolve().parent
WRITTEN = HERE / "printing"  # games written from docs/language.md and authoring.md


def md(rs, mode=None, quick=False) -> str:
    docs = quick_pages(rs, mode) if quick else [summary(rs, mode)]
    return to_markdown(docs).replace("\\", "")


def printed(name: str) -> str:
    """A bundled game's printed rules, or a game's of `tests/printing/` (written from the docs alone), as
    `tests/test_golden.py` checks they are printed (not printed again)."""
    return (HERE / "golden" / f"{name}.md").read_text(encoding="utf-8").replace("\\", "")


@pytest.fixture(scope="module")
def oh_hell():
    return printed("oh-hell-standard"), printed("oh-hell-standard-quick")


@pytest.fixture(scope="module")
def eights():
    rs = bundled(str(WRITTEN / "crazy-eights.yaml"))
    return md(rs), md(rs, "game", quick=True)


def test_who_played_a_card_is_what_players_saw_not_a_state_set(oh_hell, eights):
    rules, quick = oh_hell
    for text in (rules, quick):
        assert "Set the player of" not in text  # was: "Set the player of that playing card to that player."
        assert "The player who played the winning card becomes the player who leads the trick." in text  # was "The player of"
        assert "that player chooses a playing card in their hand that they may play, then moves it to the trick." in text
    assert "also keeps *player*" not in rules
    assert "Set the owner of" not in eights[0] and "also keeps" not in eights[0]  # a mark no rule reads


def test_a_mark_chosen_elsewhere_than_the_hand_is_who_chose_it():
    rs = load_text(GAME.replace("hand of p where", "pool where"), "marks.yaml")
    text = md(rs)
    assert "the player who chose the best card" in text and "Set the by of" not in text


GAME = """
game: marks
players: {count: 2..3}
cards:
  chip:
    fields: {value: 1..5}
    state: {by: {type: role, initial: none}}
    table: |
      value
      1
      2
      3
      4
      5
zones:
  pool: {}
  hand: {owner: each}
  middle: {kind: row}
vars:
  won: {initial: 0, owner: each}
define:
  best():
    text: the best card
    value: first(c in middle ordered by c.value descending)
setup: |
  move box to pool
modes:
  play:
    round:
      - step: Pick
        do: |
          for p in players:
            p chooses c in hand of p where c.value > 0 as pick:
              move c to middle
              c.by = p
          let w = best().by
          won of w += 1
          move middle to pool
          if round == 2:
            end game as done
    score: won
"""


def test_a_count_set_back_each_hand_is_said_with_the_count(oh_hell):
    rules, quick = oh_hell
    assert "Set that player's *tricks* to 0" not in rules and "Set that player's *bid* to 0" not in rules
    assert "- Each player's *tricks* taken this hand: 0 at the start, and again in step 4, Score (never " \
           "below 0 nor above 10)." in rules
    # the quick reference's list says it too, with when: the steps keep to what players do
    assert "Set that player's *tricks* to 0" not in quick  # was printed in step 4, Score
    assert "each player's *tricks* taken this hand, back to 0 in step 4 (Score);" in quick
    game = GAME.replace("          if round == 2:\n", "          for p in players:\n            won of p = 0\n"
                        "          if round == 2:\n")
    page = md(load_text(game, "back.yaml"), "play", quick=True)
    assert "each player's *won*, back to 0 in step 1 (Pick)." in page and "*won* to 0" not in page
    for golden in sorted((HERE / "golden").glob("*-quick.md")):
        page = printed(golden.stem)
        for name, start, step in re.findall(r"(\*[^*]+\*)[^;*]*, back to ([^;]+?) in step \d+ \(([^)]+)\)", page):
            # the step the list names does not say it again (another step may set it as a rule: "passes" after a play)
            said = re.search(rf"^\d+\. \*\*{re.escape(step)}\*\*\.\n(.*?)(?=^\d+\. \*\*|^#)", page, re.M | re.S)
            assert said, (golden.stem, step)
            assert not re.search(rf"Set [^.]*{re.escape(name)} to {re.escape(start)}\.", said.group(1)), (golden.stem, name)


def test_a_player_picked_at_random_for_a_part_is_picked_for_it(oh_hell):
    assert "Pick the dealer at random." in oh_hell[0]  # was: "Pick a player at random, then that player becomes …"
    assert "Pick the starting player at random." in printed("hand-of-fate-ordeals")


def test_the_players_but_one_are_the_other_players(oh_hell):
    assert "the total *bid* of the other players" in oh_hell[0]  # was: "… of the players that are not the player"


def test_a_variable_named_by_its_text_is_never_named_otherwise(oh_hell, eights):
    rules, _ = oh_hell
    assert "- The player who leads the trick: no one at the start." in rules  # was: "*leader* — the player who …"
    assert "*leader*" not in rules and "*dealer*" not in rules
    assert "- The suit to follow: spades at the start." in eights[0]  # a kind's value held, as its text says
    assert "Set the suit to follow to the suit of the top card of the discard pile." in eights[0]
    assert "*called*" not in eights[0]


def test_one_of_a_kind_s_values_is_this_or_that(eights):
    assert "you choose a suit (spades, hearts, diamonds or clubs), then set the suit to follow to it." in eights[0]
    assert "and a symbol (crown, anchor, heart, diamond, club or spade)" in printed("crown-and-anchor")


def test_a_count_by_an_option_is_as_many_times_as_it(eights):
    assert "Repeat as many times as the *hand size* option:" in eights[0]
    assert "Repeat the *hand size* option times" not in eights[0]


def test_an_ending_in_a_turn_speaks_to_the_player_as_the_turn_does(eights):
    assert "- You win in step 1 (Move), when you have three men in a row." in printed("three-mens-morris")
    assert "The current player" not in eights[0]


def test_a_choice_and_what_its_chooser_does_then_have_one_subject():
    text = printed("gauntlet-16-7")
    assert "that player chooses a player among the first players of the teams in that player's room, then asks to " \
           "join" in text  # was: "…, then that player asks to join"
    assert "then destroys it" in printed("hand-of-fate-ordeals")  # was: "…, then the player destroys it"


def test_a_player_named_again_as_a_subject_after_then_is_they():
    from generators.nouns import noun
    from generators.phrases import Bound, Intro, Seq, Words
    from generators.pronouns import refer_after
    player = Bound("that player", name="p", noun=noun("player"), scope=1)
    head = Seq((player, Words(" chooses "), Intro("a space", name="s", noun=noun("space"), scope=5)))
    refs = {"p": player, "s": Bound("that space", name="s", noun=noun("space"), scope=5)}
    assert refer_after(head, "moves the pawn to that space; that player draws a card", refs) == \
        "moves the pawn to it; they draw a card"
    other = {**refs, "q": Bound("the other player", name="q", noun=noun("player"), scope=6)}
    assert refer_after(head, "the other player accepts, or that player faces the room alone", other) == \
        "the other player accepts, or that player faces the room alone"  # two players: names


def test_an_ending_on_a_choice_says_which_choices_end_the_game():
    text = printed("kuhn-poker")
    assert "- Bob wins and Alice loses, in step 1 (Betting).\n" not in text  # was: no condition a player could act on
    assert "- Bob wins and Alice loses, in step 1 (Betting), when Alice chooses *check*, Bob chooses *bet*, then " \
           "Alice chooses *fold*.\n" in text


def test_a_place_named_for_the_one_card_it_holds_is_that_card():
    assert "when the rank of Alice's card is more than the rank of Bob's card." in printed("kuhn-poker")
    assert "the top card of Alice's card" not in printed("kuhn-poker")  # was: "the rank of the top card of …"


# ------------------------------------------------------------ a true/false parameter's own words (`params:`)

FLAGS = """
game: flags
roles: [red, blue]
cards:
  chip:
    fields: {value: 1..5}
    table: |
      value
      1
      2
zones:
  pool: {}
  hand: {owner: each}
vars:
  points: {initial: 0, owner: each}
define:
  may_take(role p, chip c, bool greedy):
    text: "{p} may take {c}{greedy? greedily|}"
    params:
      greedy: {text: "{p} is greedy"}
    value: greedy or c.value < 3
procedures:
  take_one(role p, bool twice):
    text: "{p} takes a chip{twice? again|}"
    params:
      twice: {text: "{p} has passed"}
    do: |
      p chooses c in pool where may_take(p, c, twice) as pick:
        move c to hand of p
      if twice:
        points of p += 1
setup: |
  move box to pool
modes:
  play:
    round:
      - step: Take
        do: |
          take_one(red, false)
          take_one(blue, true)
          if round == 2:
            end game as done
    score: points
"""


def test_a_true_false_parameter_is_said_by_its_own_words():
    text = md(load_text(FLAGS, "flags.yaml"))
    assert "**a player may take a chip card greedily (or not)**: the player is greedy or the value of the chip card " \
           "is less than 3." in text  # was: "either *greedy* is on or …"
    assert "- If the player has passed: add 1 to the player's *points*." in text
    assert "is on" not in text


@pytest.mark.parametrize("change, message", [
    ('greedy: {text: "{p} is greedy"}', None),
    ('greed: {text: "{p} is greedy"}', "define 'may_take' has no parameter 'greed'"),
    ('p: {text: "{p} is greedy"}', "parameter 'p' of define 'may_take' is not true/false"),
    ('greedy: {text: "{q} is greedy"}', "names unknown parameter 'q'"),
    ('greedy: {txt: "{p} is greedy"}', "txt"),
    ('greedy: "{p} is greedy"', "must be a mapping"),
])
def test_the_words_of_a_parameter_are_checked_at_their_line(change, message):
    text = FLAGS.replace('greedy: {text: "{p} is greedy"}', change)
    if message is None:
        assert load_text(text, "flags.yaml").defines["may_take"].param_texts == (("greedy", "{p} is greedy"),)
        return
    with pytest.raises(RulesetError) as caught:
        load_text(text, "flags.yaml")
    assert message in str(caught.value) and "flags.yaml:20:" in str(caught.value)


def test_a_define_without_words_for_its_parameters_checks_as_before():
    old = FLAGS.replace('    params:\n      greedy: {text: "{p} is greedy"}\n', "").replace(
        '    params:\n      twice: {text: "{p} has passed"}\n', "")
    rs = load_text(old, "flags.yaml")
    assert rs.defines["may_take"].param_texts == () and rs.procedures["take_one"].param_texts == ()
    assert "*greedy* is on" in md(rs)  # no words: the parameter by its name, as before


def test_an_ending_in_an_action_carried_out_in_one_place_says_when_it_is_carried_out():
    text = printed("gauntlet-gobbots-solitaire")
    assert "- You win in step 2 (Gobbot phase), when you check the space a gobbot has just entered and its row is 1, " \
           "if the number of Soldiers at the end of the Gauntlet is more than 0.\n" in text
    # was: "You win in step 2 (Gobbot phase), when the number of Soldiers at the end … is more than 0."
    assert "- You win in step 2 (Gobbot phase), when the number of Soldiers" not in text
    # the place is inside another action ("check the space a gobbot has just entered"): out of it, in the End of
    # the game, its gobbot is introduced, not named as if the reader knew which (was "The row of the gobbot is 1")
    assert "the gobbot is 1" not in text


# ------------------------------------------------------------ round two: what a rulebook editor still struck


def test_a_thing_a_negated_quantifier_introduces_is_it_again(eights):
    assert "the player has no playing card that they may play." in eights[0]
    # was: "… such that they may play that playing card": "no" lost the card's introduction
    from generators.clauses import negate
    from generators.nouns import noun
    from generators.phrases import Bound, Clause, Intro, Words, inline, settle
    from generators.phrases import words as seq
    from generators.pronouns import refer
    card, other = noun("card"), Bound("that trial card", name="t", noun=noun("card"), scope=2)
    intro = Intro("a card", name="c", noun=card, scope=1)
    again = Bound("that card", name="c", noun=card, scope=1)
    said = negate(Clause(Words("there"), "is", seq(intro, " such that you may play ", again)))
    assert inline(refer(settle(said))) == "there is no card such that you may play it"
    two = negate(Clause(Words("there"), "is", seq(intro, " such that ", again, " beats ", other)))
    assert inline(refer(settle(two))) == "there is no card such that that card beats that trial card"


def test_seats_printed_for_one_player_score_alike_said_of_each_player():
    text = printed("crown-and-anchor")  # 1 to 4 seats, printed at its default of one
    assert "Each player's score is their *chips*." in text  # was: "Player 1's score is Player 1's *chips*."
    assert "- Each player's position is worth the player's outlook (for computer players)." in text
    assert "Player 1's score" not in text and "Player 1's position" not in text
    assert "Each player's score is their final Fame." in printed("hand-of-fate-ordeals")  # was: "… the final Fame
    # of the player": the player named again is "their", as in any sentence
    assert "Each player's score is the most of their men in one line." in printed("three-mens-morris")


def test_grouping_the_words_already_settle_is_not_bracketed(oh_hell):
    assert "either the player is not the dealer or the total *bid* of the other players + B is not the number of " \
           "cards dealt this hand." in oh_hell[0]  # was: "or (the total *bid* … + B is not …)": a sum takes no "or"
    assert "pays that player as many chips as their *bet* × 3 ÷ 2 (rounded down)." in printed("blackjack")
    # was: "as many chips as (their *bet* × 3 ÷ 2 (rounded down))": the amount after "as many … as" is all it counts
    assert "+ (their *Token Shards* ÷ 3, rounded down)." in printed("hand-of-fate-ordeals")  # no "(… (rounded down))"
    assert "takes (as much damage as the highest roll of their team + what" in printed("gauntlet-16-7")
    from generators.phrases import Clause, Join, Op, Words, inline, problems, settle
    sum_ = Op("+", 1, Words("the total"), Words("B"))
    tree = Join("or", (Clause(Words("the player"), "is not", Words("the dealer")),
                       Clause(sum_, "is not", Words("3"))), clauses=True)
    settled = settle(Clause(Words("B"), "is", Join("and", (Words("small"), tree), clauses=True)))
    assert inline(settled) == "B is small and either the player is not the dealer or the total + B is not 3"
    assert not problems(settled)
    from generators.calls import template
    from generators.document import plain
    from generators.english import context
    rs = load_text(FLAGS, "flags.yaml")
    red = ir.RoleRef("red", ty=ROLE)
    more = ir.Binary("+", ir.Var("points", owner=red, ty=INT), ir.Const(1, ty=INT), ty=INT)
    paid = template(context(rs, rs.modes["play"]), "pays {n} as many chips as {m}", {"n": red, "m": more}, False)
    assert plain(inline(settle(paid))) == "pays Red as many chips as Red's points + 1"


def test_an_aside_inside_parentheses_is_set_off_by_a_comma():
    from generators.phrases import Op, Seq, Words, bound, inline, problems, settle
    half = Seq((Op("÷", 2, Words("the bet"), Words("2")), bound(" (rounded down)")))
    settled = settle(Seq((Words("the dealer gets "), half, Words(" back"))))  # "gets the bet" alone could be read
    assert inline(settled) == "the dealer gets (the bet ÷ 2, rounded down) back" and not problems(settled)


# ------------------------------------------------------------ round three (session seven): read as a new player


def test_the_way_to_an_ending_is_said_in_order_not_as_facts_that_hold_together(eights):
    # was: "You win in step 1 (Play), when all of these hold: You can play. Your hand is empty." -- two
    # facts that never hold together: the hand empties after the card is played
    assert "- You win in step 1 (Play), when you can play, you choose a playing card in your hand that you may " \
           "play, then your hand is empty.\n" in eights[0]
    # a choice with nothing before it is the step's own business: the ending keeps its one condition
    assert "- You win in step 2 (Engage a trial), when *trials completed* is 20.\n" in printed("twenty-trials-moderator")


def test_a_condition_met_in_an_action_goes_with_the_actions_words():
    text = printed("gauntlet-gobbots")
    assert "when you check the space a gobbot has just entered and its row is 1" in text
    assert "- The row of a gobbot is 1." not in text  # was: which gobbot, and when?


def test_what_a_player_has_is_said_of_them_and_what_they_may_do_as_a_relative_clause(eights, oh_hell):
    assert "**a player cannot play**: the player has no playing card that they may play." in eights[0]
    assert "such that they may play it" not in eights[0]  # was: "there is no … such that they may play it"
    assert "or the player has no playing card whose suit is the suit led." in oh_hell[0]


def test_three_alternatives_each_take_their_or(eights, oh_hell):
    # was: "the trick is empty, the suit of the playing card is the suit led or …": three facts, read as a list
    assert "**a player may play a playing card**: the trick is empty, or the suit of the playing card is the suit " \
           "led, or the player has no playing card whose suit is the suit led." in oh_hell[0]
    assert "the rank of the playing card is eight, or its suit is the suit to follow, or it has the same rank" \
           in eights[0]


def test_an_operand_whose_words_join_two_things_is_set_apart():
    text = printed("gauntlet-race")
    # was: "at least the number of spaces between them and the end of the track − *die*": what does − take?
    assert "is at least (the number of spaces between them and the end of the track) − *die*" in text
    from generators.phrases import Op, Words, problems, settle
    sum_ = Op("−", 1, Words("the spaces between you and the end"), Words("*die*"))
    assert problems(sum_) and not problems(settle(sum_))


def test_a_bound_on_a_sum_is_said_after_it_as_a_rulebook_says_it():
    text = printed("gauntlet-16-7")
    # was: "(the smaller of 6 and the rolled of the enemy ÷ 2, rounded down)": which is halved, and rounded?
    assert "**the damage an enemy's roll deals**: the roll of the enemy ÷ 2 (rounded down, at most 6) if its kind " \
           "is normal" in text
    assert "the roll requirement of the Drawbridge − 1 (at least 2)" in text
    assert "Subtract the amount of that pain card − *softened* (at least 0) from" in printed("hand-of-fate-ordeals")
    assert "the smaller of 3 and your *chips*" in printed("crown-and-anchor")  # no sum: said as before


def test_the_play_area_table_has_no_column_that_says_nothing(oh_hell, eights):
    for text in (oh_hell[0], eights[0]):
        table = text[text.index("## Play area"):text.index("Keep track of")]
        assert "anything" not in table and "face-up cards seen by" not in table  # was: "holds: anything", "everyone"
        assert "| The hand | face up, seen only by its owner | each player | hand |" in table
    race = printed("gauntlet-race")
    assert "| The hand | action cards | face down; its owner sees them | each player | hand |" in race


def test_a_quick_reference_opens_with_the_round_at_a_glance_and_what_to_keep(oh_hell, eights):
    quick = oh_hell[1]
    # was: the summary's sections with the components cut; the page's *bid* and *exact bids* never said
    assert quick.index("## At a glance") < quick.index("## Each round") < quick.index("## End of the game") \
        < quick.index("## Terms")  # what a player looks up at the table first, the reference after
    assert "- **Each round**: Deal → Bid → Play the tricks → Score.\n" in quick
    assert "each player's *exact bids* (hands in which the player took exactly the tricks bid)." in quick
    assert "- **Each round**: every player takes a turn (Play), then Blocked.\n" in eights[1]
    assert "- **Keep track of**: *trials completed* so far.\n" in printed("twenty-trials-challenger-quick")
    race = printed("pig-race-race-quick")  # a game of dice alone: what its players keep is all it has
    assert "**Keep track of**: the start player; each player's *position* (spaces up the track)" in race


def test_a_condition_of_a_loop_not_about_its_things_is_said_once_before_it():
    rs = bundled(str(WRITTEN / "ship-captain-crew.yaml"))
    text = md(rs)
    # was: "For every player such that their *cargo* is the best cargo of the round and the best cargo of the
    # round is more than 0: …": a fact about the round, said of each player
    assert "- If the best cargo of the round is more than 0:\n    - For every player whose *cargo* is the best " \
           "cargo of the round: add 1 to that player's *points*." in text
    kept = load_text(HOIST.replace("COND", "best() > 0"), "hoist.yaml")
    assert "- If the best score is more than 0:\n    - For every player whose *score* is the best score: " in md(kept)
    changed = load_text(HOIST.replace("COND", "total > 0"), "hoist.yaml")  # the loop changes it: kept in it
    assert "For every player such that their *score* is the best score and *total* is more than 0" in md(changed)


HOIST = """
game: hoist
players: {count: 2..3}
vars:
  score: {initial: 0, owner: each}
  total: {initial: 1}
define:
  best():
    text: "the best score"
    value: max(score of q for q in players)
modes:
  game:
    round:
      - step: Score
        do: |
          for p in players where score of p == best() and COND:
            total -= 1
          if total < 0:
            end game as over
"""


def test_a_text_that_is_a_clause_negates_without_it_is_not_the_case():
    text = printed("crown-and-anchor")
    assert "It is not the case that" not in text  # was: "It is not the case that one player plays."
    assert "    - The game ends when no player plays alone.\n" in text


def test_the_largest_over_the_others_is_over_every_other_player():
    text = printed("three-mens-morris")
    # was: "… for every player such that that player is not the player"
    assert "− 10 × the largest, for every other player, of the most of that player's men in one line." in text
    assert "such that that player is not the player" not in printed("gauntlet-16-7")


# ------------------------------------------------------------ round four (session seven): a sentence read once


def test_the_way_to_an_ending_is_one_sentence_not_a_list_of_fragments(eights):
    # was: "You win in step 2 (Gobbot phase), when, one after the other:" and a list whose first item was a
    # fragment ("As you check the space a gobbot has just entered, its row is 1.") and the rest facts
    for text in (printed("gauntlet-gobbots"), printed("gauntlet-gobbots-solitaire-quick"),
                 printed("kuhn-poker-duel"), eights[0], eights[1]):
        assert "one after the other:" not in text and "- As you" not in text
    assert "- Alice wins and Bob loses, in step 1 (Betting), when Alice chooses *bet* and then Bob chooses " \
           "*fold*.\n" in printed("kuhn-poker")
    # an action no one player carries out is the players'; what is tested after it is the outcome's condition
    text = md(load_text(SPRINT, "sprint.yaml"))
    assert "- The game ends in step 1 (Run), when the players look at the track and *pace* is more than 3, " \
           "if *pace* is less than 5.\n" in text


def test_every_step_of_the_round_is_any_step():
    # was: "You win in step 1 (Player phase), step 2 (Gobbot phase) and step 3 (Upkeep phase), when …"
    text = printed("gauntlet-gobbots")
    assert "- In any step, when every soldier on the Gauntlet is at the end of its lane:\n" in text
    assert "step 1 (Player phase), step 2" not in text
    assert "- The game ends in any step, when *pace* is more than 9.\n" in md(load_text(SPRINT, "sprint.yaml"))
    some = SPRINT.replace("          tick()\n          look()", "          look()")  # one step only: named
    assert "- The game ends in step 2 (Rest), when *pace* is more than 9.\n" in md(load_text(some, "sprint.yaml"))


SPRINT = """
game: sprint
players: {count: 2..3}
vars:
  pace: {initial: 0}
procedures:
  finish():
    text: "finish"
    do: |
      if pace < 5:
        end game as over
  look():
    text: "look at the track"
    do: |
      if pace > 3:
        finish()
  tick():
    do: |
      if pace > 9:
        end game as over
modes:
  game:
    round:
      - step: Run
        do: |
          pace += 1
          tick()
          look()
      - step: Rest
        do: |
          tick()
"""


def test_what_to_keep_track_of_never_nests_brackets():
    gobbots = printed("gauntlet-gobbots-solitaire-quick")
    # was: "*soldier health* (Soldiers' health (the hearts below the lanes))"
    assert "**Keep track of**: *soldier health* — Soldiers' health (the hearts below the lanes)." in gobbots
    for quick in sorted((HERE / "golden").glob("*-quick.md")):
        kept = next((line for line in printed(quick.stem).splitlines() if "**Keep track of**" in line), "")
        assert "((" not in kept and "))" not in kept, (quick.stem, kept)


def test_a_value_set_only_to_be_set_back_is_not_kept_between_steps():
    hof = printed("hand-of-fate-ordeals-competitive-quick")
    glance = next(line for line in hof.splitlines() if "**Keep track of**" in line)
    # was listed: "whether a card is being bound by the Strike Bonus or a push", true only while one is
    assert "Strike Bonus" not in glance and "whether the end of the game has been triggered" in glance
    game = GAME.replace("  won: {initial: 0, owner: each}",
                        "  won: {initial: 0, owner: each}\n  held: {initial: false, text: a card is held up}\n"
                        "  left: {initial: false, text: a card was left}")
    game = game.replace("          let w = best().by\n",
                        "          held = true\n          left = true\n          let w = best().by\n"
                        "          held = false\n").replace("          won of w += 1\n",
                                                        "          if left or held:\n            won of w += 1\n")
    quick = md(load_text(game, "passing.yaml"), "play", quick=True)
    glance = next(line for line in quick.splitlines() if "**Keep track of**" in line)
    assert "whether a card was left" in glance and "held up" not in glance


def test_a_player_held_in_a_variable_is_they_when_named_again():
    hof = printed("hand-of-fate-ordeals-competitive")
    # was: "the active player has a skill card that the active player may play"
    assert "only if the active player has a skill card that they may play" in hof
    assert "The active player chooses a skill card in their hand whose kind is not attack and that they may" in hof
    game = GAME.replace("  won: {initial: 0, owner: each}",
                        "  won: {initial: 0, owner: each}\n  lead: {type: role, initial: none, text: the leader}")
    game = game.replace("          let w = best().by\n", "          lead = best().by\n          let w = lead\n")
    game = game.replace("          move middle to pool\n",
                        "          if exists c in hand of lead where c.value > won of lead:\n"
                        "            lead chooses c in hand of lead where c.value > won of lead as give:\n"
                        "              move c to pool\n          move middle to pool\n")
    text = md(load_text(game, "leader.yaml"))
    # a player held in a variable is one person, named once and then referred to
    assert "If possible, the leader chooses a chip card in their hand whose value is more than their *won*, then " \
           "moves it to the pool." in text


def test_a_value_kept_is_named_alike_in_the_summary_and_on_the_quick_reference():
    # was, in the summary: "*trials completed* — trials completed so far", "Each player's *points* — points"
    assert "- *trials completed* so far: 0 at the start." in printed("twenty-trials-challenger")
    assert "- Each player's *points*: 0 at the start." in printed("oh-hell-standard")
    rs = load_text(GAME.replace("won: {initial: 0, owner: each}", "won: {initial: 0, owner: each, text: won so far}"),
                   "named.yaml")
    assert "each player's *won* so far." in md(rs, "play", quick=True)
    assert "- Each player's *won* so far: 0 at the start." in md(rs)
    for quick in sorted((HERE / "golden").glob("*-quick.md")):
        kept = next((line for line in printed(quick.stem).splitlines() if "**Keep track of**" in line), "")
        rules = printed(quick.stem.removesuffix("-quick"))
        for name in kept.split("**: ", 1)[1].rstrip(".").split("; ") if kept else ():
            name = name.split(", back to ")[0]  # when a step sets it back: the summary says so after its start
            assert f"\n- {name[:1].upper()}{name[1:]}: " in rules, (quick.stem, name)


def test_a_thing_with_a_relative_clause_is_never_the_subject_of_a_second_verb():
    hof = printed("hand-of-fate-ordeals")
    # was: "an equipment card in the player's Equipment on the Player Board whose slot is the slot is relic"
    assert "there is an equipment card in the player's Equipment on the Player Board that is relic and whose " \
           "slot is the slot." in hof
    assert "- **a player holds gold V**: there is a chip card in the player's hand that is gold and whose value " \
           "is V." in md(load_text(TALLY, "tally.yaml"))


def test_the_largest_of_a_value_over_things_is_said_of_them_not_of_that_one():
    hof = printed("hand-of-fate-ordeals")
    # was: "the largest of the final Fame of that player for every player"
    assert "- **the most final Fame**: the largest final Fame of the players." in hof
    assert "the total Power of the skill cards in the player's cards bound to the weapon" in hof
    assert "- **the top tally**: the largest tally of the players." in md(load_text(TALLY, "tally.yaml"))


TALLY = GAME.replace("    fields: {value: 1..5}\n", "    fields: {value: 1..5, gold: bool}\n").replace(
    "      value\n      1\n      2\n      3\n      4\n      5",
    "      value gold\n      1     no\n      2     yes\n      3     no\n      4     yes\n      5     no").replace(
    "define:\n", """define:
  tally(role p):
    text: the tally of {p}
    value: won of p + 1
  top_tally():
    text: the top tally
    value: max(tally(q) for q in players)
  gold_of(role p, int v):
    text: "{p} holds gold {v}"
    value: exists c in hand of p where c.gold and c.value == v
""").replace("          if round == 2:\n", "          if round == 2 or top_tally() > 3 or gold_of(w, 2):\n")


def test_endings_under_the_same_conditions_are_said_under_them_once():
    blackjack = printed("blackjack-table-quick")
    # was four endings, each repeating "The round number is the *hands* option or …" and "A player is alone …"
    assert "- In step 5 (Settle), when the round number is the *hands* option or there is no player whose *chips* " \
           "are more than 0:\n    - If a player is alone at the table:\n        - Player 1 wins when Player 1's " \
           "*chips* are more than the *stake* option.\n" in blackjack
    game = GAME.replace("          if round == 2:\n            end game as done\n",
                        "          if round == 2:\n            if size(pool) > 3:\n              end game as done\n"
                        "            else:\n              end game as short\n")
    text = md(load_text(game, "alike.yaml"))
    assert "- In step 1 (Pick), when the round number is 2:\n    - The game ends when the pool holds more than 3 " \
           "cards.\n    - The game ends when the pool holds at most 3 cards.\n" in text
    # was two lines: "The game ends in step 5 (Turn end), when *arrivals* is more than 0." and "… when the round …"
    assert "- The game ends in step 5 (Turn end), when *arrivals* are more than 0 or the round number is the *turn " \
           "limit* option.\n" in printed("gauntlet-race-race-quick")
    game = GAME.replace("          if round == 2:\n", "          if size(pool) > 4:\n            end game as full\n"
                        "          if round == 2:\n")
    assert "- The game ends in step 1 (Pick), when the pool holds more than 4 cards or the round number is 2.\n" \
        in md(load_text(game, "either.yaml"))
    for golden in sorted((HERE / "golden").glob("*.md")):
        end = printed(golden.stem).partition("End of the game\n")[2].partition("\n#")[0]
        said = [line for line in end.splitlines() if line.startswith("    - ")]
        assert len(said) == len(set(said)), golden.stem


def test_the_box_has_no_first_card_a_player_sees():
    # was: "Repeat 7 times: take the first skill card in the box whose name is “Strive”, then move it to …"
    assert "Repeat 7 times: take a skill card in the box whose name is “Strive”, then move it to that player's " \
           "Player deck." in printed("hand-of-fate-ordeals")
    game = GAME.replace("setup: |\n  move box to pool\n", "setup: |\n  take first c in box where c.value > 3:\n"
                        "    move c to middle\n  move box to pool\n")
    assert "1. Take a chip card in the box whose value is more than 3, then move it to the middle." \
        in md(load_text(game, "box.yaml"))


def test_a_player_named_again_before_a_verb_of_a_term_s_own_words_is_they():
    # was: "the players such that they face the room this round and the number of the room that player is in is N"
    assert "- **the players facing room N**: the players such that they face the room this round and the number of " \
           "the room they are in is N." in printed("gauntlet-16-7")
    # was: "a space next to the Encounter the active player is on"
    assert "a space next to the Encounter they are on holds an Encounter card" in printed("hand-of-fate-ordeals")
    game = GAME.replace("define:\n", "define:\n  seat(role p):\n    text: \"the seat {p} sits in\"\n"
                        "    value: won of p\n").replace(
        "          if round == 2:\n", "          if won of w > 2 and seat(w) > 1:\n            end game as warm\n"
        "          if round == 2:\n")
    assert "that player's *won* is more than 2 and the seat they sit in is more than 1" \
        in md(load_text(game, "fire.yaml"))


def test_a_role_named_again_in_one_sentence_is_they():
    versus = printed("twenty-trials-versus")
    # was: "the Challenger chooses an action card in the Challenger's hand, then moves it to the Chamber"
    assert "the Challenger chooses an action card in their hand, then moves it to the Chamber." in versus
    assert "The Trialmaster chooses a trial card in their hand, then moves it to the Chamber." in versus
    # two people: the names stay
    assert "Alice wins and Bob loses, in step 1 (Betting), when the rank of Alice's card is more than the rank of " \
           "Bob's card." in printed("kuhn-poker-duel")
    game = GAME.replace("players: {count: 2..3}", "roles: [north, south]").replace(
        "  hand: {owner: each}", "  hand: {owner: north}").replace(
        "          for p in players:\n            p chooses c in hand of p where c.value > 0 as pick:\n",
        "          south chooses d in pool as give:\n            move d to hand\n"
        "          for p in [north]:\n            north chooses c in hand where c.value > 0 as pick:\n")
    text = md(load_text(game, "roles.yaml"))
    assert "North chooses a chip card in their hand whose value is more than 0" in text


def test_things_chosen_together_and_moved_together_are_those_things():
    # was: "then moves the first action card, the second action card and the third action card to the Chamber"
    assert "the Challenger chooses three action cards in their hand, then moves those action cards to the Chamber." \
        in printed("twenty-trials-versus")
    game = GAME.replace("            p chooses c in hand of p where c.value > 0 as pick:\n              move c to middle\n",
                        "            p chooses c, d in hand of p where c.value > d.value as pick:\n"
                        "              move c, d to middle\n")
    assert "        - Move those chip cards to the middle.\n" in md(load_text(game, "two.yaml"))
    one = GAME.replace("            p chooses c in hand of p where c.value > 0 as pick:\n              move c to middle\n",
                       "            p chooses c, d in hand of p where c.value > d.value as pick:\n"
                       "              move c to middle\n")
    assert "those chip cards" not in md(load_text(one, "one.yaml"))  # one of the two: named


def test_a_loop_that_only_turns_or_moves_each_thing_is_one_instruction():
    # was: "For every playing card in the dealer's hand: turn face up that playing card."
    assert "- Turn face up every playing card in the dealer's hand.\n" in printed("blackjack-table-quick")
    # was: "For every pawn in the box whose seat is …: move that pawn to room 1 on the board."
    assert "Move every pawn in the box whose seat is at most the number of players to room 1 on the board." \
        in printed("gauntlet-16-7")
    # a place moved is all the cards in it; a destination that is the thing's own stays a loop
    assert "For every place among the trump spot, the last trick and the discard pile: move all cards in that " \
           "place to the deck." in printed("oh-hell")
    assert "For every soldier in the box: move that soldier to the bottom space of the Gauntlet whose column is " \
           "its lane." in printed("gauntlet-gobbots")
    game = GAME.replace("          move middle to pool\n", "          for c in middle where c.value > 1:\n"
                        "            flip c face down\n          move middle to pool\n")
    assert "- Turn face down every chip card in the middle whose value is more than 1.\n" in md(load_text(game, "f.yaml"))


def test_an_ending_met_in_a_loop_introduces_who_it_is_about():
    # was: "That player wins in step 3 (Knock out), when that player's *tricks* is *hand size*."
    assert "- A player that is still in the game wins in step 3 (Knock out), when that player's *tricks* are " \
           "*hand size* or there is only one player that is still in the game.\n" in printed("knockout-whist")
    assert "- A player that is still in the game wins in step 3 (Lose a die), when there is only one player that " \
           "is still in the game.\n" in printed("liars-dice")
    game = GAME.replace("          if round == 2:\n", "          for p in players where won of p > 3:\n"
                        "            win p as ahead\n          if round == 2:\n")
    text = md(load_text(game, "ahead.yaml"))
    assert "A player whose *won* is more than 3 wins in step 1 (Pick)." in text and "That player wins" not in text


def test_a_noted_player_the_rules_change_later_keeps_a_name():
    # was: "Note the player who starts the round. Repeat: That player chooses … Set that player to the player to
    # the left of that player.", and the loop's own players were "the other player"
    bid = printed("liars-dice")
    assert "- Note the player who starts the round as P.\n" in bid
    assert "- Set P to the player to the left of P.\n" in bid and "- Otherwise: P becomes the player who loses a die." in bid
    assert "For every player that is still in the game: show that player's *cup* to every player." in bid


def test_a_flag_set_to_end_a_loop_ends_it_after_what_follows_it():
    # was: "*call* …: Stop. For every player …: show … If …" (the cups are shown, then the bidding stops)
    bid = printed("liars-dice")
    call = bid.split("- *call*")[1].split("####")[0]
    assert call.rstrip().endswith("- Stop.") and call.count("Stop.") == 1


def test_a_value_with_words_of_its_own_is_there_by_them():
    # was: "(only if there is a *bidder*)"
    assert "- *call* (only if there is a player who made the current bid):" in printed("liars-dice")


def test_a_player_found_by_the_rules_is_the_subject_of_what_they_do():
    # was: "Take the first player whose *tricks* is …, in turn clockwise from …, then that player chooses a suit …"
    assert "- The first player whose *tricks* are the most tricks anyone took this hand, in turn clockwise from the " \
           "player to the left of the dealer, chooses a suit (spades, hearts, diamonds or clubs), then sets *trumps* " \
           "to it.\n" in printed("knockout-whist")


def test_a_term_named_by_a_plural_noun_takes_a_plural_verb():
    # was: "the points of the place is at most 11"
    assert "the points of the place are at most 11" in printed("blackjack")
    assert "If the dice on the table showing *bid face* are fewer than *bid count*" in printed("liars-dice")
    assert "the value of the dealer's hand is at least" in printed("blackjack")  # a singular noun keeps "is"


def test_a_total_over_things_says_them_before_the_value_that_names_one():
    # was: "the total of (the number of numbers X among that player's *cup* such that X is F) over every player";
    # the cup's items are the dice its text names ("the dice under the player's cup"), not "numbers X"
    assert "the total, over every player, of the number of dice among their *cup* that are F." in printed("liars-dice")
    # a sum or a value by cases in it is in parentheses
    assert "+ the total, over every soldier on the Gauntlet, of (the row of that soldier − the damage of that " \
           "soldier) + 2 ×" in printed("gauntlet-gobbots")
    assert "the largest, for every number F from 1 to 6, of (4 × F if the number of dice showing F is at least 4; " \
           "otherwise 0)." in printed("yacht")
    game = GAME.replace("          if round == 2:\n", "          if sum(won of q for q in players) > 3:\n"
                        "            win current\n          if round == 2:\n")
    assert "the total *won* of the players" in md(load_text(game, "sum.yaml"))  # a plain field keeps its short form


def test_a_text_said_at_play_leaves_blanks_for_what_is_filled_in():
    # was: Say aloud: “the current player bets N on that symbol” (the turn's "you" dropped, the blanks unmarked)
    assert "Say aloud: “*your name* bets N on *that symbol*”." in printed("crown-and-anchor")
    assert "Say aloud: “three in a row for *your name*”." in printed("three-mens-morris")
    game = GAME.replace("          move middle to pool\n",
                        "          announce \"{w} takes {won of w} chips\"\n          move middle to pool\n")
    assert "Say aloud: “*the name of the player who played the best card* takes *the won of the player who played " \
           "the best card* chips”." in md(load_text(game, "say.yaml"))


def test_an_ending_met_in_an_action_is_said_with_the_actions_words():
    # was: "The winner of the last roll-off wins in step 7 (Fight), when all of these hold: *through* are not
    # empty. N is 13." (the action's parameter and its own names, never said where a player reads them)
    assert "- The winner of the last roll-off wins in step 7 (Fight), when the teams in room 13 fight their " \
           "enemies side by side, exchange by exchange, until one has beaten all of its enemies or every team is " \
           "out of health, and then there are players *through*.\n" in printed("gauntlet-16-7")
    assert "when all of these hold" not in printed("gauntlet-16-7")
    game = GAME.replace("          if round == 2:\n            end game as done\n",
                        "          settle(round)\n").replace(
        "define:\n", "procedures:\n  settle(number r):\n    text: \"score the chips of round {r}\"\n"
                     "    do: |\n      if r == 2:\n        end game as done\ndefine:\n")
    text = md(load_text(game, "act.yaml"))
    assert "The game ends in step 1 (Pick), when the players score the chips of round 2." in text, text


def test_many_things_a_pronoun_cannot_say_are_named_by_their_letter():
    # was: "the players such that that player faces the room this round, that player's *team* is that player …"
    assert "**the first players of the teams facing room N**: the players Q such that Q faces the room this " \
           "round, Q's *team* is Q and the number of the room Q is in is N." in printed("gauntlet-16-7")
    # things introduced as many are never "it": "that soldier" after "the soldiers" is the letter too
    assert "the soldiers S on the Gauntlet such that S can still act (in Hard mode, a Soldier at the end cannot) " \
           "and the gobbot and S are next to each other" in printed("gauntlet-gobbots")
    game = GAME.replace("          move middle to pool\n",
                        "          let twins = [c for c in middle where c.value == c.value % 3]\n"
                        "          move twins to pool\n          move middle to pool\n")
    text = md(load_text(game, "twins.yaml"))
    assert "the chip cards C in the middle such that the value of C is the value of C mod 3" in text
    assert "such that that chip card" not in text


def test_an_ending_says_the_conditions_that_hold_when_it_comes_not_those_the_rules_changed_since():
    # For Sale written from the docs: "if there are no houses and there are cheques: draw the cheques on
    # offer … if there are no cheques: the game ends" printed "when there are no houses, there are cheques
    # and there are no cheques"
    stale = GAME.replace("""          if round == 2:
            end game as done""", """          if not empty(pool):
            move pool to middle
            if empty(pool):
              end game as done""")
    page = md(load_text(stale, "stale.yaml"))
    assert "The game ends in step 1 (Pick), when the pool is empty." in page
    # with no test after the change, the test that led there still says when: the sweep before an ending
    swept = GAME.replace("""          if round == 2:
            end game as done""", """          if round == 2:
            move pool to middle
            end game as done""")
    assert "The game ends in step 1 (Pick), when the round number is 2." in md(load_text(swept, "swept.yaml"))
