"""Production of a roll, the 7 (discards, robber, steal) and roll sequences over a board (numba).

Board interface (a Board named tuple, built by analyzer/seafarers from a scenario; codes in
kernels/catan/codes.py):
    hex_terrain     int8[n_hex]        terrain code (SEA, DESERT, GOLD, LUMBER..ORE)
    hex_number      int8[n_hex]        number token 2..12 (never 7), 0 = none
    corner_hexes    int32[n_corner, 3] hexes touching the corner, -1 padded
    corner_building int8[n_corner]     EMPTY 0, SETTLEMENT 1, CITY 2
    corner_owner    int8[n_corner]     seat 0..n_players-1, -1 none
    robber_banned   bool[n_hex]        hexes the robber may never be moved to
and beside it the robber's hex, or -1 for a game without a robber (The Pirate Islands).

Per-board tables, built once (allocation per board, never per roll); the robber state rs is
the robber's hex, or n_hex for no robber, and group g = rs * 13 + sum:
    offsets, yields, gold, blocked = production_tables(...)
        yields[offsets[g]:offsets[g + 1]]  int32 rows (sum, seat * N_RESOURCES + resource,
                amount): the ordinary cards of that sum with the robber there; the rows of
                one robber state are contiguous, offsets[13 rs] .. offsets[13 rs + 13]
        gold    int32[n_hex + 1, 13, n_players]  gold-field cards to choose
        blocked int32[n_hex + 1, 13, n_players]  cards the robber keeps back
    touch = hex_touch(...)               int32[n_hex, n_players]: building amount per player
    plan = robber_plan(..., banned)      int32[n_players, 2]: the roller's best and second
        robber hex (the second is used when the robber already stands on the best), never a hex
        the scenario bans (banned bool[n_hex])

Per board, before the rolls: start = starting_hands(...) int32[n_players, N_RESOURCES], the
cards each seat holds when the first roll comes (one per producing hex at the settlement that
gives the starting resources); every sequence of simulate_rolls starts from it.

Per roll: `produce` (any sum but 7) and `seven`. `play_rolls` plays one sequence lazily: a roll
only counts its sum, and the counted production reaches the hands when someone looks at them (a
7, the end), as one multiply-add per table row of the robber state, with no branch on the
data (with gold fields or the spending model the hands must be current after every roll, and
each roll adds its own rows); the tallies follow at the end from how often each (robber
state, sum) came up. Branches that the processor cannot predict cost more than the arithmetic:
one on "is it a 7?" alone costs a bare dice loop a third to a half of its speed.
`simulate_rolls` plays many sequences and writes per-seat tallies (columns T_* below).

Rules and policies (docs/seafarers/dice.md): settlement 1 card, city 2; gold gives the same
number of cards of a resource chosen by the gold policy; desert and sea give nothing; the robber
blocks its hex. On a 7 nobody produces, every player with more than DISCARD_LIMIT cards discards
half (rounded down) from the most plentiful resource, then the roller moves the robber to
plan[roller] and steals one uniformly random card from the adjacent opponent with most cards.
Only the gold policy, spend_to and seven_rules are options; the discard, robber and victim
choices are fixed defaults.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, SEA
from kernels.catan.dice import roll_dice
from kernels.rng import PURPOSE_DICE, PURPOSE_STEAL, stream_init, uniform_int

# Seed 002, "Sai um 7?": whoever holds more than 7 resource cards loses half of them.
DISCARD_LIMIT = 7

# Gold policy: a resource index 0..4 always takes that resource; GOLD_POOREST takes, card by card,
# the resource the player holds fewest of (ties: lowest resource index).
GOLD_POOREST = -1
# spend_to: NO_SPENDING keeps every card; k >= 0 spends the roller's hand down to k cards at
# the end of the turn, from the most plentiful resource (a crude stand-in for building).
NO_SPENDING = -1

# Per-seat tallies: tallies[seat, T_*]; out[seat * N_TALLY + T_*, sequence] in simulate_rolls.
T_RECEIVED = 0  # 5 columns: cards received per resource (gold picks included)
T_GOLD = 5  # cards taken from gold fields (already counted in T_RECEIVED)
T_BLOCKED = 6  # cards the robber kept from the seat
T_DISCARDED = 7  # cards discarded on 7s
T_SEVENS_HIT = 8  # 7s on which the seat had to discard
T_ROBBED = 9  # cards stolen from the seat
T_STOLE = 10  # cards the seat stole as the roller
T_TARGETED = 11  # 7s that moved the robber onto a hex where the seat has a building
T_SPENT = 12  # cards spent by the spend_to model
N_TALLY = 13
TALLY_NAMES = ("lumber", "brick", "wool", "grain", "ore", "gold", "blocked", "discarded",
               "sevens_hit", "robbed", "stole", "targeted", "spent")


@njit(cache=True)
def hex_pips(hex_terrain, hex_number):
    """Pips (ways out of 36) of each hex's number; 0 for hexes that never produce."""
    pips_of = np.array(PIPS, np.int64)
    out = np.zeros(hex_terrain.shape[0], np.int64)
    for h in range(hex_terrain.shape[0]):
        if hex_terrain[h] >= GOLD and hex_terrain[h] <= ORE and 2 <= hex_number[h] <= 12:
            out[h] = pips_of[hex_number[h]]
    return out


