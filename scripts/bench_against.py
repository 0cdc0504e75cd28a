"""Every kernel of this checkout side by side with another checkout's (`scripts/bench.py --against DIR`).

    git worktree add ../before <commit>
    .venv/bin/python scripts/bench.py --against ../before [--rounds 6]

Each case runs in a fresh process per checkout (PYTHONPATH=<checkout>, the same virtual environment),
the two checkouts alternating, `--rounds` times each; a case's figure is the best of its runs (items
per second of the process's CPU time with one worker thread, after compilation). Both checkouts play the same games, so
the ratio is the speed change. The cases call APIs both sides have (module names that moved are
looked up under either name).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> (items per run, what an item is)
CASES = {
    "beacon greedy solo": (20_000, "games"),
    "beacon greedy 3p both expansions": (10_000, "games"),
    "beacon lookahead solo": (1_500, "games"),
    "beacon lookahead 3p both expansions": (150, "games"),
    "beacon rollout solo (samples 2)": (4, "games"),
    "seafarers boards (new-world, 4p)": (20_000, "boards"),
    "seafarers balance (new-shores, 4p, 100 x 60 rolls)": (40, "boards"),
    "seafarers production (base board, 60 rolls)": (20_000, "sequences"),
    "seafarers dice": (20_000_000, "rolls"),
    "seafarers fortress battles": (40_000_000, "battles"),
    "seafarers fortress sieges": (1_000_000, "sieges"),
    "seafarers pirates race (4p, attack-at:4)": (3_000, "games"),
    "seafarers play (base, 4p random bots, random boards)": (3_000, "games"),
    "seafarers play (new-shores, 4p value bots, random boards)": (300, "games"),
    "meographic random solo": (20_000, "games"),
    "meographic greedy solo": (20_000, "games"),
    "meographic greedy 4p": (5_000, "games"),
    "meographic planner solo": (2_000, "games"),
    "regatta random 2p": (1_000, "races"),
    "regatta greedy 2p": (4_000, "races"),
    "regatta greedy 3p": (4_000, "races"),
    "regatta greedy 4p": (4_000, "races"),
    "regatta blocker 2p": (1_000, "races"),
    "regatta planner 2p": (200, "races"),
}


def _beacon(players: int, policy: str, expansions: str, games: int):
    import numpy as np

    try:
        from analyzer.beacon.simulation import make_setup, play_range_fn
    except ImportError:  # before the module was renamed
        from analyzer.beacon.simulate import make_setup, play_range_fn
    from kernels import beacon as kb

    play = play_range_fn(make_setup(players, policy, expansions, None), seed=1)
    out = np.zeros((kb.N_COLS, games), np.int16)
    play(0, out[:, :1])
    return lambda: play(0, out)


def _case(name: str, n: int):
    """A function playing the case's n items (compiled and set up before it is returned)."""
    import numpy as np

    if name.startswith("beacon"):
        players = 3 if "3p" in name else 1
        exp = "windmills,piers" if "both" in name else ""
        policy = name.split()[1] + (":samples=2" if "rollout" in name else "")
        return _beacon(players, policy, exp, n)
    if name.startswith("meographic"):
        return _meographic(name.split()[1], 4 if "4p" in name else 1, n)
    if name.startswith("regatta"):
        return _regatta(name.split()[1], int(name.split()[2][0]), n)
    from analyzer.seafarers.scenarios import load_scenario
    if "play" in name:  # tabletop seafarers play's job: full games, each on its own random board
        return _play(name.split("(")[1].split(",")[0], name.split()[4], n)
    if "boards" in name:
        from analyzer.seafarers.boards import deal_plan, generate_boards
        plan = deal_plan(load_scenario("new-world", 4))
        generate_boards(plan, 1, 1)
        return lambda: generate_boards(plan, n, 1)
    if "balance" in name:
        from analyzer.seafarers.balance import make_balance
        exp = make_balance("new-shores", 4, 60, "diverse", 1, sequences=100)
        out = np.zeros((exp.n_cols, n))
        exp.play_range(0, out[:, :1])
        return lambda: exp.play_range(0, out)
    if "production" in name:
        from analyzer.seafarers import reference
        from analyzer.seafarers.production import simulate_rolls
        b = reference.base_board()
        args = [b[k] for k in ("hex_terrain", "hex_number", "corner_hexes", "corner_building", "corner_owner",
                               "robber")]
        simulate_rolls(*args, n_players=4, n_rolls=60, sequences=10, seed=1, threads=1)
        return lambda: simulate_rolls(*args, n_players=4, n_rolls=60, sequences=n, seed=1, threads=1)
    if "dice" in name:
        from analyzer.seafarers.dice import roll_stats
        roll_stats(1000, 1, threads=1)
        return lambda: roll_stats(n, 1, threads=1)
    if "battles" in name:
        from analyzer.seafarers.fortress import simulate_battles
        simulate_battles(4, 1000, 1, threads=1)
        return lambda: simulate_battles(4, n, 1, threads=1)
    if "sieges" in name:
        from analyzer.seafarers.fortress import simulate_sieges
        simulate_sieges(4, 1000, 1, threads=1)
        return lambda: simulate_sieges(4, n, 1, threads=1)
    if "pirates" in name:
        from analyzer.seafarers.pirates import parse_plan, play_plan, race_setup
        setup = race_setup(4)
        plan = parse_plan("attack-at:4")
        n_out = _pirates_n_out(setup)
        out = np.zeros((n_out, n), np.int32)
        play_plan(setup, plan, 1, 0, 200, False, 0, out[:, :1])
        return lambda: play_plan(setup, plan, 1, 0, 200, False, 0, out)
    raise KeyError(name)


