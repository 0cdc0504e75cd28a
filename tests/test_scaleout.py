"""Scale-out and long runs: Dask backends, --precision, --checkpoint (kill -9 + resume), streaming aggregates.

Every backend, chunking and stopping rule must give the games that a plain threaded run of the
same length gives, bit for bit.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import stats
from analyzer.aggregate import ColumnStats, PrecisionRule
from analyzer.beacon.simulation import beacon_job, make_setup, simulate
from analyzer.checkpoint import Checkpoint
from analyzer.errors import UserError
from analyzer.job import Statistic
from analyzer.runner import RunOptions, run_job
from kernels import beacon as kb
from reports.beacon.simulate import write_simulate_report
from tests.support import run_cli as cli

ROOT = Path(__file__).resolve().parents[1]
VOLATILE = ("wall_seconds", "games_per_second", "threads", "run", "command")


def stable(summary: dict) -> dict:
    """The summary without timings and run mechanics: what must not depend on how games ran."""
    return {k: v for k, v in summary.items() if k not in VOLATILE}



# --------------------------------------------------------------------------- exact streaming statistics

samples = st.lists(st.integers(-5, 70), min_size=1, max_size=300)


@settings(max_examples=60, deadline=None)
@given(samples)
def test_histogram_statistics_equal_the_per_value_ones(xs):
    x = np.array(xs, np.int64)
    values, counts = np.unique(x, return_counts=True)
    assert stats.percentiles_counts(values, counts, (0, 5, 25, 50, 75, 95, 99.5, 100)) == \
        stats.percentiles(x, (0, 5, 25, 50, 75, 95, 99.5, 100))  # bit for bit
    exact, plain = stats.mean_ci_counts(values, counts), stats.mean_ci(x)
    assert exact["n"] == plain["n"]
    if x.min() == x.max():  # no spread (one value, or all equal): the same nulls both ways
        assert exact == plain and plain["ci95"] == [None, None]
        return
    for key in ("mean", "std", "sem"):
        assert exact[key] == pytest.approx(plain[key], rel=1e-12, abs=1e-12)
    assert exact["ci95"] == pytest.approx(plain["ci95"], rel=1e-12, abs=1e-12)


def test_vectorised_half_widths_match_the_intervals():
    x = np.random.default_rng(1).integers(0, 40, 500)
    n = np.arange(1, 501)
    half = stats.mean_half_widths(n, np.cumsum(x), np.cumsum(x * x), varies=n > 1)
    assert half[0] == np.inf
    for m in (2, 3, 17, 250, 500):
        lo, hi = stats.mean_ci(x[:m])["ci95"]
        assert half[m - 1] == pytest.approx((hi - lo) / 2, rel=1e-9)
    k = np.array([0, 1, 7, 50, 50])
    trials = np.array([10, 10, 13, 100, 50])
    for ki, ni, h in zip(k, trials, stats.wilson_half_widths(k, trials)):
        lo, hi = stats.wilson_ci(ki, ni)
        assert h == pytest.approx((hi - lo) / 2, rel=1e-12)


def test_column_stats_fold_in_any_split_equals_the_whole_table():
    rng = np.random.default_rng(5)
    table = rng.integers(-3, 30, (3, 1000)).astype(np.int16)
    table[1, 600:] -= 40  # a column whose range grows downwards late in the run
    table[2, [10, 400, 900]] = 99  # the first maximum must win the tie
    whole, split = ColumnStats(3), ColumnStats(3)
    whole.fold(0, table)
    for s, e in [(0, 1), (1, 300), (300, 301), (301, 1000)]:
        split.fold(s, table[:, s:e])
    for k in range(3):
        values, counts = np.unique(table[k], return_counts=True)
        for agg in (whole, split):
            v, c = agg.histogram(k)
            np.testing.assert_array_equal(v, values)
            np.testing.assert_array_equal(c, counts)
            assert agg.argmax(k) == int(np.argmax(table[k]))
            d = agg.describe(k)
            assert d["mean"] == pytest.approx(table[k].mean()) and d["std"] == pytest.approx(table[k].std(ddof=1))
            assert (d["min"], d["max"]) == (table[k].min(), table[k].max())
    assert split.argmax(2) == 10 and split.games == 1000


def test_precision_rule_stops_at_the_first_precise_prefix_whatever_the_chunks():
    x = np.random.default_rng(2).integers(0, 40, 4000)
    target, min_games = 0.8, 100
    brute = next(n for n in range(min_games, x.size + 1)
                 if (lambda ci: (ci[1] - ci[0]) / 2)(stats.mean_ci(x[:n])["ci95"]) <= target)
    for cuts in ([4000], [7, 93, 500, 3400], [1] * 50 + [3950]):
        rule = PrecisionRule(Statistic(), target, min_games)
        assert _stop(rule, x, cuts) == brute and rule.n == brute and rule.half_width <= target


def _stop(rule: PrecisionRule, x: np.ndarray, cuts: list[int]) -> int | None:
    """Where `rule`, fed x in chunks of the sizes `cuts`, stops the run (None: it never does)."""
    seen = 0
    for size in cuts:
        keep = rule.scan(x[seen:seen + size])
        if keep is not None:
            return seen + keep
        seen += size
    return None


def test_the_worst_category_precision_stops_when_every_share_is_precise_whatever_the_chunks():
    """The "categories" statistic (`seafarers seats --precision`): the widest Wilson half-width of the shares of
    games whose column is 0, 1, .. value-1 (each seat's win rate; -1, no winner, counts in no share)."""
    x = np.random.default_rng(3).choice([-1, 0, 1, 2], size=3000, p=[0.05, 0.45, 0.3, 0.2])
    target, min_games = 0.03, 100

    def widest(n):
        return max((lambda ci: (ci[1] - ci[0]) / 2)(stats.wilson_ci(int((x[:n] == k).sum()), n)) for k in range(3))

    brute = next(n for n in range(min_games, x.size + 1) if widest(n) <= target)
    assert widest(brute - 1) > target and 500 < brute < 3000
    for cuts in ([3000], [7, 93, 500, 2400], [1] * 30 + [2970]):
        rule = PrecisionRule(Statistic(0, "categories", "worst seat", 3), target, min_games)
        assert _stop(rule, x, cuts) == brute and rule.half_width == pytest.approx(widest(brute))
    with pytest.raises(ValueError, match="needs value >= 1 categories"):
        Statistic(0, "categories", "none", 0)


def test_precision_is_never_reached_by_games_without_spread():
    """Equal scores have no interval, so they cannot meet a precision: two 0-point games used to stop
    a random-policy run at "±0 reached" (its mean over 2,000 games is 1.1)."""
    x = np.array([0, 0, 0, 0, 3, 0, 1, 0, 2, 0] * 40)
    rule = PrecisionRule(Statistic(), 0.5, 2)
    assert rule.scan(x[:2]) is None and rule.scan(x[2:4]) is None and rule.half_width == np.inf
    keep = rule.scan(x[4:])
    assert keep is not None and rule.n > 4 and 0 < rule.half_width <= 0.5
    assert np.all(stats.mean_half_widths([5, 5], [10, 5], [20, 25], varies=[False, True]) ==
                  [np.inf, stats.mean_half_widths([5], [5], [25], varies=[True])[0]])


# --------------------------------------------------------------------------- the runner through simulate

def test_streaming_aggregates_equal_the_per_game_path(tmp_path):
    kw = dict(players=3, policy="greedy", games=1500, seed=21, expansions="windmills,piers", threads=2)
    per_game = simulate(**kw)
    streaming = simulate(**kw, per_game=False)
    assert streaming.games is None and streaming.summary["run"]["per_game"] is False
    assert stable(streaming.summary) == stable(per_game.summary)
    reports = []  # ... and so are the reports' tables (the streaming one had an extra "score" row)
    for name, r in (("per_game", per_game), ("streaming", streaming)):
        (tmp_path / name).mkdir()
        write_simulate_report(tmp_path / name, r.summary, r.games, r.best_layout, r.tiles)
        reports.append([line for line in (tmp_path / name / "report.md").read_text().splitlines()
                        if line.startswith("|") and "games/s" not in line])
    assert reports[0] == reports[1] and len(reports[0]) > 30
    np.testing.assert_array_equal(streaming.best_layout["tile"], per_game.best_layout["tile"])
    # ... and both equal statistics computed directly from the per-game table
    g, s = per_game.games, per_game.summary
    scores = g["score"].to_numpy()
    assert s["mean"] == pytest.approx(scores.mean()) and s["std"] == pytest.approx(scores.std(ddof=1))
    assert s["percentiles"] == stats.percentiles(scores)
    assert s["best_game"]["game"] == int(np.argmax(scores))
    assert [v["count"] for v in s["rank_probabilities"].values()] == \
        [int((g["rank"] == name).sum()) for name in s["rank_bands"]["names"]]
    for name, d in s["columns"].items():
        col = g[name].to_numpy()
        assert d["mean"] == pytest.approx(col.mean()) and (d["min"], d["max"]) == (col.min(), col.max())


def test_precision_run_equals_the_fixed_run_of_its_length():
    kw = dict(players=1, policy="random", seed=8)
    a = simulate(**kw, precision=0.06, min_games=300, threads=1)
    b = simulate(**kw, precision=0.06, min_games=300, threads=2, chunk_size=97, per_game=False)
    n = a.summary["games"]
    assert a.summary["run"]["stopped"] == "precision" and 300 < n < 10_000
    assert a.summary["run"]["precision"]["half_width"] <= 0.06
    assert stable(b.summary) == stable(a.summary)  # same stop whatever the chunks or threads
    fixed = simulate(**kw, games=n, threads=2)
    assert fixed.games.equals(a.games) and stable(fixed.summary) == stable(a.summary)
    # one game fewer is not precise enough: the stop is the first precise prefix
    lo, hi = stats.mean_ci(a.games["score"].to_numpy()[:-1])["ci95"]
    assert (hi - lo) / 2 > 0.06


def test_a_precision_run_resumes_to_the_same_stop(tmp_path):
    kw = dict(players=1, policy="random", seed=8, precision=0.1, min_games=300, threads=1, chunk_size=200)
    first = simulate(**kw, checkpoint=tmp_path)
    for path in sorted((tmp_path / "chunks").glob("*.npy"))[1::2]:
        path.unlink()
    again = simulate(**kw, checkpoint=tmp_path, per_game=False)
    assert stable(again.summary) == stable(first.summary) and again.summary["run"]["stopped"] == "precision"
    assert 0 < again.summary["run"]["checkpoint"]["resumed_games"] < first.summary["games"]


def test_a_checkpoint_belongs_to_its_rules(tmp_path):
    """A switched rules option is part of the run's identity: the default run's checkpoint is refused,
    naming the rules, and the switched run resumes its own."""
    kw = dict(players=1, policy="random", games=400, seed=3, chunk_size=200, threads=1)
    simulate(**kw, checkpoint=tmp_path / "default")
    with pytest.raises(UserError, match="job.spec.rules"):
        simulate(**kw, checkpoint=tmp_path / "default", rules={"solo_keep_on_empty_pile": True})
    first = simulate(**kw, checkpoint=tmp_path / "keep", rules=["solo_keep_on_empty_pile=true"])
    again = simulate(**kw, checkpoint=tmp_path / "keep", rules={"solo_keep_on_empty_pile": True})
    assert again.summary["run"]["checkpoint"]["resumed_games"] == 400
    assert stable(again.summary) == stable(first.summary)
    assert again.summary["rule_options"] == {"solo_keep_on_empty_pile": True}


def test_precision_gives_up_at_max_games():
    r = simulate(players=1, policy="random", seed=1, precision=0.01, min_games=200, max_games=700, threads=2)
    assert r.summary["games"] == 700 and r.summary["run"]["stopped"] == "max-games"
    assert r.summary["run"]["precision"]["half_width"] > 0.01


def test_checkpoint_resume_equals_an_uninterrupted_run(tmp_path):
    kw = dict(players=2, policy="random", games=3000, seed=4, chunk_size=250)
    reference = simulate(**kw, threads=2)
    ck = tmp_path / "ck"
    first = simulate(**kw, threads=1, checkpoint=ck)
    chunks = sorted((ck / "chunks").glob("*.npy"))
    assert len(chunks) == 12 and first.games.equals(reference.games)
    manifest = json.loads((ck / "manifest.json").read_text())
    assert manifest["job"]["spec"]["players"] == 2 and manifest["run"] == {"games": 3000}
    # lose some chunks, break one, leave a temp file as kill -9 would: a resume replays only those
    for path in chunks[3:6]:
        path.unlink()
    chunks[7].write_bytes(chunks[7].read_bytes()[:100])
    (ck / "chunks" / f".{chunks[0].name}.0123456789ab.tmp").write_bytes(b"half a chunk")
    resumed = simulate(players=2, policy="random", games=3000, seed=4, threads=2, checkpoint=ck)  # other threads/chunks
    assert resumed.summary["run"]["checkpoint"]["resumed_games"] == 8 * 250
    assert resumed.games.equals(reference.games)
    assert stable(resumed.summary) == stable(reference.summary)
    assert not list((ck / "chunks").glob(".*.tmp"))


def test_files_no_run_wrote_in_a_checkpoint_are_ignored(tmp_path):
    """A chunk put there by hand that runs past the last game, and a pipe named as a chunk (np.load
    would wait on it for ever), are not taken: their games are played again."""
    kw = dict(players=1, policy="random", games=2000, seed=5, chunk_size=500)
    reference = simulate(**kw, threads=1)
    ck = tmp_path / "ck"
    simulate(**kw, threads=1, checkpoint=ck)
    chunks = ck / "chunks"
    last = sorted(chunks.glob("*.npy"))[-1]
    stray = np.load(last)
    last.unlink()
    np.save(chunks / "000000001800-000000002300.npy", stray)  # the right shape for 500 games
    os.mkfifo(chunks / "000000001500-000000001800.npy")
    resumed = simulate(**{**kw, "chunk_size": 300}, threads=1, checkpoint=ck)
    assert resumed.summary["run"]["checkpoint"]["resumed_games"] == 1500
    assert resumed.games.equals(reference.games)


def test_a_run_wholly_resumed_claims_no_speed(tmp_path):
    """Its games were played before: games/s counts only the games played now (there were 802,023 "games/s")."""
    kw = dict(players=1, policy="random", games=1000, seed=3, threads=1, checkpoint=tmp_path)
    assert simulate(**kw).summary["games_per_second"] > 0
    again = simulate(**kw).summary
    assert again["run"]["checkpoint"]["resumed_games"] == 1000 and again["games_per_second"] is None


def test_a_checkpoint_of_another_run_is_refused(tmp_path, capsys):
    ck = tmp_path / "ck"
    simulate(players=1, policy="random", games=200, seed=1, threads=1, checkpoint=ck)
    with pytest.raises(UserError, match=r"players: checkpoint has 1, this run 2.*policy: checkpoint has "):
        simulate(players=2, policy="greedy", games=200, seed=1, threads=1, checkpoint=ck)
    code, _, err = cli(["beacon", "simulate", "--policy", "random", "--games", "300", "--seed", "1",
                        "--checkpoint", str(ck), "--no-progress", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and err.count("\n") == 1 and "run.games: checkpoint has 200, this run 300" in err


def test_a_checkpoint_in_use_is_refused(tmp_path):
    job = beacon_job(make_setup(1, "random", "", None), "random", 0)
    ident = {"job": job.identity()}
    with Checkpoint(tmp_path, ident, kb.N_COLS, "int16"):
        with pytest.raises(UserError, match="in use by another run"):
            Checkpoint(tmp_path, ident, kb.N_COLS, "int16").__enter__()


@pytest.mark.parametrize("args,chunks_under", [
    (["beacon", "simulate", "--policy", "random", "--games", "100000", "--chunk-size", "1000"], "ck"),
    (["seafarers", "pirates", "--players", "4", "--games", "30000", "--chunk-size", "300", "--plan", "cards-first"],
     "ck/cards-first_attack=4_outpost=0"),
], ids=["beacon-simulate", "seafarers-pirates"])
def test_kill_9_then_resume(tmp_path, capsys, args, chunks_under):
    """A run killed with SIGKILL mid-way leaves only whole chunks; rerunning it finishes the same games,
    equal to an uninterrupted run."""
    args = [*args, "--seed", "9", "--checkpoint", str(tmp_path / "ck"), "--no-progress"]
    size = int(args[args.index("--chunk-size") + 1])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "analyzer.cli", *args, "--threads", "1",
                             "--out", str(tmp_path / "killed")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    chunks = tmp_path / chunks_under / "chunks"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and len(list(chunks.glob("*.npy"))) < 3:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run ended before it could be killed"
    kept = sorted(chunks.glob("*.npy"))
    assert 3 <= len(kept) < 100
    for path in kept:  # everything written is whole
        assert np.load(path).shape[1] == size

    code, out, err = cli([*args, "--threads", "2", "--out", str(tmp_path / "resumed")], capsys)
    assert code == 0, err
    assert f"resumed {len(kept) * size:,} games" in out
    plain = [a for a in args if a != str(tmp_path / "ck") and a != "--checkpoint"]
    code, _, err = cli([*plain, "--threads", "2", "--out", str(tmp_path / "uninterrupted")], capsys)
    assert code == 0, err
    assert pl.read_parquet(tmp_path / "resumed" / "games.parquet").equals(
        pl.read_parquet(tmp_path / "uninterrupted" / "games.parquet"))


# --------------------------------------------------------------------------- CLI

def test_no_per_game_writes_a_report_from_aggregates(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "games.parquet").write_bytes(b"an older run's table")
    code, stdout, err = cli(["beacon", "simulate", "--games", "400", "--seed", "3", "--no-per-game",
                             "--threads", "2", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    assert not (out / "games.parquet").exists() and "--no-per-game" in stdout
    for name in ("summary.json", "report.md", "report.html", "score_histogram.png", "score_ecdf.png", "best_board.png"):
        assert (out / name).stat().st_size > 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 400 and sum(summary["score_histogram"]["counts"]) == 400
    report = (out / "report.md").read_text()
    assert "--no-per-game" in report and "tiles_placed" in report


def test_precision_from_the_cli(tmp_path, capsys):
    code, stdout, err = cli(["beacon", "simulate", "--policy", "random", "--precision", "0.5", "--min-games", "200",
                             "--no-progress", "--threads", "2", "--out", str(tmp_path)], capsys)
    assert code == 0, err
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["run"]["stopped"] == "precision" and "precision ±0.5 on the mean score reached" in stdout
    assert (summary["ci95"][1] - summary["ci95"][0]) / 2 <= 0.5 + 1e-12
    assert "run to precision" in (tmp_path / "report.md").read_text()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("args,fragment", [
    (["--games", "10", "--precision", "0.5"], "--games and --precision are alternatives"),
    (["--dask-local", "2", "--scheduler", "tcp://127.0.0.1:8786"], "--dask-local and --scheduler are alternatives"),
    (["--min-games", "10"], "only apply with --precision"),
    (["--threads", "2", "--dask-local", "2"], "--threads sets the local thread backend"),
    (["--precision", "0"], "--precision must be a positive"),
    (["--precision", "1", "--min-games", "50", "--max-games", "10"], "--max-games (10) must be at least"),
    (["--dask-local", "0"], "--dask-local must be at least 1"),
    (["--chunk-size", "0"], "--chunk-size must be at least 1"),
    (["--threads", str(10**30)], "--threads must be from 1 to 1,024"),
    (["--dask-local", "1025"], "--dask-local must be at most 1,024"),
    (["--dask-local", "1024"], "would need about 256.0 GiB, more than the 8.0 GiB free"),
    (["--precision", "1", "--max-games", "10000000000"], "--max-games 10,000,000,000: the per-game table would"),
    (["--scheduler", "tcp://127.0.0.1:{port}"], "cannot reach the Dask scheduler at tcp://127.0.0.1:"),
])
def test_bad_run_options_give_one_line(tmp_path, capsys, monkeypatch, args, fragment):
    import analyzer.dask_backend
    import analyzer.runner
    monkeypatch.setattr(analyzer.dask_backend, "CONNECT_TIMEOUT_S", 1.0)
    monkeypatch.setattr(analyzer.runner, "available_memory", lambda: 8 * 2**30)  # any machine: 1,024 workers need more
    args = [a.format(port=closed_port()) for a in args]
    code, _, err = cli(["beacon", "simulate", "--no-progress", "--out", str(tmp_path / "o"), *args], capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err, err


# --------------------------------------------------------------------------- Dask

def test_scheduler_backend_gives_the_threads_results(dask_cluster):
    kw = dict(players=2, policy="greedy", seed=17, expansions="piers")
    threads = simulate(**kw, games=2500, threads=2)
    dask = simulate(**kw, games=2500, scheduler=dask_cluster, chunk_size=300)
    assert dask.summary["run"]["backend"] == "dask" and dask.summary["run"]["workers"] == 2
    assert dask.games.equals(threads.games) and stable(dask.summary) == stable(threads.summary)
    # a precision run stops at the same game on Dask as on threads
    precise = [simulate(**kw, precision=0.6, min_games=500, per_game=False, **backend).summary
               for backend in (dict(threads=1), dict(scheduler=dask_cluster))]
    assert stable(precise[0]) == stable(precise[1]) and precise[0]["run"]["stopped"] == "precision"


def test_seafarers_balance_on_dask_local_equals_threads():
    from analyzer.seafarers.balance import play_balance

    kw = dict(boards=12, rolls=30, heuristic="diverse", seed=4, sequences=10)
    threads = play_balance("new-shores", 4, threads=2, **kw)
    local = play_balance("new-shores", 4, dask_local=2, **kw)
    assert local.summary["run"]["backend"] == "dask-local" and local.summary["run"]["workers"] == 2
    assert local.boards.equals(threads.boards) and local.seats.equals(threads.seats)


def test_dask_local_gives_the_threads_results(tmp_path):
    pytest.importorskip("distributed")
    kw = dict(players=1, policy="greedy", seed=5, games=3000)
    threads = simulate(**kw, threads=2)
    local = simulate(**kw, dask_local=2, checkpoint=tmp_path / "ck")
    assert local.summary["run"]["backend"] == "dask-local" and local.summary["run"]["workers"] == 2
    assert local.games.equals(threads.games) and stable(local.summary) == stable(threads.summary)
    assert len(list((tmp_path / "ck" / "chunks").glob("*.npy"))) == local.summary["run"]["chunks"]


def test_run_job_needs_something_to_keep():
    job = beacon_job(make_setup(1, "random", "", None), "random", 0)
    with pytest.raises(ValueError, match="aggregate"):
        run_job(job, RunOptions(games=10, per_game=False))


def test_a_compare_wholly_resumed_claims_no_speed(tmp_path):
    """As for simulate: each arm's games/s counts only the games it played in this run."""
    from analyzer.beacon.comparison import compare
    kw = dict(players=1, seed=3, games=300, threads=1, checkpoint=tmp_path)
    assert all(s["games_per_second"] > 0 for s in compare(["random", "greedy"], **kw).summary["policies"].values())
    again = compare(["random", "greedy"], **kw).summary["policies"]
    assert all(s["games_per_second"] is None for s in again.values())


def test_the_arms_of_one_command_share_one_backend_and_an_arm_stopped_early_leaves_nothing_behind(monkeypatch):
    """run_arms opens one thread pool (or Dask cluster: starting one per arm cost --dask-local 2 a 3.7x slower
    `seafarers seats` than threads) for all its arms; an arm that --precision stops with chunks still in flight
    hands the next arm a clean backend: its games are those it plays alone."""
    import analyzer.runner
    from analyzer.arms import run_arms

    opened, real = [], analyzer.runner._backend
    monkeypatch.setattr(analyzer.runner, "_backend", lambda options: opened.append(options) or real(options))
    # seed 6 stops at 2,344 games, seed 4 at 2,567: the first arm's chunks in flight fall inside the second's run
    jobs = [(str(seed), beacon_job(make_setup(1, "random", "", None), "random", seed)) for seed in (6, 4)]
    options = RunOptions(precision=0.06, min_games=300, threads=2, chunk_size=40)
    first, second = run_arms(jobs, options, aggregate=True)
    assert len(opened) == 1 and first.info["stopped"] == second.info["stopped"] == "precision"
    alone = run_job(jobs[1][1], RunOptions(precision=0.06, min_games=300, threads=1), aggregate=True)
    assert np.array_equal(second.columns, alone.columns)
