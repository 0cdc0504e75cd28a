"""Beacon Patrol actions: the legal actions in their canonical order, and carrying one out (numba).

An action is (kind, a, b, c) (ACT_* in kernels/beacon/codes.py). legal_actions lists them in the
order docs/beacon/engine.md states: place (slot, dir), move (dir), discard-to-move (slot, dir),
trade (slot, partner, partner slot), end turn (no keep, then the solo keeps). Every policy picks an
index into that list, so the reference engine (analyzer/beacon/reference.py) and the kernel play
the same game from the same random draws.
"""

import numpy as np

from kernels.beacon.board import _matches, _place, _step, open_sides, sail_sides
from kernels.beacon.codes import (
    ACT_DISCARD_MOVE,
    ACT_END,
    ACT_MOVE,
    ACT_PLACE,
    ACT_TRADE,
    B_SIDES,
    CFG_HAND,
    CFG_KEEP_ON_EMPTY_PILE,
    CFG_PLAYERS,
    CFG_TOKENS,
    MAX_HAND,
    POLICY_GREEDY,
    ST_DECK_LEN,
    ST_DECK_POS,
    ST_DISCARDED,
    ST_MOVES,
    ST_PLAYER,
    ST_TOKENS,
    ST_TRADED,
    ST_TRADES,
    ST_TURNS,
    TT_LAND_MASK,
)
from kernels.jit import inline, internal


@inline  # its callers pass literal constants (kernels/jit.py)
def _set_action(actions, n, kind, a, b, c):
    actions[n, 0] = kind
    actions[n, 1] = a
    actions[n, 2] = b
    actions[n, 3] = c


@internal
def legal_actions(tt, cfg, g, st, board, hands, ships, actions):
    """Fill game's action buffer in the canonical order; returns the count.

    Order: place (slot, dir), move (dir), discard-to-move (slot, dir),
    trade (slot, partner in seat order after the player, partner slot), end turn
    (keep none, then keep slot s in solo while the draw pile is not empty).
    """
    return _actions_after_places(tt, cfg, g, st, board, hands, ships, actions,
                                 _place_actions(tt, cfg, g, st, board, hands, ships, actions))


@internal
def actions_for(policy_id, tt, cfg, g, st, board, hands, ships, actions):
    """The start of legal_actions that policy_id needs; returns its length. Greedy places whenever
    it can, and placements lead the list: while there are any, it needs no more."""
    n = _place_actions(tt, cfg, g, st, board, hands, ships, actions)
    if policy_id == POLICY_GREEDY and n > 0:
        return n
    return _actions_after_places(tt, cfg, g, st, board, hands, ships, actions, n)


@internal
def _place_actions(tt, cfg, g, st, board, hands, ships, actions):
    """legal_actions' placements; returns their count. Every candidate is written at n and kept
    (n advanced) only when legal: branches on the board would be mispredicted."""
    p = st[ST_PLAYER]
    ship = ships[p]
    open_ = open_sides(board, ship)
    n = 0
    masks = _hand_masks(tt, hands, p, cfg[CFG_HAND], np.int64(0))
    for s in range(MAX_HAND):
        for d in range(4):
            _set_action(actions, n, ACT_PLACE, s, d, 0)
            n += (open_ >> d) & 1 & _matches(masks[s], board[ship + _step(g, d), B_SIDES])
    return n


@internal
def _actions_after_places(tt, cfg, g, st, board, hands, ships, actions, n):
    """legal_actions' other actions, after its n placements; returns the total. Moves and
    discard-moves are written as in _place_actions."""
    p = st[ST_PLAYER]
    hand = cfg[CFG_HAND]
    players = cfg[CFG_PLAYERS]
    sail = sail_sides(board, ships[p])
    moves = sail if st[ST_TOKENS] > 0 else 0
    for d in range(4):
        _set_action(actions, n, ACT_MOVE, d, 0, 0)
        n += (moves >> d) & 1
    for s in range(hand):
        held = hands[p * MAX_HAND + s] >= 0
        for d in range(4):
            _set_action(actions, n, ACT_DISCARD_MOVE, s, d, 0)
            n += held & (sail >> d) & 1
    if players > 1 and st[ST_TRADED] == 0:
        for s in range(hand):
            if hands[p * MAX_HAND + s] >= 0:
                for k in range(1, players):
                    o = (p + k) % players
                    for s2 in range(hand):
                        if hands[o * MAX_HAND + s2] >= 0:
                            _set_action(actions, n, ACT_TRADE, s, o, s2)
                            n += 1
    _set_action(actions, n, ACT_END, -1, 0, 0)
    n += 1
    if _solo_keeps(cfg, st, hands, p, hand, np.int64(0)):
        for s in range(hand):
            if hands[s] >= 0:
                _set_action(actions, n, ACT_END, s, 0, 0)
                n += 1
    return n


