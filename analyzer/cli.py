"""`tabletop` command line: thin Typer layer over the Python API (analyzer.beacon)."""

import json
import shlex
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from analyzer.errors import UserError
from analyzer.seafarers.cli import seafarers_app

try:  # typer >= 0.2x carries its own copy of click
    from typer._click.exceptions import UsageError
except ImportError:  # older typer runs on click itself
    from click.exceptions import UsageError

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Monte-Carlo strategy analysis for tabletop games.")
beacon_app = typer.Typer(no_args_is_help=True, help="Beacon Patrol: simulate games, score boards, inspect tile sets.")
app.add_typer(beacon_app, name="beacon")
app.add_typer(seafarers_app, name="seafarers")
out_console = Console()


def prepare_out_dir(out: Path) -> Path:
    """Create the output folder and prove it is writable before any long run starts."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".tabletop-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UserError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    return out


@beacon_app.command()
def simulate(
    players: int = typer.Option(1, help="Number of players, 1 to 4."),
    policy: str = typer.Option("greedy", help="Policy name, optionally with parameters: name:key=value,..."),
    games: int = typer.Option(10_000, help="Number of games."),
    seed: int = typer.Option(0, help="Experiment seed; with it every result is reproducible."),
    expansions: str = typer.Option("", help="Comma-separated: windmills, piers."),
    tiles: Optional[Path] = typer.Option(None, help="Tile-set CSV (default: the packaged reconstruction)."),
    threads: Optional[int] = typer.Option(None, help="Worker threads (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, help="Games per chunk (never changes results)."),
    out: Path = typer.Option(..., help="Output folder for games.parquet, summary.json and the report."),
    progress: bool = typer.Option(True, help="Show a progress bar on stderr."),
):
    """Simulate games with one policy and write the per-game table, summary and report."""
    from analyzer.beacon.simulate import make_setup, simulate as run
    from reports.beacon import write_simulate_report
    from reports.io import atomic_write_parquet, write_json

    make_setup(players, policy, expansions, tiles)  # every input checked before any work
    if games < 1:
        raise UserError(f"--games must be at least 1, got {games}")
    prepare_out_dir(out)
    command = "tabletop " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    result = run(players=players, policy=policy, games=games, seed=seed, expansions=expansions,
                 tiles=tiles, threads=threads, chunk_size=chunk_size, progress=progress, command=command)
    atomic_write_parquet(out / "games.parquet", result.games)
    write_json(out / "summary.json", result.summary)
    write_simulate_report(out, result.summary, result.games, result.best_layout, result.tiles)
    s = result.summary
    lo, hi = s["ci95"]
    out_console.print(f"{s['games']:,} games, {s['policy']}, {players} player(s): mean score "
                      f"{s['mean']:.2f} (95% CI {lo:.2f}–{hi:.2f}), best {s['max']}, "
                      f"{s['games_per_second']:,.0f} games/s")
    out_console.print(f"report: {out / 'report.html'}")


@beacon_app.command()
def score(
    layout: Path = typer.Argument(..., help="CSV with columns row,col,tile (row grows southwards)."),
    tiles: Optional[Path] = typer.Option(None, help="Tile-set CSV (default: the packaged reconstruction)."),
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


@beacon_app.command("tiles")
def tiles_cmd(
    tiles: Optional[Path] = typer.Option(None, help="Tile-set CSV to validate (default: the packaged set)."),
    export: Optional[Path] = typer.Option(None, help="Write the tile set (canonical CSV) to this file."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
):
    """Validate and summarise a tile set, or export the default set as a starting point."""
    from analyzer.beacon.tiles import load_tiles, summarize
    from reports.io import atomic_write_text

    ts = load_tiles(tiles)
    summary = summarize(ts)
    if export is not None:
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


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors become one line on stderr and exit code 2, never a traceback."""
    try:
        app(args=argv, prog_name="tabletop", standalone_mode=False)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        print("error: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
