"""Benchmark: what hostile command lines cost before they are refused.

    python benchmarks/bench_hostile_cli.py [--repeat N]

Each case (a variant whose `extends:` names a file it should not read,
special and huge files, numbers without end, escape sequences, outputs that
are inputs, card templates that write what cannot be shown, simulations that
fail) runs `rulelang` as a fresh process, the way tests/test_hostile_cli.py
and tests/test_untrusted_templates.py do. The process's wall time (Python's
start included: the baseline shows it) and peak resident memory (its own,
from wait4) are reported with its exit code and the first line it printed on
standard error. Prints a Markdown table (medians of N runs) for
docs/reliability.md.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "rulesets" / "twenty-trials.yaml"
sys.path.insert(0, str(ROOT / "tests"))

from test_language import DUEL  # noqa: E402

AGENTS = """
import sys
from interpreter.agents import register
from interpreter.agents.base import Agent
class Exiting(Agent):
    def __init__(self, seed, role): pass
    def choose(self, view): sys.exit(0)
register("exiting", Exiting)
"""


def variant(tmp: Path, ref: str) -> str:
    path = tmp / f"v{abs(hash(ref))}.yaml"
    path.write_text(f"extends: {ref}\ngame: v\n")
    return str(path)


def titled(tmp: Path, title: str) -> str:
    path = tmp / f"t{abs(hash(title))}.yaml"
    path.write_text(BUNDLED.read_text().replace('title: "Gauntlet: The Twenty Trials"', f'title: "{title}"'))
    return str(path)


def templated(tmp: Path, *lines: str, text: str = "") -> str:
    body = "".join(f"      {line}\n" for line in ('{% extends "card.svg.j2" %}', *lines))
    path = tmp / f"c{abs(hash(body + text))}.yaml"
    rules = DUEL.replace("  number:\n", "  number:\n    template: |\n" + body)
    if text:
        rules = rules.replace('    label: "{rank}"\n', f'    label: "{{rank}}"\n    text: "{text}"\n')
    path.write_text(rules)
    return str(path)


def sparse(tmp: Path, name: str) -> str:
    path = tmp / name
    with open(path, "wb") as f:
        f.truncate(10**9)
    return str(path)


def cases(tmp: Path) -> list:
    """(input, what it is, the command line, stdout to /dev/full)"""
    (tmp / "config.yaml").write_text("aws_secret: xyz\n")
    os.mkfifo(tmp / "fifo.yaml")
    (tmp / "out.yaml").symlink_to("/etc/passwd")
    agents = tmp / "agents.py"
    agents.write_text(AGENTS)
    (tmp / "random.py").write_text("from interpreter.agents import register\nregister('random', object)\n")
    log = tmp / "log.jsonl"
    subprocess.run([sys.executable, "-m", "cli", "run", str(BUNDLED), "--log", str(log)], cwd=ROOT, check=True,
                   capture_output=True)
    lines = log.read_text().splitlines()
    head = lines[0].replace(str(BUNDLED), "/proc/self/environ").replace('"ruleset": "twenty-trials"',
                                                                        '"ruleset": "my-rules"')
    (tmp / "environ.jsonl").write_text("\n".join([head, *lines[1:]]) + "\n")
    rows = tmp / "rows.csv"
    subprocess.run([sys.executable, "-m", "cli", "simulate", "twenty-trials", "--games", "1000", "--out", str(rows)],
                   cwd=ROOT, check=True, capture_output=True)
    text = rows.read_text().splitlines()
    text[500] = text[500].replace(",lose,", ",win,", 1)
    (tmp / "forged.csv").write_text("\n".join(text) + "\n")
    simulate = ["simulate", "twenty-trials", "--games"]
    return [
        ("(baseline)", "`check twenty-trials`", ["check", "twenty-trials"], False),
        ("extends: /etc/passwd", "a variant naming a file outside its folder", ["check", variant(tmp, "/etc/passwd")], False),
        ("extends: /proc/self/environ", "the environment (keys in CI)", ["check", variant(tmp, "/proc/self/environ")], False),
        ("extends: ../../…/etc/hostname", "a `../` chain", ["check", variant(tmp, "../" * 12 + "etc/hostname")], False),
        ("extends: a link out", "a link beside the variant to /etc/passwd", ["check", variant(tmp, "out.yaml")], False),
        ("extends: config.yaml", "YAML with keys beside the variant, no `game:`", ["check", variant(tmp, "config.yaml")],
         False),
        ("extends: a FIFO", "a pipe nobody writes (reading it blocks for ever)", ["check", variant(tmp, "fifo.yaml")],
         False),
        ("check /dev/zero", "a device that never ends", ["check", "/dev/zero"], False),
        ("run --resume /dev/zero", "", ["run", "twenty-trials", "--resume", "/dev/zero"], False),
        ("replay /dev/zero", "", ["replay", "/dev/zero"], False),
        ("run --resume HUGE", "a 1 GB (sparse) save", ["run", "twenty-trials", "--resume", sparse(tmp, "save.json")],
         False),
        ("--agents-from HUGE", "a 1 GB (sparse) agents file", ["run", "twenty-trials", "--agents-from",
                                                              sparse(tmp, "agents-huge.py")], False),
        ("replay, header path /proc/self/environ", "a log naming a file to open", ["replay", str(tmp / "environ.jsonl")],
         False),
        ("--games 99999999999999999999999", "", [*simulate, "99999999999999999999999"], False),
        ("--seed of 4,300 digits", "", [*simulate, "5", "--seed", "9" * 4300], False),
        ("--decision-timeout inf", "", ["run", "twenty-trials", "--decision-timeout", "inf"], False),
        ("mcts:c=nan", "", ["run", "twenty-trials", "--agent", "challenger=mcts:c=nan"], False),
        ("--stop-at -3", "", ["run", "twenty-trials", "--stop-at", "-3"], False),
        ("--log-as without --log", "", ["run", "twenty-trials", "--log-as", "challenger"], False),
        ("--log RULESET", "an output that is an input", ["run", str(BUNDLED), "--log", str(BUNDLED)], False),
        ("stdout to /dev/full", "`run twenty-trials > /dev/full`", ["run", "twenty-trials"], True),
        ("--log /dev/full", "", ["run", "twenty-trials", "--log", "/dev/full"], False),
        ("title with ESC ]0; … BEL", "an escape sequence in ruleset text", ["check", titled(tmp, "\\e]0;pwned\\a")],
         False),
        ("title with U+202E", "a bidi override (printable YAML)", ["check", titled(tmp, "Gauntlet \u202eX")], False),
        ("template writes <script>", "and onload=, javascript:, file: links",
         ["cards", templated(tmp, "{% block art %}<script>alert(1)</script><rect onload='x' width='1' height='1'/>"
                                  "<image href='file:///etc/passwd'/>{% endblock %}"),
          "-o", str(tmp / "svg"), "--format", "svg"], False),
        ("template macro calls itself", "", ["cards", templated(tmp, "{% macro m() %}{{ m() }}{% endmacro %}",
                                                                "{% block art %}{{ m() }}{% endblock %}"),
                                             "-o", str(tmp / "a.html")], False),
        ("template writes malformed SVG", "`<g>` never closed", ["cards", templated(tmp, "{% block art %}<g>{% endblock %}"),
                                                               "-o", str(tmp / "b.html")], False),
        ("card text of 750 KB", "", ["cards", templated(tmp, text="lorem " * 125_000), "-o", str(tmp / "c.html")],
         False),
        ("every game fails", "an agent that calls sys.exit(), 1,000 games",
         [*simulate, "1000", "--jobs", "1", "--agents-from", str(agents), "--agent", "challenger=exiting"], False),
        ("plug-in registers `random`", "", ["run", "twenty-trials", "--agents-from", str(tmp / "random.py")], False),
        ("a forged middle row", "row 500 of 1,000 changed, `--resume`",
         [*simulate, "2000", "--out", str(tmp / "forged.csv"), "--resume"], False),
    ]


WATCH_LOOP = """game: watchloop
title: Watch loop
roles: [solo]
vars: {x: 0, y: 0}
modes:
  standard:
    round:
      - step: Count
        do: |
          x += 1
          if x > 5:
            end game
    watch:
      - when: x >= 0
        do: x += 1
