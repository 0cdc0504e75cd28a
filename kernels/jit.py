"""The decorators every kernel uses.

`kernel` compiles without numba's reference counting (NRT): such functions only read and
write arrays their caller owns and never allocate. Reference-count updates on array
arguments are atomic operations; in the Beacon Patrol hot loop they took 40% of the run
time. `internal` is `kernel` for functions only other kernels call: numba then builds no
Python or C wrapper for them (about a tenth of a compile; tests call them through
`from_python`). `allocating` is for the few entry points that create arrays; `inline` is
for small helpers, merged into their callers rather than compiled on their own: short
functions called in hot loops with several arrays (a call passes each array as 7-9
scalars). One-liners on scalars alone (`_step`, `_matches`) are `internal`: LLVM merges
them into their callers anyway, and numba types them once instead of at each of their 28
call sites (lookahead tier: 2.5 s less compile, 4 paired runs). Merging `legal_actions`,
called before every action, made greedy games 12% and random ones 26% faster, and the
lookahead's two value terms (`_potential`, `_ship_value`) 5%, at no measurable compile
cost; merging the much larger greedy policy added 6 s of compile for 2-12%. All cache
the machine code on disk (`cache=True`) and release the GIL.

Numba compiles a separate copy of a function for each literal constant passed to
it (`f(x, 0)` and `f(x, 1)` are two compilations); kernels pass `np.int64(0)` where
a constant would otherwise multiply the compile time.
"""

from functools import cache

from numba import njit

KERNEL_OPTIONS = dict(cache=True, nogil=True, _nrt=False)

kernel = njit(**KERNEL_OPTIONS)
internal = njit(**KERNEL_OPTIONS, no_cpython_wrapper=True, no_cfunc_wrapper=True)
inline = njit(**KERNEL_OPTIONS, inline="always")
allocating = njit(cache=True, nogil=True)


@cache
def from_python(fn):
    """A Python-callable twin of the `internal` kernel fn (tests, debugging). Not cached on disk:
    numba's cache index would not tell its compiled code from fn's, which has no Python wrapper."""
    return njit(nogil=True, _nrt=False)(fn.py_func)
