"""Seafarers dice: the pair (d1, d2) from one draw, exact laws of the sum and the lower die, gaps, CLI."""

import json
import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from analyzer.cli import main
from analyzer.seafarers import reference as ref
from analyzer.seafarers.dice import LOW_P, MEAN_LOW, SUM_P, join_longest_gaps, roll_stats
from kernels.catan import dice as kd
from kernels.rng import PURPOSE_DICE, stream_init

PAIRS = list(product(range(1, 7), repeat=2))


@njit(cache=True)
def joint_counts(seed, sequence, n, out):
    """out[sum, lower die] over n rolls of one sequence."""
    stream = np.zeros(2, np.uint64)
    stream_init(stream, seed, sequence, PURPOSE_DICE)
    for _ in range(n):
        s, low = kd.roll_dice(stream)
        out[s, low] += 1


def test_exact_laws_are_the_enumeration_of_36_pairs():
    for s, p in SUM_P.items():
        assert p == Fraction(sum(a + b == s for a, b in PAIRS), 36)
    for k, p in LOW_P.items():
        assert p == Fraction(sum(min(a, b) == k for a, b in PAIRS), 36) == Fraction(13 - 2 * k, 36)
    assert sum(SUM_P.values()) == sum(LOW_P.values()) == 1
    assert MEAN_LOW == Fraction(91, 36)


def test_pair_limit_is_the_largest_multiple_below_2_to_64():
    assert int(kd.PAIR_LIMIT) % 36 == 0 and 2**64 - int(kd.PAIR_LIMIT) < 36
    assert int(kd.DIE_LIMIT) % 6 == 0 and 2**64 - int(kd.DIE_LIMIT) < 6


def test_kernel_rolls_are_the_reference_rolls():
    n = 3000
    out = np.zeros((kd.DB_COLS, 1), np.int64)
    kd.dice_blocks(11, n, n, 0, out)
    rolls = ref.rolls(11, 0, n)
    sums = [a + b for a, b in rolls]
    assert [int(c) for c in out[kd.DB_SUM:kd.DB_SUM + 11, 0]] == [sums.count(s) for s in range(2, 13)]
    assert [int(c) for c in out[kd.DB_LOW:kd.DB_LOW + 6, 0]] == [
        sum(min(a, b) == k for a, b in rolls) for k in range(1, 7)]
    bare = np.zeros(13, np.int64)
    kd.bare_2d6(11, 0, n, bare)
    assert [int(c) for c in bare[2:]] == [sums.count(s) for s in range(2, 13)]


def binomial_ok(count: int, n: int, p: float, sigmas: float = 5.0) -> bool:
    return abs(count - n * p) <= sigmas * math.sqrt(n * p * (1 - p))


def test_sum_and_lower_die_laws_on_many_rolls():
    n = 20_000_000
    r = roll_stats(n, seed=2024, threads=2)
    for s, p in SUM_P.items():
        assert binomial_ok(r["sum_counts"][str(s)], n, float(p)), s
    for k, p in LOW_P.items():
        assert binomial_ok(r["low_die_counts"][str(k)], n, float(p)), k
    assert r["sum_chi_square"]["p_value"] > 1e-4 and r["low_die_chi_square"]["p_value"] > 1e-4
    for key in ("mean_sum", "mean_low_die"):
        lo, hi = r[key]["ci95"]
        assert lo - 2 * r[key]["sem"] <= r[key]["exact"] <= hi + 2 * r[key]["sem"]


def test_sum_and_lower_die_come_from_one_throw():
    """Joint law: P(sum = s, min = k) is the count of pairs with both, over 36 (e.g. a 2 always has min 1,
    a 7 has min 1, 2 or 3 with probability 1/3 each); drawing them separately would break it."""
    n = 3_600_000
    out = np.zeros((13, 7), np.int64)
    joint_counts(5, 0, n, out)
    for s in range(2, 13):
        for k in range(1, 7):
            ways = sum(a + b == s and min(a, b) == k for a, b in PAIRS)
            if ways == 0:
                assert out[s, k] == 0, (s, k)
            else:
                assert binomial_ok(int(out[s, k]), n, ways / 36), (s, k)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), block=st.integers(1, 40), n=st.integers(1, 400))
def test_blocks_join_into_the_whole_runs_counts_and_gaps(seed, block, n):
    n_blocks = -(-n // block)
    out = np.zeros((kd.DB_COLS, n_blocks), np.int64)
    kd.dice_blocks(seed, block, n, 0, out)
    sums = [a + b for k in range(n_blocks) for a, b in ref.rolls(seed, k, min(block, n - k * block))]
    counts = out[kd.DB_SUM:kd.DB_SUM + 11]
    longest = join_longest_gaps(out[kd.DB_LEAD:kd.DB_LEAD + 11], out[kd.DB_GAP:kd.DB_GAP + 11],
                                out[kd.DB_TRAIL:kd.DB_TRAIL + 11], counts)
    assert [int(c) for c in counts.sum(axis=1)] == [sums.count(s) for s in range(2, 13)]
    assert [int(g) for g in longest] == list(ref.longest_gaps(sums).values())


def test_cli_dice_json(capsys):
    code = main(["seafarers", "dice", "--rolls", "100000", "--seed", "3", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    r = json.loads(out)
    assert set(r["sum_counts"]) == {str(s) for s in range(2, 13)}
    assert set(r["low_die_counts"]) == {str(k) for k in range(1, 7)}
    assert sum(r["sum_counts"].values()) == sum(r["low_die_counts"].values()) == 100_000
    assert set(r["longest_gap"]) == set(r["sum_counts"]) and r["longest_gap"]["2"] > r["longest_gap"]["7"]
    assert r["low_die_exact_p"]["1"] == "11/36"


@pytest.mark.parametrize("args,fragment", [
    (["--rolls", "0"], "--rolls must be from 1 to 100,000,000,000, got 0"),
    (["--seed", "-1"], "--seed must be between"),
    (["--threads", "0"], "--threads must be from 1 to 1,024, got 0"),
    (["--rolls", "lots"], "--rolls"),
    # upper bounds: before them, allocations of petabytes and numba typing errors
    (["--rolls", str(2**63 - 1)], "--rolls must be from 1 to 100,000,000,000"),
    (["--rolls", str(10**30)], "run in parts with different --seed values"),
    (["--rolls", "100", "--threads", str(10**30)], "--threads must be from 1 to 1,024"),
])
def test_cli_dice_bad_options(capsys, args, fragment):
    code = main(["seafarers", "dice", *args])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err


@pytest.mark.parametrize("rolls,reliable", [(1, False), (179, False), (180, True)])
def test_chi_square_says_when_its_approximation_is_unreliable(rolls, reliable):
    """Sums 2 and 12 (and a lower die of 6) have p = 1/36: an expected count of 5 takes 180 rolls."""
    r = roll_stats(rolls, 1)
    for key in ("sum_chi_square", "low_die_chi_square"):
        assert r[key]["reliable"] is reliable and r[key]["min_expected"] == pytest.approx(rolls / 36)
