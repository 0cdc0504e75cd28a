"""The numba kernel plays exactly the games of the pure-Python reference (analyzer/beacon/reference.py).

Every compared game checks all result columns, the full action trace and the final board. Games
compared: 150 x 8 (default set, hypothesis) + 100 x 8 (small custom set, hypothesis) + 32 x 6 (every
players/policy/expansions combination) + 96 (custom-set coverage) = 2,288 games.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.beacon import reference as ref
from analyzer.beacon.rules import load_rules
from analyzer.beacon.simulation import make_setup, play_range_fn, replay
from analyzer.beacon.tiles import load_tiles, parse_tiles
from kernels import beacon as kb

TRACE_LEN = 4000
EXPANSION_SETS = [frozenset(), frozenset({"windmills"}), frozenset({"piers"}),
                  frozenset({"windmills", "piers"})]
POLICIES = ["random", "greedy"]

# A small hand-made set: open sea, coasts on every side, a N-S land strip (c1) and a two-island
# channel (c2), windmills in open sea and on a coast, piers attached to one mass, joining two masses
# (q3) and reaching an interior islet (q4). Land S (n*) above land N (s*, q1, q3, c*) merges islands.
CUSTOM_CSV = """\
# small test set for tests/beacon/test_reference.py
id,north,east,south,west,feature,buildings,interior,pier
hq,~,~,~,~,hq,,,
o1,~,~,~,~,none,,,
o2,~,~,~,~,none,,,
o3,~,~,~,~,buoy,,,
o4,~,~,~,~,buoy,,,
o5,~,~,~,~,none,,,
o6,~,~,~,~,buoy,,,
n1,~,~,A,~,none,A2,,
n2,~,~,A,~,lighthouse,A1,,
n3,~,~,A,~,none,A3,,
s1,A,~,~,~,none,A1,,
s2,A,~,~,~,buoy,,,
c1,A,~,A,~,none,A1,,
c2,A,~,B,~,lighthouse,A1 B1,,
e1,~,A,~,~,none,A1,,
w1,~,~,~,A,none,A2,,
m1,~,~,~,~,windmill,,,
m2,~,~,~,~,windmill,,,
m3,~,~,A,~,windmill,A1,,
q1,A,~,~,~,pier,A2,,A
q2,~,~,A,~,pier,,,A
q3,A,~,B,~,pier,A1 B1,,AB
q4,~,A,~,~,pier,A1 B2,B,AB
q5,~,~,~,A,pier,A1,,A
"""

DEFAULT = load_tiles()
CUSTOM = parse_tiles(CUSTOM_CSV, "custom")
TILE_SETS = {"default": DEFAULT, "custom": CUSTOM}


@functools.cache
def setup_for(tile_set: str, players: int, policy: str, expansions: frozenset, rules=None):
    return make_setup(players, policy, expansions, TILE_SETS[tile_set], rules)


def kernel_games(tile_set, players, policy, expansions, seed, start, count, rules=None):
    """[(result, trace, board)] of the kernel's games start .. start + count - 1."""
    setup = setup_for(tile_set, players, policy, expansions, rules)
    out = np.zeros((kb.N_COLS, count), np.int64)
    play_range_fn(setup, seed)(start, out)
    games = []
    for j in range(count):
        layout, trace = replay(setup, seed, start + j, TRACE_LEN)
        assert len(trace) < TRACE_LEN, "trace buffer too short"
        result = {name: int(out[k, j]) for k, name in enumerate(kb.COLUMN_NAMES)}
        board = {(int(r), int(c)): int(t) for r, c, t in zip(layout["row"], layout["col"], layout["tile"])}
        games.append((result, [tuple(int(x) for x in row) for row in trace], board))
    return games


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    return min(len(a), len(b)), None, None


