"""Runs too long or too wide for one command (issue 33): 'Runs that would take years are accepted (`--policy oracle
--players 4 --games 10**9`; compare with hundreds of arms, 2.4 GB and 4,950 pair lines at 100): estimate and refuse
..., and bound the number of arms', and 'a run that will take long says so up front ... and shows progress'.

The runner times a run's first games before it starts (analyzer.runner._check_duration): over a day is one line and
exit 2 unless --long-run; over a minute says how long on stderr. A comparison plays at most MAX_ARMS arms."""

import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

import analyzer.runner
from analyzer.arms import MAX_ARMS
from analyzer.errors import UserError
from analyzer.runner import RunOptions, _check_duration, duration_text
from tests.support import one_line_error, run_cli


@pytest.fixture
def seconds_per_game(monkeypatch):
    """A clock that each game played by the estimate advances by the set number of seconds."""
    clock = SimpleNamespace(now=0.0, per_game=1.0, played=[])

    def play(start, end):
        clock.played.append((start, end))
        clock.now += (end - start) * clock.per_game

    monkeypatch.setattr(analyzer.runner, "time", SimpleNamespace(perf_counter=lambda: clock.now))
    clock.play = play
    return clock


def test_a_run_of_years_is_refused_with_its_estimate(seconds_per_game):
    seconds_per_game.per_game = 0.2  # the oracle with 4 players: about 5 games/s on one core
    with pytest.raises(UserError, match=r"about 6\.3 years: 1,000,000,000 games at about 5\.00/s on each of 1 thread"
                                        r".*--long-run to start it anyway"):
        _check_duration(seconds_per_game.play, RunOptions(games=10**9), 10**9, 1, 1)
    assert seconds_per_game.played == [(0, 1), (1, 2)]  # games 0 and 1 timed (0.4 s), no more


def test_long_run_starts_it_and_says_how_long(seconds_per_game, capsys):
    seconds_per_game.per_game = 0.2
    _check_duration(seconds_per_game.play, RunOptions(games=10**9, long_run=True, progress=True), 10**9, 2, 1)
    assert capsys.readouterr().err.startswith("about 3.2 years: 1,000,000,000 games at about 5.00/s on each of 2 "
                                              "threads")


def test_a_run_of_minutes_says_so_before_it_starts(seconds_per_game, capsys):
    seconds_per_game.per_game = 0.001
    _check_duration(seconds_per_game.play, RunOptions(games=600_000, progress=True), 600_000, 2, 1)
    assert capsys.readouterr().err == "about 5 min: 600,000 games at about 1,000/s on each of 2 threads (timed on " \
                                      "the first 256)\n"
    _check_duration(seconds_per_game.play, RunOptions(games=600_000, progress=False), 600_000, 2, 1)
    assert capsys.readouterr().err == ""  # --no-progress: quiet


def test_a_short_run_costs_a_few_games_and_says_nothing(seconds_per_game, capsys):
    seconds_per_game.per_game = 0.001
    _check_duration(seconds_per_game.play, RunOptions(games=20_000, progress=True), 20_000, 2, 1)
    assert capsys.readouterr().err == "" and seconds_per_game.played[-1][1] <= 32  # 20 ms of games


def test_the_estimate_plays_only_games_of_the_run(seconds_per_game):
    seconds_per_game.per_game = 0.0001  # (a job's spec may hold only its own games: boards, blocks of rolls)
    _check_duration(seconds_per_game.play, RunOptions(games=40), 40, 2, 1)
    assert seconds_per_game.played == [(0, 1), (1, 2), (2, 4), (4, 8), (8, 16), (16, 32), (32, 40)]


def test_a_run_of_few_games_per_thread_is_not_timed(seconds_per_game):
    """The timed games are played again: for 31 games on 2 threads that could be one slow game in 16 more."""
    seconds_per_game.per_game = 10**6
    _check_duration(seconds_per_game.play, RunOptions(games=31), 31, 2, 1)
    assert seconds_per_game.played == []


