"""What every game's commands share: the runner's options, the results folder, messages.

A game's CLI (analyzer/<game>/cli.py) is a Typer app of thin commands over its Python API:

    @app.command()
    @run_options(count="games", precision=True, streaming=True)
    def simulate(players: int = typer.Option(1), ..., out: Path = out_option(), run=None):
        check ... before any work; prepare_out_dir(out, "beacon simulate")
        result = api(..., **run_fields(run))
        with results_folder(out) as stage: write the files into stage

and analyzer/cli.py mounts every registered game's app (analyzer/games.py).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import os
import shlex
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from analyzer.errors import UserError
from analyzer.formats import plural
from analyzer.params import path_value

try:  # typer >= 0.2x carries its own copy of click
    from typer._click.exceptions import UsageError
except ImportError:  # older typer runs on click itself
    from click.exceptions import UsageError

__all__ = ["CheckedCommand", "CheckedGroup", "backend_fields", "checked_app", "command_line", "out_console",
           "prepare_out_dir", "print_run_notes", "repeat_hint", "results_folder", "run_fields", "run_options"]

def _ignore_zero_width() -> None:
    """rich takes COLUMNS=0 for a terminal zero characters wide and prints nothing at all (help,
    messages, progress); treat it as unset, as rich already does for any other unusable value."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) == 0:
        del os.environ["COLUMNS"]


_ignore_zero_width()  # before any Console reads it
out_console = Console(soft_wrap=True)  # piped output: one line per message, as long as it is


class _Checked:
    """What every `tabletop` command and group adds to Typer's (analyzer/cli.py gives every one of them these
    classes, through checked_app): flags show no value type in --help, and an option that takes one value,
    given twice, is refused."""

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:
            # typer's rich help panel prints every option's type, flags too (`--help <bool>`), where its plain
            # help and click skip flags; a flag's metavar is shown nowhere else (its errors name its opts)
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params

    def parse_args(self, ctx, args):
        if not ctx.resilient_parsing:
            _refuse_repeated_options(self, ctx, list(args))
        return super().parse_args(ctx, args)


class CheckedCommand(_Checked, TyperCommand):
    pass


class CheckedGroup(_Checked, TyperGroup):
    pass


def _refuse_repeated_options(command, ctx, args: list[str]) -> None:
    """`--games 10 --games 20`: click keeps the last and says nothing; a one-line usage error instead. Options
    that collect a list (`multiple`, as --policies and --rule) may repeat; --help anywhere still shows the help."""
    try:
        _, _, order = command.make_parser(ctx).parse_args(args=args)
    except UsageError:  # (a bad command line: the real parse after this says what is wrong)
        return
    given = Counter(order)
    if command.get_help_option(ctx) in given:
        return
    for param, times in given.items():
        if param.param_type_name == "option" and times > 1 and not param.multiple and not param.count:
            names = "/".join(param.opts + param.secondary_opts)
            what = "give one of them once" if param.secondary_opts else (
                "give it once" if param.is_flag else "it takes one value, give it once")
            hint = getattr(command.callback, "repeat_hints", {}).get(param.name)
            ctx.fail(f"{names} is given {times} times: {what}" + (f"; {hint}" if hint else ""))


def repeat_hint(**hints: str):
    """Decorator of a command: what to say, besides refusing it, when an option (by its parameter name) is given
    twice, e.g. where to go instead (`balance --heuristic pips --heuristic diverse`: the tournament)."""
    def decorate(command):
        command.repeat_hints = {**getattr(command, "repeat_hints", {}), **hints}
        return command
    return decorate


def checked_app(app: typer.Typer) -> typer.Typer:
    """Give every command and sub-group of `app` (and theirs) the checked classes above; app itself takes
    typer.Typer(cls=CheckedGroup). A command that names a class of its own would lose the checks: refused."""
    for info in app.registered_commands:
        if info.cls not in (None, TyperCommand, CheckedCommand):
            raise TypeError(f"command {info.name!r}: cls={info.cls.__name__} would skip the shared option checks")
        info.cls = CheckedCommand
    for info in app.registered_groups:
        info.cls = CheckedGroup
        checked_app(info.typer_instance)
    return app


