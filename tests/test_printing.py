"""Printed output: rule summaries, quick references and card sheets, for every bundled ruleset."""
import base64
import re

import pytest
from helpers import ROOT, bundled, rulelang
from helpers.random_games import LONG_GAMES
from test_language import DUEL

from generators import icons
from generators.cards import CardRenderer, CardSize
from generators.components import printed_cards
from generators.english import EXPRESSIONS, STATEMENTS, MissingRendering, block, context, node_classes
from generators.html import to_html
from generators.markdown import to_markdown
from generators.nouns import type_noun
from generators.publish import CardOptions, card_images, card_sheets, summary_file
from generators.quick import quick_reference
from generators.sheets import PAPERS, SIZES, impose, mark_lines, pages, parse_size, sheet_pages
from generators.summary import summary
from rulelang import RulesetError, bundled_names, find_ruleset, ir, load_ruleset, load_text

RULESETS = bundled_names()
WITH_CARDS = [n for n in RULESETS if printed_cards(bundled(n))]  # dice alone (pig-race), or pieces only (morris): no sheets
# a variant's PDF is made by the same code as its base's: in the default run, Markdown and HTML only
VARIANTS = {n for n in RULESETS if "\nextends:" in find_ruleset(n).read_text()}
needs_pdf = pytest.mark.skipif(not __import__("generators.pdf", fromlist=["available"]).available(),
                               reason="the [pdf] extra (WeasyPrint) is not installed")


def cairo_available() -> bool:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


needs_cairo = pytest.mark.skipif(not cairo_available(), reason="the [pdf] extra (CairoSVG) is not installed")


def text_of(markdown: str) -> str:
    return markdown.replace("\\", "")


def assert_no_placeholders(text: str) -> None:
    """No markers, no Python values, no raw identifiers, no unfilled `{x}`."""
    assert not re.search("[\x0e-\x11]", text)
    for bad in ("MissingRendering", "Const(", "Local(", "<ir.", "{", "}", " object at "):
        assert bad not in text, bad
    identifiers = re.findall(r"\b[a-z]+_[a-z_]+\b", text)
    assert not identifiers, identifiers[:5]


# ------------------------------------------------------------ English for every construct


def test_every_expression_and_statement_class_has_an_english_rendering():
    exprs, stmts = node_classes()
    assert ir.Binary in exprs and ir.Move in stmts
    context(load_ruleset("twenty-trials"))  # registers the renderings
    missing = [c.__name__ for c in exprs if c not in EXPRESSIONS] + [c.__name__ for c in stmts if c not in STATEMENTS]
    assert not missing, f"register an English rendering (generators/english.py says how) for: {', '.join(missing)}"


def test_a_node_without_a_rendering_is_an_error_not_a_placeholder(twenty_trials):
    class Teleport(ir.Stmt):
        pass

    with pytest.raises(MissingRendering, match="Teleport"):
        block(context(twenty_trials), (Teleport(),))


def test_sentences_read_like_the_rulebook(twenty_trials):
    ctx = context(twenty_trials, twenty_trials.modes["challenger"])
    [step1, *_] = twenty_trials.modes["challenger"].round
    item = block(ctx, step1.body)[0]
    assert item.text == ("Draw an action card (an action modifier goes to the Reserve) until your hand holds at "
                         "least 4 action cards or the Action Deck is empty.")  # was "Repeat while … is not empty:"
    md = to_markdown([summary(twenty_trials)])
    assert "there is no trial card in the Chamber" in md
    assert "Move every card in the Chamber that is not an action card to the Trial Discard Pile." in md
    assert "Discard two action cards of your hand that complete the trial" in md  # the ruleset's own words, pinned
    assert "- Strength: X + Y is at least the value of the trial card." in md  # was "*x* + *y* … of *t*"
    assert "| **gold** | 8 or more |" in md


