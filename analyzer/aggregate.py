"""Streaming aggregates and the --precision stopping rule: constant memory however many games.

Game kernels return small integers (scores, counts, ranks), so one histogram per result column
holds everything a summary needs exactly: count, sum, mean, std, min, max, percentiles, category
counts. The runner folds chunks in game-index order, so "first game with the maximum" is the same
game that ``np.argmax`` finds on the full table.
"""

from __future__ import annotations

import numpy as np

from analyzer import stats
from analyzer.job import Statistic


class ColumnStats:
    """Per-column integer histograms of every game folded in, plus the first game holding each maximum and minimum."""

    def __init__(self, n_cols: int):
        self.n_cols = n_cols
        self.games = 0
        self._lo = np.zeros(n_cols, np.int64)  # value of counts[k][0]
        self._counts: list[np.ndarray] = [np.zeros(0, np.int64) for _ in range(n_cols)]
        self._argmax = np.full(n_cols, -1, np.int64)
        self._max = np.zeros(n_cols, np.int64)
        self._argmin = np.full(n_cols, -1, np.int64)
        self._min = np.zeros(n_cols, np.int64)

    def fold(self, start: int, block: np.ndarray) -> None:
        """Add games start .. start + block.shape[1] - 1 (block: [n_cols, games], integers)."""
        if not np.issubdtype(block.dtype, np.integer):
            raise TypeError(f"ColumnStats needs integer columns, got {block.dtype}")
        n = block.shape[1]
        if n == 0:
            return
        wide = block.astype(np.int64, copy=False)
        lows, highs = wide.min(axis=1), wide.max(axis=1)
        first_max, first_min = wide.argmax(axis=1), wide.argmin(axis=1)
        for k in range(self.n_cols):
            self._grow(k, int(lows[k]), int(highs[k]))
            self._counts[k] += np.bincount(wide[k] - self._lo[k], minlength=self._counts[k].size)
            if self._argmax[k] < 0 or highs[k] > self._max[k]:  # ties keep the earlier game
                self._max[k], self._argmax[k] = highs[k], start + first_max[k]
            if self._argmin[k] < 0 or lows[k] < self._min[k]:
                self._min[k], self._argmin[k] = lows[k], start + first_min[k]
        self.games += n

    def _grow(self, k: int, low: int, high: int) -> None:
        counts = self._counts[k]
        if counts.size == 0:
            self._lo[k], self._counts[k] = low, np.zeros(high - low + 1, np.int64)
            return
        lo = min(low, int(self._lo[k]))
        hi = max(high, int(self._lo[k]) + counts.size - 1)
        if lo == self._lo[k] and hi - lo + 1 == counts.size:
            return
        grown = np.zeros(hi - lo + 1, np.int64)
        grown[self._lo[k] - lo:self._lo[k] - lo + counts.size] = counts
        self._lo[k], self._counts[k] = lo, grown

    def histogram(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(values, counts) of column k, values that occurred only, increasing."""
        counts = self._counts[k]
        nz = np.flatnonzero(counts)
        return self._lo[k] + nz, counts[nz]

    def category_counts(self, k: int, n_categories: int) -> np.ndarray:
        """Counts of codes 0 .. n_categories-1 in column k (a category column such as a rank)."""
        values, counts = self.histogram(k)
        if values.size and (values[0] < 0 or values[-1] >= n_categories):
            raise ValueError(f"column {k} holds codes outside 0..{n_categories - 1}")
        out = np.zeros(n_categories, np.int64)
        out[values] = counts
        return out

    def argmax(self, k: int) -> int:
        """Index of the first game with the largest value in column k."""
        return int(self._argmax[k])

    def argmin(self, k: int) -> int:
        """Index of the first game with the smallest value in column k."""
        return int(self._argmin[k])

    def describe(self, k: int) -> dict:
        """Mean, std (ddof=1), min and max of column k."""
        values, counts = self.histogram(k)
        m = stats.mean_ci_counts(values, counts)
        return {"mean": m["mean"], "std": m["std"], "min": int(values[0]), "max": int(values[-1])}


class PrecisionRule:
    """Stop at the first game count n >= min_games whose 95% CI half-width is <= target.

    Fed the statistic's column of every game in game-index order, it checks every prefix length
    (not only chunk ends), so the stopping point depends on the seed alone — never on chunk
    sizes, thread counts, backends or the order chunks finished in.
    """

    def __init__(self, statistic: Statistic, target: float, min_games: int):
        self.statistic = statistic
        self.target = target
        self.min_games = max(min_games, 2)
        self.n = 0
        self._s1 = 0  # running sum (successes for a proportion)
        self._s2 = 0  # running sum of squares
        self._low, self._high = np.iinfo(np.int64).max, np.iinfo(np.int64).min  # do the values vary yet?
        self._counts = np.zeros(statistic.value if statistic.kind == "categories" else 0, np.int64)  # per category
        self.half_width = float("inf")  # at the last game seen

    def scan(self, values: np.ndarray) -> int | None:
        """Take the next games' values; returns how many of them the run keeps if it stops here."""
        v = np.asarray(values, np.int64)
        if v.size == 0:
            return None
        if self.statistic.kind == "proportion":
            v = (v == self.statistic.value).astype(np.int64)
        n = self.n + np.arange(1, v.size + 1)
        s1 = self._s1 + np.cumsum(v)
        s2 = self._s2 + np.cumsum(v * v)
        if self.statistic.kind == "mean":
            low = np.minimum.accumulate(np.minimum(v, self._low))
            high = np.maximum.accumulate(np.maximum(v, self._high))
            half = stats.mean_half_widths(n, s1, s2, varies=low < high)
        elif self.statistic.kind == "categories":  # each category's running count; the widest interval
            counts = self._counts[:, None] + np.cumsum(v[None, :] == np.arange(self._counts.size)[:, None], axis=1)
            half = stats.wilson_half_widths(counts, n[None, :]).max(axis=0)
        else:
            half = stats.wilson_half_widths(s1, n)
        met = np.flatnonzero((half <= self.target) & (n >= self.min_games))
        take = int(met[0]) + 1 if met.size else v.size
        self.n, self._s1, self._s2 = int(n[take - 1]), int(s1[take - 1]), int(s2[take - 1])
        if self.statistic.kind == "mean":
            self._low, self._high = int(low[take - 1]), int(high[take - 1])
        if self.statistic.kind == "categories":
            self._counts = counts[:, take - 1].copy()
        self.half_width = float(half[take - 1])
        return take if met.size else None
