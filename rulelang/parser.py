"""DSL text -> IR nodes (names still unresolved).

The grammar is `grammar.lark` (LALR with a Python-like indenter). A binder's
`where` clause extends as far to the right as it can, like a Python lambda:
the grammar's shift/reduce conflicts are all of that kind and are resolved by
shifting, on purpose.

A snippet of DSL lives inside a YAML value; `Origin` says where its first
character is in the file so every node's span points into the ruleset file.
The grammar's loading, `Origin` and the syntax errors are in `syntax.py`.
"""
from __future__ import annotations

import dataclasses
import re
from functools import lru_cache

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import DedentError

from . import ir
from .errors import Diagnostic, Span, did_you_mean
from .limits import DEFAULT
from .syntax import Origin, ParseError, check_depth, dedent_error, lark, syntax_error
from .words import KEYWORDS, WORDS, feed

__all__ = ["KEYWORDS", "MAX_DIGITS", "POSITIONS", "Origin", "ParseError", "parse_block", "parse_expression"]

POSITIONS = ("top", "bottom", "left", "right")
MAX_DIGITS = 18  # a number in the rules; Python refuses to read ints of thousands of digits


def parse_block(text: str, origin: Origin, max_depth: int = DEFAULT.nesting, own: frozenset = frozenset()) -> ir.Block:
    """`own`: the words the language took after its first version that the ruleset names
    things with (words.py): where one reads both ways, the ruleset's name wins."""
    return _parse(text, origin, "block", max_depth, own)


def parse_expression(text: str, origin: Origin, max_depth: int = DEFAULT.nesting,
                     own: frozenset = frozenset()) -> ir.Expr:
    """An expression may span lines freely (it is read as if in parentheses),
    except a `case`, whose arms are laid out by indentation."""
    if text.lstrip().startswith("case ") or text.lstrip().startswith("case\t"):
        return _parse(text, origin, "expression", max_depth, own)
    return _parse("(" + text.rstrip("\n") + "\n)", Origin(origin.locate, lead=1), "expression", max_depth, own)


def _parse(text: str, origin: Origin, start: str, max_depth: int, own: frozenset = frozenset()):
    if not text.endswith("\n"):
        text += "\n"
    own = own & WORDS  # (only these change how a text reads: the cache keys on them)
    try:
        tree = _tree(text, start, own)
    except UnexpectedInput as exc:
        raise ParseError(syntax_error(exc, text, origin, start)) from None
    except DedentError:
        raise ParseError(dedent_error(text, origin)) from None
    check_depth(tree, origin, max_depth)
    try:
        return _ToIR(origin, own, max_depth).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, ParseError):
            raise exc.orig_exc from None
        raise


@lru_cache(maxsize=4096)
def _tree(text: str, start: str, own: frozenset = frozenset()) -> Tree:
    """The parse tree of a snippet, remembered by its text: an editor checks the
    whole file again on every keystroke, and all but one snippet are as before.
    The tree is only read (each transform builds new IR, with this origin's spans).
    Its words are read by their place (words.py)."""
    parser = lark().parse_interactive(start=start)
    return feed(parser, iter(lark().lex(text)), own)


# ------------------------------------------------------------- tree -> IR


def _tok(x) -> str:
    return str(x)


def _binary(op: str):
    """The transformer's method for a binary operator's rule."""
    def method(self: _ToIR, meta, children) -> ir.Binary:
        return ir.Binary(op, children[0], children[1], span=self._span(meta))
    return method


def _flat(children) -> tuple:
    """A block's statements: a text's statements (a list) taken into it."""
    return tuple(s for c in children for s in (c if isinstance(c, list) else (c,)))


def _unquote(token: str) -> str:
    """A quoted text's words: `\\"` is a quote, `\\\\` a backslash."""
    return re.sub(r"\\(.)", lambda m: " " if m.group(1) in "nt" else m.group(1), token[1:-1])