def test_a_game_for_several_roles_names_them():
    rs = load_text(DUEL, "duel.yaml")
    md = to_markdown([summary(rs)])
    assert_no_placeholders(text_of(md).replace("_turn", "turn"))  # option names are shown as written
    assert "Bob chooses one of these:" in md  # several roles: named, not "you"
    assert "*take* (only if there is a number card in the table whose rank is the largest rank of the number " \
           "cards in the table)" in md  # the noted *best*, written where it is used
    assert "the game ends." in md and "(*last round*)" not in md  # who wins is said once, under the end of the game
    assert "When the game ends, the highest score wins; a tie is a draw." in md
    assert "Bob's score is the total rank of the number cards in Bob's won + *passes*." in md
    assert ("For every player among Alice and Bob: that player chooses a number card in their hand, "
            "then moves it to the table.") in md
    assert "- *play*: Play." in md and "- *action*: Settle." in md  # the decisions' names, for programs


# ------------------------------------------------------------ summaries of every ruleset


@pytest.mark.parametrize("name", RULESETS)
def test_summary_has_every_component_step_and_ruling(name):
    rs = load_ruleset(name)
    md = text_of(to_markdown([summary(rs)]))
    assert_no_placeholders(md.replace("--set NAME=VALUE", ""))
    assert rs.title in md
    for kind, ct in rs.card_types.items():
        n = sum(c.kind == kind for c in rs.cards)
        assert f"### {(type_noun(ct).many if n != 1 else type_noun(ct).one).capitalize()} ({n}" in md
    for mode in rs.modes.values():
        assert f"## {mode.title}" in md
        for i, step in enumerate(mode.round, 1):
            assert f"#### Step {i}: {step.name}" in md
    for ruling in rs.rulings:
        assert ruling.id.replace("-", " ").replace("_", " ").capitalize() in md  # `board-size`: "Board size"


def test_backticked_names_in_ruleset_text_print_as_names_in_italics():
    rs = load_text(DUEL.replace("  number:\n", '  number:\n    text: "asked by the decision `last_round`"\n'),
                   "duel.yaml")
    doc = summary(rs)
    markdown, html = to_markdown([doc]), to_html([doc])
    assert "asked by the decision *last round*" in markdown and "`" not in markdown
    assert "asked by the decision <em>last round</em>" in html and "<code>" not in html


def test_a_summary_printed_with_set_values_says_which_are_in_force():
    plain = text_of(to_markdown([summary(load_ruleset("twenty-trials"))]))
    assert "| option | values | default | what it does |" in plain
    md = text_of(to_markdown([summary(load_ruleset("twenty-trials", {"trial_modifiers": "true"}))]))
    assert "| option | values | default | this game | what it does |" in md
    assert "| *trial modifiers* | on / off | off | on |" in md
    assert "| *action modifiers* | on / off | off | off |" in md


@pytest.mark.parametrize("name", RULESETS)
def test_summary_html_is_one_self_contained_file(name):
    rs = load_ruleset(name)
    html, _ = summary_file(rs, "html")
    page = html.decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "@page" in page
    assert "<link" not in page and "<script" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    for mode in rs.modes.values():
        for step in mode.round:
            assert step.name in page.replace("&#39;", "'")


# the PDF is laid out by the same code for every ruleset: the default run makes one (the
# Gobbots': a board, cards, icons and watches), the slow run every one
PDF_BY_DEFAULT = {"gauntlet-gobbots"}


@needs_pdf
@pytest.mark.parametrize("name", [n if n in PDF_BY_DEFAULT else pytest.param(n, marks=pytest.mark.slow)
                                  for n in RULESETS])
def test_summary_and_quick_reference_as_pdf(name):
    rs = load_ruleset(name)
    data, warnings = summary_file(rs, "pdf")
    assert data.startswith(b"%PDF") and not warnings
    quick, warnings = summary_file(rs, "pdf", quick=True)
    assert quick.startswith(b"%PDF")
    assert warnings == [], "the quick reference must fit one page per mode"


@pytest.mark.parametrize("name", RULESETS)
def test_quick_reference_has_the_round_and_the_icon_legend(name):
    rs = load_ruleset(name)
    for mode_name, mode in rs.modes.items():
        md = text_of(to_markdown([quick_reference(rs, mode_name)]))
        assert_no_placeholders(md)
        if mode.quick:  # pages of the mode's own: checked below (test_quick_pages_...)
            continue
        assert md.index("## Each round") < md.index("## End of the game")
        for step in mode.round:
            assert f"**{step.name}**" in md
        used = {i for i, _, _, _ in __import__("generators.components", fromlist=["x"]).icons_used(rs)}
        for name_ in used:  # by its value's name, or (a number's icon) as its glyph
            assert name_.replace("_", " ") in md or icons.glyph(name_) in md


