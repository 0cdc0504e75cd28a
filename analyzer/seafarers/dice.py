"""Dice laws of Seafarers and the `dice` experiment: N rolls -> counts, run statistics, exact checks.

A run of N rolls is cut into blocks of DICE_BLOCK rolls; block k is the roll sequence k of the
seed (kernels/catan/dice.py), played as game k of a runner Job, so the result depends on (seed, N)
only: never on threads, chunk size or backend. The blocks' counts add up, and their
first/longest/last gaps join into the run's longest gaps.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
from scipy.special import chdtrc

from analyzer.job import Job
from analyzer.params import check_seed
from analyzer.runner import RunOptions, run_job
from analyzer.seafarers.limits import IN_PARTS, MAX_DICE_ROLLS, check_range
from analyzer.stats import mean_ci_counts, wilson_ci
from kernels.catan import dice as kd

DICE_BLOCK = 65_536
SUMS = tuple(range(2, 13))
FACES = tuple(range(1, 7))

# Exact laws of two fair dice: P(sum = s) = (6 - |s - 7|)/36, P(min = k) = (13 - 2k)/36.
SUM_P = {s: Fraction(6 - abs(s - 7), 36) for s in SUMS}
LOW_P = {k: Fraction(13 - 2 * k, 36) for k in FACES}
MEAN_SUM = Fraction(7)
MEAN_LOW = sum(k * p for k, p in LOW_P.items())  # 91/36


def blocks(n_items: int, block: int) -> int:
    """How many blocks of `block` items hold n_items (the last one shorter)."""
    return -(-n_items // block)


def dice_job(rolls: int, seed: int) -> Job:
    return Job(dice_play_range, {"game": "seafarers", "experiment": "dice", "rolls": int(rolls),
                                              "seed": int(seed)}, kd.DB_COLS, "int64")


def dice_play_range(spec: dict):
    """Job builder: block j of the run into out[:, j] (kernels.catan.dice.dice_blocks)."""
    seed, rolls = spec["seed"], spec["rolls"]
    return lambda start, out: kd.dice_blocks(seed, DICE_BLOCK, rolls, start, out)


def join_longest_gaps(lead: np.ndarray, gap: np.ndarray, trail: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Longest runs without each value over consecutive blocks, from per-block [values, blocks] arrays:
    lead/trail = rolls before the first/after the last occurrence (the block length if none),
    gap = longest run between occurrences inside the block, seen = occurrences in the block."""
    longest = np.zeros(lead.shape[0], np.int64)
    carry = np.zeros(lead.shape[0], np.int64)  # rolls since the last occurrence, over blocks
    for b in range(lead.shape[1]):
        hit = seen[:, b] > 0
        longest = np.where(hit, np.maximum(longest, np.maximum(carry + lead[:, b], gap[:, b])), longest)
        carry = np.where(hit, trail[:, b], carry + lead[:, b])
    return np.maximum(longest, carry)


MIN_EXPECTED = 5  # the usual rule for trusting the chi-square approximation (Cochran)


def chi_square(counts, probabilities) -> dict:
    """Pearson goodness of fit of counts to exact probabilities. The p-value is the chi-square
    approximation, which needs every expected count to be at least MIN_EXPECTED (`reliable`)."""
    counts = np.asarray(counts, np.float64)
    expected = counts.sum() * np.asarray([float(p) for p in probabilities])
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = len(counts) - 1
    return {"statistic": stat, "df": df, "p_value": float(chdtrc(df, stat)),
            "min_expected": float(expected.min()), "reliable": bool(expected.min() >= MIN_EXPECTED)}


def roll_stats(rolls: int, seed: int, threads: int | None = None, **scale) -> dict:
    """Roll N pairs of dice; counts of sums and lower dice with exact-law checks and longest gaps.
    `scale`: the runner's chunk_size, progress, dask_local or scheduler, checkpoint."""
    check_range("--rolls", rolls, 1, MAX_DICE_ROLLS, f"400 bytes per block of {DICE_BLOCK:,} rolls, 15 minutes on "
                f"one core at the bound; {IN_PARTS}")
    check_seed(seed)
    options = RunOptions.of(blocks(rolls, DICE_BLOCK), threads=threads, label="blocks of rolls", **scale)
    t0 = time.perf_counter()
    run = run_job(dice_job(rolls, seed), options)
    cols, wall = run.columns, run.wall
    sums = cols[kd.DB_SUM:kd.DB_SUM + kd.N_SUMS]
    lows = cols[kd.DB_LOW:kd.DB_LOW + 6]
    longest = join_longest_gaps(cols[kd.DB_LEAD:kd.DB_LEAD + kd.N_SUMS], cols[kd.DB_GAP:kd.DB_GAP + kd.N_SUMS],
                                cols[kd.DB_TRAIL:kd.DB_TRAIL + kd.N_SUMS], sums)
    sum_counts = sums.sum(axis=1)
    low_counts = lows.sum(axis=1)
    sevens = int(sum_counts[7 - 2])
    return {
        "rolls": rolls,
        "seed": seed,
        "block_rolls": DICE_BLOCK,
        "sum_counts": {str(s): int(c) for s, c in zip(SUMS, sum_counts)},
        "low_die_counts": {str(k): int(c) for k, c in zip(FACES, low_counts)},
        "sum_exact_p": {str(s): str(p) for s, p in SUM_P.items()},
        "low_die_exact_p": {str(k): str(p) for k, p in LOW_P.items()},
        "sum_chi_square": chi_square(sum_counts, SUM_P.values()),
        "low_die_chi_square": chi_square(low_counts, LOW_P.values()),
        "mean_sum": {**mean_ci_counts(SUMS, sum_counts, support=(2, 12)), "exact": float(MEAN_SUM)},
        "mean_low_die": {**mean_ci_counts(FACES, low_counts, support=(1, 6)), "exact": float(MEAN_LOW)},
        "sevens": {"count": sevens, "p": sevens / rolls, "ci95": list(wilson_ci(sevens, rolls)), "exact": 1 / 6},
        "longest_gap": {str(s): int(g) for s, g in zip(SUMS, longest)},
        "rolls_per_second": rolls / wall if wall > 0 else None,
        "seconds": time.perf_counter() - t0,
        "run": run.info,
    }
