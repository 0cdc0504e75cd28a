"""Random boards' kernel Board filled in place in numba (kernels/catan/table.py) is the slow reference's
kernel_board(game_table(...)) field for field, and games on random boards play as they did on the reference's Board."""

from dataclasses import replace

import numpy as np
import pytest

from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_game import PLAY_SCENARIOS, play_job, play_range
from analyzer.seafarers.full_rules import load_rules, rules_text
from analyzer.seafarers.play import DEAL_FIELDS, deal_board, deal_static, fresh_board, kernel_board, play_chunk
from analyzer.seafarers.scenarios import load_scenario
from analyzer.seafarers.table import game_table
from kernels.catan import game as kg
from kernels.catan import table as kt
from kernels.catan.codes import DESERT, GRAIN, LUMBER, ORE
from tests.support import sample

RULES = load_rules()
DEALS = sample(50, 20)
GAMES = sample(20, 8)  # per bot line of test_play_range_on_random_boards_plays_the_old_games


def filler(scenario):
    static = deal_static(scenario)
    board = fresh_board(deal_board(scenario, RULES, static))
    work = kt.new_deal_work(len(board.terrain), len(board.corner_hexes), len(board.edge_corners))
    return lambda row: kt.fill_board(static, work, *row, board) or board


def assert_same_board(filled, expected):
    for name in kg.Board._fields:
        got, want = getattr(filled, name), getattr(expected, name)
        if name == "foreign_only":  # sized for any deal: this deal's territories, then False
            assert got[:len(want)].tolist() == want.tolist()
            assert not got[len(want):].any()
            continue
        assert got.dtype == want.dtype, name
        assert got.shape == want.shape, name
        assert np.array_equal(got, want), name


@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("slug", PLAY_SCENARIOS)
def test_every_field_of_the_filled_board_is_the_references(slug, players):
    """DEALS random deals, each filled into the same Board in place (nothing of one deal may stay for the next)."""
    s = load_scenario(slug, players)
    fill = filler(s)
    b = generate_boards(deal_plan(s), DEALS, seed=7, first=1000)
    seen = {name: set() for name in DEAL_FIELDS}
    for j in range(DEALS):
        row = (b.terrain[j], b.number[j], b.harbour[j])
        filled = fill(row)
        assert_same_board(filled, kernel_board(game_table(s, RULES, *row)))
        for name in DEAL_FIELDS:
            seen[name].add(getattr(filled, name).tobytes())
    # the deals differ where the scenario deals anything: the comparison above is not of one board DEALS times
    if slug == "pirate-islands":  # the printed board, only its harbours shuffled ('com exceção dos portos')
        assert len(seen["corner_harbour"]) > 1
    else:
        assert len(seen["terrain"]) > 1 and len(seen["corner_pips"]) > 1 and len(seen["scarcity"]) > 1


def test_per_island_territories_follow_the_deals_islands():
    """Four Islands (per_island bonus areas): the number of territories, and so of foreign_only entries in use,
    is what game_table counts on each deal; the filled board names no territory past them."""
    s = load_scenario("four-islands", 4)
    fill = filler(s)
    b = generate_boards(deal_plan(s), 20, seed=3)
    for j in range(20):
        row = (b.terrain[j], b.number[j], b.harbour[j])
        table = game_table(s, RULES, *row)
        filled = fill(row)
        assert filled.corner_territory.max() == table.corner_territory.max()
        assert filled.corner_territory.max() < len(table.territory_foreign_only)


def variants():
    """New Shores (4 players) changed where no playable scenario goes yet, so that every branch of fill_board is
    checked: the robber on a number of a preferred terrain, never back to its start, kept out of a zone; a
    no-settlement area; bonus areas that overlap (corners on two territories: the lowest-index hex's counts) and
    a start_or_bonus area whose islands vary by deal (foreign_only's length in use varies); closed corners; harbours
    not shown at set-up."""
    s = load_scenario("new-shores", 4)
    main, islets = s.areas
    odd = tuple(h for h in main.hexes if h % 2)
    even = tuple(h for h in main.hexes if not h % 2)
    yield "robber", replace(s, robber=replace(s.robber, rule="number", number=6, terrain=GRAIN, return_to_start=False,
                                              forbidden_zones=("B",)))
    areas = (main, replace(main, name="odd", hexes=odd, role="bonus", per_island=False),
             replace(main, name="even", hexes=even, role="bonus"), replace(islets, role="start_or_bonus"),
             replace(islets, name="cliffs", role="no_settle", hexes=islets.hexes[::2]))
    yield "areas", replace(s, areas=areas)
    closed = replace(s.markers, wasteland_corners=tuple(range(0, s.topology.n_corner, 7)), no_setup_corners=(3, 5))
    yield "markers", replace(s, markers=closed, harbours=replace(s.harbours, placement="gifts"))


def odd_rows(b, j):
    """Deal j as dealt, without ore (scarcity of an absent resource), without a desert (no robber start)."""
    terrain, number, harbour = b.terrain[j], b.number[j], b.harbour[j]
    yield terrain, number, harbour
    yield np.where(terrain == ORE, DESERT, terrain).astype(np.int8), number, harbour
    yield np.where(terrain == DESERT, LUMBER, terrain).astype(np.int8), number, harbour


@pytest.mark.parametrize("name", ("robber", "areas", "markers"))
def test_every_field_is_the_references_on_scenario_variants(name):
    s = dict(variants())[name]
    fill = filler(s)
    b = generate_boards(deal_plan(s), 30, seed=5)
    for j in range(30):
        for row in odd_rows(b, j):
            assert_same_board(fill(row), kernel_board(game_table(s, RULES, *row)))


def reference_chunk(slug, players, bots, seed, first, n):
    """The old play_range on random boards: a kernel_board(game_table(...)) per game in Python."""
    s = load_scenario(slug, players)
    dealt = generate_boards(deal_plan(s), n, seed, first=first)
    policies, params = bot_vectors([parse_bot(b) for b in bots])
    out = np.zeros((kg.N_RESULT_COLS, n), np.int64)
    one = np.zeros((kg.N_RESULT_COLS, 1), np.int64)  # (contiguous, as the command's: a slice would compile anew)
    for j in range(n):
        board = kernel_board(game_table(s, RULES, dealt.terrain[j], dealt.number[j], dealt.harbour[j]))
        play_chunk(board, seed, first + j, policies, params, one)
        out[:, j] = one[:, 0]
    return out


@pytest.mark.parametrize("slug", PLAY_SCENARIOS)
def test_play_range_on_random_boards_plays_the_old_games(slug):
    """tabletop seafarers play's job on random boards: the same result columns as one Board built in Python per
    game, for value and random bots, 3 and 4 players."""
    text, _ = rules_text(None)
    for players, bots in ((4, ["value"] * 4), (3, ["random", "value:opening=port", "weighted"])):
        job = play_job(slug, players, [parse_bot(b) for b in bots], 11, "random", text)
        play = play_range(job.spec)
        out = np.zeros((kg.N_RESULT_COLS, GAMES), np.int32)
        play(500, out)
        assert out.tolist() == reference_chunk(slug, players, bots, 11, 500, GAMES).tolist()
