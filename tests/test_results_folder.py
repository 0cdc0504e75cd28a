"""A results folder holds one run's complete results, never a mix (issue 52): a second run into the same --out
leaves none of the first run's files it does not write itself (a per-game table beside a streaming summary, an
earlier run's plots), a run started while another writes into the folder is refused in one line, and a run that
fails leaves the earlier results as they were."""

import os
import subprocess
import sys

import pytest

import analyzer.io
from analyzer import beacon
from analyzer.errors import UserError
from tests.support import one_line_error, run_cli

SIMULATE = ["beacon", "simulate", "--policy", "random", "--games", "40", "--no-progress"]


def _files(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_a_second_run_leaves_nothing_of_the_first_that_it_does_not_write(tmp_path):
    out = tmp_path / "out"
    (tmp_path / "out").mkdir()
    (out / "notes.txt").write_text("mine")  # no run wrote it: kept
    with analyzer.io.staged_results(out) as stage:
        for name in ("summary.json", "games.parquet", "old_plot.png"):
            (stage / name).write_text("run 1")
    with analyzer.io.staged_results(out) as stage:
        (stage / "summary.json").write_text("run 2")
        (stage / "new_plot.png").write_text("run 2")
    assert _files(out) == ["new_plot.png", "notes.txt", "summary.json"]
    assert (out / "summary.json").read_text() == "run 2"


def test_a_streaming_run_after_a_per_game_run_leaves_no_games_table(tmp_path):
    beacon.simulate(policy="random", games=40, out=tmp_path / "o")
    assert "games.parquet" in _files(tmp_path / "o")
    beacon.simulate(policy="random", games=40, per_game=False, out=tmp_path / "o")
    assert "games.parquet" not in _files(tmp_path / "o") and "summary.json" in _files(tmp_path / "o")


def test_a_failed_run_leaves_the_earlier_results_as_they_were(tmp_path, monkeypatch):
    out = tmp_path / "o"
    beacon.simulate(policy="random", games=40, out=out)
    before = {name: (out / name).read_bytes() for name in _files(out)}

    def full(*_args, **_kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(analyzer.io, "atomic_write_parquet", full)
    with pytest.raises(UserError, match="the files there before are unchanged"):
        beacon.simulate(policy="random", games=30, seed=5, out=out)
    assert {name: (out / name).read_bytes() for name in _files(out)} == before


def test_a_run_into_a_folder_another_run_is_writing_is_refused(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
                               "from analyzer.io import lock_results_folder\n"
                               f"lock_results_folder(Path({str(out)!r}))\nprint('locked', flush=True)\n"
                               "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        code, _, err = run_cli(SIMULATE + ["--out", str(out)], capsys)
        assert one_line_error(code, err, f"--out {out} is being written by another run (process {holder.pid}"), err
        with pytest.raises(UserError, match="being written by another run"):
            beacon.simulate(policy="random", games=10, out=out)
    finally:
        holder.kill()
        holder.wait()
    assert _files(out) == []
    code, _, err = run_cli(SIMULATE + ["--out", str(out)], capsys)  # the holder gone, the folder is free
    assert code == 0, err
    assert "summary.json" in _files(out)


def test_two_runs_started_at_once_leave_one_runs_results(tmp_path):
    """Both console scripts start together into one folder: one writes, the other is refused in one line (or,
    if the first is done before the second starts, replaces the whole set); never files of both."""
    out = tmp_path / "o"
    runs = [subprocess.Popen([sys.executable, "-c", "from analyzer.cli import run; run()", *SIMULATE, "--seed",
                              str(seed), "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for seed in (1, 2)]
    done = [(proc.wait(timeout=120), proc.stderr.read()) for proc in runs]
    assert any(code == 0 for code, _ in done), done
    for code, err in done:
        assert code == 0 or (code == 2 and err.count("\n") == 1 and "being written by another run" in err), err
    summary = (out / "summary.json").read_text()
    seed = 1 if '"seed": 1,' in summary else 2
    assert f'"seed": {seed},' in summary


def test_a_refused_run_leaves_no_folder_and_no_lock(tmp_path, capsys):
    code, _, err = run_cli(SIMULATE[:-1] + ["--games", "0", "--out", str(tmp_path / "new" / "o")], capsys)
    assert code == 2, err
    assert not (tmp_path / "new").exists()
    assert os.listdir(tmp_path) == []