def test_the_icon_legend_lists_exactly_the_icons_on_cards(twenty_trials):
    md = to_markdown([quick_reference(twenty_trials, "challenger")])
    legend = md[md.index("## Icons"):md.index("## Components")]
    for value in ("light sun", "dark sun", "light moon", "dark moon", "sun", "moon", "light", "dark"):
        assert f"| {value} |" in legend
    assert "heart" not in legend


def test_text_overrides_the_generated_sentence(tmp_path):
    text = (ROOT / "rulesets" / "twenty-trials.yaml").read_text().replace(
        "      - step: Draw cards\n", "      - step: Draw cards\n        text: Fill your hand up to four cards.\n")
    rs = load_text(text, "tt.yaml")
    md = to_markdown([summary(rs)])
    step = md[md.index("#### Step 1"):md.index("#### Step 2")]
    assert "Fill your hand up to four cards." in step and "holds fewer than" not in step


def test_a_text_placeholder_must_name_a_parameter():
    bad = (ROOT / "rulesets" / "twenty-trials.yaml").read_text().replace('text: "{i} shows {a}"',
                                                                          'text: "{i} shows {aspect}"')
    with pytest.raises(RulesetError, match="names unknown parameter 'aspect'"):
        load_text(bad, "tt.yaml")


def test_an_unknown_icon_is_a_located_error(twenty_trials):
    bad = (ROOT / "rulesets" / "twenty-trials.yaml").read_text().replace(
        "aspect: {values: [sun, moon, light, dark], icons: true}",
        "aspect: {values: [sun, moon, light, dark], icons: {sun: sunn}}")
    rs = load_text(bad, "tt.yaml")
    with pytest.raises(RulesetError) as err:
        summary(rs)
    assert "tt.yaml:" in err.value.format() and "unknown icon 'sunn'" in err.value.format()
    assert "did you mean 'sun'?" in err.value.format()


# ------------------------------------------------------------ cards


def faces_in_sheet(html: str) -> list[str]:
    """The SVG of every card image on the sheets, in order."""
    return [base64.b64decode(src).decode("utf-8")
            for src in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)]


@pytest.mark.parametrize("name", RULESETS)
def test_every_card_is_on_the_sheets_as_often_as_it_is_in_the_game(name):
    rs = load_ruleset(name)
    html, warnings = card_sheets(rs, CardOptions(backs=True, crop_marks=True), "html")
    assert not warnings
    printed = printed_cards(rs)  # not the types marked `print: false`, nor miniatures or spaces
    renderer = CardRenderer(rs, CardSize(63.5, 88.9))
    plan = sheet_pages([CardSize(*renderer.piece_size(c.kind)) for c in printed], "a4", True, backs=True)
    assert sorted(i for page in plan if page.side == "front" for i, _, _ in page.slots) == list(range(len(printed)))
    expected = [renderer.front(printed[i]) if page.side == "front" else renderer.back(printed[i])
                for page in plan for i, _, _ in page.slots]
    assert faces_in_sheet(html.decode("utf-8")) == expected  # each card, and its back behind it


@needs_cairo
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in LONG_GAMES - {"gauntlet-race"} else n
                                  for n in WITH_CARDS])
def test_card_sheets_as_pdf_with_backs(name):
    rs = load_ruleset(name)
    data, warnings = card_sheets(rs, CardOptions(backs=True, crop_marks=True, bleed=3), "pdf")
    assert data.startswith(b"%PDF") and not warnings
    renderer = CardRenderer(rs, CardSize(63.5, 88.9, 3))
    plan = sheet_pages([CardSize(*renderer.piece_size(c.kind), 3) for c in printed_cards(rs)], "a4", True, True)
    assert pdf_pages(data) == len(plan)


def test_backs_show_the_deck_a_card_belongs_to(twenty_trials):
    renderer = CardRenderer(twenty_trials, CardSize(63.5, 88.9))
    by_kind = {c.kind: renderer.back_text(c) for c in twenty_trials.cards}
    assert by_kind["trial"] == by_kind["trial_modifier"] == "Trial"
    assert by_kind["action"] == by_kind["action_modifier"] == "Action"
    trial_backs = {renderer.back(c) for c in twenty_trials.cards if c.kind in ("trial", "trial_modifier")}
    assert len(trial_backs) == 1, "a modifier shuffled into the trial deck must not be told apart by its back"


