"""A signal in the console script's first second, while the heavy imports run (issue 33: a SIGINT printed a
KeyboardInterrupt traceback; a SIGTERM killed silently or was swallowed, exit 0). analyzer/entry.py takes both
signals before importing numba, polars and the games: one line, exit 130, nothing written."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process's state in /proc")


def _catches_sigterm(pid: int) -> bool:
    """Whether the process has its own SIGTERM handler (SigCgt in /proc/PID/status): entry.py has installed it."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_the_imports_is_one_line_and_exit_130(sig, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-c", "from analyzer.entry import run; run()", "beacon", "simulate",
                             "--games", "5", "--no-progress", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not _catches_sigterm(proc.pid):
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.001)
    loaded = Path(f"/proc/{proc.pid}/maps").read_text()
    proc.send_signal(sig)
    stdout, err = proc.communicate(timeout=60)
    assert "numba" not in loaded and "polars" not in loaded  # sent while the heavy imports were still to come
    assert (proc.returncode, err, stdout) == (130, "error: interrupted\n", "")
    assert not out.exists()


def test_a_signal_just_after_the_handlers_are_installed_is_one_line(tmp_path):
    """The signal the test above sends can land between the handlers' install and the imports (seen once in about
    60 runs: a KeyboardInterrupt traceback and exit -2); here it lands there every time."""
    code = ("import analyzer.entry as e\n"
            "def signalled():\n    raise KeyboardInterrupt  # what the handler raises when the signal comes\n"
            "e.check_environment = signalled\ne.run()")
    done = subprocess.run([sys.executable, "-c", code, "games"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (130, "error: interrupted\n", "")
