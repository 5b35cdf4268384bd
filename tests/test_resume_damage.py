"""`--resume` reads a rows file as data from anyone: whatever it holds ends in
a clear one-line refusal (exit code 1) or in the run it continues — never an
internal error, never a row dropped unsaid, never a file of something else
written over. Only a last line cut short by a kill is dropped (its game is
played again)."""
import json
import resource

import pytest

from helpers.commands import cli

BASE = ["simulate", "kuhn-poker", "--games", "12", "--seed", "3", "--jobs", "1"]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def written(capsys, tmp_path, kind: str, games: int = 6):
    out = tmp_path / f"rows.{kind}"
    code, _, err = cli(capsys, *BASE[:3], games, *BASE[4:], "--out", out)
    assert code == 0, err
    return out


def refused(capsys, out, message: str) -> None:
    before = out.read_bytes()
    start = cpu()
    code, stdout, err = cli(capsys, *BASE, "--out", out, "--resume")
    assert cpu() - start < 2.0  # CPU seconds
    assert code == 1 and message in err, err
    assert "internal error" not in err and "Traceback" not in err
    assert out.read_bytes() == before  # left as it was


@pytest.mark.parametrize("kind", ["csv", "jsonl", "json"])
def test_a_bad_line_in_the_middle_is_refused_not_taken_for_a_torn_end(capsys, tmp_path, kind):
    out = written(capsys, tmp_path, kind)
    lines = out.read_bytes().split(b"\n")
    lines[3] = lines[3][:10]  # a line cut in the middle of the file, its line break kept
    out.write_bytes(b"\n".join(lines))
    refused(capsys, out, "is damaged at line 4")


@pytest.mark.parametrize("damage, message", [
    (lambda line: line[:8] + b"\r" + line[8:], "is damaged at line 3"),  # a stray carriage return in a row
    (lambda line: line[:8] + b"x" * 200_000 + line[8:], "is damaged at line 3"),  # more than csv reads in a field
    ("seed", "row 2 (seed 99999999999999999999...) is not as"),  # a seed of 5,000 digits
])
def test_odd_bytes_in_a_csv_row_are_refused(capsys, tmp_path, damage, message):
    out = written(capsys, tmp_path, "csv")
    lines = out.read_bytes().split(b"\n")
    if damage == "seed":
        cells = lines[2].split(b",")
        cells[lines[0].split(b",").index(b"seed")] = b"9" * 5000
        lines[2] = b",".join(cells)
    else:
        lines[2] = damage(lines[2])
    out.write_bytes(b"\n".join(lines))
    refused(capsys, out, message)


def test_a_json_lines_row_with_a_5000_digit_number_is_refused(capsys, tmp_path):
    out = written(capsys, tmp_path, "jsonl")
    lines = out.read_text().split("\n")
    assert '"seed": 4,' in lines[1]
    lines[1] = lines[1].replace('"seed": 4,', '"seed": ' + "4" * 5000 + ",")
    out.write_text("\n".join(lines))
    refused(capsys, out, "is damaged at line 2")


@pytest.mark.parametrize("name, text", [
    ("package.json", json.dumps({"name": "mine", "version": "1.0", "scripts": {"a": "b"}}, indent=2) + "\n"),
    ("notes.jsonl", '{"note": "mine"}\n{"note": "keep me"}\n'),
    ("notes.jsonl", "not json at all\n"),
    ("data.json", "[\n1,\n2\n]\n"),
    ("table.csv", "a,b,c\n1,2,3\n"),
])
def test_resume_onto_an_unrelated_file_leaves_it_alone(capsys, tmp_path, name, text):
    out = tmp_path / name
    out.write_text(text)
    refused(capsys, out, str(out))


def test_a_parquet_file_of_other_types_is_refused_and_leaves_nothing_behind(capsys, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    out = written(capsys, tmp_path, "parquet")
    good = out.read_bytes()
    table = pq.read_table(out)
    seeds = pa.array([str(s) for s in table.column("seed").to_pylist()])
    pq.write_table(table.set_column(table.column_names.index("seed"), "seed", seeds), out)
    refused(capsys, out, "columns of other types")
    assert not (tmp_path / "rows.parquet.partial.jsonl").exists()
    out.write_bytes(good)  # the good file back: resumed as if nothing had happened
    code, _, err = cli(capsys, *BASE, "--out", out, "--resume")
    assert code == 0, err
    assert pq.read_table(out).num_rows == 12
