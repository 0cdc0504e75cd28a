"""Two six-sided dice, drawn as the ordered pair (d1, d2) from one 64-bit draw (numba).

Seafarers needs both the sum (production, 7s) and the lower die (the pirate fleet's move and
strength in "The Pirate Islands"), and they come from the same throw, so a roll is always the
pair. One draw v of the stream is mapped to the pair index v % 36 = 6 (d1 - 1) + (d2 - 1)
after rejecting the top 16 values of the 2**64 range (2**64 = 16 mod 36): every pair then has
probability exactly 1/36 given uniform 64-bit draws, with no modulo bias at all. A rejection
happens with probability 2**-60, so in practice one draw is one roll.

A roll sequence k of an experiment with seed s is the stream (s, k, PURPOSE_DICE): its roll i
is a function of (s, k, i) only, never of threads or chunking. A single die (the fortress's
defence) uses the same exact rejection with 6 in place of 36.
"""

import numpy as np
from numba import njit

from kernels.rng import PURPOSE_DICE, next_u64, stream_init

N_PAIRS = 36
# Largest multiples of 36 and 6 in the uint64 range, as exclusive bounds: 2**64 - (2**64 mod n).
PAIR_LIMIT = np.uint64(2**64 - 2**64 % N_PAIRS)
DIE_LIMIT = np.uint64(2**64 - 2**64 % 6)

# Per-block statistics written by dice_block (one column per block of a dice run).
N_SUMS = 11  # sums 2..12 -> index sum - 2
DB_SUM = 0  # 11 counts of each sum
DB_LOW = DB_SUM + N_SUMS  # 6 counts of each lower die value 1..6
DB_LEAD = DB_LOW + 6  # 11: rolls before the first time each sum shows (block length if never)
DB_GAP = DB_LEAD + N_SUMS  # 11: longest run without each sum strictly inside the block
DB_TRAIL = DB_GAP + N_SUMS  # 11: rolls after the last time each sum shows (block length if never)
DB_COLS = DB_TRAIL + N_SUMS


@njit(cache=True, inline="always")
def roll_pair_index(stream):
    """Pair index 6 (d1 - 1) + (d2 - 1), exactly uniform on 0..35."""
    v = next_u64(stream)
    while v >= PAIR_LIMIT:  # probability 2**-60 per draw
        v = next_u64(stream)
    return np.int64(v % np.uint64(N_PAIRS))


@njit(cache=True, inline="always")
def roll_die(stream):
    """One die, exactly uniform on 1..6 (same rejection as roll_pair_index, probability 2**-62)."""
    v = next_u64(stream)
    while v >= DIE_LIMIT:
        v = next_u64(stream)
    return np.int64(v % np.uint64(6)) + 1


@njit(cache=True, inline="always")
def roll_dice(stream):
    """One throw: (sum, lower die)."""
    p = roll_pair_index(stream)
    d1 = p // 6 + 1
    d2 = p % 6 + 1
    return d1 + d2, min(d1, d2)


@njit(cache=True, nogil=True)
def bare_2d6(seed, sequence, n_rolls, sum_counts):
    """The cheapest useful dice loop: roll n_rolls times, count sums (sum_counts[2..12]).
    The benchmark's baseline for the production kernels."""
    stream = np.zeros(2, np.uint64)
    stream_init(stream, seed, sequence, PURPOSE_DICE)
    for _ in range(n_rolls):
        s, _low = roll_dice(stream)
        sum_counts[s] += 1


@njit(cache=True, nogil=True)
def dice_blocks(seed, block_rolls, n_rolls, start, out):
    """Blocks start .. start + out.shape[1] - 1 of a run of n_rolls rolls cut into blocks of
    block_rolls (the last one shorter); block k is roll sequence k. out[:, j] gets the DB_*
    statistics of block start + j, from which the whole run's counts and longest gaps follow
    (analyzer/seafarers/dice.py joins the blocks)."""
    stream = np.zeros(2, np.uint64)
    last = np.empty(N_SUMS, np.int64)
    for j in range(out.shape[1]):
        block = start + j
        length = min(block_rolls, n_rolls - block * block_rolls)
        stream_init(stream, seed, block, PURPOSE_DICE)
        for k in range(DB_COLS):
            out[k, j] = 0
        last[:] = -1
        for i in range(length):
            s, low = roll_dice(stream)
            k = s - 2
            out[DB_SUM + k, j] += 1
            out[DB_LOW + low - 1, j] += 1
            if last[k] < 0:
                out[DB_LEAD + k, j] = i
            elif i - last[k] - 1 > out[DB_GAP + k, j]:
                out[DB_GAP + k, j] = i - last[k] - 1
            last[k] = i
        for k in range(N_SUMS):
            if last[k] < 0:
                out[DB_LEAD + k, j] = length
                out[DB_TRAIL + k, j] = length
            else:
                out[DB_TRAIL + k, j] = length - 1 - last[k]
