"""Stops and the environment (issue 52), through the real console script in a subprocess: a stop does not wait for
the games in flight, not even those of a command sharing one pool among its arms; a second signal ends a stop that
is slow at once, in one line; a KeyboardInterrupt that Python cannot raise is not printed as a traceback; a stop
while the kernels compile is prompt; a damaged checkpoint chunk that is a folder is deleted as the warning says;
an unusable NUMBA_CACHE_DIR is one warning line, not minutes of compiling; a stdout that cannot be written is no
error when every result is."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /dev/full")

CLI = [sys.executable, "-c", "from analyzer.cli import run; run()"]
QUICK = ["beacon", "simulate", "--policy", "random", "--games", "40", "--no-progress"]


def _wait_for(path: Path, proc, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)



def _said_only_interrupted(proc, err: str) -> None:
    """Exit 130 and `error: interrupted`, after at most the line of a first command on a cold cache."""
    said = err.splitlines()
    assert proc.returncode == 130 and said[-1] == "error: interrupted" and len(said) <= 2, err
    assert len(said) == 1 or said[0].startswith("Compiling the Beacon Patrol kernels first"), err

def test_a_stop_does_not_wait_for_the_games_in_flight_of_a_compare(tmp_path):
    """compare's arms share one thread pool; stopped, it waited for every game in flight (minutes with rollout)."""
    ckpt = tmp_path / "ck"
    proc = subprocess.Popen(CLI + ["beacon", "compare", "--policies", "rollout:samples=3000", "--policies", "random",
                                   "--games", "8", "--threads", "1", "--chunk-size", "8", "--no-progress",
                                   "--checkpoint", str(ckpt), "--out", str(tmp_path / "o")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(ckpt.glob("*/manifest.json")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    time.sleep(2)  # into the rollout chunk
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 3, err
    _said_only_interrupted(proc, err)


def test_a_second_signal_ends_a_slow_stop_at_once_in_one_line(tmp_path):
    """The first stop made to hang in a clean-up that swallows KeyboardInterrupt (as the thread pool's locks did:
    'release unlocked lock' tracebacks, and only SIGKILL ended it): the second signal leaves at once."""
    code = ("import time\nimport analyzer.runner as r\n"
            "def stuck(self, *exc):\n"
            "    while True:\n"
            "        try:\n            time.sleep(600)\n"
            "        except KeyboardInterrupt:\n            pass\n"
            "r.ThreadBackend.__exit__ = stuck\n"
            "from analyzer.cli import run\nrun()")
    ckpt = tmp_path / "ck"
    proc = subprocess.Popen([sys.executable, "-c", code, "beacon", "simulate", "--policy", "rollout:samples=3000",
                             "--games", "8", "--threads", "1", "--no-progress", "--checkpoint", str(ckpt),
                             "--out", str(tmp_path / "o")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(ckpt / "manifest.json", proc)
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    time.sleep(1)
    assert proc.poll() is None  # stuck in the clean-up
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 2
    _said_only_interrupted(proc, err)


def test_a_keyboard_interrupt_python_cannot_raise_is_not_printed():
    """A signal whose KeyboardInterrupt lands in a destructor or a C callback ("Exception ignored in ...") is kept
    as a stop (interrupts.check) and not printed."""
    code = ("from analyzer import interrupts\ninterrupts.install()\n"
            "class Late:\n    def __del__(self):\n        interrupts._on_signal(15, None)\n"
            "Late()\nprint('caught' if interrupts._caught else 'lost')\n"
            "class Other:\n    def __del__(self):\n        raise ValueError('shown')\nOther()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "caught\n"
    assert "KeyboardInterrupt" not in done.stderr and "ValueError: shown" in done.stderr  # others still shown


def test_a_stop_while_the_kernels_compile_is_prompt(tmp_path):
    """Compiling in a fresh cache folder (tens of seconds here): the main thread takes the signal at once."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    ckpt = tmp_path / "ck"
    proc = subprocess.Popen(CLI + QUICK[:-1] + ["--checkpoint", str(ckpt), "--out", str(tmp_path / "o")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    _wait_for(ckpt / "manifest.json", proc)  # (opened just before the warm-up)
    time.sleep(0.5)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 2.5, err
    _said_only_interrupted(proc, err)


def test_a_damaged_chunk_that_is_a_folder_is_deleted_and_played_again(tmp_path):
    ckpt, out = tmp_path / "ck", tmp_path / "o"
    args = CLI + QUICK + ["--chunk-size", "10", "--checkpoint", str(ckpt), "--out", str(out)]
    assert subprocess.run(args, capture_output=True, text=True, timeout=120).returncode == 0
    first = sorted((ckpt / "chunks").iterdir())[1]
    first.unlink()
    first.mkdir()
    (first / "inside").write_text("x")
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"chunk {first.name} is not a regular file; deleted" in done.stderr
    assert first.is_file()  # played again and saved
    again = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert (again.returncode, again.stderr) == (0, "")


@pytest.mark.parametrize("bad", ["file", "/proc/tabletop-no-such-folder"])
def test_an_unusable_numba_cache_dir_is_one_warning_and_the_usual_cache(tmp_path, bad):
    if bad == "file":
        bad = tmp_path / "a-file"
        bad.write_text("")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(bad)}
    started = time.monotonic()
    done = subprocess.run(CLI + QUICK + ["--out", str(tmp_path / "o")], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"warning: NUMBA_CACHE_DIR={bad} cannot hold the compiled kernels (")
    assert done.stderr.count("\n") == 1, done.stderr
    assert time.monotonic() - started < 60  # loaded from the usual cache, not compiled afresh (minutes)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_no_error_when_every_result_is_written(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run(CLI + QUICK + ["--out", str(tmp_path / "o")], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "warning: the messages could not be written to stdout (No space "
                                                 "left on device); the results are written\n")
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["games"] == 40
