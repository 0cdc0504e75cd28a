"""What a run plays: a picklable ``Job``, the ``Statistic`` that ``--precision`` measures, and one chunk of games.

Dask workers cannot receive a closure over numba functions, so a game describes itself as a ``Job``: ``builder``, a
module-level function (it pickles by reference), turns the JSON-able ``spec`` into a play_range on whichever process
plays the chunk (``play_chunk``: a thread of the runner's pool or a Dask worker), once per job in each process. The
runner (analyzer/runner.py) and its Dask backend and aggregates import this module; it imports none of them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import analyzer

# play_range(start, out): fill out[:, j] with the result of game start + j.
PlayRange = Callable[[int, np.ndarray], None]


@dataclass(frozen=True)
class Statistic:
    """What --precision measures: the mean of a column, the share of games with column == value, or the widest
    of the shares of games with column == k for k in 0 .. value - 1 (each seat's win rate: the worst seat's)."""
    column: int = 0
    kind: str = "mean"  # "mean" (Student t), "proportion" (Wilson) or "categories" (Wilson, the widest)
    name: str = "mean score"
    value: int = 1

    def __post_init__(self):
        if self.kind not in ("mean", "proportion", "categories"):
            raise ValueError(f"Statistic.kind must be 'mean', 'proportion' or 'categories', got {self.kind!r}")
        if self.kind == "categories" and self.value < 1:
            raise ValueError("a 'categories' Statistic needs value >= 1 categories")


@dataclass(frozen=True, eq=False)
class Job:
    """What to play, picklable: ``builder(spec) -> play_range``, a module-level function, runs on the process that
    plays; ``spec`` is JSON-able and, with the builder, fixes every result. ``statistic`` is what ``--precision``
    measures.
    """
    builder: Callable[[dict], PlayRange]
    spec: dict
    n_cols: int
    dtype: str = "int16"
    statistic: Statistic = Statistic()
    # A digest of identity(), computed once where the job is made and pickled with it: each chunk finds its
    # play_range by it, where a dump of the spec (a whole rules text for some games) per chunk would cost.
    key: str = field(init=False, repr=False)

    def __post_init__(self):
        if not callable(self.builder) or "<" in getattr(self.builder, "__qualname__", "<"):
            raise TypeError(f"Job.builder must be a module-level function (it pickles by reference), "
                            f"got {self.builder!r}")
        digest = hashlib.sha256(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()
        object.__setattr__(self, "key", digest)

    def identity(self) -> dict:
        """Everything that fixes the results (the checkpoint manifest compares it)."""
        builder = f"{self.builder.__module__}:{self.builder.__qualname__}"
        return {"builder": builder, "spec": self.spec, "n_cols": self.n_cols, "dtype": self.dtype}

    def play_range(self) -> PlayRange:
        play = _BUILT.get(self.key)
        if play is None:
            play = self.builder(self.spec)
            if len(_BUILT) >= 16:  # a long-lived Dask worker sees many jobs
                _BUILT.clear()
            _BUILT[self.key] = play
        return play


_BUILT: dict[str, PlayRange] = {}  # per process: built play_ranges by job key


def play_chunk(job: Job, start: int, end: int) -> np.ndarray:
    """Play games start .. end-1 into a fresh block [n_cols, end - start] (runs on any backend)."""
    block = np.zeros((job.n_cols, end - start), job.dtype)
    job.play_range()(start, block)
    return block


def warm_up(job: Job) -> str:
    """Build the job and compile (or load from numba's cache) the exact signature chunks use."""
    play_chunk(job, 0, 0)
    return analyzer.__version__
