"""Pirate fortress battles ("The Pirate Islands"): exact laws, the siege Markov chain, simulation.

Rules (seed 002, "Conquista de uma fortaleza pirata", p. 16): the fortress holds 3 chits; per
battle it rolls one die; warships on the route > die: it loses a chit; fewer: the attacker loses
the two foremost ships; equal: the foremost ship. With no chit left it becomes the attacker's
settlement. A siege is the sequence of battles until conquest or until the attacker has fewer
than 2 warships (then no battle can be won: the die is at least 1). Which ships are lost is the
loss model (kernels/catan/fortress.py, docs/seafarers/dice.md): "rebuilt" (the default, the literal reading the
Pirate Islands race also plays) or "warships".
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from analyzer import stats
from analyzer.errors import UserError
from analyzer.job import Job
from analyzer.params import check_seed
from analyzer.runner import RunOptions, run_job
from analyzer.seafarers.dice import blocks
from analyzer.seafarers.limits import IN_PARTS, MAX_BATTLES, MAX_SIEGES, MAX_WARSHIPS, check_range
from kernels.catan import fortress as kf

# Seed 002 p. 16: "Cada fortaleza pirata é composta por 3 fichas Catan"; a tie costs the foremost
# ship ("o barco mais adiantado"), a defeat the two foremost ("os dois barcos mais adiantados").
FORTRESS_CHITS = 3
SHIPS_LOST = {"tie": 1, "loss": 2}
ALWAYS_WINS = 7  # the die never shows more than 6
BATTLE_BLOCK = 65_536
DEFAULT_MAX_SIEGES = 1_000_000  # sieges keep one column per siege: without --sieges, at most this many
OUTCOMES = ("win", "tie", "loss")
DEFAULT_LOSS_MODEL = "rebuilt"  # the seed's words, read literally; the race kernel plays the same


def battle_law(warships: int) -> dict[str, Fraction]:
    """Exact single-battle law: P(win) = #{die < w}/6, P(tie) = #{die = w}/6, P(loss) = #{die > w}/6."""
    return {"win": Fraction(min(max(warships - 1, 0), 6), 6),
            "tie": Fraction(1 if 1 <= warships <= 6 else 0, 6),
            "loss": Fraction(min(max(6 - warships, 0), 6), 6)}


def check_loss_model(loss_model: str) -> int:
    if loss_model not in kf.LOSS_MODELS:
        raise UserError(f"unknown loss model {loss_model!r}; use one of {', '.join(kf.LOSS_MODELS)}")
    return kf.LOSS_MODELS.index(loss_model)


def siege_chain(warships: int, loss_model: str = DEFAULT_LOSS_MODEL,
                chits: int = FORTRESS_CHITS) -> dict[str, float | None]:
    """Exact siege expectations from the absorbing Markov chain over (chits, warships, normal ships
    ahead of the warships), solved with numpy. Keys as reference.siege_values: p_conquer, battles,
    ships_lost, warships_lost, battles_if_conquered, ships_lost_if_conquered (None if p_conquer is 0)."""
    check_loss_model(loss_model)
    if warships < kf.MIN_WARSHIPS or chits == 0:  # nothing to fight or no battle to win
        p = 1.0 if chits == 0 else 0.0
        return {"p_conquer": p, "battles": 0.0, "ships_lost": 0.0, "warships_lost": 0.0,
                "battles_if_conquered": 0.0 if p else None, "ships_lost_if_conquered": 0.0 if p else None}
    w_max = min(warships, ALWAYS_WINS)  # from 7 warships on every battle is won: nothing changes
    fronts = 3 if loss_model == "rebuilt" else 1  # normal ships ahead of the warships: 0..2
    states = [(c, w, f) for c in range(1, chits + 1) for w in range(kf.MIN_WARSHIPS, w_max + 1)
              for f in range(fronts)]
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    q = np.zeros((n, n))
    moves = []  # (state, next state or "conquered"/"failed", probability, ships lost, warships lost)
    for i, (c, w, f) in enumerate(states):
        for die in range(1, 7):
            if w > die:
                lost, lost_w, nxt = 0, 0, (c - 1, w, f)
            else:
                lost = SHIPS_LOST["tie"] if w == die else SHIPS_LOST["loss"]
                from_front = min(f, lost)
                lost_w = min(w, lost - from_front)
                nxt = (c, w - lost_w, f - from_front + (lost if loss_model == "rebuilt" else 0))
            target = "conquered" if nxt[0] == 0 else "failed" if nxt[1] < kf.MIN_WARSHIPS else index[nxt]
            moves.append((i, target, 1 / 6, lost, lost_w))
            if not isinstance(target, str):
                q[i, target] += 1 / 6
    a = np.eye(n) - q
    conquer_now = np.zeros(n)
    lost1 = np.zeros(n)
    lost_w1 = np.zeros(n)
    for i, target, p, lost, lost_w in moves:
        conquer_now[i] += p * (target == "conquered")
        lost1[i] += p * lost
        lost_w1[i] += p * lost_w
    h = np.linalg.solve(a, conquer_now)  # P(conquer) from each state
    h_next = np.zeros(n)  # E[ships lost this battle x 1{conquer later}]
    for i, target, p, lost, _ in moves:
        h_next[i] += p * lost * (1.0 if target == "conquered" else 0.0 if target == "failed" else h[target])
    battles, ships, lost_w, battles_a, ships_a = np.linalg.solve(
        a, np.column_stack([np.ones(n), lost1, lost_w1, h, h_next])).T
    s0 = index[(chits, w_max, 0)]
    p = float(h[s0])
    return {"p_conquer": p, "battles": float(battles[s0]), "ships_lost": float(ships[s0]),
            "warships_lost": float(lost_w[s0]),
            "battles_if_conquered": float(battles_a[s0]) / p if p > 0 else None,
            "ships_lost_if_conquered": float(ships_a[s0]) / p if p > 0 else None}


