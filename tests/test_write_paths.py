"""Every command's write path, for every command of every registered game that writes a results folder.

SIGTERM while a command writes its results stops the run (issue 33: during `seafarers boards`' parquet
write it was ignored and the run finished with new results): `error: interrupted`, exit 130, and nothing
in --out, for every command of every registered game, through the real console script (analyzer.entry).

The signal is sent from inside the write itself (the first parquet table encoded, or the first result
file written into the staging folder), so the test does not depend on timing.

A full disk while a parquet table is written is one line and exit 2 (issue 33: a polars traceback): tables
are encoded in memory (analyzer.io.atomic_write_parquet), never handed to polars as a path."""

import errno
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import analyzer.io
from analyzer.games import games
from tests.support import one_line_error, run_cli

ROOT = Path(__file__).resolve().parents[1]
WRITERS = [pytest.param(g, e, id=f"{g.id}-{e.command}") for g in games().values() for e in g.experiments
           if e.example().writes_results]

# the console script, with a SIGTERM sent to itself from within the first result write
DRIVER = """
import os, signal, sys
import polars as pl
import analyzer.io as aio

sent = []

def term():
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.SIGTERM)

real_parquet, real_write = pl.DataFrame.write_parquet, aio.atomic_write

def write_parquet(self, *args, **kwargs):
    term()
    return real_parquet(self, *args, **kwargs)

def atomic_write(path, writer):
    if ".staging-" not in str(path):
        return real_write(path, writer)
    return real_write(path, lambda fh: (term(), writer(fh)))

pl.DataFrame.write_parquet, aio.atomic_write = write_parquet, atomic_write
sys.argv = ["tabletop", *sys.argv[1:]]
from analyzer.entry import run
run()
"""


@pytest.mark.parametrize("game,experiment", WRITERS)
def test_sigterm_while_writing_results_stops_the_run(game, experiment, tmp_path):
    out = tmp_path / "out"
    argv = [*experiment.example().argv, "--out", str(out)]
    done = subprocess.run([sys.executable, "-c", DRIVER, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    assert (done.returncode, done.stderr) == (130, "error: interrupted\n"), (done.returncode, done.stderr[-2000:])
    left = [p.name for p in out.iterdir()] if out.exists() else []
    assert left == [], left  # no result file, no staging folder


@pytest.mark.parametrize("game,experiment", WRITERS)
def test_a_full_disk_under_a_parquet_table_is_one_line(game, experiment, tmp_path, capsys, monkeypatch):
    real_parquet, real_write = pl.DataFrame.write_parquet, analyzer.io.atomic_write

    def write_parquet(self, target, *args, **kwargs):  # polars on a full disk: its own ComputeError
        if isinstance(target, (str, Path)):
            raise pl.exceptions.ComputeError("No space left on device (os error 28)")
        return real_parquet(self, target, *args, **kwargs)

    def atomic_write(path, writer):
        if str(path).endswith(".parquet"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_write(path, writer)

    example = experiment.example()
    if not any(name.endswith(".parquet") for name in example.tables):
        pytest.skip(f"{game.id} {experiment.command} writes no parquet table")
    monkeypatch.setattr(pl.DataFrame, "write_parquet", write_parquet)
    monkeypatch.setattr(analyzer.io, "atomic_write", atomic_write)
    out = tmp_path / "out"
    code, _, err = run_cli([*example.argv, "--out", str(out)], capsys)
    assert one_line_error(code, err, "No space left on device"), err
    assert not out.exists()  # no result file, no staging folder, and the folder made for the run removed