@internal
def _solo_keeps(cfg, st, hands, p, hand, used):
    """A solo turn may end keeping 1 of its tiles not in `used` (p. 6): while the draw pile lasts,
    and with rules.toml's solo_keep_on_empty_pile also after, if 2 or more are left (so one goes)."""
    if cfg[CFG_PLAYERS] != 1:
        return False
    if st[ST_DECK_POS] < st[ST_DECK_LEN]:
        return True
    return cfg[CFG_KEEP_ON_EMPTY_PILE] != 0 and _free_tiles(hands, p, hand, used) >= 2


@internal
def _draw_up(cfg, st, hands, deck, p):
    for s in range(cfg[CFG_HAND]):
        if hands[p * MAX_HAND + s] < 0 and st[ST_DECK_POS] < st[ST_DECK_LEN]:
            hands[p * MAX_HAND + s] = deck[st[ST_DECK_POS]]
            st[ST_DECK_POS] += 1


@internal
def apply_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, kind, a, b, c):
    """Carry out one legal action. Returns True when it ended the turn."""
    p = st[ST_PLAYER]
    if kind == ACT_PLACE:
        cell = ships[p] + _step(g, b)
        _place(tt, g, st, board, pos, placed, piers, hands[p * MAX_HAND + a], cell)
        hands[p * MAX_HAND + a] = -1
        ships[p] = cell  # the free, mandatory move onto the new tile
    elif kind == ACT_MOVE:
        ships[p] += _step(g, a)
        st[ST_TOKENS] -= 1
        st[ST_MOVES] += 1
    elif kind == ACT_DISCARD_MOVE:
        hands[p * MAX_HAND + a] = -1
        st[ST_DISCARDED] += 1
        ships[p] += _step(g, b)
    elif kind == ACT_TRADE:
        i = p * MAX_HAND + a
        j = b * MAX_HAND + c
        hands[i], hands[j] = hands[j], hands[i]
        st[ST_TRADED] = 1
        st[ST_TRADES] += 1
    else:  # ACT_END: discard all but the solo keep, draw back up, flip tokens
        for s in range(cfg[CFG_HAND]):
            if s != a and hands[p * MAX_HAND + s] >= 0:
                hands[p * MAX_HAND + s] = -1
                st[ST_DISCARDED] += 1
        _draw_up(cfg, st, hands, deck, p)
        st[ST_TURNS] += 1
        return True
    return False


@internal
def take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, kind, a, b, c):
    """apply_action; when it ends the turn (returns True), the next player starts with fresh
    tokens. A turn always ends with its end-turn action, even when the last tile is gone."""
    if apply_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, kind, a, b, c):
        st[ST_PLAYER] = (st[ST_PLAYER] + 1) % cfg[CFG_PLAYERS]
        st[ST_TOKENS] = cfg[CFG_TOKENS]
        st[ST_TRADED] = 0
        return True
    return False


@internal
def _free_tiles(hands, p, hand, used):
    """Tiles in player p's hand whose slots are not in `used` (a bit per slot)."""
    free = 0
    for s in range(hand):
        free += hands[p * MAX_HAND + s] >= 0 and not (used >> s) & 1
    return free


@internal
def _hand_masks(tt, hands, p, hand, used):
    """Land masks of player p's hand tiles in slots not in `used` (a bit per slot), 15 for an
    empty or used slot: an all-land tile fits no cell, as the tile it is placed from shows water.
    Loaded once, so the placement counts need not read the hand again."""
    return (_slot_mask(tt, hands, p, hand, used, np.int64(0)), _slot_mask(tt, hands, p, hand, used, np.int64(1)),
            _slot_mask(tt, hands, p, hand, used, np.int64(2)))


@internal
def _slot_mask(tt, hands, p, hand, used, s):
    t = hands[p * MAX_HAND + s]
    return tt[t, TT_LAND_MASK] if s < hand and t >= 0 and not (used >> s) & 1 else tt.dtype.type(15)


@internal
def _placements_from(tt, board, g, masks, cell, steps, cand, n):
    """n + the (hand slot, direction) placements from cell (a placed tile) of the hand tiles with
    these land masks (_hand_masks); while cand has room they are listed there as
    (cell, direction, slot, steps). A zero-row cand just counts."""
    open_ = open_sides(board, cell)
    for d in range(4):
        if (open_ >> d) & 1:
            sides = board[cell + _step(g, d), B_SIDES]
            for s in range(MAX_HAND):
                if _matches(masks[s], sides):
                    if n < cand.shape[0]:
                        cand[n, CAND_CELL], cand[n, CAND_DIR] = cell, d
                        cand[n, CAND_SLOT], cand[n, CAND_STEPS] = s, steps
                    n += 1
    return n


CAND_CELL, CAND_DIR, CAND_SLOT, CAND_STEPS = 0, 1, 2, 3


@internal
def _game_over(cfg, st, hands):
    if st[ST_DECK_POS] < st[ST_DECK_LEN]:
        return False
    for i in range(cfg[CFG_PLAYERS] * MAX_HAND):
        if hands[i] >= 0:
            return False
    return True
