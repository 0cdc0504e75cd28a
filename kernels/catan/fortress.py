"""Pirate fortress battles and sieges ("The Pirate Islands", seed 002 p. 16) (numba).

A battle: the fortress rolls one die; warships on the route > die: the fortress loses a chit
(win); fewer: the attacker loses the two foremost ships (loss); equal: the foremost ship (tie).
A siege repeats battles (one per turn) until the fortress has no chit left (conquered) or the
attacker has fewer than MIN_WARSHIPS warships (failed: the die is never below 1, so with one
warship or none no battle can be won any more).

Which ships are lost (docs/seafarers/dice.md): LOSSES_REBUILT (the default) - the ships lost are
rebuilt as normal ships at the front of the route (they must be, to attack again) and take the
next losses first; LOSSES_WARSHIPS - every ship lost is a warship while any is left.
"""

import numpy as np
from numba import njit

from kernels.catan.dice import roll_die
from kernels.rng import PURPOSE_BATTLE, PURPOSE_SIEGE, stream_init

WIN, TIE, LOSS = 0, 1, 2
MIN_WARSHIPS = 2  # fewest warships that can still win a battle (on a die of 1)
LOSSES_WARSHIPS = 0
LOSSES_REBUILT = 1
LOSS_MODELS = ("warships", "rebuilt")

# Per-siege columns written by siege_range.
S_CONQUERED = 0  # 1 if the fortress fell
S_BATTLES = 1
S_SHIPS_LOST = 2
S_WARSHIPS_LOST = 3
S_COLS = 4


@njit(cache=True, inline="always")
def battle_outcome(warships, die):
    if warships > die:
        return WIN
    return TIE if warships == die else LOSS


@njit(cache=True, nogil=True)
def battle_blocks(warships, seed, block_battles, n_battles, start, out):
    """Blocks start .. start + out.shape[1] - 1 of n_battles single battles with a fixed number of
    warships (block k: stream (seed, k, PURPOSE_BATTLE)); out[WIN|TIE|LOSS, j] counts block start + j."""
    stream = np.zeros(2, np.uint64)
    for j in range(out.shape[1]):
        block = start + j
        stream_init(stream, seed, block, PURPOSE_BATTLE)
        out[WIN, j] = 0
        out[TIE, j] = 0
        out[LOSS, j] = 0
        for _ in range(min(block_battles, n_battles - block * block_battles)):
            out[battle_outcome(warships, roll_die(stream)), j] += 1


@njit(cache=True)
def siege(stream, chits, warships, ships_lost_per, loss_model, row):
    """Battle until conquest or fewer than MIN_WARSHIPS warships; row[S_*] gets the result.
    ships_lost_per[TIE], ships_lost_per[LOSS]: ships lost by a tie and by a loss (1 and 2)."""
    front = 0  # normal ships standing ahead of the warships
    battles = 0
    ships = 0
    warships_lost = 0
    while chits > 0 and warships >= MIN_WARSHIPS:
        outcome = battle_outcome(warships, roll_die(stream))
        battles += 1
        if outcome == WIN:
            chits -= 1
            continue
        lost = ships_lost_per[outcome]
        ships += lost
        for _ in range(lost):
            if front > 0:
                front -= 1
            elif warships > 0:  # else a normal ship behind the (lost) warships
                warships -= 1
                warships_lost += 1
        if loss_model == LOSSES_REBUILT:
            front += lost
    row[S_CONQUERED] = 1 if chits == 0 else 0
    row[S_BATTLES] = battles
    row[S_SHIPS_LOST] = ships
    row[S_WARSHIPS_LOST] = warships_lost


@njit(cache=True, nogil=True)
def siege_range(chits, warships, ships_lost_per, loss_model, seed, start, out):
    """Sieges start .. start + out.shape[1] - 1; siege i draws from (seed, i, PURPOSE_SIEGE)."""
    stream = np.zeros(2, np.uint64)
    row = np.zeros(S_COLS, np.int64)
    for j in range(out.shape[1]):
        stream_init(stream, seed, start + j, PURPOSE_SIEGE)
        siege(stream, chits, warships, ships_lost_per, loss_model, row)
        for k in range(S_COLS):
            out[k, j] = row[k]