def test_the_arms_of_a_comparison_count_together(seconds_per_game):
    seconds_per_game.per_game = 0.01  # 10 arms x 10 M games at 100/s on 4 threads: 2.9 days
    with pytest.raises(UserError, match=r"about 2\.9 days: 10 runs of 10,000,000 games"):
        _check_duration(seconds_per_game.play, RunOptions(games=10**7), 10**7, 4, 10)


@pytest.mark.parametrize("seconds,text", [(40, "40 s"), (150, "2.5 min"), (3 * 3600, "3 h"), (50 * 3600, "2.1 days"),
                                          (400 * 86400, "1.1 years"), (40 * 365.25 * 86400, "40 years")])
def test_durations_read_in_the_unit_that_fits(seconds, text):
    assert duration_text(seconds) == text


def test_the_real_oracle_run_of_the_issue_is_refused_in_seconds(tmp_path, capsys):
    out = tmp_path / "o"
    code, _, err = run_cli(["beacon", "simulate", "--policy", "oracle", "--players", "4", "--games", str(10**10),
                            "--no-per-game", "--no-progress", "--out", str(out)], capsys)
    assert one_line_error(code, err, "this run would take about") and "years" in err and "--long-run" in err, err
    assert not out.exists()  # the folder made for it is removed again


def test_a_refused_run_removes_only_the_empty_folders_it_made(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(analyzer.runner, "LONG_RUN_S", 0)  # every timed run is refused
    monkeypatch.setattr(analyzer.runner, "SAY_ESTIMATE_S", 0)
    mine, kept = tmp_path / "new" / "deeper" / "out", tmp_path / "kept"
    kept.mkdir()
    for out in (mine, kept):
        code, _, err = run_cli(["beacon", "simulate", "--policy", "random", "--games", "5000", "--no-progress",
                                "--out", str(out)], capsys)
        assert one_line_error(code, err, "this run would take about"), err
    assert list(tmp_path.iterdir()) == [kept] and not any(kept.iterdir())


def test_compare_plays_at_most_max_arms(tmp_path, capsys):
    policies = ",".join(f"lookahead:hole={i}" for i in range(1, MAX_ARMS + 2))
    out = tmp_path / "c"
    code, _, err = run_cli(["beacon", "compare", "--policies", policies, "--games", "10", "--out", str(out)], capsys)
    assert one_line_error(code, err, f"--policies: {MAX_ARMS + 1} arms, more than the {MAX_ARMS}"), err
    assert not out.exists()
    ok = ",".join(f"lookahead:hole={i}" for i in range(1, MAX_ARMS + 1))
    code, _, err = run_cli(["beacon", "compare", "--policies", ok, "--games", "1", "--out", str(tmp_path / "d"),
                            "--chunk-size", "1", "--no-progress"], capsys)
    assert code == 0, err


def test_every_game_s_comparisons_are_bounded_by_the_runner(tmp_path, capsys):
    plans = [a for n in range(2, 10) for o in (0, 1) for a in ("--plan", f"attack-at:{n},outpost={o}")]
    code, _, err = run_cli(["seafarers", "pirates", "--players", "3", "--games", "5", *plans, "--plan", "cards-first",
                            "--no-progress", "--out", str(tmp_path / "p")], capsys)
    assert one_line_error(code, err, f"{MAX_ARMS + 1} arms, more than the {MAX_ARMS} one comparison plays"), err


def test_ctrl_c_while_the_first_games_are_timed_stops_at_once(tmp_path):
    """The timed games run on a worker thread while the main thread waits in short steps (on the main thread a
    slow game held Ctrl-C back until it ended: 5.6 s here, with the rollout policy below)."""
    ckpt = tmp_path / "ck"
    cmd = [sys.executable, "-c", "from analyzer.cli import run; run()", "beacon", "simulate", "--policy",
           "rollout:samples=4000", "--games", "64", "--threads", "1", "--no-progress", "--checkpoint", str(ckpt),
           "--out", str(tmp_path / "out")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (ckpt / "manifest.json").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(5)  # past the warm-up (the kernel loads from numba's cache), into the first game timed (12 s)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 3 and proc.returncode == 130 and err.endswith("error: interrupted\n"), err
