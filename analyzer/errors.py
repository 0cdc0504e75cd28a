"""The one error type users see: a single line, exit code 2, no traceback."""


class UserError(Exception):
    """Bad input (option, data file, layout). The CLI prints `error: <message>` and exits 2."""
