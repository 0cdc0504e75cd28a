"""Random Seafarers boards (kernels/catan/deal.py, analyzer.seafarers.boards): every board keeps its
scenario's set-up rules and component pools, the kernel deals exactly the pure-Python reference's boards on the
same stream, the rejection gives the exact distribution on a hand-built map, and the `boards` command."""

import json
from collections import Counter

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import UserError
from analyzer.seafarers.boards import boards_table, deal_plan, generate_boards, harbours_table, robber_start
from analyzer.seafarers.boards_reference import largest_clump, reference_deal
from analyzer.seafarers.limits import MAX_DEALT_BOARDS
from analyzer.seafarers.scenarios import (
    HARBOUR_TYPES,
    list_scenarios,
    load_scenario,
    parse_scenario_file,
    setup_violations,
)
from kernels.catan.codes import DESERT, GOLD, ORE, TERRAIN_NAMES
from tests.support import run_cli

SCENARIOS = [(s.slug, s.players) for s in list_scenarios()]

ROW = """
   0   1 |    ~~    ~~    ~~    ~~
   1   0 | ~~    gr6A  wo2A  or8A  ~~
   2   0 |    ~~    ~~    ~~    ~~
"""
TINY = '''
slug = "tiny"
number = 99
name = "A hand-built map"
[victory]
target = 10
[setup]
red_adjacent_allowed = false
{forbid}
[[layouts]]
players = [3, 4]
status = "reconstructed"
map = """{map}"""
[layouts.zones.A]
table = "all"
deal = "land"
terrains = {{ {terrains} }}
numbers = {{ {numbers} }}
[layouts.harbours]
placement = "shuffle"
sites = [{{ type = "3:1", land = [1, 1], sea = [0, 1] }}, {{ type = "ore", land = [3, 1], sea = [4, 1] }}]
[layouts.robber]
start = "none"
[layouts.pirate]
start = "none"
[[layouts.areas]]
name = "the land"
role = "start"
zones = ["A"]
'''


def tiny(tmp_path, forbid: str = "", rows: str = ROW, terrains: str = "grain = 1, wool = 1, ore = 1",
         numbers: str = "2 = 1, 6 = 1, 8 = 1", players: int = 4):
    """A hand-built scenario (default: grain 6 | wool 2 | ore 8 in a row, in a frame)."""
    path = tmp_path / "tiny.toml"
    path.write_text(TINY.format(forbid=forbid, map=rows, terrains=terrains, numbers=numbers))
    return parse_scenario_file(path)[players - 3]


def producing(t) -> bool:
    return GOLD <= t <= ORE


# ----------------------------------------------------------------------------------------------- properties
@pytest.mark.parametrize("case", SCENARIOS)  # every scenario and player count, each run
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**40), first=st.integers(0, 10**6))
def test_every_board_keeps_the_rules_and_the_pools(case, seed, first):
    s = load_scenario(*case)
    boards = generate_boards(deal_plan(s), 4, seed, first=first)
    for terrain, number, harbour in zip(boards.terrain, boards.number, boards.harbour):
        assert setup_violations(s, terrain, number) == []
        for z in s.zones.values():
            if z.deal == "fixed":
                assert all(terrain[h] == s.terrain[h] and number[h] == s.number_token[h] for h in z.hexes)
                continue
            dealt = [h for h in z.hexes if s.dealt[h]]
            assert Counter(int(terrain[h]) for h in dealt) == Counter(z.terrains)
            assert Counter(int(number[h]) for h in dealt if number[h]) == Counter(z.numbers)
            assert all(bool(number[h]) == producing(terrain[h]) for h in dealt)
            assert all(terrain[h] == s.terrain[h] for h in z.hexes if not s.dealt[h])  # sea of a land deal
        assert Counter(HARBOUR_TYPES[k] for k in harbour) == Counter(s.harbours.pool) or not s.harbours.sites


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SCENARIOS), st.integers(0, 2**63 - 1), st.integers(0, 2**31), st.sampled_from([0, 0, 2, 3]))
def test_kernel_deals_the_reference_boards_on_the_same_stream(case, seed, board, max_clump):
    s = load_scenario(*case)
    if max_clump and s.slug == "pirate-islands":  # fixed map, clumps of 3 printed
        max_clump = 0
    dealt = generate_boards(deal_plan(s, max_clump), 1, seed, first=board)
    terrain, number, harbour = reference_deal(s, seed, board, max_clump)
    assert dealt.terrain[0].tolist() == terrain
    assert dealt.number[0].tolist() == number
    assert dealt.harbour[0].tolist() == harbour
    if max_clump:
        assert largest_clump(s, terrain) <= max_clump


