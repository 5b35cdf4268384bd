"""Card faces laid out by role (issue 30): each card prints its own rules, its numbers
where their role puts them, every text of a type at one size and inside its box
(measured with the real font), pieces in their own shapes, backs in their fronts'
colours, and a `layout:` checked like the rest of a ruleset."""
import re
from html import unescape

import pytest
from helpers import refusal
from test_language import DUEL

from generators import prose
from generators.cards import CardRenderer, CardSize
from generators.cardview import DEFAULT, field_line
from generators.components import fill_format, printed, printed_cards
from generators.palette import NEUTRAL
from generators.publish import CardOptions, card_images
from generators.textfit import LINE_HEIGHT
from rulelang import bundled_names, find_ruleset, load_ruleset, load_text
from rulelang.abilities import ABILITY_TYPE
from rulelang.types import EnumT

RULESETS = bundled_names()  # the bundled rulesets, variants and examples
BASES = [n for n in RULESETS if "\nextends:" not in find_ruleset(n).read_text()]  # a variant prints its base's cards


class Recorder(CardRenderer):
    """A renderer that notes every text it lays out: (group, role, box, text, the SVG it wrote)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.laid_out = []

    def text(self, text, x, y, width, height, size, *args, **kwargs):
        out = super().text(text, x, y, width, height, size, *args, **kwargs)
        if self._measured is None:
            self.laid_out.append((self._group, kwargs.get("role"), (x, y, width, height), str(text), str(out)))
        return out


def faces(name: str):
    """Every front and back of a bundled ruleset, drawn by a Recorder."""
    rs = load_ruleset(name)
    r = Recorder(rs, CardSize(63.5, 88.9))
    fronts = {c.id: r.front(c) for c in printed_cards(rs)}
    for c in printed_cards(rs):
        r.back(c)
    return rs, r, fronts


def words_of(svg: str) -> str:
    return unescape(re.sub(r"\s+", " ", " ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg))))


def own_rules(rs, card) -> list[str]:
    """What a card does by its own rules, said as the ruleset says it: its words, the lines of the
    fields its layout names as rules, and the English of each ability it carries."""
    ct = rs.card_types[card.kind]
    said = [fill_format(card.text, card)] if card.text else []
    for field in (ct.layout.rules if ct.layout else ()):
        line = field_line(card, field, dict(ct.lines).get(field, DEFAULT))  # as `print:` says the field
        said += [line] if line else []
    carried = list(ct.abilities) + [card.values[f.name] for f in ct.fields
                                    if f.type == EnumT(ABILITY_TYPE) and card.values[f.name]]
    return said + [prose.english(rs, rs.abilities[a]).text for a in carried]


@pytest.mark.parametrize("name", BASES)
def test_every_face_says_its_own_rules_at_one_size_per_part_inside_its_boxes(name):
    rs, r, fronts = faces(name)
    assert not r.warnings, r.warnings
    for card in printed_cards(rs):  # its own rules, not the general sentence of its type
        rules, face = own_rules(rs, card), words_of(fronts[card.id])
        for rule in rules:
            assert re.sub(r"\s+", " ", rule) in face, (card.id, rule, face)
        general = rs.card_types[card.kind].text
        if rules and general and general not in " ".join(rules):
            assert general not in face, (card.id, general)
    sizes: dict = {}  # Hand of Fate once printed 5.8, 6.7 and 7.1 pt on neighbouring cards of one type
    for group, role, box, _, svg in r.laid_out:
        sizes.setdefault((group, role if role is not None else box), set()).update(
            re.findall(r'font-size="([\d.]+)"', svg))
    assert all(len(s) == 1 for s in sizes.values()), {k: s for k, s in sizes.items() if len(s) > 1}
    assert sizes or not printed_cards(rs)  # dice alone (pig-race), or pieces and sheets only (morris, yacht)
    measure = real_font()
    for group, role, (x, y, width, height), text, svg in r.laid_out:  # inside its box, in the real font
        size = float(re.search(r'font-size="([\d.]+)"', svg).group(1))
        squeeze = float((re.search(r"scale\(([\d.]+) 1\)", svg) or [None, 1])[1])
        lines = [unescape(line) for line in re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)]
        widest = max(measure(line, 'font-weight="bold"' in svg) for line in lines) * size * squeeze
        assert widest <= width * 1.01 + 0.05, (group, role, text, widest, width)
        assert len(lines) * size * LINE_HEIGHT <= height + 0.05, (group, role, text)
        w, h = r.piece_size(group) if group != "back" else (99, 99)
        assert -0.01 <= x and x + width <= w + 0.01 and -0.01 <= y and y + height <= h + 0.01, (group, role, text)


def real_font():
    """measure(line, bold) -> its width at a size of 1, by cairo with DejaVu Sans itself (the
    fitting uses a table of its widths: this checks the table and the fitting both)."""
    cairo = pytest.importorskip("cairocffi")
    try:
        context = cairo.Context(cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None))
    except OSError:
        pytest.skip("no cairo library")

    def measure(line: str, bold: bool) -> float:
        context.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL,
                                 cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        context.set_font_size(1000)  # measured large, where hinting rounds nothing, and scaled
        return context.text_extents(line)[4] / 1000
    return measure


def test_one_size_even_where_one_card_of_a_type_says_much_more():
    text = DUEL.replace('    label: "{rank}"\n', '    label: "{rank}"\n    layout: {rules: [rank]}\n'
                        '    print: {rank: "Worth {rank}. ' + "More words to read. " * 6 + '"}\n')
    rs = load_text(text.replace("      9    2\n", "      9    2\n      8    1\n"), "duel.yaml")
    r = Recorder(rs, CardSize(63.5, 88.9))
    for c in rs.cards:
        r.front(c)
    assert len({re.search(r'font-size="([\d.]+)"', svg).group(1) for _, role, _, _, svg in r.laid_out
                if role == "rules"}) == 1


def test_pieces_are_printed_in_their_shape_and_only_when_they_are_paper():
    rs = load_ruleset("gauntlet-gobbots")
    assert {c.kind for c in printed_cards(rs)} == {"gobbot"}  # not the soldiers, sergeants, board spaces
    r = CardRenderer(rs, CardSize(63.5, 88.9))
    token = r.front(next(c for c in rs.cards if c.kind == "gobbot"))
    assert token.startswith('<svg width="30mm" height="30mm"') and '<circle cx="15" cy="15" r="15"' in token
    race = load_ruleset("gauntlet-race")
    tile = CardRenderer(race, CardSize(63.5, 88.9)).front(next(c for c in race.cards if c.kind == "tile"))
    assert tile.startswith('<svg width="50mm" height="50mm"')
    asked = load_text(DUEL.replace("  number:\n", "  number:\n    component: miniature\n    print: true\n"), "d.yaml")
    assert printed(asked.card_types["number"])
    mini = load_text(DUEL.replace("  number:\n", "  number:\n    component: miniature\n"), "d.yaml")
    assert not printed(mini.card_types["number"])
    sized = load_text(DUEL.replace("  number:\n", "  number:\n    component: token\n    layout: {size: 25mm}\n"),
                      "d.yaml")
    files, _ = card_images(sized, CardOptions(backs=True), "svg")
    assert all(svg.startswith(b'<svg width="25mm" height="25mm"') for _, svg in files)


def test_a_number_is_drawn_where_its_role_puts_it_not_as_art():
    """A Gobbot once showed its move, 4, as its art and in a corner badge."""
    rs = load_ruleset("gauntlet-gobbots")
    r = Recorder(rs, CardSize(63.5, 88.9))
    gobbot = next(c for c in rs.cards if c.kind == "gobbot" and c.values["moves"] == 4)
    svg = r.front(gobbot)
    assert [t for _, role, _, t, _ in r.laid_out if role == "stat"] == ["4", "1", "1"]
    assert not [t for _, role, _, t, _ in r.laid_out if role in ("corner", "art", "title")]
    assert svg.count("<g transform") == 3  # the boot, the swords and the heart


@pytest.mark.parametrize("name", RULESETS)
def test_backs_are_printed_in_their_fronts_colour(name):
    rs = load_ruleset(name)
    r = CardRenderer(rs, CardSize(63.5, 88.9))
    behind: dict = {}
    for c in printed_cards(rs):
        behind.setdefault(r.back_text(c), set()).add(r.colours.accent[c.kind])
    for text, accents in behind.items():
        colour = r.colours.backs[text]
        assert colour in accents or (len(accents) > 1 and colour == NEUTRAL) or colour not in r.colours.accent.values(), \
            (text, colour, accents)
        back = r.back(next(c for c in printed_cards(rs) if r.back_text(c) == text))
        assert f'fill="{colour}"' in back


def test_types_shuffled_together_share_their_colour():
    rs = load_ruleset("hand-of-fate-ordeals")
    colours = CardRenderer(rs, CardSize(63.5, 88.9)).colours
    assert colours.accent["skill"] == colours.accent["equipment"] == colours.backs["Hand of Fate"]
    assert len({colours.accent[k] for k in ("skill", "encounter", "minion", "royalty", "pain")}) == 5
    sixteen = CardRenderer(load_ruleset("gauntlet-16-7"), CardSize(63.5, 88.9)).colours
    assert sixteen.backs["16-7"] == NEUTRAL  # green, blue and red cards in one pile: a back that tells none apart


@pytest.mark.parametrize("layout, message", [
    ("{corner: nope}", "corner names unknown field 'nope'"),
    ("{title: \"{nope}\"}", "title names unknown field 'nope'"),
    ("{icons: {rank: nope}}", "unknown icon 'nope' for field 'rank'"),
    ("{icons: {nope: heart}}", "icons names unknown field 'nope'"),
    ("{rules: [nope]}", "rules names unknown field 'nope'"),
    ("{shape: hexagon}", "shape must be one of: card, round, square"),
    ("{size: 2000mm}", "a piece of 2000×2000 mm is too small or too large"),
    ("{size: big}", "size must be written like 30mm or 63x88mm"),
    ("{colour: red}", "colour must be written #rrggbb"),
    ("{colours: '#fff'}", "unknown key 'colours' in the layout of 'number'"),
    ("[corner]", "layout of 'number' must be a mapping"),
])
def test_a_bad_layout_is_a_located_error(layout, message):
    text = DUEL.replace("  number:\n", f"  number:\n    layout: {layout}\n")
    line = text.splitlines().index(f"    layout: {layout}") + 1
    if "icon '" in message:  # icons are the printer's: checked when cards are made
        with pytest.raises(Exception) as info:
            CardRenderer(load_text(text, "duel.yaml"), CardSize(63.5, 88.9))
        (d,) = info.value.diagnostics
    else:
        (d,) = [d for d in refusal(text, "duel.yaml") if message in d.message] or refusal(text, "duel.yaml")
    assert message in d.message and d.span.line == line, (d.message, d.span)


@pytest.mark.parametrize("options", [{"width": float("nan")}, {"height": 10 ** 400}, {"bleed": -1},
                                     {"cpu_seconds": float("inf")}, {"width": "63"}])
def test_card_options_refuse_what_no_card_is(options):
    with pytest.raises(ValueError, match="must be"):
        CardOptions(**options)
