"""How long printing a 60-card deck takes: all sheets, fronts and backs.

    python benchmarks/bench_card_sheets.py [--runs 5]

The deck is made here: 60 cards of three types (numbers, icons and a line of
rules text each), printed as poker cards on A4 with crop marks and backs,
3 mm bleed (the slowest case: the most pages). Each run times the whole
command in a fresh process, as a user meets it (loading the ruleset and
WeasyPrint included), and the median is reported. The goal: under 5 s.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DECK = """\
game: bench-deck
title: Benchmark Deck
roles: [player]
types:
  suit: {values: [sun, moon, heart, spade, star, shield], icons: true}
cards:
  soldier:
    text: Attack a neighbouring space. If you win, draw a card; otherwise discard one.
    fields: {rank: 1..10, suit: suit}
    label: "{rank} {suit}"
    back: Army
    table: |
      rank suit
%s
  spell:
    text: Every other player discards a card of this suit, or loses 2 health.
    fields: {suit: suit}
    back: Army
    table: |
      suit
%s
  event:
    text: The start player changes. Shuffle the discard pile into the deck.
    count: 6
zones:
  deck: {facing: down}
modes:
  play:
    round:
      - step: Draw
        do: |
          move top(deck) to deck
"""


def deck_text() -> str:
    suits = ["sun", "moon", "heart", "spade", "star", "shield"]
    soldiers = "\n".join(f"      {r:<4} {s}" for s in suits[:4] for r in range(1, 11))  # 40
    spells = "\n".join(f"      {s}" for s in suits for _ in range(2)) + "\n" + \
        "\n".join(f"      {s}" for s in suits[:2])  # 14
    return DECK % (soldiers, spells)  # + 6 events = 60 cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ruleset = Path(tmp) / "bench-deck.yaml"
        ruleset.write_text(deck_text())
        check = subprocess.run([sys.executable, "-m", "cli", "check", str(ruleset)], cwd=ROOT,
                               capture_output=True, text=True)
        print(check.stdout.strip() or check.stderr)
        cases = {
            "fronts only, no bleed": [],
            "fronts + backs, 3 mm bleed, crop marks": ["--backs", "--bleed", "3", "--crop-marks"],
        }
        for name, extra in cases.items():
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                r = subprocess.run([sys.executable, "-m", "cli", "cards", str(ruleset), "-o",
                                    str(Path(tmp) / "deck.pdf"), *extra], cwd=ROOT, capture_output=True, text=True)
                times.append(time.perf_counter() - start)
                if r.returncode != 0:
                    sys.exit(r.stderr)
            print(f"{name:42} median {statistics.median(times):.2f} s  (min {min(times):.2f}, "
                  f"max {max(times):.2f}, {args.runs} runs)  {r.stdout.strip()}")


if __name__ == "__main__":
    main()
