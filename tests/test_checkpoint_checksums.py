"""Damaged checkpoint chunks (issue 33): every chunk is named with the SHA-256 of its bytes; one that no
longer matches (a zero-byte file, one value altered) is named in one line, deleted and played again, and
the resumed result equals an uninterrupted run's. Before: a zero-byte chunk was `error: interrupted`
(exit 130) on every resume, and an altered value was read back and silently changed the result."""

import hashlib
import io
import re

import numpy as np
import polars as pl

from analyzer.beacon.simulation import simulate
from analyzer.checkpoint import Checkpoint
from tests.support import run_cli

KW = dict(players=2, policy="random", games=1200, seed=9, chunk_size=300, threads=1)
ARGS = ["beacon", "simulate", "--players", "2", "--policy", "random", "--games", "1200", "--seed", "9",
        "--chunk-size", "300", "--threads", "1", "--no-progress"]


def chunk_files(ck):
    return sorted((ck / "chunks").glob("*.npy"))


def test_every_chunk_is_named_with_the_sha256_of_its_bytes(tmp_path):
    simulate(**KW, checkpoint=tmp_path)
    files = chunk_files(tmp_path)
    assert len(files) == 4
    for path in files:
        digest = re.fullmatch(r"\d{12}-\d{12}\.([0-9a-f]{64})\.npy", path.name).group(1)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_zero_byte_chunk_is_named_dropped_and_replayed(tmp_path, capsys):
    reference = simulate(**KW)
    ck = tmp_path / "ck"
    simulate(**KW, checkpoint=ck)
    emptied = chunk_files(ck)[1]
    emptied.write_bytes(b"")
    code, out, err = run_cli(ARGS + ["--checkpoint", str(ck), "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err
    warnings = [line for line in err.splitlines() if line]
    assert len(warnings) == 1 and emptied.name in warnings[0] and "games 300-599 are played again" in warnings[0]
    assert "resumed 900 games" in out
    assert pl.read_parquet(tmp_path / "o" / "games.parquet").equals(reference.games)
    assert emptied.stat().st_size > 0 and len(chunk_files(ck)) == 4  # the same games: the same bytes and name
    code, _, err = run_cli(ARGS + ["--checkpoint", str(ck), "--out", str(tmp_path / "o2")], capsys)
    assert code == 0 and err == ""  # the replayed chunk was saved whole: the next resume has nothing to say


def test_a_chunk_with_one_value_altered_is_not_believed(tmp_path, capsys):
    reference = simulate(**KW)
    ck = tmp_path / "ck"
    simulate(**KW, checkpoint=ck)
    altered = chunk_files(ck)[2]
    block = np.load(altered)
    block[0, 7] += 1  # a well-formed chunk of the right shape, one score changed
    buffer = io.BytesIO()
    np.save(buffer, block)
    altered.write_bytes(buffer.getvalue())
    resumed = simulate(**KW, checkpoint=ck)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and altered.name in err and "do not match its SHA-256" in err, err
    assert resumed.summary["run"]["checkpoint"]["resumed_games"] == 900
    assert resumed.games.equals(reference.games)


def test_chunks_without_a_checksum_or_of_another_shape_are_dropped(tmp_path, capsys):
    """A chunk named the old way (no checksum) and one whose checksum matches but whose shape is not
    this run's (a file put there by hand) are both named and played again."""
    ck = tmp_path / "ck"
    with Checkpoint(ck, {"job": 1}, 2, "int16") as ckpt:
        ckpt.save(0, np.arange(20, dtype=np.int16).reshape(2, 10))
    good = chunk_files(ck)[0]
    np.save(ck / "chunks" / "000000000010-000000000020.npy", np.zeros((2, 10), np.int16))
    buffer = io.BytesIO()
    np.save(buffer, np.zeros((3, 10), np.int16))
    data = buffer.getvalue()
    (ck / "chunks" / f"000000000020-000000000030.{hashlib.sha256(data).hexdigest()}.npy").write_bytes(data)
    with Checkpoint(ck, {"job": 1}, 2, "int16") as ckpt:
        assert ckpt.stored == {0: 10}
        assert ckpt.load(0).tolist() == np.arange(20).reshape(2, 10).tolist()
        assert len(ckpt.dropped) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert any("000000000010-000000000020.npy has no checksum" in line for line in lines)
    assert any("holds int16[3, 10], not this run's int16[2, 10]" in line for line in lines)
    assert chunk_files(ck) == [good]