def test_a_ruleset_template_extends_the_default(twenty_trials):
    renderer = CardRenderer(twenty_trials, CardSize(63.5, 88.9))
    precision_6 = next(c for c in twenty_trials.cards if c.kind == "trial" and c.values["kind"] == "precision"
                       and c.values["value"] == 6)
    svg = renderer.front(precision_6)
    assert "a + b = 6" in svg and "|a − b| = 6" in svg and "Precision 6" in svg


def test_card_text_is_data_not_markup():
    rs = load_text(DUEL.replace("  number:\n", '  number:\n    text: "<script>alert(1)</script> & more"\n'),
                   "duel.yaml")
    svg = CardRenderer(rs, CardSize(63.5, 88.9)).front(rs.cards[0])
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&amp;" in svg


def test_text_that_does_not_fit_is_shrunk_or_flagged_never_cut():
    long = "word " * 30
    rs = load_text(DUEL.replace("  number:\n", f"  number:\n    text: {long * 10}\n"), "duel.yaml")
    renderer = CardRenderer(rs, CardSize(63.5, 88.9))
    svg = renderer.front(rs.cards[0])
    assert svg.count("word") == 300, "every word is still there"
    assert 'stroke="#e00"' in svg, "the box that overflows is outlined in red"
    assert renderer.warnings and "does not fit" in str(renderer.warnings[0])
    short = load_text(DUEL.replace("  number:\n", "  number:\n    text: " + "word " * 28 + "\n"), "d.yaml")
    fitted = CardRenderer(short, CardSize(63.5, 88.9))
    fitted.front(short.cards[0])
    assert not fitted.warnings, "a longer text is shrunk until it fits"


def test_template_errors_point_into_the_ruleset():
    bad = DUEL.replace("  number:\n", "  number:\n    template: |\n      {% extends \"card.svg.j2\" %}\n"
                                      "      {% block art %}{{ text(card.title }}{% endblock %}\n")
    rs = load_text(bad, "duel.yaml")
    with pytest.raises(RulesetError) as err:
        CardRenderer(rs, CardSize(63.5, 88.9))
    line = bad.splitlines().index("      {% block art %}{{ text(card.title }}{% endblock %}") + 1
    assert f"duel.yaml:{line}:" in err.value.format()


def test_templates_run_in_a_sandbox():
    bad = DUEL.replace("  number:\n", "  number:\n    template: |\n      {% extends \"card.svg.j2\" %}\n"
                                      "      {% block art %}{{ card.__class__.__mro__ }}{% endblock %}\n")
    rs = load_text(bad, "duel.yaml")
    with pytest.raises(RulesetError, match="error in the card template"):
        CardRenderer(rs, CardSize(63.5, 88.9)).front(rs.cards[0])


def test_cards_are_the_same_every_time(twenty_trials):
    first, second = CardRenderer(twenty_trials, CardSize(63.5, 88.9, 3)), CardRenderer(twenty_trials, CardSize(63.5, 88.9, 3))
    assert [first.front(c) for c in twenty_trials.cards] == [second.front(c) for c in twenty_trials.cards]
    assert [first.back(c) for c in twenty_trials.cards] == [second.back(c) for c in twenty_trials.cards]


@needs_cairo
def test_one_png_per_card_at_300_dpi():
    rs = load_text(DUEL, "duel.yaml")
    files, _ = card_images(rs, CardOptions(backs=True), "png")
    assert len(files) == 2 * len(rs.cards) and len({n for n, _ in files}) == len(files)
    name, png = files[0]
    assert name == "001-1.png" and png.startswith(b"\x89PNG")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (750, 1050)  # 63.5 x 88.9 mm at 300 dpi


# ------------------------------------------------------------ imposition


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_nine_poker_cards_on_a_page_without_bleed_fewer_with(paper):
    assert impose(CardSize(63.5, 88.9), paper, crop_marks=True).per_page == 9
    assert impose(CardSize(63.5, 88.9, 3), paper, crop_marks=True).per_page < 9


def test_card_sizes():
    assert parse_size("poker") == (63.5, 88.9) and parse_size("63x88mm") == (63.0, 88.0)
    assert set(SIZES) == {"poker", "bridge", "mini", "tarot", "square"}
    with pytest.raises(ValueError, match="unknown card size"):
        parse_size("huge")


