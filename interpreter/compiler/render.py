"""Generated code written out: Python text, one (line, note) pair a line.

`lines(stmts)` is the text Python compiles: a statement's note (the rule it
comes from) stands beside its first line. The records of pycode.py are
written as the plain Python they stand for:

    Goto(5)                 return 5
    Branch(t, 5, 6)         return 5 if t else 6
    EnvRef("k3")            env[k3], or env_k3 where that local is a Python local
    Lazy("h2", v)           (h2 if h2 is not UNSET else (h2 := v))
    Reset("h2")             h2 = UNSET, left out where no Lazy asks about h2
    Nested("q7", ...)       def q7(): ..., or def q7(st, env_k3): ... once lifted (then beside the constants)
    CallNested("q7")        q7(), or q7(st, env_k3)

`Written` says which locals are Python locals, which lazy values are asked
about and the parameters of the lifted functions. The writer knows the few
kinds of node the code generator makes, and Python's precedence: a part is
put in brackets only where its operator binds less tightly than its place
requires (as `ast.unparse` does, which is several times slower).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .pycode import Branch, CallNested, EnvRef, Goto, Lazy, Nested, Reset, note_of


@dataclass
class Written:
    localized: frozenset = frozenset()  # constants naming the locals of the rules kept in Python locals
    asked: frozenset = frozenset()  # lazy values some Lazy asks about (the others' resets go)
    lifted: dict = field(default_factory=dict)  # a lifted nested function -> the names it is called with


# ------------------------------------------------------------------ statements

def lines(stmts, w: Written, indent: str = "") -> list[tuple[str, str | None]]:
    """The text of statements; a dropped reset's note (or a lifted function's) goes to the next line."""
    out: list[tuple[str, str | None]] = []
    carried = None
    for s in stmts:
        note = note_of(s) or carried
        carried = None
        kind = type(s)
        if kind is Reset and s.var not in w.asked or kind is Nested and s.name in w.lifted:
            carried = note  # a reset dropped, a function lifted: gone from here
            continue
        start = len(out)
        _statement(s, kind, w, indent, out)
        if note is not None and start < len(out) and out[start][1] is None:
            out[start] = (out[start][0], note)
    return out


def _statement(s, kind, w: Written, indent: str, out: list) -> None:
    inner = indent + "    "
    if kind is ast.If:
        out.append((f"{indent}if {text(s.test, w)}:", None))
        out += _block(s.body, w, inner)
        while len(s.orelse) == 1 and type(s.orelse[0]) is ast.If and note_of(s.orelse[0]) is None:
            s = s.orelse[0]
            out.append((f"{indent}elif {text(s.test, w)}:", None))
            out += _block(s.body, w, inner)
        if s.orelse:
            out.append((f"{indent}else:", None))
            out += _block(s.orelse, w, inner)
    elif kind is ast.For:
        out.append((f"{indent}for {_target(s.target, w)} in {text(s.iter, w)}:", None))
        out += _block(s.body, w, inner)
    elif kind is ast.While:
        out.append((f"{indent}while {text(s.test, w)}:", None))
        out += _block(s.body, w, inner)
    elif kind is Nested:
        out += nested_def(s, w, indent)
    elif kind is ast.FunctionDef:
        out.append((f"{indent}def {s.name}({', '.join(a.arg for a in s.args.args)}):", None))
        out += function_body(s.body, (), w, inner)
    else:
        out.append((indent + _simple(s, kind, w), None))


def _simple(s, kind, w: Written) -> str:
    if kind is ast.Assign:
        return " = ".join([_target(t, w) for t in s.targets] + [text(s.value, w)])
    if kind is ast.Expr:
        return text(s.value, w)
    if kind is Goto:
        return f"return {s.block}"
    if kind is ast.Return:
        return "return" if s.value is None else f"return {text(s.value, w)}"
    if kind is ast.AugAssign:
        return f"{_target(s.target, w)} {_OPERATORS[type(s.op)][0]}= {text(s.value, w)}"
    if kind is Branch:
        return f"return {s.then} if {text(s.test, w, _TEST + 1)} else {s.otherwise}"
    if kind is Reset:
        return f"{s.var} = UNSET"
    if kind is ast.Pass:
        return "pass"
    if kind is ast.Continue:
        return "continue"
    if kind is ast.Break:
        return "break"
    if kind is ast.Delete:
        return "del " + ", ".join(_target(t, w) for t in s.targets)
    raise TypeError(f"render: no way to write a {kind.__name__} statement")


def nested_def(s: Nested, w: Written, indent: str) -> list[tuple[str, str | None]]:
    """A nested function where it stands, or where it was lifted to (taking what it reads)."""
    params = ", ".join(w.lifted.get(s.name, ()))
    return [(f"{indent}def {s.name}({params}):", note_of(s))] + \
        function_body(s.body, s.nonlocals, w, indent + "    ")


def function_body(body, nonlocals, w: Written, indent: str) -> list[tuple[str, str | None]]:
    out = [(f"{indent}nonlocal {', '.join(nonlocals)}", None)] if nonlocals else []
    return out + _block(body, w, indent)


def _block(stmts, w: Written, indent: str) -> list[tuple[str, str | None]]:
    return lines(stmts, w, indent) or [(f"{indent}pass", None)]


def _target(e, w: Written) -> str:
    """An assignment's or a loop's target: a tuple without brackets."""
    if type(e) is ast.Tuple:
        return ", ".join(text(x, w) for x in e.elts) + ("," if len(e.elts) == 1 else "")
    return text(e, w)


# ------------------------------------------------------------------ expressions

# how tightly each kind of expression binds (Python's own order)
_NAMED, _TUPLE, _TEST, _OR, _AND, _NOT, _COMPARE, _ARITH, _TERM, _FACTOR, _POWER, _ATOM = range(12)
_OPERATORS = {ast.Add: ("+", _ARITH), ast.Sub: ("-", _ARITH), ast.Mult: ("*", _TERM), ast.Div: ("/", _TERM),
              ast.FloorDiv: ("//", _TERM), ast.Mod: ("%", _TERM), ast.Pow: ("**", _POWER)}
_COMPARISONS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
                ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


def text(e, w: Written, level: int = _TEST) -> str:
    """An expression's text where its place asks it to bind at least as tightly as `level`."""
    kind = type(e)
    if kind is ast.Name:
        return e.id
    if kind is ast.Constant:
        value = e.value
        return repr(value) if not (isinstance(value, (int, float)) and value < 0 and level > _FACTOR) \
            else f"({value!r})"
    if kind is EnvRef:
        return f"env_{e.key}" if e.key in w.localized else f"env[{e.key}]"
    if kind is ast.Subscript:
        return f"{text(e.value, w, _ATOM)}[{_slice(e.slice, w)}]"
    if kind is ast.Attribute:
        return f"{text(e.value, w, _ATOM)}.{e.attr}"
    if kind is ast.Call:
        args = [text(a, w) for a in e.args] + [f"{k.arg}={text(k.value, w)}" for k in e.keywords]
        return f"{text(e.func, w, _ATOM)}({', '.join(args)})"
    if kind is CallNested:
        return f"{e.name}({', '.join(w.lifted.get(e.name, ()))})"
    if kind is ast.BinOp:
        op, own = _OPERATORS[type(e.op)]
        made = f"{text(e.left, w, own)} {op} {text(e.right, w, own + 1)}"
    elif kind is ast.Compare:
        parts = [text(e.left, w, _COMPARE + 1)]
        for op, right in zip(e.ops, e.comparators):
            parts += [_COMPARISONS[type(op)], text(right, w, _COMPARE + 1)]
        made, own = " ".join(parts), _COMPARE
    elif kind is ast.BoolOp:
        own = _AND if type(e.op) is ast.And else _OR
        made = f" {'and' if own == _AND else 'or'} ".join(text(v, w, own + 1) for v in e.values)
    elif kind is ast.UnaryOp:
        if type(e.op) is ast.Not:
            made, own = f"not {text(e.operand, w, _NOT)}", _NOT
        else:
            made, own = f"{'-' if type(e.op) is ast.USub else '+'}{text(e.operand, w, _FACTOR)}", _FACTOR
    elif kind is ast.IfExp:
        made, own = f"{text(e.body, w, _TEST + 1)} if {text(e.test, w, _TEST + 1)} else {text(e.orelse, w, _TEST)}", _TEST
    elif kind is Lazy:
        return f"({e.var} if {e.var} is not UNSET else ({e.var} := {text(e.value, w)}))"
    elif kind is ast.NamedExpr:
        return f"({text(e.target, w)} := {text(e.value, w)})"
    elif kind is ast.Tuple:
        return "(" + _target(e, w) + ")"
    elif kind is ast.List:
        return "[" + ", ".join(text(x, w) for x in e.elts) + "]"
    elif kind is ast.Starred:
        return "*" + text(e.value, w, _ARITH)
    elif kind is ast.Dict:
        return "{" + ", ".join(f"{text(k, w)}: {text(v, w)}" for k, v in zip(e.keys, e.values)) + "}"
    elif kind is ast.ListComp or kind is ast.GeneratorExp:
        loops = " ".join(f"for {_target(g.target, w)} in {text(g.iter, w, _OR)}"
                         + "".join(f" if {text(c, w, _OR)}" for c in g.ifs) for g in e.generators)
        return f"[{text(e.elt, w)} {loops}]" if kind is ast.ListComp else f"({text(e.elt, w)} {loops})"
    else:
        raise TypeError(f"render: no way to write a {kind.__name__} expression")
    return made if own >= level else f"({made})"


def _slice(e, w: Written) -> str:
    if type(e) is ast.Slice:
        return ":".join("" if part is None else text(part, w) for part in (e.lower, e.upper))
    return text(e, w, _TUPLE)
