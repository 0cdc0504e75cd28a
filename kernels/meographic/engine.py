"""Cational Meographic on the step contract (docs/games.md): init, legal, step, terminal, result, each a pure
function over the caller's arrays (`State`, `Setup` named tuples, kernels/meographic/workspace.py) that
allocates nothing. The pure-Python twin is analyzer/meographic/reference.py; actions, their canonical order
and every rule are documented there and in docs/meographic/rules.md.

A seat's area is a padded grid (GP x GP, PAD free cells around the 41 x 41 area), so a mission window never
leaves it; a cell is (row + PAD) * GP + (col + PAD). A mission check reads only the windows that hold the new
tile: per (card, new tile's type) the precomputed cells of every orientation around it
(analyzer.meographic.rules.mission_windows), read once per placement to note which open cells a card's shape now
waits on (note_completions); a mission check is then a lookup.
"""

import numpy as np

from kernels.jit import internal, kernel
from kernels.rng import PURPOSE_DECK, PURPOSE_POLICY, stream_init, uniform_int

PURPOSE_ROLLOUT = 7  # the rollout bot's determinizations (kernels/rng.py's purposes of other games end at 6)

EXPLORE, PLACE, PASS = 0, 1, 2
ROUNDS = 21
PILES = 3
MAX_PLAYERS = 4
GRID = 41
PAD = 5  # a mission shape fits in 5 x 5: its cells lie at most 4 rows/columns from the new tile
GP = GRID + 2 * PAD
CENTRE = GRID // 2
FIRST_CELL = (CENTRE + PAD) * GP + CENTRE + PAD  # "a primeira em qualquer lugar": the area's centre
ANY = 99
MAX_TYPES = 9
MAX_CELLS = 8
MAX_ACTIONS = 256  # 2 held tiles x at most 2 * 21 + 2 open cells, or 5 explore actions
MAX_OPEN = 128
N_POINTS = 10  # tile points 0..9: a tile's class (what a seat can tell apart) is type * N_POINTS + points
MAX_CLASSES = MAX_TYPES * N_POINTS

# state scalars (State.st)
ST_ROUND, ST_SEAT, ST_PHASE, ST_BAG_POS, ST_NCOLS, ST_PILE_POS, ST_DISCARDED = 0, 1, 2, 3, 4, 5, 6
ST_PLAN, ST_PLAN_SLOT, ST_PLAN_CELL = 7, 8, 9  # the greedy's placement chosen with its explore (ST_PLAN = 1): slot,
# index of the open cell
ST_BAG_OUT = 10  # the round (from 1) in which the bag's last tile was drawn; 0 while tiles remain
ST_SIZE = 12
# setup.cfg
CFG_PLAYERS, CFG_TILES, CFG_MISSIONS, CFG_TYPES = 0, 1, 2, 3
CFG_ONCE = 4  # 1: a seat scores each card at most once a game (rule card_scores_once)
CFG_SIZE = 5
# points by source (State.points[seat, k])
P_TILE, P_ADJ, P_MISSION, P_BONUS = 0, 1, 2, 3


@internal
def draw(state, setup):
    st = state.st
    if st[ST_BAG_POS] >= setup.cfg[CFG_TILES]:
        return np.int64(-1)
    st[ST_BAG_POS] += 1
    if st[ST_BAG_POS] == setup.cfg[CFG_TILES]:
        st[ST_BAG_OUT] = st[ST_ROUND] + 1
    return state.bag[st[ST_BAG_POS] - 1]


@internal
def pack_right(state):
    """Standing piles slide right in their order ("mova a pilha restante para a extrema direita")."""
    piles, pile_n = state.piles, state.pile_n
    w = PILES - 1
    for i in range(PILES - 1, -1, -1):
        if pile_n[i] > 0:
            if i != w:
                for k in range(pile_n[i]):
                    piles[w, k] = piles[i, k]
                pile_n[w] = pile_n[i]
                pile_n[i] = 0
            w -= 1
    return PILES - 1 - w


@internal
def refill(state, setup):
    """Draw until 3 piles of distinct types stand; a drawn tile joins the pile of its type, else starts a
    pile left of the standing ones."""
    piles, pile_n, tile_type = state.piles, state.pile_n, setup.tile_type
    standing = pack_right(state)
    while standing < PILES:
        t = draw(state, setup)
        if t < 0:
            return
        ty = tile_type[t]
        joined = False
        for i in range(PILES - standing, PILES):
            if tile_type[piles[i, 0]] == ty:
                piles[i, pile_n[i]] = t
                pile_n[i] += 1
                joined = True
                break
        if not joined:
            free = PILES - 1 - standing
            piles[free, 0] = t
            pile_n[free] = 1
            standing += 1


