"""Set-up heuristics (analyzer.seafarers.setup_policies) on hand-built positions and real scenarios, and the
balance experiment: income against the analytic pip sum, reproducibility, the report and the CLI."""

import json
import warnings

import numpy as np
import polars as pl
import pytest

from analyzer.errors import UserError
from analyzer.seafarers import reference as ref
from analyzer.seafarers.balance import BOARD_COLUMNS, SEAT_COLUMNS, assumptions, make_balance, play_balance, red_spacing
from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.pirates import race_setup, raid_risk
from analyzer.seafarers.production import expected_income
from analyzer.seafarers.scenarios import HARBOUR_TYPES, load_scenario, scenario_slugs
from analyzer.seafarers.setup_policies import Heuristic, board_view, draft, parse_heuristic, placement_order
from kernels.catan.codes import PIPS, RESOURCE_NAMES, SEA
from reports.seafarers.balance import write_balance_report
from tests.seafarers.test_boards import tiny
from tests.support import run_cli

TWO_ROWS = """
   0   1 |       ~~    ~~    ~~    ~~
   1   0 |    ~~    gr6A  wo2A  or8A  ~~
   2  -1 | ~~    lu12A br11A lu4A  ~~
   3  -1 |    ~~    ~~    ~~    ~~
"""


def printed_view(s, harbour=None):
    harbour = [HARBOUR_TYPES.index(x.type) for x in s.harbours.sites] if harbour is None else harbour
    return board_view(s, s.terrain, s.number_token, harbour)


def dealt(slug, players, n=5, seed=1):
    s = load_scenario(slug, players)
    return s, generate_boards(deal_plan(s), n, seed)


def check_draft(s, view, result):
    """The rules every draft keeps: legal sites, distance rule, snake order, one piece per settlement."""
    topo = s.topology
    corners = [c for c, _ in result.settlements]
    assert len(set(corners)) == len(corners)
    for c in corners:
        assert not set(topo.corner_neighbours[c][topo.corner_neighbours[c] >= 0]) & set(corners)
    drafted = result.settlements[result.preplaced:]
    assert [seat for _, seat in drafted] == placement_order(s, s.players)
    assert all(view.allowed[c] for c, _ in drafted)
    for (corner, seat), (edge, piece_seat, kind) in zip(result.settlements, result.pieces):
        assert piece_seat == seat
        if edge >= 0:
            assert corner in topo.edge_corners[edge] or result.preplaced
            if kind == "road":
                assert view.flags.edge_land[edge] or view.flags.edge_coastal[edge]
            else:
                assert view.flags.edge_sea[edge] or view.flags.edge_coastal[edge]
    for edge, _, kind in result.pieces[result.preplaced:]:  # no drafted ship on a coast facing the frame
        sides = topo.edge_hexes[edge][topo.edge_hexes[edge] >= 0]
        assert not (kind == "ship" and view.flags.edge_coastal[edge] and topo.hex_frame[sides].any()), edge
        # nor beside the pirate's start: "não podem ser colocados nem retirados barcos das vias marítimas que rodeiam
        # o pirata"
        assert not (kind == "ship" and s.pirate.rule == "hex" and s.pirate.hex in sides), edge


# The seed's set-up text, as zone letters of the scenario files (not the areas' roles the draft reads):
# 1 "na ilha principal", 3 "nas ilhas principais", 4 "na parte principal da ilha", 5 "na ilha principal ... Não é
# permitido construir aldeias nas ilhotas", 6 "nas ilhas principais superior e inferior", 7 "na ilha oriental",
# 8 "não se podem construir aldeias nas ilhotas", 2 and 9 anywhere. A corner may touch a desert (D) of the main
# part (4: the belt's side "abaixo e à direita"; 8: the Great Wall's), never the strip or an islet.
START_ZONES = {"new-shores": "A", "four-islands": "A", "fog-islands": "A", "through-the-desert": "AD",
               "forgotten-tribe": "A", "cloth-for-catan": "A", "pirate-islands": "E", "wonders-of-catan": "AD",
               "new-world": "A"}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("slug", sorted(START_ZONES))