@njit(cache=True)
def production_tables(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, n_players):
    """(offsets, yields, gold, blocked): what every sum hands out for every robber state (see above)."""
    n_hex = hex_terrain.shape[0]
    n_groups = (n_hex + 1) * 13
    pips = hex_pips(hex_terrain, hex_number)
    income = np.zeros((n_groups, n_players * N_RESOURCES), np.int32)
    gold = np.zeros((n_hex + 1, 13, n_players), np.int32)
    blocked = np.zeros((n_hex + 1, 13, n_players), np.int32)
    for c in range(corner_hexes.shape[0]):
        p = corner_owner[c]
        amount = corner_building[c]
        if amount == 0 or p < 0:
            continue
        for k in range(corner_hexes.shape[1]):
            h = corner_hexes[c, k]
            if h < 0 or pips[h] == 0:
                continue
            s = hex_number[h]
            for rs in range(n_hex + 1):
                if rs == h:
                    blocked[rs, s, p] += amount
                elif hex_terrain[h] == GOLD:
                    gold[rs, s, p] += amount
                else:
                    income[rs * 13 + s, p * N_RESOURCES + hex_terrain[h] - FIRST_RESOURCE_TERRAIN] += amount
    offsets = np.zeros(n_groups + 1, np.int32)  # the dense table's nonzero entries, group by group
    for g in range(n_groups):
        offsets[g + 1] = offsets[g] + np.count_nonzero(income[g])
    yields = np.empty((offsets[n_groups], 3), np.int32)
    e = 0
    for g in range(n_groups):
        for k in range(income.shape[1]):
            if income[g, k] != 0:
                yields[e, 0] = g % 13
                yields[e, 1] = k
                yields[e, 2] = income[g, k]
                e += 1
    return offsets, yields, gold, blocked


@njit(cache=True)
def hex_touch(n_hex, corner_hexes, corner_building, corner_owner, n_players):
    """int32[n_hex, n_players]: summed building amounts (settlement 1, city 2) around each hex."""
    touch = np.zeros((n_hex, n_players), np.int32)
    for c in range(corner_hexes.shape[0]):
        if corner_building[c] == 0 or corner_owner[c] < 0:
            continue
        for k in range(corner_hexes.shape[1]):
            h = corner_hexes[c, k]
            if h >= 0:
                touch[h, corner_owner[c]] += corner_building[c]
    return touch