def test_board_b_does_not_depend_on_the_batch():
    plan = deal_plan(load_scenario("new-shores", 4))
    many = generate_boards(plan, 50, 9)
    some = generate_boards(plan, 5, 9, first=20)
    assert (many.terrain[20:25] == some.terrain).all() and (many.number[20:25] == some.number).all()
    assert (many.harbour[20:25] == some.harbour).all()
    other = generate_boards(plan, 50, 10)
    assert (many.terrain != other.terrain).any()


# ----------------------------------------------------------------------------------------------- distribution
def test_rejection_gives_the_exact_distribution_on_three_hexes_in_a_row(tmp_path):
    # 6 and 8 may not touch: the middle hex always gets the 2, the ends 6/8 either way (1/2 each); the
    # terrains are shuffled independently (1/3 each per cell), and so are the two harbour types.
    s = tiny(tmp_path)
    n = 6000
    dealt = generate_boards(deal_plan(s), n, 5)
    row = [s.topology.hex_at(q, 1) for q in (1, 2, 3)]
    numbers = dealt.number[:, row]
    assert (numbers[:, 1] == 2).all()
    assert set(map(tuple, numbers.tolist())) == {(6, 2, 8), (8, 2, 6)}
    tol = 4 * np.sqrt(0.25 / n)
    assert abs((numbers[:, 0] == 6).mean() - 0.5) < tol
    for h in row:
        for t in (5, 6, 7):
            assert abs((dealt.terrain[:, h] == t).mean() - 1 / 3) < 4 * np.sqrt(2 / 9 / n)
    assert abs((dealt.harbour[:, 0] == 0).mean() - 0.5) < tol
    assert (dealt.tries >= 1).all() and dealt.tries.mean() > 1.5  # 2 legal numberings of 6: ~3 deals


def test_a_hex_ban_leaves_one_numbering(tmp_path):
    s = tiny(tmp_path, '[[setup.forbid]]\nnumbers = [6]\nhexes = [[1, 1]]')
    dealt = generate_boards(deal_plan(s), 200, 1)
    row = [s.topology.hex_at(q, 1) for q in (1, 2, 3)]
    assert set(map(tuple, dealt.number[:, row].tolist())) == {(8, 2, 6)}


def test_each_terrain_equally_likely_on_a_new_world_cell():
    s = load_scenario("new-world", 4)
    n = 20000
    dealt = generate_boards(deal_plan(s), n, 3)
    zone = s.zones["A"]
    total = sum(zone.terrains.values())
    for h in (zone.hexes[0], zone.hexes[20]):
        for t, k in zone.terrains.items():
            p = k / total
            assert abs((dealt.terrain[:, h] == t).mean() - p) < 4.5 * np.sqrt(p * (1 - p) / n), TERRAIN_NAMES[t]


def test_red_numbers_do_touch_where_the_scenario_allows_it():
    s = load_scenario("fog-islands", 4)
    assert s.setup.red_adjacent_allowed
    dealt = generate_boards(deal_plan(s), 400, 2)
    nb = s.topology.hex_neighbours
    touching = [any(n in (6, 8) and any(g >= 0 and number[g] in (6, 8) for g in nb[h])
                    for h, n in enumerate(number)) for number in dealt.number]
    assert any(touching)


def test_clump_limit_and_impossible_limits():
    s = load_scenario("new-world", 4)
    dealt = generate_boards(deal_plan(s, max_clump=2), 300, 4)
    assert max(largest_clump(s, t.tolist()) for t in dealt.terrain) <= 2
    with pytest.raises(UserError, match="clump limit") as err:
        generate_boards(deal_plan(load_scenario("pirate-islands", 4), max_clump=1), 1, 0)
    assert "\n" not in str(err.value)
    with pytest.raises(UserError, match="max-clump"):
        deal_plan(s, max_clump=-1)


def test_robber_start_on_dealt_boards():
    s = load_scenario("new-shores", 4)  # the desert is dealt with the main island
    dealt = generate_boards(deal_plan(s), 20, 1)
    for terrain, number in zip(dealt.terrain, dealt.number):
        assert terrain[robber_start(s, terrain, number)] == DESERT
    s3 = load_scenario("new-shores", 3)  # "a colina com o número 12"
    dealt = generate_boards(deal_plan(s3), 20, 1)
    for terrain, number in zip(dealt.terrain, dealt.number):
        assert number[robber_start(s3, terrain, number)] == 12
    assert robber_start(load_scenario("new-world", 4), dealt.terrain[0], dealt.number[0]) == -1