def test_drafted_settlements_stand_where_the_seed_puts_them(slug, players):
    s, boards = dealt(slug, players, n=3)
    allowed = set().union(*(s.zones[z].hexes for z in START_ZONES[slug]))
    for b in range(boards.count):
        view = board_view(s, boards.terrain[b], boards.number[b], boards.harbour[b])
        result = draft(view, parse_heuristic("pips"), seed=5, board=b)
        check_draft(s, view, result)
        for corner, _ in result.settlements[result.preplaced:]:
            land = {h for h in s.topology.corner_hexes[corner] if h >= 0 and view.flags.hex_land[h]}
            assert land and land <= allowed, (corner, land - allowed)


# ----------------------------------------------------------------------------------------------- heuristics
def test_parse_heuristic():
    assert parse_heuristic("pips").label == "pips:gold=1"
    h = parse_heuristic("diverse:variety=3.5, scarce=0")
    assert h.values == {"gold": 1.0, "variety": 3.5, "scarce": 0.0}
    for text, fragment in (("greedy", "unknown heuristic"), ("port:harbour=2", "bad parameter"),
                           ("pips:gold=x", "needs a number"), ("pips:gold", "bad parameter"),
                           ("pips:gold=nan", "finite")):
        with pytest.raises(UserError, match=fragment):
            parse_heuristic(text)


def test_pips_draft_by_hand(tmp_path):
    #     grain 6 | wool 2 | ore 8          pips 5 | 1 | 5
    # lumber 12 | brick 11 | lumber 4       pips 1 | 2 | 3
    # The one 9-pip corner (wool, ore, lumber 4) goes first; then one of the two 8-pip corners on the
    # grain-brick edge (they touch each other, so a tie broken at random), never next to the first.
    s = tiny(tmp_path, rows=TWO_ROWS, terrains="grain = 1, wool = 1, ore = 1, lumber = 2, brick = 1",
             numbers="2 = 1, 4 = 1, 6 = 1, 8 = 1, 11 = 1, 12 = 1", players=3)
    topo = s.topology
    view = printed_view(s)
    grain, wool, ore, lumber12, brick, lumber4 = (topo.hex_at(q, r) for q, r in
                                                  ((1, 1), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2)))

    def corner(*hexes):
        (c,) = set.intersection(*(set(topo.hex_corners[h]) for h in hexes))
        return c

    best = corner(wool, ore, lumber4)
    eights = {corner(grain, wool, brick), corner(grain, lumber12, brick)}
    assert view.corner_pips[best].sum() == 9 and [view.corner_pips[c].sum() for c in eights] == [8, 8]
    seconds = set()
    for board in range(10):
        result = draft(view, parse_heuristic("pips"), seed=3, board=board)
        check_draft(s, view, result)
        assert result.settlements[0] == (best, 0)
        assert result.settlements[1][0] in eights
        seconds.add(result.settlements[1][0])
        assert [kind for _, _, kind in result.pieces[:2]] == ["road", "road"]  # inland corners
    assert seconds == eights  # ties are broken at random


def test_heuristic_scores_by_hand(tmp_path):
    s = tiny(tmp_path, players=3)
    topo = s.topology
    view = printed_view(s, harbour=[0, 5])  # 3:1 at the grain end, 2:1 ore at the ore end
    left, right = topo.hex_at(1, 1), topo.hex_at(3, 1)
    generic = s.harbours.sites[0].edge
    dock = topo.edge_corners[generic][0]
    ore_dock = topo.edge_corners[s.harbours.sites[1].edge][0]
    nothing = np.zeros(6)
    pips = parse_heuristic("pips")
    assert pips.scores(view, pips.static_scores(view), nothing)[dock] == 5
    port = parse_heuristic("port:generic=2,special=1,match=0.5")
    scores = port.scores(view, port.static_scores(view), nothing)
    assert scores[dock] == 5 + 2
    assert scores[ore_dock] == 5 + 1 + 0.5 * 5  # own ore pips: this corner's 8
    holding_ore = np.array([0, 0, 0, 0, 4, 0.0])
    assert port.scores(view, port.static_scores(view), holding_ore)[ore_dock] == 5 + 1 + 0.5 * 9
    # diverse: grain 5 pips, ore 5, wool 1 (no lumber, no brick): mean 11/3, wool scarcity 11/3 - 1 = 8/3
    diverse = parse_heuristic("diverse:variety=2,scarce=1")
    assert view.scarcity.tolist() == pytest.approx([0, 0, 8 / 3, 0, 0])
    wool_corner = next(c for c in topo.hex_corners[topo.hex_at(2, 1)]
                       if view.corner_pips[c].sum() == 1)
    fresh = diverse.scores(view, diverse.static_scores(view), nothing)
    assert fresh[wool_corner] == pytest.approx(1 + 2 * 1 + 8 / 3)
    has_wool = np.array([0, 0, 1, 0, 0, 0.0])
    assert diverse.scores(view, diverse.static_scores(view), has_wool)[wool_corner] == pytest.approx(1 + 8 / 3)
    assert right != left


