"""The runner's Dask backend: the same chunks on an embedded LocalCluster or an existing cluster.

Imported only when --dask-local or --scheduler is given (Dask is an optional extra and slow to
import). Workers need only the package installed: each task carries the picklable Job, and the
worker builds (and numba compiles or loads from its cache) the play_range once per process.
"""

from __future__ import annotations

import logging
import socket
import struct
import sys
import time
import uuid

import numpy as np

import analyzer
from analyzer.errors import UserError
from analyzer.interrupts import SIGNAL_POLL_S
from analyzer.job import Job, play_chunk, warm_up

CONNECT_TIMEOUT_S = 5.0  # an unreachable scheduler fails fast, and so does a server that does not answer as one
WORKER_WAIT_S = 30.0  # a reachable scheduler gets this long to show at least one worker (at the start, and after
#                       every worker left mid-run)
SCHEDULER_LOST_S = 10.0  # the client this long without its scheduler mid-run: the scheduler is gone
WATCH_S = 1.0  # how often the driver, waiting for chunks, looks at the cluster's workers and connection
MAX_HANDSHAKE = 2**20  # bytes: a Dask scheduler's first message (its handshake) is far smaller
RESUME = "with --checkpoint DIR, rerunning the same command resumes from the chunks finished"
# The embedded cluster's housekeeping, tuned down: by default its event loops, profiler (every 10 ms)
# and monitors cost ~15% of a core when idle, 2% with these. Results are unaffected.
LEAN_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


