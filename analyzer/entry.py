"""The `tabletop` console script: what must happen before the heavy imports (numba, polars, the games).

numba reads NUMBA_NUM_THREADS when it is first imported and raises a traceback on a bad value, and a Ctrl-C
while the imports run (a second or more) would otherwise print a KeyboardInterrupt traceback. So the
environment is checked and the signals are taken first, then analyzer.cli runs the command.
"""

import os
import sys

from analyzer import interrupts


def check_environment() -> str | None:
    """The one-line problem with the environment numba reads, or None."""
    value = os.environ.get("NUMBA_NUM_THREADS")
    if value is None:
        return None
    if not value.strip().isdigit() or int(value) < 1:
        return (f"NUMBA_NUM_THREADS={value!r} must be a whole number of at least 1 (unset it to use every core, "
                "or use --threads)")
    return None


def run() -> None:
    try:  # from the handlers' install on: a signal that comes before the try would end in a traceback
        interrupts.install()
        problem = check_environment()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            os._exit(2)
        from analyzer import cli
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        os._exit(130)
    cli.run()


if __name__ == "__main__":
    run()
