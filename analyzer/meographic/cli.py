"""`tabletop meographic simulate|compare`: a thin Typer layer over the Python API (analyzer.meographic.api).

Every option is checked before any game (players, bots, seed, the rules files, the results folder): a mistake is
one line and exit code 2."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from analyzer.command import command_line, run_fields, run_options
from analyzer.meographic.bots import BOTS, bots_help
from analyzer.params import path_value

app = typer.Typer(help="Cational Meographic, the landscape-photo game (its rulebook: docs/rulebooks/).",
                  no_args_is_help=True)
RULE_HELP = ("Switch a documented rules default of analyzer/meographic/data/missions.toml [options], e.g. "
             "card_scores_once=false (repeatable).")


@app.command()
@run_options(count="games", default_games=10_000)
def simulate(players: int = typer.Option(1, help="Players (1 is the solo game, up to 4)."),
             bots: str = typer.Option("greedy", help=bots_help()),
             seed: int = typer.Option(1),
             rules: Optional[Path] = typer.Option(None, parser=path_value, help="A TOML rules file ([[types]] with "
                                                  "[[tiles]], and/or [[missions]]) replacing those parts of the "
                                                  "defaults."),
             rule: Optional[list[str]] = typer.Option(None, metavar="NAME=VALUE", help=RULE_HELP),
             out: Path = typer.Option(..., parser=path_value, help="Results folder."), run=None):
    """Games of the given bots: scores per seat and per bot, points by source, mission cards completed, seat win
    shares with 95% CIs, the best game's area."""
    from analyzer.meographic.api import simulate as simulate_games

    result = simulate_games(players=players, bots=bots, seed=seed, rules=rules, rule=rule, out=out,
                            command=command_line(), **run_fields(run))
    typer.echo(result.headline)


@app.command()
@run_options(count="games", default_games=2_000)
def compare(players: int = typer.Option(1, help="Players (1 is the solo game, up to 4)."),
            bots: str = typer.Option("planner,greedy", help="Two bots: a,b (name:key=value,...; with --variant "
                                                            "the first). " + BOTS.describe()),
            seed: int = typer.Option(1),
            rules: Optional[Path] = typer.Option(None, parser=path_value, help="A TOML rules file over the defaults "
                                                 "(the base of both sides)."),
            variant: Optional[Path] = typer.Option(None, parser=path_value, help="Instead: this TOML rules file "
                                                   "against the base rules, every seat playing the first bot."),
            rule: Optional[list[str]] = typer.Option(None, metavar="NAME=VALUE", help=RULE_HELP),
            out: Path = typer.Option(..., parser=path_value, help="Results folder."), run=None):
    """Bot a against bot b on the same games: solo each plays every game; with more players a sits in each seat in
    turn among b's. The paired difference in points per game and a's win share, with 95% CIs. With --variant: the
    score under that rules file less the base's, game by game."""
    from analyzer.meographic.api import compare as compare_bots

    result = compare_bots(players=players, bots=bots, seed=seed, rules=rules, variant=variant, rule=rule, out=out,
                          command=command_line(), **run_fields(run))
    typer.echo(result.headline)
