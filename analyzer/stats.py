"""Summary statistics for Monte-Carlo results (pure numpy/scipy, no game knowledge).

Every function returns plain Python floats/ints/lists so results can go straight into JSON.
Conventions (anchors_toolkit.md §4): Student-t intervals for continuous scores, Wilson score
intervals for proportions, paired differences for policy comparisons on common random numbers.

The ``*_counts`` variants take a histogram of integer values (``values``, ``counts``) instead of
the values themselves, so streaming runs of 10^8 games summarise in constant memory; they give
the same numbers as the per-value functions (sums are exact integers, percentiles follow numpy's
linear interpolation step by step).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from scipy.special import ndtri, stdtr, stdtrit  # not scipy.stats: 1 s to import, and CLI start-up counts

__all__ = [
    "binomial_logit",
    "clustered_correlation",
    "clustered_mean_ci",
    "clustered_wilson_ci",
    "mean_ci",
    "mean_ci_counts",
    "mean_half_widths",
    "wilson_ci",
    "wilson_half_widths",
    "percentiles",
    "percentiles_counts",
    "category_probabilities",
    "category_probabilities_counts",
    "excess_binomial_sd",
    "linear_fit",
    "paired_difference",
    "paired_share_ci",
    "paired_share_difference",
    "share_difference_ci",
    "bradley_terry",
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


def mean_ci(x, confidence: float = 0.95, support: tuple = (None, None)) -> dict:
    """Mean with a Student-t confidence interval.

    Returns ``{"n", "mean", "std" (ddof=1), "sem", "ci95": [lo, hi]}``. The key is ``ci95`` whatever
    ``confidence`` is (callers ask for 95 % in practice). A sample without spread gives no interval
    (both bounds ``None``: JSON null, reports "—") rather than a zero-wide one that would claim
    certainty: one value (std and sem ``None`` too), or values all equal (std and sem 0; scipy's
    t.interval is NaN there). ``support`` (low, high; None: unbounded) is the range the values can
    take: the interval is cut to it (the mean lies in it, so no coverage is lost; a small sample's t
    interval can otherwise reach negative scores or shares above 1). ``n == 0`` raises ``ValueError``.
    """
    confidence = _check_confidence(confidence)
    arr = _as_finite_1d(x)
    n = int(arr.size)
    if n == 0:
        raise ValueError("mean_ci needs at least one value")
    mean = float(arr.mean())
    if n == 1:
        return _single(mean)
    if arr.min() == arr.max():  # exactly: the float std of equal values need not be exactly 0
        return {"n": n, "mean": float(arr[0]), "std": 0.0, "sem": 0.0, "ci95": [None, None]}
    return _t_interval(n, mean, float(arr.std(ddof=1)), confidence, support)


def _single(mean: float) -> dict:
    return {"n": 1, "mean": mean, "std": None, "sem": None, "ci95": [None, None]}


def _t_interval(n: int, mean: float, std: float, confidence: float, support: tuple) -> dict:
    sem = std / math.sqrt(n)
    if sem == 0:
        return {"n": n, "mean": mean, "std": std, "sem": 0.0, "ci95": [None, None]}
    # Same as scipy.stats.t.interval(confidence, n-1, loc=mean, scale=sem).
    half = float(stdtrit(n - 1, 0.5 + 0.5 * confidence)) * sem
    return {"n": n, "mean": mean, "std": std, "sem": float(sem), "ci95": _within(mean - half, mean + half, support)}


NON_NEGATIVE, SHARE = (0, None), (0, 1)  # common supports: counts, scores and rates; shares


def _within(lo: float, hi: float, support: tuple) -> list[float]:
    """[lo, hi] cut to the support (low, high), either end None for unbounded."""
    low, high = support
    return [lo if low is None else max(lo, float(low)), hi if high is None else min(hi, float(high))]


def _check_histogram(values, counts) -> tuple[list[int], list[int]]:
    """Integer values (strictly increasing) and non-negative integer counts, as Python ints."""
    v = np.asarray(values).ravel()
    c = np.asarray(counts).ravel()
    if v.shape != c.shape:
        raise ValueError(f"values and counts must have the same length ({v.size} != {c.size})")
    if v.size and not (np.issubdtype(v.dtype, np.integer) and np.issubdtype(c.dtype, np.integer)):
        raise ValueError("histogram values and counts must be integers")
    if np.any(np.diff(v) <= 0):
        raise ValueError("histogram values must be strictly increasing")
    if np.any(c < 0):
        raise ValueError("histogram counts must be non-negative")
    return [int(x) for x in v], [int(x) for x in c]


def mean_ci_counts(values, counts, confidence: float = 0.95, support: tuple = (None, None)) -> dict:
    """``mean_ci`` of the sample holding ``counts[i]`` copies of ``values[i]`` (integers).

    Mean and variance come from exact integer sums, so they are correctly rounded whatever the
    sample size (``mean_ci`` agrees to floating-point summation error).
    """
    confidence = _check_confidence(confidence)
    vals, cnts = _check_histogram(values, counts)
    n = sum(cnts)
    if n == 0:
        raise ValueError("mean_ci_counts needs at least one value")
    s1 = sum(v * c for v, c in zip(vals, cnts))
    mean = s1 / n  # int / int: correctly rounded
    if n == 1:
        return _single(mean)
    s2 = sum(v * v * c for v, c in zip(vals, cnts))
    var = Fraction(n * s2 - s1 * s1, n * (n - 1))
    return _t_interval(n, mean, math.sqrt(var), confidence, support)


def mean_half_widths(n, total, total_sq, varies, confidence: float = 0.95) -> np.ndarray:
    """Student-t CI half-widths of many samples at once, from their size, sum and sum of squares.

    Vectorised for the ``--precision`` stopping rule, which checks every prefix of a run. As in
    ``mean_ci`` a sample without spread has no interval: entries with ``n < 2`` or ``varies`` false
    (every value equal; the caller knows it exactly, the float sums do not) are ``inf``. Integer
    sums give the same result however the games were chunked.
    """
    confidence = _check_confidence(confidence)
    n = np.asarray(n, dtype=np.float64)
    s1 = np.asarray(total, dtype=np.float64)
    s2 = np.asarray(total_sq, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(s2 - s1 * s1 / n, 0.0) / (n - 1)
        half = stdtrit(np.maximum(n - 1, 1), 0.5 + 0.5 * confidence) * np.sqrt(var / n)
    return np.where((n >= 2) & np.asarray(varies, bool), half, np.inf)


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
    lo, hi = _wilson_bounds(np.float64(k), np.float64(n), confidence)
    return (float(lo), float(hi))


def _wilson_bounds(k, n, confidence: float):
    """Wilson bounds for scalars or arrays (n >= 1)."""
    z = float(ndtri(0.5 + 0.5 * confidence))
    p = k / n
    q = 1.0 - p
    denom = 2.0 * (n + z * z)
    center = (2.0 * n * p + z * z) / denom
    delta = z / denom * np.sqrt(4.0 * n * p * q + z * z)
    return np.where(k == 0, 0.0, center - delta), np.where(k == n, 1.0, center + delta)


def clustered_mean_ci(x, clusters, confidence: float = 0.95, support: tuple = (None, None)) -> dict:
    """``mean_ci`` of values that come in correlated groups (the seats of one game).

    The interval is cluster-robust: the sandwich (CR1) variance of the mean over G groups, with a
    Student t on G − 1 degrees of freedom. With one value per group it is ``mean_ci``; with groups
    of equal size, the t interval of the group means. Adds ``"clusters": G``; ``std`` is the
    values' own. Fewer than two groups, or no spread between them: no interval (``None``).
    ``support`` as for ``mean_ci``.
    """
    confidence = _check_confidence(confidence)
    arr = _as_finite_1d(x)
    groups = np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    if groups.size != arr.size:
        raise ValueError(f"x and clusters must have the same length ({arr.size} != {groups.size})")
    plain = mean_ci(arr, confidence)
    n, g, mean = plain["n"], int(groups.max()) + 1, plain["mean"]
    resid = np.bincount(groups, weights=arr - mean, minlength=g)  # each group's sum of deviations
    sem = math.sqrt(g / (g - 1) * float(resid @ resid)) / n if g > 1 else 0.0
    out = plain | {"clusters": g, "sem": sem if g > 1 else None, "ci95": [None, None]}
    if g > 1 and sem > 0 and plain["ci95"][0] is not None:
        half = float(stdtrit(g - 1, 0.5 + 0.5 * confidence)) * sem
        out["ci95"] = _within(mean - half, mean + half, support)
    return out


def clustered_wilson_ci(hits, clusters, confidence: float = 0.95) -> tuple[float, float]:
    """``wilson_ci`` of yes/no outcomes that come in correlated groups (the seats of one game).

    Wilson's interval on the effective sample size n / design effect (Kish), the design effect
    being the clustered variance of the share over the independent one. It is at least one
    outcome per group (every group's outcomes alike) and at most n (independent outcomes: exactly
    ``wilson_ci``); a share of 0 or 1 shows no variance, so it gets the smallest, one per group.
    """
    confidence = _check_confidence(confidence)
    y = np.asarray(hits, bool).ravel().astype(np.float64)
    groups = np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    if groups.size != y.size or y.size == 0:
        raise ValueError(f"hits and clusters must have the same, non-zero length ({y.size}, {groups.size})")
    n, g = y.size, int(groups.max()) + 1
    p = y.mean()
    resid = np.bincount(groups, weights=y - p, minlength=g)
    spread = float(resid @ resid)
    n_eff = g if spread == 0 else min(max(n * n * p * (1 - p) / spread, g), n)
    lo, hi = _wilson_bounds(np.float64(p * n_eff), np.float64(n_eff), confidence)
    return (float(lo), float(hi))


def clustered_wilson_ci_counts(sums, counts, group_size: int, confidence: float = 0.95) -> tuple[float, float]:
    """``clustered_wilson_ci`` of groups of ``group_size`` outcomes each, from how many groups (``counts[i]``) had
    ``sums[i]`` yes outcomes: the same interval without the outcomes themselves (streaming aggregates)."""
    confidence = _check_confidence(confidence)
    k = np.asarray(sums, np.float64).ravel()
    c = np.asarray(counts, np.float64).ravel()
    g = float(c.sum())
    if k.shape != c.shape or g == 0 or group_size < 1 or np.any(c < 0) or np.any((k < 0) | (k > group_size)):
        raise ValueError("sums and counts must have the same, non-zero length, sums within 0..group_size")
    n = g * group_size
    p = float(k @ c) / n
    spread = float(((k - p * group_size) ** 2) @ c)
    n_eff = g if spread == 0 else min(max(n * n * p * (1 - p) / spread, g), n)
    lo, hi = _wilson_bounds(np.float64(p * n_eff), np.float64(n_eff), confidence)
    return (float(lo), float(hi))


def paired_share_difference(a, b, confidence: float = 0.95) -> dict:
    """Difference of two shares measured on the same games (``a[i]``, ``b[i]`` yes/no).

    Newcombe's hybrid score interval for paired proportions (Statist. Med. 17, 2635-2650, 1998,
    method 10): each share's Wilson interval, joined through the pairs' phi correlation. Unlike a
    t interval on the 0/1 differences it exists for a single game and keeps near its nominal
    coverage for small samples and shares near 0 or 1. Returns ``{"n", "mean_diff", "ci95",
    "p_better", "p_worse", "p_tie"}`` (``p_better``: share of games with a yes and b no).
    """
    xa, xb = np.asarray(a, bool).ravel(), np.asarray(b, bool).ravel()
    if xa.shape != xb.shape or xa.size == 0:
        raise ValueError(f"a and b must have the same, non-zero length ({xa.size}, {xb.size})")
    both, only_a, only_b = int(np.sum(xa & xb)), int(np.sum(xa & ~xb)), int(np.sum(~xa & xb))
    n = xa.size
    lo, hi = paired_share_ci(both, only_a, only_b, n - both - only_a - only_b, confidence)
    return {"n": n, "mean_diff": (only_a - only_b) / n, "ci95": [lo, hi], "p_better": only_a / n,
            "p_worse": only_b / n, "p_tie": (n - only_a - only_b) / n}


def paired_share_ci(both: int, only_a: int, only_b: int, neither: int,
                    confidence: float = 0.95) -> tuple[float, float]:
    """``paired_share_difference``'s interval from the four counts of the paired 2 x 2 table."""
    confidence = _check_confidence(confidence)
    n = both + only_a + only_b + neither
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = wilson_ci(both + only_a, n, confidence)
    l2, u2 = wilson_ci(both + only_b, n, confidence)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    cross = both * neither - only_a * only_b
    # Newcombe's phi: a positive association is shrunk by n/2 (never below 0); none when a margin is empty
    shrunk = max(cross - n / 2, 0.0) if cross > 0 else float(cross)
    phi = shrunk / math.sqrt(margins) if margins else 0.0
    return _square_and_add(p1, l1, u1, p2, l2, u2, phi)


