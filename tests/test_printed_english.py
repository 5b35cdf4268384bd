"""The printed rules read like a rulebook: each sentence issue 16 found wrong, and its like.

Each test names the sentence that was printed before and checks the
summary of a bundled ruleset, or of a small game written to show it, for
what a rulebook editor would accept instead.
"""
import re

import pytest

from generators import grammar, icons
from generators.english import block, context, role
from generators.html import to_html
from generators.markdown import to_markdown
from generators.quick import quick_pages
from generators.summary import summary
from rulelang import RulesetError, bundled_names, load_ruleset, load_text


def md(rs, mode=None, quick=False) -> str:
    """The Markdown a player reads, without its escapes."""
    docs = quick_pages(rs, mode) if quick else [summary(rs, mode)]  # every page of a quick reference
    return to_markdown(docs).replace("\\", "")


@pytest.fixture(scope="module")
def trials():
    return load_ruleset("twenty-trials")


@pytest.fixture(scope="module")
def hand_of_fate():
    return load_ruleset("hand-of-fate-ordeals")


@pytest.fixture(scope="module")
def gobbots():
    return load_ruleset("gauntlet-gobbots")


def every_summary():
    for name in bundled_names():
        rs = load_ruleset(name)
        yield name, md(rs)
        for mode in rs.modes:
            yield f"{name}-{mode}", md(rs, mode) + md(rs, mode, quick=True)


WRONG = [  # printed before issue 16, in any bundled summary
    "otherwise 1 + 0 if", "While true", "- True.", "it is not true that", "Trialmaster's Trialmaster's",
    "trialmaster's Trialmaster", "values the value of", "the command the command1", "such that it is not",
    "the first *n* among", "soldier, soldier", "soldier card *s*, soldier", "(decision ", "Let *", "Repeat while", "(no player chooses)",
    "(1 for the first)", " to true.", " to false.", " is true", " is false", "Take the last", "1–1", "2–2", "3–3", "1 spaces", "42 cards", "*s*, soldier,", "*Assumed: *",
    " of of ", "The challenger", "the trialmaster", "row can complete", "row draw", "count trial",
    "challenger strength: 8", "an unit", "a hour", "a 8 ", "bosss", "armys", "boxs",
    "card *t*s", "items in *action row*", "The Gauntlet in", "*used* of",
    "does not have reached", "whose 's", "bound to the weapon is empty", "cards in play is not empty",
    # a thing named again where a pronoun says it (session five): "their", "its", "it", "them"
    "pays that player as many chips as that player's", "and the value of the place is 21", "to 2 × that player's",
    "march and the second command of that command space", "in that player's hand, then moves", "to that player's cards in play",
    "the room after that player's.", "the space above the soldier.", "no Wall is in play on that player",
    "then moves that action card to", "then move that action card to",  # "…, then moves it": one sentence
    "highest *killed king*", "either *anywhere* is on", "item D of", "there is *line* among",
    "is the largest of the highest roll of", "roll-off's team",
]


