"""What the Beacon plots draw (issue 33), read from the figures themselves: the ECDF's reach labels sit on the
curve the axis describes and inside the axes; a spike in score_distributions does not flatten the other arms."""

import re

import numpy as np
import pytest

import reports.plots
from reports.beacon import plots
from reports.beacon.compare import score_distributions

NAMES = ["Novices", "Sailors", "Captains", "Navigators", "Cartographers"]
BOUNDS = [0, 26, 36, 46, 56]


@pytest.fixture
def drawn(monkeypatch):
    """The figures the plot functions save, kept for reading."""
    figures = []
    real = reports.plots.save_png

    def keep(fig, path, tight=True):
        figures.append(fig)
        return real(fig, path, tight)

    monkeypatch.setattr(reports.plots, "save_png", keep)
    monkeypatch.setattr(plots, "save_png", keep)
    return figures


def _height_of_steps_pre(line, x: float) -> float:
    """The height a 'steps-pre' line draws at x: y[i] over (x[i-1], x[i]]."""
    xs, ys = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
    return float(ys[np.searchsorted(xs, x, side="left")])


def _inside(ax, texts) -> None:
    renderer = ax.figure.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    for t in texts:
        extent = t.get_window_extent(renderer)
        assert extent.y0 >= box.y0 and extent.x1 <= box.x1 + 0.5 and extent.x0 >= box.x0, t.get_text()


@pytest.mark.parametrize("scores", [
    np.clip(np.random.default_rng(1).normal(38, 9, 4000), 0, None).round().astype(np.int64),
    np.r_[np.full(3000, 30), np.full(900, 50), np.full(4, 57)],  # a band reached by 0.1%, its bound near the edge
], ids=["spread", "top-band-near-the-edge"])
def test_ecdf_labels_give_the_share_the_axis_shows_and_stay_inside(scores, drawn, tmp_path):
    """Issue 33: the axis was "share with score ≤ x" while the labels gave the share reaching a band ("90.3% reach
    Captains+" drawn at y ≈ 10%), and a label overlapped the x-axis. Now each label's number is the curve's height
    at its band's bound. With the old curve (share ≤ x) the height there is 1 − the label's share: this fails."""
    plots.score_ecdf(scores, NAMES, BOUNDS, tmp_path / "ecdf.png")
    (fig,) = drawn
    ax = fig.axes[0]
    assert "or more" in ax.get_ylabel()
    (curve,) = [line for line in ax.lines if line.get_drawstyle() == "steps-pre"]
    labels = [t for t in ax.texts if "reach" in t.get_text()]
    x0, x1 = ax.get_xlim()
    assert len(labels) == sum(1 for lo in BOUNDS[1:] if x0 < lo - 0.5 < x1)  # every bound in view has its label
    for t in labels:
        share, name = re.fullmatch(r"([\d.]+)% reach\s(\w+)\+", t.get_text()).groups()
        lo = BOUNDS[NAMES.index(name)]
        expected = (scores >= lo).mean()
        assert float(share) == pytest.approx(100 * expected, abs=0.05)
        assert t.xy[1] == pytest.approx(expected)
        assert _height_of_steps_pre(curve, lo - 0.5) == pytest.approx(expected)
    _inside(ax, labels)


def test_a_spike_does_not_flatten_the_other_arms(drawn, tmp_path):
    """Issue 33: random's 55% spike at 0 set the axis, squashing the others to about a tenth of its height. Now the
    axis stops at 1.5x the second-highest peak (x 1.32 headroom), every other arm's peak is at least a quarter of
    it, and each cut bar's true height is written, once per run of adjacent bars (labels over each overlapped).
    With the axis set by the spike, greedy's peak would be about a seventh of it: this fails."""
    rng = np.random.default_rng(3)
    random = np.r_[np.zeros(3300, np.int64), np.ones(1500, np.int64), rng.integers(2, 12, 1200)]  # 55% and 25%
    arms = {"random": random,
            "greedy": np.clip(rng.normal(17, 5, 6000), 0, None).round().astype(np.int64),
            "lookahead": np.clip(rng.normal(45, 8, 6000), 0, None).round().astype(np.int64)}
    score_distributions(arms, NAMES, BOUNDS, tmp_path / "dist.png")
    (fig,) = drawn
    ax = fig.axes[0]
    top = ax.get_ylim()[1]
    peaks = {a: 100 * np.bincount(s).max() / s.size for a, s in arms.items()}
    assert peaks["random"] > top  # the spike is cut ...
    for arm in ("greedy", "lookahead"):
        assert peaks[arm] >= 0.25 * top, (arm, peaks[arm], top)
    cut = [t for t in ax.texts if "%" in t.get_text()]
    assert [t.get_text() for t in cut] == ["55, 25% at scores 0–1"]  # ... and its height written, once
    assert "cut" in ax.get_title()
    _inside(ax, cut)
