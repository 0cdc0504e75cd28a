"""`compare`: common random numbers, paired statistics, sentences, CLI outputs and one-line errors."""

import importlib
import json
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest
import scipy.stats

from analyzer import runner, stats
from analyzer.beacon.simulation import make_setup, simulate
from analyzer.beacon.tiles import load_tiles, parse_tiles
from analyzer.errors import UserError
from kernels import beacon as kb
from tests.beacon.positions import dealt_deck
from tests.support import run_cli as cli

cmp = importlib.import_module("analyzer.beacon.comparison")  # the module (analyzer.beacon.comparison is the function)

GAMES = 1500


@pytest.fixture(scope="module")
def result():
    return cmp.compare(["random", "greedy"], players=1, games=GAMES, seed=7, threads=2)


def per_game(games: pl.DataFrame, arm: str, column: str = "score") -> np.ndarray:
    rows = games.filter(pl.col("arm") == arm).sort("game")
    assert rows["game"].to_list() == list(range(rows.height))
    return rows[column].to_numpy()



# --------------------------------------------------------------------------- common random numbers

@pytest.mark.parametrize("players", [1, 3])
def test_every_arm_is_dealt_the_same_deck_in_every_game(players, monkeypatch):
    """CRN through the kernel workspace: rebuilt from the jobs compare really runs, the shuffled
    draw pile of game i is the same for every arm."""
    jobs = []
    real_run_job = runner.run_job
    monkeypatch.setattr(runner, "run_job",
                        lambda job, options, **kw: jobs.append(job) or real_run_job(job, options, **kw))
    r = cmp.compare("random,greedy", players=players, games=6, seed=13, expansions="windmills", threads=1)
    assert len(jobs) == 2 and r.games.group_by("arm").agg(pl.col("game").sort()).sort("arm")["game"].to_list() == \
        [list(range(6))] * 2
    decks = []
    for job in jobs:
        spec = job.spec
        s = make_setup(spec["players"], spec["policy"], ",".join(spec["expansions"]),
                       parse_tiles(spec["tiles"]["csv"], spec["tiles"]["name"]))
        decks.append([dealt_deck(s.kernel_tiles, s.cfg, s.active, s.tiles.hq, spec["seed"], i) for i in range(6)])
    for game in range(6):
        np.testing.assert_array_equal(decks[0][game], decks[1][game])
    assert not np.array_equal(decks[0][0], decks[0][1])  # games differ from each other


def test_compare_plays_games_0_to_g_of_the_seed_for_every_arm(result):
    """Row i of each arm is game i of that policy on the seed, exactly what simulate plays."""
    for policy in ("random", "greedy"):
        alone = simulate(players=1, policy=policy, games=GAMES, seed=7, threads=1).games
        mine = result.games.filter(pl.col("arm") == policy).drop("arm", "policy")
        assert mine.equals(alone)
    # tiles placed + discarded = the whole deck in every game, for both arms
    for arm in ("random", "greedy"):
        used = per_game(result.games, arm, "tiles_placed") + per_game(result.games, arm, "tiles_discarded")
        assert (used == result.summary["policies"][arm]["tile_set"]["n_active"] - 1).all()


# --------------------------------------------------------------------------- paired statistics

def test_paired_difference_matches_scipy_on_known_data():
    a = np.array([12, 15, 9, 20, 14, 11, 18, 16, 13, 10])
    b = np.array([10, 14, 9, 15, 12, 12, 14, 13, 11, 7])
    d = a - b
    got = stats.paired_difference(a, b)
    assert got["mean_diff"] == pytest.approx(2.1)
    assert got["p_value"] == pytest.approx(scipy.stats.ttest_rel(a, b).pvalue, rel=1e-10)
    lo, hi = scipy.stats.t.interval(0.95, d.size - 1, loc=d.mean(), scale=scipy.stats.sem(d))
    assert got["ci95"] == pytest.approx([lo, hi], rel=1e-12)
    assert (got["p_better"], got["p_tie"], got["p_worse"]) == (0.8, 0.1, 0.1)


