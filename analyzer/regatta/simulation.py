"""Regatta games through the runner: a picklable Job per (players, bots, team, rules, seed), its play_range, and
the races played again for their paths (the seat-rotated comparison of two bots: analyzer/regatta/api.py)."""

from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.job import Job, Statistic
from analyzer.lineup import seat_arms
from analyzer.regatta import rules as rules_module
from analyzer.regatta.arms import BOTS
from kernels.regatta import bots as kb
from kernels.regatta import engine as ke

# games.parquet's columns: the kernel's, with boats numbered from 1 as in every report (winner 0: none, capped)
TABLE_NAMES = tuple(f"score_boat_{int(n[6:]) + 1}" if n.startswith("score_") else n for n in ke.COLUMN_NAMES)


def table_frame(cols: np.ndarray, start: int = 0) -> dict:
    """The per-race columns of `cols` (int32 [N_COLS, games]) by games.parquet name: game, winner (boat 1..,
    0 none), turns, ..., score_boat_1.. (the final path score to the sea, -1 no such boat)."""
    frame = {"game": np.arange(start, start + cols.shape[1])}
    for k, name in enumerate(TABLE_NAMES):
        frame[name] = cols[k] + 1 if name == "winner" else cols[k]
    return frame


def regatta_job(players: int, bots: list[str], seed: int, team: bool = False, rules_data: dict | None = None) -> Job:
    """`bots`: one name per seat or one for all (analyzer.lineup: a list, or "a,b"). The rules' content goes into
    the spec, not a path."""
    if team and players != 4:
        raise UserError("--team: the team variant seats 4 players (two teams of two)")
    if not 2 <= players <= ke.MAX_BOATS:
        raise UserError(f"--players {players}: the race seats 2 to {ke.MAX_BOATS} players")
    labels = [arm.label for arm in seat_arms(bots, players, BOTS.parse, "--bots", "bot")]
    data = rules_data if rules_data is not None else rules_module.load().source
    r = rules_module.from_data(data, "--rules")  # checked before any game
    if team and r.draw_to > r.team_limit:
        raise UserError(f"--team: draw_to = {r.draw_to} is more than the team hand limit {r.team_limit}: the draw at "
                        f"the end of a turn would break it")
    deal = ke.make_setup(r, players, team).cfg[ke.C_DEAL]
    if r.card_count.sum() < deal * players:  # "Reparte 5 cartas de acción ... a cada jugador"
        raise UserError(f"--rules: {r.card_count.sum()} action cards cannot deal {deal} to each of {players} players")
    spec = {"game": "regatta", "players": int(players), "bots": labels, "team": bool(team), "seed": int(seed),
            "rules": data}
    return Job(build_play_range, spec, ke.N_COLS, "int32", Statistic(1, "mean", "race length (turns)"))


def kernel_args(spec: dict) -> tuple:
    """(setup, bot codes, bot parameters) of a job's spec."""
    r = rules_module.from_data(spec["rules"], "rules")
    setup = ke.make_setup(r, spec["players"], spec["team"])
    codes = np.zeros(ke.MAX_BOATS, np.int64)
    params = np.zeros((ke.MAX_BOATS, kb.N_PARAMS))
    for seat, label in enumerate(spec["bots"]):
        arm = BOTS.parse(label)
        codes[seat] = arm.spec.code
        params[seat] = arm.vector(kb.N_PARAMS)
    return setup, codes, params


NO_TRACKS = np.zeros((0, 0, ke.MAX_BOATS), np.int64)  # empty sinks: the kernel writes nothing into them
NO_TRACE = np.zeros((0, 5), np.int64)


def play_games(setup, codes, params, seed: int, start: int, out: np.ndarray, tracks: np.ndarray = NO_TRACKS,
               trace: np.ndarray = NO_TRACE, st=None) -> int:
    """kernels.regatta.bots.play_range with fresh scratch: games start .. start + out.shape[1] - 1 into out, each
    boat's path into tracks and the last game's actions into trace where given; st holds the last game's state
    (a fresh one when None). Returns the trace's rows."""
    st = ke.make_state(setup) if st is None else st
    return kb.play_range(setup, st, codes, params, seed, start, out, tracks, trace,
                         np.zeros((ke.MAX_ACTIONS, 4), np.int64), np.zeros(2, np.uint64), kb.make_work(setup))


def build_play_range(spec: dict):
    setup, codes, params = kernel_args(spec)
    seed = spec["seed"]

    def play_range(start: int, out: np.ndarray) -> None:
        play_games(setup, codes, params, seed, start, out)  # a state and scratch per chunk, never per game

    return play_range


def path_tracks(spec: dict, games: int, turns: int) -> np.ndarray:
    """Races 0 .. games - 1 of the job played again (the same races): each boat's path_score at the start
    and after each of the first `turns` turns, [game, turn, boat], -1 once the race is over."""
    setup, codes, params = kernel_args(spec)
    tracks = np.zeros((games, turns + 1, ke.MAX_BOATS), np.int64)
    play_games(setup, codes, params, spec["seed"], 0, np.zeros((ke.N_COLS, games), np.int32), tracks)
    return tracks[:, :, :2 if spec["team"] else spec["players"]]


def trace_game(setup, codes, params, seed: int, game: int, rows: int = 20_000):
    """Game `game` with every action: (the actions' rows (seat, kind, a, b, c), the final state)."""
    st = ke.make_state(setup)
    trace = np.zeros((rows, 5), np.int64)
    m = play_games(setup, codes, params, seed, game, np.zeros((ke.N_COLS, 1), np.int32), trace=trace, st=st)
    return trace[:m], st
