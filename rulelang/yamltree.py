"""YAML loaded safely, with the position of every node kept.

`yaml.safe_load` throws positions away; the front end needs them for every
error message. We compose the node graph with PyYAML's SafeLoader (so only
plain data types are ever constructed) and convert it into `YMap`, `YList`
and `YScalar` objects that carry a `Span`.

Aliases are expanded, but the total number of nodes produced is bounded so an
alias bomb ("billion laughs") is rejected quickly instead of eating memory;
so are the size of the text and how deep it nests (PyYAML composes nodes
recursively: a thousand nested lists would end in a RecursionError). All
three limits are `Limits` fields, checked while the text is read, so a
hostile file stops at the first node past a limit.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property

import yaml

from .errors import LINE_BREAK, Crosses, Diagnostic, RulesetError, Source, Span
from .limits import DEFAULT, Limits, check_size, over


@dataclass
class YNode:
    span: Span


@dataclass
class YScalar(YNode):
    value: object
    style: str | None = None  # None (plain), "'", '"', "|", ">"
    # where the text of a string value starts, for mapping DSL positions
    text_line: int = 0
    text_col: int = 0
    # for text assembled from several files (a card table changed by a
    # variant): where each line of `value` really comes from
    line_spans: tuple[Span, ...] | None = None
    # for text that is not its lines as written (plain or quoted over several
    # lines, `>`, escapes, a `|` block with a blank first line): the text as
    # written, to place its characters
    written: Written | None = None

    @cached_property
    def rows(self) -> list[str]:
        """The lines of a text value, as a parser counts them (trailing blank lines dropped)."""
        return str(self.value).rstrip("\n").split("\n")

    def span_at(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        """Where a range of the value's text (lines and columns from 1) is in
        the file; a range past the text is kept at its end."""
        source, first_line, first_col = self._place(line, col)
        _, last_line, last_col = self._place(line if end_line is None else end_line, col if end_col is None else end_col)
        return Span(source, first_line, first_col, last_line, last_col)

    def _place(self, line: int, col: int) -> tuple[Source, int, int]:
        line = min(max(line, 1), len(self.rows))
        col = min(max(col, 1), len(self.rows[line - 1]) + 1)
        if self.written is not None:
            return (self.span.source, *self.written.places[line - 1][col - 1])
        if self.line_spans is not None:  # the line as written may be shorter than as assembled
            span = self.line_spans[line - 1]
            last = span.end_col if span.end_line == span.line and span.end_col else span.col + col - 1
            return span.source, span.line, min(span.col + col - 1, last)
        return self.span.source, self.text_line + line - 1, self.text_col + col - 1


@dataclass(eq=False)
class Written:
    """A scalar's text as written in the file, where YAML folded, unescaped or
    shifted it into `value`; its characters are placed when first asked (most
    such text is prose, never parsed)."""
    raw: str
    begin: int  # where it starts in the file
    positions: _Positions = field(repr=False)
    style: str | None
    value: str = field(repr=False)

    @cached_property
    def places(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The file's (line, column) of each character of each line of `value`, and of the line's end."""
        offsets = iter(_align(self.raw, self.value, self.style))
        rows = []
        for text in self.value.rstrip("\n").split("\n"):
            rows.append(tuple(self.positions.at_offset(self.begin + next(offsets)) for _ in range(len(text) + 1)))
        return tuple(rows)


@dataclass
class YList(YNode):
    items: list[YNode] = field(default_factory=list)


@dataclass
class YMap(YNode):
    # key -> (span of the key, value node); insertion order kept
    entries: dict[str, tuple[Span, YNode]] = field(default_factory=dict)

    def get(self, key: str) -> YNode | None:
        entry = self.entries.get(key)
        return entry[1] if entry else None

    def key_span(self, key: str) -> Span:
        return self.entries[key][0]

    def at(self, key: str) -> YNode:
        """The value of a key that is there."""
        return self.entries[key][1]

    def value_span(self, key: str) -> Span:
        """Where the value of a key that is there is written."""
        return self.entries[key][1].span

    def __contains__(self, key: str) -> bool:
        return key in self.entries


def plain(node: YNode | None):
    """The node as plain Python data (positions dropped)."""
    if node is None:
        return None
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YList):
        return [plain(i) for i in node.items]
    assert isinstance(node, YMap)
    return {k: plain(v) for k, (_, v) in node.entries.items()}


