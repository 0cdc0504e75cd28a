"""The greedy and the blocker (kernels/regatta/bots.py dispatches to them; the rollout plays its continuations
with the greedy): one card play at a time, the one that most lowers the seat's value (score.value)."""

from kernels.jit import internal
from kernels.regatta.engine import (
    ADV1,
    ADV2,
    C_COLS,
    MULLIGAN,
    REVEAL,
    ROTATE,
    S_ACTIVE,
    S_CHAIN,
    S_PB,
    S_PC,
    S_PKIND,
    S_TO_MOVE,
    SWAP_ADJ,
    boat_of,
)
from kernels.regatta.score import (
    FAR,
    STUCK,
    fits_masks,
    keep_rank,
    path_after_below,
    reach_levels,
    standing,
    target_levels,
    value,
    value_after,
    value_with,
)


@internal
def greedy(st, setup, actions, n, spite):
    """Reveal first (the face-down neighbour nearest the goal row), then the card play that lowers _value
    most; else trade (mulligan) a card, the least useful first; else end the turn (or discard the first
    card when over the limit)."""
    cols = setup.cfg[C_COLS]
    me = boat_of(setup, st.sc[S_TO_MOVE])
    best_i, best_row = -1, FAR
    plays = False
    for i in range(n):
        if actions[i, 0] == REVEAL and actions[i, 2] // cols < best_row:
            best_i, best_row = i, actions[i, 2] // cols
        plays |= SWAP_ADJ <= actions[i, 0] <= ROTATE
    if best_i >= 0 or not plays:
        return best_i if best_i >= 0 else trade_or_end(setup, actions, n)
    bd, sea, best_v, rival = standing(st, setup, me, spite)  # each card play is valued on bd as it changes it
    prune = spite == 0.0 and best_v < STUCK and fits_masks(setup)
    limit = 0
    reached = False  # reach_levels made: only a swap or a turn reads them
    if prune:  # the levels that bound what a play can leave (score.may_beat): most plays need no search
        limit = min(len(st.dist), int(best_v))
        target_levels(bd, setup, sea, st.dist, limit)
    for i in range(n):
        kind = actions[i, 0]
        if SWAP_ADJ <= kind <= ROTATE:
            if prune:
                if not reached and kind != ADV1 and kind != ADV2:
                    reach_levels(bd, setup, sea, st.boat[me], st.queue, limit)
                    reached = True
                v = path_after_below(bd, setup, sea, st, me, kind, actions[i, 2], actions[i, 3], st.queue, st.dist,
                                     limit, best_v)
            else:
                v = value_with(bd, setup, sea, st, me, spite, rival, kind, actions[i, 2], actions[i, 3])
            if v < best_v:
                best_i, best_v = i, v
    if best_i >= 0:
        return best_i
    return trade_or_end(setup, actions, n)


@internal
def trade_or_end(setup, actions, n):
    """Trade (mulligan) a card, the least useful first; else end the turn (or discard the first card when
    over the limit)."""
    for rank in range(3):  # nothing helps now: trade a card (a hand of 3 never refills), the least useful first
        for i in range(n):
            if actions[i, 0] == MULLIGAN and keep_rank(setup, actions[i, 1]) == rank:
                return i
    return 0  # END (or the first DISCARD, when over the limit): canonical order puts it first


@internal
def blocker_answer(st, setup, actions, n, spite):
    """In a negate window: negate when the pending card, as the chain stands, would leave this seat worse
    off (its own path longer or a rival's shorter, by _value) than the alternative."""
    if n < 2:
        return 0
    me = boat_of(setup, st.sc[S_TO_MOVE])
    mover = boat_of(setup, st.sc[S_ACTIVE])
    happens = st.sc[S_CHAIN] % 2 == 0
    with_it = value_after(st, setup, me, spite, st.sc[S_PKIND], st.sc[S_PB], st.sc[S_PC], mover)
    without = value(st, setup, me, spite)
    if (happens and with_it > without) or (not happens and with_it < without):
        return 1
    return 0
