"""The rollout and oracle Beacon Patrol policies (numba), and the one policy entry point.

At each new plan, the best `options` turn options by lookahead value are each continued `samples`
times to the end of the game (or `horizon` rounds) by the inner policy, on the real board (undone
afterwards) with copies of the small state arrays (Workspace.sim). rollout shuffles the unseen
tiles for every sample (the same shuffle for every option: common random numbers); the oracle
continues once on the true draw order, so it is NOT a fair policy. The option with the best mean
final score is played.
"""


from kernels.beacon.actions import _game_over, legal_actions, take_action
from kernels.beacon.board import lift_tile, score_board
from kernels.beacon.codes import (
    CFG_PLAYERS,
    POLICY_GREEDY,
    POLICY_LOOKAHEAD,
    POLICY_ORACLE,
    POLICY_ROLLOUT,
    ST_DECK_LEN,
    ST_DECK_POS,
    ST_N_PLACED,
    ST_PLAYER,
    ST_TURNS,
)
from kernels.beacon.greedy import _greedy
from kernels.beacon.lookahead import (
    MAX_OPTIONS,
    PLAN_TRADES_SEEN,
    _adopt,
    _copy,
    _lookahead,
    _maybe_trade,
    _plan_valid,
    _top,
    board_value,
    follow_plan,
    root_options,
    unseen_fill,
)
from kernels.jit import inline, internal
from kernels.rng import next_u64, uniform_int

R_SAMPLES = 8  # continuations per option (oracle: always 1)
R_OPTIONS = 9  # options continued: the best by lookahead value
R_INNER = 10  # policy id playing the continuations (greedy or lookahead)
R_HORIZON = 11  # rounds continued after the current turn; 0 = to the end of the game
O_REPLAY = 12  # oracle: samples, options, inner, horizon of the rollout it replays


@internal
def choose_fair(policy_id, params, tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood,
                actions, n, rng, keys, planner):
    """Policies that see only what a player sees (the deck array is read as a multiset)."""
    if policy_id == POLICY_GREEDY:
        return _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys)
    if policy_id == POLICY_LOOKAHEAD:
        i = _lookahead(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                       params, planner)
        if i >= 0:
            return i
        return _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys)
    return uniform_int(rng, n)  # POLICY_RANDOM


@internal
def _sort_range(a, lo, hi):
    """a[lo:hi] in increasing order, in place (insertion sort: a pile holds at most 63 tiles)."""
    for i in range(lo + 1, hi):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@internal
def _continue(tt, cfg, g, game, option, key, true_deck, params):
    """Final score of the game continued from here with option played first; undone after."""
    st, board, pos, placed, piers, hands, ships, deck, flood = game[:9]
    sim = game.sim
    sst, shands, sships, sdeck, sactions, srng, skeys, score = sim[:8]
    splanner = sim.planner
    _copy(st, sst)
    _copy(hands, shands)
    _copy(ships, sships)
    _copy(deck, sdeck)
    srng[0], srng[1] = key, 0
    if not true_deck:  # the unseen order is unknown: a shuffle of the rest of the pile, started from
        lo = sst[ST_DECK_POS]  # tile order so that it depends on which tiles are left, not on their order
        _sort_range(sdeck, lo, sst[ST_DECK_LEN])
        for i in range(sst[ST_DECK_LEN] - 1, lo, -1):
            j = lo + uniform_int(srng, i - lo + 1)
            sdeck[i], sdeck[j] = sdeck[j], sdeck[i]
    _adopt(option, splanner.plan, False)
    splanner.plan[PLAN_TRADES_SEEN] = st[ST_TURNS]  # this turn's trades were weighed for real
    n0 = st[ST_N_PLACED]
    turns0 = st[ST_TURNS]
    horizon = int(params[R_HORIZON]) * cfg[CFG_PLAYERS]  # rounds -> turns
    inner = int(params[R_INNER])
    ended = False
    while not (ended and _game_over(cfg, sst, shands)) and (horizon <= 0 or sst[ST_TURNS] - turns0 <= horizon):
        n = legal_actions(tt, cfg, g, sst, board, shands, sships, sactions)
        i = -1
        if _plan_valid(sst, shands, splanner.plan):
            i = follow_plan(tt, cfg, g, sst, board, shands, sships, flood, sactions, n, splanner.plan)
        if i < 0:
            i = choose_fair(inner, params, tt, cfg, g, sst, board, pos, piers, shands, sships, sdeck,
                            flood, sactions, n, srng, skeys, splanner)
        ended = take_action(tt, cfg, g, sst, board, pos, placed, piers, shands, sships, sdeck,
                            sactions[i, 0], sactions[i, 1], sactions[i, 2], sactions[i, 3])
    total = float(score_board(tt, cfg, board, pos, placed, sst[ST_N_PLACED], g, flood, score))
    if not (ended and _game_over(cfg, sst, shands)):  # cut at the horizon: add what is in the making
        unseen_fill(tt, cfg, sst, shands, sdeck, st[ST_PLAYER], splanner.fill)
        total += board_value(tt, board, g, pos, placed, sst[ST_N_PLACED], splanner.fill, params)
    for k in range(sst[ST_N_PLACED] - 1, n0 - 1, -1):
        lift_tile(tt, board, g, pos[placed[k]])
        pos[placed[k]] = -1
    return total


