"""Loops that only collect become list comprehensions (compiler/comprehensions.py):
the same values in the same order, and nothing else is rewritten."""
from interpreter.compiler.comprehensions import collecting


def run(lines: list[str], **names) -> dict:
    scope = dict(names)
    exec("\n".join(lines), scope)  # one namespace: a comprehension sees the names
    return scope


def test_a_nest_of_loops_and_tests_around_one_append_is_one_comprehension():
    body = ["out = []",
            "for a in xs:",
            "    if a % 2:",
            "        for b in xs:",
            "            if (t := a + b) > 4:",
            "                out.append((a, b, t))",
            "done = len(out)"]
    lines, notes = collecting(body, {1: "rules.yaml:7", 6: "rules.yaml:9"})
    assert lines == ["out = []",
                     "out += [(a, b, t) for a in xs if a % 2 for b in xs if (t := a + b) > 4]",
                     "done = len(out)"]
    assert notes == {1: "rules.yaml:7", 2: "rules.yaml:9"}  # each note stays with its line
    xs = [1, 2, 3, 4]
    assert run(lines, xs=xs)["out"] == run(body, xs=xs)["out"]


def test_loops_that_do_more_than_collect_are_left_as_they_are():
    kept = [
        ["out = []", "for a in xs:", "    out.append(a)", "    n = a"],  # more in the loop
        ["out = []", "for a in xs:", "    if a:", "        out.append(a)", "    else:", "        pass"],
        ["out = []", "for a in (ys := xs):", "    out.append(a)"],  # Python forbids := there
        ["out = []", "for a in xs:", "    other.append(a)"],  # another list
        ["out = []", "while xs:", "    out.append(xs.pop())"],
    ]
    for body in kept:
        assert collecting(body, {})[0] == body, body


def test_a_nest_inside_other_code_is_rewritten_in_place():
    body = ["out = []",
            "if xs:",
            "    for a in xs:",
            "        out.append(a)",
            "    for a in xs:",
            "        for b in xs:",
            "            out.append(a * b)",
            "    other = 1"]
    lines, _ = collecting(body, {})
    assert lines == ["out = []", "if xs:", "    out += [a for a in xs]", "    out += [a * b for a in xs for b in xs]",
                     "    other = 1"]
    assert run(lines, xs=[2, 3])["out"] == run(body, xs=[2, 3])["out"] == [2, 3, 4, 6, 6, 9]
