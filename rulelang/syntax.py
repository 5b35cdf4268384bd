"""The grammar of the rules language, where a snippet of it is in its file,
and its syntax errors as a person can act on them: located at the word that
is wrong, in the words of the language (`end of line`, not `_NL`), with a
hint where one helps (`==` to compare, a block's `:`, indentation); and the
limit on how deep rules may nest, checked before anything recurses over them.
"""
from __future__ import annotations

import hashlib
import io
import pickle
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Callable

from lark import Lark, Token, Tree
from lark import __version__ as lark_version
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.indenter import DedentError, Indenter

from . import disk_cache
from .errors import Crosses, Diagnostic, Span, did_you_mean
from .limits import over
from .words import KEYWORDS



class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


TABLES = "grammar"  # the grammar's parse tables, in the cache folder (disk_cache.py)
TABLES_BYTES = 4 << 20  # (they are 0.13 MB)
TABLES_KEPT = 4  # grammars kept: one a version of rulelang, Lark and Python in use
_OPTIONS = {"parser": "lalr", "start": ["block", "expression"], "propagate_positions": True,
            "maybe_placeholders": False}


@lru_cache(maxsize=1)
def lark() -> Lark:
    """The parser of the rules language. Building its tables from grammar.lark takes 0.2 s, so
    they are kept in the cache folder (`grammar/`) and read back in 0.01 s: as data (Lark's own
    serialisation, which is plain dicts, lists and strings), by an unpickler that builds nothing
    else, under the cache's HMAC, from a file of this user that no one else may write; anything
    else is no entry, and the tables are built again. (Lark's own `cache=True` would unpickle, with
    no such checks, a file of a predictable name in the shared temporary folder.)"""
    grammar = files("rulelang").joinpath("grammar.lark").read_text(encoding="utf-8")
    where = disk_cache.folder(TABLES)
    name = hashlib.sha256(repr((grammar, lark_version, sys.version, sorted(_OPTIONS.items()))).encode()).hexdigest()
    parser = _kept(where, name) if where is not None else None
    if parser is None:
        parser = Lark(grammar, postlex=_Indenter(), **_OPTIONS)
        if where is not None:
            _keep(where, name, parser)
    if not hasattr(parser, "lexer"):
        # loaded from its tables, it has none, and `lex` would build (and compile) a new lexer
        # for every snippet: a third of the time to read a ruleset
        parser.lexer = parser._build_lexer()
    return parser


def _kept(where: Path, name: str) -> Lark | None:
    data = disk_cache.recall(where, name, TABLES_BYTES)
    if data is None:
        return None
    try:
        tables = _Data(io.BytesIO(data)).load()
        # as Lark's own cache loads them: Lark.load, with what a file cannot hold (the indenter)
        return Lark.__new__(Lark)._load(tables, postlex=_Indenter())
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is no entry: the tables are built
        return None


def _keep(where: Path, name: str, parser: Lark) -> None:
    data = io.BytesIO()
    try:
        parser.save(data, ("postlex",))
    except pickle.PicklingError:
        return
    disk_cache.keep(where, name, data.getvalue(), TABLES_BYTES, TABLES_KEPT)