def _square_and_add(p1, l1, u1, p2, l2, u2, phi: float) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p1 - p2 from the two shares' Wilson intervals, joined through their
    correlation phi (0 for independent samples)."""
    d = p1 - p2
    lo = d - math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    hi = d + math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return (max(lo, -1.0), min(hi, 1.0))


def share_difference_ci(k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95) -> tuple[float, float]:
    """Interval for k1/n1 - k2/n2, two shares of independent samples (the seat-1 win rates of two scenarios).

    Newcombe's hybrid score interval (Statist. Med. 17, 873-890, 1998, method 10): the two Wilson intervals
    squared and added; it keeps near its nominal coverage for small samples and shares near 0 or 1.
    """
    confidence = _check_confidence(confidence)
    l1, u1 = wilson_ci(k1, n1, confidence)
    l2, u2 = wilson_ci(k2, n2, confidence)
    return _square_and_add(k1 / n1, l1, u1, k2 / n2, l2, u2, 0.0)


def bradley_terry(winners, fields, clusters=None, confidence: float = 0.95, max_iter: int = 200) -> dict:
    """Bradley-Terry strengths of entrants from contests that one of them wins (Luce's choice model).

    In contest i entrant k fills ``fields[i, k]`` of the places (0: absent) and wins with probability
    ``fields[i, k] * s_k / sum_j fields[i, j] * s_j``: with two places Bradley and Terry's model (1952), with
    more the first place of Plackett-Luce. ``winners[i]``: the index of the entrant that won contest i, or -1
    (no winner: the contest is left out). The log-strengths are fitted by maximum likelihood (Newton's method),
    centred on 0, so a strength is relative to the geometric mean of the entrants: strengths s_a and s_b say a
    wins s_a / (s_a + s_b) of the contests between the two.

    The intervals use the sandwich variance clustered by ``clusters`` (contests of one game, played once per
    seating on the same board and dice, share its luck; None: every contest its own cluster), with a normal
    quantile. Returns ``{"log_strength", "strength", "se", "se_model", "ci95" (of the strength), "contests",
    "clusters", "iterations"}``; where the likelihood has no maximum (an entrant won no contest, or won every
    one it played), ``{"estimable": False, "reason": ...}`` instead of figures.
    """
    confidence = _check_confidence(confidence)
    f = np.asarray(fields)
    w = np.asarray(winners).ravel()
    if f.ndim != 2 or f.shape[0] != w.size or f.shape[1] < 2 or f.shape[0] == 0:
        raise ValueError("fields must be [contests, entrants >= 2] with one winner per contest")
    if np.any(f < 0) or not np.issubdtype(f.dtype, np.integer) or not np.issubdtype(w.dtype, np.integer):
        raise ValueError("fields must be non-negative integers and winners integer entrant indices")
    a = f.shape[1]
    groups = np.arange(w.size) if clusters is None else np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    if groups.size != w.size:
        raise ValueError("clusters must give one cluster per contest")
    decided = w >= 0
    if np.any(w >= a) or np.any(f[decided, w[decided]] == 0):
        raise ValueError("a winner must be an entrant present in its contest")
    f, w, groups = f[decided], w[decided], groups[decided]
    wins = np.bincount(w, minlength=a).astype(np.float64)
    present = np.bincount(np.nonzero(f)[1], minlength=a)
    losses = present - np.bincount(w, minlength=a)  # contests the entrant played and another won
    for k in range(a):
        if wins[k] == 0 or losses[k] == 0:
            return {"estimable": False, "contests": int(w.size),
                    "reason": f"entrant {k} " + ("played no contest with a winner" if present[k] == 0 else
                                                 "won no contest" if wins[k] == 0 else "won every contest it played")}
    rows, row_of = np.unique(f, axis=0, return_inverse=True)
    rows = rows.astype(np.float64)
    per_row = np.bincount(row_of.ravel(), minlength=len(rows)).astype(np.float64)

    def fit_at(theta):
        weight = rows * np.exp(theta)
        total = weight.sum(axis=1, keepdims=True)
        pi = weight / total
        loglik = float(wins @ theta - per_row @ np.log(total[:, 0]))  # (+ the constant sum of log fields)
        info = np.einsum("u,uk,uj->kj", per_row, pi, pi)
        info = np.diag(per_row @ pi) - info
        return loglik, wins - per_row @ pi, info, pi

    theta = np.zeros(a)
    loglik, grad, info, pi = fit_at(theta)
    ones = np.ones((a, a))
    for iteration in range(1, max_iter + 1):
        step = np.linalg.solve(info + ones, grad)  # grad sums to 0, so the step does too: theta stays centred
        t = 1.0
        while True:  # the log-likelihood is concave: halve a step that overshoots
            new = fit_at(theta + t * step)
            if new[0] >= loglik - 1e-12 * abs(loglik) or t < 1e-8:
                break
            t /= 2
        theta = theta + t * step
        loglik, grad, info, pi = new
        if np.max(np.abs(t * step)) < 1e-12:
            break
    if not np.all(np.isfinite(theta)) or np.max(np.abs(theta)) > 30 or np.max(np.abs(grad)) > 1e-6 * w.size:
        return {"estimable": False, "contests": int(w.size),
                "reason": "the contests do not tie every entrant to the others (no finite maximum)"}
    # The inverse on the centred log-strengths: info is singular along (1, ..., 1) only, so inv(info + c J) - J / c
    # (J = ones / a) is its pseudo-inverse exactly; a numerical pinv can keep that null direction when one
    # entrant's share is tiny and return a zero (or a huge) variance.
    centre = np.ones((a, a)) / a
    scale = max(float(np.trace(info)) / a, np.finfo(float).tiny)
    try:
        cov_model = np.linalg.inv(info + scale * centre) - centre / scale
    except np.linalg.LinAlgError:
        cov_model = np.full((a, a), np.nan)
    n_groups = int(groups.max()) + 1
    scores = np.zeros((n_groups, a))
    np.add.at(scores, (groups, w), 1.0)
    expected = pi[row_of.ravel()]
    for k in range(a):
        scores[:, k] -= np.bincount(groups, weights=expected[:, k], minlength=n_groups)
    used = np.unique(groups).size
    meat = scores.T @ scores * (used / (used - 1) if used > 1 else 1.0)
    cov = cov_model @ meat @ cov_model
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    if not (np.all(np.isfinite(se)) and np.all(se > 0)):  # never an interval of zero width for a fitted strength
        return {"estimable": False, "contests": int(w.size),
                "reason": "the fit gives no finite, non-zero standard error (an entrant too rarely won or lost)"}
    z = float(ndtri(0.5 + 0.5 * confidence))
    return {"estimable": True, "log_strength": theta.tolist(), "strength": np.exp(theta).tolist(),
            "se": se.tolist(), "se_model": np.sqrt(np.maximum(np.diag(cov_model), 0.0)).tolist(),
            "ci95": [[float(np.exp(t - z * e)), float(np.exp(t + z * e))] for t, e in zip(theta, se)],
            "contests": int(w.size), "clusters": used, "iterations": iteration}


def wilson_half_widths(k, n, confidence: float = 0.95) -> np.ndarray:
    """Half-widths of Wilson intervals for many (successes, trials) pairs at once (n >= 1)."""
    confidence = _check_confidence(confidence)
    lo, hi = _wilson_bounds(np.asarray(k, np.float64), np.asarray(n, np.float64), confidence)
    return (hi - lo) / 2.0


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


def percentiles_counts(values, counts, qs: Sequence[float] = (5, 25, 50, 75, 95)) -> dict:
    """``percentiles`` of the sample holding ``counts[i]`` copies of ``values[i]``, bit for bit.

    Replays numpy's default ("linear") method: virtual index (n-1)*q/100 into the sorted sample,
    then numpy's two-sided lerp between the neighbouring order statistics.
    """
    vals, cnts = _check_histogram(values, counts)
    n = sum(cnts)
    if n == 0:
        raise ValueError("percentiles_counts needs at least one value")
    cum = np.cumsum(cnts)
    order_stat = lambda i: float(vals[int(np.searchsorted(cum, i, side="right"))])  # noqa: E731 (i-th sorted)
    out = {}
    for q in qs:
        q = float(q)
        if not 0.0 <= q <= 100.0:
            raise ValueError(f"percentile {q} outside [0, 100]")
        virtual = (n - 1) * np.true_divide(q, 100)
        if virtual >= n - 1:
            out[_pct_key(q)] = order_stat(n - 1)
            continue
        prev = math.floor(virtual)
        a, b, t = order_stat(prev), order_stat(prev + 1), virtual - prev
        out[_pct_key(q)] = float(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)
    return out


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
    return category_probabilities_counts(np.bincount(arr.astype(np.int64), minlength=len(names)), names,
                                         confidence)


def category_probabilities_counts(counts, names: Sequence[str], confidence: float = 0.95) -> dict:
    """``category_probabilities`` from the count of each category (``counts[i]`` for ``names[i]``)."""
    names = list(names)
    counts = [int(c) for c in np.asarray(counts).ravel()]
    if len(counts) != len(names):
        raise ValueError(f"{len(counts)} counts for {len(names)} categories")
    if len(set(names)) != len(names):
        raise ValueError("category names must be unique")
    n = sum(counts)
    if n == 0:
        raise ValueError("category_probabilities needs at least one code")
    out = {}
    for name, c in zip(names, counts):
        lo, hi = wilson_ci(c, n, confidence)
        out[name] = {"count": c, "p": c / n, "ci95": [lo, hi]}
    return out


def paired_difference(a, b, confidence: float = 0.95) -> dict:
    """Paired comparison of two policies played on the same seeds (common random numbers).

    ``d = a - b`` per game. Returns ``{"n", "mean_diff", "std_diff", "sem_diff", "ci95" (Student-t on
    d), "p_better" (share a > b), "p_worse" (share a < b), "p_tie", "p_value"}``. ``p_value`` is the
    two-sided ``scipy.stats.ttest_rel`` p-value. As in ``mean_ci``, differences without spread (a
    single pair, or every difference equal) give no interval and no p-value (``None``; scipy's is
    NaN there).
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
    if mc["ci95"][0] is None:
        p_value = None
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


def excess_binomial_sd(successes, trials: int, confidence: float = 0.95, resamples: int = 2000,
                       seed: int = 0) -> dict:
    """How much a success probability truly differs between groups (boards), beyond the binomial noise of
    ``trials`` outcomes per group: the method-of-moments estimate of the between-group variance,

        var(p̂, ddof=1) − mean(p̂ (1 − p̂)) / (trials − 1),

    unbiased for the variance of the groups' true probabilities (E[p̂(1 − p̂)] = p(1 − p)(n − 1)/n). Returns
    ``{"groups", "trials", "observed_sd", "noise_sd", "sd", "ci95"}``: the observed sd of the groups' shares,
    the sd the noise alone would give, and sqrt(max(estimate, 0)) with a percentile bootstrap interval over the
    groups (``resamples`` draws from ``seed``; no interval with fewer than 2 groups)."""
    confidence = _check_confidence(confidence)
    k = _as_finite_1d(successes, "successes")
    if trials < 2 or k.size == 0 or np.any((k < 0) | (k > trials)):
        raise ValueError("excess_binomial_sd needs trials >= 2 and successes within 0..trials")
    p = k / trials

    def between(share: np.ndarray) -> np.ndarray:  # rows: resamples
        noise = (share * (1 - share)).mean(axis=-1) / (trials - 1)
        return share.var(axis=-1, ddof=1) - noise

    g = p.size
    out = {"groups": int(g), "trials": int(trials), "observed_sd": float(p.std(ddof=1)) if g > 1 else None,
           "noise_sd": float(math.sqrt((p * (1 - p)).mean() / (trials - 1))), "sd": None, "ci95": [None, None]}
    if g < 2:
        return out
    out["sd"] = float(math.sqrt(max(float(between(p)), 0.0)))
    draws = np.random.default_rng(seed).integers(0, g, (resamples, g))
    sds = np.sqrt(np.maximum(between(p[draws]), 0.0))
    tail = 50 * (1 - confidence)
    out["ci95"] = [float(np.percentile(sds, tail)), float(np.percentile(sds, 100 - tail))]
    return out


def clustered_correlation(x, y, clusters, confidence: float = 0.95, resamples: int = 2000, seed: int = 0) -> dict:
    """Pearson's r of paired values that come in correlated groups (the seats of one board), with a percentile
    bootstrap interval over the groups (``resamples`` draws from ``seed``). Returns ``{"n", "clusters", "r",
    "ci95", "slope", "slope_ci95"}``, slope: the least-squares slope of y on x with its bootstrap interval."""
    confidence = _check_confidence(confidence)
    xs, ys = _as_finite_1d(x, "x"), _as_finite_1d(y, "y")
    groups = np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    if not xs.size == ys.size == groups.size or xs.size < 3:
        raise ValueError("x, y and clusters must have the same length, at least 3")
    g = int(groups.max()) + 1
    # per group the sums a resample adds up: n, Σx, Σy, Σx², Σy², Σxy
    sums = np.stack([np.bincount(groups, w, minlength=g) for w in
                     (np.ones_like(xs), xs, ys, xs * xs, ys * ys, xs * ys)], axis=1)

    def r_and_slope(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n, sx, sy, sxx, syy, sxy = np.moveaxis(s, -1, 0)
        cxx, cyy, cxy = sxx - sx * sx / n, syy - sy * sy / n, sxy - sx * sy / n
        with np.errstate(divide="ignore", invalid="ignore"):
            return cxy / np.sqrt(cxx * cyy), cxy / cxx

    r, slope = r_and_slope(sums.sum(axis=0))
    out = {"n": int(xs.size), "clusters": g, "r": float(r), "ci95": [None, None], "slope": float(slope),
           "slope_ci95": [None, None]}
    if g < 2 or not np.isfinite(r):
        return out
    draws = np.random.default_rng(seed).integers(0, g, (resamples, g))
    rs, slopes = r_and_slope(sums[draws].sum(axis=1))
    tail = 50 * (1 - confidence)
    ok = np.isfinite(rs)
    out["ci95"] = [float(np.percentile(rs[ok], tail)), float(np.percentile(rs[ok], 100 - tail))]
    out["slope_ci95"] = [float(np.percentile(slopes[ok], tail)), float(np.percentile(slopes[ok], 100 - tail))]
    return out


def binomial_logit(successes, trials, features, names: Sequence[str], clusters=None,
                   confidence: float = 0.95) -> dict:
    """Logistic regression of ``successes`` out of ``trials`` per row on ``features`` (float [rows, k], an
    intercept added), by statsmodels' GLM (binomial family, logit link); with ``clusters``, cluster-robust
    covariance (rows of one group are not independent). Returns ``{"rows", "terms": [{"name", "coef", "se",
    "ci95", "odds_ratio", "odds_ratio_ci95", "p_value"}, ...] (intercept first), "deviance_explained"
    (1 − deviance / null deviance: McFadden-like share of the outcome's deviance the features explain), "warnings"
    (what statsmodels warned of, e.g. perfect separation: the terms may then not be identified)}."""
    import statsmodels.api as sm  # a second to import: only the commands that fit a model pay it

    confidence = _check_confidence(confidence)
    k = _as_finite_1d(successes, "successes")
    n = np.broadcast_to(np.asarray(trials, np.float64), k.shape)
    X = np.asarray(features, np.float64).reshape(k.size, -1)
    if X.shape[1] != len(names) or not np.all(np.isfinite(X)):
        raise ValueError("features must be finite, one column per name")
    model = sm.GLM(np.column_stack([k, n - k]), sm.add_constant(X, has_constant="add"),
                   family=sm.families.Binomial())
    groups = None if clusters is None else np.unique(np.asarray(clusters).ravel(), return_inverse=True)[1]
    with warnings.catch_warnings(record=True) as caught:  # separation, a singular design: kept for the report
        warnings.simplefilter("always")
        try:
            fit = model.fit() if groups is None else model.fit(cov_type="cluster", cov_kwds={"groups": groups})
            ci = np.asarray(fit.conf_int(alpha=1 - confidence))
        except np.linalg.LinAlgError as exc:  # features that move together (or a seat that always wins)
            return {"rows": int(k.size), "clustered": groups is not None, "estimable": False,
                    "reason": f"the fit has no unique answer ({exc}): features that vary together, or an "
                              "outcome they separate exactly"}
    if not (np.all(np.isfinite(fit.params)) and np.all(np.isfinite(ci))):
        return {"rows": int(k.size), "clustered": groups is not None, "estimable": False,
                "reason": "the fit has no finite answer (an outcome the features separate exactly)"}
    terms = []
    for i, name in enumerate(["intercept", *names]):
        terms.append({"name": name, "coef": float(fit.params[i]), "se": float(fit.bse[i]),
                      "ci95": [float(ci[i, 0]), float(ci[i, 1])], "odds_ratio": float(np.exp(fit.params[i])),
                      "odds_ratio_ci95": [float(np.exp(ci[i, 0])), float(np.exp(ci[i, 1]))],
                      "p_value": float(fit.pvalues[i])})
    return {"rows": int(k.size), "clustered": groups is not None, "estimable": True, "terms": terms,
            "deviance_explained": float(1 - fit.deviance / fit.null_deviance) if fit.null_deviance > 0 else None,
            "warnings": sorted({str(w.message).splitlines()[0] for w in caught})}


def linear_fit(y, features, names: Sequence[str], confidence: float = 0.95) -> dict:
    """Least squares of ``y`` on ``features`` (float [rows, k], an intercept added) by statsmodels' OLS, with
    heteroscedasticity-robust (HC3) standard errors. Returns ``{"rows", "terms": [{"name", "coef", "se", "ci95",
    "p_value"}, ...] (intercept first), "r2"}``."""
    import statsmodels.api as sm

    confidence = _check_confidence(confidence)
    ys = _as_finite_1d(y, "y")
    X = np.asarray(features, np.float64).reshape(ys.size, -1)
    if X.shape[1] != len(names) or not np.all(np.isfinite(X)) or ys.size <= X.shape[1] + 1:
        raise ValueError("features must be finite, one column per name, with more rows than terms")
    fit = sm.OLS(ys, sm.add_constant(X, has_constant="add")).fit(cov_type="HC3")
    ci = np.asarray(fit.conf_int(alpha=1 - confidence))
    terms = [{"name": name, "coef": float(fit.params[i]), "se": float(fit.bse[i]),
              "ci95": [float(ci[i, 0]), float(ci[i, 1])], "p_value": float(fit.pvalues[i])}
             for i, name in enumerate(["intercept", *names])]
    return {"rows": int(ys.size), "terms": terms, "r2": float(fit.rsquared)}