SOFTWARE = {  # issue 30's "Done means": what no printed rule of any bundled game may show
    "a snake_case name": r"\b[a-z]+_[a-z0-9_]+\b",
    "a one-letter name": r"\*(?!d\d)[A-Za-z]\d?\*|\b(?!d\d)[a-z]\d\b|\([a-z]: ",  # a die's d6 is a name players use
    "a decision's name": r"\(decision ",
    "Let … be": r"\bLet\b[^.\n]* be\b",
    "to true/false": r"\bto (true|false)\b",
    "is true/false": r"\bis (true|false)\b",
    "Repeat while": r"\bRepeat while\b",
    "(no player chooses)": r"\(no player chooses\)",
    "(1 for the first)": r"\(1 for the first\)",
    "a backtick": r"`",
    "COMPONENTS.md": r"COMPONENTS\.md",
    "the tests": r"\btests\b",
    "a modulo": r"\bmod\b",  # a seat counted clockwise, an odd roll, a table of values: never the arithmetic
    "set to the result": r"to the result\b",  # "roll a die for *die*"
    "is none": r"\bis (not )?none\b",  # "the player has a *team*", "there is no Royalty of this level"
    "a board's first": r"first space among the spaces|among the spaces of",  # "the space of the track whose …"
    "no noun for a list's items": r"[Ff]or each [A-Z] among|number of items in",  # "every player among *left*"
    "two subjects": r"\bchooses [^.:;]*, then (move|set|draw|shuffle|turn|add) ",  # "… chooses …, then moves it"
    "a count of players as arithmetic": r"as many times as \d+ × the number of players",  # "twice for each player"
    "an ending's name": r"\b(wins?|loses?|ends|draw|out of the game) \(\*",  # "wins (*reached the end*)"
    "a pronoun of no one": r"\b(them|it)'s\b|\btheir( \w+)?'s team\b",  # "them's", "their players's team"
    "a player set to themselves": r"\bset (that |the )?player's \*[^*]+\* to them\b",  # "… becomes their own *team*"
    "two determiners": r"\b(the|a|an) (the|a|an|that|this|each|every|your|their)\b",  # "the that side end"
}


def test_no_summary_prints_a_sentence_found_wrong():
    """Every bundled summary and quick reference, printed once (a few seconds), against every
    phrase found wrong and every sign of software (one test: the printing is its cost)."""
    found = []
    for name, text in every_summary():
        for bad in WRONG:
            where = text[:text.index("## Appendix")] if bad == "challenger strength: 8" and "Appendix" in text else text
            found += [f"{name}: {bad!r}"] if bad in where else []
        found += [f"{name}: {what}: {text[max(0, m.start() - 40):m.end() + 40]!r}"
                  for what, pattern in SOFTWARE.items() for m in re.finditer(pattern, text)]
    assert not found, found


# ------------------------------------------------------------ grouping


def test_a_sum_of_conditional_values_keeps_its_grouping(trials):
    # was: "**used**: 0 if *ma* is none, otherwise 1 + 0 if *mb* is none, otherwise 1."
    from generators.prose import english
    assert english(trials, trials.defines["used"]).markdown() == (
        "**the number of action modifiers among an action modifier card and another action modifier card**: "
        "0 if the action modifier card and the other action modifier card are none; otherwise 1 if the action "
        "modifier card or the other action modifier card is none; otherwise 2.")


def test_not_both_empty_keeps_its_grouping(trials):
    # was: "… is less than 4 and the Action Deck is not empty or the Action Discard Pile is not empty"
    assert ("Repeat until there are at least 4 action cards in the Chamber or both the Action Deck "
            "and the Action Discard Pile are empty:") in md(trials, "moderator")


GAME = """
game: blackjack
title: Little Blackjack
roles:
  red: {}
  blue: {}
  dealer: {text: deals}
params:
  open: {default: false}
cards:
  playing:
    fields: {rank: 1..13}
    table: |
      rank count
      1    4
      2    4
      3    4
      4    4
      5    4
      6    4
      7    4
      8    4
      9    4
      10   4
      11   4
      12   4
      13   4
  trick_token: {component: token, count: 60}
  bid_marker: {component: marker, count: 4}
  unit: {component: miniature, count: 2}
  hour: {component: token, count: 1}
  boss: {component: miniature, count: 2}
  army: {component: tile, count: 2}
  tool_box: {component: tile, count: 2}
zones:
  deck: {facing: down, holds: [playing]}
  hand: {owner: each, seen_by: owner, kind: hand, holds: [playing]}
  start: {owner: each}
vars:
  standing: false
  total: 0
  leader: 0
define:
  owner_of(playing k): "red if k.rank > 6 else blue"
  index_of(playing w): "w.rank * 2 + (1 if w.rank > 10 else 0)"
  points(playing c): "(200 if c.rank == 1 else 100 if c.rank > 10 else 0) + c.rank"
procedures:
  take_turn(role p):
    text: "{p} takes a turn"
    do: |
      let again = true
      while again:
        draw 1 from deck to hand of p
        if total > 21:
          win p as home
        again = false
setup: |
  move all c in box where c is playing to deck
modes:
  play:
    round:
      - step: Deal
        do: |
          while not standing and total < 21:
            total += points(top(deck))
            move top(deck) to start of owner_of(top(deck))
            leader = index_of(top(deck))
            take_turn(red)
          while true:
            take_turn(blue)
    score:
      red: total
      blue: total
      dealer: leader  # read by a rule, so not a statistic: its update is printed
"""


