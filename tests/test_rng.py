"""Counter-based random streams (kernels/rng.py) and their pure-Python twin (analyzer/rng_reference.py)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.rng_reference import Stream
from kernels import rng as krng
from kernels.rng import PURPOSE_DECK, next_u64, stream_init, uniform_int


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 2**40), purpose=st.integers(0, 1),
       n=st.integers(1, 64))
def test_streams_match_kernel(seed, game, purpose, n):
    stream = np.zeros(2, np.uint64)
    krng.stream_init(stream, seed, game, purpose)
    mine = Stream(seed, game, purpose)
    assert int(stream[0]) == mine.key
    for _ in range(5):
        assert krng.uniform_int(stream, n) == mine.below(n)


def test_streams_are_counter_based_and_distinct():
    a = np.zeros(2, np.uint64)
    b = np.zeros(2, np.uint64)
    stream_init(a, 1, 0, PURPOSE_DECK)
    stream_init(b, 1, 1, PURPOSE_DECK)
    xs = [next_u64(a) for _ in range(5)]
    ys = [next_u64(b) for _ in range(5)]
    assert len(set(xs) | set(ys)) == 10
    stream_init(a, 1, 0, PURPOSE_DECK)
    assert [next_u64(a) for _ in range(5)] == xs  # same key, same counter -> same numbers


def test_uniform_int_is_uniform():
    s = np.zeros(2, np.uint64)
    stream_init(s, 123, 0, 0)
    counts = np.bincount([uniform_int(s, 6) for _ in range(60_000)], minlength=6)
    from scipy.stats import chisquare
    assert chisquare(counts).pvalue > 1e-4
