"""Inputs a fuzz run of the CLI found mishandled: each is one line and exit code 2, and a run that
fails while writing leaves the previous run's results exactly as they were."""

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import analyzer.checkpoint
import analyzer.io
import analyzer.runner
import reports.beacon.simulate
from analyzer.arms import arm_folders
from analyzer.beacon.comparison import plan_arms
from analyzer.beacon.policies import POLICIES
from analyzer.checkpoint import Checkpoint
from analyzer.cli import main
from analyzer.errors import UserError
from analyzer.lineup import parse_arm, split_arms
from tests.support import one_line_error, run_cli

SIMULATE = ["beacon", "simulate", "--games", "40", "--no-progress"]




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
    real = analyzer.io.atomic_write_text

    def full_disk_at_the_report(path, text, encoding="utf-8"):
        if str(path).endswith("report.html"):  # the last file: all the others are written by then
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, text, encoding)

    monkeypatch.setattr(reports.beacon.simulate, "atomic_write_text", full_disk_at_the_report)
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


@pytest.mark.parametrize("target", [".", "/"])
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
    files[1].write_text(text.rstrip("\n").rsplit("\n", 1)[0] + "\n")  # one tile fewer: another set
    arms = plan_arms(["greedy", "random"], 1, "", list(files))
    names = arm_folders([a.label for a in arms])
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
        parse_arm("lookahead:ship=-2e6", "policy", POLICIES)
    assert parse_arm("lookahead:ship=-1e6", "policy", POLICIES)[1]["ship"] == -1e6


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
    assert split_arms("greedy,width=2,random", "--policies") == ["greedy:width=2", "random"]
    code, _, err = run_cli(["beacon", "compare", "--policies", "greedy,width=2", "--games", "10",
                            "--out", str(tmp_path / "c")], capsys)
    assert one_line_error(code, err, "policy greedy: bad parameter 'width=2'"), err


def test_ctrl_c_is_one_line_and_exit_130(tmp_path, capsys, monkeypatch):
    def interrupted(**_):
        raise KeyboardInterrupt

    monkeypatch.setattr(sys.modules["analyzer.beacon.simulation"], "simulate", interrupted)
    code, _, err = run_cli(SIMULATE + ["--out", str(tmp_path / "o")], capsys)
    assert code == 130 and err == "error: interrupted\n"


def test_a_signal_during_the_moves_waits_for_them():
    done = []
    handler = signal.getsignal(signal.SIGINT)  # (SIG_IGN where the tests were started in the background)
    with pytest.raises(KeyboardInterrupt):
        with analyzer.io._signals_held():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs between bytecodes: give it some
                done.append(1)
    assert len(done) == 1000
    assert signal.getsignal(signal.SIGINT) is handler


def test_a_swallowed_interrupt_still_stops_the_run(tmp_path, capsys, monkeypatch):
    """While numba compiles, a Ctrl-C's KeyboardInterrupt can be raised in a callback LLVM calls from C, where
    Python prints "Exception ignored" and goes on (seen on `regatta simulate` killed 2 s in: exit 0, results
    written). The recorded signal stops the run before its results are written."""
    from analyzer import interrupts
    from analyzer.regatta import simulation

    real_args = simulation.kernel_args

    def swallowing(spec):  # (the job's builder calls it while it builds the kernels' arguments)
        try:
            interrupts._on_signal(signal.SIGINT, None)  # what the handler does when the signal comes
        except KeyboardInterrupt:
            pass  # ... and what llvmlite's callback does with it
        return real_args(spec)

    monkeypatch.setattr(simulation, "kernel_args", swallowing)
    monkeypatch.setattr(interrupts, "_caught", [])
    out = tmp_path / "r"
    code, _, err = run_cli(["regatta", "simulate", "--games", "8", "--threads", "1", "--no-progress", "--out",
                            str(out)], capsys)
    assert code == 130 and err == "error: interrupted\n"
    assert not out.exists() or not any(out.iterdir())
    with pytest.raises(KeyboardInterrupt):  # the moves into --out are refused too
        with analyzer.io.staged_results(tmp_path) as stage:
            (stage / "summary.json").write_text("{}")
    assert not (tmp_path / "summary.json").exists()