class DaskBackend:
    def __init__(self, local_workers: int | None = None, scheduler: str | None = None):
        self.local_workers = local_workers
        self.scheduler = scheduler
        self.name = "dask-local" if local_workers else "dask"
        self.workers = local_workers or 0  # worker threads, known after warm()
        self._token = uuid.uuid4().hex[:10]  # task keys are distinct per run and per chunk
        self._cluster = self._client = None
        self._pending: dict[str, tuple[int, object]] = {}  # task key -> (first game, future)

    def __enter__(self) -> DaskBackend:
        try:
            import dask
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise UserError("--dask-local and --scheduler need Dask: pip install 'tabletop-analyzer[dask]'") from None
        if self.local_workers:
            # One thread per worker process, and numba kept to one thread in each. No dashboard; the
            # scheduler's small HTTP server takes any free port rather than warning about 8787. The workers'
            # logs are silenced: at shutdown (more workers than cores) they logged heartbeat tracebacks after
            # every result was in; a chunk's own error reaches the driver through its future.
            with dask.config.set(LEAN_WORKERS):
                self._cluster = LocalCluster(n_workers=self.local_workers, threads_per_worker=1, processes=True,
                                             host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL,
                                             scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                             env={"NUMBA_NUM_THREADS": "1"})
                self._client = Client(self._cluster)
        else:
            _probe(self.scheduler)
            # a scheduler lost mid-run is one line (next_done), not distributed's logged reconnection tracebacks
            self._quieted = _quiet_logs()
            try:
                self._client = Client(self.scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:  # TypeError: tls:// without
                # TLS settings in Dask's configuration, ucx:// without UCX
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                _restore_logs(self._quieted)
                raise UserError(f"cannot reach the Dask scheduler at {self.scheduler}: {reason}") from None
        self._completed = as_completed()
        self._seen_workers = None
        self._next_watch = 0.0
        self._lost_since = self._none_since = None
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self._pending and self._client.status == "running":
                self._client.cancel([future for _, future in self._pending.values()])
        except Exception:  # (a scheduler gone: nothing to cancel there)
            pass
        finally:
            if self._cluster is None:
                try:
                    self._client.close(timeout=CONNECT_TIMEOUT_S)  # someone else's cluster: leave it running
                except Exception:
                    pass
                _restore_logs(self._quieted)
            else:
                self._client.shutdown()  # our own: much faster than a polite close
                self._cluster.close()

    def warm(self, job: Job) -> None:
        """Wait for a worker, then build and compile the job once on every worker (in parallel)."""
        try:
            self._client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except TimeoutError:
            raise UserError(f"no Dask worker joined the scheduler at {self.scheduler} "
                            f"within {WORKER_WAIT_S:.0f} s; start one with `dask worker {self.scheduler}`") from None
        nthreads = self._client.nthreads()
        warmed = [self._client.submit(warm_up, job, workers=[address], allow_other_workers=False,
                                      key=f"tabletop-warm-{self._token}-{i}")
                  for i, address in enumerate(nthreads)]
        try:
            versions = self._client.gather(warmed)
        except UserError:
            raise
        except Exception as exc:  # typically the package missing on a worker
            raise UserError(f"a Dask worker could not prepare the games ({type(exc).__name__}: {exc}); every "
                            f"worker needs tabletop-analyzer {analyzer.__version__} installed") from None
        for address, version in zip(nthreads, versions):
            if version != analyzer.__version__:
                raise UserError(f"Dask worker {address} runs tabletop-analyzer {version}, this machine "
                                f"{analyzer.__version__}; install the same version everywhere")
        self.workers = sum(nthreads.values())

    def drop_pending(self, finish: bool = True) -> None:
        """Cancel the chunks still queued or in flight (a run stopped early), so the next job starts clean
        (nothing waits for them: `finish` is the thread backend's)."""
        from distributed import as_completed

        if self._pending:
            self._client.cancel([future for _, future in self._pending.values()])
        self._pending.clear()
        self._completed = as_completed()

    def submit(self, job: Job, start: int, end: int) -> None:
        future = self._client.submit(play_chunk, job, start, end, key=f"tabletop-chunk-{self._token}-{start}-{end}")
        self._pending[future.key] = (start, future)
        self._completed.add(future)

    def next_done(self) -> tuple[int, np.ndarray]:
        """The next chunk to finish. Waits in short steps (a signal is handled at once), watching the cluster: a
        worker that leaves is named on stderr (Dask plays its chunks again on the others), no worker for
        WORKER_WAIT_S or no scheduler for SCHEDULER_LOST_S is one UserError."""
        while not self._completed.has_ready():
            time.sleep(SIGNAL_POLL_S)
            if time.monotonic() >= self._next_watch:
                self._next_watch = time.monotonic() + WATCH_S
                self._watch()
        future = next(self._completed)
        try:
            block = future.result()
        except Exception as exc:
            if self._client.status != "running":
                raise self._lost_scheduler() from None
            name = type(exc).__name__
            if name == "KilledWorker":
                raise UserError(f"a chunk of games ended the Dask worker that played it, again and again ({exc}); "
                                f"{RESUME}") from None
            raise
        start, _ = self._pending.pop(future.key)
        future.release()
        return start, block

    def _watch(self) -> None:
        now = time.monotonic()
        if self._client.status != "running":
            self._lost_since = self._lost_since or now
            if now - self._lost_since > SCHEDULER_LOST_S:
                raise self._lost_scheduler()
            return
        self._lost_since = None
        workers = len(self._client.scheduler_info().get("workers", {}))
        if self._seen_workers is not None and workers < self._seen_workers:
            print(f"warning: {self._seen_workers - workers} Dask worker(s) left the cluster, {workers} left; "
                  + ("their chunks are played again on the others" if workers else
                     f"waiting up to {WORKER_WAIT_S:.0f} s for one to join"), file=sys.stderr)
        self._seen_workers = workers
        if workers:
            self._none_since = None
            return
        self._none_since = self._none_since or now
        if now - self._none_since > WORKER_WAIT_S:
            raise UserError(f"every Dask worker left the cluster at {self.scheduler or 'the local cluster'} and none "
                            f"joined within {WORKER_WAIT_S:.0f} s; {RESUME}")

    def _lost_scheduler(self) -> UserError:
        return UserError(f"lost the Dask scheduler at {self.scheduler or 'the local cluster'} mid-run; {RESUME}")


def _quiet_logs() -> dict[str, int]:
    """Silence distributed's loggers (Dask's configuration gives several their own level); their levels before."""
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    before = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    return before


def _restore_logs(levels: dict[str, int]) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def _probe(address: str) -> None:
    """A tcp:// scheduler address answers as a Dask scheduler, in bounded time: its first message (a handshake,
    sent on connection) must come within CONNECT_TIMEOUT_S and start with a plausible length. Dask itself would
    wait for ever on a server that accepts and says nothing, and read another server's first bytes as the length
    of a message to allocate ('not enough memory')."""
    scheme, sep, rest = address.strip().rpartition("://")
    if sep and scheme != "tcp":
        return  # (tls://, ucx://, inproc://: Dask's own checks)
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        return  # (Dask says what is wrong with the address)
    where = f"the Dask scheduler at {address}"
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S) as conn:
            data = b""
            while len(data) < 8:
                chunk = conn.recv(8 - len(data))
                if not chunk:
                    break
                data += chunk
    except TimeoutError:
        raise UserError(f"{where}: the server accepted the connection but sent nothing within "
                        f"{CONNECT_TIMEOUT_S:.0f} s; is it a Dask scheduler (`dask scheduler`)?") from None
    except OSError as exc:
        raise UserError(f"cannot reach {where}: {exc.strerror or exc}") from None
    if len(data) < 8 or struct.unpack("<Q", data)[0] > MAX_HANDSHAKE:
        shown = data[:8].decode("ascii", "replace").strip() or "nothing"
        raise UserError(f"{where}: the server there is not a Dask scheduler (it answered {shown!r}); give the "
                        "address `dask scheduler` prints (tcp://host:8786)")
