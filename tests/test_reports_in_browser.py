"""Every command's report.html in a real browser (headless Chromium, Debian's `chromium` package, which
.ci/run installs): at 1,280 px wide nothing scrolls sideways and every image loads. Skipped, saying
so, where Chromium is absent."""

import sys

import pytest

from analyzer.games import games
from tests.support import CHROMIUM, render_in_browser, run_cli

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (Debian package `chromium`): "
                                                          "reports are not checked in a browser")
REPORTS = [pytest.param(g, e, id=f"{g.id}-{e.command}") for g in games().values() for e in g.experiments
           if e.example().report and e.example().writes_results]
LONG_POLICY = "lookahead:width=3,near=0.7,far=0.3,hole=0.5,ship=0.1,keep=0.3,trade=0.5,discard=0.75"


def _check(out, tmp_path):
    page = render_in_browser(out / "report.html", tmp_path)
    assert page["scroll_width"] <= page["client_width"], page  # no horizontal scrollbar
    assert page["images"] >= 1 and not page["broken"], page


@pytest.mark.parametrize("game,experiment", REPORTS)
def test_report_fits_1280px_and_every_image_loads(game, experiment, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    argv = [*experiment.example().argv, "--out", str(out)]
    monkeypatch.setattr(sys, "argv", ["tabletop", *argv])
    code, _, err = run_cli(argv, capsys)
    assert code == 0, err
    _check(out, tmp_path)


@pytest.mark.parametrize("command", [
    ["simulate", "--policy", LONG_POLICY, "--players", "2", "--expansions", "windmills,piers"],
    ["compare", "--policies", f"greedy,{LONG_POLICY},lookahead:width=1,near=0.5", "--players", "2",
     "--expansions", "windmills,piers"],
])
def test_long_policy_strings_fit(command, tmp_path, capsys):
    """Issue 33: a long policy string as the page title overflowed at 1,400 px; a wide table wrapped."""
    out = tmp_path / "out"
    code, _, err = run_cli(["beacon", *command, "--games", "40", "--seed", "3", "--no-progress",
                            "--out", str(out)], capsys)
    assert code == 0, err
    _check(out, tmp_path)


def test_the_balance_report_by_wins_fits(tmp_path, capsys):
    """`balance --by wins` adds three plots and two tables to the balance report."""
    out = tmp_path / "out"
    code, _, err = run_cli(["seafarers", "balance", "--scenario", "new-shores", "--players", "4", "--boards", "6",
                            "--sequences", "4", "--rolls", "20", "--by", "wins", "--games-per-board", "6", "--seed",
                            "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    _check(out, tmp_path)