@njit(cache=True)
def robber_plan(hex_terrain, hex_number, touch, victory_points, banned):
    """int32[n_players, 2]: where each roller puts the robber, best hex and second best (-1 none).

    The leader is the roller's opponent with most victory points, then most income (pips x
    buildings), then the lowest seat. Land hexes the scenario does not ban (banned bool[n_hex]:
    forbidden zones, and the start hex where the robber may not return to it) rank by: least harm
    to the roller, then most harm to the leader, then most harm to all opponents, then lowest
    index (harm = pips x building amount). A start hex that may not be re-entered can simply be
    left out of the plan: the robber leaves it on the first 7 and never comes back."""
    n_hex, n_players = touch.shape
    pips = hex_pips(hex_terrain, hex_number)
    income = np.zeros(n_players, np.int64)
    for h in range(n_hex):
        for p in range(n_players):
            income[p] += pips[h] * touch[h, p]
    plan = np.full((n_players, 2), -1, np.int32)
    for roller in range(n_players):
        leader = -1
        for p in range(n_players):
            if p != roller and (leader < 0 or victory_points[p] > victory_points[leader] or (
                    victory_points[p] == victory_points[leader] and income[p] > income[leader])):
                leader = p
        best_key = np.full((2, 3), np.iinfo(np.int64).min, np.int64)
        for h in range(n_hex):
            if hex_terrain[h] == SEA or banned[h]:
                continue
            others = 0
            for p in range(n_players):
                if p != roller:
                    others += pips[h] * touch[h, p]
            key0 = -pips[h] * touch[h, roller]
            key1 = pips[h] * touch[h, leader] if leader >= 0 else 0
            for slot in range(2):  # insert into the top two (strictly better keys only: ties keep the lower index)
                k = best_key[slot]
                if key0 > k[0] or (key0 == k[0] and (key1 > k[1] or (key1 == k[1] and others > k[2]))):
                    if slot == 0:
                        best_key[1] = best_key[0]
                        plan[roller, 1] = plan[roller, 0]
                    best_key[slot, 0] = key0
                    best_key[slot, 1] = key1
                    best_key[slot, 2] = others
                    plan[roller, slot] = h
                    break
    return plan


@njit(cache=True)
def victory_points(corner_building, corner_owner, n_players):
    """Settlement 1 VP, city 2 VP: the building amount summed per seat."""
    vp = np.zeros(n_players, np.int64)
    for c in range(corner_building.shape[0]):
        if corner_owner[c] >= 0:
            vp[corner_owner[c]] += corner_building[c]
    return vp


@njit(cache=True, inline="always")
def hand_size(hands, p):
    n = 0
    for r in range(N_RESOURCES):
        n += hands[p, r]
    return n


@njit(cache=True, inline="always")
def cards_above(hands, p, level):
    n = 0
    for r in range(N_RESOURCES):
        n += max(hands[p, r] - level, 0)
    return n


@njit(cache=True, inline="always")
def give_up_most_plentiful(hands, p, k):
    """Remove k cards from seat p, one at a time from the resource held most (ties: lowest index).

    In closed form, which avoids a branch per card: the hand ends capped at the lowest level L
    that leaves at most k cards above it, and the m = k - (cards above L) cards still due come
    one each from the lowest-index resources holding L or more."""
    lo = 0
    hi = 0
    for r in range(N_RESOURCES):
        hi = max(hi, hands[p, r])
    while lo < hi:  # binary search for L: cards_above falls as the level rises
        mid = (lo + hi) // 2
        if cards_above(hands, p, mid) <= k:
            hi = mid
        else:
            lo = mid + 1
    m = k - cards_above(hands, p, lo)
    for r in range(N_RESOURCES):
        if hands[p, r] >= lo:
            hands[p, r] = lo - (1 if m > 0 else 0)
            m -= 1


@njit(cache=True, inline="always")
def gold_pick(hands, p, gold_policy):
    if gold_policy >= 0:
        return gold_policy
    r = 0
    for q in range(1, N_RESOURCES):
        if hands[p, q] < hands[p, r]:
            r = q
    return r


@njit(cache=True, inline="always")
def robber_state(robber, n_hex):
    return robber if robber >= 0 else n_hex


@njit(cache=True, inline="always")
def pick_gold(roll, rs, gold, gold_policy, hands, tallies):
    """The gold cards of a roll, card by card so that each pick sees the previous ones."""
    for p in range(hands.shape[0]):
        g = gold[rs, roll, p]
        if g > 0:
            tallies[p, T_GOLD] += g
            for _ in range(g):
                r = gold_pick(hands, p, gold_policy)
                hands[p, r] += 1
                tallies[p, T_RECEIVED + r] += 1


