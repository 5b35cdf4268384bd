"""Numbers in play are bounded (issue 20, item 2): a product or sum that grows
without end stops with a located rule error where it is kept — an assignment,
`+=`, `-=`, a `let`, a score or measure at the end — instead of growing to
gigabytes or ending in Python's ValueError when printed. The bound is 18 digits,
raised with `--limit number_digits=N` (at most 4,000)."""
import pytest
from helpers import rulelang
from test_language import TINY, tiny

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent
from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import RulesetError, load_text
from rulelang.limits import DEFAULT

GROWING = {
    # name: (rules, the line the error points at)
    "a product that multiplies itself": ("total = 2\nrepeat 40 times:\n  total = total * total\nwin solo",
                                         "  total = total * total"),
    "a sum that doubles": ("total = 1\nwhile true:\n  total += total", "  total += total"),
    "a difference that falls without end": ("total = -1\nwhile true:\n  total -= total * -7", "  total -= total * -7"),
    "through a local": ("let n = 3\nwhile true:\n  n = n * n\n  total = 1", "  n = n * n"),
    "through a let": ("total = 5\nwhile true:\n  let m = total * total\n  total = m", "  let m = total * total"),
    "a sum over the pile": ("total = 1\nwhile true:\n  total = sum(c.value * total for c in pile)",
                            "  total = sum(c.value * total for c in pile)"),
    "through a procedure's argument": ("total = 5\nwhile true:\n  keep(total * total)", "keep(n): total = n"),
    "through a define": ("total = 5\nwhile true:\n  total = squared(total)", "  total = squared(total)"),
}


def ruleset(rules: str) -> str:
    return tiny(rules).replace("setup: |", "define:\n  squared(n): n * n\nprocedures:\n  keep(n): total = n\n"
                                           "setup: |")


@pytest.mark.parametrize("optimize", [True, False], ids=["optimised", "plain"])
@pytest.mark.parametrize("name", list(GROWING))
def test_a_number_that_grows_without_end_stops_at_the_bound_located(name, optimize):
    rules, line = GROWING[name]
    text = ruleset(rules)
    game = Game(load_text(text, "t.yaml"), optimize=optimize)
    with pytest.raises(RuleError) as info:
        play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    d = info.value.diagnostic
    assert info.value.reason == \
        "a number of more than 18 digits: numbers in a game stay within ±999,999,999,999,999,999"
    assert "--limit number_digits=N (now 18)" in d.hint
    lines = text.splitlines()
    calls = d.message[len(info.value.reason):]  # a procedure's own statement says the call
    call = next((i + 1 for i, s in enumerate(lines) if s.strip() == "keep(total * total)"), None)
    assert calls in ("", f" (in keep, called at t.yaml:{call})"), d.message
    where = lines[d.span.line - 1]
    # a procedure's statement: in the procedure, or (inlined by the optimiser) at the call
    assert line.strip() in where or "procedure" in name and "keep(total * total)" in where, (where, line)
    assert d.span.file == "t.yaml"


def test_numbers_up_to_the_bound_are_kept_and_the_limit_can_be_raised():
    text = ruleset("total = 999999999999999999\ntotal -= 1\ntotal += 1\nwin solo")
    st = play(Game(load_text(text, "t.yaml")), 0, {"solo": FirstAgent(0, "solo")})
    assert st.vars[0] == 10 ** 18 - 1
    grow = ruleset("total = 999999999999999999\ntotal = total * 1000\nwin solo")
    with pytest.raises(RuleError):
        play(Game(load_text(grow, "t.yaml")), 0, {"solo": FirstAgent(0, "solo")})
    raised = load_text(grow, "t.yaml", limits=DEFAULT.changed(["number_digits=21"]))
    st = play(Game(raised), 0, {"solo": FirstAgent(0, "solo")})
    assert st.vars[0] == (10 ** 18 - 1) * 1000


def test_a_score_past_the_bound_is_a_rule_error_at_the_score():
    text = TINY.replace("vars:\n  total: 0", "vars:\n  total: 999999999999999999") \
        .replace("{body}", "end game") + "    score:\n      solo: total * total * total\n"
    with pytest.raises(RuleError) as info:
        play(Game(load_text(text, "t.yaml")), 0, {"solo": FirstAgent(0, "solo")})
    d = info.value.diagnostic
    assert d.message == "a score or measure of more than 18 digits"
    assert text.splitlines()[d.span.line - 1].strip() == "solo: total * total * total"


def test_the_command_line_stops_squaring_in_moments_and_refuses_a_bound_past_4000(tmp_path):
    path = tmp_path / "square.yaml"
    path.write_text(ruleset(GROWING["a product that multiplies itself"][0]))
    r = rulelang("run", str(path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{path}:" in r.stderr and "error: a number of more than 18 digits" in r.stderr, r.stderr
    r = rulelang("run", str(path), "--limit", "number_digits=4000")
    assert r.returncode == 2 and "error: a number of more than 4,000 digits" in r.stderr, r.stderr
    with pytest.raises(RulesetError, match="at most 4,000"):
        DEFAULT.changed(["number_digits=4001"])