class _Data(pickle.Unpickler):
    """An unpickler of plain data: no class, no function, nothing that runs."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"the grammar's tables are plain data, not {module}.{name}")


@dataclass(frozen=True)
class Origin:
    """Where a snippet's text is in its file: `locate(line, col, end_line,
    end_col)` turns a range of the text (from 1) into a span of the file."""
    locate: Callable[[int, int, int, int], Span]
    lead: int = 0  # characters the parser reads before the text on its first line

    def span(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        end_line = line if end_line is None else end_line
        end_col = col if end_col is None else end_col
        return self.locate(line, col - self.lead * (line == 1), end_line, end_col - self.lead * (end_line == 1))


class ParseError(Crosses, Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


_READABLE = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "text in quotes", "$END": "end of text",
    "COMP_OP": "a comparison", "ASSIGN_OP": "'+=' or '-='",
}


def _readable(terminal: str) -> str:
    if terminal in _READABLE:
        return _READABLE[terminal]
    for t in lark().terminals:
        if t.name == terminal:
            return repr(t.pattern.value) if t.pattern.type == "str" else terminal.lower()
    return terminal.lower()


def _indented(lines: list[str], number: int, origin: Origin, message: str, hint: str) -> Diagnostic:
    """An error about the indentation of line `number` (from 1), at its first word."""
    line = lines[number - 1]
    col, words = len(line) - len(line.lstrip()) + 1, line.split()
    return Diagnostic(origin.span(number, col, number, col + (len(words[0]) if words else 1)), message, hint)


def _indent(line: str) -> int:
    return len(line.expandtabs(_Indenter.tab_len)) - len(line.expandtabs(_Indenter.tab_len).lstrip())


def dedent_error(text: str, origin: Origin) -> Diagnostic:
    """A line that goes back to an indentation no enclosing block has: found
    by lexing again up to the failure (the indenter says only the columns)."""
    line = 1
    try:
        for token in lark().lex(text):
            if token.type == "_NL":
                line = token.end_line or line
    except (DedentError, UnexpectedInput):
        pass
    return _indented(text.split("\n"), line, origin, "this line's indentation matches no block around it",
                     "line it up with the statements of the block it belongs to")


def _block_not_indented(exc: UnexpectedInput, text: str) -> bool:
    """The token that failed starts a line, no further indented than the line
    before, which opens a block (ends with ':')."""
    token, lines = getattr(exc, "token", None), text.split("\n")
    if token is None or token.type in ("_NL", "_INDENT", "_DEDENT", "$END") or not 1 < token.line <= len(lines):
        return False
    before = [ln for ln in lines[:token.line - 1] if ln.strip() and not ln.strip().startswith("#")]
    here = lines[token.line - 1]
    return bool(before) and before[-1].split("#")[0].rstrip().endswith(":") \
        and token.column == len(here) - len(here.lstrip()) + 1 and _indent(here) <= _indent(before[-1])


def syntax_error(exc: UnexpectedInput, text: str, origin: Origin, start: str) -> Diagnostic:
    token = getattr(exc, "token", None)
    if token is not None and token.type == "_INDENT":  # placed at the line break before the indented line
        return _indented(text.split("\n"), token.end_line, origin, "this line is indented further than the line "
                         "before it", "only the lines of a block (after a line that ends with ':') are indented "
                         "further: line it up with the line before")
    if token is not None and _block_not_indented(exc, text):
        return _indented(text.split("\n"), token.line, origin, "this line is not indented, but the line before "
                         "opens a block (it ends with ':')", "indent the lines of the block further than the line "
                         "that opens it, e.g. by two spaces")
    line, col = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedCharacters):
        char = text.split("\n")[exc.line - 1][exc.column - 1] if exc.line > 0 else "?"
        return Diagnostic(origin.span(line, col), f"unexpected character {char!r}",
                          _OTHER_LANGUAGES.get(char, "names use letters, digits and _; text goes in quotes"))
    expected = sorted(getattr(exc, "expected", ()) or getattr(exc, "accepts", ()) or ())
    token = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedEOF) or token is None or token.type == "$END":
        lines = text.rstrip("\n").split("\n")
        line, col = len(lines), len(lines[-1]) + 1
        what = "unexpected end of text"
    elif token.type == "_NL":
        what = "unexpected end of line"
        if token.line is not None:
            line = token.line
            col = len(text.split("\n")[line - 1]) + 1 if line <= len(text.split("\n")) else 1
    elif token.type == "_DEDENT":
        what = "unexpected end of block"
    else:
        what = f"unexpected {token.value!r}"
    hint = _hint(token, expected, start)
    lead = text.split("\n")[token.line - 1][:max(token.column - 1, 0)] \
        if start == "block" and token is not None and token.line and token.line <= len(text.split("\n")) else ""
    if token is not None and lead.strip() == "case":  # `case` chooses a value (a define's whole body), not what to do
        at = len(lead) - len(lead.lstrip()) + 1
        return Diagnostic(origin.span(token.line, at, token.line, at + 4),
                          "`case` is not a statement: it chooses a value (a define's whole body, or a score)",
                          "to choose what to do, write `if x == a: … elif x == b: … else: …`")
    if not hint and expected:
        names = [_readable(e) for e in expected if not e.startswith("__")]
        names = sorted(set(names))
        if names:
            hint = "expected " + (", ".join(names[:8]) + (" ..." if len(names) > 8 else ""))
    shown = token is not None and token.type not in ("_NL", "_INDENT", "_DEDENT", "$END")
    width = len(str(token.value)) if token is not None and shown else 1
    return Diagnostic(origin.span(line, col, line, col + width), what, hint)


# operators of other programming languages, and what the rules write instead
_OTHER_LANGUAGES = {"&": "write `and` (`a and b`)", "|": "write `or` (`a or b`)",
                    "!": "write `not` (`not empty(hand)`); `!=` compares"}


def _hint(token: Token | None, expected: list[str], start: str) -> str | None:
    value = getattr(token, "value", None)
    if value == "=" and "COMP_OP" in expected:
        return "use '==' to compare values; '=' sets a variable"
    if value in ("/", "*"):  # `a // 2`, `a ** 2`
        return "`/` divides and rounds down (`7 / 2` is 3), and there is no `//`" if value == "/" else \
            "there is no power operator: multiply (`n * n`)"
    if token is not None and token.type == "_NL" and "COLON" in expected:
        return "a line that opens a block (if, while, for, chooses ...) ends with ':'"
    if token is not None and token.type == "NAME":
        close = did_you_mean(str(value), KEYWORDS)
        if close:
            return close
    return None


def check_depth(tree: Tree, origin: Origin, limit: int) -> None:
    """Refuse rules nested deeper than `limit` before anything recurses over
    them (the parser itself keeps an explicit stack; the passes after it do not)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            meta = node.meta
            span = origin.span(meta.line, meta.column) if not getattr(meta, "empty", True) else origin.span(1, 1)
            raise ParseError(Diagnostic(span, f"the rules nest more than {limit} levels deep here",
                                        over("split the expression with `let` or a define", limit, "nesting")))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