def test_summary_pairs_are_the_paired_difference_of_the_per_game_scores(result):
    (pair,) = result.summary["pairs"]
    assert (pair["a"], pair["b"]) == ("greedy", "random")  # a: the higher mean
    a, b = per_game(result.games, "greedy"), per_game(result.games, "random")
    expected = stats.paired_difference(a, b)
    assert {k: pair[k] for k in expected} == expected
    lo, hi = scipy.stats.t.interval(0.95, GAMES - 1, loc=(a - b).mean(), scale=scipy.stats.sem(a - b))
    assert pair["ci95"] == pytest.approx([lo, hi], rel=1e-9)
    assert pair["same_deals"] is True and pair["n"] == GAMES
    names = result.summary["rank_bands"]["names"]
    for arm in ("random", "greedy"):
        s = result.summary["policies"][arm]
        assert s["mean"] == pytest.approx(per_game(result.games, arm).mean())
        codes = np.array([names.index(r) for r in per_game(result.games, arm, "rank")])
        assert list(s["reach_probabilities"].values()) == pytest.approx([(codes >= k).mean() for k in range(5)])


def test_band_reach_difference_is_the_paired_share_difference(result):
    (pair,) = result.summary["pairs"]
    band = pair["band"]
    names = result.summary["rank_bands"]["names"]
    k = names.index(band["name"])
    ra = np.array([names.index(r) for r in per_game(result.games, pair["a"], "rank")])
    rb = np.array([names.index(r) for r in per_game(result.games, pair["b"], "rank")])
    assert band["reach_a"] == pytest.approx((ra >= k).mean()) and band["reach_b"] == pytest.approx((rb >= k).mean())
    same = stats.paired_share_difference(ra >= k, rb >= k)
    assert band["ci95"] == same["ci95"] and band["diff"] == same["mean_diff"]


# --------------------------------------------------------------------------- the rank band and the sentence

NAMES = ["Novices", "Sailors", "Captains", "Navigators", "Cartographers"]


@pytest.mark.parametrize("reach_a,reach_b,band,rule", [
    ([1, .9, .38, .06, 0], [1, .7, .21, .02, 0], "Captains", "highest"),  # Navigators: b below 5%
    ([1, .9, .38, .09, .05], [1, .7, .21, .05, .05], "Cartographers", "highest"),
    ([1, .026, .0015, 0, 0], [1, 0, 0, 0, 0], "Sailors", "largest"),
    ([1, .04, .03, 0, 0], [1, .03, 0, 0, 0], "Captains", "largest"),
    ([1, 0, 0, 0, 0], [1, 0, 0, 0, 0], "Sailors", "largest"),
])
def test_band_choice(reach_a, reach_b, band, rule):
    chosen = cmp.choose_band(reach_a, reach_b, NAMES)
    assert chosen["name"] == band and rule in chosen["why"]
    assert (chosen["reach_a"], chosen["reach_b"]) == (reach_a[NAMES.index(band)], reach_b[NAMES.index(band)])


@pytest.mark.parametrize("p,text", [(0, "0%"), (1, "100%"), (0.38, "38%"), (0.92, "92%"), (0.026, "2.6%"),
                                    (0.01, "1%"), (0.0004, "0.04%"), (0.9996, "99.96%"), (0.995, "99.5%")])
def test_share_text(p, text):
    assert cmp.share_text(p) == text


def _pair(d, lo, hi, band="Captains", ra=0.38, rb=0.21, top=False, n=400):
    return {"a": "lookahead", "b": "greedy", "mean_diff": d, "ci95": [lo, hi], "n": n,
            "band": {"name": band, "top": top, "reach_a": ra, "reach_b": rb}}