@v_args(meta=True)
class _ToIR(Transformer):
    def __init__(self, origin: Origin, own: frozenset = frozenset(), max_depth: int = DEFAULT.nesting):
        super().__init__()
        self.origin, self.own, self.max_depth = origin, own, max_depth

    def _span(self, meta) -> Span | None:
        if getattr(meta, "empty", True):
            return None
        return self.origin.span(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, token: Token) -> Span:
        return self.origin.span(token.line or 1, token.column or 1, token.end_line, token.end_column)

    def _word(self, token: Token, allowed, what: str) -> str:
        word = _tok(token)
        if word not in allowed:
            raise ParseError(Diagnostic(
                self._tspan(token), f"unknown {what} '{word}'",
                did_you_mean(word, allowed) or "one of: " + ", ".join(allowed)))
        return word

    # ---- entry points
    def block(self, meta, children):
        return _flat(children)

    def expression(self, meta, children):
        return children[0]

    def suite(self, meta, children):
        return _flat(children)

    def text_stmt(self, meta, children):
        """The statements under a text, the first carrying it: a list, flattened into the block."""
        words, *pinned, body = children
        checked = None
        if pinned:
            keyword, value = pinned
            if _tok(keyword) != "checked":
                raise ParseError(Diagnostic(self._tspan(keyword), f"unexpected {_tok(keyword)!r} after the text",
                                            'a text is written `"words":` or `"words" checked FINGERPRINT:`'))
            checked = _tok(value)
        text = _unquote(_tok(words))
        if not text.strip():
            raise ParseError(Diagnostic(self._tspan(words), "this text is empty",
                                        "write the words players read for the statements under it"))
        prose = ir.Prose(text, len(body), ir.Pin(checked, self._tspan(words)))
        return [dataclasses.replace(body[0], prose=prose), *body[1:]]

    # ---- statements
    def move(self, meta, children):
        cards, dest, *pos = children
        position = pos[0] if pos else "top"
        if isinstance(cards, ir.Binder):
            return ir.Move((), cards, dest, position, span=self._span(meta))
        return ir.Move(tuple(cards), None, dest, position, span=self._span(meta))

    def card_list(self, meta, children):
        return list(children)

    def all_cards(self, meta, children):
        return children[0]

    def draw(self, meta, children):
        count, source, dest, *pos = children
        return ir.Draw(count, source, dest, pos[0] if pos else "top", span=self._span(meta))

    def position(self, meta, children):
        return self._word(children[0], POSITIONS, "position")

    def shuffle(self, meta, children):
        return ir.Shuffle(children[0], span=self._span(meta))

    def roll(self, meta, children):
        *count, die, target = children
        return ir.Roll(_tok(die), count[0] if count else None, target, span=self._span(meta))

    def flip(self, meta, children):
        face = self._word(children[1], ("up", "down"), "face") if len(children) > 1 else None
        return ir.Flip(children[0], face, span=self._span(meta))

    def swap(self, meta, children):
        return ir.Swap(children[0], children[1], span=self._span(meta))

    def let(self, meta, children):
        return ir.Let(_tok(children[0]), children[1], span=self._span(meta))

    def assign(self, meta, children):
        target, op, value = children
        return ir.Assign(target, _tok(op), value, span=self._span(meta))

    def set(self, meta, children):
        target, value = children
        return ir.Assign(target, "=", value, span=self._span(meta))

    def target_owned(self, meta, children):
        return ir.Owned(children[0], children[1], span=self._span(meta))

    def target_field(self, meta, children):
        return ir.Field(children[0], _tok(children[1]), span=self._span(meta))

    def win(self, meta, children):
        return self._end("win", meta, children)

    def lose(self, meta, children):
        return self._end("lose", meta, children)

    def end_game(self, meta, children):
        drawn = children[:1] == [True]  # `in a draw`
        reason = children[-1] if children and children[-1] is not True else None
        return ir.EndGame("draw" if drawn else "end", None, _tok(reason) if reason else None, span=self._span(meta))

    def end_draw(self, meta, children):
        if _tok(children[0]) != "a":
            raise ParseError(Diagnostic(self._tspan(children[0]), f"unexpected {_tok(children[0])!r}",
                                        "a game that ends level is written `end game in a draw`"))
        return True

    def trigger(self, meta, children):
        return ir.Trigger(_tok(children[0]), tuple(children[1]) if len(children) > 1 else (), span=self._span(meta))

    def window(self, meta, children):
        return ir.Trigger(_tok(children[0]), tuple(children[1]) if len(children) > 1 else (), window=True,
                          span=self._span(meta))

    def eliminate(self, meta, children):
        reason = _tok(children[1]) if len(children) > 1 else None
        return ir.Eliminate(children[0], reason, span=self._span(meta))

    def _end(self, kind, meta, children):
        reason = _tok(children[1]) if len(children) > 1 else None
        return ir.EndGame(kind, children[0], reason, span=self._span(meta))

    def call_stmt(self, meta, children):
        args = children[1] if len(children) > 1 else ()
        return ir.CallProc(_tok(children[0]), tuple(args), span=self._span(meta))

    def pass_stmt(self, meta, children):
        return ir.Pass(span=self._span(meta))

    def if_stmt(self, meta, children):
        cond, body, *rest = children
        branches = [(cond, body)]
        otherwise = None
        for clause in rest:
            if clause[0] == "elif":
                branches.append((clause[1], clause[2]))
            else:
                otherwise = clause[1]
        return ir.If(tuple(branches), otherwise, span=self._span(meta))

    def elif_clause(self, meta, children):
        return ("elif", children[0], children[1])

    def else_clause(self, meta, children):
        return ("else", children[0])

    def while_stmt(self, meta, children):
        return ir.While(children[0], children[1], False, span=self._span(meta))

    def until_stmt(self, meta, children):
        return ir.While(children[0], children[1], True, span=self._span(meta))

    def repeat_stmt(self, meta, children):
        return ir.Repeat(children[0], children[1], span=self._span(meta))

    def for_stmt(self, meta, children):
        return ir.For(children[0], children[1], span=self._span(meta))

    def choose_stmt(self, meta, children):
        role_tok, binder, *rest = children
        labelled = rest.pop(-2) if len(rest) > 1 and isinstance(rest[-2], ir.Template) else None
        label = _tok(rest[0]) if len(rest) == 2 else "_".join(binder.names)
        role = ir.Name(_tok(role_tok), span=self._tspan(role_tok))
        return ir.Choose(role, binder, label, rest[-1], labelled, span=self._span(meta))

    def labelled(self, meta, children):
        return self._template(children[0])

    def reveal(self, meta, children):
        return ir.Reveal(children[0], children[1] if len(children) > 1 else None, span=self._span(meta))

    def announce(self, meta, children):
        return ir.Announce(self._template(children[0]), children[1] if len(children) > 1 else None,
                           span=self._span(meta))

    def _template(self, token: Token) -> ir.Template:
        """A text with `{expressions}` in it: each read as an expression where it stands
        (`{{` and `}}` are braces)."""
        raw, parts, at = _tok(token)[1:-1], [], 0
        text = ""
        while at < len(raw):
            if raw.startswith("{{", at) or raw.startswith("}}", at):
                text += raw[at]
                at += 2
            elif raw[at] == "{":
                end = raw.find("}", at)
                if end < 0 or not raw[at + 1:end].strip():
                    span = self.origin.span(token.line, token.column + 1 + at)
                    raise ParseError(Diagnostic(span, "a `{` in this text opens no value" if end < 0 else
                                                "empty braces in this text", "write a value in braces, "
                                                "`{p}`, or `{{` for a brace itself"))
                if text:
                    parts.append(self._text(text, token))
                    text = ""
                parts.append(self._placeholder(raw[at + 1:end], token, at + 1))
                at = end + 1
            elif raw[at] == "}":
                raise ParseError(Diagnostic(self.origin.span(token.line, token.column + 1 + at),
                                            "a `}` in this text closes no value", "write `}}` for a brace itself"))
            else:
                text += raw[at]
                at += 1
        if text:
            parts.append(self._text(text, token))
        return ir.Template(tuple(parts), span=self._tspan(token))

    def _text(self, raw: str, token: Token) -> str:
        if "\\" not in raw:
            return raw
        try:  # \n, \t, \", \\ ...
            return raw.encode("utf-8").decode("unicode_escape")
        except UnicodeDecodeError as exc:
            raise ParseError(Diagnostic(self._tspan(token), f"bad escape in text: {exc.reason}",
                                        "write a backslash as \\\\")) from None

    def _placeholder(self, text: str, token: Token, offset: int) -> ir.Expr:
        """The expression in braces at `offset` characters into the text's quotes."""
        line, column, origin = token.line, token.column + 1 + offset, self.origin
        here = Origin(lambda ln, col, end_ln, end_col: origin.span(line, column + col - 1, line, column + end_col - 1))
        return parse_expression(text, here, self.max_depth, self.own)

    def take_stmt(self, meta, children):
        word, which, binder, body = children
        if _tok(word) != "take":
            raise ParseError(Diagnostic(self._tspan(word), f"unexpected {_tok(word)!r} before '{which}'",
                                        f"an automatic choice is written `take {which} x in ZONE where ...:`"))
        return ir.Take(which, binder, body, span=self._span(meta))

    def take_which(self, meta, children):
        return _tok(children[0])

    def menu_stmt(self, meta, children):
        role_tok, label, *options = children
        role = ir.Name(_tok(role_tok), span=self._tspan(role_tok))
        return ir.Menu(role, _tok(label), tuple(options), span=self._span(meta))

    def menu_option(self, meta, children):
        name, *rest = children
        guard = rest[0] if len(rest) == 2 else None
        return ir.MenuOption(_tok(name), guard, rest[-1], span=self._tspan(name))

    # ---- binders
    def binder(self, meta, children):
        groups = tuple(c for c in children if isinstance(c, ir.BinderGroup))
        order = tuple(c for c in children if isinstance(c, ir.OrderKey))
        rest = [c for c in children if not isinstance(c, (ir.BinderGroup, ir.OrderKey))]
        return ir.Binder(groups, rest[0] if rest else None, order, span=self._span(meta))

    def order_key(self, meta, children):
        return ir.OrderKey(children[0], len(children) > 1, span=self._span(meta))

    def binder_group(self, meta, children):
        *names, domain = children
        return ir.BinderGroup(tuple(_tok(n) for n in names), domain, span=self._span(meta))

    # ---- expressions
    def if_expr(self, meta, children):
        then, cond, otherwise = children
        return ir.IfExpr(cond, then, otherwise, span=self._span(meta))

    def or_(self, meta, children):
        return ir.Binary("or", children[0], children[1], span=self._span(meta))

    def and_(self, meta, children):
        return ir.Binary("and", children[0], children[1], span=self._span(meta))

    def not_(self, meta, children):
        return ir.Unary("not", children[0], span=self._span(meta))

    def exists(self, meta, children):
        return ir.Quantified("exists", children[0], span=self._span(meta))

    def compare(self, meta, children):
        left, op, right = children
        return ir.Binary(_tok(op), left, right, span=self._span(meta))

    def in_(self, meta, children):
        return ir.Binary("in", children[0], children[1], span=self._span(meta))

    def not_in(self, meta, children):
        return ir.Binary("not in", children[0], children[1], span=self._span(meta))

    def is_type(self, meta, children):
        return ir.IsType(children[0], _tok(children[1]), False, span=self._span(meta))

    def is_not_type(self, meta, children):
        return ir.IsType(children[0], _tok(children[1]), True, span=self._span(meta))

    def range(self, meta, children):
        return ir.RangeExpr(children[0], children[1], span=self._span(meta))

    add, sub, mul, div, mod = _binary("+"), _binary("-"), _binary("*"), _binary("/"), _binary("%")

    def neg(self, meta, children):
        return ir.Unary("-", children[0], span=self._span(meta))

    def index(self, meta, children):
        return ir.Index(children[0], children[1], span=self._span(meta))

    def field(self, meta, children):
        return ir.Field(children[0], _tok(children[1]), span=self._span(meta))

    def owned(self, meta, children):
        return ir.Owned(children[0], children[1], span=self._span(meta))

    def _number(self, meta, token: Token) -> int:
        if len(token) > MAX_DIGITS:
            raise ParseError(Diagnostic(self._tspan(token), f"a number in the rules has at most {MAX_DIGITS} digits"))
        return int(token)

    def int(self, meta, children):
        return ir.Const(self._number(meta, children[0]), span=self._span(meta))

    def neg_int(self, meta, children):
        return ir.Const(-self._number(meta, children[0]), span=self._span(meta))

    def string(self, meta, children):
        raw = _tok(children[0])[1:-1]
        if "\\" not in raw:
            return ir.Const(raw, span=self._span(meta))
        try:  # \n, \t, \", \\ ...
            text = raw.encode("utf-8").decode("unicode_escape")
        except UnicodeDecodeError as exc:
            raise ParseError(Diagnostic(self._tspan(children[0]), f"bad escape in text: {exc.reason}",
                                        "write a backslash as \\\\")) from None
        return ir.Const(text, span=self._span(meta))

    def true(self, meta, children):
        return ir.Const(True, span=self._span(meta))

    def false(self, meta, children):
        return ir.Const(False, span=self._span(meta))

    def none(self, meta, children):
        return ir.Const(None, span=self._span(meta))

    def name(self, meta, children):
        return ir.Name(_tok(children[0]), span=self._span(meta))

    def call(self, meta, children):
        args = children[1] if len(children) > 1 else ()
        return ir.Call(_tok(children[0]), tuple(args), span=self._span(meta))

    def args(self, meta, children):
        return list(children)

    def list(self, meta, children):
        return ir.ListExpr(tuple(children[0]) if children else (), span=self._span(meta))

    def list_comp(self, meta, children):
        return ir.Quantified("list", children[1], children[0], span=self._span(meta))

    def quant(self, meta, children):
        return _tok(children[0])

    agg = quant

    def quantified(self, meta, children):
        return ir.Quantified(children[0], children[1], span=self._span(meta))

    def quantified_else(self, meta, children):
        """`first(B else E)`, `last(B else E)`: the binding, or E when none matches. Written as
        `first(B) if exists B else E`, what it means, so that every later pass reads it."""
        kind, binder, default = children
        if kind == "count":
            raise ParseError(Diagnostic(self._span(meta), "count() always has a value: it takes no `else`",
                                        "`first(B else V)` and `last(B else V)` give V when nothing matches"))
        span = self._span(meta)
        unordered = ir.Binder(binder.groups, binder.where, (), span=binder.span)
        return ir.IfExpr(ir.Quantified("exists", unordered, span=span), ir.Quantified(kind, binder, span=span),
                         default, span=span)

    def aggregate(self, meta, children):
        kind, value, binder = children
        return ir.Quantified(kind, binder, value, span=self._span(meta))

    def agg_call(self, meta, children):
        return ir.Call(children[0], tuple(children[1]), span=self._span(meta))

    def case_expr(self, meta, children):
        return ir.Case(children[0], tuple(children[1:]), span=self._span(meta))

    def case_arm(self, meta, children):
        *patterns, value = children
        return ir.CaseArm(tuple(patterns), value, span=self._span(meta))

    def case_else(self, meta, children):
        return ir.CaseArm((), children[0], span=self._span(meta))
