"""The runner's Dask backend: the same chunks on an embedded LocalCluster or an existing cluster.

Imported only when --dask-local or --scheduler is given (Dask is an optional extra and slow to
import). Workers need only the package installed: each task carries the picklable Job, and the
worker builds (and numba compiles or loads from its cache) the play_range once per process.
"""

from __future__ import annotations

import logging
import uuid

import numpy as np

import analyzer
from analyzer.errors import UserError
from analyzer.runner import Job, play_chunk, warm_up

CONNECT_TIMEOUT_S = 5.0  # an unreachable scheduler fails fast
WORKER_WAIT_S = 30.0  # a reachable scheduler gets this long to show at least one worker
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
            # scheduler's small HTTP server takes any free port rather than warning about 8787.
            with dask.config.set(LEAN_WORKERS):
                self._cluster = LocalCluster(n_workers=self.local_workers, threads_per_worker=1, processes=True,
                                             host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR,
                                             scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                             env={"NUMBA_NUM_THREADS": "1"})
                self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(self.scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:  # TypeError: tls:// without
                # TLS settings in Dask's configuration, ucx:// without UCX
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise UserError(f"cannot reach the Dask scheduler at {self.scheduler}: {reason}") from None
        self._completed = as_completed()
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self._pending:
                self._client.cancel([future for _, future in self._pending.values()])
        finally:
            if self._cluster is None:
                self._client.close()  # someone else's cluster: leave it running
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

    def drop_pending(self) -> None:
        """Cancel the chunks still queued or in flight (a run stopped early), so the next job starts clean."""
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
        future = next(self._completed)
        block = future.result()
        start, _ = self._pending.pop(future.key)
        future.release()
        return start, block