@pytest.mark.parametrize("slug, players", [("new-world", 4), ("wonders-of-catan", 3), ("forgotten-tribe", 4),
                                           ("fog-islands", 4), ("through-the-desert", 3)])
@pytest.mark.parametrize("name", ["pips", "diverse", "port"])
def test_drafts_keep_the_rules_on_real_boards(slug, players, name):
    s, boards = dealt(slug, players, n=3)
    m = s.markers
    closed = set(m.wasteland_corners + m.strait_corners + m.no_setup_corners)
    start = set().union(*(a.hexes for a in s.areas if a.role in ("start", "start_or_bonus")))
    for b in range(boards.count):
        view = board_view(s, boards.terrain[b], boards.number[b], boards.harbour[b])
        result = draft(view, parse_heuristic(name), seed=2, board=b)
        check_draft(s, view, result)
        for corner, _ in result.settlements:
            assert corner not in closed
            hexes = [h for h in s.topology.corner_hexes[corner] if h >= 0 and view.flags.hex_land[h]]
            assert set(hexes) & start
            assert all(s.kind[h] != "fog" for h in hexes)


def test_cloth_gives_three_settlements_and_pirate_islands_preplace_one():
    s, boards = dealt("cloth-for-catan", 4, n=1)
    assert placement_order(s, 4) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]
    view = board_view(s, boards.terrain[0], boards.number[0], boards.harbour[0])
    assert len(draft(view, parse_heuristic("pips"), 1, 0).settlements) == 12
    s, boards = dealt("pirate-islands", 3, n=1)
    view = board_view(s, boards.terrain[0], boards.number[0], boards.harbour[0])
    result = draft(view, parse_heuristic("pips"), 1, 0)
    forts = {f.slot: f for f in s.markers.fortresses}
    assert result.preplaced == 3
    assert result.settlements[:3] == [(forts[slot].settlement, seat)
                                      for seat, slot in enumerate(s.markers.slots_3_players)]
    assert [p[2] for p in result.pieces[:3]] == ["ship"] * 3
    check_draft(s, view, result)


@pytest.mark.parametrize("players", [3, 4])
def test_pirate_islands_drafted_settlements_never_take_a_ship(players):
    """Seed 002, scenario 7: "Cada um dos jogadores só pode construir uma única rota marítima. A rota
    marítima deve começar na aldeia costeira da ilha oriental ... Esta rota marítima não poderá dividir-se"
    (each player builds one unbranched ship route, from the pre-placed coastal settlement): a drafted
    settlement takes a road, even for a heuristic that loves the coast (before: a ship in 50 of 50 drafts)."""
    s, boards = dealt("pirate-islands", players, n=25)
    assert s.setup.ships is False and "única rota marítima" in s.setup.ships_quote
    coast_lover = parse_heuristic("port:generic=20,special=20")
    coastal_drafts = 0
    for b in range(boards.count):
        view = board_view(s, boards.terrain[b], boards.number[b], boards.harbour[b])
        for name in ("pips", coast_lover):
            result = draft(view, parse_heuristic(name) if isinstance(name, str) else name, seed=3, board=b)
            drafted = result.pieces[result.preplaced:]
            assert [piece for _edge, _seat, piece in drafted] == ["road"] * len(drafted)
            coastal_drafts += sum(view.flags.corner_coastal[c] for c, _ in result.settlements[result.preplaced:])
            check_draft(s, view, result)
    assert coastal_drafts > 0  # coastal settlements were drafted: the rule, not the board, kept the ships out