class _Dumper(yaml.SafeDumper):
    """Writes rules text as `|` blocks, so it reads as it was written."""


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def dump(data) -> str:
    """Plain data as YAML text, keys in their order."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=None)


class _Positions:
    """Lines and columns (from 1) of PyYAML's marks, kept inside the text:
    libyaml puts the end of a file without a final line break on a line after it."""

    def __init__(self, source: Source):
        self.source = source
        self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(source.text)]  # where each line starts

    def offset(self, mark) -> int:
        if mark.line >= len(self.starts):
            return len(self.source.text)
        return min(self.starts[mark.line] + mark.column, len(self.source.text))

    def at_offset(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def at(self, mark) -> tuple[int, int]:
        return self.at_offset(self.offset(mark)) if mark is not None else (1, 1)

    def span(self, node: yaml.Node) -> Span:
        return Span(self.source, *self.at(node.start_mark), *self.at(node.end_mark))

    def point(self, mark) -> Span:
        return Span(self.source, *self.at(mark))


class _TooMuch(Crosses, Exception):
    """A limit reached while composing; becomes a located RulesetError."""

    def __init__(self, mark, message: str, hint: str):
        super().__init__(message)
        self.mark, self.message, self.hint = mark, message, hint


def _too_deep(limits: Limits) -> tuple[str, str]:
    return (f"YAML nested more than {limits.yaml_depth} levels deep",
            over("a ruleset's structure is a few levels deep", limits.yaml_depth, "yaml_depth"))


def _too_many(limits: Limits) -> tuple[str, str]:
    return (f"the ruleset has more than {limits.yaml_nodes:,} YAML values (aliases counted as written out)",
            over("nested aliases (*name) that multiply are the usual cause; write the data out",
                 limits.yaml_nodes, "yaml_nodes"))


class _Bounded:
    """A composer that stops at the first node past the depth or count limit,
    before recursing deeper or reading further."""

    def bound(self, limits: Limits) -> None:
        self.limits, self.depth, self.count = limits, 0, 0

    def compose_node(self, parent, index):
        self.depth += 1
        self.count += 1
        try:
            if self.depth > self.limits.yaml_depth:
                raise _TooMuch(self.peek_event().start_mark, *_too_deep(self.limits))
            if self.count > self.limits.yaml_nodes:
                raise _TooMuch(self.peek_event().start_mark, *_too_many(self.limits))
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_BOOL = "tag:yaml.org,2002:bool"


class _Resolver(yaml.resolver.Resolver):
    """YAML 1.2's booleans, `true` and `false`: to YAML 1.1 `on`, `off`,
    `yes` and `no` are booleans too, and a zone or a role named `on` would
    silently become True."""

    yaml_implicit_resolvers = {first: [(tag, rx) for tag, rx in resolvers if tag != _BOOL]
                               for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}


_Resolver.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


class _PyLoader(_Bounded, _Resolver, yaml.SafeLoader):
    pass


_Loader: type[_PyLoader]
if getattr(yaml, "__with_libyaml__", False):
    from yaml._yaml import CParser
    from yaml.composer import Composer
    from yaml.constructor import SafeConstructor

    class _CLoader(_Bounded, Composer, CParser, SafeConstructor, _Resolver):
        """libyaml's parser (eight times faster: a large file is refused in a
        fraction of a second) under PyYAML's composer, which we bound; libyaml's
        own composer recurses in C, where a deep file crashes the process."""

        def __init__(self, text: str):
            CParser.__init__(self, text)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            _Resolver.__init__(self)

    _Loader = _CLoader
else:  # pragma: no cover - PyYAML without libyaml
    _Loader = _PyLoader


# control characters but tab and line break: they would reach terminals and SVG (which cannot hold them)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_DROPPED = " \t\r\n\x85\u2028\u2029'\""  # what folding and quoting leave out of a value
# an escape in double quotes; group 2: an escaped line break, which adds nothing to the value
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|(\r\n|[\r\n\x85\u2028\u2029])[ \t]*|.|$)", re.S)


def _align(raw: str, value: str, style: str | None) -> list[int]:
    """For each character of `value`, and for its end, an offset in `raw`, the
    scalar as written: the same characters in the same order, but among line
    breaks and indentation that folding made into a space, quotes and escapes."""
    n = len(raw)
    if style in ("|", ">"):  # the text starts after the header line
        header = LINE_BREAK.search(raw)
        j = header.end() if header else n
    else:
        j = 1 if style in ("'", '"') else 0
    out = []
    for c in value:
        while True:
            k = j  # skip what the value leaves out, up to this character
            while k < n and raw[k] != c and raw[k] in _DROPPED and not (c in " \n" and LINE_BREAK.match(raw, k)):
                k += 1
            if style == '"' and k < n and raw[k] == "\\":
                escape = _ESCAPE.match(raw, k)
                assert escape is not None  # (a backslash, then anything or the end)
                j = escape.end()
                if escape.group(2):
                    continue
            else:  # this character, a line break folded into it, or (not found) where the search stopped
                brk = LINE_BREAK.match(raw, k) if k < n else None
                j = min(n, k + (len(brk.group()) if brk else 1))
            break
        out.append(min(k, n))
    out.append(j)
    return out


class _Converter:
    def __init__(self, positions: _Positions, limits: Limits):
        self.source, self.positions, self.limits = positions.source, positions, limits
        self.lines = self.source.lines()
        self.count = 0
        self.constructor = yaml.SafeLoader("")  # only used to construct scalars
        self.problems: list[Diagnostic] = []

    def convert(self, node: yaml.Node, depth: int = 1) -> YNode:
        self.count += 1
        if self.count > self.limits.yaml_nodes:  # aliases multiply nodes only here
            raise RulesetError([Diagnostic(self.positions.span(node), *_too_many(self.limits))])
        if depth > self.limits.yaml_depth:  # an alias can nest one structure in another
            raise RulesetError([Diagnostic(self.positions.span(node), *_too_deep(self.limits))])
        span = self.positions.span(node)
        if isinstance(node, yaml.MappingNode):
            result = YMap(span)
            for key_node, value_node in node.value:
                key = self.convert(key_node, depth + 1)
                if not isinstance(key, YScalar) or isinstance(key.value, (list, dict)):
                    self.problems.append(Diagnostic(key.span, "a mapping key must be a plain name"))
                    continue
                name = key_node.value  # a name as written: `1.0` stays 1.0, `null` stays null
                if name in result.entries:
                    first = result.entries[name][0]
                    self.problems.append(Diagnostic(
                        key.span, f"duplicate key '{name}'",
                        f"'{name}' is already given at line {first.line}; keep one of them"))
                    continue
                result.entries[name] = (key.span, self.convert(value_node, depth + 1))
            return result
        if isinstance(node, yaml.SequenceNode):
            return YList(span, [self.convert(n, depth + 1) for n in node.value])
        try:
            value = self.constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError:
            raise
        except Exception as exc:  # PyYAML's constructors raise what they meet: 2001-13-45, an int of
            # 5,000 digits (ValueError), `!!bool x` (KeyError), `!!int` (IndexError), `!!timestamp x` ...
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            text = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            self.problems.append(Diagnostic(span, f"invalid YAML value: '{text}' is no {tag}"
                                            + (f" ({exc})" if isinstance(exc, (ValueError, OverflowError)) else ""),
                                            "quote it to keep it as text"))
            value = node.value
        if not isinstance(value, (str, int, float, type(None))):  # dates, binary: kept as the text written
            value = node.value
        line, col = self._text_start(node)
        scalar = YScalar(span, value, node.style or None, line, col, written=self._written(node, value))
        if isinstance(value, str) and (control := _CONTROL.search(value)):
            before = value[:control.start()].split("\n")
            self.problems.append(Diagnostic(scalar.span_at(len(before), len(before[-1]) + 1),
                                            f"a control character (U+{ord(control.group()):04X}) in text",
                                            "ruleset text is printable: tabs and line breaks, but no "
                                            "escapes such as \\x1b or \\0"))
        return scalar

    def _written(self, node: yaml.ScalarNode, value) -> Written | None:
        """The text of a scalar YAML folds or unescapes; None where the value
        is the text as written (a plain line, a `|` block)."""
        start, end = node.start_mark, node.end_mark
        if not isinstance(value, str):
            return None
        begin = self.positions.offset(start)
        raw = self.source.text[begin:self.positions.offset(end)]
        if node.style == "|":  # the lines as written, from the first one's indentation, unless
            header = LINE_BREAK.split(raw, 1)[0]
            if not (value.startswith("\n") or any(c.isdigit() for c in header)  # a blank first line, `|2`
                    or LINE_BREAK.search(value.replace("\n", ""))):  # a line break Python does not count
                return None
        elif start.line == end.line and (raw[1:-1] if node.style in ("'", '"') else raw) == value:
            return None
        return Written(raw, begin, self.positions, node.style, value)

    def _text_start(self, node: yaml.ScalarNode) -> tuple[int, int]:
        """Line and column (1-based) of the first character of the scalar's text."""
        line, col = self.positions.at(node.start_mark)
        if node.style in ("|", ">"):
            # content starts on the next non-blank line of the block, at its indentation
            for n in range(line, min(node.end_mark.line + 1, len(self.lines))):
                text = self.lines[n]
                if text.strip():
                    return n + 1, len(text) - len(text.lstrip()) + 1
            return self.positions.at(node.end_mark)
        return line, col + (node.style in ("'", '"'))


