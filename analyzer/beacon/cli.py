"""`tabletop beacon ...`: a thin Typer layer over the Python API (analyzer.beacon)."""

import json
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from analyzer.beacon.policies import DEFAULT_POLICY, policy_help
from analyzer.command import (
    command_line,
    out_console,
    print_run_notes,
    run_fields,
    run_options,
)
from analyzer.errors import UserError
from analyzer.params import path_value
from reports.document import ci_phrase, plural, rate

app = typer.Typer(no_args_is_help=True, help="Beacon Patrol: simulate games, score boards, inspect tile sets.")


@app.command("simulate")
@run_options(count="games", precision=True, streaming=True)
def simulate_cmd(
    players: int = typer.Option(1, help="Number of players, 1 to 4."),
    policy: str = typer.Option(DEFAULT_POLICY, help=policy_help()),
    seed: int = typer.Option(0, help="Experiment seed; with it every result is reproducible."),
    expansions: str = typer.Option("", help="Comma-separated: windmills, piers."),
    tiles: Optional[Path] = typer.Option(None, parser=path_value,
        help="Tile-set CSV (default: the packaged reconstruction)."),
    rule: Optional[list[str]] = typer.Option(
        None, metavar="NAME=VALUE", help="Switch a documented rules default of analyzer/beacon/data/rules.toml "
                                        "\\[options]; repeatable (solo_keep_on_empty_pile=true)."),
    out: Path = typer.Option(..., parser=path_value,
        help="Output folder for games.parquet, summary.json and the report."),
    run=None,
):
    """Simulate games with one policy and write the per-game table, summary and report."""
    from analyzer.beacon.simulation import simulate as simulate_games

    result = simulate_games(players=players, policy=policy, seed=seed, expansions=expansions, tiles=tiles,
                            rules=rule, command=command_line(), out=out, **run_fields(run))
    s = result.summary
    out_console.print(f"{plural(s['games'], 'game')}, {s['bot']['label']}, {players} player(s): mean score "
                      f"{s['mean']:.2f} ({ci_phrase(s['ci95'], s['games'])}), best {s['max']}"
                      + (f", {rate(s['games_per_second'])} games/s" if s["games_per_second"] else ""))
    print_run_notes(s["run"])
    out_console.print(f"report: {out / 'report.html'}")


@app.command("compare")
@run_options(count="games")
def compare_cmd(
    policies: list[str] = typer.Option(
        ..., help="Policies to compare: repeat the option (--policies greedy --policies lookahead:hole=2.5,keep=1) "
                  "or separate them with commas (--policies random,greedy). A comma followed by key=value "
                  "continues the previous policy's parameters, so greedy,lookahead:hole=2.5,keep=1 is two "
                  "policies."),
    players: int = typer.Option(1, help="Number of players, 1 to 4."),
    seed: int = typer.Option(0, help="Experiment seed: every arm plays games 0..G-1 of it (the same deals)."),
    expansions: str = typer.Option("", help="Comma-separated: windmills, piers."),
    tiles: Optional[list[Path]] = typer.Option(
        None, parser=path_value, help="Tile-set CSV (default: the packaged reconstruction); repeat to compare tile "
                                      "sets (the arms are then every policy on every tile set)."),
    rule: Optional[list[str]] = typer.Option(
        None, metavar="NAME=VALUE", help="Switch a documented rules default of analyzer/beacon/data/rules.toml "
                                        "\\[options]; repeatable (solo_keep_on_empty_pile=true)."),
    out: Path = typer.Option(..., parser=path_value,
        help="Output folder for games.parquet, summary.json and the report."),
    run=None,
):
    """Play the same games with several policies (or tile sets) and compare them game by game.

    Every arm plays games 0..G-1 of --seed: the same tile order per game (common random numbers), so
    there is no --precision or --no-per-game (pairing needs the same games, kept per game).
    See docs/beacon/compare.md.
    """
    from analyzer.beacon.comparison import compare as compare_arms

    result = compare_arms(policies, players=players, seed=seed, expansions=expansions, tiles=tiles, rules=rule,
                          command=command_line(), out=out, **run_fields(run))
    s = result.summary
    for label, arm in s["policies"].items():
        out_console.print(f"{label}: mean score {arm['mean']:.2f} ({ci_phrase(arm['ci95'], arm['games'])})",
                          highlight=False)
    for line in [p["sentence"] for p in s["pairs"]] + [g["sentence"] for g in s.get("oracle", {}).get("gaps", [])]:
        out_console.print(line, highlight=False, soft_wrap=True)  # one line each, for grep and logs
    print_run_notes(s["run"])
    out_console.print(f"{plural(s['games'], 'game')} per arm; report: {out / 'report.html'}")


@app.command("score")
def score_cmd(
    layout: Path = typer.Argument(..., parser=path_value,
        help="CSV with columns row,col,tile (row grows southwards)."),
    tiles: Optional[Path] = typer.Option(None, parser=path_value,
        help="Tile-set CSV (default: the packaged reconstruction)."),
    expansions: str = typer.Option("", help="Comma-separated: windmills, piers."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
):
    """Score a finished board and name its rank."""
    from analyzer.beacon.layout import read_layout, score_layout
    from analyzer.beacon.tiles import load_tiles, parse_expansions

    ts = load_tiles(tiles)
    exp = parse_expansions(expansions)
    result = score_layout(read_layout(layout, ts), ts, exp)
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    table = Table(title=f"{layout.name}: {result['total']} points, {result['rank']}")
    table.add_column("explored tile")
    table.add_column("count", justify="right")
    table.add_column("points", justify="right")
    for kind, count in result["by_kind"].items():
        table.add_row(kind, str(count), str(result["points"][kind]))
    table.add_row("total", str(result["explored"]), str(result["total"]), style="bold")
    out_console.print(table)


@app.command("tiles")
def tiles_cmd(
    tiles: Optional[Path] = typer.Option(None, parser=path_value,
        help="Tile-set CSV to validate (default: the packaged set)."),
    export: Optional[Path] = typer.Option(None, parser=path_value,
        help="Write the tile set (canonical CSV) to this file."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
):
    """Validate and summarise a tile set, or export the default set as a starting point."""
    from analyzer.beacon.tiles import load_tiles, summarize
    from analyzer.io import atomic_write_text

    ts = load_tiles(tiles)
    summary = summarize(ts)
    if export is not None:
        if not export.name or export.is_dir():
            raise UserError(f"--export needs a file to write, and {str(export)!r} is a folder")
        try:
            atomic_write_text(export, ts.to_csv())
        except OSError as exc:
            raise UserError(f"cannot write --export {export}: {exc.strerror or exc}") from None
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
        return
    out_console.print(f"[bold]{ts.name}[/bold]: {ts.n} tiles, sha256 {ts.sha256[:12]}"
                      + (" — a RECONSTRUCTION, not the published set" if ts.reconstruction else ""))
    for key in ("by_feature", "by_expansion", "land_edges"):
        out_console.print(f"  {key}: " + ", ".join(f"{k} {v}" for k, v in summary[key].items()))
    out_console.print(f"  open-sea tiles: {summary['open_sea']}, buildings: {summary['buildings']}")
    if export is not None:
        out_console.print(f"exported to {export}")
