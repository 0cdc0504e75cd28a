"""The rollout bot and `decide`, the one entry point of every Meographic bot.

rollout  at a photo, the planner's best `width` placements (its value, kernels/meographic/bots.py); at an explore,
         every legal action. Each candidate is played `k` times from here to the end of the game by greedy in
         every seat, on a second State (`sim`), and the candidate with the most points for this seat in sum wins
         (ties: the first candidate, so the planner's order at a photo). The hidden tiles are determinized
         fairly: the seat knows by count, per class (type and points), the tiles it has not seen (the set less
         every area, the piles, its own tiles and the face-up solo discards); the bag and the other seats' hands
         are a shuffle of those. Continuation j of decision d shuffles from draw d * MAX_K + j + 1 of the game's
         rollout stream, so every candidate meets the same k continuations (common random numbers) and the real
         bag's order is never read. The pure-Python twin is analyzer.meographic.reference.rollout_choice.
"""

import numpy as np

from kernels.jit import internal, kernel
from kernels.meographic.bots import (
    BOT_ROLLOUT,
    PL_KEEP,
    PL_LOOK,
    decide_basic,
    greedy,
    plan_value,
    set_chances,
)
from kernels.meographic.engine import (
    CFG_PLAYERS,
    CFG_TILES,
    CFG_TYPES,
    GP,
    MAX_CLASSES,
    MAX_PLAYERS,
    N_POINTS,
    PAD,
    PILES,
    PLACE,
    ST_BAG_POS,
    ST_DISCARDED,
    ST_PHASE,
    ST_ROUND,
    ST_SEAT,
    legal,
    step,
    terminal,
)
from kernels.rng import GOLDEN, mix64, uniform_int

RO_K, RO_WIDTH = 4, 5  # rollout parameters after the planner's (vector order)
MAX_K = 64  # continuations per candidate at most (analyzer/meographic/bots.py bounds k by it)


@internal
def class_of(setup, tile):
    return setup.tile_type[tile] * N_POINTS + setup.tile_pts[tile]


