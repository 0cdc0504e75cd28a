"""The step contract (analyzer/step_contract.py) over every registered step game, after Pgx's api_test: the kernels'
signatures; legal >= 1 until terminal, every action taken one that legal listed; result as wide as the game's jobs and
the same as its command's; the same seed the same game; and a declaration bent out of the contract refused, naming
the game and the kernel."""

from dataclasses import replace

import numpy as np
import pytest
from numba import njit

from analyzer.games import games
from analyzer.step_contract import ContractError, check, play

STEP_GAMES = [g.id for g in games().values() if g.step]
SEED = 5


def test_every_game_played_move_by_move_declares_its_step_kernels():
    assert {"meographic", "regatta", "seafarers"} <= set(STEP_GAMES)


@pytest.fixture(scope="module", params=STEP_GAMES)
def declared(request):
    """(the game's checked StepGame, its fixture for SEED, game 0 of SEED played through the contract)."""
    step_game = games()[request.param].step_game()  # checks the signatures
    fixture = step_game.fixture(SEED)
    return step_game, fixture, play(step_game, fixture, SEED, 0)


def test_a_game_through_the_contract_is_the_game_its_command_plays(declared):
    step_game, fixture, played = declared
    job = fixture.job
    assert len(played.moves) > 10 and min(played.legal) >= 1
    assert played.result.shape == (job.n_cols,)
    out = np.zeros((job.n_cols, 1), job.dtype)
    job.play_range()(0, out)  # game 0 of the job's seed, by the command's own game loop
    assert job.spec["seed"] == SEED and out[:, 0].tolist() == played.result.astype(job.dtype).tolist()


def test_the_same_seed_plays_the_same_game_and_another_seed_another(declared):
    step_game, fixture, played = declared
    again = play(step_game, fixture, SEED, 0)
    assert again.moves == played.moves and again.result.tolist() == played.result.tolist()
    other = play(step_game, fixture, SEED + 1, 0)
    assert other.moves != played.moves


@pytest.fixture(scope="module")
def meographic():
    return games()["meographic"].step_game()


def test_a_missing_kernel_is_refused_by_game_and_name(meographic):
    with pytest.raises(ContractError, match=r"^meographic: no terminal kernel declared; .* terminal\(state, setup\)"):
        check(replace(meographic, terminal=None))


def test_a_kernel_of_another_arity_is_refused_by_game_and_name(meographic):
    @njit
    def legal(state, setup):
        return 1

    with pytest.raises(ContractError, match=r"^meographic: legal\(state, setup\) takes 2 parameters .* "
                                            r"legal\(state, setup, actions\)"):
        check(replace(meographic, legal=legal))


def test_parameters_in_another_order_or_role_are_refused():
    seafarers = games()["seafarers"].step_game()
    with pytest.raises(ContractError, match=r"^seafarers: init\(board, game, seed, g\) .* "
                                            r"init\(game, board, seed, g\)"):
        check(replace(seafarers, setup_first=False))
    with pytest.raises(ContractError, match=r"^seafarers: decide\(board, game, n, policy, params, stream, work\): the "
                                            r"seat's rng must be either passed .* not both"):
        check(replace(seafarers, elsewhere={"rng": "game.streams"}))
    with pytest.raises(ContractError, match=r"^seafarers: legal\(board, game\) takes 2 .* "
                                            r"legal\(board, game, actions\)"):
        check(replace(seafarers, actions_in=""))


def test_a_decision_that_is_not_a_legal_action_is_refused(meographic):
    @njit
    def decide(state, setup, actions, n, sim):
        return n

    fixture = meographic.fixture(SEED)
    with pytest.raises(ContractError, match=r"^meographic, game 0 of seed 5, move 0: decide chose \d+, not one of"):
        play(replace(meographic, decide=decide), fixture, SEED, 0)


def test_a_result_narrower_than_the_jobs_is_refused(meographic):
    @njit
    def result(state, setup, out):
        out[:out.shape[0] - 1] = 0

    fixture = meographic.fixture(SEED)
    width = fixture.job.n_cols
    with pytest.raises(ContractError, match=rf"^meographic, game 0 of seed 5: result left columns \[{width - 1}\]"):
        play(replace(meographic, result=result), fixture, SEED, 0)
