"""`tabletop`: the command line, built from the registry of games (analyzer/games.py).

Every registered game's Typer app is a sub-command (`tabletop beacon ...`, `tabletop seafarers ...`);
`tabletop games` lists them. Errors a user can make are one line and exit code 2 (`main`).
"""

import os
import sys

import typer

from analyzer import interrupts
from analyzer.command import CREATED, CheckedGroup, UsageError, checked_app, out_console, remove_created_folders
from analyzer.errors import UserError
from analyzer.games import games

HELP_WIDTH = 120  # --help's width where no terminal says one (piped, redirected) and COLUMNS is unset


def _help_layout() -> None:
    """--help at the terminal's width (rich reads it, or COLUMNS), HELP_WIDTH when there is neither (piped,
    redirected: rich's 80 columns cut long option help), and a word wider than its column folded onto the next line
    instead of cut with an ellipsis (rich's default). Decided when help is printed, so COLUMNS set later counts."""
    from rich.text import Text
    from typer import rich_utils

    parameter_help, console = rich_utils._get_parameter_help, rich_utils._get_rich_console

    def folded_help(**kwargs):
        columns = parameter_help(**kwargs)
        for item in columns.renderables:
            if isinstance(item, Text):
                item.overflow = "fold"
        return columns

    def sized_console(stderr: bool = False):
        out = console(stderr)
        if rich_utils.MAX_WIDTH is None and not os.environ.get("COLUMNS", "").strip().isdigit():
            stream = sys.stderr if stderr else sys.stdout
            try:
                tty = stream is not None and stream.isatty()
            except ValueError:  # a closed stream
                tty = False
            if not tty:
                out.width = HELP_WIDTH
        return out

    rich_utils._get_parameter_help = folded_help
    rich_utils._get_rich_console = sized_console


_help_layout()
app = typer.Typer(cls=CheckedGroup, add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Monte-Carlo strategy analysis for tabletop games.")
for _game in games().values():
    app.add_typer(_game.cli(), name=_game.id)


@app.command("games")
def games_cmd(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")):
    """List the games: their commands, arms (policies, plans, heuristics), rulebooks and docs."""
    import json

    rows = []
    for g in games().values():
        arms = {kind: list(registry) for kind, registry in g.registries().items()}
        rows.append({"id": g.id, "title": g.title, "version": g.version, "about": g.about,
                     "commands": [e.command for e in g.experiments], "arms": arms,
                     "rulebooks": list(g.rulebooks), "docs": g.docs})
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    for r in rows:
        out_console.print(f"[bold]{r['id']}[/bold]  {r['title']} (engine {r['version']}): {r['about']}")
        out_console.print(f"    commands: {', '.join(r['commands'])}", highlight=False)
        for kind, names in r["arms"].items():
            out_console.print(f"    {kind}: {', '.join(names)}", highlight=False)
        out_console.print(f"    rules: {', '.join(r['rulebooks'])}; docs: {r['docs']}", highlight=False)
    out_console.print("`tabletop <game> --help` lists a game's commands; README.md says how to add a game.")


checked_app(app)  # every command and group, the games' too: flags without a type in --help, no repeated option


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors become one line on stderr and exit code 2, never a traceback."""
    CREATED.clear()  # (the folders of an earlier command in this process are not this one's to remove)
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
    finally:
        from analyzer.io import release_results_folders

        release_results_folders()  # (run in this process, as the tests do: the next command may use the folder)


def _fail(message: str) -> int:
    """Print an error as one line (a newline in a file name is shown as \\n); exit code 2. The empty --out
    folders the run made are removed: a refused or interrupted run leaves nothing."""
    remove_created_folders()
    if message and sys.stderr is not None:
        one_line = message.replace("\r", "\\r").replace("\n", "\\n")
        print(f"error: {one_line}", file=sys.stderr)
    return 2


class _Messages:
    """stdout, whose failures (a full device, a closed pipe) do not fail the run: what it carries is messages, the
    results are files. The first failure is kept, to be named once at the end."""

    def __init__(self, stream):
        self._stream = stream
        self.failed: OSError | None = None

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as exc:
            self.failed = self.failed or exc
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except OSError as exc:
            self.failed = self.failed or exc

    def __getattr__(self, name):
        return getattr(self._stream, name)


def run() -> None:
    """The `tabletop` console script: main(), then leave at once. Every result is written and
    closed by then; tearing down the interpreter (unloading numba, matplotlib, scipy) would add
    about half a second to every command. SIGTERM stops a run as Ctrl-C does (staging folders
    removed); text a terminal's encoding cannot show is replaced rather than fatal; stdout that
    cannot be written (a full device) is one warning, not an error."""
    interrupts.install()
    streams = [s for s in (sys.stdout, sys.stderr) if s is not None]  # None: closed (>&-)
    for stream in streams:
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    messages = sys.stdout = _Messages(sys.stdout) if sys.stdout is not None else None
    code = main()
    if messages is not None:
        messages.flush()
        failed = messages.failed
        if failed is not None and sys.stderr is not None and not isinstance(failed, BrokenPipeError):
            print(f"warning: the messages could not be written to stdout ({failed.strerror or failed})"
                  + ("; the results are written" if code == 0 else ""), file=sys.stderr)
    for stream in streams:
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
