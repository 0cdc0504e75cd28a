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
    const = stats.mean_ci([5, 5, 5])  # no spread: no interval either (scipy's is NaN), not a zero-wide one
    assert const == {"n": 3, "mean": 5.0, "std": 0.0, "sem": 0.0, "ci95": [None, None]}
    assert stats.mean_ci([0.1] * 10)["ci95"] == [None, None]  # float sums of equal values need not be exact
    assert stats.mean_ci_counts([4], [7])["ci95"] == [None, None]
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
    same = stats.paired_difference([3, 4, 5], [3, 4, 5])  # scipy's ttest_rel: NaN for both
    assert same["p_value"] is None and same["ci95"] == [None, None] and same["p_tie"] == 1.0
    shifted = stats.paired_difference([4, 5, 6], [3, 4, 5])
    assert shifted["p_value"] is None and shifted["ci95"] == [None, None] and shifted["p_better"] == 1.0
    single = stats.paired_difference([3], [1])
    assert single["mean_diff"] == 2.0 and single["p_better"] == 1.0
    assert single["p_value"] is None and single["sem_diff"] is None and single["ci95"] == [None, None]
    with pytest.raises(ValueError):
        stats.paired_difference([1, 2], [1, 2, 3])


def test_clustered_intervals_reduce_to_the_plain_ones():
    """One value per group: mean_ci and wilson_ci; equal groups: the t interval of the group means;
    groups whose outcomes are all alike: Wilson on one outcome per group."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 30, 60).astype(float)
    alone = stats.clustered_mean_ci(x, np.arange(60))
    assert alone["ci95"] == pytest.approx(stats.mean_ci(x)["ci95"], rel=1e-12) and alone["clusters"] == 60
    games = np.repeat(np.arange(15), 4)  # 15 games x 4 seats
    grouped = stats.clustered_mean_ci(x, games)
    assert grouped["ci95"] == pytest.approx(stats.mean_ci(x.reshape(15, 4).mean(axis=1))["ci95"], rel=1e-12)
    assert grouped["mean"] == pytest.approx(x.mean()) and grouped["n"] == 60
    y = rng.random(60) < 0.3
    assert stats.clustered_wilson_ci(y, np.arange(60)) == pytest.approx(stats.wilson_ci(y.sum(), 60), rel=1e-9)
    alike = np.repeat(rng.random(15) < 0.4, 4)
    assert stats.clustered_wilson_ci(alike, games) == pytest.approx(stats.wilson_ci(alike.sum() // 4, 15),
                                                                    rel=1e-9)
    assert stats.clustered_wilson_ci(np.zeros(60, bool), games) == stats.wilson_ci(0, 15)


@pytest.mark.parametrize("size", [1, 3, 4])
def test_the_clustered_wilson_interval_from_counts_is_the_one_from_outcomes(size):
    """A streaming run keeps only how many groups had each number of yes outcomes: the same interval."""
    rng = np.random.default_rng(size)
    for p in (0.0, 0.05, 0.3, 1.0):
        y = rng.random((200, size)) < p
        if p == 0.3:
            y[:, 1:] &= ~y[:, :1]  # at most one winner per game, as in a game's seats
        sums, counts = np.unique(y.sum(axis=1), return_counts=True)
        expected = stats.clustered_wilson_ci(y.ravel(), np.repeat(np.arange(200), size))
        assert stats.clustered_wilson_ci_counts(sums, counts, size) == pytest.approx(expected, rel=1e-9)
    with pytest.raises(ValueError):
        stats.clustered_wilson_ci_counts([0, 5], [3, 1], 4)


def test_clustered_mean_ci_by_hand_and_without_groups_to_compare():
    # groups {1, 2} and {4}: mean 7/3, group sums of deviations -5/3 and 5/3,
    # CR1 variance 2/1 * (25/9 + 25/9) / 3^2 = 100/81, t on 1 degree of freedom
    r = stats.clustered_mean_ci([1, 2, 4], ["a", "a", "b"])
    half = st.t.ppf(0.975, 1) * math.sqrt(100 / 81)
    assert r["sem"] == pytest.approx(math.sqrt(100 / 81)) and r["clusters"] == 2
    assert r["ci95"] == pytest.approx([7 / 3 - half, 7 / 3 + half])
    one_game = stats.clustered_mean_ci([66, 40, 90, 70], [0, 0, 0, 0])  # four seats of one game
    assert one_game["ci95"] == [None, None] and one_game["sem"] is None and one_game["mean"] == 66.5
    level = stats.clustered_mean_ci([1, 3, 2, 2], [0, 0, 1, 1])  # varies, but not between games
    assert level["ci95"] == [None, None]
    with pytest.raises(ValueError):
        stats.clustered_mean_ci([1, 2], [0])


def _paired_coverage(p, n, interval):
    """Exact coverage of a paired-share interval: every 2 x 2 table of n games, weighted by its
    multinomial probability under the cell probabilities p (both, only a, only b, neither)."""
    tables = np.array([(a, b, c, n - a - b - c) for a in range(n + 1) for b in range(n + 1 - a)
                       for c in range(n + 1 - a - b)])
    log_coef = np.array([math.lgamma(n + 1) - sum(math.lgamma(x + 1) for x in t) for t in tables])
    with np.errstate(divide="ignore", invalid="ignore"):  # (a cell of probability 0 seen 0 times: 0)
        log_p = log_coef + np.where(tables > 0, tables * np.log(np.asarray(p)), 0.0).sum(axis=1)
    bounds = np.array([interval(*t) for t in tables])
    true = p[1] - p[2]
    return float(np.exp(log_p)[(bounds[:, 0] <= true + 1e-12) & (true - 1e-12 <= bounds[:, 1])].sum())


def test_paired_share_interval_keeps_its_coverage():
    """Newcombe's paired interval, checked by exact enumeration over 20 games: 95% on average over
    random tables and never far below, including shares of 0 where a t interval has no width."""
    coverages = [_paired_coverage(p, 20, stats.paired_share_ci)
                 for p in np.random.default_rng(0).dirichlet([1, 1, 1, 1], 40)]
    assert 0.945 <= np.mean(coverages) <= 0.965 and min(coverages) >= 0.92
    assert _paired_coverage(np.array([0.0, 0.1, 0.0, 0.9]), 20, stats.paired_share_ci) >= 0.95


def test_paired_share_difference_by_hand():
    a = np.array([1, 1, 0, 0, 1, 0, 0, 0], bool)
    b = np.array([1, 0, 0, 1, 0, 0, 0, 0], bool)
    r = stats.paired_share_difference(a, b)  # both 1, only a 2, only b 1, neither 4
    assert (r["n"], r["mean_diff"], r["p_better"], r["p_worse"], r["p_tie"]) == (8, 1 / 8, 2 / 8, 1 / 8, 5 / 8)
    lo, hi = r["ci95"]
    assert lo < 1 / 8 < hi and r["ci95"] == list(stats.paired_share_ci(1, 2, 1, 4))
    # no association to use (phi = 0): Newcombe's square-and-add of the two Wilson intervals
    l1, u1 = stats.wilson_ci(3, 8)
    l2, u2 = stats.wilson_ci(2, 8)
    assert (lo, hi) == pytest.approx((1 / 8 - math.hypot(3 / 8 - l1, u2 - 2 / 8),
                                      1 / 8 + math.hypot(u1 - 3 / 8, 2 / 8 - l2)))
    one = stats.paired_share_difference([True], [False])  # one game still has an interval
    assert one["mean_diff"] == 1.0 and -1.0 <= one["ci95"][0] < 0 and one["ci95"][1] == 1.0
    with pytest.raises(ValueError):
        stats.paired_share_difference([True], [True, False])


def test_intervals_are_cut_to_what_the_values_can_be():
    """Two games scoring 0 and 31: the t interval reaches -181; a score is never below 0, so neither is its mean."""
    plain = stats.mean_ci([0, 31])
    cut = stats.mean_ci([0, 31], support=stats.NON_NEGATIVE)
    assert plain["ci95"][0] < -100 and cut["ci95"] == [0.0, plain["ci95"][1]]
    assert stats.mean_ci_counts([0, 31], [1, 1], support=(0, None))["ci95"] == cut["ci95"]
    shares = stats.mean_ci([1.0, 1.0, 0.8], support=stats.SHARE)
    assert shares["ci95"][1] == 1.0 and shares["ci95"][0] == stats.mean_ci([1.0, 1.0, 0.8])["ci95"][0]
    wide = stats.mean_ci(DATA)
    assert stats.mean_ci(DATA, support=(-1e9, 1e9))["ci95"] == wide["ci95"]  # nothing to cut: unchanged
    grouped = stats.clustered_mean_ci([0, 0, 30, 1], [0, 0, 1, 1], support=stats.NON_NEGATIVE)
    assert grouped["ci95"][0] == 0.0


def test_the_unpaired_share_difference_is_newcombes_method_10():
    """Newcombe (Statist. Med. 17, 873-890, 1998), Table II, example (a): 56/70 - 48/80, method 10:
    0.0524 to 0.3339."""
    lo, hi = stats.share_difference_ci(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)
    assert stats.share_difference_ci(0, 10, 0, 20)[0] < 0 < stats.share_difference_ci(0, 10, 0, 20)[1]
    assert stats.share_difference_ci(10, 10, 0, 10)[1] == 1.0


def _pairs(*contests):
    """(fields, winners) of two-entrant contests given as (a, b, winner, times)."""
    fields, winners = [], []
    for a, b, winner, times in contests:
        row = [0, 0, 0]
        row[a] = row[b] = 1
        fields += [row] * times
        winners += [winner] * times
    return np.array(fields, np.int64), np.array(winners)


def test_bradley_terry_finds_strengths_the_wins_match_exactly():
    """Strengths 1, 2, 4 and a round robin whose wins are exactly their expected numbers (1 v 2: 1-2 in 3 games;
    1 v 4: 1-4 in 5; 2 v 4: 1-2 in 3): the likelihood equations (wins = expected wins) hold there, so it is the
    maximum, whatever the method."""
    fields, winners = _pairs((0, 1, 0, 1), (0, 1, 1, 2), (0, 2, 0, 1), (0, 2, 2, 4), (1, 2, 1, 1), (1, 2, 2, 2))
    fit = stats.bradley_terry(winners, fields)
    log = np.log([1.0, 2.0, 4.0])
    assert fit["estimable"] and fit["log_strength"] == pytest.approx(log - log.mean(), abs=1e-12)
    assert fit["strength"] == pytest.approx([0.5, 1.0, 2.0], abs=1e-12)
    assert all(lo < s < hi for s, (lo, hi) in zip(fit["strength"], fit["ci95"])) and fit["contests"] == 11
    _plain(fit)


def test_bradley_terry_for_two_entrants_is_the_log_odds_with_its_textbook_error():
    """Two entrants, 30 wins to 10 in independent games: log(s_a / s_b) = log 3 and the model's standard error of
    it sqrt(1/30 + 1/10) (the log odds' delta-method error); centred, each log-strength carries half of both. The
    sandwich error with one game per cluster is the model's times sqrt(G / (G - 1))."""
    fit = stats.bradley_terry(np.array([0] * 30 + [1] * 10), np.ones((40, 2), np.int64))
    assert fit["log_strength"] == pytest.approx([math.log(3) / 2, -math.log(3) / 2], abs=1e-12)
    half = math.sqrt(1 / 30 + 1 / 10) / 2
    assert fit["se_model"] == pytest.approx([half, half], rel=1e-9)
    assert fit["se"] == pytest.approx([half * math.sqrt(40 / 39)] * 2, rel=1e-9)
    z = 1.959963984540054
    assert fit["ci95"][0] == pytest.approx([math.sqrt(3) * math.exp(-z * fit["se"][0]),
                                            math.sqrt(3) * math.exp(z * fit["se"][0])])


def test_bradley_terry_keeps_the_error_of_an_entrant_that_rarely_wins():
    """A tournament of value against random at 4 players: each holds 2 places of every contest and random wins 3 of
    4,000. The log odds of random winning, log(3 / 3,997), has the model error 1 / sqrt(n p (1 - p)) (p = 3 /
    4,000), half of it on each centred log-strength; a numerical pseudo-inverse once gave 0 there, and a
    zero-wide interval for the strength."""
    n, k = 4000, 3
    fit = stats.bradley_terry(np.array([1] * k + [0] * (n - k)), np.tile([2, 2], (n, 1)))
    assert fit["strength"][0] == pytest.approx(math.sqrt((n - k) / k), rel=1e-9)
    half = 0.5 / math.sqrt(n * (k / n) * (1 - k / n))
    assert fit["se_model"] == pytest.approx([half, half], rel=1e-9)
    assert all(lo < s < hi for s, (lo, hi) in zip(fit["strength"], fit["ci95"]))


def test_bradley_terry_with_every_entrant_in_every_contest_gives_the_win_shares():
    """When all entrants meet in every contest (a tournament's full seatings), P(k wins) = s_k / sum(s): the
    maximum is at strengths proportional to the wins; an entrant filling two places of three wins
    2 s_a / (2 s_a + s_b)."""
    wins = np.array([50, 30, 20])
    winners = np.repeat([0, 1, 2], wins)
    fit = stats.bradley_terry(winners, np.ones((100, 3), np.int64), clusters=np.arange(100) // 4)
    log = np.log(wins)
    assert fit["log_strength"] == pytest.approx(log - log.mean(), abs=1e-10) and fit["clusters"] == 25
    doubled = stats.bradley_terry(np.array([0] * 60 + [1] * 40), np.tile([2, 1], (100, 1)))
    assert doubled["log_strength"][0] - doubled["log_strength"][1] == pytest.approx(math.log(0.75), abs=1e-12)


def test_bradley_terry_says_when_no_maximum_exists_and_refuses_bad_input():
    fields, winners = _pairs((0, 1, 0, 3), (0, 2, 0, 2), (1, 2, 1, 1), (1, 2, 2, 1))
    assert stats.bradley_terry(winners, fields) == {"estimable": False, "contests": 7,
                                                    "reason": "entrant 0 won every contest it played"}
    fields, winners = _pairs((0, 1, 1, 3), (0, 1, 0, 1), (1, 2, 1, 1), (1, 2, 1, 2))
    assert stats.bradley_terry(winners, fields)["reason"] == "entrant 2 won no contest"
    games = stats.bradley_terry(np.array([0, -1, 1, 0]), np.ones((4, 2), np.int64))
    assert games["contests"] == 3  # no winner: left out
    with pytest.raises(ValueError, match="present in its contest"):
        stats.bradley_terry(np.array([2]), np.array([[1, 1, 0]]))
    with pytest.raises(ValueError, match="fields must be"):
        stats.bradley_terry(np.array([0]), np.array([1, 1]))
