"""The conformance test every registered game passes (analyzer/games.py, analyzer/game.py): a new game
gets it by registering.

For each experiment (simulation command) of each game, through its small Example: the same columns
for 1 and 2 threads, other chunk sizes, a Dask cluster and a checkpoint resumed; jobs that pickle and
rebuild; arms that
meet the same luck game by game (common random numbers); the command's result tables with the
declared columns and dtypes, a summary.json with the provenance block (and any rules file named as rules_data), a
report; `--help`. For each
game: its golden trace (tests/<game>/golden_trace.json, written by scripts/golden_traces.py) unchanged.
"""

from __future__ import annotations

import json
import pickle
import shlex
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analyzer.games import GAME_MODULES, games
from analyzer.provenance import PROVENANCE_KEYS
from analyzer.runner import RunOptions, run_job
from tests.support import run_cli

ROOT = Path(__file__).resolve().parents[1]
GAMES = list(games().values())
EXPERIMENTS = [pytest.param(g, e, id=f"{g.id}-{e.command}") for g in GAMES for e in g.experiments]


def _example(experiment):
    return experiment.example()


def _columns(job, games: int, **backend) -> np.ndarray:
    return run_job(job, RunOptions(games=games, **backend)).columns


def test_every_game_folder_is_registered():
    """A game's analyzer/<game>/game.py defines its GAME; the registry names every one of them."""
    found = {f"analyzer.{p.parent.name}.game" for p in (ROOT / "analyzer").glob("*/game.py")}
    assert found == set(GAME_MODULES)
    assert len({g.id for g in GAMES}) == len(GAMES)
    for g in GAMES:
        assert g.version and g.title and g.about and g.experiments
        assert all((ROOT / r).is_file() for r in g.rulebooks), g.rulebooks
        assert (ROOT / g.docs).is_dir(), g.docs
        assert all(len(list(r)) > 0 for r in g.registries().values())


@pytest.mark.parametrize("game,experiment", EXPERIMENTS)
def test_results_never_depend_on_threads_chunks_dask_or_a_resume(game, experiment, dask_cluster, tmp_path):
    example = _example(experiment)
    n = example.games
    for k, (label, job) in enumerate(example.jobs):
        again = pickle.loads(pickle.dumps(job))  # what a Dask worker receives, and a checkpoint identity
        assert again.identity() == job.identity() == json.loads(json.dumps(job.identity()))
        base = _columns(job, n, threads=1, chunk_size=n)
        assert base.shape == (job.n_cols, n) and base.dtype == np.dtype(job.dtype), label
        for backend in (dict(threads=2, chunk_size=1), dict(threads=2, chunk_size=3),
                        dict(scheduler=dask_cluster, chunk_size=2)):
            np.testing.assert_array_equal(_columns(again, n, **backend), base, err_msg=f"{label} {backend}")
        part = _columns(job, 2, threads=1)  # game i is game i, alone or inside a longer run
        np.testing.assert_array_equal(part, base[:, :2])
        checkpoint = tmp_path / str(k)  # a run that lost every other chunk resumes to the same games
        _columns(job, n, threads=1, chunk_size=1, checkpoint=checkpoint)
        lost = sorted((checkpoint / "chunks").glob("*.npy"))[::2]
        for path in lost:
            path.unlink()
        resumed = run_job(job, RunOptions(games=n, threads=2, chunk_size=1, checkpoint=checkpoint))
        assert resumed.info["checkpoint"]["resumed_games"] == n - len(lost)
        np.testing.assert_array_equal(resumed.columns, base, err_msg=f"{label} resumed")


@pytest.mark.parametrize("game,experiment", [p for p in EXPERIMENTS if _example(p.values[1]).shares_luck])
def test_arms_meet_the_same_luck(game, experiment):
    """Common random numbers: in game g every arm is dealt the same luck (deck, dice), which differs from
    one game to the next."""
    trace = game.trace
    jobs = [job for _, job in _example(experiment).jobs]
    assert len(jobs) >= 2
    lucks = [[trace(job, g)["luck"] for g in range(3)] for job in jobs]
    assert all(luck == lucks[0] for luck in lucks[1:])
    assert lucks[0][0] != lucks[0][1] != lucks[0][2]
    assert trace(jobs[0], 0)["events"] != trace(jobs[-1], 0)["events"]  # the arms do play differently


