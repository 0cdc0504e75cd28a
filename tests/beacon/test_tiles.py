"""Tests for analyzer.beacon.tiles: the default tile set, the CSV format, validation and summaries."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from importlib.resources import files

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.beacon.tiles import (
    COLUMNS,
    EXPANSIONS,
    TileSet,
    load_tiles,
    parse_expansions,
    parse_tiles,
    summarize,
)
from analyzer.errors import UserError
from kernels.beacon import (
    FEATURE_BUOY,
    FEATURE_HQ,
    FEATURE_LIGHTHOUSE,
    FEATURE_NAMES,
    FEATURE_NONE,
    FEATURE_PIER,
    FEATURE_WINDMILL,
    MAX_MASSES,
)

HEADER = ",".join(COLUMNS)

# The 44 observed tiles (id,N,E,S,W,feature,buildings,interior), copied from the shared research file
# beacon_tiles_observed.csv so the tests do not depend on ../shared.
OBSERVED = [
    "p01,~,~,~,~,hq,,",
    "p02,A,~,~,~,lighthouse,,",
    "p03,~,A,~,~,lighthouse,,",
    "p04,~,~,A,~,lighthouse,,",
    "p05,~,~,~,A,lighthouse,,",
    "p06,A,~,~,A,lighthouse,,",
    "p07,~,~,A,A,lighthouse,,",
    "p08,A,A,A,~,lighthouse,,",
    "p09,A,A,~,A,lighthouse,A1,",
    "p10,A,~,A,A,lighthouse,A1,",
    "p11,~,A,A,A,lighthouse,,",
    "p12,~,~,~,~,buoy,,",
    "p13,~,~,~,~,buoy,,",
    "p14,~,~,~,~,buoy,,",
    "p15,~,~,~,~,buoy,,",
    "p16,~,~,~,~,buoy,,",
    "p17,A,~,~,~,buoy,,",
    "p18,~,A,~,~,buoy,A1,",
    "p19,~,A,~,~,buoy,,",
    "p20,~,~,A,~,buoy,A1,",
    "p21,~,~,A,~,buoy,,",
    "p22,~,~,~,A,buoy,A1,",
    "p23,A,~,B,~,buoy,,",
    "p24,~,A,~,B,buoy,,",
    "p25,~,~,~,~,none,,",
    "p26,~,~,~,~,none,,",
    "p27,~,~,~,~,none,,",
    "p28,~,~,~,~,none,,",
    "p29,~,~,~,~,none,,",
    "p30,A,~,~,~,none,A1,",
    "p31,A,~,~,~,none,A2,",
    "p32,~,A,~,~,none,A1,",
    "p33,~,A,~,~,none,A2,",
    "p34,~,~,A,~,none,A2,",
    "p35,~,~,~,A,none,A2,",
    "p36,A,A,~,~,none,A1,",
    "p37,A,~,B,~,none,A1,",
    "p38,A,~,B,~,none,B1,",
    "p39,A,~,~,A,none,A1,",
    "p40,~,A,~,B,none,,",
    "p41,~,~,A,A,none,A1,",
    "p42,A,A,A,~,none,A1,",
    "p43,A,A,~,A,none,A1,",
    "p44,~,A,A,A,none,A2,",
]

TINY = f"""# tiny hand-written set
{HEADER}
h,~,~,~,~,hq,,,
a,A,~,~,A,lighthouse,A1,,
b,~,~,~,~,buoy,,,
c,~,A,~,B,none,A2 B1,,
w,~,~,~,~,windmill,,,
x,~,~,A,~,windmill,,,
q,A,~,~,~,pier,A1 B3,B,AB
i,~,~,~,~,none,,C,
"""


@pytest.fixture(scope="module")
def default() -> TileSet:
    return load_tiles()


def _write(tmp_path, text: str | bytes, name: str = "tiles.csv"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _user_error(path) -> str:
    with pytest.raises(UserError) as info:
        load_tiles(path)
    msg = str(info.value)
    assert "\n" not in msg and msg.strip() == msg
    return msg


# --------------------------------------------------------------------------------------------
# The default set


def test_default_loads_with_expected_shape_and_dtypes(default):
    n = 64
    assert default.name == "default"
    assert default.n == n == len(default.ids) == len(set(default.ids))
    expected = {
        "edge_land": (np.uint8, (n, 4)),
        "edge_mass": (np.int8, (n, 4)),
        "feature": (np.int8, (n,)),
        "mass_buildings": (np.int16, (n, MAX_MASSES)),
        "interior_mask": (np.int32, (n,)),
        "pier_mask": (np.int32, (n,)),
        "open_sea": (np.uint8, (n,)),
    }
    for field, (dtype, shape) in expected.items():
        arr = getattr(default, field)
        assert arr.dtype == dtype, field
        assert arr.shape == shape, field
    assert default.reconstruction is True
    raw = (files("analyzer.beacon") / "data" / "tiles_default.csv").read_bytes()
    assert default.sha256 == hashlib.sha256(raw).hexdigest()


def test_default_file_is_canonical(default):
    raw = (files("analyzer.beacon") / "data" / "tiles_default.csv").read_text(encoding="utf-8")
    assert default.to_csv() == raw


def test_default_has_one_hq_54_base_9_expansion(default):
    assert (default.feature == FEATURE_HQ).sum() == 1
    assert default.ids[default.hq] == "p01"
    base = np.isin(default.feature, [FEATURE_NONE, FEATURE_LIGHTHOUSE, FEATURE_BUOY])
    expansion = np.isin(default.feature, [FEATURE_WINDMILL, FEATURE_PIER])
    assert base.sum() == 54
    assert expansion.sum() == 9
    s = summarize(default)
    assert s["by_expansion"] == {"hq": 1, "base": 54, "windmills": 5, "piers": 4}


def test_default_ids_observed_synthetic_expansion(default):
    assert default.ids == (
        tuple(f"p{i:02d}" for i in range(1, 45))
        + tuple(f"s{i:02d}" for i in range(1, 12))
        + tuple(f"w{i:02d}" for i in range(1, 6))
        + tuple(f"q{i:02d}" for i in range(1, 5))
    )
    for prefix, feats in [("s", {"none", "lighthouse", "buoy"}), ("w", {"windmill"}), ("q", {"pier"})]:
        got = {FEATURE_NAMES[default.feature[i]] for i, t in enumerate(default.ids) if t[0] == prefix}
        assert got == feats


def test_observed_rows_equal_research(default):
    rows = {line.split(",")[0]: line for line in default.to_csv().splitlines() if line[:1] == "p"}
    assert len(rows) == len(OBSERVED)
    for expected in OBSERVED:
        tile_id = expected.split(",")[0]
        assert rows[tile_id] == expected + ",", tile_id  # pier column empty
    # Spot-check the arrays for a two-mass channel tile.
    i = default.index("p38")
    assert default.edge_mass[i].tolist() == [0, -1, 1, -1]
    assert default.edge_land[i].tolist() == [1, 0, 1, 0]
    assert default.mass_buildings[i, :2].tolist() == [0, 1]


def _base_counts(tiles: TileSet, id_prefixes: tuple[str, ...]) -> dict:
    """Counts over the non-HQ tiles whose id starts with one of the prefixes."""
    keep = np.array([t.startswith(id_prefixes) for t in tiles.ids]) & (tiles.feature != FEATURE_HQ)
    land_edges = tiles.edge_land[keep].sum(axis=1)
    buildings = tiles.mass_buildings[keep].sum(axis=1)
    return {
        "by_feature": {f: int((tiles.feature[keep] == FEATURE_NAMES.index(f)).sum()) for f in FEATURE_NAMES},
        "land_edges": [int((land_edges == k).sum()) for k in range(5)],
        "open_sea": int(tiles.open_sea[keep].sum()),
        "buildings": int(buildings.sum()),
        "tiles_with_buildings": int((buildings > 0).sum()),
    }


def test_default_base_frequencies_match_the_documented_table(default):
    no_exp = {"hq": 0, "windmill": 0, "pier": 0}
    assert _base_counts(default, ("p",)) == {
        "by_feature": {"none": 20, "lighthouse": 10, "buoy": 13, **no_exp},
        "land_edges": [10, 16, 10, 7, 0],
        "open_sea": 10,
        "buildings": 24,
        "tiles_with_buildings": 19,
    }
    assert _base_counts(default, ("s",)) == {
        "by_feature": {"none": 5, "lighthouse": 3, "buoy": 3, **no_exp},
        "land_edges": [2, 4, 3, 2, 0],
        "open_sea": 2,
        "buildings": 6,
        "tiles_with_buildings": 5,
    }
    # Single-land-edge tiles of the whole base set are balanced over the four directions.
    base = np.isin(default.feature, [FEATURE_NONE, FEATURE_LIGHTHOUSE, FEATURE_BUOY])
    single = default.edge_land[base & (default.edge_land.sum(axis=1) == 1)]
    assert single.sum(axis=0).tolist() == [5, 5, 5, 5]


def test_default_feature_placement_is_plausible(default):
    land = default.edge_land.sum(axis=1) > 0
    # Lighthouses stand on land; every buoy tile has water to float in (no all-land tile exists).
    assert land[default.feature == FEATURE_LIGHTHOUSE].all()
    assert (default.edge_land.sum(axis=1) < 4).all()
    windmills = default.feature == FEATURE_WINDMILL
    assert default.open_sea[windmills].sum() >= windmills.sum() - 1  # mostly offshore
    piers = np.flatnonzero(default.feature == FEATURE_PIER)
    assert all(default.pier_mask[i] != 0 for i in piers)
    assert any(bin(int(default.pier_mask[i])).count("1") == 2 for i in piers)
    assert all(default.mass_buildings[i].sum() > 0 for i in piers)


def test_pier_worth_five_is_realisable(default):
    """Rulebook: a pier worth 1 + 4 buildings. Find a pier tile whose pier mass has one land edge d and a
    base tile whose only land is the opposite edge: side by side they close one island."""
    opposite = {0: 2, 1: 3, 2: 0, 3: 1}
    base = np.isin(default.feature, [FEATURE_NONE, FEATURE_LIGHTHOUSE, FEATURE_BUOY])
    found = []
    for q in np.flatnonzero(default.feature == FEATURE_PIER):
        if bin(int(default.pier_mask[q])).count("1") != 1 or default.edge_land[q].sum() != 1:
            continue
        d = int(np.flatnonzero(default.edge_land[q])[0])
        mass = int(default.edge_mass[q, d])
        assert default.pier_mask[q] == 1 << mass
        for j in np.flatnonzero(base):
            if default.edge_land[j].tolist() != [int(k == opposite[d]) for k in range(4)]:
                continue
            total = default.mass_buildings[q, mass] + default.mass_buildings[j].sum()
            if total == 4:
                found.append((default.ids[q], default.ids[j]))
    assert ("q01", "p34") in found


# --------------------------------------------------------------------------------------------
# Round trip, equality, API


def test_round_trip_default(default):
    again = parse_tiles(default.to_csv(), "default")
    assert again == default
    assert again.to_csv() == default.to_csv()


def test_round_trip_tiny_and_sha(tmp_path):
    path = _write(tmp_path, TINY.replace("A2 B1", "B1  A2"), "tiny.csv")  # non-canonical order
    tiles = load_tiles(path)
    assert tiles.name == "tiny.csv"
    assert tiles.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    text = tiles.to_csv()
    assert "c,~,A,~,B,none,A2 B1,," in text.splitlines()
    again = parse_tiles(text, "tiny.csv")
    assert again == tiles and again.sha256 != tiles.sha256
    assert parse_tiles(text, "tiny.csv").sha256 == again.sha256  # deterministic


def test_equality_sees_content_changes():
    a = parse_tiles(TINY, "t")
    assert a != parse_tiles(TINY.replace("A1 B3", "A1 B2"), "t")
    assert a != parse_tiles(TINY, "other name")
    assert a != parse_tiles(TINY.replace("# tiny", "# small"), "t")
    assert a == dataclasses.replace(a, sha256="x")
    assert hash(a) == hash(parse_tiles(TINY + "\n", "t"))


def test_tiny_arrays():
    t = parse_tiles(TINY, "t")
    q = t.index("q")
    assert t.edge_mass[q].tolist() == [0, -1, -1, -1]
    assert t.mass_buildings[q, :3].tolist() == [1, 3, 0]
    assert t.interior_mask[q] == 0b10 and t.pier_mask[q] == 0b11
    assert t.interior_mask[t.index("i")] == 0b100
    assert t.open_sea.tolist() == [1, 0, 1, 0, 1, 0, 0, 0]  # interior islet on i: not open sea
    assert t.hq == 0
    assert t.comments == ("tiny hand-written set",)
    assert t.reconstruction is False


def test_index_unknown_id():
    t = parse_tiles(TINY, "t")
    assert t.index("w") == 4
    with pytest.raises(UserError, match="unknown tile id 'zz'"):
        t.index("zz")


def test_comments_kept_and_reconstruction_flag():
    text = "#\n#  indented\n# This is a Reconstruction.\n" + TINY.split("\n", 1)[1]
    t = parse_tiles(text, "t")
    assert t.comments == ("", " indented", "This is a Reconstruction.")
    assert t.reconstruction is True
    assert parse_tiles(t.to_csv(), "t") == t


def test_comments_and_blank_lines_anywhere_and_bom(tmp_path):
    body = TINY.replace("b,~", "\n# between rows\n\nb,~")
    t = load_tiles(_write(tmp_path, "\ufeff" + body))
    assert t.n == 8
    assert t.comments[-1] == "between rows"


@pytest.mark.parametrize(
    "expansions, expected_ids",
    [
        ((), "h a b c i"),
        ({"windmills"}, "h a b c w x i"),
        (frozenset({"piers"}), "h a b c q i"),
        (("windmills", "piers"), "h a b c w x q i"),
        ("windmills,piers", "h a b c w x q i"),
        (None, "h a b c i"),
        ("", "h a b c i"),
    ],
)
def test_active(expansions, expected_ids):
    t = parse_tiles(TINY, "t")
    mask = t.active(expansions)
    assert mask.dtype == bool and mask.shape == (t.n,)
    assert [i for i, on in zip(t.ids, mask) if on] == expected_ids.split()


def test_active_default(default):
    assert default.active(()).sum() == 55
    assert default.active({"windmills"}).sum() == 60
    assert default.active({"piers"}).sum() == 59
    assert default.active(EXPANSIONS).sum() == 64
    with pytest.raises(UserError, match="unknown expansion 'ships'"):
        default.active({"ships"})


# --------------------------------------------------------------------------------------------
# parse_expansions


@pytest.mark.parametrize(
    "text, expected",
    [
        (None, set()),
        ("", set()),
        ("windmills", {"windmills"}),
        ("piers", {"piers"}),
        ("windmills,piers", {"windmills", "piers"}),
        (" Piers , windmills ,", {"windmills", "piers"}),
        ("piers,piers", {"piers"}),
    ],
)
def test_parse_expansions(text, expected):
    got = parse_expansions(text)
    assert isinstance(got, frozenset) and got == expected


def test_parse_expansions_unknown():
    with pytest.raises(UserError) as info:
        parse_expansions("windmills,castles")
    msg = str(info.value)
    assert "'castles'" in msg and "windmills" in msg and "piers" in msg and "\n" not in msg


# --------------------------------------------------------------------------------------------
# summarize


def test_summarize_tiny():
    s = summarize(parse_tiles(TINY, "tiny.csv"))
    assert s == {
        "name": "tiny.csv",
        "sha256": hashlib.sha256(TINY.encode()).hexdigest(),
        "n": 8,
        "reconstruction": False,
        "by_feature": {"none": 2, "lighthouse": 1, "buoy": 1, "hq": 1, "windmill": 2, "pier": 1},
        "by_expansion": {"hq": 1, "base": 4, "windmills": 2, "piers": 1},
        "open_sea": 3,
        "open_sea_by_feature": {"none": 0, "lighthouse": 0, "buoy": 1, "hq": 1, "windmill": 1, "pier": 0},
        "land_edges": {"0": 4, "1": 2, "2": 2, "3": 0, "4": 0},
        "edge_patterns": {"L~~L": 1, "L~~~": 1, "~L~L": 1, "~~L~": 1, "~~~~": 4},
        "buildings": 8,
        "tiles_with_buildings": 3,
    }
    assert json.loads(json.dumps(s)) == s


def test_summarize_default_is_json(default):
    s = summarize(default)
    assert json.loads(json.dumps(s)) == s
    assert s["n"] == 64 and s["reconstruction"] is True
    assert s["by_feature"] == {"none": 25, "lighthouse": 13, "buoy": 16, "hq": 1, "windmill": 5, "pier": 4}
    assert s["open_sea"] == 17  # 12 base + HQ + 4 windmills
    assert sum(s["edge_patterns"].values()) == 64


# --------------------------------------------------------------------------------------------
# Validation errors: one line, naming the file and the row


def _head(rest: str) -> str:
    return f"{HEADER}\nh,~,~,~,~,hq,,,\n{rest}"


@pytest.mark.parametrize(
    "text, expected",
    [
        # header problems
        (TINY.replace(",pier\n", "\n", 1), "row 2 (header): missing column 'pier'"),
        (TINY.replace(",pier\n", ",pier,notes\n", 1), "row 2 (header): unknown column 'notes' (expected id,"),
        (TINY.replace("buildings", "building", 1), "unknown column 'building'; did you mean 'buildings'?"),
        (TINY.replace("north,east", "east,north", 1), "in this order (any letter case)"),
        # field count
        (_head("p,~,~,~,~,none,,\n"), "row 3 (id p): expected 9 fields"),
        (_head("p,~,~,~,~,none,,,,\n"), "row 3 (id p): expected 9 fields"),
        # edges
        (
            _head("p06,~,ab,~,~,none,,,\n"),
            "tiles.csv: row 3 (id p06): edge 'east' must be '~' or one letter A-Z, got 'ab'",
        ),
        (_head("p,a,~,~,~,none,,,\n"), "edge 'north' must be '~' or one letter A-Z, got 'a'"),
        (_head("p,~,~,,~,none,,,\n"), "edge 'south' must be '~' or one letter A-Z, got ''"),
        (_head("p,~,~,~,1,none,,,\n"), "edge 'west'"),
        # feature
        (_head("p,~,~,~,~,castle,,,\n"), "row 3 (id p): unknown feature 'castle'"),
        (_head("p,~,~,~,~,,,,\n"), "unknown feature ''"),
        # buildings
        (_head("p,A,~,~,~,none,A,,\n"), "bad buildings item 'A'"),
        (_head("p,A,~,~,~,none,2A,,\n"), "bad buildings item '2A'"),
        (_head("p,A,~,~,~,none,A0,,\n"), "bad buildings item 'A0'"),
        (_head("p,A,~,~,~,none,a1,,\n"), "bad buildings item 'a1'"),
        (_head("p,A,~,~,~,none,A1;B1,,\n"), "bad buildings item 'A1;B1'"),
        (_head("p,A,~,~,~,none,A1 B1,,\n"), "buildings on land mass 'B', which is not on this tile"),
        (_head("p,A,~,~,~,none,A1 A2,,\n"), "land mass 'A' twice"),
        # interior
        (_head("p,A,~,~,~,none,,A,\n"), "interior land mass 'A' also appears on an edge"),
        (_head("p,A,~,~,~,none,,b,\n"), "interior must be letters A-Z"),
        # pier
        (_head("p,A,~,~,~,none,,,A\n"), "pier letters 'A' on a tile whose feature is 'none'"),
        (_head("p,A,~,~,~,pier,A1,,\n"), "row 3 (id p): pier tile needs"),
        (_head("p,A,~,~,~,pier,,,B\n"), "pier attached to land mass 'B', which is not on this tile"),
        (_head("p,A,~,~,~,pier,,,AA\n"), "pier lists land mass 'A' twice"),
        # ids and hq
        (_head("p,~,~,~,~,none,,,\np,~,~,~,~,buoy,,,\n"), "row 4 (id p): duplicate id (first at row 3)"),
        (_head(",~,~,~,~,none,,,\n"), "row 3: empty id"),
        (_head("h2,~,~,~,~,hq,,,\n"), "row 3 (id h2): second hq tile (first at row 2)"),
        (f"{HEADER}\np,~,~,~,~,none,,,\n", "no hq tile"),
        # empty
        ("", "empty file"),
        ("# only a comment\n\n", "empty file"),
        (f"{HEADER}\n", "no tile rows"),
        # rows count file lines, comments and blanks included
        (f"# c\n\n{HEADER}\n# c\nh,~,~,~,~,hq,,,\n\nbad,~,~,~,~,x,,,\n", "row 7 (id bad): unknown feature"),
    ],
)
def test_validation_errors(tmp_path, text, expected):
    msg = _user_error(_write(tmp_path, text))
    assert msg.startswith("tiles.csv: ")
    assert expected in msg


def test_parse_tiles_raises_same_errors():
    with pytest.raises(UserError, match=r"^mine\.csv: row 3 \(id p\): unknown feature"):
        parse_tiles(_head("p,~,~,~,~,castle,,,\n"), "mine.csv")


def test_missing_file(tmp_path):
    path = tmp_path / "nope.csv"
    msg = _user_error(path)
    assert "not found" in msg and "nope.csv" in msg


def test_directory_is_unreadable(tmp_path):
    msg = _user_error(tmp_path)
    assert "cannot read" in msg and str(tmp_path) in msg


def test_not_utf8(tmp_path):
    msg = _user_error(_write(tmp_path, TINY.encode() + b"z,~,~,~,~,none,\xff\xfe,,\n"))
    assert msg.startswith("tiles.csv: not UTF-8")


def test_utf16_is_rejected(tmp_path):
    assert "not UTF-8" in _user_error(_write(tmp_path, TINY.encode("utf-16")))


def test_nul_bytes_rejected():
    with pytest.raises(UserError, match="not a text file"):
        parse_tiles(TINY + "\x00", "t")


# --------------------------------------------------------------------------------------------
# Property: any valid tile set round-trips through to_csv


@st.composite
def tile_rows(draw, index: int) -> str:
    edges = [draw(st.sampled_from("~~ABC")) for _ in range(4)]
    on_edges = sorted({e for e in edges if e != "~"})
    interior = draw(st.sets(st.sampled_from("DEZ"), max_size=2))
    masses = on_edges + sorted(interior)
    built = draw(st.sets(st.sampled_from(masses), max_size=len(masses))) if masses else set()
    buildings = " ".join(f"{m}{draw(st.integers(1, 9))}" for m in sorted(built))
    features = ["none", "lighthouse", "buoy", "windmill"] + (["pier"] if masses else [])
    feature = draw(st.sampled_from(features))
    pier = ""
    if feature == "pier":
        pier = "".join(sorted(draw(st.sets(st.sampled_from(masses), min_size=1, max_size=2))))
    return ",".join([f"t{index}", *edges, feature, buildings, "".join(sorted(interior)), pier])


@st.composite
def tile_sets(draw) -> str:
    n = draw(st.integers(0, 8))
    rows = [draw(tile_rows(i)) for i in range(n)]
    rows.insert(draw(st.integers(0, n)), "hq,~,~,~,~,hq,,,")
    comments = draw(st.lists(st.text("abc reconstruction#,", max_size=12), max_size=3))
    return "".join(f"# {c}\n" for c in comments) + HEADER + "\n" + "\n".join(rows) + "\n"


@settings(max_examples=60, deadline=None)
@given(tile_sets())
def test_property_round_trip(text):
    t = parse_tiles(text, "p.csv")
    again = parse_tiles(t.to_csv(), "p.csv")
    assert again == t
    assert again.to_csv() == t.to_csv()
    assert t.ids[t.hq] == "hq"
    assert (t.edge_land == (t.edge_mass >= 0)).all()
    assert t.active(EXPANSIONS).all()


# --------------------------------------------------------------------------------------------
# Limits and awkward text (fuzz findings): still one line naming the file and the row


def _masses_tile(tile_id: str, feature: str, counts: list[int], pier: str = "") -> str:
    """A tile with land masses A-D on its edges and E.. inside, carrying `counts` buildings."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: max(len(counts), 4)]
    interior = letters[4:]
    buildings = " ".join(f"{m}{c}" for m, c in zip(letters, counts) if c)
    return f"{tile_id},A,B,C,D,{feature},{buildings},{interior},{pier}"


