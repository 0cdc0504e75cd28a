"""Production over a board: checked inputs, many roll sequences on the runner, analytic income.

    start = starting_hands(terrain, number, corner_hexes, start_corners=[12, 40, 7, 33])
    tallies = simulate_rolls(terrain, number, corner_hexes, building, owner, robber,
                             n_players=4, n_rolls=60, sequences=10_000, seed=1, start_hands=start)
    tallies[seat, T_*, sequence]      (T_* and TALLY_NAMES from kernels.catan.production)

Rules and policies: kernels/catan/production.py and docs/seafarers/dice.md.
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.job import Job
from analyzer.params import check_seed
from analyzer.runner import RunOptions, run_job
from analyzer.seafarers.limits import MAX_HAND, MAX_PLAYERS, MAX_SEQUENCE_ROLLS, MAX_SEQUENCES, check_range
from kernels.catan import production as kp
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, RESOURCE_NAMES, SEA, TERRAIN_NAMES

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


def check_start_hands(start_hands, n_players: int) -> np.ndarray:
    """int32[n_players, N_RESOURCES], every count 0..MAX_HAND (None: empty hands)."""
    if start_hands is None:
        return np.zeros((n_players, N_RESOURCES), np.int32)
    hands = np.asarray(start_hands)
    if hands.shape != (n_players, N_RESOURCES) or not np.issubdtype(hands.dtype, np.integer):
        raise UserError(f"start_hands must be whole card counts of shape ({n_players}, {N_RESOURCES}), "
                        f"got {hands.dtype} {hands.shape}")
    if ((hands < 0) | (hands > MAX_HAND)).any() or hands.sum() > MAX_HAND:
        raise UserError(f"start_hands must hold 0 to {MAX_HAND} cards (the bank's resource cards)")
    return np.ascontiguousarray(hands, np.int32)


def check_robber_banned(robber_banned, n_hex: int) -> np.ndarray:
    """bool[n_hex] (None: no ban); the robber may never be moved onto a banned hex."""
    if robber_banned is None:
        return np.zeros(n_hex, np.bool_)
    banned = np.asarray(robber_banned)
    if banned.shape != (n_hex,) or banned.dtype != np.bool_:
        raise UserError(f"robber_banned must be a bool mask of shape ({n_hex},), got {banned.dtype} {banned.shape}")
    return np.ascontiguousarray(banned)


def starting_hands(hex_terrain, hex_number, corner_hexes, start_corners, gold_policy: int | str = "poorest"
                   ) -> np.ndarray:
    """int32[n_players, N_RESOURCES]: the cards each seat starts with, one per producing hex at its
    start corner (start_corners[seat]; -1: none), gold by the gold policy (kernels.catan.production.starting_hands).
    n_players = len(start_corners)."""
    corners = np.ascontiguousarray(start_corners, np.int32)
    n_players = corners.shape[0]
    check_range("players", n_players, 1, MAX_PLAYERS)
    terrain, number, hexes, _, _ = check_board(hex_terrain, hex_number, corner_hexes,
                                               np.zeros(len(corner_hexes), np.int8),
                                               np.full(len(corner_hexes), -1, np.int8), -1, n_players)
    if ((corners < -1) | (corners >= hexes.shape[0])).any():
        raise UserError(f"start_corners must be -1 (none) or a corner index 0..{hexes.shape[0] - 1}")
    return kp.starting_hands(terrain, number, hexes, corners, parse_gold_policy(gold_policy))


def simulate_rolls(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, robber: int, *,
                   n_players: int, n_rolls: int, sequences: int, seed: int, gold_policy: int | str = "poorest",
                   spend_to: int = kp.NO_SPENDING, seven_rules: bool = True, start_hands=None, robber_banned=None,
                   threads: int | None = None, **scale) -> np.ndarray:
    """int64[n_players, N_TALLY, sequences]: per-seat tallies of `sequences` roll sequences of n_rolls
    rolls each, every one from start_hands (default: empty hands; see `starting_hands`), sequence k
    rolling the dice stream (seed, k, PURPOSE_DICE). robber_banned: bool[n_hex] of hexes the robber
    may never be moved to (default none). seven_rules=False leaves out discards, robber moves and
    steals (a 7 just produces nothing). `scale`: the runner's chunk_size, dask_local or scheduler,
    checkpoint (sequence k is game k of the job)."""
    check_range("players", n_players, 1, MAX_PLAYERS)
    check_range("rolls", n_rolls, 1, MAX_SEQUENCE_ROLLS, "rolls per sequence; a game has about 60-100")
    check_range("sequences", sequences, 1, MAX_SEQUENCES, "for more, run in parts with different seeds")
    check_seed(seed)
    check_range("spend_to", spend_to, kp.NO_SPENDING, MAX_HAND,
                f"a hand never holds more than the bank's {MAX_HAND} resource cards", lowest="-1 (never spend)")
    options = RunOptions.of(sequences, threads=threads, label="roll sequences", **scale)
    gold = parse_gold_policy(gold_policy)
    board = check_board(hex_terrain, hex_number, corner_hexes, corner_building, corner_owner, robber, n_players)
    hands = check_start_hands(start_hands, n_players)
    banned = check_robber_banned(robber_banned, board[0].shape[0])
    spec = {"game": "seafarers", "experiment": "rolls", "board": [a.tolist() for a in board],
            "robber_banned": banned.tolist(), "robber": int(robber), "start_hands": hands.tolist(),
            "n_players": int(n_players), "n_rolls": int(n_rolls), "gold_policy": int(gold), "spend_to": int(spend_to),
            "seven_rules": bool(seven_rules), "seed": int(seed)}
    cols = run_job(Job(rolls_play_range, spec, n_players * kp.N_TALLY, "int64"), options).columns
    return cols.reshape(n_players, kp.N_TALLY, sequences)


def rolls_play_range(spec: dict):
    """Job builder: sequence start + j of the spec's board into out[:, j] (kernels.catan.production)."""
    dtypes = (np.int8, np.int8, np.int32, np.int8, np.int8)
    arrays = (np.array(a, d) for a, d in zip(spec["board"], dtypes))
    board = kp.Board(*arrays, np.array(spec["robber_banned"], np.bool_))
    hands = np.array(spec["start_hands"], np.int32).reshape(spec["n_players"], N_RESOURCES)
    args = (spec["robber"], hands, spec["n_players"], spec["n_rolls"], spec["gold_policy"], spec["spend_to"],
            spec["seven_rules"], spec["seed"])

    return lambda start, out: kp.simulate_rolls(board, *args, start, out)


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
