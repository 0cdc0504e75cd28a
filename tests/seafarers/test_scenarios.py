"""Seafarers scenario data: every layout against the seed's component tables (components.toml), the seed's own
words for every quoted rule, the loader's one-line errors on broken files, and `tabletop seafarers scenarios`."""

import json
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.errors import UserError
from analyzer.seafarers.scenarios import (
    banned_numbers,
    data_dir,
    list_scenarios,
    load_component_tables,
    load_scenario,
    parse_scenario_file,
    scenario_slugs,
    setup_violations,
)
from kernels.catan.codes import DESERT, GOLD, RESOURCE_NAMES, TERRAIN_NAMES

SEED = Path(__file__).resolve().parents[2] / "docs" / "rulebooks" / "002_f78565adfc528f93.txt"  # seed 002
SLUGS = ("new-shores", "four-islands", "fog-islands", "through-the-desert", "forgotten-tribe", "cloth-for-catan",
         "pirate-islands", "wonders-of-catan", "new-world")
CASES = [(slug, players) for slug in SLUGS for players in (3, 4)]
TABLES = load_component_tables()


def test_all_nine_scenarios_for_3_and_4_players():
    assert scenario_slugs() == ("base",) + SLUGS  # the plain base map first (number 0)
    seafarers = [s for s in list_scenarios() if s.slug != "base"]
    assert [(s.slug, s.players) for s in seafarers] == CASES
    assert [s.number for s in seafarers[::2]] == list(range(1, 10))


@pytest.mark.parametrize("players", [3, 4])
def test_the_seed_s_east_is_east_in_the_data(players):
    """Seed 002, scenario 7: "Na linha costeira da ilha oriental são colocados uma aldeia e um barco por
    jogador" and "Na linha costeira das ilhas ocidentais, são colocadas as 4 fortalezas piratas" (the start
    pieces on the eastern island, the fortresses on the western islands): every start settlement lies east
    of every fortress (x = q + r/2 grows eastward; docs/seafarers/scenarios.md)."""
    s = load_scenario("pirate-islands", players)
    topo = s.topology

    def east(corner):
        hexes = [h for h in topo.corner_hexes[corner] if h >= 0]
        return np.mean([topo.coords[h, 0] + topo.coords[h, 1] / 2 for h in hexes])

    starts = [east(f.settlement) for f in s.markers.fortresses]
    forts = [east(f.fortress) for f in s.markers.fortresses]
    assert min(starts) > max(forts) + 2


def test_seed_tables_add_up_to_their_printed_totals():
    """Guards the transcription in components.toml: every row sums to the seed's "Total" cell."""
    for slug, by_count in TABLES.items():
        for players, entry in by_count.items():
            for name, table in entry["tables"].items():
                assert sum(table["hexes"].values()) == table["total"], (slug, players, name)
                assert sum(table["numbers"].values()) == table["numbers_total"], (slug, players, name)
                assert set(table["hexes"]) <= set(TERRAIN_NAMES)


@pytest.mark.parametrize("slug,players", CASES)
def test_layout_reproduces_the_seed_component_table(slug, players):
    s = load_scenario(slug, players)
    seed = TABLES[slug][players]
    counts = s.table_counts()
    assert set(counts) == set(seed["tables"])
    for name, table in seed["tables"].items():
        assert +counts[name]["hexes"] == Counter(table["hexes"]), name
        assert +counts[name]["numbers"] == Counter({int(k): v for k, v in table["numbers"].items()}), name
    inferred = [name for name, table in seed["tables"].items() if table.get("numbers_inferred")]
    assert bool(inferred) == any("inferred" in note for note in s.notes), inferred  # reports say so
    pool = s.harbours.pool
    assert pool.get("3:1", 0) == seed["harbours"]["generic"]
    assert {k: v for k, v in pool.items() if k != "3:1"} == {r: 1 for r in RESOURCE_NAMES}
    assert seed["harbours"]["special"] == 5
    assert s.catan_chits == seed["catan_chits"]


def test_catan_chits_go_where_the_seed_puts_them():
    tribe = load_scenario("forgotten-tribe", 4)
    assert len(tribe.markers.vp_chit_edges) == TABLES["forgotten-tribe"][4]["catan_chits"] == 8
    assert len(tribe.markers.dev_card_edges) == TABLES["forgotten-tribe"][4]["dev_cards_on_board"]
    assert len(tribe.harbours.sites) == 6 and tribe.harbours.placement == "gifts"
    cloth = load_scenario("cloth-for-catan", 3).markers
    cloth_chits = len(cloth.villages) * cloth.cloth_per_village + cloth.cloth_supply
    assert cloth_chits == TABLES["cloth-for-catan"][3]["catan_chits"]
    pirates = load_scenario("pirate-islands", 4).markers
    assert len(pirates.fortresses) * pirates.fortress_strength == TABLES["pirate-islands"][4]["catan_chits"]
    assert len(pirates.slots_3_players) == 3
    wonders = load_scenario("wonders-of-catan", 4).markers
    assert len(wonders.wonders) == TABLES["wonders-of-catan"][4]["wonder_cards"]


