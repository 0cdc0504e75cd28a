"""The Regatta step contract (docs/games.md) in numba: init / legal / step / terminal / result over named
tuples of caller-owned arrays (`Setup`, `State`), allocating nothing. Twin of analyzer/regatta/reference.py
(same canonical legal order, same stream draws; a hypothesis test plays both)."""

from collections import namedtuple

import numpy as np

from kernels.jit import inline, internal, kernel
from kernels.rng import stream_init, uniform_int

END, DISCARD, REVEAL, SWAP_ADJ, SWAP_ANY, ADV1, ADV2, ROTATE, MULLIGAN, NEGATE, PASS, PLACE = range(12)
N_KINDS = 12
RIVER, ROCK, GOAL, START = range(4)
PURPOSE_DECK, PURPOSE_POLICY, PURPOSE_TILES = 0, 1, 7
PLACING, TURN, WINDOW, OVER = range(4)
DRAW, LOSE, ROTATE_HERE, BACK, SKIP_REVEAL, EXTRA_PLAY = range(6)
MAX_BOATS = 4
MAX_ACTIONS = 4096

# cfg slots
(C_ROWS, C_COLS, C_PLAYERS, C_TEAM, C_DEAL, C_LIMIT, C_DRAW_TO, C_PLAYS, C_CAP, C_NCARD, C_NEV, C_BOATS,
 C_RESHUFFLE_NOW) = range(13)
CFG_N = 13
# scalar slots
(S_PHASE, S_ACTIVE, S_TO_MOVE, S_PLAYS, S_ALLOWED, S_REVEALED, S_TURN, S_WINNER, S_CAPPED, S_PKIND, S_PCARD, S_PB,
 S_PC, S_CHAIN, S_LAST, S_ASKED, S_NEGATED, S_REVEALS, S_DECK_N) = range(19)
S_N = 19

COLUMN_NAMES = ("winner", "turns", "capped", "negated", "reveals",
                "used_end", "used_discard", "used_reveal", "used_swap_adjacent", "used_swap_any", "used_advance_one",
                "used_advance_two", "used_rotate", "used_mulligan", "used_negate", "used_pass", "used_place",
                "score_0", "score_1", "score_2", "score_3")
N_COLS = len(COLUMN_NAMES)

Setup = namedtuple("Setup", ["cfg", "tile_kind", "tile_open", "tile_mark", "tile_sea", "card_act", "card_count",
                             "ev_deck", "ev_effect", "ev_amount", "ev_count"])
State = namedtuple("State", [
    "sc",  # int64 [S_N] scalars (S_*)
    "cell_tile", "cell_rot", "cell_up",  # int64 [cells]
    "boat", "boat_start", "skip",  # int64 [MAX_BOATS]
    "hand",  # int64 [MAX_BOATS, card types]
    "deck",  # int64 [action cards] top = deck[sc[S_DECK_N] - 1]
    "disc",  # int64 [card types]
    "ev_deck", "ev_n", "ev_disc",  # int64 [2, ev cards], [2], [2, ev types]
    "used",  # int64 [N_KINDS]
    "rng",  # uint64 [2] deck stream
    "tiles_rng",  # uint64 [2] tile stream
    "mark",  # int64 [cells + cols] the cells a move reaches (mark_reach), all 0 between uses
    "queue", "dist",  # int64 [cells + cols] search scratch
    "pile",  # int64 [tiles] shuffle scratch
])


def make_setup(rules, players: int, team: bool) -> Setup:
    cfg = np.zeros(CFG_N, np.int64)
    cfg[C_ROWS], cfg[C_COLS], cfg[C_PLAYERS], cfg[C_TEAM] = rules.rows, rules.cols, players, int(team)
    cfg[C_LIMIT] = rules.team_limit if team else rules.limit
    cfg[C_DEAL] = min(rules.deal, cfg[C_LIMIT]) if team and rules.option("team_deal_at_limit") else rules.deal
    cfg[C_RESHUFFLE_NOW] = int(rules.option("reshuffle_at_once"))
    cfg[C_DRAW_TO], cfg[C_PLAYS], cfg[C_CAP] = rules.draw_to, rules.plays, rules.turn_cap
    cfg[C_NCARD], cfg[C_NEV], cfg[C_BOATS] = len(rules.card_names), len(rules.ev_names), 2 if team else players
    ev = max(len(rules.ev_names), 1)
    pad = np.zeros(ev - len(rules.ev_names), np.int64)
    return Setup(cfg, rules.tile_kind.copy(), rules.tile_open.copy(), rules.tile_mark.copy(), rules.tile_sea.copy(),
                 rules.card_actions.copy(), rules.card_count.copy(), np.concatenate([rules.ev_deck, pad]),
                 np.concatenate([rules.ev_effect, pad]), np.concatenate([rules.ev_amount, pad + 1]),
                 np.concatenate([rules.ev_count, pad]))


