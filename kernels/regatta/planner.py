"""The Regatta planner: a search over the turn's card plays and its reveal, and negates kept for the leader.

Card plays: a beam search, `depth` plays deep (at most the uses left this turn), keeping at each level the
`beam` plays that leave the best value (its boat's path_score less `spite` x the nearest rival's; a play
that wins, best of all); the first play of the best line is played when that line beats standing still.
Plays of the same effect from two cards count once (the first card in type order).

The reveal: each face-down neighbour is valued by the mean, over the tiles of its pile the seat has not
seen face up, of the value with that tile laid there (as printed), or after the best move a move card in
hand then allows. The planner reveals first, unless its best line starts with a move and beats the best
reveal: then it moves, and looks again from the new place.

Negate windows: it negates a rival's card that would win, or that shortens the path of the leader (a boat
whose path is no longer than any other's); and it negates a negate of its own boat's card when that card
helps it. Everything it reads is its own hand, the face-up tiles, the boats and the pending card: a tile it
lays on a face-down cell to value a reveal is one of the tiles it has not seen, never the real one."""

from kernels.jit import internal
from kernels.regatta.engine import (
    ADV1,
    ADV2,
    C_BOATS,
    C_COLS,
    C_NCARD,
    C_ROWS,
    GOAL,
    REVEAL,
    ROCK,
    ROTATE,
    S_ACTIVE,
    S_ALLOWED,
    S_CHAIN,
    S_PB,
    S_PC,
    S_PKIND,
    S_PLAYS,
    S_TO_MOVE,
    START,
    SWAP_ADJ,
    apply_card,
    boat_of,
    legal,
    mark_reach,
    read_mark,
)
from kernels.regatta.score import WIN, path_score, standing, value, value_after, value_with


@internal
def _rank(st, setup, wk, acts, n, level, me, spite, beam, bd, sea, rival):
    """The `beam` card plays among acts[:n] of least value into wk.beam[level] (ties: the earlier play;
    a play with the effect of one kept already is left out); returns how many. bd, sea, rival: standing."""
    m = 0
    for i in range(n):
        kind = acts[i, 0]
        if kind < SWAP_ADJ or kind > ROTATE:
            continue
        v = value_with(bd, setup, sea, st, me, spite, rival, kind, acts[i, 2], acts[i, 3])
        j = m
        while j > 0 and wk.beam_v[level, j - 1] > v:
            j -= 1
        if j >= beam:
            continue
        same = False
        for q in range(j):
            o = wk.beam[level, q]
            if wk.beam_v[level, q] == v and acts[o, 0] == kind and acts[o, 2] == acts[i, 2] and \
                    acts[o, 3] == acts[i, 3]:
                same = True
        if same:
            continue
        top = min(m, beam - 1)
        for q in range(top, j, -1):
            wk.beam[level, q] = wk.beam[level, q - 1]
            wk.beam_v[level, q] = wk.beam_v[level, q - 1]
        wk.beam[level, j] = i
        wk.beam_v[level, j] = v
        m = min(m + 1, beam)
    return m


@internal
def _play(st, setup, p, me, kind, a, b, c):
    """Make a play on the board (the card out of the hand, one use counted); returns the boat's cell before."""
    st.hand[p, a] -= 1
    st.sc[S_PLAYS] += 1
    keep = st.boat[me]
    if kind == ADV1 or kind == ADV2:
        st.boat[me] = b
    else:
        apply_card(st, setup, kind, b, c)
    return keep


@internal
def _unplay(st, setup, p, me, kind, a, b, c, keep):
    st.hand[p, a] += 1
    st.sc[S_PLAYS] -= 1
    if kind == ADV1 or kind == ADV2:
        st.boat[me] = keep
    else:
        apply_card(st, setup, kind, b, c if kind != ROTATE else 4 - c)


@internal
def _expand(st, setup, wk, level, depth, me, spite, beam):
    """(this position's value, how many plays from it are kept in wk.beam[level]: 0 at the last level)."""
    bd, sea, here, rival = standing(st, setup, me, spite)
    if level >= depth or st.sc[S_PLAYS] >= st.sc[S_ALLOWED]:
        return here, 0
    acts = wk.acts[level - 1]
    n = legal(st, setup, acts)
    return here, _rank(st, setup, wk, acts, n, level, me, spite, beam, bd, sea, rival)


@internal
def _last_line(st, setup, wk, level, depth, me, spite, beam):
    """_line one level above the deepest, whose plays are leaves (numba cannot cache a recursive function,
    and MAX_DEPTH = 3 needs just these two levels below the root)."""
    best, m = _expand(st, setup, wk, level, depth, me, spite, beam)
    for j in range(m):
        if wk.beam_v[level, j] < best:
            best = wk.beam_v[level, j]
    return best


@internal
def _line(st, setup, wk, level, depth, me, spite, beam):
    """The least value of this position and of every line of at most depth - level more plays from it."""
    best, m = _expand(st, setup, wk, level, depth, me, spite, beam)
    acts = wk.acts[level - 1]
    p = st.sc[S_TO_MOVE]
    for j in range(m):
        i = wk.beam[level, j]
        v = wk.beam_v[level, j]
        if v > WIN and level + 1 < depth:
            kind, a, b, c = acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3]
            keep = _play(st, setup, p, me, kind, a, b, c)
            v = min(v, _last_line(st, setup, wk, level + 1, depth, me, spite, beam))
            _unplay(st, setup, p, me, kind, a, b, c, keep)
        if v < best:
            best = v
    return best