def test_where_the_seed_and_the_public_layouts_disagree_the_seed_wins():
    assert [load_scenario(slug, 4).victory.target for slug in SLUGS] == [14, 13, 12, 14, 13, 14, 10, 10, 12]
    # special VP for settling "unknown" land (scenarios 1, 2, 4: 2 VP, 9: 1 VP, for a player's first settlement on
    # each such island, "independentemente de já existir ... uma aldeia construída por outro jogador"; 8: 1 VP for
    # every settlement on an islet, "uma aldeia numa ilhota, obtém uma ficha Catan"); none in 3, 5, 6, 7
    first, each = "first_settlement_per_territory", "each_settlement"
    assert [(v.island_bonus, v.island_bonus_scope) for v in (load_scenario(slug, 4).victory for slug in SLUGS)] == [
        (2, first), (2, first), (0, ""), (2, first), (0, ""), (0, ""), (0, ""), (1, each), (1, first)]
    ttd = load_scenario("through-the-desert", 3).zones["B"].numbers
    assert ttd.get(12) == 1 and 11 not in ttd
    for slug, players in (("new-shores", 3), ("new-shores", 4)):
        assert load_scenario(slug, players).zones["B"].terrains[0] == 4  # 4 sea tiles in the islet pool
    fog = load_scenario("fog-islands", 3)
    assert sum(k == "sea" for k in fog.kind) == 16
    adjusted = {(s.slug, s.players) for s in list_scenarios() if s.status != "published" and s.slug != "base"}
    assert adjusted == {("new-shores", 3), ("new-shores", 4), ("fog-islands", 3), ("through-the-desert", 3)}
    assert all(s.notes for s in list_scenarios() if s.reconstructed)


def _normalise(text):
    text = re.sub(r"-\s*", "", text)  # words hyphenated across lines (and "fazer-\nse" vs "fazer-se")
    text = re.sub(r"[“”„\"]", '"', text.replace("**", ""))
    return re.sub(r"\s+", " ", text).strip()


def _quotes(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _quotes(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _quotes(v, f"{path}[{i}]")
    elif path.endswith("quote"):
        yield path, node


def test_every_quoted_passage_is_in_the_seed():
    import tomllib

    seed = _normalise(SEED.read_text())
    checked = 0
    for path in sorted(data_dir().glob("*.toml")):
        for where, quote in _quotes(tomllib.loads(path.read_text())):
            for fragment in quote.split(" ... "):
                assert _normalise(fragment) in seed, f"{path.name} {where}: {fragment}"
                checked += 1
    assert checked >= 70  # every scenario quotes its VP goal, set-up and robber rules
    for s in list_scenarios():  # the base map quotes no seed (its rulebook is not in docs/rulebooks): it names sources
        assert str(s.victory.target) in (s.victory.quote if s.slug != "base" else s.victory.note)


def test_printed_layouts_keep_the_set_up_rules():
    broken = {(s.slug, s.players): setup_violations(s, s.terrain, s.number_token) for s in list_scenarios()}
    # The book's own 3-player Four Islands picture has the 12 on a pasture; the rule binds generated boards.
    assert broken.pop(("four-islands", 3)) == ["12 on hex [-1, 7] (wool)"]
    assert all(v == [] for v in broken.values()), broken


def test_set_up_constraints_are_data():
    assert load_scenario("fog-islands", 4).setup.red_adjacent_allowed
    assert not any(load_scenario(slug, 4).setup.red_adjacent_allowed for slug in SLUGS if slug != "fog-islands")
    gold = {slug for slug in SLUGS if load_scenario(slug, 4).setup.gold_not_on == (6, 8)}
    assert gold == {"through-the-desert", "new-world"}
    wonders = load_scenario("wonders-of-catan", 4)
    near_desert = banned_numbers(wonders, wonders.terrain)
    assert sorted(wonders.coords[h].tolist() for h in near_desert) == [[3, 4], [4, 3]]
    assert all(v == {6, 8} for v in near_desert.values())
    tribe = load_scenario("forgotten-tribe", 3)
    far = banned_numbers(tribe, tribe.terrain)
    assert sorted(tribe.coords[h].tolist() for h in far) == [[3, 5], [4, 3], [4, 4]]
    assert all(v == {5, 6, 8, 9} for v in far.values()) and all(tribe.dealt[h] for h in far)
    # a gold hex dealt onto a Through-the-Desert 6 breaks the gold rule; the same 6 on ore does not
    ttd = load_scenario("through-the-desert", 4)
    h = int(np.flatnonzero((ttd.number_token == 6) & ttd.dealt)[0])
    terrain = ttd.terrain.copy()
    terrain[h] = GOLD
    assert any("(gold)" in p for p in setup_violations(ttd, terrain, ttd.number_token))
    terrain[h] = TERRAIN_NAMES.index("ore")
    assert setup_violations(ttd, terrain, ttd.number_token) == []


def test_robber_and_pirate_starts():
    for s in list_scenarios():
        r, p = s.robber, s.pirate
        if r.rule == "desert":
            assert s.terrain[r.hex] == DESERT
        elif r.rule == "number":
            assert s.number_token[r.hex] == r.number
        if p.rule == "hex":
            # "o pirata começa no hexágono de mar marcado com um “X”": a sea hex of the board, never the frame
            assert s.terrain[p.hex] == 0 and s.kind[p.hex] == "sea"
            assert not s.dealt[p.hex]  # a dealt board never moves the pirate's start
    assert load_scenario("pirate-islands", 4).robber.rule == "none"
    assert load_scenario("wonders-of-catan", 4).pirate.rule == "none"
    assert load_scenario("new-shores", 3).robber.terrain == TERRAIN_NAMES.index("brick")
    assert load_scenario("forgotten-tribe", 4).robber.return_to_start is False


def test_pirate_fleet_circles_the_desert_islands_clockwise():
    s = load_scenario("pirate-islands", 3)
    path = [s.coords[h].tolist() for h in s.pirate.fleet_path]
    assert len(path) == 14 and path[0] == s.coords[s.pirate.hex].tolist()
    points = [(q + r / 2, r * math.sqrt(3) / 2) for q, r in path]  # screen coordinates, y down
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1])) / 2
    assert area > 0  # positive with y pointing down = clockwise on the page
    inside = [h for h in range(len(s.kind)) if s.terrain[h] in (DESERT, TERRAIN_NAMES.index("wool"))
              and s.cell_zone[h] == "P"]
    cx, cy = np.mean([points[i] for i in range(14)], axis=0)
    for h in inside:  # the desert islands (and the unnumbered pasture islet) lie inside the loop
        q, r = s.coords[h]
        assert math.hypot(q + r / 2 - cx, r * math.sqrt(3) / 2 - cy) < 2.5