@internal
def _rollout(policy_id, params, tt, cfg, g, game, n):
    st, board, pos, placed, piers, hands, ships, deck, flood, actions = game[:10]
    rng = game.rng
    planner = game.planner
    plan, opts, opt_v = planner.plan, planner.opts, planner.opt_v
    if not _plan_valid(st, hands, plan):
        i = _maybe_trade(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                         params, planner)
        if i >= 0:
            return i
        k = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner)
        order = planner.order[:MAX_OPTIONS]
        m = _top(opt_v, k, min(max(int(params[R_OPTIONS]), 1), MAX_OPTIONS), order)
        oracle = policy_id == POLICY_ORACLE
        samples = 1 if oracle else max(int(params[R_SAMPLES]), 1)
        means = planner.fill[:MAX_OPTIONS]  # fill table slots are free again once options exist
        means[:] = 0.0
        if m > 1:
            for _ in range(samples):
                key = next_u64(rng)
                for j in range(m):
                    means[j] += _continue(tt, cfg, g, game, opts[order[j]], key, oracle, params)
        best = 0
        for j in range(1, m):
            if means[j] > means[best]:
                best = j
        _adopt(opts[order[best]], plan, False)  # rollouts weigh every placement
    i = follow_plan(tt, cfg, g, st, board, hands, ships, flood, actions, n, plan)
    if i < 0:
        i = _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, game.keys)
    return i


@inline
def choose_action(tier, policy_id, params, tt, cfg, g, game, n):
    """The one policy entry point: index of the chosen action among the n legal ones.

    A policy sees the whole state (the deck array holds the draw order from
    st[ST_DECK_POS] on; fair policies use it only as a multiset), draws only from its
    own stream (game.rng) and keeps its scratch in the workspace.

    tier (`policy_tier`) is the costliest policy the kernel must hold, a constant where this is
    merged (`_play_of`): numba drops the other tiers' branches before it compiles, so a greedy
    run does not wait for the lookahead, rollout and oracle code to compile."""
    st, board, pos, placed, piers, hands, ships, deck, flood, actions, deck_rng, rng, keys = game[:13]
    if tier <= POLICY_GREEDY:
        if policy_id == POLICY_GREEDY:
            return _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys)
        return uniform_int(rng, n)
    if tier >= POLICY_ROLLOUT:
        if policy_id == POLICY_ROLLOUT or policy_id == POLICY_ORACLE:
            return _rollout(policy_id, params, tt, cfg, g, game, n)
    return choose_fair(policy_id, params, tt, cfg, g, st, board, pos, piers, hands, ships, deck,
                       flood, actions, n, rng, keys, game.planner)


def policy_tier(policy_ids):
    """The tier a game with these seats needs: policies are numbered by cost, random and
    greedy share the smallest tier (greedy is every policy's fallback)."""
    return max(int(max(policy_ids)), POLICY_GREEDY)