@pytest.mark.parametrize("pair,sentence", [
    (_pair(4.1, 3.9, 4.3), "lookahead scores 4.1 points more than greedy (95% CI 3.9–4.3) and reaches "
                           "Captains or better in 38% vs 21% of games."),
    (_pair(0.1, -0.2, 0.4, ra=0.21, rb=0.2),
     "lookahead scores 0.1 points more than greedy, within the noise (95% CI −0.2 to 0.4) and reaches Captains or "
     "better in 21% vs 20% of games."),
    (_pair(0.412, 0.391, 0.433, "Cartographers", 0.061, 0.0004, top=True),
     "lookahead scores 0.41 points more than greedy (95% CI 0.39–0.43) and reaches Cartographers in 6.1% vs "
     "0.04% of games."),
    (_pair(11.8, 11.5, 12.1, "Sailors", 0.0, 0.0),
     "lookahead scores 11.8 points more than greedy (95% CI 11.5–12.1); neither reaches Sailors or better in "
     "any game."),
    (_pair(3.0, None, None, ra=1.0, rb=0.0, n=1),  # one game: no interval, and no "within the noise" either
     "lookahead scores 3.0 points more than greedy (one game: no 95% CI) and reaches Captains or better in "
     "100% vs 0% of games."),
    (_pair(3.0, None, None, ra=0.5, rb=0.0, n=2),
     "lookahead scores 3.0 points more than greedy (the same difference in every game: no 95% CI) and reaches "
     "Captains or better in 50% vs 0% of games."),
    (_pair(0.0, None, None, "Sailors", 0.0, 0.0, n=1),
     "lookahead and greedy score exactly the same in every game; neither reaches Sailors or better in any game."),
    (_pair(0.0, None, None, "Sailors", 0.25, 0.25, n=8),
     "lookahead and greedy score exactly the same in every game; both reach Sailors or better in 25% of games."),
])
def test_sentence_is_written_from_the_numbers(pair, sentence):
    assert cmp.pair_sentence(pair) == sentence


def test_summary_sentence_carries_the_summary_numbers(result):
    (pair,) = result.summary["pairs"]
    assert pair["sentence"] == cmp.pair_sentence(pair)
    lo, hi = pair["ci95"]
    assert f"{pair['mean_diff']:.1f} points more than random (95% CI {lo:.1f}–{hi:.1f})" in pair["sentence"]
    assert cmp.share_text(pair["band"]["reach_a"]) in pair["sentence"]


# --------------------------------------------------------------------------- oracle

def _fake_arm(label, policy):
    return cmp.Arm(label, policy, policy, "default", SimpleNamespace(policy_label=policy))


def test_oracle_gap_and_share_closed():
    arms = [_fake_arm("random", "random"), _fake_arm("greedy", "greedy"), _fake_arm("oracle", "oracle")]
    scores = [np.array([9, 11, 10, 10]), np.array([19, 21, 22, 18]), np.array([30, 31, 29, 30])]
    columns = [np.vstack([s] + [np.zeros_like(s)] * (kb.N_COLS - 1)) for s in scores]
    per_arm = {a.label: {"mean": float(s.mean())} for a, s in zip(arms, scores)}
    gaps = {g["policy"]: g for g in cmp.oracle_gaps(arms, columns, per_arm)}
    assert set(gaps) == {"random", "greedy"} and gaps["greedy"]["worst"] == "random"
    assert gaps["greedy"]["mean_gap"] == pytest.approx(10.0)
    assert gaps["greedy"]["ci95"] == pytest.approx(stats.paired_difference(scores[2], scores[1])["ci95"])
    assert gaps["greedy"]["share_closed"] == pytest.approx(0.5)  # (20 - 10) / (30 - 10)
    assert gaps["random"]["share_closed"] == 0.0
    assert gaps["greedy"]["sentence"].startswith("greedy scores 10.0 points less than oracle (95% CI ")
    assert gaps["greedy"]["sentence"].endswith(" and closes 50% of the gap between random and oracle.")


