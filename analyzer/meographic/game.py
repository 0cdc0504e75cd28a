"""Cational Meographic on the game protocol (analyzer/game.py): its registration, examples and traces."""

from __future__ import annotations

from analyzer.game import Example, Experiment, Game


def cli():
    """The game's Typer app (imported when the CLI is built, so that the registry stays light)."""
    from analyzer.meographic.cli import app

    return app


def arms() -> dict:
    from analyzer.meographic.bots import BOTS

    return {"bot": BOTS}


def _table(extra: dict | None = None, players: int = 2) -> dict[str, str]:
    from analyzer.meographic.rules import column_names, default_rules

    names = column_names(len(default_rules().missions), players)
    return {"game": "Int64"} | {name: "Int16" for name in names} | (extra or {})


def simulate_example() -> Example:
    from analyzer.meographic.simulation import meographic_job

    return Example(jobs=[("greedy", meographic_job(2, "greedy", 3))], games=6,
                   argv=["meographic", "simulate", "--players", "2", "--bots", "greedy,planner", "--games", "20",
                         "--seed", "3", "--no-progress"], tables={"games.parquet": _table()})


def compare_example() -> Example:
    from analyzer.meographic.simulation import meographic_job

    return Example(jobs=[(b, meographic_job(2, b, 3)) for b in ("random", "greedy", "planner", "rollout:k=1,width=1")],
                   games=6,
                   argv=["meographic", "compare", "--players", "2", "--bots", "planner,greedy", "--games", "20",
                         "--seed", "3", "--no-progress"],
                   tables={"games.parquet": _table({"seat_of_a": "Int64"})}, shares_luck=True)


def trace(job, game: int) -> dict:
    """luck: the mission cards' order and the bag's order (the same for every bot); events: every action as
    (seat, kind, a, b, c) and the final scores."""
    from analyzer.meographic.simulation import n_cols, replay, setup_of
    from kernels import meographic as km

    spec = job.spec
    rules, setup = setup_of(spec)
    state = km.new_state(rules.n_tiles, len(rules.missions), n_cols(rules))
    km.init(state, setup, spec["seed"], game)
    luck = {"missions": [int(m) for m in state.mcards], "bag": [int(t) for t in state.bag]}
    row, actions, _ = replay(spec, game)
    return {"luck": luck, "events": {"actions": actions.tolist(),
                                     "scores": [int(x) for x in row[:spec["players"]]]}}


def golden() -> list:
    from analyzer.meographic.simulation import meographic_job

    return [("greedy, solo", meographic_job(1, "greedy", 7), 0),
            ("planner against greedy, 2 players", meographic_job(2, "planner,greedy", 7), 1),
            ("random, 4 players", meographic_job(4, "random", 7), 2)]


def step_game():
    """The Meographic kernels on the step contract (analyzer/step_contract.py): decide reads the seat's bot and
    parameters from the setup and its stream from the state; its work is the rollout's second State."""
    from analyzer.step_contract import StepGame
    from kernels import meographic as km
    from kernels.meographic.engine import ST_SEAT

    return StepGame("meographic", km.init, km.legal, km.step, km.terminal, km.result, km.decide, action_width=4,
                    actor=lambda state: state.st[ST_SEAT], fixture=_step_fixture, names={"work": "sim"},
                    elsewhere={"policy": "setup.bots[seat]", "params": "setup.params[seat]", "rng": "state.rng"})


def _step_fixture(seed: int):
    from analyzer.meographic.simulation import meographic_job, n_cols, setup_of
    from analyzer.step_contract import Fixture
    from kernels import meographic as km

    job = meographic_job(2, "planner,rollout:k=1,width=2", seed)
    rules, setup = setup_of(job.spec)
    state, sim = (km.new_state(rules.n_tiles, len(rules.missions), n_cols(rules)) for _ in range(2))
    return Fixture(job, state, setup, state.actions, seat=lambda seat: {"work": sim})


GAME = Game(
    id="meographic",
    title="Cational Meographic: the landscape-photo game",
    version="2",  # 2: a card pays a seat once a game (card_scores_once); bag_out; revealed before the last photo
    about="21 rounds of landscape tiles and photo missions (the Cational Meographic rulebook): solo or 2-4 players, "
          "random/greedy/planner/rollout bots",
    rulebooks=("docs/rulebooks/004_4d0bc359b3cf64f1.txt",),
    cli=cli,
    arms=arms,
    experiments=(
        Experiment("simulate", "games of chosen bots: scores by seat, bot and source, missions, seat win rates",
                   simulate_example, warm_seconds=30),
        Experiment("compare", "one bot against another, seats rotated on the same games; or a rules variant",
                   compare_example),
    ),
    trace=trace,
    golden=golden,
    docs="docs/meographic/",
    step=step_game,
)
