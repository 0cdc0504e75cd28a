"""The runner's chunk plan. (That no result depends on threads, chunks or the backend, for every game:
tests/test_conformance.py.)"""

import numpy as np

from analyzer.runner import plan_chunks


def test_plan_chunks_covers_every_game_once():
    chunks = plan_chunks(1001, 2, 100)
    covered = np.concatenate([np.arange(s, e) for s, e in chunks])
    np.testing.assert_array_equal(covered, np.arange(1001))


def test_the_eta_follows_the_runs_mean_rate_not_a_burst_of_chunks():
    """Early in a long run every worker's first chunks land at about the same moment: rich's rate of the last
    seconds read such a burst as the run's speed (issue 52: the ETA far off). The bar's ETA and rate are the
    run's mean rate since it started, games read back from a checkpoint not counted."""
    from analyzer.runner import _PerSecond, _progress_bar, _Remaining

    now = [0.0]
    bar = _progress_bar(False, get_time=lambda: now[0])
    task = bar.add_task("games", total=100_000, resumed=0)
    now[0] = 60.0
    bar.update(task, advance=10_000, resumed=10_000)  # a resume: read at once, not played
    assert _Remaining().render(bar.tasks[0]) == "-:--:--"
    now[0] = 99.9
    bar.update(task, advance=500)
    now[0] = 100.0
    bar.update(task, advance=500)  # 1,000 played in 100 s; rich's recent rate: 500 in 0.1 s
    assert _PerSecond().render(bar.tasks[0]) == "10/s"
    assert _Remaining().render(bar.tasks[0]) == "2:28:20"  # 89,000 games left at 10/s: 8,900 s
