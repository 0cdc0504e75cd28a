"""Inputs a fuzz run of the CLI found mishandled: each is one line and exit code 2, and a run that
fails while writing leaves the previous run's results exactly as they were."""

import errno
from pathlib import Path

import numpy as np
import pytest

import analyzer.checkpoint
import analyzer.runner
import reports.beacon
import reports.io
from analyzer.beacon.compare import arm_folders, plan_arms, split_policies
from analyzer.checkpoint import Checkpoint
from analyzer.cli import main
from analyzer.errors import UserError
from analyzer.params import parse_named
from analyzer.beacon.policies import POLICIES

SIMULATE = ["beacon", "simulate", "--games", "40", "--no-progress"]


def run_cli(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err, fragment=""):
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err


def snapshot(folder):
    """Every entry of folder: a file's bytes, a folder's snapshot."""
    return {p.name: snapshot(p) if p.is_dir() else p.read_bytes() for p in folder.iterdir()}


@pytest.fixture
def earlier_run(tmp_path, capsys):
    out = tmp_path / "run"
    assert run_cli(SIMULATE + ["--seed", "1", "--out", str(out)], capsys)[0] == 0
    return out, snapshot(out)


def test_a_disk_full_while_writing_keeps_every_earlier_file(earlier_run, capsys, monkeypatch):
    out, before = earlier_run
    real = reports.io.atomic_write_text

    def full_disk_at_the_report(path, text, encoding="utf-8"):
        if str(path).endswith("report.html"):  # the last file: all the others are written by then
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, text, encoding)

    monkeypatch.setattr(reports.beacon, "atomic_write_text", full_disk_at_the_report)
    code, _, err = run_cli(SIMULATE + ["--seed", "2", "--out", str(out)], capsys)
    assert one_line_error(code, err, "No space left on device"), err
    assert snapshot(out) == before  # no new file, no staging folder left behind


def test_a_folder_in_the_way_of_a_result_file_changes_nothing(earlier_run, capsys):
    out, before = earlier_run
    (out / "report.md").unlink()
    (out / "report.md").mkdir()
    (out / "report.md" / "x").write_text("x")
    before = snapshot(out)
    code, _, err = run_cli(SIMULATE + ["--seed", "2", "--out", str(out)], capsys)
    assert one_line_error(code, err, "report.md"), err
    assert snapshot(out) == before


@pytest.mark.parametrize("args,fragment", [
    (["--games", str(10**30)], "--games must be at most"),
    (["--games", "100", "--chunk-size", str(10**9)], "--chunk-size must be at most"),
    (["--precision", "1", "--min-games", str(10**30)], "--min-games must be at most"),
    (["--policy", "lookahead:near=1e308"], "within ±1,000,000"),
    (["--policy", "lookahead:width=1,width=3"], "given twice"),
])
def test_impossible_sizes_and_weights(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["beacon", "simulate", "--no-progress", "--out", str(tmp_path / "o"), *args], capsys)
    assert one_line_error(code, err, fragment), err


def test_a_per_game_table_too_big_for_memory_is_refused_before_playing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(analyzer.runner, "available_memory", lambda: 2**30)
    code, _, err = run_cli(["beacon", "simulate", "--games", "20000000", "--no-progress",
                            "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "--no-per-game"), err
    code, _, err = run_cli(["beacon", "compare", "--policies", "random,greedy", "--games", "20000000",
                            "--no-progress", "--out", str(tmp_path / "c")], capsys)
    assert one_line_error(code, err, "fewer games") and "tables" in err, err


def test_no_arguments_prints_the_help_without_an_empty_error(capsys):
    code, out, err = run_cli([], capsys)
    assert code == 2 and "Usage" in out and err == ""


def test_a_newline_in_a_file_name_stays_on_one_line(tmp_path, capsys):
    code, _, err = run_cli(["beacon", "tiles", "--tiles", str(tmp_path / "no\nsuch.csv")], capsys)
    assert one_line_error(code, err, "no\\nsuch.csv"), err


@pytest.mark.parametrize("target", [".", "/", ""])
def test_export_to_a_folder(capsys, target):
    code, _, err = run_cli(["beacon", "tiles", "--export", target], capsys)
    assert one_line_error(code, err, "--export needs a file"), err


def test_a_scheduler_scheme_dask_cannot_open(tmp_path, capsys):
    pytest.importorskip("distributed")
    code, _, err = run_cli(SIMULATE + ["--scheduler", "ucx://127.0.0.1:1", "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "cannot reach the Dask scheduler"), err


def test_arms_whose_labels_look_alike_get_their_own_checkpoint_folders(tmp_path):
    files = (tmp_path / "a b.csv", tmp_path / "a_b.csv")
    text = (Path(__file__).parents[1] / "analyzer/beacon/data/tiles_default.csv").read_text()
    files[0].write_text(text)
    files[1].write_text(text.replace("\n", "\r\n"))  # the same tiles, another file
    arms = plan_arms(["greedy", "random"], 1, "", list(files))
    names = arm_folders(arms)
    assert len(set(names)) == len(arms) == 4


def test_a_checkpoint_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    def refuse(path, writer):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    with Checkpoint(tmp_path / "ck", {"job": 1}, 2, "int16") as ckpt:
        monkeypatch.setattr(analyzer.checkpoint, "atomic_write", refuse)
        with pytest.raises(UserError, match="cannot save games 0-9 to --checkpoint .*Permission denied"):
            ckpt.save(0, np.zeros((2, 10), np.int16))


def test_parameters_are_bounded_for_every_registry():
    with pytest.raises(UserError, match="within"):
        parse_named("lookahead:ship=-2e6", "policy", POLICIES)
    assert parse_named("lookahead:ship=-1e6", "policy", POLICIES)[1]["ship"] == -1e6


def test_seafarers_results_are_replaced_all_at_once(tmp_path, capsys):
    out = tmp_path / "boards"
    args = ["seafarers", "boards", "--scenario", "new-shores", "--out", str(out)]
    assert run_cli(args, capsys)[0] == 0
    (out / "summary.json").unlink()
    (out / "summary.json").mkdir()
    before = snapshot(out)
    code, _, err = run_cli(args + ["--seed", "3"], capsys)
    assert one_line_error(code, err, "summary.json"), err
    assert snapshot(out) == before  # boards.parquet and board.png of seed 0 kept


def test_a_parameter_after_a_policy_without_one_is_named_as_such(tmp_path, capsys):
    assert split_policies("greedy,width=2,random") == ["greedy:width=2", "random"]
    code, _, err = run_cli(["beacon", "compare", "--policies", "greedy,width=2", "--games", "10",
                            "--out", str(tmp_path / "c")], capsys)
    assert one_line_error(code, err, "policy greedy: bad parameter 'width=2'"), err