def test_areas_cover_every_land_cell_once():
    for s in list_scenarios():
        owned = Counter(h for a in s.areas for h in a.hexes)
        land = {h for h, k in enumerate(s.kind) if k in ("land", "slot", "fog")}
        assert set(owned) == land and set(owned.values()) == {1}


def test_unknown_scenario_and_player_count():
    with pytest.raises(UserError, match="unknown scenario 'atlantis'"):
        load_scenario("atlantis", 4)
    with pytest.raises(UserError, match="for 3, 4 players, not 5"):
        load_scenario("new-world", 5)


# ----------------------------------------------------------------------------------------------- broken files
TINY = '''
slug = "tiny"
number = 99
name = "Tiny"

[victory]
target = 10

[setup]
red_adjacent_allowed = false

[[layouts]]
players = [3, 4]
status = "reconstructed"
map = """
  -2   0 |       ~~   ~~   ~~
  -1  -1 |    ~~   lu5A br6A ~~
   0  -2 | ~~   seA  deA  wo10A ~~
   1  -2 |    ~~   gr9A or4A ~~
   2  -2 |       ~~   ~~   ~~
"""

[layouts.zones.A]
table = "all"
deal = "land"
terrains = { desert = 1, lumber = 1, brick = 1, wool = 1, grain = 1, ore = 1 }
numbers = { 4 = 1, 5 = 1, 6 = 1, 9 = 1, 10 = 1 }

[layouts.harbours]
placement = "shuffle"
sites = [{ type = "3:1", land = [0, -1], sea = [0, -2] }]

[layouts.robber]
start = "desert"
hex = [0, 0]

[layouts.pirate]
start = [-1, 0]

[[layouts.areas]]
name = "island"
role = "start"
zones = ["A"]
'''


def write(tmp_path, text):
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return path


def test_the_tiny_file_is_valid(tmp_path):
    both = parse_scenario_file(write(tmp_path, TINY))
    assert [s.players for s in both] == [3, 4]
    s = both[0]
    assert (s.topology.n_hex, int(s.dealt.sum()), s.reconstructed) == (19, 6, True)
    assert s.table_counts()["all"]["hexes"] == Counter(sea=1, desert=1, lumber=1, brick=1, wool=1, grain=1, ore=1)


