"""`tabletop regatta simulate|compare`: a thin Typer layer over the Python API (analyzer.regatta.api)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from analyzer.command import command_line, run_fields, run_options
from analyzer.params import path_value

app = typer.Typer(help="Regatta: the paper-boat river race.", no_args_is_help=True)
RULE_HELP = ("A rule switch where the rulebook can be read more ways, NAME=true|false (repeatable): "
             "reshuffle_at_once, team_deal_at_limit (docs/regatta/rules.md).")


@app.command()
@run_options(count="games", default_games=10_000)
def simulate(players: int = typer.Option(2, help="Players (2-4; 4 with --team)."),
             bots: str = typer.Option("greedy", help="One bot, or one per seat, comma-separated."),
             seed: int = typer.Option(1), team: bool = typer.Option(False, help="The team variant."),
             rules: Optional[Path] = typer.Option(None, parser=path_value, help="A TOML rules file over the "
                                                  "defaults."),
             rule: Optional[List[str]] = typer.Option(None, help=RULE_HELP),
             out: Path = typer.Option(..., parser=path_value, help="Results folder."), run=None):
    """Races of the given bots: winner, length, cards used; seat win rates with CIs."""
    from analyzer.regatta.api import simulate as simulate_races

    result = simulate_races(players=players, bots=bots, seed=seed, team=team, rules=rules, out=out,
                            command=command_line(), rule=rule or None, **run_fields(run))
    typer.echo(result.headline)


@app.command()
@run_options(count="games", default_games=2_000)
def compare(players: int = typer.Option(2), bots: str = typer.Option("blocker,greedy", help="Two bots: a,b."),
            seed: int = typer.Option(1),
            variant: Optional[Path] = typer.Option(None, parser=path_value, help="Instead: a TOML rules file "
                                                   "against the default rules, every seat playing the first bot."),
            rule: Optional[List[str]] = typer.Option(None, help=RULE_HELP),
            out: Path = typer.Option(..., parser=path_value), run=None):
    """Bot a in each seat in turn against bot b in the others, on the same races: a's win share less its fair
    share, with a paired 95% CI. With --variant: race length under that rules file less the defaults."""
    from analyzer.regatta.api import compare as compare_bots

    result = compare_bots(players=players, bots=bots, seed=seed, variant=variant, out=out, command=command_line(),
                          rule=rule or None, **run_fields(run))
    typer.echo(result.headline)
