"""The one runner: N games -> chunks of game indices -> a backend -> columns and/or aggregates.

A chunk is a contiguous range of game indices; every game seeds its own streams from
(seed, game index), so the result is the same for any thread count, chunk size or backend:

- threads (default): the kernels release the GIL (nogil=True), so plain Python threads run them
  in parallel;
- ``dask_local=W``: an embedded Dask LocalCluster of W single-threaded worker processes;
- ``scheduler="tcp://host:port"``: an existing Dask cluster (see docs/scaleout.md).

What a run plays, a picklable ``Job``, and how one chunk is played live in analyzer/job.py. The driver folds
finished chunks in game-index order, which makes ``--precision`` stops, aggregates and checkpoints independent of
completion order.
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import analyzer
from analyzer import interrupts, warmup
from analyzer.errors import UserError
from analyzer.formats import rate
from analyzer.job import Job, Statistic, play_chunk, warm_up
from analyzer.params import check_whole

if TYPE_CHECKING:
    from analyzer.aggregate import ColumnStats

DEFAULT_MIN_GAMES = 1_000
DEFAULT_MAX_GAMES = 10_000_000
MAX_CHUNK = 50_000
MAX_GAMES = 10**12  # a trillion games: months on a cluster; game indices stay far inside int64
MAX_CHUNK_SIZE = 10**6  # games per chunk a user may ask for: a few chunks in flight stay small
MAX_THREADS = 1024  # threads or local worker processes: beyond the cores they only add overhead
WORKER_MEMORY = 2**28  # a --dask-local worker process with the kernels loaded: 0.20 GiB measured, so 0.25
TABLE_COPIES = 3  # a per-game table is copied while it is written: 2.6x its size measured, so 3x
LONG_RUN_S = 24 * 3600  # a run estimated to take longer is refused unless long_run (--long-run): issue 33 found
#                         runs of years accepted (beacon simulate --policy oracle --players 4 --games 10**9: 6.5 years)
SAY_ESTIMATE_S = 60  # a run estimated to take longer says so, and how long, before it starts (with progress on)
PROBE_S = (0.02, 0.25)  # the estimate times the first games for at least the first, at most the second, seconds
PROBE_FROM = 16  # games per worker from which a run is estimated: the timed games are played again, so a run of few
#                  slow games would pay up to one more game (at most 1/16 more here), and a short run pays nothing


def available_memory() -> int | None:
    """Bytes of memory free for a new run now (Linux MemAvailable; else all physical memory)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_table_memory(games: int, n_cols: int, itemsize: int, option: str = "--games", tables: int = 1,
                       instead: str = "add --no-per-game (streaming aggregates, flat memory) or ask for fewer "
                                      "games") -> None:
    """Refuse, before any game is played, per-game tables that could not be held and written."""
    need = TABLE_COPIES * tables * games * n_cols * itemsize
    free = available_memory()
    if free is not None and need > free:
        raise UserError(f"{option} {games:,}: the per-game table{'s' if tables > 1 else ''} would need about "
                        f"{need / 2**30:,.1f} GiB while written, more than the {free / 2**30:,.1f} GiB free "
                        f"here; {instead}")


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def auto_chunk_size(n_games: int, workers: int) -> int:
    """Enough chunks for an even load and a live progress bar, few enough to keep overhead low."""
    return int(np.clip(-(-n_games // (workers * 16)), 64, MAX_CHUNK))


def plan_chunks(n_games: int, threads: int, chunk_size: int | None) -> list[tuple[int, int]]:
    size = auto_chunk_size(n_games, threads) if chunk_size is None else chunk_size
    return list(_plan(n_games, lambda _start: size, {}))


def _plan(limit: int, size_at: Callable[[int], int], stored: dict[int, int]) -> Iterator[tuple[int, int]]:
    """Chunks covering 0 .. limit-1 in order: the stored ones as they are, new ones in the gaps."""
    starts = sorted(s for s in stored if s < limit)
    start, i = 0, 0
    while start < limit:
        while i < len(starts) and starts[i] < start:
            i += 1
        if i < len(starts) and starts[i] == start:
            end = stored[start]
        else:
            end = min(start + size_at(start), starts[i] if i < len(starts) else limit, limit)
        yield start, end
        start = end


# --------------------------------------------------------------------------- options and results

@dataclass(frozen=True)
class RunOptions:
    """How to run: size or precision, backend, chunks, checkpoint, what to keep. See docs/scaleout.md."""
    games: int | None = None
    precision: float | None = None
    min_games: int | None = None
    max_games: int | None = None
    threads: int | None = None
    dask_local: int | None = None
    scheduler: str | None = None
    chunk_size: int | None = None
    checkpoint: Path | None = None
    per_game: bool = True
    progress: bool = False
    long_run: bool = False  # start a run estimated to take more than LONG_RUN_S (else refused)
    label: str = "games"

    @classmethod
    def of(cls, games: int, **fields) -> RunOptions:
        """Checked options for a run of `games` games (boards, blocks of rolls, sieges: whatever a command
        counts); `fields`: threads, dask_local, scheduler, chunk_size, checkpoint, progress, label."""
        return cls(games=games, **fields).checked()

    def checked(self, default_games: int = 10_000) -> RunOptions:
        """Validated, with defaults filled in; every problem is a one-line UserError."""
        def at_least(name, value, low):
            if value is not None:
                check_whole(f"--{name}", value)
            if value is not None and value < low:
                raise UserError(f"--{name} must be at least {low}, got {value}")

        def at_most(name, value, high):
            if value is not None and value > high:
                raise UserError(f"--{name} must be at most {high:,}, got {value:,}")

        if not all(isinstance(flag, bool) for flag in (self.per_game, self.progress, self.long_run)):
            raise UserError("per_game, progress and long_run must be True or False")
        if self.games is not None and self.precision is not None:
            raise UserError("--games and --precision are alternatives: give one of them")
        if self.precision is None and (self.min_games is not None or self.max_games is not None):
            raise UserError("--min-games and --max-games only apply with --precision")
        if self.dask_local is not None and self.scheduler is not None:
            raise UserError("--dask-local and --scheduler are alternatives: give one of them")
        if self.threads is not None and (self.dask_local is not None or self.scheduler is not None):
            raise UserError("--threads sets the local thread backend; with Dask the workers set the parallelism")
        at_least("games", self.games, 1)
        at_least("max-games", self.max_games, 2)  # (--min-games: below, once its default is known)
        at_least("dask-local", self.dask_local, 1)
        at_least("chunk-size", self.chunk_size, 1)
        for name, value in (("games", self.games), ("min-games", self.min_games), ("max-games", self.max_games)):
            at_most(name, value, MAX_GAMES)
        at_most("chunk-size", self.chunk_size, MAX_CHUNK_SIZE)
        if self.threads is not None:
            check_whole("--threads", self.threads)
            if not 1 <= self.threads <= MAX_THREADS:
                raise UserError(f"--threads must be from 1 to {MAX_THREADS:,}, got {self.threads:,} (more threads "
                                "than cores only add overhead)")
        at_most("dask-local", self.dask_local, MAX_THREADS)
        free = available_memory() if self.dask_local is not None else None
        if free is not None and self.dask_local * WORKER_MEMORY > free:
            raise UserError(f"--dask-local {self.dask_local:,}: the worker processes would need about "
                            f"{self.dask_local * WORKER_MEMORY / 2**30:,.1f} GiB, more than the "
                            f"{free / 2**30:,.1f} GiB free here; use fewer, or --scheduler with a cluster")
        if self.scheduler is not None and not self.scheduler.strip():
            raise UserError("--scheduler needs an address such as tcp://host:8786")
        if self.precision is None:
            return replace(self, games=default_games if self.games is None else self.games)
        if not (math.isfinite(self.precision) and self.precision > 0):
            raise UserError(f"--precision must be a positive half-width, got {self.precision}")
        lo = DEFAULT_MIN_GAMES if self.min_games is None else self.min_games
        hi = max(DEFAULT_MAX_GAMES, lo) if self.max_games is None else self.max_games
        at_least("min-games", lo, 2)
        if hi < lo:
            raise UserError(f"--max-games ({hi}) must be at least --min-games ({lo})")
        return replace(self, min_games=lo, max_games=hi)

    def stopping_rule(self, statistic: Statistic) -> dict:
        """The part of the options that decides which games are played (recorded in checkpoints)."""
        if self.precision is None:
            return {"games": self.games}
        return {"precision": self.precision, "min_games": self.min_games, "max_games": self.max_games,
                "statistic": {"column": statistic.column, "kind": statistic.kind,
                              **({"value": statistic.value} if statistic.value != 1 else {})}}


def fixed_games(games: int | None, default_games: int, command: str, **run) -> RunOptions:
    """The checked options of a Python API function whose command plays a fixed number of games and keeps every
    game's results (no --precision, no --no-per-game): those are refused as the command line refuses them."""
    unknown = sorted(set(run) - {f.name for f in fields(RunOptions)})
    if unknown:
        raise UserError(f"{command}: unknown option {unknown[0]!r}")
    options = RunOptions(games=games, **run)
    if options.precision is not None or options.min_games is not None or options.max_games is not None:
        raise UserError(f"{command} has no --precision (nor --min-games, --max-games): give games")
    if not options.per_game:
        raise UserError(f"{command} keeps every game's results: per_game=False is not an option")
    return options.checked(default_games)


@dataclass
class RunResult:
    games: int
    columns: np.ndarray | None  # [n_cols, games] when options.per_game, else None
    aggregate: ColumnStats | None
    wall: float  # seconds playing, after start-up and compilation
    info: dict  # how it ran: backend, workers, chunks, why it stopped, precision reached, checkpoint

    @property
    def played(self) -> int:
        """Games played in this run: not those read back from a checkpoint."""
        return self.games - (self.info.get("checkpoint") or {}).get("resumed_games", 0)


# --------------------------------------------------------------------------- backends

class ThreadBackend:
    """Chunks on a thread pool in this process (the kernels release the GIL)."""

    name = "threads"

    def __init__(self, threads: int | None):
        self.workers = default_threads() if threads is None else threads

    def __enter__(self) -> ThreadBackend:
        self._pool = ThreadPoolExecutor(max_workers=self.workers)
        self._running: dict = {}
        return self

    def __exit__(self, exc_type, *exc) -> None:
        # On an error or Ctrl-C nobody waits for the games in flight: the CLI leaves the process
        # at once (os._exit), which ends them.
        self._pool.shutdown(wait=exc_type is None, cancel_futures=True)

    def warm(self, job: Job) -> None:
        """Compile (or load) the job's kernels on a pool thread: the main thread, waiting in short steps, takes
        Ctrl-C and SIGTERM at once, where numba compiling in it would hold them for seconds."""
        future = self._pool.submit(warm_up, job)
        while not wait([future], timeout=interrupts.SIGNAL_POLL_S).done:
            pass
        future.result()

    def drop_pending(self, finish: bool = True) -> None:
        """Forget the chunks still queued or in flight (a run stopped early), so the next job starts clean;
        with finish=False (a run stopped by an error or a signal) without waiting for the games in flight."""
        for future in self._running:
            future.cancel()
        if finish:
            wait(self._running)
        self._running.clear()

    def submit(self, job: Job, start: int, end: int) -> None:
        self._running[self._pool.submit(play_chunk, job, start, end)] = start

    def next_done(self) -> tuple[int, np.ndarray]:
        done: set = set()
        while not done:  # short waits: a signal is handled between them (a bare wait can miss it)
            done, _ = wait(self._running, timeout=interrupts.SIGNAL_POLL_S, return_when=FIRST_COMPLETED)
        future = min(done, key=self._running.get)
        return self._running.pop(future), future.result()


def backend_for(options: RunOptions):
    """The backend the options ask for, to open once (`with`) and pass to several run_job calls: a command
    playing several jobs (arms, cells) then starts one thread pool or Dask cluster, not one per job."""
    return _backend(options.checked())


def _backend(options: RunOptions):
    if options.dask_local is None and options.scheduler is None:
        return ThreadBackend(options.threads)
    from analyzer.dask_backend import DaskBackend  # Dask is optional and slow to import
    return DaskBackend(local_workers=options.dask_local, scheduler=options.scheduler)


# --------------------------------------------------------------------------- the driver

def run_job(job: Job, options: RunOptions, aggregate: bool = False, notes: dict | None = None,
            runs: int = 1, backend=None) -> RunResult:
    """Play ``job`` as ``options`` say; returns per-game columns and/or a ColumnStats aggregate.

    ``aggregate=True`` folds every game into a ``ColumnStats`` (needed for ``per_game=False``).
    ``notes`` go into a new checkpoint's manifest for people to read (e.g. the command line).
    ``runs``: how many runs like this one the command has still to play, this one included (its arms left), for
    the estimate of its time. ``backend``: an open one (backend_for) shared with other jobs; by default the run
    opens and closes its own.
    """
    from analyzer.aggregate import ColumnStats, PrecisionRule  # scipy: kept off the CLI's start-up path

    opts = options.checked()
    if not opts.per_game and not aggregate:
        raise ValueError("per_game=False needs aggregate=True: nothing would be kept")
    rule = PrecisionRule(job.statistic, opts.precision, opts.min_games) if opts.precision else None
    limit = opts.max_games if rule else opts.games
    if opts.per_game:  # (a precision run's table may grow as far as --max-games)
        check_table_memory(limit, job.n_cols, np.dtype(job.dtype).itemsize, "--max-games" if rule else "--games",
                           instead="add --no-per-game (streaming aggregates, flat memory) or ask for fewer games"
                                   + (" (--max-games)" if rule else ""))
    keeper = _Keeper(job, None if rule else limit) if opts.per_game else None
    agg = ColumnStats(job.n_cols) if aggregate else None
    shared = backend is not None
    backend = backend if shared else _backend(opts)
    with ExitStack() as stack:
        ckpt = None
        if opts.checkpoint is not None:  # opened first: a mismatch is refused before any start-up
            from analyzer.checkpoint import Checkpoint
            identity = {"job": job.identity(), "run": opts.stopping_rule(job.statistic),
                        "tabletop_analyzer": analyzer.__version__}
            ckpt = stack.enter_context(Checkpoint(opts.checkpoint, identity, job.n_cols, job.dtype, notes))
            ckpt.keep_within(limit)
        t_start = time.perf_counter()
        if shared:  # (an error or a stop does not wait for the games in flight)
            stack.push(lambda kind, *_: backend.drop_pending(finish=kind is None))
        else:
            stack.enter_context(backend)
        warmup.say_expected()  # (a command on a cold cache: after its checks, before its compiling)
        backend.warm(job)
        if rule is None and isinstance(backend, ThreadBackend):  # (a cluster's speed is not known here)
            left = limit - sum(end - start for start, end in (ckpt.stored.items() if ckpt else ()))
            _check_duration(lambda start, end: (backend.submit(job, start, end), backend.next_done()), opts, left,
                            backend.workers, runs)
        if opts.chunk_size is not None:
            size_at = lambda _start: opts.chunk_size  # noqa: E731
        elif rule is None:
            size_at = lambda _start, size=auto_chunk_size(limit, backend.workers): size  # noqa: E731
        else:  # grows with the run, so a long precision run needs few chunks and a short one stops soon
            size_at = lambda start: int(np.clip(start // (32 * backend.workers), 256, MAX_CHUNK))  # noqa: E731
        bar = stack.enter_context(_progress_bar(opts.progress))
        task = bar.add_task(opts.label, total=None if rule else limit, resumed=0)
        t0 = time.perf_counter()
        plan = _plan(limit, size_at, ckpt.stored if ckpt else {})
        games = chunks = resumed = 0
        stopped = "max-games" if rule else "games"  # unless the precision target is met first
        shown = {"resumed": 0}

        def advance(n: int, stored: bool = False) -> None:  # (stored: read from the checkpoint, not played)
            shown["resumed"] += n * stored
            bar.update(task, advance=n, resumed=shown["resumed"])

        for block, from_checkpoint in _in_game_order(backend, job, plan, ckpt, advance):
            if rule:
                keep = rule.scan(block[job.statistic.column])
                bar.update(task, description=f"{opts.label} (±{rule.half_width:.4g})")
                if keep is not None:
                    block, stopped = block[:, :keep], "precision"
            resumed += block.shape[1] if from_checkpoint else 0
            if agg is not None:
                agg.fold(games, block)
            if keeper is not None:
                keeper.add(games, block)
            games += block.shape[1]
            chunks += 1
            if stopped == "precision":
                break
        wall = time.perf_counter() - t0
    info = {"backend": backend.name, "workers": backend.workers, "chunks": chunks,
            "chunk_size": opts.chunk_size or ("growing" if rule else auto_chunk_size(limit, backend.workers)),
            "stopped": stopped, "startup_seconds": round(t0 - t_start, 3), "per_game": opts.per_game}
    if rule:
        info["precision"] = {"statistic": job.statistic.name, "target_half_width": opts.precision,
                             "half_width": rule.half_width, "min_games": opts.min_games,
                             "max_games": opts.max_games}
    if ckpt:
        info["checkpoint"] = {"dir": str(opts.checkpoint), "resumed_games": resumed}
    return RunResult(games, keeper.result(games) if keeper else None, agg, wall, info)


def _check_duration(play: Callable[[int, int], object], opts: RunOptions, games: int, workers: int,
                    runs: int) -> None:
    """Refuse a run estimated to take more than LONG_RUN_S (unless opts.long_run), and say how long one of more
    than SAY_ESTIMATE_S will take, before it starts. The estimate times the run's first games, played by
    `play(start, end)` on one worker (the main thread waits in short steps, so Ctrl-C is handled at once) and
    played again by the run: the same games, so the same results."""
    if games < PROBE_FROM * workers:
        return
    played, t0 = 0, time.perf_counter()
    while True:
        end = min(games, max(1, 2 * played))  # games 0 .. 1, 2, 4, ...: indices of the run itself
        play(played, end)
        played = end
        elapsed = time.perf_counter() - t0
        per_worker = played / elapsed if elapsed > 0 else math.inf
        seconds = runs * games / (per_worker * workers)
        if played >= games or elapsed >= PROBE_S[1] or (elapsed >= PROBE_S[0] and seconds < SAY_ESTIMATE_S):
            break
    if seconds < SAY_ESTIMATE_S:
        return
    count = f"{runs:,} runs of {games:,} {opts.label}" if runs > 1 else f"{games:,} {opts.label}"
    how = (f"{count} at about {rate(per_worker)}/s on each of {workers:,} thread{'s' * (workers > 1)} (timed on "
           f"the first {played:,})")
    if seconds > LONG_RUN_S and not opts.long_run:
        raise UserError(f"this run would take about {duration_text(seconds)}: {how}; ask for fewer, run it on a "
                        "Dask cluster (--scheduler, docs/scaleout.md), or add --long-run to start it anyway "
                        "(with --checkpoint it can be stopped and resumed)")
    if opts.progress:
        Console(stderr=True, soft_wrap=True).print(f"about {duration_text(seconds)}: {how}", highlight=False)


def duration_text(seconds: float) -> str:
    """`40 s`, `14 min`, `5.2 h`, `3.1 days`, `6.5 years`: the unit that reads best for an estimate."""
    for unit, size, least in (("years", 365.25 * 86400, 1), ("days", 86400, 2), ("h", 3600, 2), ("min", 60, 2)):
        if seconds >= least * size:
            value = seconds / size
            return f"{value:,.2g} {unit}" if value < 10 else f"{value:,.0f} {unit}"
    return f"{seconds:.0f} s"


def _in_game_order(backend, job: Job, plan: Iterator[tuple[int, int]], ckpt, advance: Callable[..., None]
                   ) -> Iterator[tuple[np.ndarray, bool]]:
    """(block, read from the checkpoint?) for every planned chunk, in game order.

    Chunks not in the checkpoint are played on the backend, at most a window of chunks ahead of the
    next one due, so out-of-order results wait in bounded memory; each is checkpointed as it lands.
    """
    stored = ckpt.stored if ckpt else {}
    ahead: deque[tuple[int, int]] = deque()  # planned, not yet yielded, in game order
    finished: dict[int, np.ndarray] = {}  # played out of order, waiting for their turn
    window = 4 * backend.workers
    while True:
        interrupts.check()
        while len(ahead) < window and (chunk := next(plan, None)) is not None:
            ahead.append(chunk)
            if chunk[0] not in stored:
                backend.submit(job, *chunk)
        if not ahead:
            return
        start, end = ahead[0]
        if start in stored:
            advance(end - start, True)
            ahead.popleft()
            yield ckpt.load(start), True
        elif start in finished:
            ahead.popleft()
            yield finished.pop(start), False
        else:
            done_start, done_block = backend.next_done()
            if ckpt:
                ckpt.save(done_start, done_block)
            finished[done_start] = done_block
            advance(done_block.shape[1])


class _Keeper:
    """The per-game path: every block, in game order (preallocated when the size is known)."""

    def __init__(self, job: Job, games: int | None):
        self._out = np.empty((job.n_cols, games), job.dtype) if games is not None else None
        self._blocks: list[np.ndarray] = []
        self._shape = (job.n_cols, 0)
        self._dtype = job.dtype

    def add(self, start: int, block: np.ndarray) -> None:
        if self._out is not None:
            self._out[:, start:start + block.shape[1]] = block
        else:
            self._blocks.append(block)

    def result(self, games: int) -> np.ndarray:
        if self._out is not None:
            return self._out[:, :games]
        return np.concatenate(self._blocks, axis=1) if self._blocks else np.zeros(self._shape, self._dtype)


def _played_rate(task) -> float | None:
    """Items played per second since the bar started: the run's own mean rate, not counting those read back from a
    checkpoint (in the bar at once). Chunks land in bursts (every worker's first ones at about the same moment), so
    the rate of the last few seconds, rich's, can be hundreds of times off early in a long run."""
    played = task.completed - task.fields.get("resumed", 0)
    return played / task.elapsed if task.elapsed and played > 0 else None


class _PerSecond(TextColumn):
    """Items (games, boards: the task's description says which) per second."""

    def __init__(self):
        super().__init__("")

    def render(self, task):
        return f"{_played_rate(task) or 0.0:,.0f}/s"


class _Remaining(TextColumn):
    """The time left at the run's mean rate so far (_played_rate)."""

    def __init__(self):
        super().__init__("")

    def render(self, task):
        rate = _played_rate(task)
        if task.total is None or rate is None:
            return "-:--:--"
        seconds = round(max(task.total - task.completed, 0) / rate)
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _progress_bar(enabled: bool, get_time=None) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _PerSecond(),
        TimeElapsedColumn(), TextColumn("ETA"), _Remaining(),
        console=Console(stderr=True), disable=not enabled, transient=False, get_time=get_time,
    )