@pytest.fixture(scope="module")
def blackjack():
    return load_text(GAME, "blackjack.yaml")


def test_not_stands_on_its_own_condition(blackjack):
    # was: "While it is not true that *standing* and your total is less than 21", then "Repeat while *standing*
    # is false and …"
    assert "Repeat until *standing* is on or *total* is at least 21:" in md(blackjack)


def test_a_conditional_plus_a_value_is_said_around_the_sum(blackjack):
    # was: "200 if …, otherwise 100 if …, otherwise 0 + the rank of *c*"
    assert ("**points**: 200 + the rank of the playing card if its rank is 1; otherwise 100 + its rank if its "
            "rank is more than 10; otherwise 0 + its rank.") in md(blackjack)


def test_a_define_named_with_a_preposition_reads_once(blackjack):
    # was: "Move *k* to *owner of* of *k*'s Start", "Set *leader* to *index of* of *w*"
    text = md(blackjack)
    assert "to the start of *owner of* the top playing card of the deck" in text
    assert "Set *leader* to *index of* the top playing card of the deck." in text


def test_a_field_named_with_a_preposition_is_a_noun(blackjack):
    from generators.nouns import field_noun
    assert field_noun("to") == "to value" and field_noun("command1") == "first command"  # was "the to of t"


# ------------------------------------------------------------ machine-sounding English


def test_no_while_true_and_no_loop_flag_as_an_end_condition(blackjack):
    text = md(blackjack)
    assert "Repeat until the game ends:" in text  # was "While true, repeat:"
    end = text[text.index("### End of the game"):text.index("## Terms")]
    assert "*again*" not in end and "True." not in end  # was "… when: *again*" and "- True."


def test_roles_go_by_their_names(blackjack, trials):
    text = md(blackjack)
    assert "Red takes a turn." in text and "The red" not in text  # was "The red takes a turn."
    assert "Repeat until the game ends: Blue takes a turn." in text  # a name keeps its capital after a colon
    assert "North's score is *total*." in md(load_text(GAME.replace("red", "north"), "b.yaml"))  # was "The north's"
    assert role(context(blackjack), "dealer") == "the Dealer" and role(context(blackjack), "blue") == "Blue"
    assert "the Trialmaster's hand" in md(trials, "versus")  # was "the trialmaster's Trialmaster's hand"
    assert "your hand" in md(trials, "trialmaster")  # the Trialmaster plays: spoken to


def test_every_soldier_not_no_soldier_not(gobbots):
    # was: "There is no soldier card *s* in The Gauntlet such that it is not true that *s* is at the end of its lane."
    assert "If every soldier on the Gauntlet is at the end of its lane:" in md(gobbots)


def test_the_automated_challenger_takes_the_right_most_pair(trials):
    text = md(trials, "trialmaster")
    assert "The Challenger discards the pair of action cards in the Chamber that completes the trial with the " \
           "fewest action modifiers, of those the right-most pair" in text  # the ruleset's own words, pinned



