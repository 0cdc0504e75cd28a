"""Meographic games as runner Jobs: the rules and the seats' bots as kernel arrays, play_range, replays."""

from __future__ import annotations

import numpy as np

from analyzer.job import Job, Statistic
from analyzer.lineup import seat_arms
from analyzer.meographic.bots import BOTS
from analyzer.meographic.rules import RuleSet, column_names, load_rules, mission_windows, rules_from_data
from kernels import meographic as km
from kernels.meographic.engine import CFG_SIZE, MAX_CLASSES, MAX_TYPES, N_POINTS

RESULT_DTYPE = "int16"


def check_players(players) -> None:
    from analyzer.errors import UserError
    from analyzer.params import check_whole

    check_whole("--players", players)
    if not 1 <= players <= km.MAX_PLAYERS:
        raise UserError(f"--players must be 1 to {km.MAX_PLAYERS}, got {players}")


def kernel_setup(rules: RuleSet, players: int, bots: list) -> km.Setup:
    """The kernel's Setup for these rules, players and one Arm per seat."""
    cfg = np.zeros(CFG_SIZE, np.int64)
    cfg[:] = (players, rules.n_tiles, len(rules.missions), rules.n_types, int(rules.card_scores_once))
    start, count, lengths, cells = mission_windows(rules)
    tile_type = np.array(rules.tile_type, np.int64)
    tile_pts = np.array(rules.tile_points, np.int64)
    type_total = np.zeros(MAX_TYPES, np.int64)
    type_total[:rules.n_types] = np.bincount(tile_type, minlength=rules.n_types)
    type_pt = np.zeros(MAX_TYPES, np.int64)
    for t in range(rules.n_types):
        type_pt[t] = int(np.median(tile_pts[tile_type == t])) if type_total[t] else 0
    classes = tile_type * N_POINTS + tile_pts
    class_total = np.bincount(classes, minlength=MAX_CLASSES).astype(np.int64)
    class_tile = np.zeros(MAX_CLASSES, np.int64)
    for t in range(rules.n_tiles - 1, -1, -1):  # (downwards: the lowest id of each class stays)
        class_tile[classes[t]] = t
    ids = np.zeros(km.MAX_PLAYERS, np.int64)
    params = np.zeros((km.MAX_PLAYERS, km.N_PARAMS), np.float64)
    for s, arm in enumerate(bots):
        ids[s] = arm.spec.code
        params[s] = arm.vector(km.N_PARAMS)
    if len(lengths) == 0:  # (every card has windows for some type; an empty array still needs its shape)
        lengths, cells = np.zeros(1, np.int32), np.zeros((1, 7, 3), np.int32)
    return km.Setup(cfg, tile_type, tile_pts, np.array([m.points for m in rules.missions], np.int64),
                    start, count, lengths, cells, type_total, type_pt, class_total, class_tile, ids, params)


def n_cols(rules: RuleSet) -> int:
    return len(column_names(len(rules.missions)))


def check_setup(rules: RuleSet, players: int) -> None:
    """The set-up draws the 3 piles' tiles and a hand per player ("Cada jogador compra ... uma peça ... como sua
    mão inicial"): a set too small for that is refused. Later the bag may run out (rules.md "an empty bag")."""
    from analyzer.errors import UserError

    if rules.n_tiles < 3 + players:
        raise UserError(f"rule set {rules.name}: {players} player{'s' if players > 1 else ''} need at least "
                        f"{3 + players} tiles (3 piles and a starting hand each), the tile set has {rules.n_tiles}")


def game_spec(rules: RuleSet, players: int, bots: str | list[str], seed: int) -> dict:
    check_players(players)
    check_setup(rules, players)
    arms = seat_arms(bots, players, BOTS.parse, "--bots", "bot")
    return {"game": "meographic", "players": int(players), "bots": [a.label for a in arms], "seed": int(seed),
            "rules": {"name": rules.name, "sha256": rules.sha256, "data": rules.data}}


def job_of(spec: dict) -> Job:
    rules = rules_from_data(spec["rules"]["data"], spec["rules"]["name"])
    return Job(play_range_for_spec, spec, n_cols(rules), RESULT_DTYPE, Statistic(0, "mean", "mean score of seat 1"))


def meographic_job(players: int, bots: str | list[str], seed: int, rules: RuleSet | None = None) -> Job:
    return job_of(game_spec(rules or load_rules(), players, bots, seed))


def setup_of(spec: dict):
    rules = rules_from_data(spec["rules"]["data"], spec["rules"]["name"])
    arms = [BOTS.parse(label) for label in spec["bots"]]
    return rules, kernel_setup(rules, spec["players"], arms)


def play_range_for_spec(spec: dict):
    """Job builder (on the process that plays): spec -> play_range(start, out)."""
    rules, setup = setup_of(spec)
    no_trace = np.zeros((0, 5), np.int64)
    seed = spec["seed"]

    def play_range(start: int, out: np.ndarray) -> None:
        # a State per chunk, never per game: threads play chunks of one job at once
        state = km.new_state(rules.n_tiles, len(rules.missions), n_cols(rules))
        sim = km.new_state(rules.n_tiles, len(rules.missions), n_cols(rules))  # the rollout's continuations
        block = np.zeros((out.shape[0], out.shape[1]), np.int64)
        km.play_range(state, setup, seed, start, block, no_trace, sim)
        out[...] = block
    return play_range



def replay(spec: dict, game: int):
    """One game again: (its result columns, its actions as (seat, kind, a, b, c) rows, the final state)."""
    rules, setup = setup_of(spec)
    state = km.new_state(rules.n_tiles, len(rules.missions), n_cols(rules))
    trace = np.zeros((2 * km.ROUNDS * km.MAX_PLAYERS + 8, 5), np.int64)
    out = np.zeros((n_cols(rules), 1), np.int64)
    sim = km.new_state(rules.n_tiles, len(rules.missions), n_cols(rules))
    taken = km.play_range(state, setup, spec["seed"], game, out, trace, sim)
    return out[:, 0], trace[:taken], state
