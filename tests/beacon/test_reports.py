import json
import os
import types

import numpy as np
import polars as pl
import pytest

from analyzer import io as rio
from analyzer import stats
from reports.beacon import plots
from reports.beacon.simulate import write_simulate_report

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NAMES = ["Novices", "Sailors", "Captains", "Navigators", "Cartographers"]
LOWER = [0, 26, 36, 46, 56]
ASSUMPTIONS = [
    "Solo: the end-of-turn keep of 1 tile is offered only while the draw pile is not empty.",
    "Ships never block each other: several ships may stand on one tile (all start on the HQ).",
]


def tiny_tiles():
    """Nine stand-in tiles: HQ, lighthouse, buoy, windmill, pier, plain water, island, ..."""
    edge_land = np.array([
        [0, 0, 0, 0],  # 0 HQ
        [1, 0, 0, 0],  # 1 lighthouse on N land
        [0, 0, 0, 0],  # 2 buoy
        [0, 1, 1, 0],  # 3 windmill, land E+S
        [0, 0, 0, 1],  # 4 pier, land W
        [0, 0, 0, 0],  # 5 open sea
        [0, 0, 0, 0],  # 6 interior island
        [1, 0, 1, 0],  # 7 channel N+S
        [1, 1, 1, 1],  # 8 land on all sides
    ], dtype=np.uint8)
    feature = np.array([3, 1, 2, 4, 5, 0, 0, 0, 0], dtype=np.int8)
    mass_buildings = np.zeros((9, 26), dtype=np.int16)
    mass_buildings[4, 0] = 3
    mass_buildings[8, 0] = 2
    interior_mask = np.zeros(9, dtype=np.int32)
    interior_mask[6] = 1
    open_sea = np.array([1, 0, 1, 0, 0, 1, 0, 0, 0], dtype=np.uint8)
    return types.SimpleNamespace(ids=tuple(f"t{i:02d}" for i in range(9)), edge_land=edge_land, feature=feature,
                                 mass_buildings=mass_buildings, interior_mask=interior_mask, open_sea=open_sea)


def tiny_layout():
    rows, cols = np.divmod(np.arange(9), 3)
    return {"row": rows.astype(np.int64), "col": cols.astype(np.int64),
            "tile": np.array([1, 2, 3, 4, 0, 5, 6, 7, 8], dtype=np.int64)}


def synthetic(n=400, reconstruction=True):
    rng = np.random.default_rng(7)
    scores = np.clip(np.rint(rng.normal(38, 8, n)), 5, 70).astype(np.int64)
    codes = np.searchsorted(LOWER, scores, side="right") - 1
    games = pl.DataFrame({
        "game": np.arange(n, dtype=np.int64),
        "score": scores,
        "explored": rng.integers(10, 25, n),
        "explored_lighthouse": rng.integers(0, 6, n),
        "tiles_placed": rng.integers(40, 56, n),
        "tiles_discarded": rng.integers(0, 10, n),
        "turns": rng.integers(15, 30, n),
        "rank": [NAMES[c] for c in codes],
    })
    mc = stats.mean_ci(scores)
    best = int(np.argmax(scores))
    summary = {
        "games": n, "mean": mc["mean"], "std": mc["std"], "sem": mc["sem"], "ci95": mc["ci95"],
        "percentiles": stats.percentiles(scores),
        "rank_bands": {"names": NAMES, "lower_bounds": LOWER},
        "rank_probabilities": stats.category_probabilities(codes, NAMES),
        "seed": 12345, "policy": "greedy", "players": 1, "expansions": [],
        "tile_set": {"name": "observed-44", "sha256": "ab" * 32, "reconstruction": reconstruction, "n_active": 44},
        "assumptions": ASSUMPTIONS,
        "versions": {"tabletop_analyzer": "0.1.0", "numba": "0.60.0", "numpy": "2.1.0", "python": "3.11.9"},
        "threads": 4, "wall_seconds": 1.5, "games_per_second": n / 1.5,
        "best_game": {"game": best, "score": int(scores[best])},
        "command": "tabletop beacon simulate --games 400 --seed 12345",
        "extra_key_from_runner": {"ignored": True},
    }
    return summary, games