def test_a_card_bound_by_a_choice_is_named_by_what_it_is(trials, gobbots):
    assert "The Trialmaster chooses a trial card in their hand, then moves it to the Chamber." \
        in md(trials, "versus")  # one sentence: what it named is "it" after the "then"
    assert ("That soldier carries out the first command of that command space, with X = the first X of that "
            "command space.") in md(gobbots)  # was "the command the command1 of *cs* the x1 of *cs*"


def test_ratings_and_counts_of_one(gobbots):
    text = md(gobbots)
    assert "| **minor victory** | 1 |" in text  # was "1–1"
    from test_language import DUEL  # "{n} spaces" with 1: "1 space"
    duel = DUEL.replace("vars:", 'define:\n  far(number n):\n    text: "{n} spaces away"\n    value: n > 1\n'
                        "vars:", 1).replace("if round == rounds:", "if far(1) or far(2) or round == rounds:")
    said = md(load_text(duel, "d.yaml"))
    assert "1 space away" in said and "2 spaces away" in said  # was "at most 1 spaces away"


def test_components_are_counted_by_kind(gobbots, blackjack):
    # was: "42 cards: 3 soldier, 18 gobbot…", "60 trick token and 4 bid marker", "52 cards: 52 playing"
    assert "6 miniatures (3 soldiers and 3 sergeants), 18 gobbot tokens and 18 command spaces." in md(gobbots)
    text = md(blackjack)
    assert ("52 playing cards, 61 tokens (60 trick tokens and 1 hour), 4 bid markers, 4 miniatures (2 units and "
            "2 bosses) and 4 tiles (2 armies and 2 tool boxes).") in text
    assert "### Bosses" not in text and "### Armies" not in text  # a type with nothing more to say: counted only


@pytest.mark.parametrize("noun, article, many", [
    ("unit", "a unit", "units"), ("hour", "an hour", "hours"), ("8", "an 8", "8s"), ("11", "an 11", "11s"),
    ("boss", "a boss", "bosses"), ("army", "an army", "armies"), ("box", "a box", "boxes"),
    ("die", "a die", "dice"), ("European", "a European", "Europeans"), ("X", "an X", "Xs"),
    ("honest man", "an honest man", "honest men"), ("one-eyed jack", "a one-eyed jack", "one-eyed jacks"),
    ("key", "a key", "keys"), ("hero", "a hero", "heroes"), ("wolf", "a wolf", "wolves"),
])
def test_articles_and_plurals(noun, article, many):
    assert grammar.article(noun) == article and grammar.plural(noun) == many
    assert grammar.singular(many) == noun or noun in ("8", "11", "X", "one-eyed jack", "honest man", "European")


def test_a_ruleset_names_an_irregular_noun():
    rs = load_text(GAME.replace("unit: {component: miniature, count: 2}",
                                "unit: {component: miniature, count: 2, plural: unitz, article: an}"), "b.yaml")
    assert "4 miniatures (2 unitz and 2 bosses)" in md(rs)
    with pytest.raises(RulesetError, match="article must be one of: a, an"):
        load_text(GAME.replace("unit: {component: miniature, count: 2}",
                               "unit: {component: miniature, count: 2, article: the}"), "b.yaml")


# ------------------------------------------------------------ one mode at a time


def test_a_mode_prints_only_what_it_uses(trials):
    text = md(trials, "challenger")
    assert "Trialmaster's hand" not in text and "modifier side" not in text  # other modes' zones
    assert "Versus-" not in text and "Moderator-" not in text and "**Refresh**" in text  # its rulings only
    rules = text[:text.index("## Appendix")]
    assert "challenger strength" not in rules and "heuristic" not in rules.lower()  # agents' terms: appendix only


def test_a_mode_does_not_print_the_setup_it_undoes(trials):
    text = md(trials, "moderator")
    assert "modifier" not in text[:text.index("## Moderator Mode")]  # no modifier cards, option or setup
    assert "Setup for this mode" not in text and "## Options" not in text
    assert "Move the trial modifier cards in the Trial Deck and the action modifier cards" in md(trials)  # the whole game still has them


