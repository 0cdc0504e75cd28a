"""Summary statistics for Monte-Carlo results (pure numpy/scipy, no game knowledge).

Every function returns plain Python floats/ints/lists so results can go straight into JSON.
Conventions (anchors_toolkit.md §4): Student-t intervals for continuous scores, Wilson score
intervals for proportions, paired differences for policy comparisons on common random numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import ndtri, stdtr, stdtrit  # not scipy.stats: 1 s to import, and CLI start-up counts

__all__ = [
    "mean_ci",
    "wilson_ci",
    "percentiles",
    "category_probabilities",
    "paired_difference",
]


def _check_confidence(confidence: float) -> float:
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return confidence


def _as_finite_1d(x, name: str = "x") -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64).ravel()
    if arr.size and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr


def mean_ci(x, confidence: float = 0.95) -> dict:
    """Mean with a Student-t confidence interval.

    Returns ``{"n", "mean", "std" (ddof=1), "sem", "ci95": [lo, hi]}``. The key is ``ci95`` whatever
    ``confidence`` is (callers ask for 95 % in practice). ``n == 1`` gives std/sem 0 and a degenerate
    interval ``[mean, mean]``; ``n == 0`` raises ``ValueError``.
    """
    confidence = _check_confidence(confidence)
    arr = _as_finite_1d(x)
    n = int(arr.size)
    if n == 0:
        raise ValueError("mean_ci needs at least one value")
    mean = float(arr.mean())
    if n == 1:
        return {"n": 1, "mean": mean, "std": 0.0, "sem": 0.0, "ci95": [mean, mean]}
    std = float(arr.std(ddof=1))
    sem = std / math.sqrt(n)
    # Same as scipy.stats.t.interval(confidence, n-1, loc=mean, scale=sem), but also valid for sem == 0.
    half = float(stdtrit(n - 1, 0.5 + 0.5 * confidence)) * sem
    return {"n": n, "mean": mean, "std": std, "sem": float(sem), "ci95": [mean - half, mean + half]}


def wilson_ci(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials.

    Identical to ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method="wilson")``
    (Newcombe 1998 formulas; lower bound exactly 0 when k == 0, upper exactly 1 when k == n).
    """
    confidence = _check_confidence(confidence)
    k = int(k)
    n = int(n)
    if n <= 0:
        raise ValueError(f"wilson_ci needs n >= 1, got n={n}")
    if not 0 <= k <= n:
        raise ValueError(f"wilson_ci needs 0 <= k <= n, got k={k}, n={n}")
    z = float(ndtri(0.5 + 0.5 * confidence))
    p = k / n
    q = 1.0 - p
    denom = 2.0 * (n + z * z)
    center = (2.0 * n * p + z * z) / denom
    delta = z / denom * math.sqrt(4.0 * n * p * q + z * z)
    lo = 0.0 if k == 0 else center - delta
    hi = 1.0 if k == n else center + delta
    return (float(lo), float(hi))


def _pct_key(q: float) -> str:
    return f"p{float(q):g}"


def percentiles(x, qs: Sequence[float] = (5, 25, 50, 75, 95)) -> dict:
    """Percentiles with numpy's default linear interpolation: ``{"p5": .., "p25": .., ...}``."""
    arr = _as_finite_1d(x)
    if arr.size == 0:
        raise ValueError("percentiles needs at least one value")
    qs = [float(q) for q in qs]
    for q in qs:
        if not 0.0 <= q <= 100.0:
            raise ValueError(f"percentile {q} outside [0, 100]")
    values = np.percentile(arr, qs)
    return {_pct_key(q): float(v) for q, v in zip(qs, values)}


def category_probabilities(codes, names: Sequence[str], confidence: float = 0.95) -> dict:
    """Share of each category with a Wilson interval.

    ``codes`` are integer indices into ``names``. Returns ``{name: {"count", "p", "ci95": [lo, hi]}}``
    for every name, zero counts included, in ``names`` order.
    """
    names = list(names)
    arr = np.asarray(codes).ravel()
    if arr.size == 0:
        raise ValueError("category_probabilities needs at least one code")
    if not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError("codes must be integers")
    if arr.min() < 0 or arr.max() >= len(names):
        raise ValueError(f"codes must lie in [0, {len(names) - 1}]")
    if len(set(names)) != len(names):
        raise ValueError("category names must be unique")
    n = int(arr.size)
    counts = np.bincount(arr.astype(np.int64), minlength=len(names))
    out = {}
    for name, c in zip(names, counts):
        c = int(c)
        lo, hi = wilson_ci(c, n, confidence)
        out[name] = {"count": c, "p": c / n, "ci95": [lo, hi]}
    return out


def paired_difference(a, b, confidence: float = 0.95) -> dict:
    """Paired comparison of two policies played on the same seeds (common random numbers).

    ``d = a - b`` per game. Returns ``{"n", "mean_diff", "std_diff", "sem_diff", "ci95" (Student-t on
    d), "p_better" (share a > b), "p_worse" (share a < b), "p_tie", "p_value"}``. ``p_value`` is the
    two-sided ``scipy.stats.ttest_rel`` p-value; when every difference is equal (zero variance) it is
    1.0 for an all-zero difference and 0.0 otherwise; with a single pair it is ``None``.
    """
    confidence = _check_confidence(confidence)
    xa = _as_finite_1d(a, "a")
    xb = _as_finite_1d(b, "b")
    if xa.shape != xb.shape:
        raise ValueError(f"a and b must have the same length ({xa.size} != {xb.size})")
    if xa.size == 0:
        raise ValueError("paired_difference needs at least one pair")
    d = xa - xb
    mc = mean_ci(d, confidence)
    n = mc["n"]
    if n < 2:
        p_value = None
    elif mc["std"] == 0.0:
        p_value = 1.0 if mc["mean"] == 0.0 else 0.0
    else:
        t = mc["mean"] / mc["sem"]  # paired t statistic, as scipy.stats.ttest_rel
        p_value = float(2.0 * stdtr(n - 1, -abs(t)))
    return {
        "n": n,
        "mean_diff": mc["mean"],
        "std_diff": mc["std"],
        "sem_diff": mc["sem"],
        "ci95": mc["ci95"],
        "p_better": float(np.count_nonzero(d > 0) / n),
        "p_worse": float(np.count_nonzero(d < 0) / n),
        "p_tie": float(np.count_nonzero(d == 0) / n),
        "p_value": p_value,
    }