@njit(cache=True)
def starting_hands(hex_terrain, hex_number, corner_hexes, start_corner, gold_policy):
    """int32[n_players, N_RESOURCES]: one card per producing hex at each seat's start_corner (-1:
    none), as the base game gives for the second settlement (Cloth for Catan: the third).

    Producing means a gold or resource hex with a number: deserts, sea, fog and hexes without a
    number give nothing. The robber does not block (this is not a roll's production). A gold
    field gives a card chosen by gold_policy, after the ordinary cards, like a roll's gold."""
    n_players = start_corner.shape[0]
    pips = hex_pips(hex_terrain, hex_number)
    hands = np.zeros((n_players, N_RESOURCES), np.int32)
    for p in range(n_players):
        c = start_corner[p]
        if c < 0:
            continue
        gold_cards = 0
        for k in range(corner_hexes.shape[1]):
            h = corner_hexes[c, k]
            if h < 0 or pips[h] == 0:
                continue
            if hex_terrain[h] == GOLD:
                gold_cards += 1
            else:
                hands[p, hex_terrain[h] - FIRST_RESOURCE_TERRAIN] += 1
        for _ in range(gold_cards):
            hands[p, gold_pick(hands, p, gold_policy)] += 1
    return hands


@njit(cache=True)
def produce(roll, robber, offsets, yields, gold, blocked, gold_policy, hands, tallies):
    """Hand out the cards of a roll (sum 2..12 but 7): hands and tallies updated in place.
    The ordinary cards come first, then the gold picks."""
    rs = robber_state(robber, gold.shape[0] - 1)
    for e in range(offsets[rs * 13 + roll], offsets[rs * 13 + roll + 1]):
        p, r = divmod(yields[e, 1], N_RESOURCES)
        hands[p, r] += yields[e, 2]
        tallies[p, T_RECEIVED + r] += yields[e, 2]
    for p in range(hands.shape[0]):
        tallies[p, T_BLOCKED] += blocked[rs, roll, p]
    pick_gold(roll, rs, gold, gold_policy, hands, tallies)