def test_a_ruling_says_which_modes_it_applies_to():
    with pytest.raises(RulesetError, match="'Engage the trail' is not a mode, a step or the setup"):
        load_text(GAME + "rulings:\n  - id: x\n    applies_to: [play, Engage the trail]\n    text: y\n", "b.yaml")
    rs = load_text(GAME + "rulings:\n  - id: dealt\n    applies_to: [play, Deal]\n    text: y\n", "b.yaml")
    assert "**Dealt** (*Deal*): y." in md(rs, "play")


def test_what_a_watch_does_is_in_the_rules(trials):
    # was: only among the rulings
    text = md(trials, "versus")
    rules = text[text.index("## Versus Mode"):text.index("### End of the game")]
    assert "As soon as two action cards in the chamber meet the trial, it is completed:" in rules
    assert "Move all cards in the modifier side of the Chamber to the Out-of-Game Pile." in rules
    assert "Then go on with step 4, Reset the chamber." in rules
    assert "As soon as two action cards" in md(trials, "versus", quick=True)


@pytest.mark.parametrize("mode", ["challenger", "trialmaster", "moderator", "versus"])
def test_a_quick_reference_defines_every_term_it_uses(trials, mode):
    # was: the Trialmaster quick reference used *row draw*, *row can complete* without defining them
    from generators.document import plain
    from generators.endings import end_blocks
    from generators.glossary import term
    ctx = context(trials, trials.modes[mode])
    for step in trials.modes[mode].round:
        block(ctx, step.body)
    end_blocks(ctx, trials.modes[mode])
    text = md(trials, mode, quick=True)
    terms = set(re.findall(r"^- \*\*(.+?)\*\*", text, re.M))
    for name in ctx.terms:
        d = trials.defines.get(name)
        if d is not None and d.text:
            heading = plain(term(ctx, d.text, d.name, d.params, d.body))
            assert heading in terms or heading in text and "**" + heading not in text, (mode, heading)


# ------------------------------------------------------------ escaped output


def test_text_that_looks_like_markdown_stays_text(blackjack):
    rs = load_text(GAME.replace("title: Little Blackjack", "title: Little Blackjack\ntext: |-\n  1. Deal.\n"
                                "  - then *stand* & <b>win</b> # ~no~"), "b.yaml")
    page = to_markdown([summary(rs)])
    assert "1\\. Deal. - then \\*stand\\* \\& \\<b\\>win\\</b\\> \\# \\~no\\~" in page
    html = to_html([summary(rs)])
    assert "then *stand* &amp; &lt;b&gt;win&lt;/b&gt; # ~no~" in html


def test_emphasis_never_starts_or_ends_with_a_space(gobbots):
    text = to_markdown([summary(gobbots)])
    assert "*Assumed:* The tokens' values" in text  # was "*Assumed: *The tokens' values"
    assert "*Assumed: *" not in text


# ------------------------------------------------------------ icons


@pytest.mark.parametrize("name", bundled_names())
def test_every_icon_prints_differently(name):
    rs = load_ruleset(name)
    shown = {value: icon for enum in rs.enums.values() for value, icon in enum.icons.items()}
    glyphs = {icons.glyph(i) for i in shown.values()}
    bodies = {icons.body(i) for i in shown.values()}
    assert len(glyphs) == len(bodies) == len(shown), "two values print the same icon"  # was: light and dark sun ☀


def test_two_values_with_the_same_icon_are_an_error(trials):
    bad = load_text(open("rulesets/twenty-trials.yaml").read().replace(
        "aspect: {values: [sun, moon, light, dark], icons: true}",
        "aspect: {values: [sun, moon, light, dark], icons: {sun: dark_sun, moon: moon, light: light, dark: dark}}"),
        "tt.yaml")
    with pytest.raises(RulesetError, match="values 'dark_sun' and 'sun' would print the same icon"):
        summary(bad)


