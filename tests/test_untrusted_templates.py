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


# ------------------------------------------------------------ issue 31: an allow-list, not a deny-list

XHTML = 'xmlns="http://www.w3.org/1999/xhtml"'
BYPASSES = {  # each once reached the SVG written with --format svg
    "style text after a child": '<style><g/>@import url(https://example.com/a.css); rect {fill: red}</style>',
    "@import spelt with an escape": r'<style>@\69mport "https://example.com/b.css";</style>',
    "url( spelt with an escape": r'<style>rect {fill: u\72l(https://example.com/c.svg#x)}</style>',
    "an escaped url( in a style attribute": r'<rect width="1" height="1" style="fill: u\72l(https://example.com/d)"/>',
    "an escaped url( in an attribute": r'<rect width="1" height="1" fill="u\72l(https://example.com/e)"/>',
    "image-set": '<style>rect {fill: image-set("https://example.com/f.png" 1x)}</style>',
    "-webkit-image-set": '<rect style="fill: -webkit-image-set(url(https://example.com/g.png) 1x)"/>',
    "@font-face": '<style>@font-face {font-family: x; src: url(https://example.com/h.woff)}</style>',
    "XHTML img srcset": f'<img {XHTML} srcset="https://example.com/i.png 1x"/>',
    "XHTML video poster": f'<video {XHTML} poster="https://example.com/j.png"/>',
    "XHTML table background": f'<table {XHTML} background="https://example.com/k.png"/>',
    "XHTML meta refresh": f'<meta {XHTML} http-equiv="refresh" content="0;url=https://example.com/l"/>',
    "a prefixed XHTML element": '<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://example.com/m"/>',
    "a prefixed SVG script": '<s:script xmlns:s="http://www.w3.org/2000/svg">fetch("https://example.com/n")</s:script>',
    "a link": '<a href="https://example.com/o"><rect width="1" height="1"/></a>',
    "an image of SVG": '<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"/>',
    "a filter from outside": '<rect width="1" height="1" filter="url(https://example.com/p.svg#f)"/>',
    "feImage": '<filter id="f"><feImage href="https://example.com/q.png"/></filter>',
    "an attribute of another namespace": '<rect xmlns:e="urn:x" e:href="https://example.com/r" width="1" height="1"/>',
}


@pytest.mark.parametrize("name", list(BYPASSES))
def test_only_what_an_allow_list_keeps_reaches_the_svg(name):
    from generators import css
    from generators.svg import ATTRIBUTES, ELEMENTS
    rs = load_text(with_template('{% extends "card.svg.j2" %}', "{% block art %}", BYPASSES[name],
                                 '<rect id="kept" width="1" height="1" fill="url(#grad)"/>', "{% endblock %}"),
                   "duel.yaml")
    files, _ = card_images(rs, CardOptions(), "svg")
    text = files[0][1].decode("utf-8")
    assert "example.com" not in text and "data:image/svg" not in text, text
    assert 'id="kept"' in text and 'fill="url(#grad)"' in text  # what is safe is kept
    root = minidom.parseString(text).documentElement
    for element in root.getElementsByTagName("*"):
        assert element.tagName in ELEMENTS, element.tagName
        assert set(element.attributes.keys()) <= ATTRIBUTES | {"xml:space"}, element.attributes.keys()
    for style in root.getElementsByTagName("style"):  # rebuilt from tokens: no at-rule, no escape
        rules = style.firstChild.data if style.firstChild else ""
        assert "@" not in rules and "\\" not in rules
    assert css.stylesheet("rect {fill: #c00; stroke: u\\72l(#a)}") == "rect {fill:#c00;stroke:url(#a)}"


# ------------------------------------------------------------ issue 31: numbers, sizes, references, errors

def front_of(*lines: str):
    """The first card's front from a template made of `lines` (an `art` block around them)."""
    rs = load_text(with_template('{% extends "card.svg.j2" %}', "{% block art %}", *lines, "{% endblock %}"),
                   "duel.yaml")
    return card_images(rs, CardOptions(cpu_seconds=20), "svg")


USE_FAN_OUT = ['<defs><rect id="u0" width="1" height="1"/>'] + [
    f'<g id="u{k + 1}">' + f'<use href="#u{k}"/>' * 10 + "</g>" for k in range(8)] + ['</defs><use href="#u8"/>']