@njit(cache=True, inline="always")
def seven(roller, robber, plan, touch, hands, tallies, steal_stream):
    """Resolve a 7: discards, robber move, steal. Returns the robber's new hex (-1 stays -1)."""
    n_players = hands.shape[0]
    for p in range(n_players):
        n = hand_size(hands, p)
        if n > DISCARD_LIMIT:
            give_up_most_plentiful(hands, p, n // 2)
            tallies[p, T_DISCARDED] += n // 2
            tallies[p, T_SEVENS_HIT] += 1
    if robber >= 0:
        target = plan[roller, 0] if plan[roller, 0] != robber else plan[roller, 1]
        if target >= 0:
            robber = target
        for p in range(n_players):
            if touch[robber, p] > 0:
                tallies[p, T_TARGETED] += 1
    victim = -1
    most = 0
    for p in range(n_players):  # without a robber, any opponent may be robbed
        if p != roller and (robber < 0 or touch[robber, p] > 0):
            n = hand_size(hands, p)
            if n > most:
                most = n
                victim = p
    if victim >= 0:
        k = uniform_int(steal_stream, most)  # the k-th card in resource order
        r = 0
        while k >= hands[victim, r]:
            k -= hands[victim, r]
            r += 1
        hands[victim, r] -= 1
        hands[roller, r] += 1
        tallies[victim, T_ROBBED] += 1
        tallies[roller, T_STOLE] += 1
    return robber


@njit(cache=True, inline="always")
def flush(rs, pending, seen, offsets, yields, flat_hands):
    """Bring the hands up to date with the rolls counted in pending[sum] (robber state rs)."""
    for e in range(offsets[rs * 13], offsets[rs * 13 + 13]):
        flat_hands[yields[e, 1]] += pending[yields[e, 0]] * yields[e, 2]
    for s in range(13):
        seen[rs, s] += pending[s]
        pending[s] = 0


@njit(cache=True)
def play_rolls(n_rolls, robber, offsets, yields, gold, blocked, plan, touch, gold_policy, spend_to, seven_rules,
               hands, tallies, pending, seen, dice_stream, steal_stream):
    """Roll n_rolls times, seats rolling in turn from seat 0; returns the robber's final hex.

    The same hands and tallies as `produce` and `seven` roll by roll, computed lazily (module
    docstring); pending int64[13] and seen int64[n_hex + 1, 13] are scratch, zeroed here.
    seven_rules False: a 7 produces nothing and does nothing else (the board's bare production,
    the robber never moves)."""
    n_players = hands.shape[0]
    n_hex = gold.shape[0] - 1
    flat = hands.reshape(n_players * N_RESOURCES)
    eager = spend_to >= 0 or gold.sum() > 0  # hands needed after every roll
    pending[:] = 0
    seen[:] = 0
    rs = robber_state(robber, n_hex)
    roller = 0
    for _ in range(n_rolls):
        s, _low = roll_dice(dice_stream)
        if seven_rules and s == 7:
            flush(rs, pending, seen, offsets, yields, flat)
            robber = seven(roller, robber, plan, touch, hands, tallies, steal_stream)
            rs = robber_state(robber, n_hex)
        elif eager:
            g = rs * 13 + s
            for e in range(offsets[g], offsets[g + 1]):
                flat[yields[e, 1]] += yields[e, 2]
            seen[rs, s] += 1
            pick_gold(s, rs, gold, gold_policy, hands, tallies)
        else:
            pending[s] += 1  # no hex has the number 7: counting it adds no cards
        if spend_to >= 0:
            n = hand_size(hands, roller)
            if n > spend_to:
                give_up_most_plentiful(hands, roller, n - spend_to)
                tallies[roller, T_SPENT] += n - spend_to
        roller = roller + 1 if roller + 1 < n_players else 0
    flush(rs, pending, seen, offsets, yields, flat)
    for rs in range(n_hex + 1):  # the tallies of the ordinary production
        if seen[rs].sum() == 0:
            continue
        for e in range(offsets[rs * 13], offsets[rs * 13 + 13]):
            p, r = divmod(yields[e, 1], N_RESOURCES)
            tallies[p, T_RECEIVED + r] += seen[rs, yields[e, 0]] * yields[e, 2]
        for s in range(13):
            for p in range(n_players):
                tallies[p, T_BLOCKED] += seen[rs, s] * blocked[rs, s, p]
    return robber


# One board with its buildings, as simulate_rolls takes it (module docstring: the board interface).
Board = namedtuple("Board", ["hex_terrain", "hex_number", "corner_hexes", "corner_building", "corner_owner",
                             "robber_banned"])


@njit(cache=True, nogil=True)
def simulate_rolls(board, robber_start, start_hands, n_players, n_rolls, gold_policy, spend_to, seven_rules, seed,
                   start, out):
    """Sequences start .. start + out.shape[1] - 1 of n_rolls rolls each over a Board, every sequence from
    start_hands (int32[n_players, N_RESOURCES]) and robber_start. out[seat * N_TALLY + T_*, j] gets the
    tallies of sequence start + j, whose dice are the stream (seed, sequence, PURPOSE_DICE) and whose
    steals draw from (seed, sequence, PURPOSE_STEAL); the starting cards are not tallied as received."""
    hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, banned = board
    n_hex = hex_terrain.shape[0]
    offsets, yields, gold, blocked = production_tables(hex_terrain, hex_number, corner_hexes, corner_building,
                                                       corner_owner, n_players)
    touch = hex_touch(n_hex, corner_hexes, corner_building, corner_owner, n_players)
    plan = robber_plan(hex_terrain, hex_number, touch, victory_points(corner_building, corner_owner, n_players),
                       banned)
    hands = np.zeros((n_players, N_RESOURCES), np.int32)
    tallies = np.zeros((n_players, N_TALLY), np.int64)
    pending = np.zeros(13, np.int64)
    seen = np.zeros((n_hex + 1, 13), np.int64)
    dice_stream = np.zeros(2, np.uint64)
    steal_stream = np.zeros(2, np.uint64)
    for j in range(out.shape[1]):
        stream_init(dice_stream, seed, start + j, PURPOSE_DICE)
        stream_init(steal_stream, seed, start + j, PURPOSE_STEAL)
        hands[:] = start_hands
        tallies[:] = 0
        play_rolls(n_rolls, robber_start, offsets, yields, gold, blocked, plan, touch, gold_policy, spend_to,
                   seven_rules, hands, tallies, pending, seen, dice_stream, steal_stream)
        for p in range(n_players):
            for k in range(N_TALLY):
                out[p * N_TALLY + k, j] = tallies[p, k]
