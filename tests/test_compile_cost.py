"""The compiler's own cost: work it did again that it now does once, with the code it generates
unchanged (issue 36: `rulelang check` compiles a mode, so its time is the compiler's)."""
import ast
import re

from test_language import TINY

import interpreter.compiler.codegen
import interpreter.compiler.rules
from interpreter.compiler import pycode
from interpreter.compiler.pycode import LOAD, STORE, EnvRef
from interpreter.engine.game import Game
from rulelang import load_text

# a define over a constant list, inlined four times (fresh names each time), and one that reads a zone
DEFINES = """define:
  below(number n): |
    count(v in [1, 2, 3, 4, 5] where v < n)
  held(number n): |
    count(v in [1, 2, 3] where size(pile) > v + n)
"""
BODY = "total = below(3) + below(3) + below(4) + below(3) + held(0) + held(0)\nwin solo"


def generated(monkeypatch, alike: bool) -> tuple[str, int]:
    """The code generated for the rules above, and how many constants were generated to be computed."""
    made = []
    real = interpreter.compiler.codegen.Codegen.function

    def counted(self, e, what):
        made.append(what)
        return real(self, e, what)
    with monkeypatch.context() as m:
        m.setattr(interpreter.compiler.codegen.Codegen, "function", counted)
        if not alike:  # every expression a form of its own: each computed as if met for the first time
            m.setattr(interpreter.compiler.rules, "_form", lambda e: object())
        game = Game(load_text(TINY.replace("setup: |", DEFINES + "setup: |").replace(
            "{body}", BODY.replace("\n", "\n          ")), "t.yaml"))
        text = re.sub(r"#\d+\)", "#N)", "".join(u.text() for u in game.rules.units))
    return text, made.count("a constant")


def test_a_constant_is_computed_once_whatever_its_names(monkeypatch):
    once, computed = generated(monkeypatch, alike=True)
    each, every = generated(monkeypatch, alike=False)
    assert once == each  # the same code, to the byte: the same values, each its own object
    assert "k" in once and computed < every
    # three forms (below(3), below(4), held(0)), two lists, three sums; before, each of the six calls, and
    # held(0) once more each (a constant list in it: it was no key)
    assert (computed, every) == (8, 13)


def _body(text: str) -> list:
    return [_keys(s) for s in ast.parse(text).body]


def _keys(node):
    """ast nodes of a template with `env_kN` names as the rules' locals in env (EnvRef)."""
    def ref(v):
        if isinstance(v, ast.Name) and v.id.startswith("env_"):
            return EnvRef(v.id[4:], STORE if isinstance(v.ctx, ast.Store) else LOAD)
        return v
    for parent in ast.walk(node):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                value[:] = [ref(v) for v in value]
            else:
                setattr(parent, field, ref(value))
    return node


def _text(stmts) -> str:
    class Plain(ast.NodeTransformer):
        def visit_EnvRef(self, n):
            return ast.Subscript(ast.Name("env", ast.Load()), ast.Name(n.key, ast.Load()), n.ctx)
    return ast.unparse(ast.fix_missing_locations(ast.Module([Plain().visit(s) for s in stmts], [])))


def test_a_local_set_in_env_is_read_from_python_until_set_again():
    names = iter(f"v{i}" for i in range(1, 100))
    code = _body("env_k1 = f()\n"
                 "if env_k1:\n    env_k2 = env_k1 + 1\n    g(env_k2)\n"
                 "while h(env_k1):\n    env_k1 = env_k1 - 1\n"
                 "g(env_k1, env_k2)\n"
                 "env_k2 = 3\ng(env_k2)\n")
    out = _text(pycode.aliased(code, lambda prefix: next(names)))
    assert out == ("env[k1] = v2 = f()\n"  # (the lists inside first)
                   "if v2:\n    env[k2] = v1 = v2 + 1\n    g(v1)\n"
                   "while h(env[k1]):\n    env[k1] = env[k1] - 1\n"  # the loop sets it: from env from here on
                   "g(env[k1], env[k2])\n"  # (k2 was set inside the `if`, for its own statements)
                   "env[k2] = v3 = 3\ng(v3)")
    assert any(type(n) is EnvRef and n.ctx is STORE for n in pycode.walk_own(code))


def test_own_of_finds_what_walk_own_does_on_generated_code(monkeypatch):
    from interpreter.compiler import unit
    bodies = []
    real = unit.Units._finish
    monkeypatch.setattr(unit.Units, "_finish", lambda self, top, *a: bodies.append(top.code()) or real(self, top, *a))
    Game(load_text(TINY.replace("setup: |", DEFINES + "setup: |").replace(
        "{body}", BODY.replace("\n", "\n          ")), "t.yaml"))
    assert bodies
    for body in bodies:
        for kind in (ast.Name, EnvRef, pycode.Nested):
            walked = [n for n in pycode.walk_own(body) if type(n) is kind]
            assert sorted(map(id, pycode.own_of(body, kind))) == sorted(map(id, walked))


def test_compiling_pauses_the_cyclic_collector_and_restores_it(monkeypatch):
    import gc

    rules = interpreter.compiler.rules
    seen = []
    real = rules.program_for
    monkeypatch.setattr(rules, "program_for", lambda *a: seen.append(gc.isenabled()) or real(*a))
    text = TINY.replace("{body}", "win solo")
    assert gc.isenabled()
    Game(load_text(text, "t.yaml"))
    assert seen == [False] and gc.isenabled()  # off while compiling, on again after
    gc.disable()
    try:
        Game(load_text(text, "t.yaml"))
        assert not gc.isenabled()  # whoever paused it before resumes it
    finally:
        gc.enable()


def test_a_cold_check_reads_and_lints_with_the_collector_paused(monkeypatch, tmp_path, capsys):
    import gc

    from cli.main import main
    from rulelang import lint
    seen = []
    real = lint.warnings
    monkeypatch.setattr(lint, "warnings", lambda rs: seen.append(gc.isenabled()) or real(rs))
    path = tmp_path / "t.yaml"
    path.write_text(TINY.replace("{body}", "win solo"))
    assert main(["check", "--no-cache", str(path)]) == 0, capsys.readouterr()
    assert seen == [False] and gc.isenabled()
