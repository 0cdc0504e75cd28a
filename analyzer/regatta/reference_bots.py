"""The Regatta bots in slow, obvious Python, on analyzer/regatta/reference.py's State: the twins of
kernels/regatta/score.py (path_score: a textbook Dijkstra), greedy.py, planner.py and rollout.py.
tests/regatta/test_bots.py plays them against the kernel, action for action. A bot tries a play by making
it on the state and taking it back; the rollout plays its continuations on deep copies."""

from __future__ import annotations

import copy
import heapq

from analyzer.regatta import reference as R
from analyzer.regatta.rules import Rules
from analyzer.rng_reference import Stream

BOT_RANDOM, BOT_GREEDY, BOT_BLOCKER, BOT_PLANNER, BOT_ROLLOUT = 0, 1, 2, 3, 4
FAR = 1_000_000
STUCK = 1000
UNKNOWN = 3
WIN = -1e9


def _kind(rules: Rules, t: int) -> int:
    return int(rules.tile_kind[t])


def sea_column(rules: Rules, s: R.State) -> int:
    sea = -1
    for x in range(rules.cols):
        t = s.cell_tile[x]
        if s.cell_up[x] and _kind(rules, t) == R.GOAL and rules.tile_sea[t]:
            sea = x
    return sea


def _edges(rules: Rules, s: R.State, x: int, sea: int) -> list:
    """(cell, cost) of each move out of x as the seat sees it (a face-down tile assumed open, cost UNKNOWN)."""
    cells = rules.rows * rules.cols
    if x >= cells:
        front = cells - rules.cols + x - cells
        if not s.cell_up[front]:
            return [(front, UNKNOWN)]
        return [(front, 1)] if R.is_open(rules, s, front) & 4 else []
    if not s.cell_up[x] and _kind(rules, s.cell_tile[x]) == R.GOAL and sea < 0:
        return []  # a face-down goal tile might be the sea: the search stops there
    out = []
    ox = 15 if not s.cell_up[x] else R.is_open(rules, s, x)
    for side, n in R.neighbours(rules, x):
        if ox >> side & 1:
            if not s.cell_up[n]:
                out.append((n, UNKNOWN))
            elif R.is_open(rules, s, n) >> ((side + 2) % 4) & 1:
                out.append((n, 1))
    return out


def path_score(rules: Rules, s: R.State, pos: int) -> int:
    """The shortest cost from pos to the sea tile (to a face-down goal tile while it is unseen); with no way,
    STUCK plus the least, over reachable cells, of its cost and UNKNOWN per grid step to the sea."""
    cells = rules.rows * rules.cols
    sea = sea_column(rules, s)
    dist = {pos: 0}
    heap = [(0, pos)]
    done = set()
    best = stuck = FAR
    while heap:
        d, x = heapq.heappop(heap)
        if x in done:
            continue
        done.add(x)
        r, c = (rules.rows, x - cells) if x >= cells else divmod(x, rules.cols)
        if (sea < 0 and r == 0 and not s.cell_up[x]) or x == sea:
            best = min(best, d)
        h = r if sea < 0 else r + abs(c - sea)
        stuck = min(stuck, STUCK + d + UNKNOWN * h)
        for n, w in _edges(rules, s, x, sea):
            if d + w < dist.get(n, FAR):
                dist[n] = d + w
                heapq.heappush(heap, (d + w, n))
    return best if best < FAR else stuck


def rival_path(rules: Rules, s: R.State, me: int) -> int:
    return min((path_score(rules, s, s.boat[b]) for b in range(len(s.boat)) if b != me), default=FAR)


def value(rules: Rules, s: R.State, me: int, spite: float) -> float:
    own = path_score(rules, s, s.boat[me])
    if spite == 0.0:
        return float(own)
    return own - spite * min(rival_path(rules, s, me), STUCK)


def _wins(rules: Rules, s: R.State, cell: int) -> bool:
    t = s.cell_tile[cell]
    return _kind(rules, t) == R.GOAL and bool(rules.tile_sea[t])


def value_after(rules: Rules, s: R.State, me: int, spite: float, kind: int, b: int, c: int, mover: int) -> float:
    if kind in (R.ADV1, R.ADV2):
        if _wins(rules, s, b):
            return WIN if mover == me else -WIN
        keep = s.boat[mover]
        s.boat[mover] = b
        v = value(rules, s, me, spite)
        s.boat[mover] = keep
        return v
    R._apply(rules, s, kind, b, c)
    v = value(rules, s, me, spite)
    R._apply(rules, s, kind, b, c if kind != R.ROTATE else 4 - c)
    return v


