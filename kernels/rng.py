"""Counter-based random streams (SplitMix64 outputs of a per-stream key).

Every game owns one stream per purpose: draw i of stream (seed, game, purpose) is
``mix64(key + (i + 1) * GOLDEN)`` with ``key = stream_key(seed, game, purpose)``.
Nothing depends on threads, chunks or machines, and two policies run on the same
(seed, game) see the same deck (common random numbers) because the deck has its own
purpose. A stream is a uint64[2] array: [key, draws so far].

`stream_init` and `uniform_int` are compiled on their own and called: merged into their callers,
they made numba type the chain of helpers inside them again at every call site (Beacon's greedy
kernel: 1.8 s less compile over 6 paired runs, the same games). LLVM still inlines the calls. A
literal argument (a `PURPOSE_*` constant) compiles them once more per value, so the Beacon
kernels pass `np.int64(PURPOSE_...)`; the Seafarers kernels pay one small compilation per purpose.
"""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

# Purposes: separate streams so that what one consumes never shifts another.
PURPOSE_DECK = 0
PURPOSE_POLICY = 1
PURPOSE_DICE = 2  # Seafarers: the (d1, d2) pairs of a roll sequence
PURPOSE_BATTLE = 3  # Seafarers: fortress defence dice of single battles (blocks)
PURPOSE_STEAL = 4  # Seafarers: which card a robber steal takes
PURPOSE_SIEGE = 5  # Seafarers: the battles of one fortress siege
PURPOSE_BOARD = 6  # Seafarers: the deal of one random board (terrains, numbers, harbours)
PURPOSE_HARBOURS = 8  # Seafarers: the face-down stack of harbour tokens the players lay (New World)


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijection on uint64 with full avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def stream_key(seed, game, purpose):
    a = mix64(np.uint64(seed) + GOLDEN)
    b = mix64(a ^ (np.uint64(game) * GOLDEN))
    return mix64(b + np.uint64(purpose + 1) * GOLDEN)


@njit(cache=True)
def stream_init(stream, seed, game, purpose):
    stream[0] = stream_key(seed, game, purpose)
    stream[1] = np.uint64(0)


@njit(cache=True, inline="always")
def next_u64(stream):
    stream[1] += np.uint64(1)
    return mix64(stream[0] + stream[1] * GOLDEN)


@njit(cache=True)
def uniform_int(stream, n):
    """Integer in [0, n); modulo bias is below 2**-57 for the small n used here."""
    return np.int64(next_u64(stream) % np.uint64(n))
