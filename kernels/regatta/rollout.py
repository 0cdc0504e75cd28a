"""The Regatta rollout bot: k continuations of the race per candidate action, played by greedy bots in every
seat, on determinized copies of the game.

Candidates (its turn, within the hand limit): the greedy's own choice first, then the `top` card plays of
least value after them (score.value_with, as the greedy ranks them), then the greedy's trade-or-end. Each
is played on k copies of the game and the race continued by greedies for `rounds` rounds; a copy scores 1
when its boat wins, 0 when another does, and at the horizon 1, 1/2 or 0 as its path_score is shorter than,
equal to or longer than the best rival's. The candidate of the highest mean is played (ties: the earlier).
Negate windows are the planner's rule (planner.answer).

Fair by construction: each copy first deals again what the seat cannot see, from what it cannot see, so
the copy's hidden content never comes from the real one:
  * the tiles of the face-down cells, row group by row group (the goal row, the river rows, the start row:
    a face-down tile's pile is public, its face is not): the tiles of that pile not face up, shuffled;
  * the action deck and the other seats' hands (a partner's too: no talking), pooled, shuffled and dealt
    again in the same sizes;
  * the event and effect decks, each shuffled.
The shuffles and the copy's later draws come from its own stream, keyed by a draw of the bot's policy
stream at this decision and the copy's number j: reproducible, and every candidate meets the same k deals
(common random numbers)."""

import numpy as np

from kernels.jit import internal, kernel
from kernels.regatta.engine import (
    C_COLS,
    C_NCARD,
    C_PLAYERS,
    C_ROWS,
    END,
    ROTATE,
    S_DECK_N,
    S_PHASE,
    S_TO_MOVE,
    S_TURN,
    S_WINNER,
    SWAP_ADJ,
    TURN,
    _shuffle,
    boat_of,
    legal,
    step,
    terminal,
)
from kernels.regatta.greedy import greedy, trade_or_end
from kernels.regatta.planner import pile_of
from kernels.regatta.score import path_score, rival_path, standing, value_with
from kernels.rng import next_u64, stream_init

PURPOSE_ROLLOUT = 8


@internal
def _copy(dst, src):
    """src into dst element by element (a slice assignment may copy through numba's allocator)."""
    flat = dst.reshape(dst.size)
    for i, v in enumerate(src.reshape(src.size)):
        flat[i] = v


@kernel
def copy_state(dst, src):
    _copy(dst.sc, src.sc)
    _copy(dst.cell_tile, src.cell_tile)
    _copy(dst.cell_rot, src.cell_rot)
    _copy(dst.cell_up, src.cell_up)
    _copy(dst.boat, src.boat)
    _copy(dst.boat_start, src.boat_start)
    _copy(dst.skip, src.skip)
    _copy(dst.hand, src.hand)
    _copy(dst.deck, src.deck)
    _copy(dst.disc, src.disc)
    _copy(dst.ev_deck, src.ev_deck)
    _copy(dst.ev_n, src.ev_n)
    _copy(dst.ev_disc, src.ev_disc)
    _copy(dst.used, src.used)
    _copy(dst.rng, src.rng)
    _copy(dst.tiles_rng, src.tiles_rng)


@internal
def _sort_counts(items, n, kinds):
    """items[:n] in ascending order (a counting sort: values below `kinds`)."""
    put = 0
    for v in range(kinds):
        c = 0
        for i in range(put, n):
            if items[i] == v:
                items[i] = items[put + c]
                items[put + c] = v
                c += 1
        put += c


@internal
def determinize(sim, setup, pool, seen, seat):
    """Deal again, from sim.rng, what `seat` cannot see (the module's docstring), in place. Each pool is
    put in a fixed order (tile number, card type) before its shuffle, so the deal depends on what is
    hidden but never on where it lies."""
    cols = setup.cfg[C_COLS]
    cells = setup.cfg[C_ROWS] * cols
    seen[:] = 0
    for x in range(cells):
        if sim.cell_up[x] == 1:
            seen[sim.cell_tile[x]] = 1
    for group in range(3):  # the goal row, the river rows, the start row: the goal, river, start piles
        lo = 0 if group == 0 else (cols if group == 1 else cells - cols)
        hi = cols if group == 0 else (cells - cols if group == 1 else cells)
        pile = 1 if group == 0 else (0 if group == 1 else 2)
        n = 0
        for t in range(len(setup.tile_kind)):
            if seen[t] == 0 and pile_of(setup, t) == pile:
                pool[n] = t
                n += 1
        _shuffle(pool, n, sim.rng)
        n = 0
        for x in range(lo, hi):
            if sim.cell_up[x] == 0:
                sim.cell_tile[x] = pool[n]
                n += 1
    deck_n = sim.sc[S_DECK_N]
    ncard = setup.cfg[C_NCARD]
    n = 0
    for i in range(deck_n):
        pool[n] = sim.deck[i]
        n += 1
    for p in range(setup.cfg[C_PLAYERS]):
        if p != seat:
            for k in range(ncard):
                for _ in range(sim.hand[p, k]):
                    pool[n] = k
                    n += 1
    _sort_counts(pool, n, ncard)
    _shuffle(pool, n, sim.rng)
    n = 0
    for p in range(setup.cfg[C_PLAYERS]):
        if p != seat:
            held = 0
            for k in range(ncard):
                held += sim.hand[p, k]
                sim.hand[p, k] = 0
            for _ in range(held):
                sim.hand[p, pool[n]] += 1
                n += 1
    for i in range(deck_n):
        sim.deck[i] = pool[n]
        n += 1
    for d in range(2):
        _sort_counts(sim.ev_deck[d], sim.ev_n[d], len(setup.ev_count))
        _shuffle(sim.ev_deck[d], sim.ev_n[d], sim.rng)