def _score_bound_set(buildings: int, extra_none: int = 0) -> str:
    """HQ (3) + one pier (1 + every building) + none tiles (1 each) carrying `buildings` in all.

    The largest score the validator allows for it is 3 + 1 + buildings + (none tiles)."""
    rows, left, i = [], buildings, 0
    while left > 0:
        counts = [min(99, left - 99 * k) for k in range(26) if left - 99 * k > 0]
        left -= sum(counts)
        rows.append(_masses_tile(f"n{i}", "none", counts))
        i += 1
    rows += [f"e{k},~,~,~,~,none,,," for k in range(extra_none)]
    return _head("q,A,~,~,~,pier,,,A\n" + "\n".join(rows) + "\n")


def test_buildings_count_with_thousands_of_digits(tmp_path):
    msg = _user_error(_write(tmp_path, _head("x,A,~,~,~,none,A" + "9" * 5000 + ",,\n")))
    assert msg.startswith("tiles.csv: row 3 (id x): ") and "at most 99" in msg
    assert len(msg) < 300


@pytest.mark.parametrize("item", ["A100", "A32767", "A0100"])
def test_buildings_count_above_99(tmp_path, item):
    msg = _user_error(_write(tmp_path, _head(f"x,A,~,~,~,none,{item},,\n")))
    assert "row 3 (id x)" in msg and "at most 99 buildings per land mass" in msg


