"""A ruleset's card templates are untrusted text: they run in Jinja2's
sandbox, reach neither Python's internals nor the file system, and fail with
an error located at their line in the ruleset. Text from the ruleset is
escaped in the SVG and HTML it prints."""
import base64
import re
import time
from html.parser import HTMLParser
from xml.dom import minidom

import pytest
from helpers import rulelang
from test_language import DUEL

from generators.cards import CardRenderer, CardSize
from generators.publish import CardOptions, card_images, card_sheets
from rulelang import RulesetError, load_text

ATTACKS = {
    # name: (the template's offending line, a piece of the error)
    "a string's class": ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "access to attribute '__class__'"),
    "cycler's globals": ("{{ cycler.__init__.__globals__.os.popen('id').read() }}", "access to attribute '__init__'"),
    "joiner's globals": ("{{ joiner.__init__.__globals__ }}", "access to attribute '__init__'"),
    "lipsum's globals": ("{{ lipsum.__globals__['os'] }}", "access to attribute '__globals__'"),
    "a helper's globals": ("{{ text.__globals__ }}", "access to attribute '__globals__'"),
    "a helper's code": ("{{ mm.__code__ }}", "access to attribute '__code__'"),
    "the card's class": ("{{ card|attr('__class__') }}", "access to attribute '__class__'"),
    "format reaching attributes": ("{{ '{0.__class__}'.format(card) }}", "access to attribute '__class__'"),
    "the template's context": ("{{ self._TemplateReference__context }}", "is unsafe"),
    "Flask's config": ("{{ config.items() }}", "'config' is undefined"),
    "a file by path": ("{% include '/etc/passwd' %}", "names an unknown template '/etc/passwd'"),
    "a file up the tree": ("{% include '../../../../etc/passwd' %}", "names an unknown template '../../../"),
    "a module": ("{% import 'os' as os %}", "names an unknown template 'os'"),
    "extending a file": ("{% extends '/etc/hostname' %}", "names an unknown template '/etc/hostname'"),
}


def with_template(*lines: str) -> str:
    body = "".join(f"      {line}\n" for line in lines)
    return DUEL.replace("  number:\n", "  number:\n    template: |\n" + body)


@pytest.mark.parametrize("name", list(ATTACKS))
def test_a_template_reaching_out_fails_with_a_located_error(name):
    line, words = ATTACKS[name]
    lines = [line] if "extends" in line else ['{% extends "card.svg.j2" %}', "{% block art %}", line,
                                              "{% endblock %}"]
    text = with_template(*lines)
    with pytest.raises(RulesetError) as info:
        rs = load_text(text, "duel.yaml")
        CardRenderer(rs, CardSize(63.5, 88.9)).front(rs.cards[0])
    (d,) = info.value.diagnostics
    assert words in d.message, d.message
    assert d.span.file == "duel.yaml"
    assert d.span.line == text.splitlines().index("      " + line) + 1  # the offending line itself
    assert "Traceback" not in info.value.format()


def test_the_command_line_reports_it_with_exit_code_2(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(with_template('{% extends "card.svg.j2" %}', "{% block art %}",
                                  "{{ cycler.__init__.__globals__.os.system('touch pwned') }}", "{% endblock %}"))
    r = rulelang("cards", str(path), "-o", str(tmp_path / "cards.html"), cwd=tmp_path)
    assert r.returncode == 2 and f"{path}:" in r.stderr and "is unsafe" in r.stderr, r.stderr
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "cards.html").exists()


HOSTILE_TEXT = '<script>alert("x")</script> & <b>bold</b> ]]> "quoted"'
WITH_TEXT = DUEL.replace("    label: \"{rank}\"\n", "    label: \"{rank}\"\n    text: '" + HOSTILE_TEXT.replace("'", "''")
                         + "'\n").replace("title: Duel", "title: 'Duel <img src=x onerror=alert(1)>'")


def test_card_text_is_escaped_in_svg():
    rs = load_text(WITH_TEXT, "duel.yaml")
    files, _ = card_images(rs, CardOptions(backs=True), "svg")
    for name, svg in files:
        text = svg.decode("utf-8")
        minidom.parseString(text)  # well-formed: nothing the ruleset wrote became markup
        assert "<script" not in text and "<b>" not in text and "<img" not in text, name
    front = files[0][1].decode("utf-8")
    assert "&lt;script&gt;" in front and "&amp;" in front


def test_card_text_is_escaped_in_html_sheets():
    rs = load_text(WITH_TEXT, "duel.yaml")
    page, _ = card_sheets(rs, CardOptions(crop_marks=True), "html")
    html = page.decode("utf-8")
    tags = set()

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.add(tag)
            assert not any(name.startswith("on") for name, _ in attrs), attrs
    Tags().feed(html)
    assert tags <= {"html", "head", "meta", "title", "style", "body", "section", "svg", "g", "line", "img"}, tags
    assert "<title>Duel &lt;img src=x onerror=alert(1)&gt; — cards</title>" in html
    cards = [base64.b64decode(src).decode("utf-8") for src in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)]
    assert cards and all("&lt;script&gt;" in svg and "<script" not in svg for svg in cards)