@kernel
def dealt_copy(sim, st, setup, pool, seen, seat, key, j):
    """Copy j of st as the rollout deals it for `seat` at a decision of stream key `key`; called from Python
    (tests): an entry point of its own (kernels/whole_program.py), as turn_choice does the same inline."""
    copy_state(sim, st)
    stream_init(sim.rng, key, np.int64(j), np.int64(PURPOSE_ROLLOUT))
    determinize(sim, setup, pool, seen, seat)


@internal
def _outcome(sim, setup, me):
    """1 a win of `me`'s boat, 0 another's; unfinished: 1, 1/2 or 0 as its path is shorter, equal, longer."""
    w = sim.sc[S_WINNER]
    if w >= 0:
        return 1.0 if w == me else 0.0
    own, rival = path_score(sim, setup, sim.boat[me]), rival_path(sim, setup, me)
    return 1.0 if own < rival else (0.5 if own == rival else 0.0)


@internal
def continuation(sim, setup, acts, me, horizon):
    """Greedy bots in every seat until the race ends or its turn count reaches `horizon`."""
    while not terminal(sim, setup) and sim.sc[S_TURN] < horizon:
        n = legal(sim, setup, acts)
        i = greedy(sim, setup, acts, n, 0.0) if sim.sc[S_PHASE] == TURN else 0
        step(sim, setup, acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3])
    return _outcome(sim, setup, me)


@internal
def _add(wk, m, actions, i):
    """Candidate action i (unless it is one already); returns the count."""
    for q in range(m):
        if wk.cand[q, 0] == actions[i, 0] and wk.cand[q, 1] == actions[i, 1] and wk.cand[q, 2] == actions[i, 2] \
                and wk.cand[q, 3] == actions[i, 3]:
            return m
    for q in range(4):
        wk.cand[m, q] = actions[i, q]
    return m + 1


@internal
def candidates(st, setup, wk, actions, n, top):
    """The greedy's choice, then the `top` card plays of least value after them, then the trade-or-end."""
    me = boat_of(setup, st.sc[S_TO_MOVE])
    m = _add(wk, 0, actions, greedy(st, setup, actions, n, 0.0))
    bd, sea, _here, rival = standing(st, setup, me, 0.0)
    kept = 0
    while kept < top:  # selection, `top` passes: few candidates, no sort buffer
        best_i, best_v = -1, 0.0
        for i in range(n):
            kind = actions[i, 0]
            if SWAP_ADJ <= kind <= ROTATE:
                v = value_with(bd, setup, sea, st, me, 0.0, rival, kind, actions[i, 2], actions[i, 3])
                taken = False
                for q in range(m):
                    taken |= wk.cand[q, 0] == kind and wk.cand[q, 1] == actions[i, 1] and \
                        wk.cand[q, 2] == actions[i, 2] and wk.cand[q, 3] == actions[i, 3]
                if not taken and (best_i < 0 or v < best_v):
                    best_i, best_v = i, v
        if best_i < 0:
            break
        m = _add(wk, m, actions, best_i)
        kept += 1
    return _add(wk, m, actions, trade_or_end(setup, actions, n))


@internal
def turn_choice(st, setup, wk, actions, n, rng, k, top, rounds):
    """The rollout's action in its turn (the index into actions)."""
    if actions[0, 0] != END:  # over the hand limit: the greedy discards
        return greedy(st, setup, actions, n, 0.0)
    m = candidates(st, setup, wk, actions, n, top)
    if m == 1:
        return _index(wk, actions, n, 0)
    key = next_u64(rng)
    seat = st.sc[S_TO_MOVE]
    me = boat_of(setup, seat)
    horizon = st.sc[S_TURN] + rounds * setup.cfg[C_PLAYERS]
    best_q, best_v = 0, -1.0
    for q in range(m):
        total = 0.0
        for j in range(k):
            copy_state(wk.sim, st)
            stream_init(wk.sim.rng, key, np.int64(j), np.int64(PURPOSE_ROLLOUT))
            determinize(wk.sim, setup, wk.pool, wk.seen, seat)
            step(wk.sim, setup, wk.cand[q, 0], wk.cand[q, 1], wk.cand[q, 2], wk.cand[q, 3])
            total += continuation(wk.sim, setup, wk.sim_acts, me, horizon)
        v = total / k
        if v > best_v:
            best_q, best_v = q, v
    return _index(wk, actions, n, best_q)


@internal
def _index(wk, actions, n, q):
    for i in range(n):
        if actions[i, 0] == wk.cand[q, 0] and actions[i, 1] == wk.cand[q, 1] and actions[i, 2] == wk.cand[q, 2] \
                and actions[i, 3] == wk.cand[q, 3]:
            return i
    return 0