def test_an_oracle_arm_is_labelled_unfair_in_summary_and_report(tmp_path, monkeypatch):
    from reports.beacon.compare import write_compare_report

    monkeypatch.setattr(cmp, "ORACLE", "greedy")  # stand-in until an oracle policy is registered
    r = cmp.compare("random,greedy", games=200, seed=3, threads=1)
    assert r.summary["policies"]["greedy"]["fair"] is False and r.summary["policies"]["random"]["fair"] is True
    (gap,) = r.summary["oracle"]["gaps"]
    assert gap["policy"] == "random" and gap["share_closed"] == 0.0
    write_compare_report(tmp_path, r.summary, r.games)
    report = (tmp_path / "report.md").read_text()
    assert "Gap to the oracle" in report and "not a fair policy: it sees the future draw order" in report


def test_the_compare_report_says_how_rank_bands_move_with_the_expansions(tmp_path):
    """Issue 33: "every report that shows bands says so in one line" (rulebook p. 8: +10 per expansion)."""
    from reports.beacon.compare import write_compare_report

    r = cmp.compare("random,greedy", players=2, games=40, seed=3, expansions="windmills,piers", threads=1)
    write_compare_report(tmp_path, r.summary, r.games)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report.count("Rank-band bounds rise by 10 points per expansion in play (rulebook p. 8); with piers, "
                        "windmills in play they are 20 above the base game's.") == 1


# --------------------------------------------------------------------------- CLI

def load_tiles_path(tmp_path):
    path = tmp_path / "default.csv"
    path.write_text(load_tiles(None).to_csv())
    return path


