"""The statistics of `balance --by wins` (analyzer/stats.py) against exact values: the between-group spread of a
share beyond binomial noise, a clustered correlation, and a binomial logistic regression."""

import math

import numpy as np
import pytest
from scipy.stats import binom

from analyzer import stats


def test_the_between_group_variance_is_exactly_unbiased():
    """E[var(p̂) − mean(p̂(1 − p̂))/(n − 1)] is the variance of the groups' true shares, summed exactly over every
    outcome of two groups with shares 0.2 and 0.5 (n = 10)."""
    n, p = 10, (0.2, 0.5)
    expected = 0.0
    for k1 in range(n + 1):
        for k2 in range(n + 1):
            share = np.array([k1, k2]) / n
            estimate = share.var(ddof=1) - (share * (1 - share)).mean() / (n - 1)
            expected += binom.pmf(k1, n, p[0]) * binom.pmf(k2, n, p[1]) * estimate
    assert expected == pytest.approx(np.var(p, ddof=1), abs=1e-12)


def test_groups_alike_show_no_spread_beyond_the_noise_and_unlike_ones_do():
    rng = np.random.default_rng(3)
    same = stats.excess_binomial_sd(rng.binomial(200, 0.25, 400), 200, seed=1)
    assert same["ci95"][0] == 0.0 and same["sd"] < 0.015  # truly 0: the interval reaches it
    assert same["observed_sd"] == pytest.approx(same["noise_sd"], rel=0.15)
    p = rng.choice([0.15, 0.35], 400)  # sd 0.1
    unlike = stats.excess_binomial_sd(rng.binomial(200, p), 200, seed=1)
    assert unlike["ci95"][0] < 0.1 < unlike["ci95"][1] and unlike["sd"] == pytest.approx(0.1, abs=0.01)
    assert stats.excess_binomial_sd([3, 5], 10, seed=1) == stats.excess_binomial_sd([3, 5], 10, seed=1)
    with pytest.raises(ValueError):
        stats.excess_binomial_sd([3, 11], 10)


def test_the_clustered_correlation_is_pearsons_r_with_an_interval_over_groups():
    rng = np.random.default_rng(5)
    groups = np.repeat(np.arange(300), 4)
    x = rng.normal(size=1200)
    y = 0.5 * x + rng.normal(size=1200)
    c = stats.clustered_correlation(x, y, groups, seed=2)
    assert c["r"] == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert c["slope"] == pytest.approx(np.polyfit(x, y, 1)[0], abs=1e-12)
    true_r = 0.5 / math.sqrt(1.25)
    assert c["ci95"][0] < true_r < c["ci95"][1] and c["ci95"][1] - c["ci95"][0] < 0.15
    assert c["slope_ci95"][0] < 0.5 < c["slope_ci95"][1]
    assert stats.clustered_correlation(x, 2 * x + 1, groups)["r"] == pytest.approx(1.0)


def test_a_logistic_regression_on_a_two_by_two_table_gives_its_odds_ratio_and_woolf_interval():
    """One binary feature: the fitted odds ratio is the table's (a d)/(b c) and its standard error Woolf's
    sqrt(1/a + 1/b + 1/c + 1/d), exactly."""
    a, b, c, d = 30, 70, 55, 45  # feature 1: 30 of 100 succeed; feature 0: 55 of 100
    fit = stats.binomial_logit([30, 25, 15, 15], [50] * 4, [[0.0], [0.0], [1.0], [1.0]], ["feature"])
    term = fit["terms"][1]
    assert term["odds_ratio"] == pytest.approx((a * d) / (b * c), rel=1e-9)
    assert term["se"] == pytest.approx(math.sqrt(1 / a + 1 / b + 1 / c + 1 / d), rel=1e-6)
    assert fit["terms"][0]["coef"] == pytest.approx(math.log(55 / 45), rel=1e-9)
    lo, hi = term["odds_ratio_ci95"]
    assert lo == pytest.approx(math.exp(math.log(a * d / (b * c)) - 1.959964 * term["se"]), rel=1e-5) and hi > lo
    assert 0 < fit["deviance_explained"] < 1 and not fit["warnings"]
    saturated = stats.binomial_logit([55, 30], [100, 100], [[0.0], [1.0]], ["feature"])
    assert saturated["terms"][1]["odds_ratio"] == pytest.approx(term["odds_ratio"]) and saturated["warnings"]


def test_a_clustered_logistic_regression_widens_the_interval_of_a_group_level_feature():
    rng = np.random.default_rng(7)
    groups = np.repeat(np.arange(200), 4)
    board = np.repeat(rng.normal(size=200), 4)  # a feature of the group, with a group-level random effect
    logit = 0.3 * board + np.repeat(rng.normal(scale=0.8, size=200), 4)
    wins = rng.binomial(50, 1 / (1 + np.exp(-logit)))
    plain = stats.binomial_logit(wins, 50, board[:, None], ["board"])
    robust = stats.binomial_logit(wins, 50, board[:, None], ["board"], clusters=groups)
    assert robust["clustered"] and not plain["clustered"]
    assert robust["terms"][1]["se"] > 1.5 * plain["terms"][1]["se"]
    assert robust["terms"][1]["coef"] == pytest.approx(plain["terms"][1]["coef"])


def test_a_linear_fit_gives_the_least_squares_line_and_robust_intervals():
    rng = np.random.default_rng(11)
    x = rng.normal(size=400)
    y = 2.0 - 0.7 * x + rng.normal(scale=0.5 + 0.5 * np.abs(x), size=400)  # spread growing with |x|
    fit = stats.linear_fit(y, x[:, None], ["x"])
    slope, intercept = np.polyfit(x, y, 1)
    assert fit["terms"][1]["coef"] == pytest.approx(slope) and fit["terms"][0]["coef"] == pytest.approx(intercept)
    assert fit["r2"] == pytest.approx(np.corrcoef(x, y)[0, 1] ** 2)
    lo, hi = fit["terms"][1]["ci95"]
    assert lo < -0.7 < hi
    with pytest.raises(ValueError):
        stats.linear_fit([1.0, 2.0], [[1.0], [2.0]], ["x"])


def test_a_logit_without_a_unique_or_finite_answer_says_it_is_not_estimable():
    """Two features that are one (a draft at a harbour for every seat that drafts by port, say), with CIs clustered
    by board: statsmodels' cluster covariance raised LinAlgError ('Singular matrix') through `balance --by wins`;
    an outcome a feature separates exactly has no finite maximum. Both say so, with the rows, instead of terms."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=40)
    wins = rng.integers(0, 10, 40)
    same = stats.binomial_logit(wins, 10, np.column_stack([x, x]), ["a", "b"], clusters=np.arange(40) // 4)
    assert same["estimable"] is False and same["rows"] == 40 and "terms" not in same
    assert same["reason"].startswith("the fit has no unique answer (Singular matrix)")
    apart = stats.binomial_logit(np.where(x > 0, 10, 0), 10, x[:, None], ["a"], clusters=np.arange(40) // 4)
    assert apart["estimable"] is False and "no finite answer" in apart["reason"]
    assert stats.binomial_logit(wins, 10, x[:, None], ["a"])["estimable"] is True
