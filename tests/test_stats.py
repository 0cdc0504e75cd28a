import json
import math

import numpy as np
import pytest
from scipy import stats as st

from analyzer import stats

DATA = np.array([31, 42, 38, 27, 45, 39, 36, 40, 33, 51, 29, 38], dtype=np.int64)


def _plain(obj):
    """Round-trip through strict JSON: fails on numpy scalars and NaN."""
    return json.loads(json.dumps(obj, allow_nan=False))


def test_mean_ci_matches_scipy_t_interval():
    r = stats.mean_ci(DATA)
    n = DATA.size
    sem = DATA.std(ddof=1) / math.sqrt(n)
    lo, hi = st.t.interval(0.95, n - 1, loc=DATA.mean(), scale=sem)
    assert r["n"] == n
    assert r["mean"] == pytest.approx(DATA.mean())
    assert r["std"] == pytest.approx(DATA.std(ddof=1))
    assert r["sem"] == pytest.approx(st.sem(DATA))
    assert r["ci95"] == pytest.approx([lo, hi], rel=1e-12)
    assert _plain(r) == r
    assert all(type(r[k]) is float for k in ("mean", "std", "sem")) and type(r["n"]) is int


def test_mean_ci_other_confidence_and_edge_cases():
    r = stats.mean_ci(DATA, confidence=0.99)
    sem = st.sem(DATA)
    assert r["ci95"] == pytest.approx(st.t.interval(0.99, DATA.size - 1, loc=DATA.mean(), scale=sem))
    one = stats.mean_ci([7])  # one value says nothing about the spread: no interval, not a zero-wide one
    assert one == {"n": 1, "mean": 7.0, "std": None, "sem": None, "ci95": [None, None]}
    assert stats.mean_ci_counts([3, 7], [0, 1]) == {"n": 1, "mean": 7.0, "std": None, "sem": None,
                                                    "ci95": [None, None]}
    const = stats.mean_ci([5, 5, 5])
    assert const["ci95"] == [5.0, 5.0] and const["std"] == 0.0
    with pytest.raises(ValueError):
        stats.mean_ci([])
    with pytest.raises(ValueError):
        stats.mean_ci([1.0, float("nan")])
    with pytest.raises(ValueError):
        stats.mean_ci(DATA, confidence=1.0)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (7, 13), (1, 100_000),
                                 (41_234, 100_000), (99_999, 100_000), (0, 100_000), (500, 1000)])
@pytest.mark.parametrize("conf", [0.95, 0.9])
def test_wilson_matches_scipy_binomtest(k, n, conf):
    lo, hi = stats.wilson_ci(k, n, conf)
    ref = st.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
    assert lo == pytest.approx(ref.low, abs=1e-13)
    assert hi == pytest.approx(ref.high, abs=1e-13)
    assert type(lo) is float and type(hi) is float
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_rejects_bad_input():
    for k, n in [(0, 0), (-1, 5), (6, 5)]:
        with pytest.raises(ValueError):
            stats.wilson_ci(k, n)


def test_percentiles_match_numpy():
    r = stats.percentiles(DATA)
    assert list(r) == ["p5", "p25", "p50", "p75", "p95"]
    assert list(r.values()) == pytest.approx(np.percentile(DATA, [5, 25, 50, 75, 95]))
    r2 = stats.percentiles(DATA, qs=(2.5, 50, 97.5))
    assert list(r2) == ["p2.5", "p50", "p97.5"]
    assert r2["p97.5"] == pytest.approx(np.percentile(DATA, 97.5))
    assert _plain(r) == r


def test_category_probabilities_sum_and_zero_counts():
    names = ["Novices", "Sailors", "Captains", "Navigators", "Cartographers"]
    codes = np.array([0, 1, 1, 2, 2, 2, 3, 1, 2, 2], dtype=np.int8)
    r = stats.category_probabilities(codes, names)
    assert list(r) == names
    assert sum(v["p"] for v in r.values()) == pytest.approx(1.0)
    assert sum(v["count"] for v in r.values()) == codes.size
    assert r["Cartographers"]["count"] == 0 and r["Cartographers"]["p"] == 0.0
    assert r["Cartographers"]["ci95"][0] == 0.0 and r["Cartographers"]["ci95"][1] > 0
    assert r["Captains"]["count"] == 5 and r["Captains"]["p"] == 0.5
    assert r["Captains"]["ci95"] == pytest.approx(list(stats.wilson_ci(5, 10)))
    assert _plain(r) == r
    with pytest.raises(ValueError):
        stats.category_probabilities([0, 5], names)
    with pytest.raises(ValueError):
        stats.category_probabilities([], names)


def test_paired_difference_matches_ttest_rel():
    rng = np.random.default_rng(1)
    a = rng.integers(20, 60, size=200)
    b = a - rng.integers(-3, 6, size=200)
    r = stats.paired_difference(a, b)
    d = a.astype(float) - b
    assert r["n"] == 200
    assert r["mean_diff"] == pytest.approx(sum(d) / len(d))
    assert r["p_value"] == pytest.approx(st.ttest_rel(a, b).pvalue)
    assert r["p_better"] == pytest.approx(np.mean(a > b))
    assert r["p_worse"] == pytest.approx(np.mean(a < b))
    assert r["p_better"] + r["p_worse"] + r["p_tie"] == pytest.approx(1.0)
    sem = d.std(ddof=1) / math.sqrt(d.size)
    assert r["ci95"] == pytest.approx(st.t.interval(0.95, d.size - 1, loc=d.mean(), scale=sem))
    assert _plain(r) == r


def test_paired_difference_hand_computed_and_degenerate():
    r = stats.paired_difference([10, 12, 9, 15], [8, 12, 10, 11])
    # differences 2, 0, -1, 4 -> mean 5/4
    assert r["mean_diff"] == pytest.approx(1.25)
    assert (r["p_better"], r["p_worse"], r["p_tie"]) == (0.5, 0.25, 0.25)
    same = stats.paired_difference([3, 4, 5], [3, 4, 5])
    assert same["p_value"] == 1.0 and same["ci95"] == [0.0, 0.0]
    shifted = stats.paired_difference([4, 5, 6], [3, 4, 5])
    assert shifted["p_value"] == 0.0 and shifted["p_better"] == 1.0
    single = stats.paired_difference([3], [1])
    assert single["mean_diff"] == 2.0 and single["p_better"] == 1.0
    assert single["p_value"] is None and single["sem_diff"] is None and single["ci95"] == [None, None]
    with pytest.raises(ValueError):
        stats.paired_difference([1, 2], [1, 2, 3])