def richer_tiles(tmp_path):
    """The default set with one buoy turned into a lighthouse: a design what-if."""
    lines = load_tiles(None).to_csv().splitlines()
    i = next(k for k, line in enumerate(lines) if ",buoy," in line)
    lines[i] = lines[i].replace(",buoy,", ",lighthouse,")
    path = tmp_path / "richer.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_writes_every_output(tmp_path, capsys):
    out = tmp_path / "cmp"
    code, stdout, err = cli(["beacon", "compare", "--policies", "random", "--policies", "greedy", "--players", "2",
                             "--games", "300", "--seed", "5", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    for name in ("games.parquet", "summary.json", "report.md", "report.html", "score_distributions.png",
                 "rank_bands.png", "paired_differences.png"):
        assert (out / name).stat().st_size > 0, name
    summary = json.loads((out / "summary.json").read_text())
    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 600 and games.columns[:4] == ["game", "arm", "policy", "score"]
    assert list(summary["policies"]) == ["random", "greedy"] and summary["players"] == 2
    (pair,) = summary["pairs"]
    assert pair["n"] == 300 and {"a", "b", "mean_diff", "ci95", "p_better"} <= set(pair)
    report = (out / "report.md").read_text()
    assert pair["sentence"] in report and pair["sentence"] in stdout
    assert "How the rank band is chosen" in report and "reconstruction" in report.lower()
    assert "data:image/png;base64," in (out / "report.html").read_text()


def test_cli_compares_tile_sets(tmp_path, capsys):
    out = tmp_path / "tiles"
    code, _, err = cli(["beacon", "compare", "--policies", "greedy", "--tiles", str(richer_tiles(tmp_path)),
                        "--tiles", str(load_tiles_path(tmp_path)), "--games", "200", "--no-progress",
                        "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["compares"] == "tile sets" and set(summary["policies"]) == {"richer.csv", "default.csv"}
    assert summary["pairs"][0]["same_deals"] is False and "shares only the seed" in summary["pairing"]
    games = pl.read_parquet(out / "games.parquet")
    assert games["tile_set"].unique().sort().to_list() == ["default.csv", "richer.csv"]
    assert "share seeds only" in (out / "report.md").read_text()


@pytest.mark.parametrize("args,fragment", [
    (["--policies", "random,clever"], "unknown policy 'clever'"),
    (["--policies", "greedy,greedy"], "greedy is given twice"),
    (["--policies", "random", "--policies", " random"], "random is given twice"),
    (["--policies", "lookahead,lookahead:hole=0"], "is the same policy as 'lookahead' (every parameter equal)"),
    (["--policies", "greedy"], "at least two arms"),
    (["--policies", "random,,greedy"], "--policies: empty policy name"),
    (["--policies", "random,greedy", "--games", "0"], "--games must be at least 1"),
    (["--policies", "random,greedy", "--tiles", "/no/such/tiles.csv"], "not found"),
    (["--policies", "greedy", "--tiles", "/no/such/a.csv", "--tiles", "/no/such/b.csv"], "not found"),
    (["--policies", "random,greedy", "--precision", "0.5"], "No such option: --precision"),  # (not shown: the
    (["--policies", "random,greedy", "--no-per-game"], "No such option: --no-per-game"),  # API refuses them too)
    (["--policies", "random,greedy", "--seed", "-1"], "--seed"),
])
def test_bad_input_gives_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    games = [] if "--precision" in args or "--games" in args else ["--games", "10"]  # (given twice: refused)
    code, _, err = cli(["beacon", "compare", "--no-progress", *games, "--out", str(tmp_path / "o"), *args], capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err, err


def test_tile_sets_with_one_file_name_are_labelled_by_path(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    richer_tiles(tmp_path).rename(tmp_path / "a" / "tiles.csv")
    load_tiles_path(tmp_path).rename(tmp_path / "b" / "tiles.csv")
    arms = cmp.plan_arms(["random", "greedy"], tiles=[tmp_path / "a" / "tiles.csv", tmp_path / "b" / "tiles.csv"])
    paths = [tmp_path / d / "tiles.csv" for d in "ab"]
    assert [a.label for a in arms] == [f"{p} @ {path}" for path in paths for p in ("random", "greedy")]


def test_identical_tile_sets_are_refused(tmp_path, capsys):
    a = load_tiles_path(tmp_path)
    b = tmp_path / "copy.csv"
    b.write_bytes(a.read_bytes())
    c = tmp_path / "crlf.csv"  # other bytes, other comments, the same tiles: no what-if to compare
    c.write_bytes(b"# my own notes\r\n" + a.read_bytes().replace(b"\n", b"\r\n"))
    for other in (b, c):
        code, _, err = cli(["beacon", "compare", "--policies", "greedy", "--tiles", str(a), "--tiles", str(other),
                            "--out", str(tmp_path / "o")], capsys)
        assert code == 2 and "same tile set" in err, err


def test_a_failed_rerun_keeps_earlier_results(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["beacon", "compare", "--policies", "random,greedy", "--games", "50", "--no-progress", "--out", str(out)]
    assert cli(args, capsys)[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert cli(args[:3] + ["random,nope"] + args[4:], capsys)[0] == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_python_api_is_exported():
    from analyzer.beacon import CompareResult, compare

    assert compare is cmp.compare and CompareResult is cmp.CompareResult


def test_python_api_refuses_bad_input_before_running():
    with pytest.raises(UserError, match="at least two arms"):
        cmp.compare(["greedy"], games=10)
    with pytest.raises(UserError, match="--games"):
        cmp.compare(["greedy", "random"], games=0)


def test_checkpoint_keeps_one_folder_per_arm_and_resumes(tmp_path):
    ck = tmp_path / "ck"
    first = cmp.compare("random,greedy", games=120, seed=4, threads=1, chunk_size=50, checkpoint=ck)
    assert sorted(p.name for p in ck.iterdir()) == ["greedy", "random"]
    again = cmp.compare("greedy,random", games=120, seed=4, threads=1, checkpoint=ck)  # order swapped
    assert again.summary["run"]["checkpoint"]["resumed_games"] == 240
    assert again.summary["pairs"] == first.summary["pairs"]


def test_policies_that_differ_in_any_digit_are_two_arms():
    """Labels show a value short where that is exact, and with every digit where two values need it."""
    arms = cmp.plan_arms(["lookahead:hole=0.1234561,lookahead:hole=0.1234562,lookahead:hole=2.5"])
    labels = [arm.policy for arm in arms]
    assert "hole=0.1234561" in labels[0] and "hole=0.1234562" in labels[1] and "hole=2.5" in labels[2]