def test_buildings_count_99_and_leading_zeros_are_fine():
    t = parse_tiles(_head("x,A,~,~,~,none,A99 B007,B,\n"), "t")
    assert t.mass_buildings[t.index("x"), :2].tolist() == [99, 7]


def test_a_set_that_could_overflow_the_16_bit_score_is_rejected():
    # Seven piers whose land carries 26 x 99 buildings each: every pier may count every building.
    rows = [_masses_tile(f"q{i}", "pier", [99] * 26, pier="A") for i in range(7)]
    with pytest.raises(UserError) as info:
        parse_tiles(_head("\n".join(rows) + "\n"), "piers.csv")
    msg = str(info.value)
    assert msg.startswith("piers.csv: ") and "more than 32,767 points" in msg and "16-bit" in msg
    assert "\n" not in msg


def test_score_bound_is_exact_at_the_limit():
    # 3 (HQ) + 1 (pier) + buildings + 2 empty none tiles + the none tiles carrying the buildings.
    n_carriers = -(-32000 // (26 * 99))
    at_limit = 32767 - 3 - 1 - 2 - n_carriers
    assert parse_tiles(_score_bound_set(at_limit, extra_none=2), "t").n > 0
    with pytest.raises(UserError, match=r"^t: .*more than 32,767 points"):
        parse_tiles(_score_bound_set(at_limit, extra_none=3), "t")


def test_default_set_is_far_below_the_score_bound(default):
    assert parse_tiles(default.to_csv(), "default") == default


def test_too_many_tiles(tmp_path):
    ok = _head("".join(f"t{i},~,~,~,~,none,,,\n" for i in range(999)))
    assert parse_tiles(ok, "t").n == 1000
    msg = _user_error(_write(tmp_path, ok + "t999,~,~,~,~,none,,,\n"))
    assert msg.startswith("tiles.csv: ") and "1,001 tiles" in msg and "at most 1,000" in msg


def test_field_over_the_csv_limit(tmp_path):
    msg = _user_error(_write(tmp_path, _head("x" * 200_000 + ",~,~,~,~,none,,,\n")))
    assert msg.startswith("tiles.csv: row 3: ") and "field larger than field limit" in msg
    assert len(msg) < 300


@pytest.mark.parametrize(
    "cell, problem",
    [
        ('"#x"', "must not start with '#'"),
        ('" #x"', "must not start with '#'"),
        ('"a,b"', "comma"),
        ('"a""b"', "double quote"),
        ("a\tb", "control character"),
        ("a\x85b", "control character"),
        ("a\x1cb", "control character"),
        ("a\x0cb", "control character"),
        ("a\u2028b", "line separator"),
        ("a\u2029b", "line separator"),
        ("a\u200bb", "invisible character"),
        ("e\u0301", "NFC"),
        ("x" * 65, "65 characters long; at most 64"),
    ],
)
def test_ids_that_would_not_survive_export_are_rejected(tmp_path, cell, problem):
    msg = _user_error(_write(tmp_path, _head(f"{cell},~,~,~,~,none,,,\n")))
    assert msg.startswith("tiles.csv: row 3 (id ") and problem in msg
    assert msg.isprintable()  # the bad character is escaped, not printed


def test_unicode_line_separators_stay_inside_their_row():
    # str.splitlines() would cut these rows in two; only \n, \r\n and \r end a line.
    t = parse_tiles(_head("x,A,~,~,~,none,A1\x0c,,\n# note\u2028more\ny,~,~,~,~,buoy,,,\n"), "t")
    assert t.ids == ("h", "x", "y") and t.comments == ("note\u2028more",)
    assert parse_tiles(t.to_csv(), "t") == t
    with pytest.raises(UserError, match=r"^t: row 4 \(id 'z"):
        parse_tiles(_head("x,~,~,~,~,none,,,\nz\u2029z,~,~,~,~,none,,,\n"), "t")


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_only_files(tmp_path, newline):
    t = load_tiles(_write(tmp_path, TINY.replace("\n", newline).encode()))
    assert t == parse_tiles(TINY, "tiles.csv")
    with pytest.raises(UserError, match=r"^t: row 3 \(id p\): unknown feature"):
        parse_tiles(_head("p,~,~,~,~,castle,,,\n").replace("\n", newline), "t")


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from('ab #,"\t\x0c\x1c\x85\u2028\u2029\r\né'), min_size=1, max_size=6))
def test_property_any_accepted_id_round_trips(tile_id):
    quoted = '"' + tile_id.replace('"', '""') + '"'
    try:
        t = parse_tiles(_head(f"{quoted},~,~,~,~,none,,,\n"), "t")
    except UserError as exc:
        assert "\n" not in str(exc)
        return
    assert parse_tiles(t.to_csv(), "t") == t


def test_the_header_names_the_columns_in_order_whatever_their_case():
    """docs/beacon/tiles.md: "letter case is ignored: `ID,North,...` reads the same"."""
    text = (files("analyzer.beacon") / "data" / "tiles_default.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("id,"))
    upper = "\n".join(lines[:k] + [lines[k].upper()] + lines[k + 1:]) + "\n"
    assert parse_tiles(upper, "default") == parse_tiles(text, "default")
    swapped = lines[k].split(",")
    swapped[1], swapped[2] = swapped[2], swapped[1]
    with pytest.raises(UserError, match="header") as refused:
        parse_tiles("\n".join(lines[:k] + [",".join(swapped)] + lines[k + 1:]) + "\n", "swapped.csv")
    assert "exactly" not in str(refused.value) and "(any letter case)" in str(refused.value)  # as the doc says
