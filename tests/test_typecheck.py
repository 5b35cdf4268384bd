"""scripts/typecheck.py: a new type error anywhere fails, and so does a fixed
one still on the baseline, which only shrinks (mypy itself runs in .ci/run)."""
import collections
import importlib.util

import pytest
from helpers import ROOT


@pytest.fixture
def tool(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "BASELINE", tmp_path / "baseline.txt")
    module.found = []
    monkeypatch.setattr(module, "run_mypy", lambda: ([(e, f"{e.split(':')[0]}:1: error: ...") for e in module.found],
                                                     []))
    return module


A = "rulelang/a.py: [arg-type] Argument 1 has incompatible type"
B = "rulelang/b.py: [union-attr] Item None has no attribute span"


def test_errors_on_the_baseline_pass_and_a_new_one_fails(tool, capsys):
    tool.write_baseline(collections.Counter([A, B]))
    tool.found = [A, B]
    assert tool.main([]) == 0
    tool.found = [A, B, A]  # the same error once more, in the same file: new
    assert tool.main([]) == 1
    assert "new type errors" in capsys.readouterr().out


def test_a_fixed_error_must_come_off_the_baseline_and_update_never_adds(tool, capsys):
    tool.write_baseline(collections.Counter([A, B]))
    tool.found = [A]
    assert tool.main([]) == 1
    assert "--update" in capsys.readouterr().out
    tool.found = [A, "rulelang/c.py: [misc] new"]
    assert tool.main(["--update"]) == 1  # B taken off; the new one is not added, and still fails
    assert tool.read_baseline() == collections.Counter([A])
    tool.found = [A]
    assert tool.main([]) == 0


def test_line_numbers_in_messages_do_not_disturb_the_baseline(tool):
    line = 'rulelang/a.py:40: error: Name "x" already defined on line 12  [no-redef]'
    assert tool.ERROR.match(line)["message"] == 'Name "x" already defined on line 12'