def _play(scenario: str, bot: str, games: int):
    import numpy as np

    try:
        from analyzer.seafarers.bots import parse_bot
    except ImportError:  # before the bot registry moved out of full_game
        from analyzer.seafarers.full_game import parse_bot
    from analyzer.seafarers.full_game import play_job, play_range
    from analyzer.seafarers.full_rules import rules_text
    from kernels.catan import game as kg

    job = play_job(scenario, 4, [parse_bot(bot)] * 4, 1, "random", rules_text(None)[0])
    play = play_range(job.spec)
    out = np.zeros((kg.N_RESULT_COLS, games), np.int32)
    play(0, out[:, :1])
    return lambda: play(0, out)


def _meographic(bot: str, players: int, games: int):
    import numpy as np

    from analyzer.meographic.rules import default_rules
    from analyzer.meographic.simulation import game_spec, job_of, play_range_for_spec

    spec = game_spec(default_rules(), players, bot, seed=1)
    play = play_range_for_spec(spec)
    out = np.zeros((job_of(spec).n_cols, games), np.int16)
    play(0, out[:, :1])
    return lambda: play(0, out)


def _regatta(bot: str, players: int, races: int):
    import numpy as np

    from analyzer.regatta.simulation import build_play_range, regatta_job
    from kernels.regatta import engine as ke

    play = build_play_range(regatta_job(players, [bot], seed=1).spec)
    play(0, np.zeros((ke.N_COLS, 1), np.int32))
    out = np.zeros((ke.N_COLS, races), np.int32)
    return lambda: play(0, out)


def _pirates_n_out(setup) -> int:
    try:
        from kernels.catan import pirates as kpi
    except ImportError:  # before kernels/catan/
        from kernels import pirates as kpi
    return kpi.n_out(setup.path_len)


def child(name: str, rounds: int) -> None:
    """In the measuring process: the best rate of `rounds` runs of the case, as JSON on stdout."""
    n, _unit = CASES[name]
    run = _case(name, n)
    best = 0.0
    for _ in range(rounds):
        t0 = time.process_time()
        run()
        best = max(best, n / (time.process_time() - t0))
    print(json.dumps(best))


def measure(tree: Path, name: str, inner: int) -> float:
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'scripts')!r}); import bench_against; "
            f"bench_against.child({name!r}, {inner})")
    env = dict(os.environ, PYTHONPATH=str(tree))
    run = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True,
                         timeout=1800)
    if run.returncode != 0:
        raise RuntimeError(f"{name} in {tree}: {run.stderr.strip().splitlines()[-1]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def main(against: Path, rounds: int = 4, inner: int = 3, only: str = "") -> None:
    trees = {"this": ROOT, "against": Path(against).resolve()}
    print(f"Side by side: this checkout ({ROOT}) against {trees['against']}; best of {rounds} alternating "
          f"processes x {inner} runs, items per second of the process's CPU time (threads=1)")
    print(f"  {'case':52s} {'against':>14s} {'this':>14s} {'this/against':>13s}")
    for name, (_n, unit) in CASES.items():
        if only and only not in name:
            continue
        best = {k: 0.0 for k in trees}
        for _ in range(rounds):
            for key, tree in trees.items():
                best[key] = max(best[key], measure(tree, name, inner))
        print(f"  {name:52s} {best['against']:14,.0f} {best['this']:14,.0f} {best['this'] / best['against']:12.3f}x"
              f"  {unit}/s")