def load_yaml(text: str, name: str, limits: Limits = DEFAULT) -> YNode:
    """Parse YAML text into a positioned tree; raise RulesetError on bad YAML."""
    source = Source(name, text)
    check_size(source, limits)
    positions = _Positions(source)
    loader = _Loader(text)
    loader.bound(limits)
    try:
        node = loader.get_single_node()
    except _TooMuch as exc:
        raise RulesetError([Diagnostic(positions.point(exc.mark), exc.message, exc.hint)]) from None
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" in str(exc.problem):  # libyaml's own bound (PyYAML 6.0.4: 1,000), past ours
            raise RulesetError([Diagnostic(positions.point(exc.problem_mark), *_too_deep(limits))]) from None
        message = f"invalid YAML: {exc.problem or exc.context}"
        raise RulesetError([Diagnostic(positions.point(exc.problem_mark or exc.context_mark), message,
                                       _yaml_hint(exc, source))]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Diagnostic(Span(source, 1, 1), f"invalid YAML: {exc}")]) from None
    finally:
        loader.dispose()
    if node is None:
        raise RulesetError([Diagnostic(Span(source, 1, 1), "the ruleset file is empty")])
    converter = _Converter(positions, limits)
    try:
        tree = converter.convert(node)
    except yaml.constructor.ConstructorError as exc:
        raise RulesetError([Diagnostic(positions.point(exc.problem_mark), f"invalid YAML value: {exc.problem}")]) from None
    if converter.problems:
        raise RulesetError(converter.problems)
    return tree


