"""The one source of chance: a splitmix64 generator whose state is an int.

An int clones for free and serialises to JSON, so a game state carries its
RNG with it. Streams are derived by name (`derive(seed, "agent:challenger")`)
with SHA-256, never with Python's per-process `hash()`, so results are the
same in every process and on every machine.
"""
from __future__ import annotations

import struct
import sys
from array import array
from typing import Callable

try:  # CPython's own SHA-256: the same digests as hashlib's (OpenSSL's), set up in half the work
    from _sha2 import sha256 as _sha256  # (3.12 on)
except ImportError:
    try:
        from _sha256 import sha256 as _sha256  # (3.11)
    except ImportError:
        from hashlib import sha256 as _sha256

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_BIG_ENDIAN = sys.byteorder == "big"
_WORDS = array("Q").itemsize == 8  # 64-bit words: every platform CPython runs on (else `_mixed` mixes one by one)


_FIRST_WORD = struct.Struct("<Q").unpack_from  # a digest's first 8 bytes, little-endian


def derive(seed: int, stream: str) -> int:
    """The state of the stream named `stream` of a game's seed: the first 8 bytes of the
    SHA-256 of `SEED/STREAM`, little-endian (derived for every game and every agent)."""
    return _FIRST_WORD(_sha256(f"{seed}/{stream}".encode()).digest())[0]


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


# The functions below are `mix` written out in place: they run at every draw of every
# game, and a call costs as much as the arithmetic (tests/test_rng.py holds them to `mix`).