def test_plain_text_reads_each_icon(trials):
    text = md(trials, "challenger")
    assert "| ○☀ light sun |" in text and "| ●☀ dark sun |" in text
    assert "One card of each aspect: ☀ sun, ☾ moon, ○ light and ● dark." in text  # one of each: no table


# ------------------------------------------------------------ the four printed rules issue 30 found wrong


def test_the_16_7_end_keeps_its_condition_on_a_noted_value():
    # was: "*roll off winner* wins (*through room 13*) in “the teams in room n fight …”, when: *n* is 13." — the
    # real condition (a team has beaten room 13) was dropped, with every condition on a `let` value
    text = md(load_ruleset("gauntlet-16-7"))
    end = text[text.index("### End of the game"):text.index("## Terms")]
    assert "in step 7 (Fight)" in end and "in room 13 fight" in end and "N is 13" not in end
    assert "there are players *through*" in end  # the teams through: the condition that was lost
    assert "“**" not in end  # no ending placed "in" a procedure's text
    assert "The winner of the last roll-off wins in step 7" in end  # a player held in a variable: its `text:`


def test_the_race_has_four_cubes_per_player():
    # was: "4 cubes" — the rulebook has four cubes per player: one on the track, three for life points
    text = md(load_ruleset("gauntlet-race"))
    assert "54 action cards, 36 tiles and 16 cubes (4 per player: 1 cube and 3 cubes for life points)." in text


def test_a_parameter_left_out_of_a_text_is_never_lost():
    # was: "*p* fights 0 minions (or the Royalty and its minions)" — the text left out `royal`, so a Royalty fight
    # read as a fight against no one, and calls that differ printed alike
    text = md(load_ruleset("hand-of-fate-ordeals"))
    assert "fights 0 minions" not in text
    assert "the player fights the Royalty of this level and its minions." in text
    assert "fights the minions of the encounter card, sprung as an ambush" in text
    from rulelang import printed
    from test_language import DUEL
    old = DUEL.replace("vars:", 'define:\n  above(number a, number b):\n    text: "{a} is high"\n    value: a > b\n'
                       "vars:", 1).replace("if round == rounds:", "if above(round, rounds):")
    rs = load_text(old, "duel.yaml")  # a ruleset written before: it still checks, with a warning
    assert any("leaves out 'b'" in w.message for w in printed.warnings(rs))
    assert "If the round number is high (b: the *rounds* option): the game ends" in md(rs)  # b is not lost


def test_the_winning_card_is_the_strongest_not_the_first():
    # was: "**the winning card**: the left-most playing card in the trick" — `ordered by` inside first(...) was
    # dropped, so the printed rule said the first card played wins
    text = md(load_ruleset("oh-hell"))
    assert ("**the winning card**: the playing card in the trick whose strength is the highest (the left-most of "
            "them, if several).") in text


def test_moves_to_one_place_are_one_sentence(trials):
    # was: "Move every action card in the Chamber to the Action Deck." then "Move all cards in the Action
    # Discard Pile to the Action Deck."; and "If the top card … is an action modifier card: move the top card of
    # the Action Deck to the Reserve." then "Otherwise: move the top card of the Action Deck to your hand."
    text = md(trials, "challenger")
    assert "- Move the action cards in the Chamber and all cards in the Action Discard Pile to the Action Deck." in text
    assert ("- Move the top card of the Action Deck to the Reserve if it is an action modifier card; otherwise to "
            "your hand.") in text