"""

SQUARES = """game: squares
title: Squares
roles: [solo]
vars: {x: 2}
modes:
  standard:
    round:
      - step: Grow
        do: |
          repeat 40 times:
            x = x * x
          end game
    score:
      solo: x
"""


def round_two(tmp: Path) -> list:
    """Issue 20, round two: watches, numbers, options over hidden cards, tampered saves and logs."""
    import json

    from test_secrets import BLIND_CHOICES, TELLING

    from interpreter.engine.saves import _check
    files = {"watch.yaml": WATCH_LOOP,
             "mutual.yaml": WATCH_LOOP.replace("      - when: x >= 0\n        do: x += 1\n",
                                               "      - when: y == 0\n        do: y = 1\n"
                                               "      - when: y == 1\n        do: y = 0\n"),
             "squares.yaml": SQUARES,
             "score.yaml": SQUARES.replace("repeat 40 times:\n            x = x * x\n", "x = 999999999999999999\n")
                                  .replace("solo: x", "solo: x * x * x"),
             "blind.yaml": BLIND_CHOICES, "telling.yaml": TELLING}
    for name, text in files.items():
        (tmp / name).write_text(text)
    save = tmp / "save.json"
    subprocess.run([sys.executable, "-m", "cli", "run", "twenty-trials", "--seed", "4", "--stop-at", "5", "--save",
                    str(save)], cwd=ROOT, check=True, capture_output=True)
    data = json.loads(save.read_text())
    data["answers"][2] = 99
    data["check"] = _check(data)
    (tmp / "edited.json").write_text(json.dumps(data))
    data["answers"][2] = 0
    (tmp / "unchecked.json").write_text(json.dumps(data))
    (tmp / "state.json").write_text(json.dumps({"format": "rulelang-state/1", "state": {"zones": [[0, 0]]}}))
    (tmp / "deep.json").write_text(save.read_text().replace('"agents": {', '"x": ' + "[" * 100_000 + "]" * 100_000
                                                            + ', "agents": {'))
    log = tmp / "log.jsonl"
    subprocess.run([sys.executable, "-m", "cli", "run", "twenty-trials", "--seed", "2", "--log", str(log)], cwd=ROOT,
                   check=True, capture_output=True)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    records[1]["choice"] = "0"
    (tmp / "choice.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    resume = ["run", "twenty-trials", "--resume"]
    return [
        ("a watch that sets itself off", "`when: x >= 0  do: x += 1`, the default step limit",
         ["run", str(tmp / "watch.yaml")], False),
        ("the same, `--step-limit 100`", "", ["run", str(tmp / "watch.yaml"), "--step-limit", "100"], False),
        ("two watches that set each other off", "", ["run", str(tmp / "mutual.yaml")], False),
        ("check of the watch", "a warning, exit 0", ["check", str(tmp / "watch.yaml")], False),
        ("`x = x * x` forty times", "from 2", ["run", str(tmp / "squares.yaml")], False),
        ("the same, `--limit number_digits=4000`", "", ["run", str(tmp / "squares.yaml"), "--limit",
                                                        "number_digits=4000"], False),
        ("a score of 54 digits", "`x * x * x`, x of 18 digits", ["run", str(tmp / "score.yaml")], False),
        ("choices over hidden cards", "a face-down bag, another's hand: `--log-as alice`",
         ["run", str(tmp / "blind.yaml"), "--log", str(tmp / "alice.jsonl"), "--log-as", "alice"], False),
        ("options that tell", "`where g.value > 3` over the bag: check warns", ["check", str(tmp / "telling.yaml")],
         False),
        ("a save: answer past the options", "the check made again", [*resume, str(tmp / "edited.json")], False),
        ("a save: an answer changed", "the check not made again", [*resume, str(tmp / "unchecked.json")], False),
        ("a save of the old format", "a game state", [*resume, str(tmp / "state.json")], False),
        ("a save: JSON 100,000 deep", "", [*resume, str(tmp / "deep.json")], False),
        ("a log: `\"choice\": \"0\"`", "", ["replay", str(tmp / "choice.jsonl")], False),
    ]


# rulelang, reporting its own peak resident memory (VmHWM) as it exits: the
# rusage of a child would count the parent's pages it started with
CHILD = """
import atexit, sys
path = sys.argv[1]
def peak():
    with open("/proc/self/status") as f, open(path, "w") as out:
        out.write(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
atexit.register(peak)
from cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def measure(args: list[str], full: bool) -> tuple[float, float, int, str]:
    with tempfile.NamedTemporaryFile() as peak, open("/dev/full" if full else os.devnull, "w") as out:
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", CHILD, peak.name, *args], cwd=ROOT, stdout=out,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=300)
        seconds = time.perf_counter() - start
        rss = int(open(peak.name).read() or "nan") / 1024
    first = next((line for line in proc.stderr.splitlines() if line.strip() and not line.startswith("usage:")
                  and not line.startswith(" ")), "")
    return seconds, rss, proc.returncode, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--round-two", action="store_true", help="only issue 20's second round of cases")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print("| input | what it is | exit code | time (s) | peak memory (MB) | first line of the message |")
        print("|---|---|---|---|---|---|")
        chosen = round_two(Path(tmp)) if options.round_two else cases(Path(tmp)) + round_two(Path(tmp))
        for name, what, args, full in chosen:
            runs = [measure(args, full) for _ in range(options.repeat)]
            seconds = statistics.median(r[0] for r in runs)
            rss = statistics.median(r[1] for r in runs)
            message = runs[0][3].replace(tmp, "…").replace("|", "\\|")
            message = message if len(message) <= 90 else message[:87] + "…"
            print(f"| {name} | {what} | {runs[0][2]} | {seconds:.2f} | {rss:.0f} | {message} |", flush=True)


if __name__ == "__main__":
    main()
