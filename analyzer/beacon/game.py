"""Beacon Patrol on the game protocol (analyzer/game.py): its registration, examples and traces."""

from __future__ import annotations

from analyzer.game import Example, Experiment, Game


def cli():
    """The game's Typer app (imported when the CLI is built, so that the registry stays light)."""
    from analyzer.beacon.cli import app

    return app


def arms() -> dict:
    from analyzer.beacon.policies import POLICIES

    return {"policy": POLICIES}


def _games_table(arm_columns: bool = False) -> dict[str, str]:
    from kernels import beacon as kb

    columns = {"game": "Int64"} | ({"arm": "Enum", "policy": "String"} if arm_columns else {})
    return columns | {name: "Int16" for name in kb.COLUMN_NAMES if name != "rank"} | {"rank": "Enum"}


def _job(players: int, policy: str, expansions: str = "", seed: int = 3):
    from analyzer.beacon.simulation import beacon_job, make_setup

    return beacon_job(make_setup(players, policy, expansions, None), policy, seed)


def simulate_example() -> Example:
    return Example(jobs=[("greedy", _job(2, "greedy", "windmills"))], games=60,
                   argv=["beacon", "simulate", "--players", "2", "--games", "40", "--seed", "3", "--expansions",
                         "windmills", "--no-progress"],
                   tables={"games.parquet": _games_table()})


def compare_example() -> Example:
    """Every policy tier (greedy, lookahead, rollout, oracle), so the warm-up compiles them all."""
    policies = ("random", "greedy", "lookahead", "rollout:samples=1,horizon=1", "oracle:options=2")
    return Example(jobs=[(p, _job(1, p)) for p in policies], games=6,
                   argv=["beacon", "compare", "--policies", "random,greedy", "--games", "30", "--seed", "3",
                         "--no-progress"],
                   tables={"games.parquet": _games_table(arm_columns=True)}, shares_luck=True)


def trace(job, game: int) -> dict:
    """Game `game` of a beacon job: luck = the tiles in draw order (the same for every policy on one
    tile set); events = every action (player, kind, a, b, c) and the result columns."""
    import numpy as np

    from analyzer.beacon import reference as ref
    from analyzer.beacon.simulation import replay, setup_for_spec
    from kernels import beacon as kb

    setup = setup_for_spec(job.spec)
    seed = job.spec["seed"]
    dealt = ref.setup(setup.tiles, setup.players, frozenset(setup.expansions), seed, game, job.spec.get("rules"))
    order = [t for hand in dealt.hands for t in hand if t is not None] + dealt.deck[::-1]
    out = np.zeros((kb.N_COLS, 1), np.int16)
    board, actions = replay(setup, seed, game, trace_len=20_000, out=out)
    result = {name: int(out[k, 0]) for k, name in enumerate(kb.COLUMN_NAMES)}
    return {"luck": {"draw_order": [setup.tiles.ids[t] for t in order]},
            "events": {"actions": [[int(p), kb.ACTION_NAMES[k], int(a), int(b), int(c)] for p, k, a, b, c in actions],
                       "board": [[int(r), int(c), setup.tiles.ids[int(t)]]
                                 for r, c, t in zip(board["row"], board["col"], board["tile"])],
                       "result": result}}


def golden() -> list:
    return [("greedy solo", _job(1, "greedy", seed=7), 0),
            ("lookahead, 3 players, both expansions", _job(3, "lookahead", "windmills,piers", seed=7), 1),
            ("rollout solo", _job(1, "rollout:samples=2", seed=7), 2),
            ("oracle, 2 players, piers", _job(2, "oracle:options=2", "piers", seed=7), 3)]


GAME = Game(
    id="beacon",
    title="Beacon Patrol",
    version="1",
    about="cooperative tile laying: solo and 2-4 players, both mini expansions, fair policies and an oracle bound",
    rulebooks=("docs/rulebooks/000_e413b7b5f07f4277.txt", "docs/rulebooks/001_9915cdb250db6f0a.txt"),
    cli=cli,
    arms=arms,
    experiments=(
        Experiment("simulate", "games of one policy: score distribution, rank bands, the best board",
                   simulate_example, warm_seconds=30),
        Experiment("compare", "several policies or tile sets on the same games: paired differences",
                   compare_example),
    ),
    trace=trace,
    golden=golden,
    docs="docs/beacon/",
)
