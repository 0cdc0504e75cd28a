"""Cluster faults with --scheduler (issue 52), each in bounded time and one line: an address where a server that is
not a Dask scheduler answers, or one that accepts and never answers; a worker lost mid-run (Dask plays its chunks
again on the others: the run goes on, and says so); every worker lost (one line, exit 2, after a wait for one to
join); the scheduler lost mid-run (one line, exit 2, the checkpoint kept for a resume)."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from tests.support import one_line_error, run_cli

pytest.importorskip("distributed")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

QUICK = ["beacon", "simulate", "--policy", "random", "--games", "20", "--no-progress"]


def _server(answer: bytes | None):
    """A TCP server on a free port that sends `answer` to every connection (None: says nothing)."""
    listener = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    return listener


@pytest.mark.parametrize("answer,fragment", [
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "the server there is not a Dask scheduler (it answered 'HTTP/1.1')"),
    (None, "the server accepted the connection but sent nothing within 5 s"),
])
def test_a_scheduler_address_where_no_dask_scheduler_answers_is_one_line_soon(tmp_path, capsys, answer, fragment):
    listener = _server(answer)
    try:
        started = time.monotonic()
        code, _, err = run_cli(QUICK + ["--scheduler", f"tcp://127.0.0.1:{listener.getsockname()[1]}",
                                        "--out", str(tmp_path / "o")], capsys)
        assert one_line_error(code, err, fragment), err
        assert time.monotonic() - started < 20
    finally:
        listener.close()
    assert not (tmp_path / "o").exists()


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


def _start(args):
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


# the console script with the waits for a lost cluster cut to a few seconds
DRIVER = ("import analyzer.dask_backend as d\nd.WORKER_WAIT_S = 4.0\nd.SCHEDULER_LOST_S = 3.0\n"
          "from analyzer.cli import run\nrun()")


def test_lost_workers_and_a_lost_scheduler(tmp_path):
    address = f"tcp://127.0.0.1:{_free_port()}"
    scheduler = _start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":")[-1],
                        "--no-dashboard"])
    workers = [_start(["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"])
               for _ in range(2)]
    procs = [scheduler, *workers]
    try:
        def run(name, kill, after_chunks=1):
            ckpt = tmp_path / name
            proc = subprocess.Popen([sys.executable, "-c", DRIVER, "beacon", "simulate", "--policy",
                                     "rollout:samples=200", "--games", "12", "--chunk-size", "1", "--no-progress",
                                     "--seed", str(len(name)), "--scheduler", address, "--checkpoint", str(ckpt),
                                     "--out", str(tmp_path / f"{name}-out")],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 120
            while len(list((ckpt / "chunks").glob("*.npy"))) < after_chunks:
                assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
                time.sleep(0.05)
            kill.send_signal(signal.SIGKILL)
            kill.wait()
            killed = time.monotonic()
            out, err = proc.communicate(timeout=120)
            return proc.returncode, err, time.monotonic() - killed, ckpt

        code, err, _, _ = run("one-worker-lost", workers[0])
        assert code == 0, err
        assert "warning: 1 Dask worker(s) left the cluster, 1 left; their chunks are played again on the others" in err
        code, err, _, ckpt = run("every-worker-lost", workers[1])
        assert code == 2 and err.endswith("error: every Dask worker left the cluster at " + address + " and none "
                                          "joined within 4 s; with --checkpoint DIR, rerunning the same command "
                                          "resumes from the chunks finished\n"), err
        assert err.count("\n") == 2 and "waiting up to 4 s for one to join" in err.splitlines()[0]
        assert list((ckpt / "chunks").glob("*.npy"))
        workers.append(_start(["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                               "--no-dashboard"]))
        procs.append(workers[-1])
        code, err, seconds, ckpt = run("scheduler-lost", scheduler)
        assert (code, err) == (2, f"error: lost the Dask scheduler at {address} mid-run; with --checkpoint DIR, "
                                  "rerunning the same command resumes from the chunks finished\n")
        assert seconds < 15 and list((ckpt / "chunks").glob("*.npy"))
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