def compare(tile_set, players, policy, expansions, seed, start, count, rules=None):
    """Assert kernel == reference for `count` consecutive games; returns the reference games."""
    kernel = kernel_games(tile_set, players, policy, expansions, seed, start, count, rules)
    refs = []
    for j, (k_result, k_trace, k_board) in enumerate(kernel):
        r_result, r_trace, r_board = ref.play_game(TILE_SETS[tile_set], players, policy, expansions,
                                                   seed, start + j, rules)
        where = (f"tiles={tile_set} seed={seed} index={start + j} players={players} policy={policy} "
                 f"expansions={sorted(expansions)}")
        if r_trace != k_trace:
            step, r_act, k_act = first_difference(r_trace, k_trace)
            pytest.fail(f"trace differs at step {step}: reference {r_act}, kernel {k_act} ({where})")
        assert r_board == k_board, where
        assert r_result == k_result, where
        refs.append((r_result, r_trace, r_board))
    return refs


# --------------------------------------------------------------------------- whole games

game_configs = dict(
    seed=st.integers(0, 2**63 - 1),
    start=st.integers(0, 10**9),
    players=st.integers(1, 4),
    policy=st.sampled_from(POLICIES),
    expansions=st.sampled_from(EXPANSION_SETS),
)


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(**game_configs)
def test_kernel_equals_reference_default_tiles(seed, start, players, policy, expansions):
    compare("default", players, policy, expansions, seed, start, 8)


@settings(max_examples=100, derandomize=True, deadline=None, database=None)
@given(**game_configs)
def test_kernel_equals_reference_custom_tiles(seed, start, players, policy, expansions):
    compare("custom", players, policy, expansions, seed, start, 8)


@pytest.mark.parametrize("expansions", EXPANSION_SETS, ids=lambda e: "+".join(sorted(e)) or "base")
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_kernel_equals_reference_every_config(players, policy, expansions):
    """Every combination at least once, whatever hypothesis draws."""
    compare("default", players, policy, expansions, 20240501 + players, 1000 * players, 6)


KEEP_ON_EMPTY_PILE = ("solo_keep_on_empty_pile=true",)  # --rule text (hashable, for the cached setups)


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**63 - 1), start=st.integers(0, 10**9), policy=st.sampled_from(POLICIES),
       expansions=st.sampled_from(EXPANSION_SETS))
def test_kernel_equals_reference_with_the_keep_on_an_empty_pile(seed, start, policy, expansions):
    compare("default", 1, policy, expansions, seed, start, 6, KEEP_ON_EMPTY_PILE)


def test_the_keep_on_an_empty_pile_changes_games():
    """The option is not vacuous: random solo games keep tiles past the pile's end and play on."""
    changed = [compare("default", 1, "random", frozenset(), 5, i, 1, KEEP_ON_EMPTY_PILE)[0][1] !=
               compare("default", 1, "random", frozenset(), 5, i, 1)[0][1] for i in range(20)]
    assert sum(changed) >= 5


def test_custom_set_exercises_edge_cases():
    """Compared games on the custom set reach the cases the default set rarely shows: a pier's land
    running across tiles, windmills scoring open-sea neighbours, trades and solo keeps."""
    tl = ref.tile_list(CUSTOM)
    merged_piers = windmill_bonus = trades = keeps = 0
    both = frozenset({"windmills", "piers"})
    for players in (1, 2, 3, 4):
        for r_result, r_trace, board in compare("custom", players, "greedy", both, 99, 0, 24):
            trades += r_result["trades"]
            keeps += sum(1 for p, kind, a, b, c in r_trace if kind == ref.END and a >= 0)
            windmill_bonus += r_result["windmill_points"] > r_result["explored_windmill"]
            for cell, t in board.items():
                if tl[t].pier_masses and ref.is_explored(board, cell):
                    own = sum(tl[t].buildings.get(m, 0) for m in tl[t].pier_masses)
                    merged_piers += ref.pier_buildings(tl, board, cell) > own
    assert merged_piers > 0 and windmill_bonus > 0 and trades > 0 and keeps > 0


# --------------------------------------------------------------------------- scoring by the rulebook


def kernel_score(tiles, board, cfg):
    cells = list(board.items())
    rows = np.array([c[0][0] for c in cells], np.int64)
    cols = np.array([c[0][1] for c in cells], np.int64)
    ids = np.array([c[1] for c in cells], np.int64)
    out = np.zeros(kb.N_COLS, np.int64)
    kb.score_layout(setup_for("custom", 1, "greedy", frozenset()).kernel_tiles, cfg, rows, cols, ids, out)
    return {name: int(out[k]) for k, name in enumerate(ref.SCORE_COLUMNS)}