def battles_job(warships: int, battles: int, seed: int) -> Job:
    """Game k of this job is block k of BATTLE_BLOCK single battles."""
    spec = {"game": "seafarers", "experiment": "battles", "warships": int(warships), "battles": int(battles),
            "seed": int(seed)}
    return Job(battles_play_range, spec, 3, "int64")


def battles_play_range(spec: dict):
    w, battles, seed = spec["warships"], spec["battles"], spec["seed"]
    return lambda start, out: kf.battle_blocks(w, seed, BATTLE_BLOCK, battles, start, out)


def sieges_job(warships: int, seed: int, loss_model: str = DEFAULT_LOSS_MODEL, chits: int = FORTRESS_CHITS) -> Job:
    """Game i of this job is siege i: int32 columns conquered, battles, ships lost, warships lost."""
    check_loss_model(loss_model)
    return Job(sieges_play_range, {"game": "seafarers", "experiment": "sieges", "warships": int(warships),
                                                "seed": int(seed), "loss_model": loss_model, "chits": int(chits)},
               kf.S_COLS, "int32")


def sieges_play_range(spec: dict):
    model = check_loss_model(spec["loss_model"])
    per = np.array([0, SHIPS_LOST["tie"], SHIPS_LOST["loss"]], np.int64)  # indexed by WIN, TIE, LOSS
    chits, w, seed = spec["chits"], spec["warships"], spec["seed"]
    return lambda start, out: kf.siege_range(chits, w, per, model, seed, start, out)


def simulate_battles(warships: int, battles: int, seed: int, threads: int | None = None,
                     **scale) -> tuple[np.ndarray, float]:
    """(counts [win, tie, loss], wall seconds) of `battles` single battles with a fixed warship count."""
    run = run_job(battles_job(warships, battles, seed),
                  RunOptions.of(blocks(battles, BATTLE_BLOCK), threads=threads, label="blocks of battles", **scale))
    return run.columns.sum(axis=1), run.wall


def simulate_sieges(warships: int, sieges: int, seed: int, loss_model: str = DEFAULT_LOSS_MODEL,
                    chits: int = FORTRESS_CHITS, threads: int | None = None, **scale) -> np.ndarray:
    """int32[S_COLS, sieges]: per siege conquered, battles, ships lost, warships lost."""
    return run_job(sieges_job(warships, seed, loss_model, chits),
                   RunOptions.of(sieges, threads=threads, label="sieges", **scale)).columns


def fortress_stats(warships: int, battles: int, seed: int, sieges: int | None = None,
                   loss_model: str = DEFAULT_LOSS_MODEL, threads: int | None = None, **scale) -> dict:
    """The `fortress` experiment: observed vs exact single battles, and sieges of a full fortress.
    `scale`: the runner's chunk_size, progress, dask_local or scheduler, checkpoint (one sub-folder for
    the battles, one for the sieges)."""
    check_range("--warships", warships, 0, MAX_WARSHIPS, f"a colour has {MAX_WARSHIPS} ships, warships among them")
    check_range("--battles", battles, 1, MAX_BATTLES, f"8 minutes on one core at the bound; {IN_PARTS}")
    sieges = min(battles, DEFAULT_MAX_SIEGES) if sieges is None else sieges
    check_range("--sieges", sieges, 1, MAX_SIEGES, f"every siege keeps its own column; {IN_PARTS}")
    check_seed(seed)
    check_loss_model(loss_model)
    RunOptions.of(1, threads=threads, **scale)  # every runner option checked before any battle
    counts, wall = simulate_battles(warships, battles, seed, threads, **_part(scale, "battles"))
    law = battle_law(warships)
    battle = {}
    for name, c in zip(OUTCOMES, counts):
        battle[name] = {"count": int(c), "p": int(c) / battles, "ci95": list(stats.wilson_ci(int(c), battles)),
                        "exact": float(law[name]), "exact_fraction": str(law[name])}
    exact = siege_chain(warships, loss_model)
    cols = simulate_sieges(warships, sieges, seed, loss_model, threads=threads, **_part(scale, "sieges"))
    won = cols[kf.S_CONQUERED] == 1
    n_won = int(won.sum())
    positive = stats.NON_NEGATIVE
    simulated = {
        "p_conquer": {"count": n_won, "p": n_won / sieges, "ci95": list(stats.wilson_ci(n_won, sieges))},
        "battles": stats.mean_ci(cols[kf.S_BATTLES], support=stats.NON_NEGATIVE),
        "ships_lost": stats.mean_ci(cols[kf.S_SHIPS_LOST], support=stats.NON_NEGATIVE),
        "warships_lost": stats.mean_ci(cols[kf.S_WARSHIPS_LOST], support=stats.NON_NEGATIVE),
        "battles_if_conquered": stats.mean_ci(cols[kf.S_BATTLES][won], support=positive) if n_won else None,
        "ships_lost_if_conquered": stats.mean_ci(cols[kf.S_SHIPS_LOST][won], support=positive) if n_won else None,
    }
    return {"warships": warships, "battles": battles, "sieges": sieges, "seed": seed, "loss_model": loss_model,
            "chits": FORTRESS_CHITS, "battle": battle, "siege": {"exact": exact, "simulated": simulated},
            "battles_per_second": battles / wall if wall > 0 else None}


def _part(scale: dict, name: str) -> dict:
    """The runner options of one part of the experiment: a checkpoint keeps each part in a sub-folder."""
    if scale.get("checkpoint") is None:
        return scale
    return {**scale, "checkpoint": Path(scale["checkpoint"]) / name}
