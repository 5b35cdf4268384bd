"""A decision a quick agent answers at once goes on where it resumes in the same function
(merge.Merge takes that code in even inside an `if`: Twenty Trials' `complete`, asked where the
`until` loop's test lists its options), and the decision's names, bound together
(`env[k17], env[k18] = opts[i]`), are read from Python locals after it (pycode.aliased), the
frame written only where something may read it there (live.py). The games are the same."""
import ast
import re

import pytest
from helpers import assert_plays_as_plain, bundled
from test_per_card_code import main_program

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.compiler import pycode
from interpreter.compiler.compiled import EXIT
from interpreter.compiler.live import drop_dead_stores
from interpreter.compiler.pycode import STORE, EnvRef
from interpreter.engine.game import Game


def _game(name: str = "twenty-trials", **options) -> Game:
    return Game(bundled(name), **options)


def _block_calls(game: Game, seed: int) -> tuple[int, object]:
    """How many times the engine called a block of the main program in a game of random
    players answered quickly, and the game's outcome."""
    calls = [0]

    def counted(f):
        def block(st, env):
            calls[0] += 1
            return f(st, env)
        return block
    game.rules.programs["main"][:] = [counted(f) for f in game.rules.programs["main"]]
    st = play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}, history=False)
    return calls[0], st.outcome


def test_a_round_of_twenty_trials_does_not_return_to_the_engine_between_its_decision_and_the_next():
    fast = _game()
    for seed in range(5):
        calls, outcome = _block_calls(fast, seed)
        # the setup's block and the one that goes round every round; a discard answered at once needs none
        assert calls <= 3 and outcome["rounds"] >= 5, (seed, calls, outcome["rounds"])


def test_twenty_trials_answered_in_place_plays_as_the_plain_rules():
    fast, plain = _game(history=True), _game(optimize=False, history=True)
    for seed in range(20):
        a, b = (play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}) for g in (fast, plain))
        assert a.answers() == b.answers() and fast.outcome(a) == plain.outcome(b), seed
        assert [tuple(e) for e in a.events] == [tuple(e) for e in b.events], seed
    assert_plays_as_plain(fast, plain, seeds=6, step=3)  # answered by the engine: resumed at the block


def test_a_decisions_names_are_read_from_python_locals_where_it_is_answered_at_once():
    fast = _game()
    code = main_program(fast)
    unit = next(u for u in fast.rules.units if "the main program" in u.what)
    a, b = (f"k{unit.consts.index(n)}" for n in ("a", "b"))
    # bound together from the option, and not written to the frame: only a decision the engine answers
    # resumes where they are read there, and the engine binds them itself
    assert re.search(r"\n\s+v\d+, v\d+ = out\d+\[i\d+\]\n", code)
    assert not re.search(rf"env\[{a}\], env\[{b}\] = ", code)
    assert re.search(rf"= env\[{a}\]", code)  # (where it resumes)


@pytest.mark.parametrize("names", [1, 2])
def test_names_bound_from_one_tuple_get_python_locals_of_the_same_shape(names):
    keys = [f"k{i}" for i in range(names)]
    target = pycode.tuple_of([EnvRef(k, STORE) for k in keys], STORE)
    stmts = [pycode.assign(target, pycode.expr("row")),
             *(pycode.stmt("print(X)", X=EnvRef(k, pycode.LOAD)) for k in keys), pycode.Goto(1)]
    fresh = iter(range(100))
    made = pycode.aliased(stmts, lambda prefix: f"{prefix}{next(fresh)}")
    first = made[0]
    assert len(first.targets) == 2 and type(first.targets[1]).__name__ == "Tuple"  # (`env[k0], = v0, = row`)
    assert [type(n).__name__ for n in first.targets[1].elts] == ["Name"] * names
    for s, local in zip(made[1:], first.targets[1].elts):
        assert s.value.args[0].id == local.id  # read from its Python local
    # nothing reads the frame after it: the stores go, the Python locals stay
    dropped = drop_dead_stores({0: made, 1: [ast.Return(ast.Constant(EXIT))]}, frozenset(), 2)[0]
    assert dropped[0].targets == [first.targets[1]]
