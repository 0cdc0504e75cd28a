"""The Python API of the Regatta and Cational Meographic (issue 33): `simulate(...)` and `compare(...)` return the
tables and summary that the commands write, with `out=DIR` write the same files, and refuse a bad argument with
one UserError before any game."""

import importlib
import json
import sys

import polars as pl
import pytest

from analyzer import meographic, regatta
from analyzer.errors import UserError
from tests.support import run_cli

VARIANT = {"regatta": "[hand]\ndraw_to = 4\n", "meographic": '[[missions]]\nid = "only"\nshape = ["FF"]\npoints = 20\n'}
RUN_TIMES = ("wall_seconds", "startup_seconds")  # (the only numbers two runs of the same games may differ in)


def _written(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def _comparable(summary: dict) -> dict:
    """A summary less the timings of its run."""
    summary = {k: v for k, v in summary.items()}
    if "run" in summary:
        summary["run"] = {k: v for k, v in summary["run"].items() if k not in RUN_TIMES}
    return json.loads(json.dumps(summary))


def _same_as_the_cli(result, argv: list[str], api_out, cli_out, capsys, monkeypatch):
    """`tabletop ARGV --out cli_out` writes the same files as the function wrote into api_out (parquet equal,
    summary.json but for the run's timings, every other file byte for byte), and the tables and summary that
    the function returned."""
    argv = [*argv, "--out", str(cli_out)]
    monkeypatch.setattr(sys, "argv", ["tabletop", *argv])  # (the command line the summary records)
    code, stdout, err = run_cli(argv, capsys)
    assert code == 0, err
    assert stdout.strip() == result.headline
    assert _written(api_out) == _written(cli_out)
    for name in _written(cli_out):
        api_file, cli_file = api_out / name, cli_out / name
        if name.endswith(".parquet"):
            assert pl.read_parquet(api_file).equals(pl.read_parquet(cli_file)), name
        elif name == "summary.json":
            on_disk = json.loads(cli_file.read_text())
            assert _comparable(json.loads(api_file.read_text())) == _comparable(on_disk)
            assert _comparable(result.summary) == _comparable(on_disk)
        else:
            assert api_file.read_bytes() == cli_file.read_bytes(), name
    assert result.games.equals(pl.read_parquet(cli_out / "games.parquet"))


@pytest.mark.parametrize("game, call, argv", [
    ("regatta", dict(fn="simulate", players=3, bots="greedy,random,greedy", games=20, seed=2),
     "simulate --players 3 --bots greedy,random,greedy --games 20 --seed 2"),
    ("regatta", dict(fn="compare", bots=["blocker", "greedy"], games=10, seed=3),
     "compare --bots blocker,greedy --games 10 --seed 3"),
    ("regatta", dict(fn="compare", bots="blocker", variant="{variant}", games=10, seed=3),
     "compare --bots blocker --variant {variant} --games 10 --seed 3"),
    ("meographic", dict(fn="simulate", players=2, bots=["greedy", "planner"], games=8, seed=3),
     "simulate --players 2 --bots greedy,planner --games 8 --seed 3"),
    ("meographic", dict(fn="compare", players=2, games=6, seed=3), "compare --players 2 --games 6 --seed 3"),
    ("meographic", dict(fn="compare", games=6, seed=2), "compare --games 6 --seed 2"),
    ("meographic", dict(fn="compare", players=2, bots="greedy", variant="{variant}", games=6, seed=1),
     "compare --players 2 --bots greedy --variant {variant} --games 6 --seed 1"),
])
def test_each_function_returns_and_writes_what_its_command_writes(game, call, argv, tmp_path, capsys,
                                                                   monkeypatch):
    variant = tmp_path / "variant.toml"
    variant.write_text(VARIANT[game], "utf-8")
    call = {k: str(variant) if v == "{variant}" else v for k, v in call.items()}
    fn = getattr({"regatta": regatta, "meographic": meographic}[game], call.pop("fn"))
    argv = [game, *argv.replace("{variant}", str(variant)).split(), "--threads", "1", "--no-progress"]
    command = "tabletop " + " ".join([*argv, "--out", str(tmp_path / "cli")])
    result = fn(**call, threads=1, command=command, out=tmp_path / "api")
    assert isinstance(result.games, pl.DataFrame) and result.summary["experiment"] == f"{game} {fn.__name__}"
    again = fn(**call, threads=1)  # (no out: the same tables and summary, nothing written)
    assert again.games.equals(result.games) and "experiment" not in again.summary
    _same_as_the_cli(result, argv, tmp_path / "api", tmp_path / "cli", capsys, monkeypatch)


@pytest.mark.parametrize("game, fn, kwargs, fragment", [
    ("regatta", "simulate", dict(players=5), "--players 5"),
    ("regatta", "simulate", dict(players=2.5), "--players must be a whole number"),
    ("regatta", "simulate", dict(seed=-1), "--seed"),
    ("regatta", "simulate", dict(team="yes"), "--team"),
    ("regatta", "simulate", dict(games=0), "--games"),
    ("regatta", "simulate", dict(precision=0.5), "no --precision"),
    ("regatta", "simulate", dict(colour="red"), "unknown option 'colour'"),
    ("regatta", "compare", dict(bots="greedy"), "give two bots"),
    ("regatta", "compare", dict(players=1), "--players 1"),
    ("regatta", "compare", dict(variant="no-such-file.toml"), "no-such-file.toml"),
    ("meographic", "simulate", dict(players=0), "--players must be 1 to 4"),
    ("meographic", "simulate", dict(bots="clever"), "clever"),
    ("meographic", "simulate", dict(per_game=False), "per_game=False"),
    ("meographic", "compare", dict(bots=["greedy", "planner", "random"]), "give two bots"),
    ("meographic", "compare", dict(rules="no-such-file.toml"), "no-such-file.toml"),
    ("meographic", "compare", dict(out=""), "out: an empty path"),
])
def test_a_bad_argument_is_one_user_error_before_any_game(game, fn, kwargs, fragment, tmp_path, monkeypatch):
    module = {"regatta": regatta, "meographic": meographic}[game]
    api = importlib.import_module(f"analyzer.{game}.api")

    def no_game(*args, **kw):
        raise AssertionError("a game was played")

    monkeypatch.setattr(api, "run_job" if game == "regatta" else "run_arms", no_game)
    out = tmp_path / "out"
    with pytest.raises(UserError, match=fragment) as error:
        getattr(module, fn)(**{"games": 5, "out": out, **kwargs})
    assert "\n" not in str(error.value)
    assert not out.exists()
