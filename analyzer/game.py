"""The game protocol: what a game gives the toolkit, so that the CLI, the warm-up, `tabletop games` and
the conformance test (tests/test_conformance.py) take it up by registering it (analyzer/games.py).

A game is five places on one floor: kernels/<game>/ (numba kernels), analyzer/<game>/ (rules data,
arms, experiments, CLI, and `GAME`, this module's `Game`), reports/<game>/, tests/<game>/ and
docs/<game>/. Every part of a `Game` is a plain callable, a module-level function of the game's
game.py, so a reader (and a tool) follows each hop by name; `GAME` stays light to import (for
`tabletop --help` and `tabletop games`) because each heavy part imports what it returns inside, when
called: `cli()` returns the Typer app, an experiment's `example()` imports the experiment's module.

An experiment (a simulation command, `tabletop <game> <command>`) plays picklable runner Jobs
(analyzer.job.Job: `builder`, a module-level function that pickles by reference, turns the JSON-able
`spec` into play_range(start, out) once per job on whichever process plays), so threads, Dask,
checkpoints and --precision work for it and its results never depend on them. A result travels:
the game's CLI (`GAME.cli()`) -> its experiment's API -> a Job(builder, spec) ->
analyzer.runner.run_job (chunks over threads or Dask workers) -> analyzer.job.play_chunk ->
builder(spec) -> the game's kernels -> columns -> statistics -> reports.

Its `example` gives small jobs and a small command line that the conformance test runs: the same
columns for 1 and 2 threads, other chunk sizes and Dask; common random numbers across arms; the
result tables' columns and dtypes; the summary's provenance keys; the report; `--help`. The warm-up
compiles through the same example's jobs (a report's replays run the jobs' own kernels);
tests/test_warmup.py checks that no example command compiles anything after it. `trace(job, game)`
describes one game as JSON ({"luck": the random draws every arm of that game meets, "events": what
was played}); `golden()` gives the few games whose traces tests/<game>/golden_trace.json keeps
(scripts/golden_traces.py writes them), so a rule change shows in review; tests/test_callables.py
checks that no part is named by a string.

Games played move by move (the full Seafarers game, the river race, Cational Meographic) write their kernels to
one contract, after Pgx, and declare them in `step` (() -> analyzer.step_contract.StepGame: the six
kernels as the game loop calls them, whose seat moves, and a fixture building a small job's arrays with the game's
own set-up code):

    init(state, setup, seed, game)          game `game` of `seed` after set-up (its streams keyed by (seed, game,
                                            purpose), kernels/rng.py)
    legal(state, setup, actions) -> n       until terminal, the n >= 1 legal actions, distinct rows (kind, a, b, ...)
                                            written into actions[:n] in one documented canonical order
    step(state, setup, kind, a, b, ...)     carry out one legal action: one parameter per column of its row
    terminal(state, setup) -> bool          the game is over
    result(state, setup, out)               the game's result columns into out, as many as its jobs write (n_cols)
    decide(state, setup, actions, n, policy, params, rng, work) -> i
                                            the seat to move's choice, 0 <= i < n, leaving actions[:n] as they are

each a pure function over arrays the caller owns (`state` and `setup` named tuples of arrays, as
kernels/beacon/workspace.py), allocating nothing; a policy sees only what its seat sees (an oracle says so in its
name and every report). A game may put setup before state (the same in all six), name the parameters its own way,
keep the actions array in the state (then legal and decide take none), and leave out decide's policy, params and rng
where it declares where decide reads them; `work` (the bots' scratch) is optional. analyzer.step_contract.check reads
the kernels' signatures by these roles and `play` drives a game through them checking the rest;
tests/test_step_contract.py does both for every registered step game, and plays the same game as the command.
The game loop is init, then legal/decide/step until terminal, then result, game after game; the pure-Python
reference implements the same functions without numba, and a property test plays both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Example", "Experiment", "Game"]


@dataclass(frozen=True)
class Example:
    """A small run of an experiment, for the conformance test and the warm-up."""
    jobs: list  # [(label, analyzer.job.Job)]: the arms, as the command builds them, in order
    games: int  # how many games (boards, blocks of rolls) each job plays in the test
    argv: list[str]  # a small `tabletop` command line of the experiment, without --out
    tables: dict[str, dict[str, str]] = field(default_factory=dict)  # result file -> {column: polars dtype}
    shares_luck: bool = False  # the arms meet the same luck game by game (common random numbers)
    writes_results: bool = True  # argv writes a results folder (--out) with summary.json (else prints JSON)
    report: bool = True  # ... and report.md / report.html


@dataclass(frozen=True)
class Experiment:
    command: str  # `tabletop <game> <command>`
    about: str  # one line
    example: Callable[[], Example]  # () -> Example
    warm_group: str = ""  # experiments sharing kernels share a group: analyzer.warmup compiles each group apart
    warm_seconds: int = 0  # about how long its group compiles into an empty cache on 2 cores (what the warm-up and
    # a first command say to expect): the largest its experiments state, 60 s where none does


@dataclass(frozen=True)
class Game:
    id: str  # the registry key and the CLI name: `tabletop <id> ...`
    title: str
    version: str  # the game's engine version: raised whenever a result of a fixed seed changes
    about: str  # one line for `tabletop games`
    rulebooks: tuple[str, ...]  # the authority: files in docs/rulebooks/
    cli: Callable[[], object]  # () -> the game's typer.Typer app (imported when called)
    arms: Callable[[], dict]  # () -> {kind: analyzer.arms.Registry}, e.g. {"policy": POLICIES}
    experiments: tuple[Experiment, ...]
    trace: Callable[[object, int], dict]  # (job, game) -> {"luck": ..., "events": ...}, JSON-able
    golden: Callable[[], list]  # () -> [(name, job, game)]: the games of the golden trace file
    docs: str  # the game's documentation folder
    step: Callable[[], object] | None = None  # () -> analyzer.step_contract.StepGame: a game played move by move

    def registries(self) -> dict:
        """The game's named arms by kind ({"policy": Registry, ...})."""
        return self.arms()

    def step_game(self):
        """The game's step kernels, checked against the step contract (analyzer.step_contract.check); None if the
        game declares none."""
        from analyzer.step_contract import check

        return check(self.step()) if self.step else None

    def experiment(self, command: str) -> Experiment:
        return next(e for e in self.experiments if e.command == command)

    def golden_traces(self) -> dict:
        """{name: trace} of the game's golden games, as JSON reads them back (tuples become lists)."""
        import json

        return json.loads(json.dumps({name: self.trace(job, g) for name, job, g in self.golden()}))

    def warm_groups(self) -> list[str]:
        """The experiments' warm-up groups, in order."""
        return list(dict.fromkeys(e.warm_group for e in self.experiments))

    def warm_up(self, group: str | None = None) -> None:
        """Compile (or load from numba's cache) every kernel the experiments use (those of `group` if
        given), through the very jobs they build, so that the first command a user runs starts warm."""
        from analyzer.job import warm_up

        for experiment in self.experiments:
            if group is None or experiment.warm_group == group:
                example = experiment.example()
                for _label, job in example.jobs:
                    warm_up(job)
