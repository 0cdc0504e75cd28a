"""`tabletop` command line: thin Typer layer over the Python API (analyzer.beacon)."""

import dataclasses
import functools
import inspect
import json
import os
import shlex
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from analyzer.errors import UserError
from analyzer.params import path_value
from analyzer.seafarers.cli import seafarers_app
from reports.document import ci_phrase, plural, rate

try:  # typer >= 0.2x carries its own copy of click
    from typer._click.exceptions import UsageError
except ImportError:  # older typer runs on click itself
    from click.exceptions import UsageError


def _ignore_zero_width() -> None:
    """rich takes COLUMNS=0 for a terminal zero characters wide and prints nothing at all (help,
    messages, progress); treat it as unset, as rich already does for any other unusable value."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) == 0:
        del os.environ["COLUMNS"]


_ignore_zero_width()  # before any Console reads it
app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Monte-Carlo strategy analysis for tabletop games.")
beacon_app = typer.Typer(no_args_is_help=True, help="Beacon Patrol: simulate games, score boards, inspect tile sets.")
app.add_typer(beacon_app, name="beacon")
app.add_typer(seafarers_app, name="seafarers")
out_console = Console(soft_wrap=True)  # piped output: one line per message, as long as it is


def prepare_out_dir(out: Path, command: str) -> Path:
    """Create the output folder and prove it is writable before any long run starts. A folder
    holding another command's results is refused: the two sets of files would mix, and the new
    summary and report would replace the old ones."""
    earlier = _results_of(out)
    if earlier not in (None, command):
        raise UserError(f"--out {out} holds the results of `tabletop {earlier}`; give another folder "
                        f"for `tabletop {command}` (or empty that one)")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".tabletop-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UserError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    return out


RESULT_COMMANDS = ("beacon simulate", "beacon compare", "seafarers boards", "seafarers balance", "seafarers pirates")


def _results_of(out: Path) -> str | None:
    """The command (`beacon simulate`, ...) whose summary.json is in out, if one is."""
    try:
        summary = json.loads((out / "summary.json").read_text("utf-8"))
        words = summary["command"].split()
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    name = " ".join(words[1:3])
    return name if words[:1] == ["tabletop"] and name in RESULT_COMMANDS else None


@contextmanager
def results_folder(out: Path, stale: tuple[str, ...] = ()) -> Iterator[Path]:
    """Where a command writes its result files: a staging folder moved into `out` when all are
    written, removing the `stale` files of older runs (analyzer.io.staged_results). A failure while
    writing (a full disk, a folder in the way) is one line, and `out` keeps the previous run's files
    as they were."""
    from analyzer.io import staged_results

    try:
        with staged_results(out, stale) as stage:
            yield stage
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise UserError(f"cannot write the results to {out}: {exc.strerror or exc}{where}; "
                        "the files there before are unchanged") from None


def command_line() -> str:
    return "tabletop " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def run_options(default_games: int = 10_000):
    """Decorator: give a command the runner's options, validated, as one ``run: RunOptions`` argument.

    Adds --games/--precision/--min-games/--max-games, --threads/--dask-local/--scheduler,
    --chunk-size, --checkpoint, --per-game/--no-per-game and --progress to the command's own::

        @beacon_app.command()
        @run_options()
        def compare(policies: str = typer.Option(...), ..., run: RunOptions = None):
            result = analyzer.runner.run_job(job, run, aggregate=True)

    Bad combinations become one-line errors before the command body runs.
    """
    from analyzer.runner import DEFAULT_MAX_GAMES, DEFAULT_MIN_GAMES, RunOptions

    added = {
        "games": (Optional[int], typer.Option(None, help=f"Number of games (default {default_games:,}).")),
        "precision": (Optional[float], typer.Option(
            None, help="Instead of --games: play until the 95% CI half-width of the main statistic "
                       "(the mean score) is at most this.")),
        "min_games": (Optional[int], typer.Option(
            None, help=f"With --precision: at least this many games (default {DEFAULT_MIN_GAMES:,}).")),
        "max_games": (Optional[int], typer.Option(
            None, help=f"With --precision: at most this many games (default {DEFAULT_MAX_GAMES:,}).")),
        "threads": (Optional[int], typer.Option(None, help="Worker threads (default: all cores).")),
        "dask_local": (Optional[int], typer.Option(
            None, metavar="W", help="Run on an embedded Dask cluster of W single-threaded worker processes.")),
        "scheduler": (Optional[str], typer.Option(
            None, metavar="tcp://HOST:PORT", help="Run on an existing Dask cluster (see docs/scaleout.md).")),
        "chunk_size": (Optional[int], typer.Option(None, help="Games per chunk (never changes results).")),
        "checkpoint": (Optional[Path], typer.Option(
            None, parser=path_value, metavar="DIR", help="Keep finished chunks here; rerunning the same command resumes.")),
        "per_game": (bool, typer.Option(
            True, help="Keep the per-game table; --no-per-game keeps streaming aggregates only (flat memory).")),
        "progress": (bool, typer.Option(True, help="Show a progress bar on stderr.")),
    }

    def decorate(command):
        own = [p for name, p in inspect.signature(command).parameters.items() if name != "run"]
        extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=hint)
                 for name, (hint, option) in added.items()]

        @functools.wraps(command)
        def wrapper(**kwargs):
            values = {name: kwargs.pop(name) for name in added}
            run = RunOptions(**values).checked(default_games)
            return command(**kwargs, run=run)

        wrapper.__signature__ = inspect.Signature(own + extra)
        wrapper.__annotations__ = {p.name: p.annotation for p in own + extra}
        return wrapper

    return decorate


@beacon_app.command()
@run_options()
def simulate(
    players: int = typer.Option(1, help="Number of players, 1 to 4."),
    policy: str = typer.Option("greedy", help="Policy name, optionally with parameters: name:key=value,..."),
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
    from analyzer.beacon.simulate import make_setup, simulate as simulate_games
    from analyzer.params import check_seed
    from reports.beacon.simulate import write_simulate_report
    from analyzer.io import atomic_write_parquet, write_json

    check_seed(seed)  # every input checked before any work
    make_setup(players, policy, expansions, tiles, rule)
    prepare_out_dir(out, "beacon simulate")
    result = simulate_games(players=players, policy=policy, seed=seed, expansions=expansions, tiles=tiles,
                            rules=rule, command=command_line(), **dataclasses.asdict(run))
    # a streaming run has no per-game table, and an older one would not match its summary
    with results_folder(out, stale=("games.parquet",) if result.games is None else ()) as stage:
        if result.games is not None:
            atomic_write_parquet(stage / "games.parquet", result.games)
        write_json(stage / "summary.json", result.summary)
        write_simulate_report(stage, result.summary, result.games, result.best_layout, result.tiles)
    s = result.summary
    out_console.print(f"{plural(s['games'], 'game')}, {s['policy']}, {players} player(s): mean score "
                      f"{s['mean']:.2f} ({ci_phrase(s['ci95'], s['games'])}), best {s['max']}"
                      + (f", {rate(s['games_per_second'])} games/s" if s["games_per_second"] else ""))
    print_run_notes(s["run"])
    out_console.print(f"report: {out / 'report.html'}")


def print_run_notes(info: dict) -> None:
    """One line each on how a run stopped and what it resumed, when that is news."""
    precision = info.get("precision")
    if precision:
        reached = "reached" if info["stopped"] == "precision" else "not reached: --max-games hit"
        out_console.print(f"precision ±{precision['target_half_width']:g} on the {precision['statistic']} "
                          f"{reached} (±{precision['half_width']:.4g})")
    resumed = (info.get("checkpoint") or {}).get("resumed_games")
    if resumed:
        out_console.print(f"resumed {plural(resumed, 'game')} from {info['checkpoint']['dir']}")
    if not info.get("per_game", True):
        out_console.print("--no-per-game: no games.parquet; figures come from streaming aggregates")


@beacon_app.command()
@run_options()
def compare(
    policies: list[str] = typer.Option(
        ..., help="Policies to compare: repeat the option (--policies greedy --policies lookahead:hole=2.5,keep=1) "
                  "or separate them with commas (--policies random,greedy). A comma followed by key=value "
                  "continues the previous policy's parameters, so greedy,lookahead:hole=2.5,keep=1 is two "
                  "policies."),
    players: int = typer.Option(1, help="Number of players, 1 to 4."),
    seed: int = typer.Option(0, help="Experiment seed: every arm plays games 0..G-1 of it (the same deals)."),
    expansions: str = typer.Option("", help="Comma-separated: windmills, piers."),
    tiles: Optional[list[Path]] = typer.Option(
        None, parser=path_value, help="Tile-set CSV (default: the packaged reconstruction); repeat to compare tile sets "
                   "(the arms are then every policy on every tile set)."),
    rule: Optional[list[str]] = typer.Option(
        None, metavar="NAME=VALUE", help="Switch a documented rules default of analyzer/beacon/data/rules.toml "
                                        "\\[options]; repeatable (solo_keep_on_empty_pile=true)."),
    out: Path = typer.Option(..., parser=path_value,
        help="Output folder for games.parquet, summary.json and the report."),
    run=None,
):
    """Play the same games with several policies (or tile sets) and compare them game by game.

    Every arm plays games 0..G-1 of --seed: the same tile order per game (common random numbers).
    --precision and --no-per-game are refused (pairing needs the same games, kept per game).
    See docs/compare.md.
    """
    from analyzer.beacon.compare import check_inputs, compare as compare_arms
    from reports.beacon.compare import write_compare_report
    from analyzer.io import atomic_write_parquet, write_json

    options = dataclasses.asdict(run)
    check_inputs(policies, players, seed=seed, expansions=expansions, tiles=tiles, rules=rule,
                 **options)  # before any work
    prepare_out_dir(out, "beacon compare")
    result = compare_arms(policies, players=players, seed=seed, expansions=expansions, tiles=tiles, rules=rule,
                          command=command_line(), **options)
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        write_json(stage / "summary.json", result.summary)
        write_compare_report(stage, result.summary, result.games)
    s = result.summary
    for label, arm in s["policies"].items():
        out_console.print(f"{label}: mean score {arm['mean']:.2f} ({ci_phrase(arm['ci95'], arm['games'])})", highlight=False)
    for line in [p["sentence"] for p in s["pairs"]] + [g["sentence"] for g in s.get("oracle", {}).get("gaps", [])]:
        out_console.print(line, highlight=False, soft_wrap=True)  # one line each, for grep and logs
    print_run_notes(s["run"])
    out_console.print(f"{plural(s['games'], 'game')} per arm; report: {out / 'report.html'}")


@beacon_app.command()
def score(
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


@beacon_app.command("tiles")
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


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors become one line on stderr and exit code 2, never a traceback."""
    try:
        code = app(args=argv, prog_name="tabletop", standalone_mode=False)
        if code == 130:  # typer's own answer to Ctrl-C (and SIGTERM, see run)
            raise KeyboardInterrupt
        return code if isinstance(code, int) else 0
    except UserError as exc:
        return _fail(str(exc))
    except UsageError as exc:  # (no arguments at all: the help is printed, with no message)
        return _fail(exc.format_message())
    except MemoryError:  # a last guard: the options are checked against memory before a run
        return _fail("not enough memory for this run; ask for fewer games or boards")
    except OSError as exc:  # a last guard for files: where they are written, the message is better
        return _fail(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        _fail("interrupted")
        return 130


def _fail(message: str) -> int:
    """Print an error as one line (a newline in a file name is shown as \\n); exit code 2."""
    if message and sys.stderr is not None:
        one_line = message.replace("\r", "\\r").replace("\n", "\\n")
        print(f"error: {one_line}", file=sys.stderr)
    return 2


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def run() -> None:
    """The `tabletop` console script: main(), then leave at once. Every result is written and
    closed by then; tearing down the interpreter (unloading numba, matplotlib, scipy) would add
    about half a second to every command. SIGTERM stops a run as Ctrl-C does (staging folders
    removed); text a terminal's encoding cannot show is replaced rather than fatal."""
    signal.signal(signal.SIGTERM, _interrupted)
    streams = [s for s in (sys.stdout, sys.stderr) if s is not None]  # None: closed (>&-)
    for stream in streams:
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    code = main()
    for stream in streams:
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
