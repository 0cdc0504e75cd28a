"""Production over a board: checked inputs, many roll sequences on the runner, analytic income.

    tallies = simulate_rolls(terrain, number, corner_hexes, building, owner, robber,
                             n_players=4, n_rolls=60, sequences=10_000, seed=1)
    tallies[seat, T_*, sequence]      (T_* and TALLY_NAMES from kernels.production)

Rules and policies: kernels/production.py and docs/seafarers_dice.md.
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.runner import run_games
from analyzer.params import check_seed
from analyzer.seafarers.dice import check_threads
from analyzer.seafarers.limits import MAX_HAND, MAX_PLAYERS, MAX_SEQUENCE_ROLLS, MAX_SEQUENCES, check_range
from kernels import production as kp
from kernels.catan_codes import (FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, RESOURCE_NAMES, SEA,
                                 TERRAIN_NAMES)

GOLD_POLICIES = ("poorest", *RESOURCE_NAMES)


def parse_gold_policy(policy: int | str) -> int:
    """'poorest' (default: fewest held, ties lowest index), a resource name, or its index 0..4."""
    if isinstance(policy, str):
        if policy not in GOLD_POLICIES:
            raise UserError(f"unknown gold policy {policy!r}; use one of {', '.join(GOLD_POLICIES)}")
        return kp.GOLD_POOREST if policy == "poorest" else RESOURCE_NAMES.index(policy)
    if not kp.GOLD_POOREST <= policy < N_RESOURCES:
        raise UserError(f"gold policy must be {kp.GOLD_POOREST} (poorest) or a resource index 0..4, got {policy}")
    return int(policy)


def check_board(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, robber: int,
                n_players: int) -> tuple[np.ndarray, ...]:
    """The board arrays in the kernel's dtypes, every code checked (UserError naming the problem)."""
    terrain = np.ascontiguousarray(hex_terrain, np.int8)
    number = np.ascontiguousarray(hex_number, np.int8)
    hexes = np.ascontiguousarray(corner_hexes, np.int32)
    building = np.ascontiguousarray(corner_building, np.int8)
    owner = np.ascontiguousarray(corner_owner, np.int8)
    n_hex = terrain.shape[0]
    if number.shape != (n_hex,):
        raise UserError(f"hex_number has shape {number.shape}, expected ({n_hex},) like hex_terrain")
    if hexes.ndim != 2 or hexes.shape[1] != 3:
        raise UserError(f"corner_hexes must have shape (n_corner, 3), got {hexes.shape}")
    if building.shape != (hexes.shape[0],) or owner.shape != (hexes.shape[0],):
        raise UserError("corner_building and corner_owner must have one entry per corner")
    if ((terrain < 0) | (terrain >= len(TERRAIN_NAMES))).any():
        raise UserError(f"hex_terrain codes must lie in 0..{len(TERRAIN_NAMES) - 1}")
    if ((number != 0) & ((number < 2) | (number > 12) | (number == 7))).any():
        raise UserError("hex_number must be 0 (none) or 2..12 without 7")
    if ((hexes < -1) | (hexes >= n_hex)).any():
        raise UserError(f"corner_hexes must be -1 or a hex index 0..{n_hex - 1}")
    if ((building < 0) | (building > 2)).any():
        raise UserError("corner_building must be 0 (empty), 1 (settlement) or 2 (city)")
    if ((owner < -1) | (owner >= n_players)).any() or ((building > 0) != (owner >= 0)).any():
        raise UserError(f"corner_owner must be a seat 0..{n_players - 1} on built corners and -1 elsewhere")
    if not -1 <= robber < n_hex or (robber >= 0 and terrain[robber] == SEA):
        raise UserError(f"robber must be -1 (none) or a land hex index, got {robber}")
    return terrain, number, hexes, building, owner


def simulate_rolls(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, robber: int, *,
                   n_players: int, n_rolls: int, sequences: int, seed: int, gold_policy: int | str = "poorest",
                   spend_to: int = kp.NO_SPENDING, seven_rules: bool = True,
                   threads: int | None = None) -> np.ndarray:
    """int64[n_players, N_TALLY, sequences]: per-seat tallies of `sequences` roll sequences of n_rolls
    rolls each, every one from empty hands (sequence k: dice stream (seed, k, PURPOSE_DICE)).
    seven_rules=False leaves out discards, robber moves and steals (a 7 just produces nothing)."""
    check_range("players", n_players, 1, MAX_PLAYERS)
    check_range("rolls", n_rolls, 1, MAX_SEQUENCE_ROLLS, "rolls per sequence; a game has about 60-100")
    check_range("sequences", sequences, 1, MAX_SEQUENCES, "for more, run in parts with different seeds")
    check_seed(seed)
    check_range("spend_to", spend_to, kp.NO_SPENDING, MAX_HAND,
                f"a hand never holds more than the bank's {MAX_HAND} resource cards", lowest="-1 (never spend)")
    check_threads(threads)
    gold = parse_gold_policy(gold_policy)
    board = check_board(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, robber, n_players)

    def play(start, out):
        kp.simulate_rolls(*board, robber, n_players, n_rolls, gold, spend_to, seven_rules, seed, start, out)

    cols, _wall = run_games(play, sequences, n_players * kp.N_TALLY, threads=threads, dtype=np.int64)
    return cols.reshape(n_players, kp.N_TALLY, sequences)


def expected_income(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner,
                    n_players: int) -> np.ndarray:
    """float64[n_players, N_RESOURCES + 1]: expected cards per roll without robber: one column per
    resource from ordinary fields, the last one gold-field cards. Sum over (building, hex) of
    amount x pips(number) / 36."""
    terrain, number, hexes, building, owner = check_board(hex_terrain, hex_number, corner_hexes, corner_building,
                                                          corner_owner, -1, n_players)
    income = np.zeros((n_players, N_RESOURCES + 1))
    for c in np.flatnonzero(building):
        for h in hexes[c][hexes[c] >= 0]:
            t = int(terrain[h])
            if GOLD <= t <= ORE:
                col = N_RESOURCES if t == GOLD else t - FIRST_RESOURCE_TERRAIN
                income[owner[c], col] += building[c] * PIPS[number[h]] / 36
    return income