def test_staging_folders_of_dead_runs_are_removed(tmp_path):
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True).stdout.strip()
    host = analyzer.io._HOST
    dead, live = tmp_path / f".staging-{host}-{finished}-abc", tmp_path / f".staging-{host}-{os.getpid()}-abc"
    elsewhere = tmp_path / f".staging-another_machine-{finished}-abc"  # its pid says nothing here
    for folder in (dead, live, elsewhere):
        folder.mkdir()
        (folder / "games.parquet").write_bytes(b"x")
    with analyzer.io.staged_results(tmp_path) as stage:
        (stage / "summary.json").write_text("{}")
    assert not dead.exists() and live.exists() and elsewhere.exists() and (tmp_path / "summary.json").exists()


@pytest.mark.parametrize("kwargs,fragment", [
    ({"seed": 1.5}, "beacon.simulate: seed must be a whole number"),
    ({"seed": True}, "beacon.simulate: seed must be a whole number"),
    ({"players": 1.5}, "beacon.simulate: players must be a whole number"),
    ({"threads": 1.5}, "beacon.simulate: threads must be a whole number"),
])
def test_the_api_refuses_numbers_it_would_truncate(kwargs, fragment):
    from analyzer.beacon import simulate
    with pytest.raises(UserError, match=fragment):
        simulate(games=10, **kwargs)


def test_numpy_integers_are_fine():
    from analyzer.beacon import simulate
    assert simulate(games=10, seed=np.int64(3), players=np.int64(2)).summary["seed"] == 3