@pytest.mark.parametrize("bleed", [0, 3])
def test_crop_marks_stay_in_the_margin(bleed):
    layout = impose(CardSize(63.5, 88.9, bleed), "a4", crop_marks=True)
    (x0, y0), (cw, ch) = layout.origin, layout.cell
    x1, y1 = x0 + layout.cols * cw, y0 + layout.rows * ch
    lines = mark_lines(layout)
    assert len(lines) == 2 * (len(layout.cuts()[0]) + len(layout.cuts()[1]))
    for a, b, c, d in lines:
        for x, y in ((a, b), (c, d)):
            assert 0 <= x <= layout.paper[0] and 0 <= y <= layout.paper[1]
            assert not (x0 < x < x1 and y0 < y < y1), "a crop mark must not cross a card"


def test_backs_are_mirrored_for_long_edge_duplex():
    layout = impose(CardSize(63.5, 88.9), "letter", crop_marks=False)
    plan = pages(layout, 11, backs=True)
    assert [side for side, _ in plan] == ["front", "back", "front", "back"]
    front, back = plan[0][1], plan[1][1]
    for (i, fx, fy), (j, bx, by) in zip(front, back):
        assert i == j and by == fy
        assert bx == pytest.approx(layout.paper[0] - fx - layout.cell[0])


# ------------------------------------------------------------ the command line


def test_summary_command_writes_markdown_html_and_pdf(tmp_path):
    r = rulelang("summary", "twenty-trials")
    assert r.returncode == 0 and r.stdout.startswith("# Gauntlet: The Twenty Trials")
    r = rulelang("summary", "twenty-trials", "--quick", "-o", str(tmp_path / "q.html"))
    pages = sum(len(m.quick) or 1 for m in load_ruleset("twenty-trials").modes.values())  # a page a mode, or its own
    assert r.returncode == 0 and (tmp_path / "q.html").read_text().count("<article>") == pages
    r = rulelang("summary", "twenty-trials", "-o", str(tmp_path / "s.txt"))
    assert r.returncode == 2 and "name it .md, .html or .pdf" in r.stderr
    r = rulelang("summary", "twenty-trials", "--mode", "challengr")
    assert r.returncode == 2 and "did you mean 'challenger'?" in r.stderr


def test_cards_command_checks_its_options(tmp_path):
    r = rulelang("cards", "twenty-trials", "-o", str(tmp_path / "c.html"), "--size", "bridge", "--backs")
    assert r.returncode == 0 and "wrote 46 cards" in r.stdout
    r = rulelang("cards", "twenty-trials", "-o", str(tmp_path / "c.pdf"), "--size", "giant")
    assert r.returncode == 2 and "unknown card size" in r.stderr and "Traceback" not in r.stderr
    r = rulelang("cards", "twenty-trials", "-o", str(tmp_path / "c.pdf"), "--size", "300x300mm")
    assert r.returncode == 2 and "does not fit" in r.stderr


def test_a_missing_pdf_extra_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    from cli.main import main
    monkeypatch.setitem(__import__("sys").modules, "weasyprint", None)
    monkeypatch.setitem(__import__("sys").modules, "cairosvg", None)
    assert main(["summary", "twenty-trials", "-o", str(tmp_path / "s.pdf")]) == 2
    assert "pip install" in capsys.readouterr().err
    assert main(["cards", "twenty-trials", "-o", str(tmp_path / "c.pdf")]) == 2
    assert "pip install" in capsys.readouterr().err


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def test_icons_exist_for_what_the_rulebooks_name():
    for name in ("sun", "moon", "light", "dark", "light_sun", "dark_moon", "hearts", "spades", "swords", "arrow",
                 "drop", "shield", "brick", "lumber", "skull", "dust", "plague", "scales"):
        assert icons.exists(name), name


def test_html_writer_escapes_ruleset_text(twenty_trials):
    import dataclasses
    rs = dataclasses.replace(twenty_trials, text="Cards & <b>bold</b> claims")
    page = to_html([summary(rs)])
    assert "Cards &amp; &lt;b&gt;bold&lt;/b&gt; claims" in page