ACTIVE = [  # what a template may write that would run, or reach outside the card, once the SVG is opened
    '<script>alert(1)</script>', '<SCRIPT>alert(1)</SCRIPT>', '<rect width="1" height="1" onload="alert(1)"/>',
    '<a href="javascript:alert(1)"><rect width="1" height="1" OnClick="alert(2)"/></a>',
    '<a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href=" JavaScript:alert(1)"><text>x</text></a>',
    '<image href="file:///etc/passwd" width="1" height="1"/>', '<image href="https://example.com/t.png"/>',
    '<use href="/etc/hostname#x"/>', '<set attributeName="href" to="javascript:alert(1)"/>',
    '<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></body></foreignObject>',
    '<style>@import url(https://example.com/x.css);</style>', '<?xml-stylesheet href="https://example.com/x.css"?>',
    '<rect width="1" height="1" style="fill: url( \'https://example.com/x\')"/>',
]


def test_what_would_run_or_reach_out_is_stripped_from_every_svg():
    rs = load_text(with_template('{% extends "card.svg.j2" %}', "{% block art %}", *ACTIVE,
                                 '<rect id="kept" width="1" height="1" fill="url(#grad)"/>', "{% endblock %}"),
                   "duel.yaml")
    files, _ = card_images(rs, CardOptions(backs=True), "svg")
    for name, data in files:
        text = data.decode("utf-8")
        minidom.parseString(text)
        lower = text.lower()
        for words in ("script", "onload", "onclick", "javascript:", "file:", "https:", "/etc/", "foreignobject",
                      "<set", "@import", "xml-stylesheet"):
            assert words not in lower, (name, words)
    assert 'id="kept"' in files[0][1].decode("utf-8") and 'fill="url(#grad)"' in files[0][1].decode("utf-8")
    plain = card_images(load_text(DUEL, "duel.yaml"), CardOptions(), "svg")[0][0][1].decode("utf-8")
    assert plain.startswith("<svg") and "ns0:" not in plain  # a clean card is left as its template wrote it


@pytest.mark.parametrize("lines, message", [
    (["{% block art %}<g><rect/>{% endblock %}"], "writes SVG that cannot be shown: it is not well-formed XML"),
    (['{% block art %}{{ "\\x01" }}{% endblock %}'], "it is not well-formed XML"),
    (['{% block art %}{{ "%c" | format(0) }}{% endblock %}'], "it is not well-formed XML"),
    (["{% block art %}</svg><svg>{% endblock %}"], "it is not well-formed XML"),
    (['{% block art %}<!DOCTYPE x [<!ENTITY a "b">]>{% endblock %}'], "declares a DOCTYPE or entities"),
    (["{% macro m() %}{{ m() }}{% endmacro %}", "{% block art %}{{ m() }}{% endblock %}"],
     "the card template calls itself without end"),
    (['{% block art %}{{ text("word " * 2000, 1, 1, 10, 10, 3) }}{% endblock %}'],
     "a text of 10,000 characters, more than a card can show (5,000)"),
])
def test_a_template_that_writes_what_cannot_be_shown_is_a_located_error(lines, message):
    text = with_template('{% extends "card.svg.j2" %}', *lines)
    with pytest.raises(RulesetError) as info:
        card_images(load_text(text, "duel.yaml"), CardOptions(), "svg")
    (d,) = info.value.diagnostics
    assert message in d.message, d.message
    assert d.span.file == "duel.yaml" and d.span.line >= text.splitlines().index("    template: |")


def test_the_command_line_reports_a_template_that_calls_itself(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(with_template('{% extends "card.svg.j2" %}', "{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}",
                                  "{% block art %}{{ m(0) }}{% endblock %}"))
    r = rulelang("cards", str(path), "-o", str(tmp_path / "out"), "--format", "svg")
    assert r.returncode == 2 and f"{path}:" in r.stderr and "calls itself without end" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr


def test_a_long_card_text_is_refused_in_moments():
    rs = load_text(DUEL.replace('    label: "{rank}"\n', '    label: "{rank}"\n    text: "' + "lorem " * 125_000 + '"\n'),
                   "duel.yaml")
    start = time.process_time()  # CPU seconds: what the input costs, not what the machine is doing
    with pytest.raises(RulesetError, match="a text of 750,000 characters, more than a card can show"):
        card_images(rs, CardOptions(), "svg")
    assert time.process_time() - start < 5