def test_the_last_drafted_settlement_gives_the_starting_resources():
    for slug, players, round_ in (("new-world", 4, 2), ("cloth-for-catan", 4, 3), ("pirate-islands", 4, 2)):
        s, boards = dealt(slug, players, n=1)
        view = board_view(s, boards.terrain[0], boards.number[0], boards.harbour[0])
        result = draft(view, parse_heuristic("pips"), 1, 0)
        drafted = result.settlements[result.preplaced:]
        for seat, corner in enumerate(result.start_resource_corners()):
            mine = [c for c, owner in drafted if owner == seat]
            assert len(mine) == round_ and corner == mine[-1]  # never the pre-placed Pirate Islands settlement


# ----------------------------------------------------------------------------------------------- balance
def test_red_spacing():
    assert np.isnan(red_spacing(np.array([[0, 0]]))).all()  # one red number: no spacing
    assert red_spacing(np.array([[0, 0], [2, -1], [0, 3]])) == (2.0, (2 + 2 + 3) / 3)


@pytest.fixture(scope="module")
def small_run():
    return play_balance("four-islands", 3, boards=24, rolls=50, heuristic="diverse", seed=5, sequences=300,
                       threads=2)


def test_income_matches_the_analytic_pip_sum(small_run):
    seats = small_run.seats
    # What the dice hand out (received + kept back by the robber) has the pip sum as its expectation.
    for seat in (1, 2, 3):
        rows = seats.filter(pl.col("seat") == seat)
        diff = (rows["gross_total"] - rows["expected_total"]).to_numpy()
        assert abs(diff.mean()) < 3.5 * diff.std(ddof=1) / np.sqrt(len(diff)) + 1e-3
        income = sum(rows[f"income_{r}"] for r in RESOURCE_NAMES)
        assert np.allclose(income.to_numpy(), rows["income_total"].to_numpy())
    # 'expected' agrees with the production module's analytic income on the drafted board.
    exp = small_run.experiment
    s = exp.scenario
    boards = generate_boards(exp.plan, 2, exp.seed)
    for b in range(2):
        view, placed = exp.seat_view(b, boards.terrain[b], boards.number[b], boards.harbour[b])
        n = s.topology.n_corner
        analytic = expected_income(np.where(view.terrain < 0, SEA, view.terrain), view.number,
                                   s.topology.corner_hexes, placed.building(n), placed.owner(n), 3)
        got = seats.filter(pl.col("board") == b).sort("seat")["expected_total"].to_numpy()
        assert got == pytest.approx(analytic.sum(axis=1))


def test_seats_start_with_the_resources_of_their_last_drafted_settlement(small_run):
    exp = small_run.experiment
    s = exp.scenario
    boards = generate_boards(exp.plan, 3, exp.seed)
    for b in range(3):
        view, placed = exp.seat_view(b, boards.terrain[b], boards.number[b], boards.harbour[b])
        terrain = np.where(view.terrain < 0, SEA, view.terrain)
        hands = ref.starting_hands(terrain, view.number, s.topology.corner_hexes, placed.start_resource_corners(),
                                   exp.gold_policy)
        got = small_run.seats.filter(pl.col("board") == b).sort("seat")["start_cards"].to_numpy()
        assert got.tolist() == [sum(h) for h in hands]
    assert small_run.seats["start_cards"].min() >= 1 and small_run.seats["start_cards"].max() <= 3
    assert any("Starting resources" in a for a in small_run.summary["assumptions"])
    assert small_run.summary["pirate_fleet"] is None


def test_robber_bans_come_from_the_scenario():
    tribe = make_balance("forgotten-tribe", 4, 10, "pips", 1)
    islets = set(tribe.scenario.zones["T"].hexes)
    start = tribe.scenario.robber.hex
    assert start in islets  # the robber starts on an islet desert: banned by the zone and by the return rule
    land_start = next(h for h in range(tribe.scenario.topology.n_hex) if h not in islets)
    assert set(np.flatnonzero(tribe.robber_banned(land_start))) == islets | {land_start}
    cloth = make_balance("cloth-for-catan", 4, 10, "pips", 1)
    start = cloth.scenario.robber.hex
    assert set(np.flatnonzero(cloth.robber_banned(start))) == set(cloth.scenario.zones["V"].hexes)  # may return
    assert not make_balance("new-world", 4, 10, "pips", 1).robber_banned(-1).any()
    assert any("never back to its start hex" in a and "islets" in a for a in assumptions(tribe))