TWO_MODES = DUEL.replace("  table: {kind: row}\n", "  table: {kind: row, assumed: the rulebook shows no table}\n") + """\
  sudden_death:
    title: Sudden Death
    roles: [alice]
    round:
      - step: Draw
        do: |
          draw 1 from deck to hand of alice
          if size(hand of alice) >= 5:
            win alice as full_hand
"""


def test_each_mode_gets_its_own_quick_reference_page_and_assumptions_are_listed():
    rs = load_text(TWO_MODES, "two.yaml")
    md = to_markdown([summary(rs)])
    assert "## Sudden Death" in md and "#### Step 1: Draw" in md
    assert "- **Zone table**: the rulebook shows no table." in md
    assert "You win in step 1 (Draw), when your hand holds at least 5 cards." in md  # spoken to
    html = to_html([quick_reference(rs, m) for m in rs.modes], quick=True)
    assert html.count("<article>") == 2 and "break-after: page" in html


@needs_pdf
def test_a_quick_reference_pdf_has_one_page_per_mode():
    from generators import pdf
    rs = load_text(TWO_MODES, "two.yaml")
    data, warnings = summary_file(rs, "pdf", quick=True)
    assert not warnings
    docs = [quick_reference(rs, m) for m in rs.modes]
    assert len(pdf.render(to_html(docs, quick=True)).pages) == 2


def test_a_card_front_prints_lines_not_field_names_or_flags():
    """Issue 15: a card reads like a printed card — `print:` lines, flags as words, no 'yes'/'no'."""
    rs = bundled("hand-of-fate-ordeals")
    renderer = CardRenderer(rs, CardSize(63.5, 88.9))
    views = {}
    for c in printed_cards(rs):
        views.setdefault(renderer.view(c).title, renderer.view(c))  # the first of equal names (level 1)
    claws = views["Kraken's Claws"]
    assert claws.lines == ["Weapon", "Dual wield", "Relic"] and claws.corner == 0  # numbers by role (layout:)
    assert claws.text == "Divide the Power of the cards bound to it among the enemies as you wish."
    assert [(s.icon, s.value) for s in claws.stats] == [("swords", 3), ("chain", 4), ("target", 2), ("star", 3)]
    assert views["Demon Trader"].lines == ["Level 1", "Event", "Usage: 1 for each player", "Costs 3 Token Shards",
                                           "Acquire Equipment"]
    assert views["Pain"].lines == [] and views["Pain"].text == "Lose 1 Health"  # its line is its rule
    for view in views.values():
        assert not any(line.endswith((": yes", ": no")) or "_" in line for line in view.lines), view.title


def test_a_flag_without_print_lines_reads_as_its_title_when_true():
    from generators.cardview import DEFAULT, field_line
    rs = load_text("""
game: flags
roles: [player]
cards:
  gem: {fields: {name: text, shiny: bool, worth: 0..3}, label: "{name}", table: "name shiny worth\\nA true 0\\nB false 2"}
modes:
  m: {round: [{step: s, do: "end game as done"}]}
""", "flags.yaml")
    a, b = rs.cards
    assert [field_line(c, "shiny", DEFAULT) for c in (a, b)] == ["Shiny", None]
    assert field_line(a, "worth", DEFAULT) == "worth: 0"  # without `print:` a number is always shown
    assert field_line(a, "worth", "Worth {worth}") is None and field_line(b, "worth", "Worth {worth}") == "Worth 2"


def test_quick_pages_split_a_mode_and_hold_only_the_sections_they_name():
    from generators.quick import quick_pages
    pages = quick_pages(bundled("hand-of-fate-ordeals"), "competitive")
    turn, combat = (to_markdown([p]) for p in pages)
    assert "## The turn" in turn and "## Components" in turn and "## Terms" not in turn
    assert "## Combat" in combat and "**Push or flee.**" in combat and "## Components" not in combat
    assert "turn over" not in turn + combat  # no bookkeeping flag reaches the page


def test_quick_pages_name_known_steps_and_sections():
    bad = """
game: q
modes:
  m:
    round: [{step: s, do: "end game as done"}]
    quick: [{title: P, steps: [t], also: [nothing]}]
"""
    with pytest.raises(RulesetError) as err:
        load_text(bad, "q.yaml")
    text = str(err.value)
    assert "unknown step 't'" in text and "unknown section 'nothing'" in text