def command_line() -> str:
    return "tabletop " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def api_out_dir(out, command: str) -> Path | None:
    """The `out=` of a Python API function: None, or the folder prepared as the CLI's --out is (checked and
    proved writable before any game is played)."""
    if out is None:
        return None
    if not str(out).strip():
        raise UserError("out: an empty path; give a folder name")
    return prepare_out_dir(Path(out), command)


CREATED: list[Path] = []  # the folders prepare_out_dir made in this process, deepest first


def remove_created_folders() -> None:
    """After a run refused or stopped before it wrote anything (its estimate said years, Ctrl-C): remove the
    folders prepare_out_dir made for it, where they are still empty, so a refused run leaves nothing."""
    from analyzer.io import release_results_folders

    release_results_folders()  # (and their lock files)
    while CREATED:
        try:
            CREATED.pop(0).rmdir()
        except OSError:  # not empty (results, a checkpoint inside), or gone: leave it
            pass


def prepare_out_dir(out: Path, command: str) -> Path:
    """Create the output folder, lock it for this run and prove it is writable before any long run starts. A
    folder holding another command's results is refused (the two sets of files would mix, and the new summary
    and report would replace the old ones), and so is one another run is writing into."""
    from analyzer.io import lock_results_folder

    _refuse_special_files(out)
    earlier = _results_of(out)
    if earlier not in (None, command):
        raise UserError(f"--out {out} holds the results of `tabletop {earlier}`; give another folder "
                        f"for `tabletop {command}` (or empty that one)")
    try:
        missing = [d for d in (out, *out.parents) if not d.exists()]
        out.mkdir(parents=True, exist_ok=True)
        CREATED.extend(missing)  # deepest first
        lock_results_folder(out)
        probe = out / ".tabletop-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UserError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    return out


def _refuse_special_files(out: Path) -> None:
    """A fifo, device or socket among out's files (summary.json as a fifo: reading it would wait for ever, and a
    result file would replace it) is refused before any game."""
    import stat

    try:
        entries = list(out.iterdir()) if out.is_dir() else []
    except OSError:
        return  # (prepare_out_dir's write test says why)
    for entry in entries:
        try:
            mode = entry.stat().st_mode
        except OSError:
            continue  # a dangling symlink: replaced like a missing file
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise UserError(f"--out {out}: {entry.name} is not a regular file (a fifo, device or socket); "
                            "remove it or give another folder")


def _results_of(out: Path) -> str | None:
    """The command (`beacon simulate`, ...) whose summary.json is in out, if one is."""
    from analyzer.games import result_commands

    try:
        summary = json.loads((out / "summary.json").read_text("utf-8"))
        if summary.get("experiment") in result_commands():  # (an API run has no command line)
            return summary["experiment"]
        words = summary["command"].split()
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    name = " ".join(words[1:3])
    return name if words[:1] == ["tabletop"] and name in result_commands() else None


def write_summary(stage: Path, summary: dict, experiment: str) -> None:
    """summary.json of a results folder, naming the `<game> <command>` that wrote it (`experiment`), so that
    another command's run into that folder is refused whether the first ran from the CLI or the API."""
    from analyzer.io import write_json

    summary["experiment"] = experiment
    write_json(stage / "summary.json", summary)


@contextmanager
def results_folder(out: Path, stale: tuple[str, ...] = ()) -> Iterator[Path]:
    """Where a command writes its result files: a staging folder moved into `out` when all are
    written, removing the files of the run before that this one does not write and the `stale` ones
    (analyzer.io.staged_results). A failure while writing (a full disk, a folder in the way) is one line,
    and `out` keeps the previous run's files as they were. The folder is locked for the run (prepare_out_dir,
    or here) until its results are in."""
    from analyzer.io import held_results_folders, lock_results_folder, release_results_folders, staged_results

    held = held_results_folders()
    try:
        lock_results_folder(out)
        with staged_results(out, stale) as stage:
            yield stage
        release_results_folders(keep=held - {os.path.realpath(out)})
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise UserError(f"cannot write the results to {out}: {exc.strerror or exc}{where}; "
                        "the files there before are unchanged") from None


def run_fields(run) -> dict:
    """The runner options of a command (RunOptions) as keyword arguments of a game's Python API."""
    return dataclasses.asdict(run)


BACKEND_FIELDS = ("threads", "dask_local", "scheduler", "chunk_size", "checkpoint", "progress", "long_run")


