"""Regatta on the game protocol (analyzer/game.py): its registration, examples and traces."""

from __future__ import annotations

from analyzer.game import Example, Experiment, Game


def cli():
    """The game's Typer app (imported when the CLI is built, so that the registry stays light)."""
    from analyzer.regatta.cli import app

    return app


def arms() -> dict:
    from analyzer.regatta.arms import BOTS

    return {"bot": BOTS}


def _table(extra: dict | None = None) -> dict[str, str]:
    from analyzer.regatta.simulation import TABLE_NAMES

    return {"game": "Int64"} | {name: "Int32" for name in TABLE_NAMES} | (extra or {})


def simulate_example() -> Example:
    from analyzer.regatta.simulation import regatta_job

    return Example(jobs=[("greedy", regatta_job(2, ["greedy"], 3))], games=6,
                   argv=["regatta", "simulate", "--players", "2", "--bots", "greedy", "--games", "20", "--seed", "3",
                         "--no-progress"], tables={"games.parquet": _table()})


def compare_example() -> Example:
    from analyzer.regatta.simulation import regatta_job

    return Example(jobs=[(b, regatta_job(2, [b], 3)) for b in ("random", "greedy", "blocker")], games=6,
                   argv=["regatta", "compare", "--players", "2", "--bots", "blocker,greedy", "--games", "20",
                         "--seed", "3", "--no-progress"],
                   tables={"games.parquet": _table({"seat_of_a": "Int64"})}, shares_luck=True)


def trace(job, game: int) -> dict:
    """luck: the laid tiles and the first action-deck order (the same for every bot); events: every action."""
    from analyzer.regatta.simulation import kernel_args, trace_game
    from kernels.regatta import engine as ke

    spec = job.spec
    setup, codes, params = kernel_args(spec)
    st = ke.make_state(setup)
    ke.init(st, setup, spec["seed"], game)
    luck = {"tiles": [int(t) for t in st.cell_tile], "deck": [int(k) for k in st.deck[:st.sc[ke.S_DECK_N]]]}
    rows, st = trace_game(setup, codes, params, spec["seed"], game)
    return {"luck": luck, "events": {"actions": rows.tolist(), "winner": int(st.sc[ke.S_WINNER]),
                                     "turns": int(st.sc[ke.S_TURN])}}


def golden() -> list:
    from analyzer.regatta.simulation import regatta_job

    return [("greedy, 2 players", regatta_job(2, ["greedy"], 7), 0),
            ("blocker against greedy, 3 players", regatta_job(3, ["blocker", "greedy", "greedy"], 7), 1),
            ("team variant, greedy", regatta_job(4, ["greedy"], 7, team=True), 2)]


def step_game():
    """The river race's kernels on the step contract (analyzer/step_contract.py): the state is `st`; decide takes the
    seat's bot code, parameters and the policy stream (one for all seats), and the bots' scratch (workspace.Work)."""
    from analyzer.step_contract import StepGame
    from kernels.regatta import bots as kb
    from kernels.regatta import engine as ke

    return StepGame("regatta", ke.init, ke.legal, ke.step, ke.terminal, kb.result, kb.decide, action_width=4,
                    actor=lambda st: st.sc[ke.S_TO_MOVE], fixture=_step_fixture,
                    names={"state": "st", "policy": "bot", "work": "wk"}, twins={"decide": kb.choose})


def _step_fixture(seed: int):
    import numpy as np

    from analyzer.regatta.simulation import kernel_args, regatta_job
    from analyzer.step_contract import Fixture
    from kernels.regatta import bots as kb
    from kernels.regatta import engine as ke
    from kernels.rng import stream_init

    job = regatta_job(2, ["blocker", "greedy"], seed)
    setup, codes, params = kernel_args(job.spec)
    actions, rng, work = np.zeros((ke.MAX_ACTIONS, 4), np.int64), np.zeros(2, np.uint64), kb.make_work(setup)
    return Fixture(job, ke.make_state(setup), setup, actions,
                   seat=lambda seat: {"policy": codes[seat], "params": params[seat], "rng": rng, "work": work},
                   begin=lambda seed, game: stream_init(rng, seed, game, np.int64(ke.PURPOSE_POLICY)))


GAME = Game(
    id="regatta",
    title="Regatta: the paper-boat river race",
    version="2",
    about="a race over a face-down river of tiles (the paper-boat regatta rulebook): 2-4 players or teams, "
          "random/greedy/blocker/planner/rollout bots",
    rulebooks=("docs/rulebooks/003_40209e21ed3811ee.txt",),
    cli=cli,
    arms=arms,
    experiments=(
        Experiment("simulate", "races of chosen bots: length, seat win rates",
                   simulate_example, warm_seconds=60),
        Experiment("compare", "one bot against another, seats rotated on the same races",
                   compare_example),
    ),
    trace=trace,
    golden=golden,
    docs="docs/regatta/",
    step=step_game,
)
