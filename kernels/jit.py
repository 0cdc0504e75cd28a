"""The decorators every kernel uses.

`kernel` compiles without numba's reference counting (NRT): such functions only read and
write arrays their caller owns and never allocate. Reference-count updates on array
arguments are atomic operations; in the Beacon Patrol hot loop they took 40% of the run
time. `internal` is `kernel` for functions only other kernels call: numba builds no Python
or C wrapper for them, and kernels/whole_program.py compiles them only as part of the
kernels that call them, where LLVM merges the small ones into their callers. `allocating`
is for the few entry points that create arrays. `inline` merges a function into its callers
before numba types it (`merged` does so in LLVM, after typing); it is for two cases only:
  * the tier dispatch (`choose_action`, `play_game`, `simulate_range`), whose `tier` is a
    constant there, so numba drops the other tiers' branches before typing them;
  * helpers whose callers pass literal constants (`_set_action(actions, n, ACT_PLACE, ...)`):
    numba compiles a separate copy of a called function for each literal constant passed to
    it (`f(x, 0)` and `f(x, 1)` are two compilations). Elsewhere kernels pass `np.int64(0)`
    where a constant would otherwise multiply the compile time.
Merging at numba's level costs typing at every call site: turning sixteen small array helpers
from `inline` into `internal` saved about 1 s of the greedy tier's compile at the same speed.
All cache the machine code on disk (`cache=True`, in one folder per version of the kernels' sources:
`_cache_folder`) and release the GIL.
"""

import hashlib
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

from numba import njit
from numba.core import caching, config
from numba.core.registry import CPUDispatcher

KEPT_VERSIONS = 3  # cache folders of the kernels' recent versions kept side by side (another checkout, a bisect)


def kernels_stamp(root: Path = Path(__file__).resolve().parent) -> str:
    """A hash of every kernel source file under root (paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _cache_bases() -> list[Path]:
    """Where the cache may go, first choice first: NUMBA_CACHE_DIR if set; then .numba_cache beside the package,
    the user's cache folder, the temporary directory."""
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    asked = [Path(config.CACHE_DIR)] if config.CACHE_DIR else []
    return [*asked, Path(__file__).resolve().parents[1] / ".numba_cache", user / "tabletop-analyzer" / "numba",
            Path(tempfile.gettempdir()) / f"tabletop-numba-cache-{getattr(os, 'getuid', lambda: 0)()}"]


def _writable(folder: Path) -> str | None:
    """Why folder cannot hold the cache (created if need be), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return None
    except OSError as exc:
        return exc.strerror or str(exc)


def _cache_folder() -> None:
    """Compiled kernels go in one folder per version of the kernels' sources (kernels_stamp). numba's own cache
    checks only the timestamp of the file a function is defined in: after a change to a helper in another file
    (kernels/catan/bots.py, say) a caller's cached machine code (kernels/catan/policies.py) would still run the
    old helper. A new version compiles afresh; the folders of all but the KEPT_VERSIONS latest are removed.
    A NUMBA_CACHE_DIR that cannot be written is named in one line on stderr and the next choice taken: numba
    would otherwise compile every kernel afresh on every run (minutes) without a word."""
    import sys

    folder_name = f"kernels-{kernels_stamp()}"
    asked = config.CACHE_DIR
    for base in _cache_bases():
        folder = base / folder_name
        problem = _writable(folder)
        if problem and asked and base == Path(asked):
            print(f"warning: NUMBA_CACHE_DIR={asked} cannot hold the compiled kernels ({problem}); using another "
                  "folder (unset it, or give a writable one)", file=sys.stderr)
        if problem is None:
            folder.touch()  # the latest used, for the pruning
            older = sorted((p for p in base.glob("kernels-*") if p.is_dir() and p != folder),
                           key=lambda p: p.stat().st_mtime, reverse=True)
            for stale in older[KEPT_VERSIONS - 1:]:
                shutil.rmtree(stale, ignore_errors=True)
            config.CACHE_DIR = str(folder)
            return


class _CheckoutAgnosticLocator(caching.UserProvidedCacheLocator):
    """numba files a cached function under a hash of its source folder's absolute path, so two checkouts of the
    same kernels (a git worktree, a moved clone) compile everything twice. The version folder already names the
    sources (kernels_stamp) and numba checks each file's content hash, so ours go under their folder's path
    inside the package: any checkout of one version of the kernels shares one cache."""

    _ROOT = Path(__file__).resolve().parent

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        inside = Path(py_file).resolve().parent.relative_to(self._ROOT).as_posix()
        self._cache_path = os.path.join(config.CACHE_DIR, "kernels" if inside == "." else inside)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(cls._ROOT):
            return None  # not a kernel: numba's own locators
        return super().from_function(py_func, py_file)


_cache_folder()
getattr(caching, "CacheImpl", getattr(caching, "_CacheImpl", None))._locator_classes.insert(0, _CheckoutAgnosticLocator)
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
MERGED = set()  # the mangled-name stems of the `merged` kernels (kernels/whole_program.py reads them)


def merged(fn):
    """`kernel` that LLVM copies into every caller (kernels/whole_program.py) instead of calling it: for the few big
    hot functions whose every call would pass a hundred or more scalars (each array argument is 2-9 of them: the
    Seafarers step, legal and bots take some fifty arrays). Unlike `inline` it costs numba no typing, only LLVM
    work in each caller."""
    return kernel(mark_merged(fn))


def mark_merged(fn):
    """fn, its mangled-name stem (numba's: its module path and name) added to MERGED."""
    from numba.core.itanium_mangler import mangle_identifier

    MERGED.add("_ZN" + "".join(mangle_identifier(part) for part in f"{fn.__module__}.{fn.__qualname__}".split(".")))
    return fn


@cache
def from_python(fn):
    """A Python-callable twin of the `internal` kernel fn (tests, debugging). Not cached on disk:
    numba's cache index would not tell its compiled code from fn's, which has no Python wrapper."""
    return njit(nogil=True, _nrt=False)(fn.py_func)