def keep_rank(rules: Rules, k: int) -> int:
    acts = [int(a) for a in rules.card_actions[k]]
    if acts[0] == R.NEGATE:
        return 2
    return 1 if R.ADV1 in acts or R.ADV2 in acts else 0


def trade_or_end(rules: Rules, moves: list) -> int:
    for rank in range(3):
        for i, (kind, a, _b, _c) in enumerate(moves):
            if kind == R.MULLIGAN and keep_rank(rules, a) == rank:
                return i
    return 0


def _is_card(kind: int) -> bool:
    return R.SWAP_ADJ <= kind <= R.ROTATE


def greedy(rules: Rules, s: R.State, moves: list, spite: float) -> int:
    me = s.boat_of(s.to_move)
    reveals = [i for i, m in enumerate(moves) if m[0] == R.REVEAL]
    if reveals:
        return min(reveals, key=lambda i: (moves[i][2] // rules.cols, i))
    best_i, best_v = -1, value(rules, s, me, spite)
    for i, (kind, _a, b, c) in enumerate(moves):
        if _is_card(kind):
            v = value_after(rules, s, me, spite, kind, b, c, me)
            if v < best_v:
                best_i, best_v = i, v
    return best_i if best_i >= 0 else trade_or_end(rules, moves)


def blocker_answer(rules: Rules, s: R.State, moves: list, spite: float) -> int:
    if len(moves) < 2:
        return 0
    me, mover = s.boat_of(s.to_move), s.boat_of(s.active)
    kind, _card, b, c = s.pending
    with_it = value_after(rules, s, me, spite, kind, b, c, mover)
    without = value(rules, s, me, spite)
    happens = s.chain % 2 == 0
    return 1 if (happens and with_it > without) or (not happens and with_it < without) else 0


# the planner


def _after(rules: Rules, s: R.State, me: int, spite: float, rival: int, kind: int, b: int, c: int) -> float:
    if kind in (R.ADV1, R.ADV2):
        if _wins(rules, s, b):
            return WIN
        keep = s.boat[me]
        s.boat[me] = b
        own = path_score(rules, s, b)
        s.boat[me] = keep
        return float(own) if spite == 0.0 else own - spite * min(rival, STUCK)
    return value_after(rules, s, me, spite, kind, b, c, me)


def _rank(rules: Rules, s: R.State, moves: list, me: int, spite: float, beam: int) -> list:
    """[(value, index)] of the `beam` best card plays, a repeated effect counted once (its first card)."""
    rival = rival_path(rules, s, me) if spite != 0.0 else FAR
    seen, scored = set(), []
    for i, (kind, _a, b, c) in enumerate(moves):
        if _is_card(kind) and (kind, b, c) not in seen:
            seen.add((kind, b, c))
            scored.append((_after(rules, s, me, spite, rival, kind, b, c), i))
    return sorted(scored)[:beam]


def _play(rules: Rules, s: R.State, me: int, move: tuple) -> int:
    kind, a, b, c = move
    s.hand[s.to_move][a] -= 1
    s.plays += 1
    keep = s.boat[me]
    if kind in (R.ADV1, R.ADV2):
        s.boat[me] = b
    else:
        R._apply(rules, s, kind, b, c)
    return keep


def _unplay(rules: Rules, s: R.State, me: int, move: tuple, keep: int) -> None:
    kind, a, b, c = move
    s.hand[s.to_move][a] += 1
    s.plays -= 1
    if kind in (R.ADV1, R.ADV2):
        s.boat[me] = keep
    else:
        R._apply(rules, s, kind, b, c if kind != R.ROTATE else 4 - c)


def _line(rules: Rules, s: R.State, level: int, depth: int, me: int, spite: float, beam: int) -> float:
    best = value(rules, s, me, spite)
    if level >= depth or s.plays >= s.plays_allowed:
        return best
    moves = R.legal(rules, s)
    for v, i in _rank(rules, s, moves, me, spite, beam):
        if v > WIN and level + 1 < depth:
            keep = _play(rules, s, me, moves[i])
            v = min(v, _line(rules, s, level + 1, depth, me, spite, beam))
            _unplay(rules, s, me, moves[i], keep)
        best = min(best, v)
    return best


def best_line(rules: Rules, s: R.State, moves: list, me: int, spite: float, beam: int, depth: int) -> tuple:
    depth = min(depth, s.plays_allowed - s.plays)
    best_i, best_v = -1, 0.0
    for v, i in _rank(rules, s, moves, me, spite, beam):
        if v > WIN and depth > 1:
            keep = _play(rules, s, me, moves[i])
            v = min(v, _line(rules, s, 1, depth, me, spite, beam))
            _unplay(rules, s, me, moves[i], keep)
        if best_i < 0 or v < best_v:
            best_i, best_v = i, v
    return best_i, best_v


def _pile(rules: Rules, t: int) -> int:
    k = _kind(rules, t)
    return 1 if k == R.GOAL else 2 if k == R.START else 0


def _moves_value(rules: Rules, s: R.State, me: int, spite: float, base: float) -> float:
    if s.plays >= s.plays_allowed:
        return base
    held = [int(a) for k in range(len(rules.card_names)) if s.hand[s.to_move][k] for a in rules.card_actions[k]]
    reach = 2 if R.ADV2 in held else 1 if R.ADV1 in held else 0
    if not reach:
        return base
    pos = s.boat[me]
    targets = set(R.steps(rules, s, pos))
    if reach == 2:
        targets |= {m for n in list(targets) for m in R.steps(rules, s, n)}
    rival = rival_path(rules, s, me) if spite != 0.0 else FAR
    best = base
    for x in sorted(targets - {pos}):
        best = min(best, _after(rules, s, me, spite, rival, R.ADV2, x, 0))
    return best


def reveal_value(rules: Rules, s: R.State, me: int, spite: float, x: int) -> float:
    cells = rules.rows * rules.cols
    seen = {s.cell_tile[y] for y in range(cells) if s.cell_up[y]}
    pile = 1 if x < rules.cols else 2 if x >= cells - rules.cols else 0
    real, rot = s.cell_tile[x], s.cell_rot[x]
    s.cell_up[x], s.cell_rot[x] = True, 0
    total, count = 0.0, 0
    for t in range(len(rules.tile_kind)):
        if t in seen or _pile(rules, t) != pile:
            continue
        s.cell_tile[x] = t
        v = value(rules, s, me, spite)
        if _kind(rules, t) != R.ROCK:
            v = _moves_value(rules, s, me, spite, v)
        total += v
        count += 1
    s.cell_tile[x], s.cell_rot[x], s.cell_up[x] = real, rot, False
    return total / count if count else value(rules, s, me, spite)


def planner_turn(rules: Rules, s: R.State, moves: list, spite: float, beam: int, depth: int) -> int:
    me = s.boat_of(s.to_move)
    reveal_i, reveal_v = -1, 0.0
    for i, (kind, _a, b, _c) in enumerate(moves):
        if kind == R.REVEAL:
            v = reveal_value(rules, s, me, spite, b)
            if reveal_i < 0 or v < reveal_v:
                reveal_i, reveal_v = i, v
    line_i, line_v = best_line(rules, s, moves, me, spite, beam, depth)
    if line_i >= 0 and line_v < value(rules, s, me, spite):
        if reveal_i < 0 or (moves[line_i][0] in (R.ADV1, R.ADV2) and line_v < reveal_v):
            return line_i
    return reveal_i


def planner_answer(rules: Rules, s: R.State, moves: list) -> int:
    if len(moves) < 2:
        return 0
    me, mover = s.boat_of(s.to_move), s.boat_of(s.active)
    kind, _card, b, c = s.pending
    happens = s.chain % 2 == 0
    if mover == me:
        helps = value_after(rules, s, me, 0.0, kind, b, c, me) < value(rules, s, me, 0.0)
        return 1 if not happens and helps else 0
    if not happens:
        return 0
    after = value_after(rules, s, mover, 0.0, kind, b, c, mover)
    if after == WIN:
        return 1
    before = path_score(rules, s, s.boat[mover])
    if after >= before:
        return 0
    leads = all(path_score(rules, s, s.boat[o]) >= before for o in range(len(s.boat)) if o != mover)
    return 1 if leads else 0


# the rollout

PURPOSE_ROLLOUT = 8


def determinize(rules: Rules, s: R.State, seat: int) -> None:
    """Deal again, from s.deck_stream, the face-down tiles (the unseen tiles of each row group's pile), the
    deck with the other hands, and the event and effect decks, each pool sorted before its shuffle."""
    cols, cells = rules.cols, rules.rows * rules.cols
    seen = {s.cell_tile[x] for x in range(cells) if s.cell_up[x]}
    for lo, hi, pile in ((0, cols, 1), (cols, cells - cols, 0), (cells - cols, cells, 2)):
        tiles = [t for t in range(len(rules.tile_kind)) if t not in seen and _pile(rules, t) == pile]
        R._shuffle(tiles, s.deck_stream)
        for x, t in zip([x for x in range(lo, hi) if not s.cell_up[x]], tiles):
            s.cell_tile[x] = t
    others = [p for p in range(s.players) if p != seat]
    kinds = range(len(rules.card_names))
    pool = sorted(list(s.deck) + [k for p in others for k in kinds for _ in range(s.hand[p][k])])
    R._shuffle(pool, s.deck_stream)
    n = 0
    for p in others:
        held = sum(s.hand[p])
        s.hand[p] = [0] * len(kinds)
        for k in pool[n:n + held]:
            s.hand[p][k] += 1
        n += held
    s.deck = pool[n:]
    for d in (0, 1):
        s.ev_deck[d] = sorted(s.ev_deck[d])
        R._shuffle(s.ev_deck[d], s.deck_stream)


def continuation(rules: Rules, s: R.State, me: int, horizon: int) -> float:
    while not R.terminal(s) and s.turn < horizon:
        moves = R.legal(rules, s)
        R.step(rules, s, *moves[greedy(rules, s, moves, 0.0) if s.phase == R.TURN else 0])
    if s.winner >= 0:
        return 1.0 if s.winner == me else 0.0
    own, rival = path_score(rules, s, s.boat[me]), rival_path(rules, s, me)
    return 1.0 if own < rival else 0.5 if own == rival else 0.0


def rollout_candidates(rules: Rules, s: R.State, moves: list, top: int) -> list:
    me = s.boat_of(s.to_move)
    cand = [moves[greedy(rules, s, moves, 0.0)]]
    for _ in range(top):
        scored = [(value_after(rules, s, me, 0.0, m[0], m[2], m[3], me), i) for i, m in enumerate(moves)
                  if _is_card(m[0]) and m not in cand]
        if not scored:
            break
        cand.append(moves[min(scored)[1]])
    last = moves[trade_or_end(rules, moves)]
    return cand + ([last] if last not in cand else [])


def rollout_turn(rules: Rules, s: R.State, moves: list, policy: Stream, k: int, top: int, rounds: int) -> int:
    if moves[0][0] != R.END:
        return greedy(rules, s, moves, 0.0)
    cand = rollout_candidates(rules, s, moves, top)
    if len(cand) == 1:
        return moves.index(cand[0])
    key = policy.next_u64()
    seat, me, horizon = s.to_move, s.boat_of(s.to_move), s.turn + rounds * s.players
    best_q, best_v = 0, -1.0
    for q, move in enumerate(cand):
        total = 0.0
        for j in range(k):
            sim = copy.deepcopy(s)
            sim.deck_stream = Stream(key, j, PURPOSE_ROLLOUT)
            determinize(rules, sim, seat)
            R.step(rules, sim, *move)
            total += continuation(rules, sim, me, horizon)
        if total / k > best_v:
            best_q, best_v = q, total / k
    return moves.index(cand[best_q])


def decide(rules: Rules, s: R.State, moves: list, bot: int, params: list, policy: Stream) -> int:
    if bot == BOT_RANDOM or s.phase == R.PLACING:
        return policy.below(len(moves))
    spite = float(params[0]) if bot in (BOT_BLOCKER, BOT_PLANNER) else 0.0
    if s.phase == R.TURN:
        if bot == BOT_ROLLOUT:
            return rollout_turn(rules, s, moves, policy, int(params[0]), int(params[1]), int(params[2]))
        if bot == BOT_PLANNER:
            i = planner_turn(rules, s, moves, spite, int(params[1]), int(params[2]))
            return i if i >= 0 else trade_or_end(rules, moves)
        return greedy(rules, s, moves, spite)
    if bot == BOT_BLOCKER:
        return blocker_answer(rules, s, moves, spite)
    if bot in (BOT_PLANNER, BOT_ROLLOUT):
        return planner_answer(rules, s, moves)
    return 0


def play(rules: Rules, players: int, seed: int, game: int, bots: list, params: list, team: bool = False):
    """One game with bots[seat] (codes) and params[seat]: the actions (kind, a, b, c) taken and the end state."""
    s = R.init(rules, players, seed, game, team)
    policy = Stream(seed, game, R.PURPOSE_POLICY)
    actions = []
    while not R.terminal(s):
        moves = R.legal(rules, s)
        move = moves[decide(rules, s, moves, bots[s.to_move], params[s.to_move], policy)]
        actions.append(move)
        R.step(rules, s, *move)
    return actions, s
