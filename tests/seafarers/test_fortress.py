"""Pirate fortress: exact battle laws, the siege Markov chain (numpy == exact fractions == hand values),
kernel == reference, simulation within its intervals, CLI."""

import json
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import stats
from analyzer.cli import main
from analyzer.errors import UserError
from analyzer.seafarers import reference as ref
from analyzer.seafarers.fortress import battle_law, fortress_stats, siege_chain, simulate_battles, simulate_sieges
from analyzer.seafarers.limits import MAX_WARSHIPS
from analyzer.seafarers.pirates import load_race_rules
from kernels.catan import fortress as kf


def test_battle_law_is_exact():
    for w in range(1, 7):
        assert battle_law(w) == {"win": F(w - 1, 6), "tie": F(1, 6), "loss": F(6 - w, 6)}
    for w in (7, 8, 15):
        assert battle_law(w) == {"win": 1, "tie": 0, "loss": 0}
    assert battle_law(0) == {"win": 0, "tie": 0, "loss": 1}


@pytest.mark.parametrize("warships", range(0, 9))
def test_battle_frequencies_on_many_battles(warships):
    n = 1_200_000
    counts, _ = simulate_battles(warships, n, seed=77)
    assert counts.sum() == n
    for name, c in zip(("win", "tie", "loss"), counts):
        p = float(battle_law(warships)[name])
        if p in (0.0, 1.0):
            assert c == p * n, name
        else:
            assert abs(c - n * p) <= 5 * math.sqrt(n * p * (1 - p)), (name, c, n * p)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), warships=st.integers(0, 8), n=st.integers(1, 300), block=st.integers(1, 50))