def test_a_move_that_takes_what_an_earlier_one_changed_is_said_apart():
    from generators.flow import together
    from rulelang import ir

    def every(zone):
        return ir.Binder((ir.BinderGroup(("c",), ir.ZoneRef(zone)),), ir.IsType(ir.Local("c"), "action"))
    chamber = ir.Move((), every("chamber"), ir.ZoneRef("deck"))
    discard = ir.Move((ir.ZoneRef("discard"),), None, ir.ZoneRef("deck"))
    assert len(together((chamber, discard))) == 1  # two zones, one place: one move
    assert len(together((chamber, ir.Move((), every("chamber"), ir.ZoneRef("deck"))))) == 2  # the same zone again
    assert len(together((chamber, ir.Move((ir.ZoneRef("deck"),), None, ir.ZoneRef("deck"))))) == 2  # what it filled
    top = ir.Move((ir.BuiltinCall("top", (ir.ZoneRef("discard"),)),), None, ir.ZoneRef("deck"))
    assert len(together((top, top))) == 2  # the top card, then the next one: not "the top card and the top card"
    assert len(together((chamber, ir.Move((), every("chamber"), ir.ZoneRef("hand"))))) == 2  # another place


def printed_words(markdown: str) -> int:
    """Words as a reader counts them: runs of letters, digits and signs between spaces, with the
    Markdown markup (#, *, |, _, a table's rule line) left out."""
    text = "\n".join(line for line in markdown.splitlines() if not re.fullmatch(r"[-|: ]+", line.strip() or "x"))
    return len(re.sub(r"[#*|_`]", " ", text).split())


def test_twenty_trials_challenger_rules_are_as_short_as_a_rulebooks(trials):
    """Issue 30: the Challenger rules in at most 1.5 times the rulebook's words. The rulebook's
    "Challenger Mode" section (its four steps, the refresh, the end and the rating, without the
    worked examples) is 464 words; the same rules printed are the summary's Challenger Mode section
    (the mode, its round and its end) and its Terms (the terms and actions the steps use). The
    components, play area, options, setup, rulings and appendix are not counted: the rulebook says
    those elsewhere."""
    text = md(trials, "challenger")
    sections = re.split(r"(?m)^(?=## )", text)
    counted = [s for s in sections if s.startswith(("## Challenger Mode\n", "## Terms\n"))]
    assert len(counted) == 2
    assert printed_words("".join(counted)) <= 1.5 * 464  # 937 words before issue 30's last pass


def test_hand_of_fate_reads_as_its_review_found(hand_of_fate):
    """What docs/hand-of-fate-summary-review.md found garbled, each printed as a rulebook would."""
    text = md(hand_of_fate, "competitive")
    # was: "At the start of a player's turn (p: the active player) (the active player), …": a moment's arguments
    # said twice, once by their names
    assert "- At the start of a player's turn (the active player), every ability on a card that answers it" in text
    # was: "Nobody: false." (a case of a condition whose arm never holds)
    assert "    - Nobody: never." in text
    # was: "resolves the pain of the Royalty of this level cards" and "resolves as much Pain as the number of
    # cards in the enemies in combat cards": a count before a noun that goes on ("{n} Pain cards")
    assert "The player resolves as many Pain cards as the pain of the Royalty of this level, one at a time" in text
    assert "resolves as many Pain cards as the number of cards in the enemies in combat, one at a time" in text
    # was: "**a player fights the Royalty of this level and its minions orN minions …**"
    assert "**a player fights the Royalty of this level and its minions or N minions, sprung as an ambush" in text
    # moves to one place whose zones belong to a player a variable names are one sentence too
    assert "- Move all cards in the active player's played area and all cards in their hand to their discard pile." \
        in text


def test_a_thing_with_no_noun_is_not_named_by_a_letter():
    # was: "set *roll off winner* to Q among *through*" (a list of players the rules keep, with no noun for its items)
    text = md(load_ruleset("gauntlet-16-7"), "race")
    assert "Otherwise: the first player *through* becomes the winner of the last roll-off." in text  # its noun
    assert " to Q" not in text and "the first of *through*" not in text


def test_a_parameter_after_a_possessive_takes_no_article():
    # was: "**the value of a player's starting a symbol**" (text "the value of {p}'s starting {s}")
    assert "**the value of a player's starting symbol**" in md(load_ruleset("gauntlet-race"), "race")


