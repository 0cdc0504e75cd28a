"""Ctrl-C and SIGTERM: both stop a run, and a stop is never lost.

A signal raises KeyboardInterrupt in the main thread. While numba compiles, that exception can land in a callback
that LLVM calls from C (llvmlite's object cache), where Python prints "Exception ignored" and carries on: the run
would finish and write its results as if nobody had asked it to stop. So every signal is also recorded, and
`check()` raises it again where the run can still stop cleanly: between chunks and before results are written.
Such a swallowed KeyboardInterrupt is not printed ("Exception ignored in ..."): the stop it stands for is kept.
A second signal while the first one's stop is under way leaves at once: one line, exit 130.
Standard library only: the console script installs this before the heavy imports.
"""

import os
import signal
import sys

SIGNAL_POLL_S = 0.2  # how often a run waiting for chunks (either backend) lets Ctrl-C and SIGTERM in

_caught: list[int] = []


def _on_signal(signum, frame):
    if _caught:  # (the stop of the first is stuck or slow: nothing of the run is left to save)
        os.write(2, b"error: interrupted\n")
        os._exit(130)
    _caught.append(signum)
    raise KeyboardInterrupt


def _quiet_unraisable(unraisable, default=sys.unraisablehook):
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        return  # recorded in _caught: check() raises it where the run can stop
    default(unraisable)


def install() -> None:
    """Take Ctrl-C and SIGTERM (main thread only)."""
    forget()
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    sys.unraisablehook = _quiet_unraisable


def forget() -> None:
    """A new command in this process: the signals of an earlier one are not its own."""
    _caught.clear()


def check() -> None:
    """Raise KeyboardInterrupt if a signal came since install(), even one whose exception was swallowed."""
    if _caught:
        raise KeyboardInterrupt