def backend_fields(run) -> dict:
    """Only how to run (threads or Dask, chunks, checkpoint, progress): for an API whose command counts
    its own games (boards, rolls, battles)."""
    return {name: getattr(run, name) for name in BACKEND_FIELDS}


def _expect_compiling(command):
    """A command whose kernels are not compiled yet (a fresh install without the warm-up) says so once its checks
    are done (the command `tabletop GAME NAME` is the function NAME or NAME_cmd of analyzer/GAME/cli.py); returns
    what notes, once the command has run, that its kernels are compiled."""
    from analyzer import warmup
    from analyzer.games import games

    game = games().get(command.__module__.split(".")[1]) if command.__module__.count(".") >= 2 else None
    name = command.__name__.removesuffix("_cmd").replace("_", "-")
    experiment = next((e for e in game.experiments if e.command == name), None) if game else None
    if experiment is not None and warmup.expect(game.id, experiment.warm_group, name):
        return lambda: warmup.ran(game.id, name)
    return None


def run_options(count: str | None = "games", default_games: int = 10_000, precision: bool = False,
                streaming: bool = False, progress: bool = True, statistic: str = "the mean score"):
    """Decorator: give a command the runner's options, validated, as one ``run: RunOptions`` argument.

    Every command gets the backend options: --threads/--dask-local/--scheduler, --chunk-size,
    --checkpoint, --progress and --long-run. ``count="games"`` adds --games (a command counting boards or rolls
    declares its own option and passes it to the API; ``count=None``); ``precision`` adds
    --precision/--min-games/--max-games (the command has a statistic to measure), ``streaming``
    --per-game/--no-per-game (its columns fold into exact aggregates). A command shows only the
    options it takes; bad combinations are one-line errors before the command body runs.
    """
    from analyzer.runner import DEFAULT_MAX_GAMES, DEFAULT_MIN_GAMES, RunOptions

    added = {}
    if count == "games":
        added["games"] = (Optional[int], typer.Option(None, help=f"Number of games (default {default_games:,})."))
    if precision:
        added.update({
            "precision": (Optional[float], typer.Option(
                None, help="Instead of --games: play until the 95% CI half-width of the main statistic "
                           f"({statistic}) is at most this.")),
            "min_games": (Optional[int], typer.Option(
                None, help=f"With --precision: at least this many games (default {DEFAULT_MIN_GAMES:,}).")),
            "max_games": (Optional[int], typer.Option(
                None, help=f"With --precision: at most this many games (default {DEFAULT_MAX_GAMES:,}).")),
        })
    added.update({
        "threads": (Optional[int], typer.Option(None, help="Worker threads (default: all cores; never changes "
                                                           "results).")),
        "dask_local": (Optional[int], typer.Option(
            None, metavar="W", help="Run on an embedded Dask cluster of W single-threaded worker processes.")),
        "scheduler": (Optional[str], typer.Option(
            None, metavar="tcp://HOST:PORT", help="Run on an existing Dask cluster (see docs/scaleout.md).")),
        "chunk_size": (Optional[int], typer.Option(None, help="Games per chunk (never changes results).")),
        "checkpoint": (Optional[Path], typer.Option(
            None, parser=path_value, metavar="DIR",
            help="Keep finished chunks here; rerunning the same command resumes.")),
    })
    if streaming:
        added["per_game"] = (bool, typer.Option(
            True, help="Keep the per-game table; --no-per-game keeps streaming aggregates only (flat memory)."))
    added["progress"] = (bool, typer.Option(progress, help="Show a progress bar on stderr (and, for a run of more "
                                                           "than a minute, how long it will take)."))
    added["long_run"] = (bool, typer.Option(False, "--long-run", help="Start a run estimated to take more than a "
                                                                      "day (refused without it)."))

    def decorate(command):
        own = [p for name, p in inspect.signature(command).parameters.items() if name != "run"]
        extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=hint)
                 for name, (hint, option) in added.items()]

        @functools.wraps(command)
        def wrapper(**kwargs):
            values = {name: kwargs.pop(name) for name in added}
            run = RunOptions(**values)
            if count == "games":
                run = run.checked(default_games)
            compiled = _expect_compiling(command)
            result = command(**kwargs, run=run)
            if compiled:
                compiled()
            return result

        wrapper.__signature__ = inspect.Signature(own + extra)
        wrapper.__annotations__ = {p.name: p.annotation for p in own + extra}
        return wrapper

    return decorate


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