def test_reports_name_the_red_number_rule_an_assumption_where_the_seed_is_silent():
    """The seed states 'no red 6/8 neighbours' for scenarios 1, 4 and 7 and lifts it for 3; for 2, 5, 6, 8 and 9
    it says nothing: the base-game rule is kept there and every balance report says it is an assumption."""
    silent = {"four-islands", "forgotten-tribe", "cloth-for-catan", "pirate-islands", "wonders-of-catan"}
    for slug in scenario_slugs():
        s = load_scenario(slug, 4)
        line = [a for a in assumptions(make_balance(slug, 4, 2, "pips", 1)) if a.startswith("Red 6/8")]
        # the base map: the base game's own rule ("the tokens with the red numbers must not be next to each
        # other", its fully random set-up), a documented default of base.toml, named in the reports too
        assert bool(line) == (slug in silent | {"base"}) == bool(s.setup.red_adjacent_note), slug
        assert s.setup.red_adjacent_allowed == (slug == "fog-islands"), slug
        if line:
            assert ("an assumption" in line[0] or slug == "base") and f"{slug}.toml" in line[0]


def test_pirate_islands_balance_says_the_fleet_is_not_simulated(tmp_path):
    result = play_balance("pirate-islands", 4, boards=3, rolls=20, heuristic="pips", seed=1, sequences=10, threads=1)
    summary = result.summary
    fleet = summary["pirate_fleet"]
    assert fleet["simulated"] is False and "not simulated" in fleet["warning"]
    assert any("NOT simulated" in a for a in summary["assumptions"])
    # Per seat and board: 100 x (fleet path hexes at its set-up settlements) / 14 (stationary law, a raid
    # lost without warships), from raid_risk's path indices per corner; the summary has the mean over boards.
    assert fleet["path_hexes"] == 14
    risk = {r["corner"]: set(r["path_indices"]) for r in raid_risk(race_setup(4))}
    by_seat = {}
    for row in result.seats.iter_rows(named=True):
        hexes = set().union(*(risk.get(row[f"corner_{k}"], set()) for k in (1, 2, 3)))
        by_seat.setdefault(row["seat"], []).append(100 * len(hexes) / 14)
    for seat in summary["seats"]:
        figure = seat["fleet_raid_cards_per_100_rolls"]
        assert figure["n"] == 3 and figure["mean"] == pytest.approx(np.mean(by_seat[seat["seat"]]))
        assert figure["mean"] >= 100 / 14 - 1e-9  # the pre-placed settlement stands next to the fleet's path
    write_balance_report(tmp_path, summary, result.experiment.scenario, {})
    assert "pirate fleet's raids are not simulated here" in (tmp_path / "report.md").read_text()


def test_balance_tables_and_summary(small_run):
    boards, seats, summary = small_run.boards, small_run.seats, small_run.summary
    assert boards.columns == ["board", *BOARD_COLUMNS] and boards.height == 24
    assert seats.columns == ["board", "seat", *SEAT_COLUMNS] and seats.height == 72
    tokens = small_run.experiment.scenario.zones["A"].numbers
    assert (boards["pips_total"] == sum(PIPS[n] * k for n, k in tokens.items())).all()  # every token dealt
    assert seats.select(pl.col("^missing_.*$")).to_numpy().max() <= 1
    assert (seats["corner_3"] == -1).all() and (seats["corner_2"] >= 0).all()
    assert summary["seats"][0]["income"]["total"]["n"] == 24
    assert summary["fairest_board"]["seat_spread"] == boards["seat_spread"].min()
    assert summary["scenario"]["status"] == "published"
    assert any("Fog" in a for a in summary["assumptions"])
    sevens = boards["sevens_per_roll"].mean()
    assert abs(sevens - 1 / 6) < 0.02


def test_cloth_for_catan_seats_place_three_settlements():
    one = play_balance("cloth-for-catan", 4, boards=6, rolls=20, heuristic="port", seed=11, sequences=20, threads=1)
    assert (one.seats["corner_3"] >= 0).all()