def ring(centre_tile, north, east, south, west):
    """A tile with its four neighbours, by id: the centre is explored, the others are not."""
    ids = [CUSTOM.index(x) for x in (centre_tile, north, east, south, west)]
    return {(0, 0): ids[0], (-1, 0): ids[1], (0, 1): ids[2], (1, 0): ids[3], (0, -1): ids[4]}


@pytest.mark.parametrize("board_ids, column, expected", [
    # p. 3 example: only the centre of a plus is explored; p. 6: a lighthouse scores 3
    (("c2", "n1", "o1", "s1", "o2"), "score", 3),
    (("o3", "o1", "o2", "o5", "o4"), "score", 2),  # explored buoy
    (("o1", "o2", "o5", "o3", "o4"), "score", 1),  # any other tile
    # p. 7: windmill 1 + 1 per adjacent open-sea tile (here 3; n1 shows land)
    (("m1", "o1", "o2", "o3", "n1"), "windmill_points", 4),
    (("m1", "m2", "o2", "o4", "o5"), "windmill_points", 5),
    # p. 8: pier example worth 5, 1 + 4 buildings on the land it is attached to (2 on each tile)
    (("q1", "n1", "o1", "o2", "o3"), "pier_points", 5),
    # a pier joining two masses that continue on the tiles above and below: 1 + 1 + 1 + 3 + 1
    (("q3", "n3", "o1", "s1", "o2"), "pier_points", 7),
    # a pier from an east coast to an interior islet: 1 + 1 + 2 + 2 on the island to the east
    (("q4", "o1", "w1", "o2", "o3"), "pier_points", 6),
    # the pier's own tile has no buildings; the land above carries 2
    (("q2", "o1", "o2", "q1", "o3"), "pier_points", 1 + 2),
])
def test_rulebook_scoring_examples(board_ids, column, expected):
    cfg = load_rules().cfg(1, 2)
    board = ring(*board_ids)
    tl = ref.tile_list(CUSTOM)
    assert all(ref.fits(tl, {c: u for c, u in board.items() if c != cell}, t, cell)
               for cell, t in board.items()), "the example board breaks the edge rule"
    assert ref.score(CUSTOM, board, cfg)[column] == expected
    assert kernel_score(CUSTOM, board, cfg) == ref.score(CUSTOM, board, cfg)


def test_pier_land_followed_along_a_strip():
    """p. 8: the attached land need not be explored: n1 (2) - c1 (1) - q1 (2) is one island."""
    cfg = load_rules().cfg(1, 1)
    ids = {x: CUSTOM.index(x) for x in ("n1", "c1", "q1", "o1", "o2", "o3", "o4", "o5")}
    board = {(-2, 0): ids["n1"], (-1, 0): ids["c1"], (0, 0): ids["q1"], (0, 1): ids["o1"],
             (1, 0): ids["o2"], (0, -1): ids["o3"]}
    s = ref.score(CUSTOM, board, cfg)
    assert s["pier_points"] == 1 + 5 and s["explored"] == 1
    assert kernel_score(CUSTOM, board, cfg) == s


# --------------------------------------------------------------------------- invariants


@pytest.mark.parametrize("tile_set", ["default", "custom"])
@pytest.mark.parametrize("expansions", EXPANSION_SETS, ids=lambda e: "+".join(sorted(e)) or "base")
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_tile_is_placed_or_discarded(tile_set, players, policy, expansions):
    """p. 6: the game ends when all tiles are placed or discarded (none left in hand or pile)."""
    setup = setup_for(tile_set, players, policy, expansions)
    out = np.zeros((kb.N_COLS, 300), np.int64)
    play_range_fn(setup, 7)(0, out)
    placed, discarded = out[kb.COL_TILES_PLACED], out[kb.COL_TILES_DISCARDED]
    assert np.all(placed + discarded == int(setup.active.sum()) - 1)
    assert np.all(out[kb.COL_TURNS] < kb.TURN_LIMIT)