@internal
def shuffle(arr, n, stream):
    for i in range(n):
        arr[i] = i
    for i in range(n - 1, 0, -1):
        j = uniform_int(stream, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


@kernel
def init(state, setup, seed, game):
    st = state.st
    for s in range(MAX_PLAYERS):  # clear the last game's tiles only
        for k in range(state.n_placed[s]):
            state.btype[s, state.placed[s, k]] = -1
            state.bpts[s, state.placed[s, k]] = 0
        state.n_placed[s] = 0
        for k in range(state.n_mtouched[s]):
            state.mmask[s, state.mtouched[s, k]] = 0
            state.mflag[s, state.mtouched[s, k]] = 0
        state.n_mtouched[s] = 0
        state.bbox[s, 0] = GP
        state.bbox[s, 1] = -1
        state.bbox[s, 2] = GP
        state.bbox[s, 3] = -1
        for k in range(state.n_open[s]):
            state.is_open[s, state.open_at[s, k]] = 0
        state.open_at[s, 0] = FIRST_CELL
        state.n_open[s] = 1
        state.is_open[s, FIRST_CELL] = 1
    st[:] = 0
    state.points[:] = 0
    state.gone[:] = 0
    state.completed[:] = 0
    state.revealed[:] = 0
    state.scored[:] = 0
    state.hands[:] = -1
    state.pile_n[:] = 0
    stream_init(state.deck_rng, seed, game, np.int64(PURPOSE_DECK))
    stream_init(state.rng, seed, game, np.int64(PURPOSE_POLICY))
    stream_init(state.roll_rng, seed, game, np.int64(PURPOSE_ROLLOUT))
    n_missions = setup.cfg[CFG_MISSIONS]
    shuffle(state.mcards, n_missions, state.deck_rng)
    shuffle(state.bag, setup.cfg[CFG_TILES], state.deck_rng)
    state.col_top[0] = state.mcards[0]
    state.col_under[0] = -1
    st[ST_NCOLS] = 1
    st[ST_PILE_POS] = 1
    state.revealed[state.mcards[0]] = 1
    refill(state, setup)
    for s in range(setup.cfg[CFG_PLAYERS]):
        state.hands[s, 0] = draw(state, setup)


@internal
def open_cells(state, seat, cells):
    """The seat's legal cells in ascending cell order (row by row), into cells; their number."""
    n = state.n_open[seat]
    for i in range(n):
        cells[i] = state.open_at[seat, i]
    return n


@internal
def open_around(state, seat, cell):
    """Keep the seat's open cells (state.open_at, ascending, so row by row) up to date after a tile on cell:
    cell leaves them, its empty neighbours join them. Built a placement at a time, so no decision scans the
    area for them."""
    at, n, flag, btype = state.open_at, state.n_open[seat], state.is_open, state.btype
    i = 0
    while at[seat, i] != cell:
        i += 1
    for k in range(i, n - 1):
        at[seat, k] = at[seat, k + 1]
    n -= 1
    flag[seat, cell] = 0
    for d in (-GP, -1, 1, GP):
        nb = cell + d
        if btype[seat, nb] < 0 and flag[seat, nb] == 0:
            flag[seat, nb] = 1
            k = n
            while k > 0 and at[seat, k - 1] > nb:
                at[seat, k] = at[seat, k - 1]
                k -= 1
            at[seat, k] = nb
            n += 1
    state.n_open[seat] = n


@kernel
def legal(state, setup, actions):
    st = state.st
    if st[ST_ROUND] >= ROUNDS:
        return 0
    n = 0
    if st[ST_PHASE] == EXPLORE:
        for i in range(PILES):
            if state.pile_n[i] > 0:
                actions[n, 0] = EXPLORE
                actions[n, 1] = i
                actions[n, 2] = 0
                actions[n, 3] = 0
                n += 1
        if st[ST_BAG_POS] < setup.cfg[CFG_TILES]:
            actions[n, 0] = EXPLORE
            actions[n, 1] = 3
            actions[n, 2] = 0
            actions[n, 3] = 0
            n += 1
        if n == 0:
            actions[0, 0] = EXPLORE
            actions[0, 1] = 4
            actions[0, 2] = 0
            actions[0, 3] = 0
            n = 1
        return n
    seat = st[ST_SEAT]
    cells = state.open_at
    m = state.n_open[seat]
    for k in range(2):
        if state.hands[seat, k] >= 0:
            for i in range(m):
                actions[n, 0] = PLACE
                actions[n, 1] = k
                actions[n, 2] = cells[seat, i] // GP - PAD
                actions[n, 3] = cells[seat, i] % GP - PAD
                n += 1
    if n == 0:
        actions[0, 0] = PASS
        actions[0, 1] = 0
        actions[0, 2] = 0
        actions[0, 3] = 0
        n = 1
    return n


@internal
def adjacency_at(state, seat, cell, ty, pt):
    """"peça adjacente com o mesmo tipo de paisagem e igual ou menos Patas-Pontos": their points."""
    btype, bpts = state.btype, state.bpts
    s = 0
    for d in (-GP, -1, 1, GP):
        if btype[seat, cell + d] == ty and bpts[seat, cell + d] <= pt:
            s += bpts[seat, cell + d]
    return s


@internal
def note_card(state, setup, seat, cell, ty, m):
    """Card m's windows through a tile of type ty on cell: each with all its other cells placed and of the right
    types but one empty cell c makes (c, the type c needs) complete card m."""
    btype, mmask = state.btype, state.mmask
    bit = np.int64(1) << m
    w0 = setup.win_start[m, ty]
    for w in range(w0, w0 + setup.win_count[m, ty]):
        empty, empty_want = np.int64(-1), np.int64(0)
        for k in range(setup.win_len[w]):
            at = cell + setup.win_cells[w, k, 0] * GP + setup.win_cells[w, k, 1]
            b = btype[seat, at]
            want = setup.win_cells[w, k, 2]
            if b < 0:
                if empty >= 0:
                    empty = -2
                    break
                empty, empty_want = at, want
            elif want != ANY and b != want:
                empty = -2
                break
        if empty < 0:
            continue
        if state.mflag[seat, empty] == 0:
            state.mflag[seat, empty] = 1
            state.mtouched[seat, state.n_mtouched[seat]] = empty
            state.n_mtouched[seat] += 1
        if empty_want == ANY:
            for t in range(setup.cfg[CFG_TYPES]):
                mmask[seat, empty, t] |= bit
        else:
            mmask[seat, empty, empty_want] |= bit


@internal
def note_completions(state, setup, seat, cell, ty):
    """After a tile of type ty is placed on cell, note_card for every card turned up so far. A completion never
    goes away while c is open (tiles are never removed), so these masks, built a placement at a time, answer
    every later mission check with one lookup (state.mmask[seat, c, type], a bit per card). A card still in the
    pile is noted when it is turned up (note_revealed): 8 of the 15 never are."""
    for m in range(setup.cfg[CFG_MISSIONS]):
        if state.revealed[m] != 0:
            note_card(state, setup, seat, cell, ty, m)


@internal
def note_revealed(state, setup, m):
    """Card m is turned up: its completions on every area as they stand (the masks note_completions would have
    built had it seen m from the start: for an open cell, whether some window of m through it has every other
    cell placed and right)."""
    for s in range(setup.cfg[CFG_PLAYERS]):
        for k in range(state.n_placed[s]):
            cell = state.placed[s, k]
            note_card(state, setup, s, cell, np.int64(state.btype[s, cell]), m)


@internal
def missions_at(state, setup, seat, cell, ty, record):
    """(card points, bonus) of the uncovered cards completed by a tile of type ty on cell, less those the seat
    has scored under card_scores_once; with record, count each completion."""
    mission, bonus = 0, 0
    done = state.mmask[seat, cell, ty]
    if setup.cfg[CFG_ONCE] != 0:
        done &= ~state.scored[seat]
    if done == 0:
        return mission, bonus
    for j in range(state.st[ST_NCOLS]):
        m = state.col_top[j]
        if (done >> m) & 1:
            mission += setup.m_points[m]
            u = state.col_under[j]
            if u >= 0:
                bonus += setup.m_points[u]
            if record:
                state.completed[m] += 1
                state.scored[seat] |= np.int64(1) << m
    return mission, bonus


@internal
def points_at(state, setup, seat, cell, ty, pt):
    """Every point a tile (ty, pt) on cell would score now."""
    mission, bonus = missions_at(state, setup, seat, cell, ty, False)
    return pt + adjacency_at(state, seat, cell, ty, pt) + mission + bonus


@internal
def mission_update(state, setup):
    st = state.st
    to, card = -1, -1
    for j in range(st[ST_NCOLS]):
        if state.col_under[j] >= 0:
            card = state.col_under[j]
            state.col_under[j] = -1
            to = j + 1
            break
    if to < 0:
        if st[ST_PILE_POS] >= setup.cfg[CFG_MISSIONS]:
            return
        card = state.mcards[st[ST_PILE_POS]]
        st[ST_PILE_POS] += 1
        if st[ST_ROUND] + 1 < ROUNDS:  # (after the last round no tile is placed again: never revealed to a photo)
            state.revealed[card] = 1
            note_revealed(state, setup, card)
        to = 0
    if to < st[ST_NCOLS]:
        state.col_under[to] = state.col_top[to]
        state.col_top[to] = card
    else:
        state.col_top[to] = card
        state.col_under[to] = -1
        st[ST_NCOLS] += 1


@internal
def place(state, setup, seat, slot, cell):
    tile = state.hands[seat, slot]
    ty, pt = setup.tile_type[tile], setup.tile_pts[tile]
    mission, bonus = missions_at(state, setup, seat, cell, ty, True)
    pts = state.points
    pts[seat, P_TILE] += pt
    pts[seat, P_ADJ] += adjacency_at(state, seat, cell, ty, pt)
    pts[seat, P_MISSION] += mission
    pts[seat, P_BONUS] += bonus
    state.btype[seat, cell] = ty
    state.bpts[seat, cell] = pt
    note_completions(state, setup, seat, cell, ty)
    open_around(state, seat, cell)
    state.placed[seat, state.n_placed[seat]] = cell
    state.n_placed[seat] += 1
    state.gone[ty] += 1
    r, c = cell // GP, cell % GP
    box = state.bbox
    box[seat, 0] = min(box[seat, 0], r)
    box[seat, 1] = max(box[seat, 1], r)
    box[seat, 2] = min(box[seat, 2], c)
    box[seat, 3] = max(box[seat, 3], c)
    state.hands[seat, 0] = state.hands[seat, 1 - slot]
    state.hands[seat, 1] = -1


@kernel
def step(state, setup, kind, a, b, c):
    st = state.st
    seat = st[ST_SEAT]
    players = setup.cfg[CFG_PLAYERS]
    if kind == EXPLORE:
        tile = np.int64(-1)
        if a < PILES:
            state.pile_n[a] -= 1
            tile = state.piles[a, state.pile_n[a]]
        elif a == 3:
            tile = draw(state, setup)
        state.hands[seat, 1] = tile
        if players == 1:  # "descarte a peça superior da pilha mais à direita"
            for i in range(PILES - 1, -1, -1):
                if state.pile_n[i] > 0:
                    state.pile_n[i] -= 1
                    gone = state.piles[i, state.pile_n[i]]
                    state.gone[setup.tile_type[gone]] += 1
                    state.discards[st[ST_DISCARDED]] = gone  # face up: every seat saw it
                    st[ST_DISCARDED] += 1
                    break
        refill(state, setup)
        st[ST_PHASE] = PLACE
        return
    if kind == PLACE:
        place(state, setup, seat, a, (b + PAD) * GP + c + PAD)
    st[ST_PHASE] = EXPLORE
    st[ST_PLAN] = 0
    if seat + 1 < players:
        st[ST_SEAT] = seat + 1
        return
    mission_update(state, setup)  # "somente realizada pelo último jogador da rodada"
    st[ST_SEAT] = 0
    st[ST_ROUND] += 1


@kernel
def terminal(state, setup):
    return state.st[ST_ROUND] >= ROUNDS


@kernel
def result(state, setup, out):
    """analyzer.meographic.rules.column_names, in order, into out."""
    players = setup.cfg[CFG_PLAYERS]
    n_missions = setup.cfg[CFG_MISSIONS]
    out[:] = 0
    top = np.int64(-1)
    for s in range(players):
        total = 0
        for k in range(4):
            total += state.points[s, k]
            out[(k + 1) * MAX_PLAYERS + s] = state.points[s, k]
        out[s] = total
        top = max(top, total)
    n_top = 0
    for s in range(players):
        if out[s] == top:
            out[5 * MAX_PLAYERS + s] = 1
            n_top += 1
    base = 6 * MAX_PLAYERS
    out[base] = n_top
    out[base + 1] = state.st[ST_DISCARDED]
    out[base + 2] = state.st[ST_BAG_OUT]
    for k in range(n_missions):
        out[base + 3 + k] = state.completed[k]
        out[base + 3 + n_missions + k] = state.revealed[k]
