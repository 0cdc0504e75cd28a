"""The `tabletop` CLI: outputs, one-line errors with exit code 2, results never destroyed."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from tests.support import run_cli

ROOT = Path(__file__).resolve().parents[2]



def test_simulate_writes_every_output(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, err = run_cli(["beacon", "simulate", "--players", "2", "--games", "300", "--seed", "5",
                                 "--expansions", "windmills,piers", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    for name in ("games.parquet", "summary.json", "report.md", "report.html", "score_histogram.png",
                 "score_ecdf.png", "best_board.png"):
        assert (out / name).stat().st_size > 0, name
    summary = json.loads((out / "summary.json").read_text())
    games = pl.read_parquet(out / "games.parquet")
    assert summary["games"] == games.height == 300
    assert summary["players"] == 2 and summary["expansions"] == ["piers", "windmills"]
    assert summary["rank_bands"]["lower_bounds"] == [0, 46, 56, 66, 76]  # +10 per expansion
    assert set(summary["percentiles"]) == {"p5", "p25", "p50", "p75", "p95"}
    assert summary["tile_set"]["reconstruction"] is True
    assert {"game", "score", "explored", "tiles_placed", "tiles_discarded", "turns", "rank"} <= set(games.columns)
    report = (out / "report.md").read_text()
    assert "reconstruction" in report.lower()
    assert str(out / "report.html") in stdout.replace("\n", "")
    # no --policy: the strongest fair policy that runs in seconds, named in the summary and the report
    assert summary["bot"] == {"label": "lookahead", "fair": True, "about": summary["bot"]["about"]}
    assert summary["policy"].startswith("lookahead:width=2,")  # every parameter recorded
    assert "played by the lookahead bot" in report.splitlines()[2] and ", lookahead, 2 player(s)" in stdout


@pytest.mark.parametrize("args,fragment", [
    (["--players", "0"], "--players must be 1 to 4"),
    (["--players", "7"], "--players must be 1 to 4"),
    (["--games", "-5"], "--games must be at least 1"),
    (["--games", "many"], "--games"),
    (["--policy", "clever"], "unknown policy 'clever'"),
    (["--policy", "random:depth=3"], "bad parameter"),
    (["--expansions", "boats"], "unknown expansion"),
    (["--threads", "0"], "--threads"),
    (["--tiles", "/no/such/tiles.csv"], "not found"),
])
def test_bad_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    games = [] if "--games" in args else ["--games", "10"]  # (given twice: refused)
    code, out, err = run_cli(["beacon", "simulate", *games, "--no-progress", "--out", str(tmp_path / "o"), *args],
                             capsys)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and fragment in err
    assert "Traceback" not in err


def test_unwritable_out_dir(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli(["beacon", "simulate", "--games", "10", "--out", str(blocker / "sub")], capsys)
    assert code == 2 and "cannot write to --out" in err


def test_a_failed_rerun_keeps_earlier_results(tmp_path, capsys):
    out = tmp_path / "run"
    assert run_cli(["beacon", "simulate", "--games", "50", "--no-progress", "--out", str(out)], capsys)[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, _ = run_cli(["beacon", "simulate", "--games", "50", "--policy", "nope", "--out", str(out)], capsys)
    assert code == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def layout_csv(tmp_path, rows):
    path = tmp_path / "layout.csv"
    path.write_text("row,col,tile\n" + "\n".join(f"{r},{c},{t}" for r, c, t in rows) + "\n")
    return path


PLUS_OF_WATER = [(0, 0, "p01"), (-1, 0, "p25"), (1, 0, "p26"), (0, -1, "p27"), (0, 1, "p28")]


def test_score_json(tmp_path, capsys):
    code, out, err = run_cli(["beacon", "score", str(layout_csv(tmp_path, PLUS_OF_WATER)), "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result == result | {"total": 3, "explored": 1, "rank": "Novices"}  # only the HQ is explored
    assert result["by_kind"]["lighthouse"] == 1


def test_score_table(tmp_path, capsys):
    code, out, _ = run_cli(["beacon", "score", str(layout_csv(tmp_path, PLUS_OF_WATER))], capsys)
    assert code == 0 and "3 points" in out and "Novices" in out


@pytest.mark.parametrize("rows,fragment", [
    (PLUS_OF_WATER + [(0, 2, "zz9")], "unknown tile id"),
    (PLUS_OF_WATER + [(0, 2, "p25")], "used twice"),
    (PLUS_OF_WATER + [(0, 1, "p29")], "holds two tiles"),
    (PLUS_OF_WATER + [(5, 5, "p29")], "not connected"),
    ([(-1, 0, "p25"), (0, 0, "p26")], "no HQ"),
    (PLUS_OF_WATER + [(0, 2, "p05")], "edges do not match"),  # p05 has land on its west edge
    (PLUS_OF_WATER + [(0, 2, "w01")], "windmill tile"),
])
def test_illegal_layouts(tmp_path, capsys, rows, fragment):
    code, _, err = run_cli(["beacon", "score", str(layout_csv(tmp_path, rows))], capsys)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_score_bad_header(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("r,c,t\n0,0,p01\n")
    code, _, err = run_cli(["beacon", "score", str(path)], capsys)
    assert code == 2 and "header" in err


def test_tiles_summary_and_export_roundtrip(tmp_path, capsys):
    export = tmp_path / "tiles.csv"
    code, out, _ = run_cli(["beacon", "tiles", "--export", str(export)], capsys)
    assert code == 0 and "RECONSTRUCTION" in out and export.exists()
    code, out, _ = run_cli(["beacon", "tiles", "--tiles", str(export), "--json"], capsys)
    summary = json.loads(out)
    assert code == 0 and summary["n"] == 64 and summary["by_feature"]["hq"] == 1


def test_tiles_validation_error(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,north,east,south,west,feature,buildings,interior,pier\nh,~,~,~,~,hq,,,\nx,~,~,~,~,castle,,,\n")
    code, _, err = run_cli(["beacon", "tiles", "--tiles", str(bad)], capsys)
    assert code == 2 and "castle" in err and err.count("\n") == 1


def test_console_script_is_installed():
    exe = Path(sys.executable).parent / "tabletop"
    proc = subprocess.run([str(exe), "beacon", "simulate", "--players", "9", "--out", "x"],
                          capture_output=True, text=True, env=dict(os.environ))
    assert proc.returncode == 2 and proc.stderr.strip() == "error: --players must be 1 to 4, got 9"


def test_console_script_leaves_complete_results(tmp_path):
    """The script skips interpreter teardown (analyzer.cli.run): output and files must be whole."""
    exe = Path(sys.executable).parent / "tabletop"
    out = tmp_path / "run"
    proc = subprocess.run([str(exe), "beacon", "simulate", "--games", "300", "--threads", "1", "--no-progress",
                           "--out", str(out)], capture_output=True, text=True, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr
    assert "".join(proc.stdout.split()).endswith(f"report:{out / 'report.html'}")  # the last line, however wrapped
    assert json.loads((out / "summary.json").read_text())["games"] == 300
    assert (out / "report.html").read_text().rstrip().endswith("</html>")


def test_policy_help_names_every_policy_and_what_it_does(capsys, monkeypatch):
    """Issue 33: "`--policy` help lists the policy names and what each is", the default marked."""
    from analyzer.beacon.policies import DEFAULT_POLICY, POLICIES

    monkeypatch.setenv("COLUMNS", "120")  # a narrow terminal's help box splits long words
    code, out, _ = run_cli(["beacon", "simulate", "--help"], capsys)
    assert code == 0
    text = re.sub(r"[\s│]+", " ", out)  # the help box's wrapped lines as one text
    for name in POLICIES:
        default = " (default)" if name == DEFAULT_POLICY else ""
        assert f"{name}{default}: {POLICIES[name].description}" in text, name