@pytest.mark.parametrize("command", [
    ["beacon", "tiles", "--tiles"], ["beacon", "score"],
    # a rules file of /dev/zero was read without end (9.5 GB and growing when stopped)
    ["regatta", "simulate", "--games", "5", "--out", "o", "--rules"],
    ["meographic", "simulate", "--games", "5", "--out", "o", "--rules"],
    ["seafarers", "play", "--scenario", "base", "--games", "5", "--out", "o", "--rules"],
])
def test_devices_and_pipes_are_not_read(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opened for reading without a writer, it would wait for ever
    for path in ("/dev/zero", str(fifo)):
        code, _, err = run_cli(command + [path], capsys)
        assert one_line_error(code, err, "not a regular file"), err


def test_kernels_cache_in_a_temporary_folder_when_nowhere_else_is_writable(monkeypatch):
    import tempfile

    import kernels.jit as jit
    monkeypatch.setattr(jit.config, "CACHE_DIR", "")
    real = jit._writable
    monkeypatch.setattr(jit, "_writable", lambda folder: real(folder) if str(folder).startswith(tempfile.gettempdir())
                        else "Permission denied")
    jit._cache_folder()
    assert jit.config.CACHE_DIR.startswith(tempfile.gettempdir())
    assert jit.config.CACHE_DIR.endswith(f"kernels-{jit.kernels_stamp()}")


def test_a_change_to_any_kernel_source_compiles_into_a_new_cache_folder(tmp_path, monkeypatch):
    """numba checks only the timestamp of a function's own file, so a caller's cached code would keep an old
    callee from another file: the cache folder follows a hash of every kernel source, and only the latest few
    folders are kept."""
    import kernels.jit as jit
    (tmp_path / "catan").mkdir()
    (tmp_path / "catan" / "bots.py").write_text("def decide(): return 1\n")
    (tmp_path / "catan" / "policies.py").write_text("from kernels.catan.bots import decide\n")
    before = jit.kernels_stamp(tmp_path)
    (tmp_path / "catan" / "bots.py").write_text("def decide(): return 2\n")
    assert jit.kernels_stamp(tmp_path) != before
    (tmp_path / "catan" / "bots.py").write_text("def decide(): return 1\n")
    assert jit.kernels_stamp(tmp_path) == before
    cache = tmp_path / "cache"
    for k in range(5):
        (cache / f"kernels-old{k}").mkdir(parents=True)
    monkeypatch.setattr(jit.config, "CACHE_DIR", str(cache))
    jit._cache_folder()
    assert jit.config.CACHE_DIR == str(cache / f"kernels-{jit.kernels_stamp()}")
    assert len(list(cache.glob("kernels-*"))) == jit.KEPT_VERSIONS


def test_the_api_takes_lists_of_expansions_and_refuses_what_is_not_text():
    from analyzer.beacon import simulate
    assert simulate(games=10, expansions=["windmills", "piers"]).summary["expansions"] == ["piers", "windmills"]
    for kwargs in ({"policy": None}, {"policy": 123}, {"expansions": 123}, {"expansions": [1]}):
        with pytest.raises(UserError):
            simulate(games=10, **kwargs)


def test_one_plan_given_as_text_is_one_plan():
    from analyzer.seafarers.pirates import check_inputs
    plans = check_inputs(4, 10, 1, "cards-first", "each", 200, "pips")
    assert len(plans) == 1 and plans[0].label.startswith("cards-first")


def test_compare_does_not_write_into_a_simulate_checkpoint(tmp_path, capsys):
    ckpt = tmp_path / "ck"
    assert run_cli(SIMULATE + ["--checkpoint", str(ckpt), "--out", str(tmp_path / "s")], capsys)[0] == 0
    code, _, err = run_cli(["beacon", "compare", "--policies", "random,greedy", "--games", "40", "--no-progress",
                            "--checkpoint", str(ckpt), "--out", str(tmp_path / "c")], capsys)
    assert one_line_error(code, err, "holds a simulate run's checkpoint"), err
    assert sorted(p.name for p in ckpt.iterdir()) == [".lock", "chunks", "manifest.json"]


def test_switches_must_be_booleans():
    from analyzer.beacon import simulate
    with pytest.raises(UserError, match="per_game"):
        simulate(games=10, per_game="no")


def test_a_zero_terminal_width_still_prints_everything():
    """rich read COLUMNS=0 as a terminal zero characters wide and printed nothing, exit code 0."""
    env = dict(os.environ, COLUMNS="0")
    shown = subprocess.run([sys.executable, "-m", "analyzer.cli", "beacon", "tiles"], capture_output=True,
                           text=True, env=env, cwd=Path(__file__).parents[1], timeout=120)
    assert shown.returncode == 0
    assert "64 tiles" in shown.stdout and "by_feature" in shown.stdout


def test_one_game_has_no_confidence_interval(tmp_path, capsys):
    """One value says nothing about the spread: null bounds in summary.json and words in every message,
    where a zero-wide "95% CI 24.00–24.00" used to claim certainty."""
    out = tmp_path / "one"
    code, text, _ = run_cli(["beacon", "simulate", "--games", "1", "--seed", "3", "--no-progress", "--out", str(out)],
                            capsys)
    summary = json.loads((out / "summary.json").read_text())
    assert code == 0 and summary["ci95"] == [None, None] and summary["std"] is None and summary["sem"] is None
    assert "no 95% CI from one value" in text and "1 game," in text
    assert "no 95% CI from one value" in (out / "report.md").read_text()

    out = tmp_path / "pair"
    code, text, _ = run_cli(["beacon", "compare", "--policies", "random,greedy", "--games", "1", "--seed", "3",
                             "--no-progress", "--out", str(out)], capsys)
    (pair,) = json.loads((out / "summary.json").read_text())["pairs"]
    assert code == 0 and pair["ci95"] == [None, None] and pair["p_value"] is None
    assert "(one game: no 95% CI)" in pair["sentence"] and pair["sentence"] in text
    assert (out / "paired_differences.png").stat().st_size > 0


def test_one_board_balance_report_has_no_interval(tmp_path, capsys):
    out = tmp_path / "bal"
    code, _, err = run_cli(["seafarers", "balance", "--scenario", "new-shores", "--players", "3", "--boards", "1",
                            "--rolls", "10", "--seed", "3", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seats"][0]["income"]["total"]["ci95"] == [None, None]
    headline = (out / "report.md").read_text().splitlines()[2]
    assert "(one board: no 95% CI); over 1 random legal board and 10 rolls" in headline
    assert (out / "seat_bars.png").stat().st_size > 0


def test_a_rules_option_is_switched_recorded_and_checked(tmp_path, capsys):
    """rules.toml [options]: --rule switches a documented default; the summary and report say which
    is in force, and a bad switch is one line before any game."""
    runs = {}
    for name, extra in (("default", []), ("keep", ["--rule", "solo_keep_on_empty_pile=true"])):
        code, _, err = run_cli(SIMULATE + ["--seed", "1", "--out", str(tmp_path / name)] + extra, capsys)
        assert code == 0, err
        runs[name] = json.loads((tmp_path / name / "summary.json").read_text())
    assert runs["default"]["rule_options"] == {"solo_keep_on_empty_pile": False}
    assert runs["keep"]["rule_options"] == {"solo_keep_on_empty_pile": True}
    switched = runs["keep"]["assumptions"][0]
    assert "--rule solo_keep_on_empty_pile=true" in switched and switched not in runs["default"]["assumptions"]
    assert switched in (tmp_path / "keep" / "report.md").read_text()
    for bad, fragment in [("foo=1", "unknown rule option 'foo'"), ("solo_keep_on_empty_pile=maybe", "true or false"),
                          ("solo_keep_on_empty_pile", "NAME=VALUE")]:
        code, _, err = run_cli(SIMULATE + ["--rule", bad, "--out", str(tmp_path / "bad")], capsys)
        assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "bad").exists()


def test_ctrl_c_stops_a_run_at_once_not_when_its_games_in_flight_end(tmp_path):
    """The driver waits for chunks in short steps, so a signal is handled at once (a bare wait, with
    polars loaded, missed it until the chunk ended: here about 20 s), and nobody waits for the chunk."""
    out, ckpt = tmp_path / "out", tmp_path / "ck"
    cmd = [sys.executable, "-c", "from analyzer.cli import run; run()", "beacon", "simulate", "--policy",
           "rollout:samples=2000", "--games", "8", "--threads", "1", "--chunk-size", "8", "--no-progress",
           "--checkpoint", str(ckpt), "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (ckpt / "manifest.json").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(3)  # past the warm-up (the kernel loads from numba's cache), into the one chunk
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 3 and proc.returncode == 130 and err.endswith("error: interrupted\n"), err
    assert not (out / "summary.json").exists()


@pytest.mark.parametrize("args,option", [
    (["beacon", "simulate", "--out", ""], "'--out'"),
    (["beacon", "simulate", "--checkpoint", " ", "--out", "o"], "'--checkpoint'"),
    (["beacon", "compare", "--policies", "greedy", "--tiles", "", "--out", "o"], "'--tiles'"),
    (["beacon", "score", ""], "'layout'"),
    (["beacon", "tiles", "--export", ""], "'--export'"),
    (["seafarers", "boards", "--out", ""], "'--out'"),
    (["seafarers", "balance", "--out", ""], "'--out'"),
    (["seafarers", "pirates", "--out", ""], "'--out'"),
])
def test_an_empty_path_is_refused_not_read_as_the_current_folder(tmp_path, monkeypatch, capsys, args, option):
    """`--out "$DIR"` with DIR unset: results would land in (and stale ones be removed from) the cwd."""
    monkeypatch.chdir(tmp_path)
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and option in err and "an empty path" in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_under_a_checkpoint_is_named(tmp_path, monkeypatch):
    """numpy reports a short write without an errno; the message says what it likely means."""
    from analyzer.beacon import simulate
    real, saved = analyzer.checkpoint.atomic_write, []

    def fills_up(path, write):
        if len(saved) == 2:
            raise OSError("15000 requested and 14272 written")
        saved.append(path)
        real(path, write)

    monkeypatch.setattr(analyzer.checkpoint, "atomic_write", fills_up)
    with pytest.raises(UserError, match=r"cannot save games .* the disk is full\? 15000 requested .* kept for a rerun"):
        simulate(players=1, policy="random", games=2000, seed=1, threads=1, chunk_size=500, checkpoint=tmp_path)
    assert sorted((tmp_path / "chunks").glob("*.npy")) == sorted(saved)


def test_a_folder_with_another_commands_results_is_refused(tmp_path, capsys):
    """Its summary and report would be replaced and the two commands' other files mixed."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "summary.json").write_text(json.dumps({"command": "tabletop beacon compare --policies a,b --out run"}))
    code = main(["beacon", "simulate", "--games", "5", "--no-progress", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "holds the results of `tabletop beacon compare`" in err, err
    assert sorted(p.name for p in out.iterdir()) == ["summary.json"]
    (out / "summary.json").write_text(json.dumps({"command": "tabletop beacon simulate --games 9 --out run"}))
    assert main(["beacon", "simulate", "--games", "5", "--no-progress", "--out", str(out)]) == 0  # a rerun
    assert json.loads((out / "summary.json").read_text())["games"] == 5


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_a_bad_numba_thread_count_is_one_line_before_numba_loads(value):
    """numba raises a traceback at import on NUMBA_NUM_THREADS=0; the console script checks it first."""
    env = {**os.environ, "NUMBA_NUM_THREADS": value}
    done = subprocess.run([sys.executable, "-c", "from analyzer.entry import run; run()", "games"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: NUMBA_NUM_THREADS={value!r} must be a whole number of at least 1")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
