"""Slow, obvious, pure-Python Seafarers dice, production and fortress: the oracles of the kernels.

Written without the kernels' data structures: no yield table, no precomputed robber plan; every
roll walks the corners, every 7 ranks the hexes afresh, and the fortress chain is solved by
first-step analysis in exact fractions. Random draws come from the same counter-based streams
(analyzer/beacon/reference.py's Stream) in the same order, so tests compare exact results.

Also a fixture: `base_board()`, a 19-hex base-game-like board with 8 settlements, used by the
benchmark and the tests (the scenario catalog provides the real Seafarers boards).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from analyzer.rng_reference import Stream
from kernels.catan.codes import BRICK, DESERT, GOLD, GRAIN, LUMBER, ORE, PIPS, SEA, WOOL
from kernels.rng import PURPOSE_BATTLE, PURPOSE_DICE, PURPOSE_SIEGE, PURPOSE_STEAL

DISCARD_LIMIT = 7
RESOURCES = 5


# --------------------------------------------------------------------------- dice

def uniform_exact(stream: Stream, n: int) -> int:
    """Uniform on 0..n-1 with no modulo bias: draws at or above the largest multiple of n are redrawn."""
    limit = 2**64 - 2**64 % n
    while True:
        v = stream.next_u64()
        if v < limit:
            return v % n


def roll_pair(stream: Stream) -> tuple[int, int]:
    p = uniform_exact(stream, 36)
    return p // 6 + 1, p % 6 + 1


def roll_die(stream: Stream) -> int:
    return uniform_exact(stream, 6) + 1


def rolls(seed: int, sequence: int, n: int) -> list[tuple[int, int]]:
    """The first n (d1, d2) pairs of roll sequence `sequence`."""
    stream = Stream(seed, sequence, PURPOSE_DICE)
    return [roll_pair(stream) for _ in range(n)]


def longest_gaps(sums: list[int]) -> dict[int, int]:
    """Longest run of consecutive rolls without each sum 2..12."""
    out = {}
    for s in range(2, 13):
        run = best = 0
        for x in sums:
            run = 0 if x == s else run + 1
            best = max(best, run)
        out[s] = best
    return out


# --------------------------------------------------------------------------- production

def producing(terrain: int, number: int) -> bool:
    return GOLD <= terrain <= ORE and PIPS[number] > 0


class Table:
    """A board with its buildings, as plain lists; produce() and seven() change hands/tallies in place.
    Tallies per seat: 5 received per resource, gold, blocked, discarded, sevens_hit, robbed, stole,
    targeted, spent (the kernel's T_* order)."""

    def __init__(self, terrain, number, corner_hexes, building, owner, n_players, robber_banned=()):
        self.terrain = [int(t) for t in terrain]
        self.banned = {int(h) for h in robber_banned}  # hexes the robber may never be moved to
        self.number = [int(n) for n in number]
        self.corners = [(tuple(int(h) for h in hs if h >= 0), int(b), int(o))
                        for hs, b, o in zip(corner_hexes, building, owner) if b > 0]
        self.n_players = n_players
        self.vp = [sum(b for _, b, o in self.corners if o == p) for p in range(n_players)]
        self.income = [sum(self.harm(h, p) for h in range(len(self.terrain))) for p in range(n_players)]

    def on_hex(self, h: int, p: int) -> int:
        """Building amount of seat p around hex h."""
        return sum(b for hs, b, o in self.corners if o == p and h in hs)

    def harm(self, h: int, p: int) -> int:
        return (PIPS[self.number[h]] if producing(self.terrain[h], self.number[h]) else 0) * self.on_hex(h, p)

    def produce(self, roll, robber, hands, tallies, gold_policy):
        gold_cards = [0] * self.n_players
        for hs, b, o in self.corners:
            for h in hs:
                if self.number[h] != roll or not producing(self.terrain[h], self.number[h]):
                    continue
                if h == robber:
                    tallies[o][6] += b
                elif self.terrain[h] == GOLD:
                    gold_cards[o] += b
                else:
                    r = self.terrain[h] - LUMBER
                    hands[o][r] += b
                    tallies[o][r] += b
        for p in range(self.n_players):  # gold after the ordinary cards, card by card
            tallies[p][5] += gold_cards[p]
            for _ in range(gold_cards[p]):
                r = gold_policy if gold_policy >= 0 else hands[p].index(min(hands[p]))
                hands[p][r] += 1
                tallies[p][r] += 1

    def seven(self, roller, robber, hands, tallies, steal: Stream) -> int:
        """Discards, robber, steal; returns the robber's hex."""
        for p in range(self.n_players):
            n = sum(hands[p])
            if n > DISCARD_LIMIT:
                give_up(hands[p], n // 2)
                tallies[p][7] += n // 2
                tallies[p][8] += 1
        if robber >= 0:
            opponents = [p for p in range(self.n_players) if p != roller]
            leader = max(opponents, key=lambda p: (self.vp[p], self.income[p], -p)) if opponents else None
            choices = [h for h in range(len(self.terrain))
                       if self.terrain[h] != SEA and h != robber and h not in self.banned]
            if choices:
                robber = min(choices, key=lambda h: (self.harm(h, roller),
                                                     -(self.harm(h, leader) if leader is not None else 0),
                                                     -sum(self.harm(h, p) for p in opponents), h))
            for p in range(self.n_players):
                if self.on_hex(robber, p) > 0:
                    tallies[p][11] += 1
        victims = [p for p in range(self.n_players)
                   if p != roller and sum(hands[p]) > 0 and (robber < 0 or self.on_hex(robber, p) > 0)]
        if victims:
            victim = max(victims, key=lambda p: (sum(hands[p]), -p))
            cards = [r for r in range(RESOURCES) for _ in range(hands[victim][r])]
            r = cards[steal.below(len(cards))]
            hands[victim][r] -= 1
            hands[roller][r] += 1
            tallies[victim][9] += 1
            tallies[roller][10] += 1
        return robber


def starting_hands(terrain, number, corner_hexes, start_corners, gold_policy) -> list[list[int]]:
    """Per seat, one card for each producing hex at its start corner (-1: none): the ordinary cards,
    then each gold card chosen by the gold policy; the robber does not block."""
    hands = []
    for c in start_corners:
        hand = [0] * RESOURCES
        hexes = [int(h) for h in corner_hexes[c] if h >= 0] if c >= 0 else []
        producing_hexes = [h for h in hexes if producing(int(terrain[h]), int(number[h]))]
        for h in producing_hexes:
            if terrain[h] != GOLD:
                hand[terrain[h] - LUMBER] += 1
        for h in producing_hexes:
            if terrain[h] == GOLD:
                hand[gold_policy if gold_policy >= 0 else hand.index(min(hand))] += 1
        hands.append(hand)
    return hands


def play_sequence(terrain, number, corner_hexes, building, owner, robber, n_players, n_rolls, gold_policy,
                  spend_to, seed, sequence, seven_rules=True, start_hands=None, robber_banned=()):
    """One roll sequence from start_hands (default: empty hands), the robber never moved onto a hex of
    robber_banned: returns (hands [seat][resource], tallies [seat][T_*], robber)."""
    table = Table(terrain, number, corner_hexes, building, owner, n_players, robber_banned)
    hands = ([[int(x) for x in hand] for hand in start_hands] if start_hands is not None
             else [[0] * RESOURCES for _ in range(n_players)])
    tallies = [[0] * 13 for _ in range(n_players)]
    dice = Stream(seed, sequence, PURPOSE_DICE)
    steal = Stream(seed, sequence, PURPOSE_STEAL)
    for t in range(n_rolls):
        roller = t % n_players
        d1, d2 = roll_pair(dice)
        if d1 + d2 != 7:
            table.produce(d1 + d2, robber, hands, tallies, gold_policy)
        elif seven_rules:
            robber = table.seven(roller, robber, hands, tallies, steal)
        if spend_to >= 0 and sum(hands[roller]) > spend_to:
            k = sum(hands[roller]) - spend_to
            give_up(hands[roller], k)
            tallies[roller][12] += k
    return hands, tallies, robber


def give_up(hand: list[int], k: int) -> None:
    for _ in range(k):
        r = hand.index(max(hand))
        hand[r] -= 1


# --------------------------------------------------------------------------- fortress

def play_siege(seed: int, index: int, chits: int, warships: int, loss_model: str) -> tuple[int, int, int, int]:
    """(conquered, battles, ships lost, warships lost) of siege `index`, as kernels/catan/fortress.py plays it."""
    stream = Stream(seed, index, PURPOSE_SIEGE)
    ships = ["w"] * warships  # the route from the front: "w" warship, "n" normal ship rebuilt ahead
    battles = lost_total = lost_war = 0
    while chits > 0 and ships.count("w") >= 2:  # one warship or none can never win
        die = roll_die(stream)
        battles += 1
        strength = ships.count("w")
        if strength > die:
            chits -= 1
            continue
        lost = 1 if strength == die else 2
        lost_total += lost
        gone, ships = ships[:lost], ships[lost:]
        lost_war += gone.count("w")
        if loss_model == "rebuilt":
            ships = ["n"] * lost + ships
    return int(chits == 0), battles, lost_total, lost_war


def battle_counts(seed: int, warships: int, n: int, block: int) -> list[int]:
    """[wins, ties, losses] of n single battles cut into blocks (block k: stream (seed, k, PURPOSE_BATTLE))."""
    counts = [0, 0, 0]
    for b in range(math.ceil(n / block)):
        stream = Stream(seed, b, PURPOSE_BATTLE)
        for _ in range(min(block, n - b * block)):
            die = roll_die(stream)
            counts[0 if warships > die else 1 if warships == die else 2] += 1
    return counts


def siege_values(chits: int, warships: int, loss_model: str) -> dict[str, Fraction]:
    """Exact siege expectations by first-step analysis (a self-loop is solved by dividing it out).

    Keys: p_conquer, battles, ships_lost, warships_lost (until conquest or fewer than 2 warships),
    battles_if_conquered, ships_lost_if_conquered (conditional on conquest; None if impossible)."""

    @cache
    def value(c: int, w: int, f: int) -> tuple[Fraction, ...]:
        # (P(conquer), E[battles], E[ships], E[warships lost], E[battles; conquer], E[ships; conquer])
        if c == 0:
            return (Fraction(1),) + (Fraction(0),) * 5
        if w < 2:  # no die can be beaten any more: the siege has failed
            return (Fraction(0),) * 6
        acc = [Fraction(0)] * 6
        self_p = self_lost = Fraction(0)
        for die in range(1, 7):
            p = Fraction(1, 6)
            if w > die:
                nxt, lost, lost_w = (c - 1, w, f), 0, 0
            else:
                lost = 1 if w == die else 2
                from_front = min(f, lost)
                lost_w = min(w, lost - from_front)
                f_after = f - from_front + (lost if loss_model == "rebuilt" else 0)
                nxt = (c, w - lost_w, f_after)
            if nxt == (c, w, f):
                self_p += p
                self_lost += p * lost
                acc[1] += p
                acc[2] += p * lost
                acc[3] += p * lost_w
                continue
            v = value(*nxt)
            acc[0] += p * v[0]
            acc[1] += p * (1 + v[1])
            acc[2] += p * (lost + v[2])
            acc[3] += p * (lost_w + v[3])
            acc[4] += p * (v[0] + v[4])  # E[(1 + T') 1_A] = P(A) + E[T' 1_A]
            acc[5] += p * (lost * v[0] + v[5])
        # a self-loop adds self_p x value to the right-hand side; the joint terms also gain
        # self_p x P(A) (one more battle) and self_lost x P(A) (its ships)
        scale = 1 / (1 - self_p)
        p_a = acc[0] * scale
        return (p_a, acc[1] * scale, acc[2] * scale, acc[3] * scale,
                (acc[4] + self_p * p_a) * scale, (acc[5] + self_lost * p_a) * scale)

    p, t, s, w, ta, sa = value(chits, warships, 0)
    return {"p_conquer": p, "battles": t, "ships_lost": s, "warships_lost": w,
            "battles_if_conquered": ta / p if p else None, "ships_lost_if_conquered": sa / p if p else None}


# --------------------------------------------------------------------------- fixture board

BASE_TERRAIN_SPIRAL = (  # 19 hexes from the outer ring inwards; ours, not the printed beginner layout
    ORE, WOOL, LUMBER, GRAIN, BRICK, WOOL, BRICK, GRAIN, LUMBER, DESERT,
    LUMBER, ORE, LUMBER, ORE, GRAIN, WOOL, BRICK, GRAIN, WOOL)
# The official number order (research §5: catanatron, JSettlers), laid along the spiral skipping the desert.
BASE_NUMBER_SPIRAL = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)


def spiral_coords(radius: int = 2) -> list[tuple[int, int]]:
    """Axial (q, r) hex coordinates: the outer ring first, clockwise, then inwards to the centre."""
    dirs = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    out = []
    for k in range(radius, 0, -1):
        q, r = -k, k  # a ring's corner, then walk its six sides
        for dq, dr in dirs:
            for _ in range(k):
                out.append((q, r))
                q, r = q + dq, r + dr
    out.append((0, 0))
    return out


def hex_corners(coords: list[tuple[int, int]]) -> tuple[list[list[int]], list[set[int]]]:
    """corner_hexes (-1 padded to 3) and each corner's neighbouring corners, from pointy-top geometry."""
    key_of: dict[tuple[int, int], int] = {}
    corner_hexes: list[list[int]] = []
    edges: list[set[int]] = []
    for h, (q, r) in enumerate(coords):
        x, y = math.sqrt(3) * (q + r / 2), 1.5 * r
        ring = []
        for k in range(6):
            a = math.radians(60 * k + 30)
            key = (round((x + math.cos(a)) * 1000), round((y + math.sin(a)) * 1000))
            if key not in key_of:
                key_of[key] = len(corner_hexes)
                corner_hexes.append([])
                edges.append(set())
            ring.append(key_of[key])
            corner_hexes[key_of[key]].append(h)
        for k in range(6):
            edges[ring[k]].add(ring[k - 1])
            edges[ring[k - 1]].add(ring[k])
    return [hs + [-1] * (3 - len(hs)) for hs in corner_hexes], edges


def base_board(players: int = 4, settlements_each: int = 2) -> dict:
    """A 19-hex base-game-like board (official terrain counts and number order) with settlements
    placed by a snake draft: each seat takes the free corner with most pips that keeps the
    distance rule (ties: lowest corner index). Keys: the kernel's board arrays and robber."""
    coords = spiral_coords(2)
    terrain = list(BASE_TERRAIN_SPIRAL)
    numbers = iter(BASE_NUMBER_SPIRAL)
    number = [0 if t == DESERT else next(numbers) for t in terrain]
    corner_hexes, edges = hex_corners(coords)
    building = [0] * len(corner_hexes)
    owner = [-1] * len(corner_hexes)
    order = list(range(players)) + list(range(players - 1, -1, -1))
    for p in (order * settlements_each)[:players * settlements_each]:
        free = [c for c in range(len(corner_hexes))
                if building[c] == 0 and all(building[n] == 0 for n in edges[c])]
        best = max(free, key=lambda c: (sum(PIPS[number[h]] for h in corner_hexes[c] if h >= 0), -c))
        building[best], owner[best] = 1, p
    return {"hex_terrain": terrain, "hex_number": number, "corner_hexes": corner_hexes,
            "corner_building": building, "corner_owner": owner, "robber": terrain.index(DESERT)}
