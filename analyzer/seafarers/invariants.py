"""Full Seafarers games played with every invariant checked after every step (kernels/catan/invariants.py):
the check behind scripts/check_invariants.py and tests/seafarers/test_full_invariants.py."""

import numpy as np

from analyzer.seafarers.bots import bot_vectors, parse_bot
from kernels.catan import game as kg
from kernels.catan import invariants as ki
from kernels.catan import policies as kp
from kernels.catan.route import route_work


def check_games(scenario: str, players: int, bots: list[str], games: int, seed: int, first: int = 0) -> dict:
    """Games first .. first + games - 1 of `seed` on their random boards: how many broke each invariant (by
    name), how many hit the turn cap, decisions taken, the games the villages ended (Cloth for Catan), and the
    first broken game."""
    from analyzer.seafarers.boards import deal_plan, generate_boards
    from analyzer.seafarers.full_rules import load_rules
    from analyzer.seafarers.play import kernel_board
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.seafarers.table import game_table

    s, rules = load_scenario(scenario, players), load_rules()
    policies, params = bot_vectors([parse_bot(b) for b in bots])
    out = np.zeros((ki.N_COLS, games), np.int64)
    one = np.zeros((ki.N_COLS, 1), np.int64)  # (contiguous: a slice of out would compile play_checked again)
    game = None
    streams = np.zeros((kg.MAX_SEATS, 2), np.uint64)
    for start in range(0, games, 1000):
        n = min(1000, games - start)
        dealt = generate_boards(deal_plan(s), n, seed, first=first + start)
        for j in range(n):
            board = kernel_board(game_table(s, rules, dealt.terrain[j], dealt.number[j], dealt.harbour[j]))
            game = kg.new_game(board) if game is None else game
            work = route_work(len(board.edge_corners))
            ki.play_checked(board, game, seed, first + start + j, policies, params, streams, kp.bot_work(board), work,
                            one)
            out[:, start + j] = one[:, 0]
    codes = out[0]
    broken = {name: int((codes == k + 1).sum()) for k, name in enumerate(ki.INVARIANTS)}
    bad = np.flatnonzero(codes)
    return {"games": games, "broken": broken, "first_broken_game": int(first + bad[0]) if bad.size else None,
            "capped": int(out[2].sum()), "decisions": int(out[1].sum()), "won": int((out[3] >= 0).sum()),
            "cloth_end": int(out[4].sum())}
