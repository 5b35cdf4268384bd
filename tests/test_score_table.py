"""scripts/score_table.py: the score distribution table in the docs."""
import importlib.util

from helpers import ROOT


def _tool():
    spec = importlib.util.spec_from_file_location("score_table", ROOT / "scripts" / "score_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_table_rows_and_replacing_the_section(tmp_path):
    tool = _tool()
    text = tool.table("gauntlet-gobbots", ["standard", "Easy mode: easy=true"], ["random", "first:7"], 20, 5)
    lines = text.splitlines()
    assert lines[0].startswith("| option | agent | games | 0 | 1 (minor victory) | 2 (standard victory) | 3 (major victory) |")
    rows = [line for line in lines if line.startswith("| standard") or line.startswith("| Easy")]
    assert [r.split(" | ")[:3] for r in rows] == [["| standard", "random", "20"], ["| standard", "first", "7"],
                                                  ["| Easy mode", "random", "20"], ["| Easy mode", "first", "7"]]
    for row in rows:  # the score shares of a row add up to the whole
        shares = [float(cell.rstrip("%")) for cell in row.split(" | ")[3:7]]
        assert abs(sum(shares) - 100) < 0.2
    doc = tmp_path / "doc.md"
    doc.write_text(f"before\n{tool.BEGIN}\nold\n{tool.END}\nafter\n")
    tool.write_into(doc, "new table")
    assert doc.read_text() == f"before\n{tool.BEGIN}\nnew table\n{tool.END}\nafter\n"