MISTAKES = [  # (the template's lines, words of the error): each once hung, or was an internal error
    (['{{ text("x", 1, 1, 20, 10, (card.kind[:0] ~ "nan") | float) }}'], "the font size must be a number more than 0"),
    (['{{ text("x", 1, 1, 20, 10, 3, min_size=-1) }}'], "the smallest font size must be a number more than 0"),
    (['{{ text("x", 1, 1, 20, 10, 3, min_size=5) }}'], "at most 3 mm"),
    (['{{ text("x", 1, 1, 20, 10, 10 ** 300) }}'], "not a number of about 301 digits"),
    (['{{ text("x", 1, 1, 20, 10, 3, align="justify") }}'], "align must be 'left', 'center', 'centre', 'right'"),
    (['{{ text("x", 1, 1, 20, 10, 3, valign="centre") }}'], "valign must be 'top', 'middle', 'bottom'"),
    (['{{ icon("sun", 1, 1, "big") }}'], "the icon's size must be a number"),
    (['<circle r="1e308"/>'], '<circle r="1e308"> holds a number that is not finite or is beyond ±100,000'),
    (['<rect width="{{ mm(0/0) }}" height="1"/>'], "divides by zero"),
    (['<rect width="{{ (card.kind[:0] ~ "inf") | float }}" height="1"/>'], "holds a number that is not finite"),
    (['<path d="M0 0L10 10" stroke="#000" stroke-dasharray="0.0001"/>'], "draws dashes too small to see"),
    (["{{ 1/0 }}"], "the card template divides by zero"),
    (['{{ "%d" % "x" }}'], "error in the card template: %d format: a real number is required, not str"),
    (["{{ 10.0 ** 400 }}"], "the card template makes a number too large to use"),
    (['<g id="loop"><use href="#loop"/></g>'], '<g id="loop"> refers to itself'),
    (['<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'], "refers to itself"),
    (USE_FAN_OUT, "draw more than 20,000 elements"),
    (["<g>" * 80 + "</g>" * 80], "nested more than 64 deep"),
]


@pytest.mark.parametrize("lines, words", MISTAKES, ids=[w[:40] for _, w in MISTAKES])
def test_a_template_mistake_is_a_located_error_in_moments(lines, words):
    start = time.process_time()
    with pytest.raises(RulesetError) as info:
        front_of(*lines)
    (d,) = info.value.diagnostics
    assert words in d.message and d.hint, d.message
    assert d.span.file == "duel.yaml" and d.span.line > 0
    assert time.process_time() - start < 2  # CPU seconds, in this process; the child's are bounded apart


def test_a_template_cannot_size_its_own_card():
    text = DUEL.replace("  number:\n", '  number:\n    template: |\n      <svg xmlns="http://www.w3.org/2000/svg" '
                        'width="2600mm" height="2600mm" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>\n')
    with pytest.raises(RulesetError, match='its <svg width="2600mm"> is not the card\'s width, 63.5mm'):
        card_images(load_text(text, "duel.yaml"), CardOptions(), "png")


@pytest.mark.parametrize("lines", [
    ["{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"],  # Python, for ever
    ['<g transform="scale(100)">' * 4 + '<circle r="100000" fill="none" stroke="#000" stroke-width="0.1" stroke-dasharray="1"/>'
     + "</g>" * 4],  # cairo, in C: each number is small, the circle is 10^13 mm round
], ids=["a loop in a loop", "dashes in C"])
def test_rendering_is_stopped_at_its_cpu_bound(lines):
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    rs = load_text(with_template('{% extends "card.svg.j2" %}', "{% block art %}", *lines, "{% endblock %}"),
                   "duel.yaml")
    with pytest.raises(RulesetError) as info:
        card_images(rs, CardOptions(cpu_seconds=1), "png")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    (d,) = info.value.diagnostics
    assert "card 1 (1)" in d.message and "took more than 1 s of CPU time" in d.message, d.message
    assert d.span.file == "duel.yaml" and d.span.line == with_template("x").splitlines().index("    template: |") + 2
    child_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert child_cpu < 3, child_cpu  # the bound, and a second of grace before SIGKILL


def test_a_template_cannot_take_all_memory():
    with pytest.raises(RulesetError, match="needs more memory than a card may use|more than 2,048 MB"):
        front_of("{{ ('x' * 10 ** 6) * 10 ** 4 }}")


def test_a_warning_quotes_little(tmp_path):
    rs = load_text(with_template('{% extends "card.svg.j2" %}', "{% block art %}",
                                 '{{ text("word " * 900, 1, 1, 5, 5, 49.999) }}', "{% endblock %}"), "duel.yaml")
    _, warnings = card_images(rs, CardOptions(), "svg")
    assert warnings and all(len(w) < 200 for w in warnings), warnings


def test_files_in_a_folder_replace_links_and_are_never_written_through(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    (out / "001-1.svg").symlink_to(target)
    r = rulelang("cards", str(path), "-o", str(out), "--format", "svg")
    assert r.returncode == 0, r.stderr
    assert target.read_text() == "keep me" and not (out / "001-1.svg").is_symlink()
    assert (out / "001-1.svg").read_text().startswith("<svg") and not list(out.glob("*.part"))


def test_an_output_ending_in_a_slash_is_a_folder(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    r = rulelang("cards", str(path), "-o", str(tmp_path / "x.pdf") + "/", "--format", "svg")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "x.pdf").is_dir() and (tmp_path / "x.pdf" / "001-1.svg").is_file()
