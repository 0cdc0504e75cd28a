"""Helpers every test folder shares."""

from analyzer.cli import main


def run_cli(args, capsys):
    """`tabletop ARGS` in this process: (exit code, stdout, stderr)."""
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err, fragment=""):
    """The CLI's answer to a user's mistake: exit code 2 and one line `error: ...` naming it."""
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err