# ----------------------------------------------------------------------------------------------- tables, CLI
def test_tables():
    s = load_scenario("fog-islands", 3)
    dealt = generate_boards(deal_plan(s), 3, 1, first=7)
    table = boards_table(s, dealt)
    inner = [h for h, k in enumerate(s.kind) if k != "frame"]
    assert table.columns == ["board", "q", "r", "terrain", "number", "group", "hidden"]
    assert table.height == 3 * len(inner)
    assert table["board"].unique().sort().to_list() == [7, 8, 9]
    assert set(table["terrain"].cast(str)) <= set(TERRAIN_NAMES)
    assert table.filter(pl.col("hidden"))["group"].unique().to_list() == ["F"]
    assert table.filter(pl.col("hidden")).height == 3 * sum(k == "fog" for k in s.kind)
    assert table.filter(pl.col("terrain").is_in(["sea", "desert"]))["number"].max() == 0
    first = table.filter(pl.col("board") == 7)
    assert first["number"].to_list() == dealt.number[0, inner].tolist()
    harbours = harbours_table(s, dealt)
    assert harbours.height == 3 * len(s.harbours.sites)


def test_boards_command_writes_every_output(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "boards", "--scenario", "wonders-of-catan", "--players", "3",
                                 "--count", "25", "--seed", "4", "--out", str(out)], capsys)
    assert code == 0, err
    assert "boards/s" in stdout
    table = pl.read_parquet(out / "boards.parquet")
    assert table["board"].n_unique() == 25
    assert (out / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pl.read_parquet(out / "harbours.parquet").height == 25 * 9
    summary = json.loads((out / "summary.json").read_text())
    assert summary["count"] == 25 and summary["rules"]["bans"][0]["adjacent_to"] == "desert"


@pytest.mark.parametrize("args, fragment", [
    (["--scenario", "atlantis"], "unknown scenario 'atlantis'"),
    (["--scenario", "new-world", "--players", "2"], "not 2"),
    (["--scenario", "new-world", "--count", "0"], "--count must be from 1 to 1,000,000, got 0"),
    (["--scenario", "new-world", "--seed", "-1"], "--seed"),
    (["--scenario", "new-world", "--max-clump", "-2"], "--max-clump must be from 0 (no limit) to 42, got -2"),
    # upper bounds: before them, numpy allocation errors and numba typing errors (tracebacks)
    (["--scenario", "new-shores", "--count", "2000000000"], "--count must be from 1 to 1,000,000, got 2,000,000,"),
    (["--scenario", "new-shores", "--count", str(10**11)], "--count must be from 1 to 1,000,000"),
    (["--scenario", "new-shores", "--count", str(10**30)], "--count must be from 1 to 1,000,000"),
    (["--scenario", "new-shores", "--max-clump", str(2**64)], "--max-clump must be from 0 (no limit) to 42"),
    (["--scenario", "new-shores", "--max-clump", str(10**30)], "--max-clump must be from 0 (no limit) to 42"),
    (["--scenario", "new-shores", "--max-clump", "43"], "the 42 hexes of new-shores"),
])
def test_bad_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "boards", *args, "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1


def test_generate_boards_bounds_in_the_api():
    plan = deal_plan(load_scenario("new-shores", 4), max_clump=42)  # the largest limit: every board keeps it
    assert generate_boards(plan, 2, 0).count == 2
    for count, first in ((MAX_DEALT_BOARDS + 1, 0), (1, -1), (2, 2**63 - 1)):  # board indices stay inside int64
        with pytest.raises(UserError, match="count|first"):
            generate_boards(plan, count, 0, first=first)


@pytest.mark.parametrize("players", [3, 4])
def test_forgotten_tribe_harbours_are_laid_at_random(players):
    """Seed: "Coloca os 6 portos, aleatoriamente, nos lugares designados" (the gift harbours on the
    islets): every board used to show the printed arrangement."""
    s = load_scenario("forgotten-tribe", players)
    dealt = generate_boards(deal_plan(s), 200, 5)
    arrangements = {tuple(h) for h in dealt.harbour.tolist()}
    assert len(arrangements) > 100
    assert all(sorted(a) == sorted(dealt.harbour[0].tolist()) for a in arrangements)  # the same six types
