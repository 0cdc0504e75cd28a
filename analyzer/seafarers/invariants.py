"""Full Seafarers games played with every invariant checked after every step (kernels/catan/invariants.py):
the check behind scripts/check_invariants.py and tests/seafarers/test_full_invariants.py."""

import numpy as np

from analyzer.seafarers.bots import bot_vectors, parse_bot
from kernels.catan import game as kg
from kernels.catan import invariants as ki
from kernels.catan import play as kl


def check_games(scenario: str, players: int, bots: list[str], games: int, seed: int, first: int = 0) -> dict:
    """Games first .. first + games - 1 of `seed` on their random boards, through the commands' game loop with
    every invariant checked after every step: how many broke each invariant (by name), how many hit the turn cap,
    decisions taken, the games the villages ended (Cloth for Catan), and the first broken game."""
    from analyzer.seafarers.boards import deal_plan, generate_boards
    from analyzer.seafarers.full_rules import load_rules
    from analyzer.seafarers.play import deal_board, deal_static, fresh_board, invariant_checks, play_dealt_chunk
    from analyzer.seafarers.scenarios import load_scenario

    s = load_scenario(scenario, players)
    static = deal_static(s)
    board = fresh_board(deal_board(s, load_rules(), static))
    policies, params = bot_vectors([parse_bot(b) for b in bots])
    result = np.zeros((kg.N_RESULT_COLS, games), np.int64)
    codes, decisions = np.zeros(games, np.int64), 0
    for start in range(0, games, 1000):
        n = min(1000, games - start)
        dealt = generate_boards(deal_plan(s), n, seed, first=first + start)
        block, checks = np.zeros((kg.N_RESULT_COLS, n), np.int64), invariant_checks(board, n)
        play_dealt_chunk(board, static, seed, first + start, dealt, policies, params, block, checks=checks)
        result[:, start:start + n] = block
        codes[start:start + n] = checks.out[kl.CHECK_CODE]
        decisions += int(checks.out[kl.CHECK_DECISIONS].sum())
    broken = {name: int((codes == k + 1).sum()) for k, name in enumerate(ki.INVARIANTS)}
    bad = np.flatnonzero(codes)
    return {"games": games, "broken": broken, "first_broken_game": int(first + bad[0]) if bad.size else None,
            "capped": int(result[kg.R_CAPPED].sum()), "decisions": decisions,
            "won": int((result[kg.R_WINNER] >= 0).sum()), "cloth_end": int(result[kg.R_CLOTH_END].sum())}
