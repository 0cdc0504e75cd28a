"""The counter-based random streams of kernels/rng.py in plain Python: every game's pure-Python
reference draws from these, so it plays the kernel's games draw for draw.

Same arithmetic as kernels/rng.py, on Python ints masked to 64 bits: draw i (from 1) of the
stream (seed, game, purpose) is mix64(key + i * GOLDEN), key = stream_key(seed, game, purpose).
"""

from __future__ import annotations

__all__ = ["GOLDEN", "Stream", "mix64", "stream_key"]

U64 = 0xFFFF_FFFF_FFFF_FFFF
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64 finaliser."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & U64
    return z ^ (z >> 31)


def stream_key(seed: int, game: int, purpose: int) -> int:
    a = mix64((seed + GOLDEN) & U64)
    b = mix64(a ^ ((game * GOLDEN) & U64))
    return mix64((b + (purpose + 1) * GOLDEN) & U64)


class Stream:
    """Draw i (from 1) of a stream is mix64(key + i * GOLDEN)."""

    def __init__(self, seed: int, game: int, purpose: int):
        self.key = stream_key(seed, game, purpose)
        self.count = 0

    def next_u64(self) -> int:
        self.count += 1
        return mix64((self.key + self.count * GOLDEN) & U64)

    def below(self, n: int) -> int:
        """Integer in [0, n)."""
        return self.next_u64() % n
