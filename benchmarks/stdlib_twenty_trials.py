"""Twenty Trials, Challenger mode, as a Python programmer would write it apart from this project.

The second yardstick: no import from the project, the standard library's
`random.Random(seed)` (C code) for shuffles and choices, idiomatic Python.
It plays the rules of `rulesets/twenty-trials.yaml` without modifiers (its
rulings 1-5) with a uniformly random Challenger, but not the same games as
the interpreter for a seed: `tests/test_baseline_agreement.py` checks that
its outcomes (win rate, mean rounds and score) agree with the interpreter's
within their confidence intervals instead.
"""
from __future__ import annotations

import random
from itertools import combinations

TRIALS = ([("strength", v) for v in (9, 10, 11, 12, 13)] + [("stealth", v) for v in (5, 6, 7, 8, 9)]
          + [("precision", v) for v in (2, 4, 6, 8)] + [("balance", v) for v in (0, 1, 2)]
          + [("versatility", v) for v in (4, 5, 6)])
ACTIONS = [1, 2, 3, 4, 5, 6, 7, 8] * 2  # the action cards' values; icons play no part without modifiers
HAND = 4
REFRESHES = 2

MEETS = {
    "strength": lambda v, a, b: a + b >= v,
    "stealth": lambda v, a, b: a + b <= v,
    "precision": lambda v, a, b: a + b == v or abs(a - b) == v,
    "balance": lambda v, a, b: abs(a - b) <= v,
    "versatility": lambda v, a, b: abs(a - b) >= v,
}


def play(seed: int) -> dict:
    """One game with a uniformly random Challenger."""
    rng = random.Random(seed)
    trials = TRIALS[:]
    rng.shuffle(trials)
    deck = ACTIONS[:]
    rng.shuffle(deck)
    hand: list[int] = []
    discard: list[int] = []
    refreshes = REFRESHES
    decisions = 0
    for round_ in range(1, len(TRIALS) + 1):
        while len(hand) < HAND and deck:
            hand.append(deck.pop())
        kind, value = trials.pop()
        meets = MEETS[kind]
        while not (pairs := [p for p in combinations(range(len(hand)), 2)
                             if meets(value, hand[p[0]], hand[p[1]])]):
            if deck:  # draw one, then discard one (the drawn one may go)
                hand.append(deck.pop())
                discard.append(hand.pop(rng.randrange(len(hand))))
                decisions += 1
            elif refreshes:
                refreshes -= 1
                deck, discard = discard, []
                rng.shuffle(deck)
                hand += deck[-HAND:][::-1]
                del deck[-HAND:]
            else:
                return {"result": "lose", "reason": "exhausted", "score": len(hand) + len(deck),
                        "rounds": round_, "decisions": decisions}
        i, j = rng.choice(pairs)
        decisions += 1
        discard += (hand[i], hand[j])
        del hand[j], hand[i]  # j > i
    return {"result": "win", "reason": "finished", "score": len(hand) + len(deck),
            "rounds": len(TRIALS), "decisions": decisions}
