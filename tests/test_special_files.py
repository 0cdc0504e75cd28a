"""Atomic writes never rename over anything but a regular file or a missing path (analyzer/io.py), and every
write is checked: before, `beacon tiles --export /dev/full` printed "exported" and replaced the device with a
file. Devices are reached through symlinks in tmp_path, so a regression replaces a link, never a device."""

import os

import polars as pl
import pytest

from analyzer import io as aio
from tests.support import run_cli


def test_a_full_device_is_one_line_and_stays_a_device(tmp_path, capsys):
    full = tmp_path / "full"
    full.symlink_to("/dev/full")
    code, out, err = run_cli(["beacon", "tiles", "--export", str(full)], capsys)
    assert (code, err.count("\n")) == (2, 1) and "No space left on device" in err and "exported" not in out
    assert full.is_symlink() and full.is_char_device()


def test_dev_null_is_written_not_replaced(tmp_path, capsys):
    null = tmp_path / "null"
    null.symlink_to("/dev/null")
    code, _, err = run_cli(["beacon", "tiles", "--export", str(null)], capsys)
    assert code == 0, err
    assert null.is_symlink() and null.is_char_device()


def test_a_fifo_is_written_when_read_and_refused_when_not(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = run_cli(["beacon", "tiles", "--export", str(fifo)], capsys)
    assert (code, err.count("\n")) == (2, 1) and "a fifo that no process reads" in err
    reader = os.open(fifo, os.O_RDWR)  # (Linux: a reader at once; the export fits the pipe's buffer)
    try:
        code, _, err = run_cli(["beacon", "tiles", "--export", str(fifo)], capsys)
        got = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert code == 0, err
    assert got.startswith(b"#") and b"\nid," in got and fifo.is_fifo()


def test_a_symlink_to_a_file_writes_the_file(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    aio.atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_fifo_named_summary_json_in_out_is_refused_before_any_game(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    os.mkfifo(out / "summary.json")  # before: reading it to see whose results the folder holds hung
    code, _, err = run_cli(["beacon", "simulate", "--games", "5", "--out", str(out), "--no-progress"], capsys)
    assert (code, err.count("\n")) == (2, 1) and "summary.json is not a regular file" in err
    assert (out / "summary.json").is_fifo()


def test_a_full_disk_while_writing_parquet_is_an_oserror(tmp_path):
    """polars reports a failed write as its own ComputeError (a traceback in 6 commands before); the table is
    encoded in memory and the failed write to disk is an OSError, which every command words as one line."""
    full = tmp_path / "full"
    full.symlink_to("/dev/full")
    with pytest.raises(OSError, match="No space left"):
        aio.atomic_write_parquet(full, pl.DataFrame({"a": list(range(100_000))}))


def test_an_out_path_that_is_not_utf8_is_refused_before_any_game(tmp_path, capsys):
    out = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff")
    code, _, err = run_cli(["beacon", "simulate", "--games", "5", "--out", out, "--no-progress"], capsys)
    assert (code, err.count("\n")) == (2, 1) and "not valid UTF-8" in err
    assert not os.path.exists(out)


def test_a_missing_device_is_never_created(tmp_path):
    with pytest.raises(OSError, match="no such device"):
        aio.atomic_write_text("/dev/tabletop-no-such-device", "x")
    assert not os.path.exists("/dev/tabletop-no-such-device")