def make_state(setup: Setup) -> State:
    cells = int(setup.cfg[C_ROWS] * setup.cfg[C_COLS])
    n = cells + int(setup.cfg[C_COLS])
    k, ev = len(setup.card_count), len(setup.ev_count)
    z = np.zeros
    return State(z(S_N, np.int64), z(cells, np.int64), z(cells, np.int64), z(cells, np.int64),
                 z(MAX_BOATS, np.int64), z(MAX_BOATS, np.int64), z(MAX_BOATS, np.int64), z((MAX_BOATS, k), np.int64),
                 z(max(int(setup.card_count.sum()), 1), np.int64), z(k, np.int64),
                 z((2, max(int(setup.ev_count.sum()), 1)), np.int64), z(2, np.int64), z((2, ev), np.int64),
                 z(N_KINDS, np.int64), z(2, np.uint64), z(2, np.uint64), z(n, np.int64), z(n, np.int64),
                 z(n, np.int64), z(len(setup.tile_kind), np.int64))


@inline
def turned(mask, rot):
    if rot == 0:
        return mask
    return ((mask << rot) | (mask >> (4 - rot))) & 15


@inline
def boat_of(setup, seat):
    return seat % 2 if setup.cfg[C_TEAM] else seat


@internal
def _shuffle(items, n, rng):
    for i in range(n - 1, 0, -1):
        j = uniform_int(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


@internal
def _refill(deck, counts, rng):
    """The discarded cards in type order, shuffled, into deck; returns how many."""
    n = 0
    for k in range(len(counts)):
        for _ in range(counts[k]):
            deck[n] = k
            n += 1
        counts[k] = 0
    _shuffle(deck, n, rng)
    return n


@internal
def _draw(st, setup, p):
    if st.sc[S_DECK_N] == 0:
        st.sc[S_DECK_N] = _refill(st.deck, st.disc, st.rng)
    if st.sc[S_DECK_N] > 0:
        st.sc[S_DECK_N] -= 1
        st.hand[p, st.deck[st.sc[S_DECK_N]]] += 1
        _reshuffle_if_out(st, setup)


@inline
def _reshuffle_if_out(st, setup):
    """reshuffle_at_once: "Si en cualquier momento se termina el mazo de acciones, barajea la pila de descarte"
    -- the moment the deck is empty (after a draw, or a discard onto the pile of an empty deck)."""
    if setup.cfg[C_RESHUFFLE_NOW] and st.sc[S_DECK_N] == 0:
        st.sc[S_DECK_N] = _refill(st.deck, st.disc, st.rng)


@inline
def _discard(st, setup, p, k):
    """Seat p's card of type k onto the action discard pile."""
    st.hand[p, k] -= 1
    st.disc[k] += 1
    _reshuffle_if_out(st, setup)


@kernel
def init(st, setup, seed, game):
    cfg = setup.cfg
    cells = cfg[C_ROWS] * cfg[C_COLS]
    stream_init(st.tiles_rng, seed, game, np.int64(PURPOSE_TILES))
    put = 0
    for pile in range(3):  # river (with rocks), goal, start piles, shuffled separately
        n = 0
        for t in range(len(setup.tile_kind)):
            k = setup.tile_kind[t]
            if (pile == 0 and k <= ROCK) or (pile == 1 and k == GOAL) or (pile == 2 and k == START):
                st.pile[n] = t
                n += 1
        _shuffle(st.pile, n, st.tiles_rng)
        base = cfg[C_COLS] if pile == 0 else (0 if pile == 1 else cells - cfg[C_COLS])
        for i in range(n):
            st.cell_tile[base + i] = st.pile[i]
        put += n
    st.cell_rot[:] = 0
    st.cell_up[:] = 0
    stream_init(st.rng, seed, game, np.int64(PURPOSE_DECK))
    for k in range(len(st.disc)):
        st.disc[k] = setup.card_count[k]
    st.sc[:] = 0
    st.sc[S_DECK_N] = _refill(st.deck, st.disc, st.rng)
    for d in range(2):
        for e in range(len(setup.ev_count)):
            st.ev_disc[d, e] = setup.ev_count[e] if setup.ev_deck[e] == d and e < cfg[C_NEV] else 0
        st.ev_n[d] = _refill(st.ev_deck[d], st.ev_disc[d], st.rng)
    st.hand[:, :] = 0
    st.boat[:] = -1
    st.boat_start[:] = -1
    st.skip[:] = 0
    st.used[:] = 0
    st.sc[S_WINNER] = -1
    for p in range(cfg[C_PLAYERS]):
        for _ in range(cfg[C_DEAL]):
            _draw(st, setup, p)


@inline
def is_open(st, setup, cell):
    if st.cell_up[cell] == 0:
        return 0
    return turned(setup.tile_open[st.cell_tile[cell]], st.cell_rot[cell])


@internal
def neighbour(setup, cell, side):
    """The cell on `side` (0 N, 1 E, 2 S, 3 W) of `cell`, or -1 off the grid."""
    cols = setup.cfg[C_COLS]
    r, c = cell // cols, cell % cols
    if side == 0:
        return cell - cols if r > 0 else -1
    if side == 1:
        return cell + 1 if c < cols - 1 else -1
    if side == 2:
        return cell + cols if r < setup.cfg[C_ROWS] - 1 else -1
    return cell - 1 if c > 0 else -1


@internal
def _step(st, setup, pos, side):
    """The cell one connected move from the grid cell pos by `side` (0 N, 1 E, 2 S, 3 W): a face-up tile
    whose river meets pos's; else -1."""
    n = neighbour(setup, pos, side)
    if n < 0 or not (is_open(st, setup, pos) >> side) & 1 or not (is_open(st, setup, n) >> ((side + 2) % 4)) & 1:
        return -1
    return n


@internal
def _mark_from(st, setup, x, more):
    """Mark cell x and, when `more`, the cells one connected move from it."""
    st.mark[x] = 1
    if more:
        for side in range(4):
            m = _step(st, setup, x, side)
            if m >= 0:
                st.mark[m] = 1


@internal
def mark_reach(st, setup, pos, moves):
    """st.mark[x] = 1 for the cells at most `moves` (1 or 2) connected moves from pos (pos itself when a
    second move leads back); from off the map the first move is onto the start tile in front when it opens
    south. An array, not a bit mask: any grid size. Whoever reads the marks clears them (read_mark)."""
    cols = setup.cfg[C_COLS]
    cells = setup.cfg[C_ROWS] * cols
    if pos < 0:
        return
    if pos >= cells:
        front = cells - cols + pos - cells
        if is_open(st, setup, front) & 4:
            _mark_from(st, setup, front, moves == 2)
        return
    for side in range(4):
        n = _step(st, setup, pos, side)
        if n >= 0:
            _mark_from(st, setup, n, moves == 2)


@inline
def read_mark(st, x):
    """Whether cell x is marked (mark_reach), clearing the mark."""
    if st.mark[x] == 0:
        return False
    st.mark[x] = 0
    return True


@inline
def _swap_type(st, setup, x):
    """RIVER or GOAL for a face-up tile of that type (the only tiles a swap moves), else -1."""
    if st.cell_up[x] == 0:
        return -1
    k = setup.tile_kind[st.cell_tile[x]]
    return k if k == RIVER or k == GOAL else -1


@inline
def _has_boat(st, setup, x):
    for b in range(setup.cfg[C_BOATS]):
        if st.boat[b] == x:
            return True
    return False


@inline
def _put(actions, n, kind, a, b, c):
    actions[n, 0] = kind
    actions[n, 1] = a
    actions[n, 2] = b
    actions[n, 3] = c
    return n + 1


@internal
def _put_swaps(st, setup, actions, n, kind, k, cells, cols):
    """The swaps of card k in cell order (x, then y > x): two face-up tiles of one type (river or goal),
    orthogonal neighbours for SWAP_ADJ, neither carrying a boat for SWAP_ANY."""
    for x in range(cells):
        tx = _swap_type(st, setup, x)
        if tx < 0:
            continue
        if kind == SWAP_ADJ:
            if (x + 1) % cols != 0 and _swap_type(st, setup, x + 1) == tx:
                n = _put(actions, n, kind, k, x, x + 1)
            if x + cols < cells and _swap_type(st, setup, x + cols) == tx:
                n = _put(actions, n, kind, k, x, x + cols)
        elif not _has_boat(st, setup, x):
            for y in range(x + 1, cells):
                if _swap_type(st, setup, y) == tx and not _has_boat(st, setup, y):
                    n = _put(actions, n, kind, k, x, y)
    return n


@kernel
def legal(st, setup, actions):
    cfg = setup.cfg
    cols = cfg[C_COLS]
    cells = cfg[C_ROWS] * cols
    nk = cfg[C_NCARD]
    p = st.sc[S_TO_MOVE]
    phase = st.sc[S_PHASE]
    n = 0
    if phase == PLACING:
        for c in range(cols):
            n = _put(actions, n, PLACE, 0, c, 0)
        return n
    if phase == WINDOW:
        n = _put(actions, n, PASS, 0, 0, 0)
        for k in range(nk):
            if st.hand[p, k] > 0 and setup.card_act[k, 0] == NEGATE:
                n = _put(actions, n, NEGATE, k, 0, 0)
        return n
    if phase == OVER:
        return 0
    held = 0
    for k in range(nk):
        held += st.hand[p, k]
    if held <= cfg[C_LIMIT]:
        n = _put(actions, n, END, 0, 0, 0)
    else:
        for k in range(nk):
            if st.hand[p, k] > 0:
                n = _put(actions, n, DISCARD, k, 0, 0)
    pos = st.boat[boat_of(setup, p)]
    if st.sc[S_REVEALED] == 0:
        if pos >= cells:
            x = cells - cols + pos - cells
            if st.cell_up[x] == 0:
                n = _put(actions, n, REVEAL, 0, x, 0)
        else:
            for side in (0, 3, 1, 2):  # in cell order: N, W, E, S
                x = neighbour(setup, pos, side)
                if x >= 0 and st.cell_up[x] == 0:
                    n = _put(actions, n, REVEAL, 0, x, 0)
    if st.sc[S_PLAYS] < st.sc[S_ALLOWED]:
        for k in range(nk):
            if st.hand[p, k] == 0:
                continue
            for slot in range(2):
                kind = setup.card_act[k, slot]
                if kind == SWAP_ADJ or kind == SWAP_ANY:
                    n = _put_swaps(st, setup, actions, n, kind, k, cells, cols)
                elif kind == ADV1 or kind == ADV2:
                    mark_reach(st, setup, pos, 1 if kind == ADV1 else 2)
                    for x in range(cells):
                        if read_mark(st, x) and x != pos:
                            n = _put(actions, n, kind, k, x, 0)
                elif kind == ROTATE:
                    for x in range(cells):
                        tk = setup.tile_kind[st.cell_tile[x]]
                        if st.cell_up[x] == 1 and (tk == RIVER or tk == START):
                            n = _put(actions, n, kind, k, x, 1)
                            n = _put(actions, n, kind, k, x, 3)
        for k in range(nk):
            if st.hand[p, k] > 0:
                n = _put(actions, n, MULLIGAN, k, 0, 0)
    return n


@internal
def _begin_turn(st, setup):
    b = boat_of(setup, st.sc[S_ACTIVE])
    st.sc[S_TO_MOVE] = st.sc[S_ACTIVE]
    st.sc[S_PLAYS] = 0
    st.sc[S_ALLOWED] = setup.cfg[C_PLAYS]
    st.sc[S_REVEALED] = st.skip[b]
    st.skip[b] = 0
    st.boat_start[b] = st.boat[b]


@internal
def apply_card(st, setup, kind, b, c):
    """An action card's effect (after its negate window let it through)."""
    if kind == SWAP_ADJ or kind == SWAP_ANY:
        t = st.cell_tile[b]
        st.cell_tile[b] = st.cell_tile[c]
        st.cell_tile[c] = t
        t = st.cell_rot[b]
        st.cell_rot[b] = st.cell_rot[c]
        st.cell_rot[c] = t
        for i in range(setup.cfg[C_BOATS]):  # "Puede haber jugadores sobre una o ambas losetas"
            if st.boat[i] == b:
                st.boat[i] = c
            elif st.boat[i] == c:
                st.boat[i] = b
    elif kind == ROTATE:
        st.cell_rot[b] = (st.cell_rot[b] + c) % 4
    elif kind == ADV1 or kind == ADV2:
        boat = boat_of(setup, st.sc[S_ACTIVE])
        st.boat[boat] = b
        t = st.cell_tile[b]
        if setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            st.sc[S_WINNER] = boat
            st.sc[S_PHASE] = OVER


@internal
def _open_window(st, setup):
    players = setup.cfg[C_PLAYERS]
    while st.sc[S_ASKED] < players - 1:
        st.sc[S_ASKED] += 1
        seat = (st.sc[S_LAST] + st.sc[S_ASKED]) % players
        for k in range(setup.cfg[C_NCARD]):
            if st.hand[seat, k] > 0 and setup.card_act[k, 0] == NEGATE:
                st.sc[S_PHASE] = WINDOW
                st.sc[S_TO_MOVE] = seat
                return
    st.sc[S_PHASE] = TURN
    st.sc[S_TO_MOVE] = st.sc[S_ACTIVE]
    if st.sc[S_CHAIN] % 2 == 0:
        apply_card(st, setup, st.sc[S_PKIND], st.sc[S_PB], st.sc[S_PC])
    else:
        st.sc[S_NEGATED] += 1


@internal
def _resolve_card(st, setup, ev):
    effect, amount = setup.ev_effect[ev], setup.ev_amount[ev]
    p = st.sc[S_ACTIVE]
    boat = boat_of(setup, p)
    if effect == DRAW:
        for _ in range(amount):
            _draw(st, setup, p)
    elif effect == LOSE:
        for _ in range(amount):
            held = 0
            for k in range(setup.cfg[C_NCARD]):
                held += st.hand[p, k]
            if held > 0:
                u = uniform_int(st.rng, held)
                k = 0
                while u >= st.hand[p, k]:
                    u -= st.hand[p, k]
                    k += 1
                _discard(st, setup, p, k)
    elif effect == BACK:
        st.boat[boat] = st.boat_start[boat]
    elif effect == SKIP_REVEAL:
        st.skip[boat] = 1
    elif effect == EXTRA_PLAY:
        st.sc[S_ALLOWED] += amount


@kernel
def step(st, setup, kind, a, b, c):
    cfg = setup.cfg
    cells = cfg[C_ROWS] * cfg[C_COLS]
    p = st.sc[S_TO_MOVE]
    st.used[kind] += 1
    if kind == PLACE:
        st.boat[boat_of(setup, p)] = cells + b
        st.sc[S_ACTIVE] += 1
        if st.sc[S_ACTIVE] == cfg[C_BOATS]:
            st.sc[S_PHASE] = TURN
            st.sc[S_ACTIVE] = 0
            _begin_turn(st, setup)
        else:
            st.sc[S_TO_MOVE] = st.sc[S_ACTIVE]
    elif kind == END:
        while True:
            held = 0
            spare = 0
            for k in range(cfg[C_NCARD]):
                held += st.hand[p, k]
                spare += st.disc[k]
            if held >= cfg[C_DRAW_TO] or (st.sc[S_DECK_N] == 0 and spare == 0):
                break
            _draw(st, setup, p)
        st.sc[S_TURN] += 1
        if st.sc[S_TURN] >= cfg[C_CAP]:
            st.sc[S_PHASE] = OVER
            st.sc[S_CAPPED] = 1
            return
        st.sc[S_ACTIVE] = (st.sc[S_ACTIVE] + 1) % cfg[C_PLAYERS]  # "Pasa el turno al jugador de tu derecha."
        _begin_turn(st, setup)
    elif kind == DISCARD or kind == MULLIGAN:
        _discard(st, setup, p, a)
        if kind == MULLIGAN:
            st.sc[S_PLAYS] += 1
            _draw(st, setup, p)
    elif kind == REVEAL:
        st.sc[S_REVEALED] = 1
        st.sc[S_REVEALS] += 1
        st.cell_up[b] = 1
        mark = setup.tile_mark[st.cell_tile[b]]
        if mark > 0:
            d = mark - 1
            if st.ev_n[d] == 0:
                st.ev_n[d] = _refill(st.ev_deck[d], st.ev_disc[d], st.rng)
            if st.ev_n[d] > 0:
                st.ev_n[d] -= 1
                ev = st.ev_deck[d, st.ev_n[d]]
                st.ev_disc[d, ev] += 1
                if setup.ev_effect[ev] == ROTATE_HERE:
                    tk = setup.tile_kind[st.cell_tile[b]]
                    if tk == RIVER or tk == START:
                        st.cell_rot[b] = (st.cell_rot[b] + 1) % 4
                else:
                    _resolve_card(st, setup, ev)
    elif kind == PASS:
        _open_window(st, setup)
    elif kind == NEGATE:  # "Puedes usar esta carta en respuesta a otra carta de Negar acción."
        _discard(st, setup, p, a)
        st.sc[S_CHAIN] += 1
        st.sc[S_LAST] = p
        st.sc[S_ASKED] = 0
        _open_window(st, setup)
    else:  # an action card: played, counted, then its negate window
        _discard(st, setup, p, a)
        st.sc[S_PLAYS] += 1
        st.sc[S_PKIND] = kind
        st.sc[S_PCARD] = a
        st.sc[S_PB] = b
        st.sc[S_PC] = c
        st.sc[S_CHAIN] = 0
        st.sc[S_LAST] = p
        st.sc[S_ASKED] = 0
        _open_window(st, setup)


@inline
def terminal(st, setup):
    return st.sc[S_PHASE] == OVER