def below(state: int, n: int) -> tuple[int, int]:
    """(next state, a number in [0, n))."""
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def pick(seed: int, k: int, n: int) -> int:
    """A number in [0, n) for the k-th draw of a stream: stateless, so a
    resumed game draws the same numbers as an uninterrupted one."""
    z = (seed + (k + 1) * GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return ((z ^ (z >> 31)) * n) >> 64


_WINDOW = 32  # the draws a picker or drawer mixes at once (`_mixed`)
# A picker mixes each draw alone until two come in a row, and again once a window has served fewer of its draws
# than this: players who take turns (four at a card table) each use one draw in four of a window, and a window of
# 32 costs what ten draws mixed one at a time do, so one player's window would be mostly others' numbers.
_SPARSE = 12
# (k + 1) * GOLDEN, the step a picker's k-th draw mixed alone adds to its seed, for a game's first 512 draws:
# looked up, a draw costs a twelfth less than with the product (most decisions of random players at a card
# table are drawn alone). Filled when the first picker is made, so that a process that makes none pays nothing.
_STEPS: list[int] = []


def picker(seed: int):
    """`pick` with its stream bound, as an agent's quick answer `(k, n, label) -> pick(seed, k, n)`:
    one call a decision, the numbers mixed 32 at a time while the player decides often enough to use them."""
    if not _STEPS:
        _STEPS.extend((k + 1) * GOLDEN for k in range(512))
    base = -_WINDOW - 1
    words: list[int] = []  # words[i] = mix of the state of draw base + i
    hits, last = 0, -2  # the draws the window served (none yet: alone first); the last draw mixed alone

    def answer(k: int, n: int, _label: str | None = None) -> int:
        nonlocal base, words, hits, last
        if n == 1:  # a decision with one option draws nothing (and mixes no window for it)
            return 0
        i = k - base
        if 0 <= i < 32:  # (_WINDOW, written out: this runs at every decision of a random player)
            hits += 1
            return (words[i] * n) >> 64
        if hits < _SPARSE and k != last + 1:  # `pick` written out (the same number a window would hold)
            last = k
            z = (seed + (_STEPS[k] if 0 <= k < 512 else (k + 1) * GOLDEN)) & MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            return ((z ^ (z >> 31)) * n) >> 64
        base, hits, words = k, 1, list(_mixed((seed + k * GOLDEN) & MASK, _WINDOW))
        return (words[0] * n) >> 64
    return answer


def drawer(state: int):
    """`below` as a quick answer that keeps its own state: `(draw, now)`, where
    `draw(k, n, label)` is the next `below(state, n)` number (k and label unused)
    and `now()` the state reached. One call a decision, the numbers mixed 32 at a time."""
    start, used, words, i = state, 0, None, _WINDOW

    def draw(_k, n: int, _label=None) -> int:
        nonlocal used, words, i
        if i == _WINDOW:
            words, i = _mixed((start + used * GOLDEN) & MASK, _WINDOW), 0
        w = words[i]
        i += 1
        used += 1
        return (w * n) >> 64

    def now() -> int:
        return (start + used * GOLDEN) & MASK
    return draw, now


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the next state. A deck of 8 to 1,025 cards draws
    every number at once, in lanes (see `_lanes`): twice as quick at 30 cards, the same order.
    A deck of up to 256 cards shuffled again and again swaps in code written for its size."""
    written = _WRITTEN.get(len(items))
    if written is not None:
        return written(state, items)
    m = len(items) - 1
    if not (_WORDS and 7 <= m <= 1024):  # (beyond a thousand cards the big ints outgrow the caches: no gain)
        return _shuffle_one_by_one(state, items)
    table = _SHUFFLES.get(m) or _shuffle_table(m)
    if m < 256:
        shuffled = _SHUFFLED[m] = _SHUFFLED.get(m, 0) + 1
        if shuffled == _WRITE_AFTER:
            _WRITTEN[m + 1] = _written_shuffle(m)
    return _shuffle_in_lanes(state, items, table)


# Writing a shuffle out costs about a millisecond (52 cards), what one to two thousand of its shuffles
# save: a size is written out once it has been shuffled about that often in lanes, so that a long run
# (a simulation) gains and a short one (a game, a check) pays nothing, and no run pays more than twice
# what it would have with foresight.
_WRITE_AFTER = 1000
_SHUFFLED: dict[int, int] = {}  # cards - 1 -> the shuffles of that size in lanes so far
_WRITTEN: dict[int, Callable[[int, list], int]] = {}  # cards -> `_written_shuffle` for that size


def _shuffle_in_lanes(state: int, items: list, table: tuple) -> int:
    ones, steps, masks, bits, down, advance, size = table
    s = (state * ones + steps) & masks  # `_mixed_lanes`
    z = ((s ^ (s >> 30)) & masks) * 0xBF58476D1CE4E5B9 & masks
    z = ((z ^ (z >> 27)) & masks) * 0x94D049BB133111EB & masks
    z ^= z >> 31  # (the high half of each lane is left unmasked: `lanes` below takes the low half only)
    # the swaps j = (mix * (i + 1)) >> 64 computed in the lanes too: lane k times its (i + 1) = m + 1 - k, as the
    # sum over the bits b of that number of the lanes that have it shifted by b (a product under 2^75 fits its
    # lane), leaves each j in the high half of its lane
    product = 0
    for b, lanes in bits:
        product += (z & lanes) << b
    # each j read where it lies: for a deck of up to 256 cards, the ninth byte of its lane (j < 256; quicker than
    # reading every lane as 64-bit words)
    js = product.to_bytes(size, "little")[8::16] if len(down) < 256 else _words(product, len(down))[1::2]
    for i, j in zip(down, js):
        items[i], items[j] = items[j], items[i]
    return (state + advance) & MASK


def _shuffle_one_by_one(state: int, items: list) -> int:
    mask = MASK  # a local: the loop runs for every card of every shuffle (15% quicker than the global)
    for i in range(len(items) - 1, 0, -1):
        state = (state + GOLDEN) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


_SHUFFLES: dict[int, tuple] = {}  # cards - 1 -> what `_shuffle_in_lanes` needs for a deck of that size


def _shuffle_table(m: int) -> tuple:
    ones, steps, masks, bits = _lanes(m)
    got = _SHUFFLES[m] = (ones, steps, masks, tuple(enumerate(bits)), range(m, 0, -1), (m * GOLDEN) & MASK, 16 * m)
    return got


def _written_shuffle(m: int) -> Callable[[int, list], int]:
    """`_shuffle_in_lanes` for a deck of m + 1 cards (up to 256) as straight-line code: the
    loop over the swaps costs half as much again as the swaps (the shuffle of 52 cards, 7%
    fewer instructions). Swap i (i = m down to 1) takes items[j] as the card that ends at i
    and moves items[i] to j: no later swap reads at i or above, so those cards are set at once."""
    ones, steps, masks, bits = _lanes(m)
    product = " + ".join(f"((z & BIT{b}) << {b})" for b in range(len(bits)))
    lines = [
        "def shuffle(state, items):",
        "    s = (state * ONES + STEPS) & MASKS",
        "    z = ((s ^ (s >> 30)) & MASKS) * 0xBF58476D1CE4E5B9 & MASKS",
        "    z = ((z ^ (z >> 27)) & MASKS) * 0x94D049BB133111EB & MASKS",
        "    z ^= z >> 31",  # (the high half of each lane is left unmasked: only the low half is multiplied)
        f"    {', '.join(f'j{i}' for i in range(m, 0, -1))} = ({product}).to_bytes({16 * m}, 'little')[8::16]",
        *(f"    o{i} = items[j{i}]\n    items[j{i}] = items[{i}]" for i in range(m, 0, -1)),
        f"    items[1:] = {', '.join(f'o{i}' for i in range(1, m + 1))}",
        f"    return (state + {(m * GOLDEN) & MASK}) & {MASK}",
    ]
    names: dict[str, object] = {"ONES": ones, "STEPS": steps, "MASKS": masks,
                                **{f"BIT{b}": lanes for b, lanes in enumerate(bits)}}
    exec(compile("\n".join(lines), f"<rng.shuffle of {m + 1} cards>", "exec"), names)
    written: Callable[[int, list], int] = names["shuffle"]  # type: ignore[assignment]
    return written


# The n - 1 draws of a shuffle, mixed side by side in one big int: lane k (128 bits wide,
# 64 of them used) holds the (k+1)-th state. Each product of a 64-bit lane by a 64-bit
# constant fits its lane, and every lane is masked to 64 bits before the next product, so
# no lane spills into another: lane k ends as `mix` of the (k+1)-th state, as the loop draws it.
_LANES: dict[int, tuple[int, int, int, list[int]]] = {}  # lane count -> (a 1 in each lane,
# GOLDEN * (k+1) in lane k, lane masks, and for each bit b of a shuffle's (i + 1): the lanes whose has it)


def _lanes(m: int) -> tuple[int, int, int, list[int]]:
    got = _LANES.get(m)
    if got is None:
        ones = int.from_bytes((b"\x01" + bytes(15)) * m, "little")  # a 1 at the foot of each lane
        steps = int.from_bytes(_le_words(x for k in range(m) for x in (k + 1, 0)), "little") * GOLDEN
        bits = [int.from_bytes(_le_words(x for k in range(m) for x in (MASK if (m + 1 - k) >> b & 1 else 0, 0)),
                               "little") for b in range((m + 1).bit_length())]
        got = _LANES[m] = (ones, steps, ones * MASK, bits)
    return got


def _le_words(words) -> bytes:
    a = array("Q", words)
    if _BIG_ENDIAN:
        a.byteswap()
    return a.tobytes()


def _mixed_lanes(state: int, m: int) -> int:
    """`mix` of the m states after `state` (state + GOLDEN, state + 2 GOLDEN, ...), lane k the (k+1)-th."""
    ones, steps, masks, _ = _lanes(m)
    s = (state * ones + steps) & masks
    z = ((s ^ (s >> 30)) & masks) * 0xBF58476D1CE4E5B9 & masks
    z = ((z ^ (z >> 27)) & masks) * 0x94D049BB133111EB & masks
    return (z ^ (z >> 31)) & masks


def _words(lanes: int, m: int) -> array:
    words = array("Q", lanes.to_bytes(16 * m, "little"))
    if _BIG_ENDIAN:
        words.byteswap()
    return words


def _mixed(state: int, m: int) -> array:
    """`mix` of the m states after `state` (state + GOLDEN, state + 2 GOLDEN, ...), as 64-bit words."""
    if not _WORDS:
        return [mix((state + (k + 1) * GOLDEN) & MASK) for k in range(m)]
    return _words(_mixed_lanes(state, m), m)[::2]  # the low half of each lane