def test_write_simulate_report(tmp_path):
    summary, games = synthetic()
    paths = write_simulate_report(tmp_path, summary, games, tiny_layout(), tiny_tiles())
    names = {p.name for p in paths}
    assert names == {"score_histogram.png", "score_ecdf.png", "best_board.png", "report.md", "report.html"}
    for p in paths:
        assert p.exists() and p.parent == tmp_path
    for name in ("score_histogram.png", "score_ecdf.png", "best_board.png"):
        assert (tmp_path / name).read_bytes()[:8] == PNG_MAGIC
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]

    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert md.startswith("# Beacon Patrol — greedy, 1 player, base game")
    assert "Mean score " in md and "over 400 games" in md and "95% CI" in md
    assert "The tile set is a reconstruction:" in md
    for line in ASSUMPTIONS:
        assert line in md
    for name in NAMES:
        assert name in md
    assert "ab" * 6 in md and "ab" * 7 not in md  # sha256 shortened to 12 characters
    assert "tiles_placed" in md and "rank |" not in md
    assert "tabletop beacon simulate --games 400 --seed 12345" in md and "12345" in md
    assert "![" in md and "score_histogram.png" in md

    assert html.count("data:image/png;base64,") == 3
    assert 'src="http' not in html and "<link" not in html and "<script" not in html
    assert "The tile set is a reconstruction:" in html
    assert "Beacon Patrol — greedy, 1 player, base game" in html


def test_report_without_board_and_not_reconstruction(tmp_path):
    summary, games = synthetic(n=50, reconstruction=False)
    summary.update(players=2, expansions=["windmills", "piers"])
    del summary["command"]
    del summary["rank_probabilities"]  # recomputed from scores when missing
    paths = write_simulate_report(tmp_path, summary, games, None, None)
    assert {p.name for p in paths} == {"score_histogram.png", "score_ecdf.png", "report.md", "report.html"}
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Beacon Patrol — greedy, 2 players, windmills, piers")
    assert "reconstruction" not in md
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 2


def test_board_plot_and_explored(tmp_path):
    layout = tiny_layout()
    assert plots._explored_mask(layout["row"], layout["col"]).tolist() == [False] * 4 + [True] + [False] * 4
    out = plots.beacon_board(tmp_path / "b.png", layout, tiny_tiles(), "tiny board")
    assert out.read_bytes()[:8] == PNG_MAGIC
    # An irregular (non-rectangular) layout with negative coordinates also works.
    irregular = {"row": np.array([-1, 0, 0, 0, 1]), "col": np.array([0, -1, 0, 1, 0]),
                 "tile": np.array([1, 2, 0, 3, 4])}
    assert plots.beacon_board(tmp_path / "c.png", irregular, tiny_tiles(), "plus").read_bytes()[:8] == PNG_MAGIC


def test_band_ranges():
    assert plots.band_ranges(NAMES, LOWER) == [("Novices", 0, 25), ("Sailors", 26, 35), ("Captains", 36, 45),
                                               ("Navigators", 46, 55), ("Cartographers", 56, None)]
    with pytest.raises(ValueError):
        plots.band_ranges(["a", "b"], [5, 5])


# --------------------------------------------------------------------------- atomic io

def _leftovers(d):
    return [p.name for p in d.iterdir() if p.name.startswith(".")]


