"""The decorators every kernel uses.

`kernel` compiles without numba's reference counting (NRT): such functions only read and
write arrays their caller owns and never allocate. Reference-count updates on array
arguments are atomic operations; in the Beacon Patrol hot loop they took 40% of the run
time. `internal` is `kernel` for functions only other kernels call: numba builds no Python
or C wrapper for them, and kernels/whole_program.py compiles them only as part of the
kernels that call them, where LLVM merges the small ones into their callers. `allocating`
is for the few entry points that create arrays. `inline` merges a function into its callers
before numba types it; it is for two cases only:
  * the tier dispatch (`choose_action`, `play_game`, `simulate_range`), whose `tier` is a
    constant there, so numba drops the other tiers' branches before typing them;
  * helpers whose callers pass literal constants (`_set_action(actions, n, ACT_PLACE, ...)`):
    numba compiles a separate copy of a called function for each literal constant passed to
    it (`f(x, 0)` and `f(x, 1)` are two compilations). Elsewhere kernels pass `np.int64(0)`
    where a constant would otherwise multiply the compile time.
Merging at numba's level costs typing at every call site: turning sixteen small array helpers
from `inline` into `internal` saved about 1 s of the greedy tier's compile at the same speed.
All cache the machine code on disk (`cache=True`) and release the GIL.
"""

import os
import tempfile
from functools import cache

from numba import njit
from numba.core import caching, config
from numba.core.registry import CPUDispatcher


def _cache_somewhere() -> None:
    """numba caches next to the sources, else in the user's cache folder; where it can write to
    neither (a read-only install run without a home) `cache=True` would fail at import. Then use a
    folder in the temporary directory (NUMBA_CACHE_DIR still wins)."""
    if config.CACHE_DIR:
        return
    try:
        if any(locator.from_function(_cache_somewhere, __file__) is not None
               for locator in (caching.InTreeCacheLocator, caching.UserWideCacheLocator)):
            return
    except Exception:  # numba's locators are not public: if they change, leave numba's choice alone
        return
    config.CACHE_DIR = os.path.join(tempfile.gettempdir(), f"tabletop-numba-cache-{getattr(os, 'getuid', lambda: 0)()}")


_cache_somewhere()
KERNEL_OPTIONS = dict(cache=True, nogil=True, _nrt=False)


class InternalKernel(CPUDispatcher):
    """A kernel without a Python wrapper. numba would call a null pointer (and crash the
    interpreter) if Python called it; this says so instead. Kernels calling it are unaffected."""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.py_func.__qualname__} is an internal kernel: only kernels call it; "
                        "from Python use kernels.jit.from_python")


_without_wrappers = njit(**KERNEL_OPTIONS, no_cpython_wrapper=True, no_cfunc_wrapper=True)


def internal(fn):
    """A kernel only other kernels call (no Python or C wrapper)."""
    dispatcher = _without_wrappers(fn)
    if isinstance(dispatcher, CPUDispatcher):  # not the plain function of NUMBA_DISABLE_JIT=1
        dispatcher.__class__ = InternalKernel  # same object layout: a Python subclass adding no fields
    return dispatcher


kernel = njit(**KERNEL_OPTIONS)
inline = njit(**KERNEL_OPTIONS, inline="always")
allocating = njit(cache=True, nogil=True)


@cache
def from_python(fn):
    """A Python-callable twin of the `internal` kernel fn (tests, debugging). Not cached on disk:
    numba's cache index would not tell its compiled code from fn's, which has no Python wrapper."""
    return njit(nogil=True, _nrt=False)(fn.py_func)
