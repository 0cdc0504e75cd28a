"""The one runner: N games -> chunks of game indices -> numba kernel on K threads -> columns.

A chunk is a contiguous range of game indices; every game seeds its own streams from
(seed, game index), so the result is the same for any thread count or chunk size.
The kernels release the GIL (nogil=True), so plain Python threads run them in parallel.
"""

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from analyzer.errors import UserError

# play_range(start, out): fill out[:, j] with the result of game start + j.
PlayRange = Callable[[int, np.ndarray], None]


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def plan_chunks(n_games: int, threads: int, chunk_size: int | None) -> list[tuple[int, int]]:
    if chunk_size is None:  # enough chunks for an even load and a live progress bar
        chunk_size = int(np.clip(-(-n_games // (threads * 16)), 64, 50_000))
    return [(s, min(s + chunk_size, n_games)) for s in range(0, n_games, chunk_size)]


def run_games(play_range: PlayRange, n_games: int, n_cols: int, *, threads: int | None = None,
              chunk_size: int | None = None, progress: bool = False, label: str = "games",
              dtype=np.int16) -> tuple[np.ndarray, float]:
    """Run n_games through play_range; returns (columns [n_cols, n_games], wall seconds)."""
    if n_games < 1:
        raise UserError(f"--games must be at least 1, got {n_games}")
    threads = default_threads() if threads is None else threads
    if threads < 1:
        raise UserError(f"--threads must be at least 1, got {threads}")
    if chunk_size is not None and chunk_size < 1:
        raise UserError(f"chunk size must be at least 1, got {chunk_size}")
    out = np.zeros((n_cols, n_games), dtype)
    chunks = plan_chunks(n_games, threads, chunk_size)
    play_range(0, out[:, :0])  # compile (or load from cache) the very signature used below
    t0 = time.perf_counter()
    with _progress_bar(progress) as bar, ThreadPoolExecutor(max_workers=threads) as pool:
        task = bar.add_task(label, total=n_games)
        futures = {pool.submit(play_range, s, out[:, s:e]): e - s for s, e in chunks}
        for fut in as_completed(futures):
            fut.result()
            bar.advance(task, futures[fut])
    return out, time.perf_counter() - t0


class _GamesPerSecond(TextColumn):
    def __init__(self):
        super().__init__("")

    def render(self, task):
        rate = task.completed / task.elapsed if task.elapsed else 0.0
        return f"{rate:,.0f} games/s"


def _progress_bar(enabled: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _GamesPerSecond(),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), disable=not enabled, transient=False,
    )
