"""`rulelang check` compiles what can differ, not everything the text
multiplies: a ruleset of 999 seats is read at the fewest and the most, and
modes with the same rules (YAML aliases) compile once. Its cost follows the
text. Bounds in CPU seconds."""
import resource

from cli.main import main

CROWD = """\
game: crowd
players: {count: 1..999}
zones:
  hand: {owner: each}
cards:
  chip: {count: 3}
vars: {x: {initial: 0}}
modes:
  m:
    round:
      - step: Play
        do: |
          for p in players:
            if size(hand of p) > 0:
              x += 1
          end game
"""


def aliases(modes: int) -> str:
    head = ["game: aliases", "roles: [p]", "vars: {x: {initial: 0}}", "modes:", "  m0: &m", "    round:",
            "      - step: Play", "        do: |", "          x += 1", "          if x > 3:", "            end game"]
    return "\n".join(head + [f"  m{i}: *m" for i in range(1, modes)]) + "\n"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def checked(capsys, *args) -> tuple[int, str, str, float]:
    start = cpu()
    code = main(["check", *map(str, args)])
    took = cpu() - start
    out, err = capsys.readouterr()
    return code, out, err, took


def test_999_seats_are_read_at_the_fewest_and_the_most(capsys, tmp_path):
    path = tmp_path / "crowd.yaml"
    path.write_text(CROWD)
    assert len(CROWD) < 600
    code, out, err, took = checked(capsys, path)
    assert code == 0 and "players: 1..999" in out, err
    assert took < 3.0  # CPU seconds (every count compiled: about two minutes)


def test_aliased_modes_compile_once(capsys, tmp_path, monkeypatch):
    import cli.check
    compiled = []
    real = cli.check.compiled
    monkeypatch.setattr(cli.check, "compiled", lambda rs, mode, **kw: compiled.append(mode) or real(rs, mode, **kw))
    path = tmp_path / "aliases.yaml"
    path.write_text(aliases(1500))
    code, out, err, took = checked(capsys, path)
    assert code == 0, err
    assert compiled == ["m0"]
    assert took < 6.0  # CPU seconds (every mode compiled: 13 s)


def test_a_name_only_the_most_players_have_is_found_at_the_fewest(capsys, tmp_path):
    path = tmp_path / "seats.yaml"
    path.write_text(CROWD.replace("1..999", "2..4").replace("  m:\n", "  m:\n    roles: [player_1, player_3]\n"))
    code, _, err, _ = checked(capsys, path)
    assert code == 2 and "unknown role 'player_3'" in err


def test_a_range_of_players_is_read_at_the_fewest_and_compiled_at_the_most(capsys, tmp_path, monkeypatch):
    """What only compiling finds is Python's bound on nesting, met where the rules grow: at the most
    players (cli/check.py); what only reading finds at the fewest is found there (the test above)."""
    import cli.check
    compiled = []
    real = cli.check.compiled
    monkeypatch.setattr(cli.check, "compiled",
                        lambda rs, mode, **kw: compiled.append(len(rs.roles)) or real(rs, mode, **kw))
    path = tmp_path / "crowd.yaml"
    path.write_text(CROWD.replace("1..999", "2..6"))
    code, _, err, _ = checked(capsys, path)
    assert code == 0, err
    assert compiled == [6]


def test_a_graph_of_9000_places_checks_in_linear_time(capsys, tmp_path):
    n = 9000
    path = tmp_path / "graph.yaml"
    path.write_text("game: big-graph\nroles: [p]\nzones:\n  rooms:\n    kind: graph\n"
                    f"    places: [{', '.join(f'p{i}' for i in range(n))}]\n    links: |\n"
                    + "".join(f"      p{i} - p{i + 1} -> p{(i * 7) % n}\n" for i in range(n - 1))
                    + "cards:\n  pawn: {count: 1}\nmodes:\n  m:\n    round:\n      - step: Play\n"
                      "        do: |\n          end game\n")
    code, out, err, took = checked(capsys, path)
    assert code == 0 and "1 zone;" in out, err
    assert took < 4.0  # CPU seconds (a list searched for every place and link: 8.7 s)


def deep(condition: str) -> str:
    """22 loops over the players inside one another, run when `condition` holds: Python allows 20."""
    loops = "".join(" " * (12 + 2 * i) + f"for p{i} in players:\n" for i in range(22)) + " " * 56 + "x += 1\n"
    return ("game: deep\nplayers: {count: 1..3}\nvars: {x: {initial: 0, text: the count}}\nmodes:\n  m:\n"
            f"    round:\n      - step: Play\n        do: |\n          if {condition}:\n{loops}          end game\n")


def test_rules_too_deep_for_python_are_found_where_they_run(capsys, tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text(deep("size(players) >= 2"))  # at the most: check finds it
    code, _, err, _ = checked(capsys, path)
    assert code == 2 and "deep.yaml:5:3: error: these rules nest too deeply to compile" in err
    # rules that only fewer players run are compiled, and the error reported, at that count (cli/check.py)
    path.write_text(deep("size(players) == 1"))
    assert checked(capsys, path)[0] == 0
    code, _, err, _ = checked(capsys, "--set", "players=1", path)
    assert code == 2 and "nest too deeply" in err