@internal
def unseen_pool(state, setup, seat, key):
    """The tiles the seat has not seen, one of each class's lowest id per tile in class order, then shuffled
    (Fisher-Yates from the top) from the stream [key, 0], into state.pool; their number."""
    seen = state.seen
    for c in range(MAX_CLASSES):
        seen[c] = setup.class_total[c]
    for s in range(setup.cfg[CFG_PLAYERS]):
        for k in range(state.n_placed[s]):
            cell = state.placed[s, k]
            seen[np.int64(state.btype[s, cell]) * N_POINTS + np.int64(state.bpts[s, cell])] -= 1
    for i in range(PILES):
        for k in range(state.pile_n[i]):
            seen[class_of(setup, state.piles[i, k])] -= 1
    for k in range(2):
        if state.hands[seat, k] >= 0:
            seen[class_of(setup, state.hands[seat, k])] -= 1
    for k in range(state.st[ST_DISCARDED]):
        seen[class_of(setup, state.discards[k])] -= 1
    pool = state.pool
    n = 0
    for c in range(MAX_CLASSES):
        for _ in range(seen[c]):
            pool[n] = setup.class_tile[c]
            n += 1
    rng = state.sample_rng
    rng[0], rng[1] = key, np.uint64(0)
    for i in range(n - 1, 0, -1):
        j = uniform_int(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    return n


@internal
def copy(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@internal
def copy_into(state, setup, sim):
    """sim := state, as far as a continuation reads or changes it. sim's last continuation is cleared through its
    own lists (placed, touched and open cells), as init clears a game, so no grid is copied whole."""
    n_types = setup.cfg[CFG_TYPES]
    for s in range(MAX_PLAYERS):
        for k in range(sim.n_placed[s]):
            sim.btype[s, sim.placed[s, k]] = -1
            sim.bpts[s, sim.placed[s, k]] = 0
        for k in range(sim.n_mtouched[s]):
            cell = sim.mtouched[s, k]
            sim.mflag[s, cell] = 0
            for t in range(n_types):
                sim.mmask[s, cell, t] = 0
        for k in range(sim.n_open[s]):
            sim.is_open[s, sim.open_at[s, k]] = 0
    for s in range(setup.cfg[CFG_PLAYERS]):
        sim.n_placed[s] = state.n_placed[s]
        for k in range(state.n_placed[s]):
            cell = state.placed[s, k]
            sim.placed[s, k] = cell
            sim.btype[s, cell] = state.btype[s, cell]
            sim.bpts[s, cell] = state.bpts[s, cell]
        sim.n_mtouched[s] = state.n_mtouched[s]
        for k in range(state.n_mtouched[s]):
            cell = state.mtouched[s, k]
            sim.mtouched[s, k] = cell
            sim.mflag[s, cell] = 1
            for t in range(n_types):
                sim.mmask[s, cell, t] = state.mmask[s, cell, t]
        sim.n_open[s] = state.n_open[s]
        for k in range(state.n_open[s]):
            sim.open_at[s, k] = state.open_at[s, k]
            sim.is_open[s, state.open_at[s, k]] = 1
        for k in range(4):
            sim.bbox[s, k] = state.bbox[s, k]
            sim.points[s, k] = state.points[s, k]
        sim.hands[s, 0], sim.hands[s, 1] = state.hands[s, 0], state.hands[s, 1]
    copy(state.st, sim.st)
    copy(state.bag, sim.bag)
    copy(state.mcards, sim.mcards)
    copy(state.col_top, sim.col_top)
    copy(state.col_under, sim.col_under)
    for i in range(PILES):
        sim.pile_n[i] = state.pile_n[i]
        for k in range(state.pile_n[i]):
            sim.piles[i, k] = state.piles[i, k]
    copy(state.gone, sim.gone)
    copy(state.completed, sim.completed)
    copy(state.revealed, sim.revealed)
    copy(state.scored, sim.scored)


@internal
def deal(state, setup, sim, seat, n):
    """The shuffled unseen tiles state.pool[:n] into sim: the other seats' hands in seat order, then the bag."""
    p = 0
    for o in range(setup.cfg[CFG_PLAYERS]):
        if o != seat and sim.hands[o, 0] >= 0 and p < n:
            sim.hands[o, 0] = state.pool[p]
            p += 1
    for i in range(sim.st[ST_BAG_POS], setup.cfg[CFG_TILES]):
        if p < n:
            sim.bag[i] = state.pool[p]
            p += 1


@internal
def continue_with(sim, setup, seat, kind, a, b, c):
    """The seat's final points after the action (kind, a, b, c) and greedy in every seat to the end."""
    step(sim, setup, kind, a, b, c)
    actions = sim.actions
    while not terminal(sim, setup):
        n = legal(sim, setup, actions)
        i = greedy(sim, setup, actions, n) if n > 1 else np.int64(0)
        step(sim, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
    return sim.points[seat, 0] + sim.points[seat, 1] + sim.points[seat, 2] + sim.points[seat, 3]


@internal
def shortlist(state, setup, actions, n, params, picks):
    """The planner's best `width` placements (its value plus keep x the kept tile's points), best first, ties in
    action order, into picks; their number."""
    seat = state.st[ST_SEAT]
    tile_type, tile_pts = setup.tile_type, setup.tile_pts
    set_chances(state, setup, seat, params[PL_LOOK])
    values = state.values
    for i in range(n):
        slot = actions[i, 1]
        tile, other = state.hands[seat, slot], state.hands[seat, 1 - slot]
        cell = (actions[i, 2] + PAD) * GP + actions[i, 3] + PAD
        v = plan_value(state, setup, seat, cell, tile_type[tile], tile_pts[tile], params)
        values[i] = v + (params[PL_KEEP] * tile_pts[other] if other >= 0 else 0.0)
    m = min(max(np.int64(params[RO_WIDTH]), 1), n)
    for r in range(m):
        best = np.int64(-1)
        for i in range(n):
            if values[i] > -np.inf and (best < 0 or values[i] > values[best]):
                best = i
        picks[r] = best
        values[best] = -np.inf
    return m


@internal
def rollout(state, setup, actions, n, params, sim):
    st = state.st
    seat = st[ST_SEAT]
    picks, sums = state.picks, state.sums
    if st[ST_PHASE] == PLACE:
        m = shortlist(state, setup, actions, n, params, picks)
    else:
        m = n
        for i in range(n):
            picks[i] = i
    if m == 1:
        return picks[0]
    for i in range(m):
        sums[i] = 0
    k = min(max(np.int64(params[RO_K]), 1), MAX_K)
    decision = (st[ST_ROUND] * setup.cfg[CFG_PLAYERS] + seat) * 2 + st[ST_PHASE]
    for j in range(k):
        key = mix64(state.roll_rng[0] + np.uint64(decision * MAX_K + j + 1) * GOLDEN)
        n_pool = unseen_pool(state, setup, seat, key)
        for i in range(m):
            copy_into(state, setup, sim)
            deal(state, setup, sim, seat, n_pool)
            act = picks[i]
            sums[i] += continue_with(sim, setup, seat, actions[act, 0], actions[act, 1], actions[act, 2],
                                     actions[act, 3])
    best = 0
    for i in range(1, m):
        if sums[i] > sums[best]:
            best = i
    return picks[best]


@kernel
def decide(state, setup, actions, n, sim):
    """The seat to move's bot picks one of the n legal actions (sim: the rollout's scratch State)."""
    seat = state.st[ST_SEAT]
    if n > 1 and setup.bots[seat] == BOT_ROLLOUT:
        return rollout(state, setup, actions, n, setup.params[seat], sim)
    return decide_basic(state, setup, actions, n)