# ------------------------------------------------------------ referring again (generators/pronouns.py)


def _said(*parts, people=frozenset()):
    from generators.phrases import Seq, Words, lay
    return lay(Seq(tuple(Words(p) if isinstance(p, str) else p for p in parts)), people=people).text


def _player(text="that player", name="p", scope=1):
    from generators.nouns import noun
    from generators.phrases import Bound
    return Bound(text, name=name, noun=noun("player"), scope=scope)


def _card(text="that card", name="c", scope=2):
    from generators.nouns import noun
    from generators.phrases import Bound
    return Bound(text, name=name, noun=noun("card"), scope=scope)


def test_a_thing_named_again_in_a_sentence_is_a_pronoun():
    assert _said("add ", _player("that player's"), " *tricks* to ", _player("that player's"), " *points*") == \
        "add that player's *tricks* to their *points*"
    assert _said("move ", _card(), " to the discard pile, then shuffle ", _card()) == \
        "move that card to the discard pile, then shuffle it"
    assert _said("the cost of ", _card(), " + the bonus of ", _card()) == "the cost of that card + its bonus"
    assert _said("the dealer pays ", _player(), " the stake of ", _player(), " back to ", _player()) == \
        "the dealer pays that player their stake back to them"
    assert _said("move ", _player("that player's"), " pawn to the room after ", _player(), "'s") == \
        "move that player's pawn to the room after theirs"


def test_a_pronoun_is_not_used_where_it_could_mean_two_things():
    other = _player("the other player", name="q", scope=3)
    assert _said(_player("that player's"), " hand and ", other, "'s hand and ", _player("that player's"), " deck") \
        == "that player's hand and the other player's hand and that player's deck"  # two players: names
    same_name = _player("that player's", scope=9)  # `p` bound again inside: another player
    assert _said(_player("that player's"), " team beats ", same_name, " team") == \
        "that player's team beats that player's team"
    assert _said(_player("that player's"), " hand and the Dealer's hand and ", _player("that player's"), " deck",
                 people=frozenset({"Dealer"})) == "that player's hand and the Dealer's hand and that player's deck"
    assert _said(_card(), " is basic and the winner is ", _card()) == "that card is basic and the winner is that card"
    assert _said("the space left of ", _card(), " is next to ", _card()) == \
        "the space left of that card is next to it"  # "left of" is where, not what the card has
    assert _said(_player(), " draws, then ", _player(), " has planned") == \
        "that player draws, then they have planned"  # not "them has": "they", its verb agreeing
    assert "they" not in _said(_player(), " pays ", _player(), " as many")  # "as" is no verb: not "pays they a many"


def test_a_quick_reference_gives_the_values_of_the_options_its_rules_read():
    quick = md(load_ruleset("pig-race"), "race", quick=True)
    assert "- *rounds*: 30 — the most rounds a race lasts." in quick
    setup_only = md(load_ruleset("twenty-trials"), "challenger", quick=True)
    assert "*trial modifiers*" not in setup_only  # read by the setup only: no help during a turn


def test_what_a_choice_names_is_referred_to_after_its_then():
    from generators.nouns import noun
    from generators.phrases import Intro, Seq, Words
    from generators.pronouns import refer_after
    card = _card("that action card", name="c", scope=5)
    head = Seq((_player(), Words(" chooses "), Intro("an action card", name="c", noun=noun("action card"), scope=5),
                Words(" in "), _player("that player's"), Words(" hand")))
    refs = {"p": _player(), "c": card}
    assert refer_after(head, "moves that action card to that player's plan", refs) == "moves it to their plan"
    other = _card("that trial card", name="t", scope=6)
    assert refer_after(head, "moves that action card onto that trial card", {**refs, "t": other}) == \
        "moves that action card onto that trial card"  # two cards: "it" could be either
