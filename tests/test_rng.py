"""The generator's draws: `pick`, `picker`, `below` and `shuffle` write `mix` out in place
(for speed); they must draw exactly what the plain composition draws, and the
numbers themselves never change (saved games and logs replay on them)."""
from interpreter.runtime import rng


def reference_pick(seed, k, n):
    return (rng.mix((seed + (k + 1) * rng.GOLDEN) & rng.MASK) * n) >> 64


def reference_shuffle(state, items):
    for i in range(len(items) - 1, 0, -1):
        state = (state + rng.GOLDEN) & rng.MASK
        j = (rng.mix(state) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


def test_draws_are_mix_composed():
    for seed in (0, 1, rng.MASK, rng.derive(7, "game"), rng.derive(7, "agent:challenger")):
        for k in (-1, 0, 1, 5, 511, 512, 1000):  # (a picker looks up the first 512 draws' steps)
            for n in (1, 2, 7, 1 << 62):
                assert rng.pick(seed, k, n) == reference_pick(seed, k, n)
                assert rng.picker(seed)(k, n, "label") == reference_pick(seed, k, n)
                state = (seed + rng.GOLDEN) & rng.MASK
                assert rng.below(seed, n) == (state, (rng.mix(state) * n) >> 64)
                draw, now = rng.drawer(seed)
                assert (draw(k, n, "label"), draw(k, n)) == (rng.below(seed, n)[1], rng.below(state, n)[1])
                assert now() == rng.below(state, n)[0]
    for seed in (0, rng.MASK, rng.derive(7, "agent:challenger")):  # across the windows they mix at once
        answer, (draw, now), state = rng.picker(seed), rng.drawer(seed), seed
        for k in (*range(100), 5, 1000, 999, 1031, 0):
            assert answer(k, 1 + k % 9) == reference_pick(seed, k, 1 + k % 9)
        # a player taking turns with others (one draw in four, then in seven): mixed one at a time, then windows again
        answer = rng.picker(seed)
        for k in (*range(0, 200, 4), *range(200, 400, 7), 1, 2, *range(400, 470), 403, 7):
            assert answer(k, 2 + k % 9) == reference_pick(seed, k, 2 + k % 9)
        for k in range(100):
            state, number = rng.below(state, 1 + k % 9)
            assert draw(None, 1 + k % 9) == number and now() == state
        for size in (*range(20), 30, 31, 52, 200, 1025, 1026):  # 8 to 1,025 cards all at once, others one at a time
            mine, theirs = list(range(size)), list(range(size))
            assert rng.shuffle(seed, mine) == reference_shuffle(seed, theirs)
            assert mine == theirs


def test_draws_are_pinned():
    seed = rng.derive(3, "game")
    assert seed == int.from_bytes(__import__("hashlib").sha256(b"3/game").digest()[:8], "little")
    deck = list(range(10))
    rng.shuffle(seed, deck)
    assert [rng.pick(seed, k, 100) for k in range(5)] == PICKS
    assert deck == DECK


PICKS = [93, 41, 94, 5, 35]  # drawn by the code before `mix` was written out
DECK = [1, 5, 4, 6, 8, 2, 0, 7, 3, 9]


def test_shuffles_match_the_plain_loop_at_random():
    """Random states and deck sizes, across where `shuffle` reads its swaps by bytes (up to
    256 cards) and by words (to 1,025), and one at a time beyond: the permutation of the loop."""
    import random
    chosen = random.Random(36)
    sizes = [*range(2, 12), 255, 256, 257, 258, 1025, 1026] + [chosen.randrange(2, 600) for _ in range(40)]
    for size in sizes:
        state = chosen.getrandbits(64)
        mine = chosen.sample(range(10 * size), size)
        theirs = mine[:]
        assert rng.shuffle(state, mine) == reference_shuffle(state, theirs), size
        assert mine == theirs, size


def test_written_shuffles_match_the_plain_loop():
    """A deck size shuffled often is written out as straight-line code (`_written_shuffle`, up to
    256 cards): the permutation and the state of the loop, at random sizes and states; `shuffle`
    itself changes to it after `_WRITE_AFTER` shuffles of a size and draws the same throughout."""
    import random
    chosen = random.Random(3636)
    for size in [8, 9, 52, 255, 256] + [chosen.randrange(8, 257) for _ in range(12)]:
        written = rng._written_shuffle(size - 1)
        for _ in range(20):
            state = chosen.getrandbits(64)
            mine = chosen.sample(range(10 * size), size)
            theirs = mine[:]
            assert written(state, mine) == reference_shuffle(state, theirs), size
            assert mine == theirs, size
    size = 23
    rng._WRITTEN.pop(size, None)  # (as if never shuffled before)
    rng._SHUFFLED.pop(size - 1, None)
    mine, theirs, state = list(range(size)), list(range(size)), 7
    for _ in range(rng._WRITE_AFTER + 2):
        state, before = rng.shuffle(state, mine), state
        assert state == reference_shuffle(before, theirs) and mine == theirs
    assert size in rng._WRITTEN


def test_pickers_match_pick_at_random():
    """A picker's numbers whatever the order it is asked in: draws in a row (windows), one in
    two, three or four (players taking turns: alone), jumps, repeats, one-option decisions."""
    import random
    chosen = random.Random(4242)
    for _ in range(30):
        seed, k = chosen.getrandbits(64), chosen.randrange(-3, 50)
        answer = rng.picker(seed)
        for _ in range(300):
            k = max(-1, k + chosen.choice((1, 1, 2, 3, 4, 4, 5, 0, -2, 40)))
            n = chosen.choice((1, 2, 3, 13, 52, 1 << 40))
            assert answer(k, n, "label") == reference_pick(seed, k, n)