def _seed(argv: list[str]) -> int:
    return int(argv[argv.index("--seed") + 1])


RULES_DATA_KEYS = ("rules_data", "variant_rules_data")  # where a summary names its rules files, in every game


def _files_named_elsewhere_than_rules_data(summary, where: str = "") -> list[str]:
    """Where a summary names a data file other than as rules_data (or a variant's variant_rules_data) holding exactly
    {"file", "sha256"} (analyzer.provenance.data_file): a record with a "file" key under another key, a key named
    like a file (`rules_file`), or a rules_data of another shape."""
    wrong = []
    for key, value in summary.items():
        path = f"{where}{key}"
        if key in RULES_DATA_KEYS:
            if not (isinstance(value, dict) and set(value) == {"file", "sha256"} and isinstance(value["file"], str)
                    and len(value["sha256"]) == 64 and set(value["sha256"]) <= set("0123456789abcdef")):
                wrong.append(f"{path} = {value!r}")
        elif key.endswith("_file") or isinstance(value, dict) and "file" in value:
            wrong.append(path)
        elif isinstance(value, dict):
            wrong += _files_named_elsewhere_than_rules_data(value, f"{path}.")
    return wrong


@pytest.mark.parametrize("game,experiment", EXPERIMENTS)
def test_the_command_writes_what_it_promises(game, experiment, tmp_path, capsys, monkeypatch):
    example = _example(experiment)
    argv = list(example.argv)
    assert argv[:2] == [game.id, experiment.command]
    out = tmp_path / "out"
    if example.writes_results:
        argv += ["--out", str(out)]
    monkeypatch.setattr(sys, "argv", ["tabletop", *argv])  # the command line the summary records
    code, stdout, err = run_cli(argv, capsys)
    assert code == 0, err
    if not example.writes_results:
        printed = json.loads(stdout)
        assert printed["seed"] == _seed(argv)
        return
    summary = json.loads((out / "summary.json").read_text())
    assert set(PROVENANCE_KEYS) <= set(summary)
    assert summary["game"] == {"id": game.id, "title": game.title, "version": game.version}
    assert summary["seed"] == _seed(argv)
    assert summary["command"] == "tabletop " + " ".join(shlex.quote(a) for a in argv)
    assert {"tabletop_analyzer", "numba", "numpy", "python"} <= set(summary["versions"])
    assert summary["assumptions"] and all(isinstance(a, str) and a for a in summary["assumptions"])
    assert _files_named_elsewhere_than_rules_data(summary) == []
    for name, columns in example.tables.items():
        schema = {k: str(v) for k, v in pl.read_parquet(out / name).schema.items()}
        assert list(schema) == list(columns), name
        wrong = {k: (schema[k], want) for k, want in columns.items() if not schema[k].startswith(want)}
        assert not wrong, (name, wrong)
    if example.report:
        html = (out / "report.html").read_text("utf-8")
        assert html.startswith("<!DOCTYPE html>") and "<img" in html and "src=\"data:image/png;base64," in html
        assert (out / "report.md").read_text("utf-8").startswith("# ")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_help_lists_every_command(game, capsys):
    code, out, _ = run_cli([game.id, "--help"], capsys)
    assert code == 0
    for experiment in game.experiments:
        assert experiment.command in out
        code, out_one, _ = run_cli([game.id, experiment.command, "--help"], capsys)
        assert code == 0 and "Usage" in out_one
    code, out, _ = run_cli(["games", "--json"], capsys)
    listed = {g["id"]: g for g in json.loads(out)}
    assert listed[game.id]["commands"] == [e.command for e in game.experiments]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_golden_trace_is_unchanged(game):
    """A rule change shows here and in review: regenerate with `.venv/bin/python scripts/golden_traces.py`
    and read the diff of tests/<game>/golden_trace.json."""
    stored = json.loads((ROOT / "tests" / game.id / "golden_trace.json").read_text("utf-8"))
    current = game.golden_traces()
    assert list(current) == list(stored["games"])
    assert stored["game"] == {"id": game.id, "version": game.version}
    for name in current:
        assert current[name] == stored["games"][name], f"{game.id} golden trace {name!r} changed"
