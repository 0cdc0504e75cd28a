"""Production kernel: hand-built positions, kernel == pure-Python reference on random boards, analytic income."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import stats
from analyzer.errors import UserError
from analyzer.rng_reference import Stream
from analyzer.seafarers import reference as ref
from analyzer.seafarers.production import (
    check_board,
    expected_income,
    parse_gold_policy,
    simulate_rolls,
    starting_hands,
)
from kernels.catan import production as kp
from kernels.catan.codes import BRICK, DESERT, GOLD, GRAIN, LUMBER, ORE, SEA, WOOL
from kernels.rng import PURPOSE_DICE, PURPOSE_STEAL, stream_init

NUMBERS = (0, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def tables(board, n_players, banned=None):
    terrain, number, hexes, building, owner = board
    offsets, yields, gold, blocked = kp.production_tables(terrain, number, hexes, building, owner, n_players)
    touch = kp.hex_touch(len(terrain), hexes, building, owner, n_players)
    banned = np.zeros(len(terrain), np.bool_) if banned is None else np.asarray(banned, np.bool_)
    plan = kp.robber_plan(terrain, number, touch, kp.victory_points(building, owner, n_players), banned)
    return offsets, yields, gold, blocked, plan, touch


def small_board(terrain, number, corners):
    """corners: [(hexes, building, owner)] -> the checked kernel arrays."""
    hexes = [list(h) + [-1] * (3 - len(h)) for h, _, _ in corners]
    return check_board(terrain, number, hexes, [b for _, b, _ in corners], [o for _, _, o in corners], -1, 4)


def one_roll(board, roll, robber, hands, gold_policy=kp.GOLD_POOREST):
    offsets, yields, gold, blocked, _, _ = tables(board, hands.shape[0])
    tallies = np.zeros((hands.shape[0], kp.N_TALLY), np.int64)
    kp.produce(roll, robber, offsets, yields, gold, blocked, gold_policy, hands, tallies)
    return tallies


# --------------------------------------------------------------------------- hand-built positions

# hex 0 forest 8, hex 1 hills 8, hex 2 desert, hex 3 sea, hex 4 gold 6
TERRAIN = [LUMBER, BRICK, DESERT, SEA, GOLD]
NUMBER = [8, 8, 0, 0, 6]


def test_settlement_gives_one_city_two_and_the_robber_blocks():
    board = small_board(TERRAIN, NUMBER, [((0, 1), 1, 0), ((0,), 2, 1)])
    hands = np.zeros((4, 5), np.int32)
    t = one_roll(board, 8, -1, hands)
    assert hands[0].tolist() == [1, 1, 0, 0, 0] and hands[1].tolist() == [2, 0, 0, 0, 0]
    assert t[0, kp.T_RECEIVED] == 1 and t[1, kp.T_RECEIVED] == 2
    hands[:] = 0
    t = one_roll(board, 8, 0, hands)  # robber on the forest
    assert hands[0].tolist() == [0, 1, 0, 0, 0] and hands[1].tolist() == [0] * 5
    assert t[0, kp.T_BLOCKED] == 1 and t[1, kp.T_BLOCKED] == 2
    hands[:] = 0
    one_roll(board, 9, -1, hands)  # nobody has a 9
    assert hands.sum() == 0


def test_desert_and_sea_give_nothing_even_with_a_number():
    board = small_board([DESERT, SEA, ORE], [8, 8, 5], [((0, 1, 2), 2, 0)])
    hands = np.zeros((4, 5), np.int32)
    t = one_roll(board, 8, -1, hands)
    assert hands.sum() == 0 and t.sum() == 0
    assert expected_income(*board, 4)[0].tolist() == pytest.approx([0, 0, 0, 0, 2 * 4 / 36, 0])


def test_gold_asks_the_policy_card_by_card():
    board = small_board(TERRAIN, NUMBER, [((4,), 2, 0), ((4,), 1, 1)])
    hands = np.zeros((4, 5), np.int32)
    hands[1] = [0, 2, 1, 3, 1]
    t = one_roll(board, 6, -1, hands)  # poorest: seat 0 empty -> lumber then brick; seat 1 -> lumber
    assert hands[0].tolist() == [1, 1, 0, 0, 0] and hands[1].tolist() == [1, 2, 1, 3, 1]
    assert t[0, kp.T_GOLD] == 2 and t[1, kp.T_GOLD] == 1 and t[0, kp.T_RECEIVED + 1] == 1
    hands[:] = 0
    one_roll(board, 6, -1, hands, gold_policy=parse_gold_policy("ore"))
    assert hands[0].tolist() == [0, 0, 0, 0, 2] and hands[1].tolist() == [0, 0, 0, 0, 1]
    hands[:] = 0
    t = one_roll(board, 6, 4, hands)  # the robber on the gold field
    assert hands.sum() == 0 and t[0, kp.T_BLOCKED] == 2


def test_gold_is_chosen_after_the_ordinary_cards_of_the_roll():
    board = small_board([LUMBER, GOLD], [6, 6], [((0, 1), 1, 0)])
    hands = np.zeros((4, 5), np.int32)
    one_roll(board, 6, -1, hands)  # lumber first, so the poorest is then brick
    assert hands[0].tolist() == [1, 1, 0, 0, 0]


@pytest.mark.parametrize("hand,after", [
    ([2, 2, 1, 1, 1], [2, 2, 1, 1, 1]),  # 7 cards: no discard
    ([5, 3, 0, 0, 0], [2, 2, 0, 0, 0]),  # 8 cards: 4 from the most plentiful, ties lowest index first
    ([3, 3, 3, 0, 0], [1, 2, 2, 0, 0]),  # 9 cards: 4
    ([0, 0, 0, 0, 20], [0, 0, 0, 0, 10]),
    ([3, 3, 3, 3, 3], [1, 1, 2, 2, 2]),  # 15 cards: 7, the last two from the lowest indices
])
def test_a_seven_discards_half_of_more_than_seven(hand, after):
    board = small_board(TERRAIN, NUMBER, [((0,), 1, 0)])
    _, _, _, _, plan, touch = tables(board, 4)
    hands = np.zeros((4, 5), np.int32)
    hands[1] = hand
    tallies = np.zeros((4, kp.N_TALLY), np.int64)
    stream = np.zeros(2, np.uint64)
    kp.seven(1, -1, plan, touch, hands, tallies, stream)  # seat 1 rolls: nobody else has cards to steal
    assert hands[1].tolist() == after
    assert tallies[1, kp.T_DISCARDED] == sum(hand) - sum(after)
    assert tallies[1, kp.T_SEVENS_HIT] == (sum(hand) > 7)


@settings(max_examples=200, deadline=None)
@given(hand=st.lists(st.integers(0, 30), min_size=5, max_size=5), data=st.data())
def test_give_up_in_closed_form_is_one_card_at_a_time(hand, data):
    k = data.draw(st.integers(0, sum(hand)))
    hands = np.array([hand], np.int32)
    kp.give_up_most_plentiful(hands, 0, k)
    expected = list(hand)
    ref.give_up(expected, k)
    assert hands[0].tolist() == expected


def test_robber_blocks_the_leaders_best_hex_not_the_rollers():
    # hexes: 0 ore 6 (5 pips), 1 grain 8 (5 pips), 2 wool 4 (3 pips), 3 desert
    # seat 0: a city on (0, 3)            -> 2 VP, income 10
    # seat 1: settlements on (1, 2), (2, 3) -> 2 VP, income 5 + 3 + 3 = 11
    # seat 2: a settlement on (0, 2)      -> 1 VP, income 8
    board = check_board([ORE, GRAIN, WOOL, DESERT], [6, 8, 4, 0],
                        [[0, 3, -1], [1, 2, -1], [0, 2, -1], [2, 3, -1]], [2, 1, 1, 1], [0, 1, 2, 1], 3, 3)
    _, _, _, _, plan, touch = tables(board, 3)
    assert plan[0].tolist() == [2, 1]  # leader seat 1 (more income): its wool (harm 6) beats its grain (5)
    assert plan[1].tolist() == [0, 3]  # leader seat 0: its ore; then the desert, harmless to seat 1
    assert plan[2].tolist() == [1, 3]  # leader seat 1: the grain, as ore and wool would hit seat 2 itself
    hands = np.zeros((3, 5), np.int32)
    hands[1] = [0, 0, 0, 3, 0]
    tallies = np.zeros((3, kp.N_TALLY), np.int64)
    stream = np.zeros(2, np.uint64)
    stream_init(stream, 1, 0, PURPOSE_STEAL)
    robber = kp.seven(0, 3, plan, touch, hands, tallies, stream)  # seats 1 and 2 touch the wool; 2 has no card
    assert robber == 2 and hands[0].tolist() == [0, 0, 0, 1, 0] and hands[1].tolist() == [0, 0, 0, 2, 0]
    assert tallies[1, kp.T_TARGETED] == tallies[2, kp.T_TARGETED] == 1 and tallies[0, kp.T_TARGETED] == 0
    assert tallies[1, kp.T_ROBBED] == 1 and tallies[0, kp.T_STOLE] == 1
    assert kp.seven(0, 2, plan, touch, hands, tallies, stream) == 1  # already on the wool: the second choice


def test_robber_bans_take_the_next_allowed_hex():
    # The board of the test above: unconstrained, seat 0 sends the robber to the wool (hex 2), then the grain.
    board = check_board([ORE, GRAIN, WOOL, DESERT], [6, 8, 4, 0],
                        [[0, 3, -1], [1, 2, -1], [0, 2, -1], [2, 3, -1]], [2, 1, 1, 1], [0, 1, 2, 1], 3, 3)
    _, _, _, _, plan, touch = tables(board, 3, banned=[False, False, True, False])  # the wool banned
    assert plan[0].tolist() == [1, 3]  # the grain, then the desert (the ore would hit seat 0 itself)
    assert plan[1].tolist() == [0, 3] and plan[2].tolist() == [1, 3]  # never the wool (it was nobody's first)
    _, _, _, _, plan, _ = tables(board, 3, banned=[False, True, True, True])
    assert plan[0].tolist() == [0, -1]  # only the ore is left, though it hurts the roller
    hands = np.zeros((3, 5), np.int32)
    tallies = np.zeros((3, kp.N_TALLY), np.int64)
    stream = np.zeros(2, np.uint64)
    assert kp.seven(0, 0, plan, touch, hands, tallies, stream) == 0  # no allowed hex to move to: it stays
    # Through simulate_rolls: seat 1's only building is on the banned grain, so the robber never targets it.
    args = check_board([ORE, GRAIN, DESERT], [6, 8, 0], [[0, -1, -1], [1, -1, -1]], [1, 1], [0, 1], 2, 2)
    for banned, targeted in ((None, True), ([False, True, False], False)):
        tallies = simulate_rolls(*args, 2, n_players=2, n_rolls=60, sequences=50, seed=3, robber_banned=banned)
        assert (tallies[1, kp.T_TARGETED].sum() > 0) == targeted
        assert (tallies[1, kp.T_BLOCKED].sum() > 0) == targeted


# hexes: 0 forest 8, 1 hills 8, 2 desert, 3 sea, 4 gold 6, 5 pasture without a number, 6 gold 5
START_TERRAIN = [LUMBER, BRICK, DESERT, SEA, GOLD, WOOL, GOLD]
START_NUMBER = [8, 8, 0, 0, 6, 0, 5]
START_CORNERS = [[0, 4, 2], [1, 3, 5], [4, 6, 0], [2, 3, -1]]  # corner k: the hexes it touches


@pytest.mark.parametrize("policy,expected", [
    # seat 0: lumber + gold; seat 1: brick (sea, a pasture without number give nothing); seat 2: lumber + 2 gold,
    # the gold cards after the lumber, one at a time; seat 3 has no start corner.
    ("poorest", [[1, 1, 0, 0, 0], [0, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0]]),
    ("ore", [[1, 0, 0, 0, 1], [0, 1, 0, 0, 0], [1, 0, 0, 0, 2], [0, 0, 0, 0, 0]]),
])
def test_starting_hands_one_card_per_producing_hex_of_the_start_corner(policy, expected):
    start_corners = [0, 1, 2, -1]
    got = starting_hands(START_TERRAIN, START_NUMBER, START_CORNERS, start_corners, policy)
    assert got.tolist() == expected and got.dtype == np.int32
    assert ref.starting_hands(START_TERRAIN, START_NUMBER, START_CORNERS, start_corners,
                              parse_gold_policy(policy)) == expected
    # a desert-and-sea corner gives nothing; only the start corner counts, not the seat's other settlements
    assert starting_hands(START_TERRAIN, START_NUMBER, START_CORNERS, [3, 3]).sum() == 0


def test_sequences_start_from_the_starting_hands():
    board = check_board(START_TERRAIN, START_NUMBER, START_CORNERS, [1, 1, 1, 1], [0, 1, 2, 3], 2, 4)
    start = starting_hands(START_TERRAIN, START_NUMBER, START_CORNERS, [0, 1, 2, -1])
    options = dict(n_players=4, n_rolls=1, sequences=100, seed=2)
    tallies = simulate_rolls(*board, 2, start_hands=start, **options)
    empty = simulate_rolls(*board, 2, **options)
    sevens = [k for k in range(100) if sum(ref.rolls(2, k, 1)[0]) == 7]
    assert sevens
    for k in sevens:  # a 7 on the first roll: only a starting hand has a card to steal
        assert tallies[:, kp.T_STOLE, k].sum() == 1 and empty[:, kp.T_STOLE, k].sum() == 0
    for k in range(100):
        _, r_tallies, _ = ref.play_sequence(*board, 2, 4, 1, -1, -1, 2, k, start_hands=start.tolist())
        assert tallies[:, :, k].tolist() == r_tallies
    # the starting cards are not income: with 7s off (and a gold policy that ignores the hand, as 'poorest'
    # rightly does not), the tallies are the same as from empty hands
    fixed = dict(seven_rules=False, gold_policy="ore", **options)
    assert np.array_equal(simulate_rolls(*board, 2, start_hands=start, **fixed), simulate_rolls(*board, 2, **fixed))


def test_starting_hands_raise_the_discards():
    """End to end on the fixture board: each seat's second settlement gives 2-3 cards, and more 7s find
    hands above 7 cards (same dice with and without them)."""
    b = ref.base_board()
    args = [b[k] for k in ("hex_terrain", "hex_number", "corner_hexes", "corner_building", "corner_owner", "robber")]
    owner = np.asarray(b["corner_owner"])
    second = [int(np.flatnonzero(owner == p)[-1]) for p in range(4)]  # any of the two: this is about the count
    start = starting_hands(b["hex_terrain"], b["hex_number"], b["corner_hexes"], second)
    assert start.sum(axis=1).min() >= 2
    options = dict(n_players=4, n_rolls=60, sequences=2000, seed=4)
    empty = simulate_rolls(*args, **options)[:, kp.T_DISCARDED].sum(axis=0)
    started = simulate_rolls(*args, start_hands=start, **options)[:, kp.T_DISCARDED].sum(axis=0)
    diff = stats.paired_difference(started, empty)
    assert diff["ci95"][0] > 0, diff
    for k in (0, 1999):
        _, tallies, _ = ref.play_sequence(*args, 4, 60, -1, -1, 4, k, start_hands=start.tolist())
        assert sum(t[kp.T_DISCARDED] for t in tallies) == started[k]


# --------------------------------------------------------------------------- kernel == reference

@st.composite
def boards(draw):
    n_hex = draw(st.integers(1, 7))
    terrain = draw(st.lists(st.integers(0, 7), min_size=n_hex, max_size=n_hex))
    number = draw(st.lists(st.sampled_from(NUMBERS), min_size=n_hex, max_size=n_hex))
    n_players = draw(st.integers(1, 4))
    corners = draw(st.lists(st.tuples(st.lists(st.integers(0, n_hex - 1), min_size=1, max_size=3, unique=True),
                                      st.integers(0, 2), st.integers(0, n_players - 1)), min_size=1, max_size=10))
    land = [h for h in range(n_hex) if terrain[h] != SEA]
    robber = draw(st.sampled_from([-1] + land))
    hexes = [h + [-1] * (3 - len(h)) for h, _, _ in corners]
    building = [b for _, b, _ in corners]
    owner = [o if b else -1 for (_, b, o) in corners]
    return terrain, number, hexes, building, owner, robber, n_players


@settings(max_examples=120, deadline=None)
@given(board=boards(), n_rolls=st.integers(1, 150), gold_policy=st.integers(-1, 4), spend_to=st.integers(-1, 9),
       seven_rules=st.booleans(), seed=st.integers(0, 2**40), start=st.lists(st.integers(0, 6), min_size=20,
                                                                               max_size=20),
       banned=st.lists(st.booleans(), min_size=7, max_size=7))
def test_kernel_plays_the_reference_sequence(board, n_rolls, gold_policy, spend_to, seven_rules, seed, start,
                                             banned):
    terrain, number, hexes, building, owner, robber, n_players = board
    arrays = check_board(terrain, number, hexes, building, owner, robber, n_players)
    banned = banned[:len(terrain)]
    offsets, yields, gold, blocked, plan, touch = tables(arrays, n_players, banned)
    start_hands = np.array(start[:n_players * 5], np.int32).reshape(n_players, 5)
    hands = start_hands.copy()
    tallies = np.zeros((n_players, kp.N_TALLY), np.int64)
    dice, steal = np.zeros(2, np.uint64), np.zeros(2, np.uint64)
    stream_init(dice, seed, 3, PURPOSE_DICE)
    stream_init(steal, seed, 3, PURPOSE_STEAL)
    end = kp.play_rolls(n_rolls, robber, offsets, yields, gold, blocked, plan, touch, gold_policy, spend_to,
                        seven_rules, hands, tallies, np.zeros(13, np.int64), np.zeros((len(terrain) + 1, 13), np.int64),
                        dice, steal)
    r_hands, r_tallies, r_end = ref.play_sequence(terrain, number, hexes, building, owner, robber, n_players,
                                                  n_rolls, gold_policy, spend_to, seed, 3, seven_rules,
                                                  start_hands.tolist(), [h for h in range(len(terrain)) if banned[h]])
    assert hands.tolist() == r_hands and tallies.tolist() == r_tallies and end == r_end
    assert end < 0 or end == robber or not banned[end]
    # every card is accounted for
    t = tallies
    assert (hands.sum(axis=1) == start_hands.sum(axis=1) + t[:, :5].sum(axis=1) - t[:, kp.T_DISCARDED]
            - t[:, kp.T_ROBBED] + t[:, kp.T_STOLE] - t[:, kp.T_SPENT]).all()


@settings(max_examples=60, deadline=None)
@given(board=boards(), roll=st.sampled_from(NUMBERS[1:]), gold_policy=st.integers(-1, 4),
       start=st.lists(st.integers(0, 9), min_size=20, max_size=20))
def test_one_roll_is_the_reference_roll(board, roll, gold_policy, start):
    terrain, number, hexes, building, owner, robber, n_players = board
    arrays = check_board(terrain, number, hexes, building, owner, robber, n_players)
    hands = np.array(start[:n_players * 5], np.int32).reshape(n_players, 5)
    r_hands, r_tallies = hands.tolist(), [[0] * kp.N_TALLY for _ in range(n_players)]
    tallies = one_roll(arrays, roll, robber, hands, gold_policy)
    ref.Table(terrain, number, hexes, building, owner, n_players).produce(roll, robber, r_hands, r_tallies,
                                                                            gold_policy)
    assert hands.tolist() == r_hands and tallies.tolist() == r_tallies


@settings(max_examples=60, deadline=None)
@given(board=boards(), start=st.lists(st.integers(0, 9), min_size=20, max_size=20), data=st.data(),
       banned=st.lists(st.booleans(), min_size=7, max_size=7))
def test_one_seven_is_the_reference_seven(board, start, data, banned):
    terrain, number, hexes, building, owner, robber, n_players = board
    roller = data.draw(st.integers(0, n_players - 1))
    arrays = check_board(terrain, number, hexes, building, owner, robber, n_players)
    banned = banned[:len(terrain)]
    _, _, _, _, plan, touch = tables(arrays, n_players, banned)
    hands = np.array(start[:n_players * 5], np.int32).reshape(n_players, 5)
    r_hands, r_tallies = hands.tolist(), [[0] * kp.N_TALLY for _ in range(n_players)]
    tallies = np.zeros((n_players, kp.N_TALLY), np.int64)
    stream = np.zeros(2, np.uint64)
    stream_init(stream, 7, 1, PURPOSE_STEAL)
    end = kp.seven(roller, robber, plan, touch, hands, tallies, stream)
    r_end = ref.Table(terrain, number, hexes, building, owner, n_players,
                      [h for h in range(len(terrain)) if banned[h]]).seven(
        roller, robber, r_hands, r_tallies, Stream(7, 1, PURPOSE_STEAL))
    assert end == r_end and hands.tolist() == r_hands and tallies.tolist() == r_tallies


@settings(max_examples=100, deadline=None)
@given(board=boards(), gold_policy=st.integers(-1, 4), data=st.data())
def test_starting_hands_are_the_reference_starting_hands(board, gold_policy, data):
    terrain, number, hexes, _, _, _, n_players = board
    corners = data.draw(st.lists(st.integers(-1, len(hexes) - 1), min_size=n_players, max_size=n_players))
    got = starting_hands(terrain, number, hexes, corners, gold_policy)
    assert got.tolist() == ref.starting_hands(terrain, number, hexes, corners, gold_policy)


def test_simulate_rolls_is_play_rolls_per_sequence_and_thread_free():
    b = ref.base_board()
    args = [b[k] for k in ("hex_terrain", "hex_number", "corner_hexes", "corner_building", "corner_owner", "robber")]
    one = simulate_rolls(*args, n_players=4, n_rolls=90, sequences=300, seed=5, threads=1)
    two = simulate_rolls(*args, n_players=4, n_rolls=90, sequences=300, seed=5, threads=2)
    assert np.array_equal(one, two) and one.shape == (4, kp.N_TALLY, 300)
    for k in (0, 299):
        _, tallies, _ = ref.play_sequence(*args, 4, 90, -1, -1, 5, k)
        assert one[:, :, k].tolist() == tallies


# --------------------------------------------------------------------------- statistics

def income_check(board, robber, seven_rules):
    args = [board[k] for k in ("hex_terrain", "hex_number", "corner_hexes", "corner_building", "corner_owner")]
    n_rolls, n_seq = 200, 2000
    tallies = simulate_rolls(*args, robber, n_players=4, n_rolls=n_rolls, sequences=n_seq, seed=8,
                             seven_rules=seven_rules, gold_policy="ore")
    exact = expected_income(*args, 4)
    for p in range(4):
        for col in range(6):  # lumber..ore from ordinary fields, then gold cards
            got = tallies[p, kp.T_GOLD if col == 5 else col] - (tallies[p, kp.T_GOLD] if col == 4 else 0)
            ci = stats.mean_ci(got / n_rolls)
            assert abs(ci["mean"] - exact[p, col]) <= 4 * ci["sem"] + 1e-12, (p, col, ci, exact[p, col])


def test_income_per_roll_is_the_analytic_pip_sum():
    board = ref.base_board()
    board["hex_terrain"] = [GOLD if h == 4 else t for h, t in enumerate(board["hex_terrain"])]  # a gold field too
    income_check(board, -1, seven_rules=False)
    income_check(board, -1, seven_rules=True)  # no robber: discards and steals move cards, income stays


@pytest.mark.parametrize("change,fragment", [
    (dict(hex_number=[8, 8, 7, 0, 6]), "without 7"),
    (dict(hex_terrain=[3, 4, 1, 0, 9]), "hex_terrain codes"),
    (dict(corner_hexes=[[0, 5, -1]]), "corner_hexes must be -1 or a hex index"),
    (dict(corner_building=[3]), "corner_building"),
    (dict(corner_owner=[4]), "corner_owner"),
    (dict(corner_owner=[-1]), "corner_owner"),
    (dict(robber=3), "robber must be -1 (none) or a land hex"),
])
def test_bad_boards_are_one_line_user_errors(change, fragment):
    board = dict(hex_terrain=TERRAIN, hex_number=NUMBER, corner_hexes=[[0, 1, -1]], corner_building=[1],
                 corner_owner=[0], robber=-1)
    board.update(change)
    with pytest.raises(UserError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        check_board(**board, n_players=4)


def test_bad_options_are_user_errors():
    b = ref.base_board()
    args = [b[k] for k in ("hex_terrain", "hex_number", "corner_hexes", "corner_building", "corner_owner", "robber")]
    for kwargs, fragment in ((dict(n_rolls=0), "rolls"), (dict(sequences=0), "sequences"),
                             (dict(gold_policy="silver"), "unknown gold policy"), (dict(spend_to=-2), "spend_to"),
                             (dict(seed=-1), "seed"), (dict(n_rolls=2**63), "rolls must be from 1 to 100,000"),
                             (dict(sequences=10**30), "sequences must be from 1 to 100,000"),
                             (dict(spend_to=10**30), "spend_to must be from -1"), (dict(n_players=7), "players"),
                             (dict(threads=10**30), "threads")):
        options = dict(n_players=4, n_rolls=10, sequences=2, seed=1) | kwargs
        with pytest.raises(UserError, match=fragment):
            simulate_rolls(*args, **options)
    for kwargs, fragment in ((dict(start_hands=np.zeros((3, 5), np.int32)), "start_hands must be whole"),
                             (dict(start_hands=np.full((4, 5), 0.5)), "start_hands must be whole"),
                             (dict(start_hands=np.full((4, 5), -1)), "start_hands must hold 0 to 95"),
                             (dict(start_hands=np.full((4, 5), 20)), "start_hands must hold 0 to 95"),
                             (dict(robber_banned=np.zeros(18, bool)), "robber_banned must be a bool mask"),
                             (dict(robber_banned=np.zeros(19, int)), "robber_banned must be a bool mask")):
        with pytest.raises(UserError, match=fragment):
            simulate_rolls(*args, n_players=4, n_rolls=10, sequences=2, seed=1, **kwargs)
    with pytest.raises(UserError, match="start_corners must be -1"):
        starting_hands(b["hex_terrain"], b["hex_number"], b["corner_hexes"], [0, 1, 2, 10**4])
