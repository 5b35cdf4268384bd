"""The printed rules of every bundled ruleset and mode, and of the games written from the docs alone
(tests/printing/), compared with the files in tests/golden/.

Every change to the English shows as a diff of these files. After a change
you mean, write them again and read the diff:

    RULELANG_UPDATE_GOLDEN=1 python -m pytest -q tests/test_golden.py
"""
import os
from pathlib import Path

import pytest
from helpers import bundled

from generators.markdown import to_markdown
from generators.quick import quick_pages
from generators.summary import summary
from rulelang import bundled_names

GOLDEN = Path(__file__).resolve().parent / "golden"
WRITTEN = Path(__file__).resolve().parent / "printing"  # games written from the docs alone, not bundled
UPDATE = os.environ.get("RULELANG_UPDATE_GOLDEN") == "1"


def documents():
    """(file name, how to print it) for the whole summary, each mode's, and each quick reference."""
    for name in [*bundled_names(), *(str(p) for p in sorted(WRITTEN.glob("*.yaml")))]:
        rs = bundled(name)
        name = Path(name).stem
        yield f"{name}.md", lambda rs=rs: summary(rs)
        for mode in rs.modes:
            yield f"{name}-{mode}.md", lambda rs=rs, mode=mode: summary(rs, mode)
            yield f"{name}-{mode}-quick.md", lambda rs=rs, mode=mode: quick_pages(rs, mode)


DOCUMENTS = dict(documents())


@pytest.mark.parametrize("file", sorted(DOCUMENTS))
def test_the_printed_rules_are_the_reviewed_ones(file):
    docs = DOCUMENTS[file]()
    text = to_markdown(docs if isinstance(docs, list) else [docs])
    path = GOLDEN / file
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: write it with RULELANG_UPDATE_GOLDEN=1 (see this module)"
    assert text == path.read_text(encoding="utf-8"), \
        f"{path.name} changed: read the diff of RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py"


def test_no_golden_file_is_left_over():
    if UPDATE:
        for path in GOLDEN.glob("*.md"):
            if path.name not in DOCUMENTS:
                path.unlink()
    assert sorted(p.name for p in GOLDEN.glob("*.md")) == sorted(DOCUMENTS)