def _yaml_hint(exc: yaml.MarkedYAMLError, source: Source) -> str | None:
    problem = str(exc.problem or "")
    mark = exc.problem_mark
    if "mapping values are not allowed" in problem:
        return "a ':' inside a value needs the value quoted, or written as a block with '|'"
    if mark is not None and source.line(mark.line + 1)[mark.column:mark.column + 1] == "\t":
        return "YAML indentation must use spaces, not tabs"
    if "could not find expected ':'" in problem:
        return "check the indentation of this line and the one before it"
    if mark is not None and _blank_first_line(source, mark.line + 1):
        return ("a `|` block takes its indentation from its first line, and that line starts with "
                "blanks (a map whose top row begins with gaps): write `|2` to say the block's "
                "lines start two spaces in")
    return None


_BLOCK_HEADER = re.compile(r"^(\s*)(?:- )?[^#]*:\s*[|>][-+]?\s*(?:#.*)?$")


def _blank_first_line(source: Source, line: int) -> bool:
    """Whether `line` is inside a `|` block whose first line is indented more
    than the block's other lines: YAML then ends the block early."""
    lines = source.lines()
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = len(here) - len(here.lstrip(" "))
    for n in range(line - 1, 0, -1):
        header = _BLOCK_HEADER.match(lines[n - 1])
        if header is None:
            continue
        first = next((text for text in lines[n:line - 1] if text.strip()), None)
        if first is None:
            return False
        return len(header.group(1)) < indent < len(first) - len(first.lstrip(" "))
    return False