@internal
def best_line(st, setup, wk, actions, n, me, spite, beam, depth):
    """(index of the first play of the best line, its value); -1 when no card play is legal."""
    depth = min(depth, st.sc[S_ALLOWED] - st.sc[S_PLAYS])
    bd, sea, _here, rival = standing(st, setup, me, spite)
    m = _rank(st, setup, wk, actions, n, 0, me, spite, beam, bd, sea, rival)
    p = st.sc[S_TO_MOVE]
    best_i, best_v = -1, 0.0
    for j in range(m):
        i = wk.beam[0, j]
        v = wk.beam_v[0, j]
        if v > WIN and depth > 1:
            kind, a, b, c = actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3]
            keep = _play(st, setup, p, me, kind, a, b, c)
            v = min(v, _line(st, setup, wk, 1, depth, me, spite, beam))
            _unplay(st, setup, p, me, kind, a, b, c, keep)
        if best_i < 0 or v < best_v:
            best_i, best_v = i, v
    return best_i, best_v


@internal
def pile_of(setup, t):
    """0 river (with the rocks), 1 goal, 2 start: the pile a tile was shuffled in."""
    k = setup.tile_kind[t]
    if k == GOAL:
        return 1
    if k == START:
        return 2
    return 0


@internal
def _moves_value(st, setup, p, me, spite, base, bd, sea, rival):
    """The least of `base` and the value after each move a move card in hand allows (one use left); bd,
    sea, rival: standing."""
    if st.sc[S_PLAYS] >= st.sc[S_ALLOWED]:
        return base
    moves = 0
    for k in range(setup.cfg[C_NCARD]):
        if st.hand[p, k] > 0:
            for slot in range(2):
                if setup.card_act[k, slot] == ADV2:
                    moves = 2
                elif setup.card_act[k, slot] == ADV1 and moves == 0:
                    moves = 1
    if moves == 0:
        return base
    cells = setup.cfg[C_ROWS] * setup.cfg[C_COLS]
    pos = st.boat[me]
    mark_reach(st, setup, pos, moves)
    best = base
    for x in range(cells):
        if read_mark(st, x) and x != pos:
            v = value_with(bd, setup, sea, st, me, spite, rival, ADV2, x, 0)
            if v < best:
                best = v
    return best


@internal
def reveal_value(st, setup, wk, me, spite, x):
    """The mean value over the unseen tiles of x's pile laid face up at x (then the best move, if any)."""
    cells = setup.cfg[C_ROWS] * setup.cfg[C_COLS]
    wk.seen[:] = 0
    for y in range(cells):
        if st.cell_up[y] == 1:
            wk.seen[st.cell_tile[y]] = 1
    cols = setup.cfg[C_COLS]
    pile = 1 if x < cols else (2 if x >= cells - cols else 0)
    real, rot = st.cell_tile[x], st.cell_rot[x]
    p = st.sc[S_TO_MOVE]
    total, count = 0.0, 0
    st.cell_up[x] = 1
    st.cell_rot[x] = 0
    for t in range(len(setup.tile_kind)):
        if wk.seen[t] == 1 or pile_of(setup, t) != pile:
            continue
        st.cell_tile[x] = t
        bd, sea, v, rival = standing(st, setup, me, spite)
        if setup.tile_kind[t] != ROCK:
            v = _moves_value(st, setup, p, me, spite, v, bd, sea, rival)
        total += v
        count += 1
    st.cell_tile[x] = real
    st.cell_rot[x] = rot
    st.cell_up[x] = 0
    return total / count if count > 0 else value(st, setup, me, spite)


@internal
def turn_choice(st, setup, wk, actions, n, spite, beam, depth):
    """The planner's action in its turn, or -1 to leave it to the greedy's trade-or-end."""
    me = boat_of(setup, st.sc[S_TO_MOVE])
    reveal_i, reveal_v = -1, 0.0
    for i in range(n):
        if actions[i, 0] == REVEAL:
            v = reveal_value(st, setup, wk, me, spite, actions[i, 2])
            if reveal_i < 0 or v < reveal_v:
                reveal_i, reveal_v = i, v
    line_i, line_v = best_line(st, setup, wk, actions, n, me, spite, beam, depth)
    if line_i >= 0 and line_v < value(st, setup, me, spite):
        moves = actions[line_i, 0] == ADV1 or actions[line_i, 0] == ADV2
        if reveal_i < 0 or (moves and line_v < reveal_v):
            return line_i
    return reveal_i


@internal
def answer(st, setup, n):
    """In a negate window: 1 (the first negate) or 0 (pass), by the rules in the module's docstring."""
    if n < 2:
        return 0
    me = boat_of(setup, st.sc[S_TO_MOVE])
    mover = boat_of(setup, st.sc[S_ACTIVE])
    happens = st.sc[S_CHAIN] % 2 == 0
    kind, b, c = st.sc[S_PKIND], st.sc[S_PB], st.sc[S_PC]
    if mover == me:
        if not happens and value_after(st, setup, me, 0.0, kind, b, c, me) < value(st, setup, me, 0.0):
            return 1
        return 0
    if not happens:
        return 0
    after = value_after(st, setup, mover, 0.0, kind, b, c, mover)
    if after == WIN:
        return 1
    before = path_score(st, setup, st.boat[mover])
    if after >= before:
        return 0
    for o in range(setup.cfg[C_BOATS]):
        if o != mover and path_score(st, setup, st.boat[o]) < before:
            return 0
    return 1