@pytest.mark.parametrize("old,new,fragment", [
    ("target = 10", "", "missing 'victory.target'"),
    ("lu5A", "xx5A", "unknown cell 'xx5A'"),
    ("  -1  -1 |", "   0  -1 |", "duplicate hex"),
    ("seA", "se8A", "number token on sea"),
    ("deA", "de3A", "number token on desert"),
    ("lu5A", "lu7A", "'7' is not a number token"),
    ("lumber = 1, brick = 1", "lumber = 2, brick = 1", "terrain pool has 7 tiles for 6 cells"),
    ("4 = 1, 5 = 1", "4 = 2, 5 = 1", "6 number tokens for 5 producing tiles"),
    ("lumber = 1, brick = 1", "gold = 1, brick = 1", "printed terrains of its cells differ from the pool"),
    ("4 = 1, 5 = 1", "3 = 1, 5 = 1", "printed numbers of its cells differ"),
    ("gr9A", "gr9B", "zone 'B' is used in the map but has no [zones.B] table"),
    ('deal = "land"', 'deal = "random"', "deal must be one of"),
    ('start = "desert"', 'start = { number = 12 }', "does not carry the start"),
    ("start = [-1, 0]", "start = [0, 1]", "pirate: the start [0, 1] is not a sea cell"),
    ("start = [-1, 0]", "start = [0, -2]", "pirate: the start [0, -2] is a frame cell"),
    ("land = [0, -1], sea = [0, -2]", "land = [0, -1], sea = [2, -2]", "are not adjacent"),
    ('type = "3:1"', 'type = "fish"', "unknown harbour type 'fish'"),
    ("   2  -2 |       ~~   ~~   ~~", "", "lies on the edge of the map"),
    ('name = "island"', 'nom = "island"', "unknown key 'layouts[0].areas[0].nom'"),
    ('role = "start"', 'role = "home"', "role must be one of"),
    ("players = [3, 4]", "players = [2]", "players must list 3 and/or 4"),
    ('status = "reconstructed"', 'status = "maybe"', "status must be one of"),
    ("red_adjacent_allowed = false", "red_adjacent_allowed = false\ngold_not_on = [7]", "gold_not_on must list"),
    ("red_adjacent_allowed = false", "red_adjacent_allowed = false\nsettlements = 4", "settlements must be 2 or 3"),
    ("[victory]", "[victory", "invalid TOML"),
])
def test_broken_files_give_one_line_errors(tmp_path, old, new, fragment):
    assert old in TINY
    path = write(tmp_path, TINY.replace(old, new, 1))
    with pytest.raises(UserError) as info:
        parse_scenario_file(path)
    message = str(info.value)
    assert "tiny.toml" in message and fragment in message and "\n" not in message, message


def test_markers_must_name_corners_on_the_map(tmp_path):
    text = TINY + '\n[layouts.markers]\nwasteland_corners = ["9,9,N"]\n'
    with pytest.raises(UserError, match="tiny.toml: .*corner 9,9,N is not on the map"):
        parse_scenario_file(write(tmp_path, text))
    text = TINY + '\n[layouts.markers]\nvp_chit_edges = ["0,-2,NW"]\n'
    with pytest.raises(UserError, match="touches only frame cells"):
        parse_scenario_file(write(tmp_path, text))


def test_cells_outside_every_area_are_an_error(tmp_path):
    text = TINY.replace('zones = ["A"]', "hexes = [[0, -1]]")
    with pytest.raises(UserError, match=r"tiny.toml: .*hex \[1, -1\] is in no area"):
        parse_scenario_file(write(tmp_path, text))


# ----------------------------------------------------------------------------------------------- CLI
def test_cli_lists_the_scenarios(capsys):
    assert main(["seafarers", "scenarios"]) == 0
    out = capsys.readouterr().out
    for slug in SLUGS:
        assert slug in out
    assert "adjusted" in out and "published" in out


def test_cli_json(capsys):
    assert main(["seafarers", "scenarios", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["slug"], r["players"]) for r in rows] == [("base", 3), ("base", 4)] + CASES
    for r in rows:
        s = load_scenario(r["slug"], r["players"])
        assert r["vp_target"] == s.victory.target and r["reconstructed"] == s.reconstructed
        assert r["hexes"] == sum(k != "frame" for k in s.kind)
    fog = next(r for r in rows if r["slug"] == "fog-islands" and r["players"] == 4)
    assert (fog["hexes"], fog["fog"], fog["land"]) == (42, 12, 27)


def test_only_cloth_for_catan_drafts_a_third_settlement():
    """Seed 002, scenario 6 "Fase de construção": a third initial settlement; two everywhere else."""
    rounds = {(s.slug, s.players): s.setup.settlements for s in list_scenarios()}
    assert {k: v for k, v in rounds.items() if v != 2} == {("cloth-for-catan", 3): 3, ("cloth-for-catan", 4): 3}