def test_battle_kernel_is_the_reference(seed, warships, n, block):
    out = np.zeros((3, -(-n // block)), np.int64)
    kf.battle_blocks(warships, seed, block, n, 0, out)
    assert out.sum(axis=1).tolist() == ref.battle_counts(seed, warships, n, block)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), warships=st.integers(0, 9), chits=st.integers(1, 3),
       model=st.sampled_from(kf.LOSS_MODELS), start=st.integers(0, 10**6))
def test_siege_kernel_is_the_reference(seed, warships, chits, model, start):
    out = np.zeros((kf.S_COLS, 5), np.int64)
    kf.siege_range(chits, warships, np.array([0, 1, 2]), kf.LOSS_MODELS.index(model), seed, start, out)
    for j in range(5):
        assert tuple(out[:, j]) == ref.play_siege(seed, start + j, chits, warships, model)


@pytest.mark.parametrize("model", kf.LOSS_MODELS)
@pytest.mark.parametrize("chits", [1, 2, 3])
def test_markov_chain_is_the_exact_first_step_analysis(model, chits):
    for w in range(0, 10):
        chain, exact = siege_chain(w, model, chits), ref.siege_values(chits, w, model)
        for key, value in exact.items():
            if value is None:
                assert chain[key] is None, (w, key)
            else:
                assert chain[key] == pytest.approx(float(value), rel=1e-12, abs=1e-12), (w, key)


def test_hand_computed_sieges():
    # 7 or more warships win every battle: three battles, no ship lost
    for model in kf.LOSS_MODELS:
        for w in (7, 12):
            assert siege_chain(w, model) == pytest.approx({"p_conquer": 1.0, "battles": 3.0, "ships_lost": 0.0,
                                                           "warships_lost": 0.0, "battles_if_conquered": 3.0,
                                                           "ships_lost_if_conquered": 0.0})
        assert siege_chain(1, model)["p_conquer"] == siege_chain(0, model)["battles"] == 0.0  # hopeless
    # one chit, 2 warships: die 1 wins; die 2 ties (1 ship, 1 warship left: over); 3-6 lose 2 ships
    c = siege_chain(2, "warships", chits=1)
    assert (c["p_conquer"], c["battles"], c["ships_lost"]) == pytest.approx((1 / 6, 1, 3 / 2))
    # one chit, 3 warships: 1-2 win; 3 ties into the case above; 4-6 lose 2 (over)
    c = siege_chain(3, "warships", chits=1)
    assert (c["p_conquer"], c["battles"], c["ships_lost"]) == pytest.approx((13 / 36, 7 / 6, 17 / 12))
    # 6 warships win each battle with 5/6 while they are 6; 'rebuilt', one chit: a tie leaves 5 warships
    # behind a rebuilt ship (4/6 win, 1/6 tie: the same state, 1/6 loss: 4 warships behind 2 ships, which
    # wins on 1-3 and otherwise stays): E = 1 + 1/6 x (1 + 1/6 x 2) / (5/6) = 19/15
    c = siege_chain(6, "rebuilt", chits=1)
    assert (c["p_conquer"], c["battles"]) == pytest.approx((1.0, 19 / 15))


@pytest.mark.parametrize("model", kf.LOSS_MODELS)
@pytest.mark.parametrize("warships", [3, 5, 6])
def test_simulated_sieges_agree_with_the_chain(model, warships):
    n = 200_000
    cols = simulate_sieges(warships, n, seed=4, loss_model=model)
    exact = siege_chain(warships, model)
    won = cols[kf.S_CONQUERED] == 1
    p = exact["p_conquer"]
    if p < 1:
        assert abs(won.sum() - n * p) <= 5 * math.sqrt(n * p * (1 - p))
    else:
        assert won.all()
    for key, row in (("battles", kf.S_BATTLES), ("ships_lost", kf.S_SHIPS_LOST),
                     ("warships_lost", kf.S_WARSHIPS_LOST)):
        ci = stats.mean_ci(cols[row])
        assert abs(ci["mean"] - exact[key]) <= 5 * ci["sem"], (key, ci, exact[key])
    ci = stats.mean_ci(cols[kf.S_BATTLES][won])
    assert abs(ci["mean"] - exact["battles_if_conquered"]) <= 5 * ci["sem"] + 1e-12


def test_fortress_stats_and_cli_json(capsys):
    code = main(["seafarers", "fortress", "--warships", "4", "--battles", "50000", "--seed", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    r = json.loads(out)
    assert r["battle"]["win"]["exact_fraction"] == "1/2" and r["battle"]["tie"]["exact"] == pytest.approx(1 / 6)
    assert sum(b["count"] for b in r["battle"].values()) == 50_000
    assert r["siege"]["exact"] == siege_chain(4)
    # the default is the seed read literally, as the Pirate Islands race plays it: ships rebuilt to attack
    # again stand ahead of the warships and sink first, so 4 warships always win in the end
    assert r["loss_model"] == "rebuilt" and r["siege"]["exact"]["p_conquer"] == pytest.approx(1.0)
    assert siege_chain(4, "warships")["p_conquer"] == pytest.approx(0.1776, abs=5e-5)
    assert set(r["siege"]["simulated"]) == set(r["siege"]["exact"])
    assert r == fortress_stats(4, 50_000, 2, threads=1) | {"battles_per_second": r["battles_per_second"]}


@pytest.mark.parametrize("args,fragment", [
    (["--warships", "-1"], "--warships must be from 0 to 15, got -1"),
    (["--warships", "3", "--battles", "0"], "--battles must be from 1 to 100,000,000,000, got 0"),
    (["--warships", "3", "--sieges", "0"], "--sieges must be from 1 to 10,000,000, got 0"),
    # upper bounds: before them, numba typing errors and numpy allocation errors
    (["--warships", str(10**30), "--battles", "1000"], "--warships must be from 0 to 15"),
    (["--warships", "16"], "a colour has 15 ships"),
    (["--warships", "3", "--battles", str(10**30)], "--battles must be from 1 to 100,000,000,000"),
    (["--warships", "3", "--battles", "100", "--sieges", str(10**30)], "--sieges must be from 1 to 10,000,000"),
    (["--warships", "3", "--threads", str(10**30)], "--threads must be from 1 to 1,024"),
    (["--warships", "3", "--loss-model", "sunk"], "unknown loss model"),
    (["--warships", "3", "--seed", "-2"], "--seed"),
    (["--battles", "10"], "--warships"),
])
def test_cli_fortress_bad_options(capsys, args, fragment):
    code = main(["seafarers", "fortress", *args])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err


def test_bad_loss_model_in_the_api():
    with pytest.raises(UserError, match="unknown loss model"):
        siege_chain(3, "lucky")


def test_the_warship_bound_is_the_ships_of_a_colour():
    assert MAX_WARSHIPS == load_race_rules().ships
