"""Hostile rulesets are refused quickly, in bounded memory, with located errors."""
import resource
import time

import pytest
from helpers import rulelang
from helpers.hostile import CASES

from interpreter.engine.game import Game
from rulelang import RulesetError, load_ruleset
from rulelang.limits import Limits

SECONDS = 10  # each is refused in well under a second on a quiet machine (docs/reliability.md)


def write(tmp_path, name, make) -> str:
    data = make()
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(path)


def refuse(path: str, limits: Limits = Limits()) -> list:
    with pytest.raises(RulesetError) as info:
        rs = load_ruleset(path, limits=limits)
        for mode in rs.modes:
            Game(rs, mode)
    return info.value.diagnostics


@pytest.mark.parametrize("name, what, make, message", CASES, ids=[c[0] for c in CASES])
def test_hostile_ruleset_is_refused_quickly_with_a_located_error(tmp_path, name, what, make, message):
    path = write(tmp_path, name, make)
    start = time.process_time()  # CPU seconds: what the input costs, not what the machine is doing
    found = refuse(path)
    assert time.process_time() - start < SECONDS, what
    assert any(message in d.message for d in found), [d.message for d in found[:3]]
    for d in found:
        assert d.span is not None and d.span.file == path and d.span.line >= 1 and d.span.col >= 1, d


def test_limits_are_overridable(tmp_path):
    many = dict((c[0], c) for c in CASES)
    path = write(tmp_path, "million", lambda: many["million-copies"][2]().replace("100000000", "12000"))
    assert "10,000 components" in refuse(path)[0].message
    assert len(load_ruleset(path, limits=Limits(components=20_000)).cards) == 12_000
    deep = write(tmp_path, "deep", lambda: many["deep-not"][2]().replace("not " * 3000, "not " * 120))
    assert "nest more than 100 levels" in refuse(deep)[0].message
    load_ruleset(deep, limits=Limits(nesting=200))


@pytest.mark.slow  # a process a hostile file, under a memory limit: 15 s of the default run
def test_the_command_line_refuses_them_in_bounded_memory(tmp_path):
    paths = [write(tmp_path, name, make) for name, _, make, _ in CASES]

    def cap_memory():  # 1.5 GB of address space: an alias bomb written out would need far more
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
    r = rulelang("check", *paths, preexec_fn=cap_memory)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    for path in paths:
        assert f"{path}:" in r.stderr


def test_the_limit_option(tmp_path):
    many = dict((c[0], c) for c in CASES)
    path = write(tmp_path, "million", lambda: many["million-copies"][2]().replace("100000000", "12000"))
    assert rulelang("check", path).returncode == 2
    r = rulelang("check", path, "--limit", "components=20000")
    assert r.returncode == 0, r.stderr
    r = rulelang("check", path, "--limit", "componets=2")
    assert r.returncode == 2 and "did you mean 'components'?" in r.stderr


def test_rules_that_call_the_next_twice_a_level_are_printed_in_bounded_time():
    # the printer asks what a rule may change (a procedure, through those it carries out) and what a
    # value reads (a define, through those it calls): followed again at every call, 2^40 walks
    from generators.quick import quick_pages
    from generators.summary import summary
    from rulelang import load_text
    n = 40
    procedures = "".join(f"  p{i}():\n    do: |\n      p{i + 1}()\n      p{i + 1}()\n" for i in range(n))
    defines = "".join(f"  d{i}():\n    value: d{i + 1}() + d{i + 1}()\n" for i in range(n))
    rs = load_text(f"""language: 2
game: chains
roles: [solo]
vars:
  x: {{initial: 0}}
define:
{defines}  d{n}():
    value: x
procedures:
{procedures}  p{n}():
    do: |
      x += 1
setup: |
  pass
modes:
  m:
    round:
      - step: S
        do: |
          let y = d0()
          p0()
          if y > 3:
            p0()
            if d0() > 5:
              end game as done
""", "chains.yaml")
    start = time.process_time()
    summary(rs)
    quick_pages(rs, "m")
    assert time.process_time() - start < SECONDS
