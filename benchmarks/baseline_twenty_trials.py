"""Twenty Trials, Challenger mode, written by hand in plain Python.

The yardstick for the interpreter's speed. It plays the same rules as
`rulesets/twenty-trials.yaml` (without modifiers, the configuration the
benchmark uses) with the same random generator, the same card order and the
same order of options, and its random player draws the same numbers as the
interpreter's `random` agent, so for a given seed both play the same game
move for move. `tests/test_baseline_agreement.py` holds them to that.
"""
from __future__ import annotations

from interpreter.runtime.rng import derive, picker, shuffle

TRIALS = ([("strength", v) for v in (9, 10, 11, 12, 13)] + [("stealth", v) for v in (5, 6, 7, 8, 9)]
          + [("precision", v) for v in (2, 4, 6, 8)] + [("balance", v) for v in (0, 1, 2)]
          + [("versatility", v) for v in (4, 5, 6)])
ACTIONS = [1, 4, 6, 7, 2, 3, 5, 8, 2, 3, 5, 8, 1, 4, 6, 7]  # values, in the ruleset's table order


def meets(kind: str, value: int, x: int, y: int) -> bool:
    if kind == "strength":
        return x + y >= value
    if kind == "stealth":
        return x + y <= value
    if kind == "precision":
        return x + y == value or abs(x - y) == value
    if kind == "balance":
        return abs(x - y) <= value
    return abs(x - y) >= value


def play(seed: int) -> dict:
    """One game with a uniformly random Challenger; the outcome as the interpreter reports it."""
    state = derive(seed, "game")
    pick = picker(derive(seed, "agent:challenger"))  # the project's quickest way to draw them
    decisions = 0
    trial_deck = list(range(20))
    state = shuffle(state, trial_deck)
    deck = list(range(16))  # action card ids; values in ACTIONS
    state = shuffle(state, deck)
    hand: list[int] = []
    discard: list[int] = []
    refreshes = 2
    for round_ in range(1, 21):
        while len(hand) < 4 and deck:
            hand.append(deck.pop())
        kind, value = TRIALS[trial_deck.pop()]
        while True:
            pairs = [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]
                     if meets(kind, value, ACTIONS[a], ACTIONS[b])]
            if pairs:
                break
            if deck:
                hand.append(deck.pop())
                discard.append(hand.pop(pick(decisions, len(hand))))
                decisions += 1
            elif refreshes:
                refreshes -= 1
                deck, discard = discard, []
                state = shuffle(state, deck)
                for _ in range(4):
                    if deck:
                        hand.append(deck.pop())
            else:
                return {"result": "lose", "reason": "exhausted", "score": len(hand) + len(deck),
                        "rounds": round_, "decisions": decisions}
        a, b = pairs[pick(decisions, len(pairs))]
        decisions += 1
        hand.remove(a)
        hand.remove(b)
        discard += (a, b)
    return {"result": "win", "reason": "finished", "score": len(hand) + len(deck),
            "rounds": 20, "decisions": decisions}