def test_atomic_writes_replace_and_leave_no_temp(tmp_path):
    p = tmp_path / "a.txt"
    rio.atomic_write_text(p, "first")
    rio.atomic_write_text(p, "second — ünïcode")
    assert p.read_text(encoding="utf-8") == "second — ünïcode"
    b = tmp_path / "b.bin"
    rio.atomic_write_bytes(b, b"\x00\x01")
    rio.atomic_write_bytes(b, b"\x02")
    assert b.read_bytes() == b"\x02"
    j = tmp_path / "c.json"
    rio.write_json(j, {"z": 1, "a": [np.int64(2), np.float64(0.5), float("nan")], "name": "Capitães"})
    text = j.read_text(encoding="utf-8")
    assert text.index('"z"') < text.index('"a"')  # insertion order, not sorted
    assert "Capitães" in text and "\n  " in text
    assert json.loads(text) == {"z": 1, "a": [2, 0.5, None], "name": "Capitães"}
    q = tmp_path / "d.parquet"
    rio.atomic_write_parquet(q, pl.DataFrame({"x": [1, 2, 3]}))
    rio.atomic_write_parquet(q, pl.DataFrame({"x": [4, 5]}))
    assert pl.read_parquet(q)["x"].to_list() == [4, 5]
    assert _leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin", "c.json", "d.parquet"]


def test_atomic_write_respects_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        p = rio.atomic_write_text(tmp_path / "m.txt", "x")
    finally:
        os.umask(old)
    assert (p.stat().st_mode & 0o777) == 0o644


class Unserialisable:
    pass


class ExplodingFrame:
    """Writes half a file, then fails, like a crash in the middle of serialisation."""

    def write_parquet(self, fh, **kwargs):
        fh.write(b"PAR1 half written")
        raise RuntimeError("boom")


def test_failing_write_keeps_previous_file(tmp_path):
    j = tmp_path / "summary.json"
    rio.write_json(j, {"ok": True})
    with pytest.raises(TypeError):
        rio.write_json(j, {"bad": Unserialisable()})
    assert json.loads(j.read_text()) == {"ok": True}

    q = tmp_path / "games.parquet"
    rio.atomic_write_parquet(q, pl.DataFrame({"x": [1]}))
    with pytest.raises(RuntimeError, match="boom"):
        rio.atomic_write_parquet(q, ExplodingFrame())
    assert pl.read_parquet(q)["x"].to_list() == [1]

    t = tmp_path / "raw.bin"
    rio.atomic_write_bytes(t, b"old")

    def writer(fh):
        fh.write(b"new partial")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        rio.atomic_write(t, writer)
    assert t.read_bytes() == b"old"
    assert _leftovers(tmp_path) == []


def test_the_first_lines_say_whose_play_the_scores_are(tmp_path):
    """Issue 33: near the headline, every simulate report says the scores are a bot's, which bot, and how
    the oracle's bound is measured; an unfair policy is called so."""
    from analyzer.beacon.policies import bot_of

    summary, games = synthetic()
    summary.update(policy="lookahead:width=2", bot=bot_of("lookahead:width=2"), expansions=["piers"],
                   rank_bands={"names": NAMES, "lower_bounds": [0, 36, 46, 56, 66], "per_expansion": 10})
    write_simulate_report(tmp_path, summary, games, None, None)
    lines = (tmp_path / "report.md").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# Beacon Patrol — lookahead, 1 player, piers"  # width=2 is the default: not repeated
    assert "played by the lookahead bot" in lines[2]
    assert lines[4].startswith("These are a bot's scores, not a person's.")
    assert "`tabletop beacon compare --policies lookahead,oracle --players 1 --expansions piers --seed 12345" \
           in lines[4]
    md = "\n".join(lines)
    assert "Rank-band bounds rise by 10 points per expansion in play (rulebook p. 8); with piers in play they " \
           "are 10 above the base game's." in md
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<strong>lookahead</strong>" in html and "<code>tabletop beacon compare" in html

    summary.update(policy="oracle", bot=bot_of("oracle"))
    write_simulate_report(tmp_path, summary, games, None, None)
    assert "**Not a fair policy:**" in (tmp_path / "report.md").read_text(encoding="utf-8").splitlines()[4]


def test_short_labels_name_only_the_parameters_changed():
    from analyzer.beacon.policies import parse_policy

    assert parse_policy("lookahead").short_label == "lookahead"
    assert parse_policy("lookahead:width=2,hole=2").short_label == "lookahead:hole=2"
    assert parse_policy("lookahead:hole=2").label.startswith("lookahead:width=2,near=0.6,")
    assert parse_policy("greedy").short_label == "greedy"
