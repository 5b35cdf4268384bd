"""Oh Hell, as a Python programmer would write it apart from this project.

The yardstick for a trick-taking game: no import from the project, the
standard library's `random.Random(seed)` (C code), plain lists and ints. It
plays the rules of `rulesets/examples/oh-hell.yaml` (a first dealer at
random; hands of `hands`, `hands - 1`, ... 1 cards; a card turned up for
trumps; bids with the dealer's hook; follow suit; highest trump, else highest
of the suit led; a point a trick, ten more for an exact bid; ranked by points,
then by exact bids) with uniformly random players, but not the same games as
the interpreter for a seed: `benchmarks/bench_oh_hell.py` checks that its
outcomes have the interpreter's distribution instead.

Cards are ints 0..51: suit `c // 13` in the ruleset's order, value `c % 13 + 2`.
A hand deals only the cards it uses (`random.sample`), as a card player's
simulator would: the deck's order past them is never seen.
"""
from __future__ import annotations

import random

DECK = range(52)


SUITS = ("spades", "hearts", "diamonds", "clubs")


def lowest(card: int) -> tuple[int, str]:
    """The order steady players play in: by value, then by the suit's name."""
    return card % 13, SUITS[card // 13]


def share(size: int, players: int):
    """The order steady players bid in: nearest their share of the tricks, the lower first."""
    return lambda bid: (abs(bid * players - size), bid)


def play(seed: int, players: int = 4, hands: int = 5, steady: bool = False) -> dict:
    """One game; the outcome as the interpreter reports it: each seat's points and exact bids, the places.
    Players choose at random; `steady` ones bid their share of the tricks and play their lowest card
    (a game fixed by its deal, which tells rules apart that random play blurs: following suit, the hook)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    points = [0] * players
    exact = [0] * players
    dealer = randrange(players)
    for size in range(hands, 0, -1):
        dealt = rng.sample(DECK, size * players + 1)
        trump = dealt[-1] // 13
        first = (dealer + 1) % players
        order = [(first + i) % players for i in range(players)]
        # dealt one at a time from the left of the dealer: player order[i] gets dealt[i::players]
        held = [None] * players
        for i, p in enumerate(order):
            held[p] = dealt[i:size * players:players]
        bids = [0] * players
        for p in order:
            allowed = range(size + 1)
            if p == dealer:
                hook = size - sum(bids)
                allowed = [b for b in allowed if b != hook]
            bids[p] = min(allowed, key=share(size, players)) if steady else allowed[randrange(len(allowed))]
        tricks = [0] * players
        leader = first
        for _ in range(size):
            led = -1
            best = best_strength = -1
            for i in range(players):
                p = (leader + i) % players
                hand = held[p]
                if led >= 0:
                    follow = [c for c in hand if c // 13 == led]
                    options = follow or hand
                else:
                    options = hand
                if steady:
                    card = min(options, key=lowest)
                else:
                    card = options[randrange(len(options))] if len(options) > 1 else options[0]
                hand.remove(card)
                suit = card // 13
                if led < 0:
                    led = suit
                strength = card % 13 + (40 if suit == trump else 20 if suit == led else 0)
                if strength > best_strength:
                    best, best_strength = p, strength
            leader = best
            tricks[best] += 1
        for p in range(players):
            points[p] += tricks[p]
            if tricks[p] == bids[p]:
                points[p] += 10
                exact[p] += 1
        dealer = (dealer + 1) % players
    return {"points": points, "exact": exact, "places": places(points, exact)}


def places(points: list[int], exact: list[int]) -> list[int]:
    """Each seat's place: 1 + the seats ranked strictly ahead (higher points, then more exact bids)."""
    keys = list(zip(points, exact))
    return [1 + sum(k > mine for k in keys) for mine in keys]