def test_balance_command_says_the_fleet_is_left_out(tmp_path, capsys):
    code, stdout, err = run_cli(["seafarers", "balance", "--scenario", "pirate-islands", "--players", "3",
                                 "--boards", "2", "--rolls", "10", "--sequences", "5", "--no-progress",
                                 "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert "note: The pirate fleet's raids are not simulated here" in stdout


def test_balance_command_writes_every_output(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "balance", "--scenario", "new-world", "--players", "3", "--boards",
                                 "8", "--rolls", "30", "--sequences", "20", "--heuristic", "port", "--seed", "2",
                                 "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    assert "cards/roll" in stdout
    for name in ("summary.json", "boards.parquet", "seats.parquet", "report.md", "report.html", "seat_bars.png",
                 "fairest_board.png", "least_fair_board.png"):
        assert (out / name).exists(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["heuristic"] == "port:gold=1,generic=2,special=1,match=0.5"
    md = (out / "report.md").read_text()
    assert "Data and assumptions" in md and "adjusted" in md and "New World" in md
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 3


@pytest.mark.parametrize("args, fragment", [
    (["--scenario", "atlantis"], "unknown scenario 'atlantis'"),
    (["--scenario", "new-world", "--players", "2"], "not 2"),
    (["--scenario", "new-world", "--boards", "0"], "--boards must be from 1 to 1,000,000, got 0"),
    (["--scenario", "new-world", "--rolls", "0"], "--rolls must be from 1 to 100,000, got 0"),
    (["--scenario", "new-world", "--heuristic", "greedy"], "unknown heuristic"),
    (["--scenario", "new-world", "--gold-policy", "silver"], "gold policy"),
    (["--scenario", "new-world", "--spend-to", "-3"], "--spend-to must be from -1 (never spend) to 95, got -3"),
    # upper bounds: before them, numpy allocation errors, numba typing errors, or hours of rolling
    (["--scenario", "new-shores", "--boards", str(10**30)], "--boards must be from 1 to 1,000,000"),
    (["--scenario", "new-shores", "--boards", "1000001"], "--boards must be from 1 to 1,000,000"),
    (["--scenario", "new-shores", "--boards", "2", "--sequences", str(10**30)],
     "--sequences must be from 1 to 100,000"),
    (["--scenario", "new-shores", "--boards", "2", "--sequences", "2", "--rolls", str(2**63)],
     "--rolls must be from 1 to 100,000"),
    (["--scenario", "new-shores", "--boards", "2", "--sequences", "2", "--rolls", str(2**63 - 1)],
     "--rolls must be from 1 to 100,000"),
    # each in range, but together hours per board or days per run (and no board would show progress)
    (["--scenario", "new-shores", "--boards", "2", "--sequences", "100000", "--rolls", "100000"],
     "--sequences 100,000 x --rolls 100,000 is 10,000,000,000 rolls per board, more than 100,000,000"),
    (["--scenario", "new-shores", "--boards", "1000000", "--sequences", "10000", "--rolls", "10000"],
     "is 100,000,000,000,000 rolls, more than 1,000,000,000,000"),
    (["--scenario", "new-shores", "--boards", "2", "--spend-to", str(10**30)],
     "--spend-to must be from -1 (never spend) to 95"),
    (["--scenario", "new-shores", "--spend-to", "96"], "the bank's 95 resource cards"),
    (["--scenario", "new-shores", "--max-clump", str(10**30)], "--max-clump must be from 0 (no limit) to 42"),
    (["--scenario", "new-shores", "--threads", str(10**30)], "--threads must be from 1 to 1,024"),
])
def test_bad_balance_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "balance", *args, "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()  # nothing is created before the options are checked


def test_drafts_never_pick_from_an_empty_set_when_scores_overflow():
    """Weights the CLI refuses (|w| > 1e6) give inf and nan scores (inf - inf, inf x 0): a seat still
    takes a legal corner, never an empty candidate set (IndexError)."""
    s, boards = dealt("new-shores", 4, n=2)
    for sign in (1, -1):
        heuristic = parse_heuristic("diverse")
        heuristic = Heuristic(heuristic.spec, {k: sign * 1e308 for k in heuristic.values})
        for b in range(boards.count):
            view = board_view(s, boards.terrain[b], boards.number[b], boards.harbour[b])
            with np.errstate(all="ignore"):
                check_draft(s, view, draft(view, heuristic, seed=1, board=b))


@pytest.mark.parametrize("heuristic", ["diverse:variety=1e6,scarce=1e6,gold=1e6",
                                       "diverse:variety=-1e6,scarce=-1e6,gold=-1e6",
                                       "port:gold=1e6,generic=1e6,special=1e6,match=1e6",
                                       "port:gold=-1e6,generic=-1e6,special=-1e6,match=-1e6"])
def test_the_largest_weights_give_no_warnings(tmp_path, capsys, heuristic):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, _, err = run_cli(["seafarers", "balance", "--scenario", "new-shores", "--boards", "8", "--sequences",
                                "2", "--heuristic", heuristic, "--threads", "1", "--no-progress",
                                "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert not err and not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def _seat(seat, received, expected, targeted):
    ci = lambda m: {"mean": m, "ci95": [m - 0.004, m + 0.004]}  # noqa: E731
    return {"seat": seat, "income": {"total": ci(received)}, "expected": {"total": ci(expected)},
            "sevens": {"targeted_share": ci(targeted)}}


def _verdict_summary(first_minus_last, ci):
    return {"boards": 300, "rolls": 60, "board_stats": {"seat_spread": {"mean": 0.079}},
            "seats": [_seat(1, 0.507, 0.570, 0.511), _seat(2, 0.509, 0.561, 0.402), _seat(3, 0.516, 0.565, 0.390),
                      _seat(4, 0.518, 0.559, 0.344)],
            "first_vs_last": {"mean_diff": first_minus_last, "ci95": ci}}


def test_the_headline_names_the_favoured_seat_and_the_model_s_reason():
    """Issue 33: a verdict in words (which seat, by how much, with the CI), and why when the model explains it:
    the seat with the highest expected income receives less because the modelled robber targets the leader."""
    from reports.seafarers.balance import _headline, _why

    summary = _verdict_summary(-0.011, [-0.018, -0.004])
    assert _headline(summary).startswith(
        "Seat 4 (the last to place) is favoured: it receives 0.518 (0.514–0.522) cards per roll against seat 1's "
        "0.507 (0.503–0.511), 0.011 more (95% CI 0.004–0.018, paired on the same boards), about 0.7 cards over "
        "60 rolls")
    assert _why(summary) == (
        "Why: seat 1 has the highest expected income (0.570 cards per roll without the robber) but receives 0.507, "
        "because the modelled robber targets the leader: 51.1% of 7s put it on seat 1's hexes, against 34.4% on "
        "seat 4's (see the robber assumption below).")
    summary = _verdict_summary(-0.011, [-0.02, 0.001])
    assert _headline(summary).startswith("No measurable advantage between the first and the last seat to place")
    summary["seats"][0]["income"]["total"]["mean"] = 0.6  # the leader by expectation also receives most
    assert _why(summary) is None


def test_board_titles_name_the_seat_the_board_favours():
    from reports.seafarers.balance import _favoured

    favours = "; favours seat 1 (0.667 expected vs 0.500 for seat 2)"
    assert _favoured({"expected": [0.667, 0.5, 0.611, 0.556]}) == favours
    assert _favoured({"expected": [0.5, 0.5]}) == ""


def test_board_legends_name_every_mark_and_outline_every_seat():
    """Issue 33: a legend entry for settlements, roads, ships (and the frame, drawn by draw_board); every seat's
    pieces carry a dark outline so they show on light land and sea (seat 4 is drawn in the plots' purple, issue 52:
    no seat white on white)."""
    from reports.seafarers import hexplot

    handles = hexplot._piece_handles([(0, 0), (5, 3)], [(1, 0, "road"), (2, 3, "ship")])
    assert [h.get_label() for h in handles] == ["seat 1", "seat 4", "settlement (its seat's number)", "road", "ship"]
    from matplotlib.colors import to_hex

    assert to_hex(handles[1].get_facecolor()) == hexplot.SEAT_COLOURS[3] == "#6a3d9a"
    assert to_hex(handles[1].get_edgecolor()) == hexplot.PIECE_OUTLINE
    assert [type(e).__name__ for e in hexplot._outlined(4)] == ["Stroke", "Normal"]
