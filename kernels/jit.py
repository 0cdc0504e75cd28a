"""The decorators every kernel uses.

`kernel` compiles without numba's reference counting (NRT): such functions only read
and write arrays their caller owns and never allocate. Reference-count updates on
array arguments are atomic operations; in the Beacon Patrol hot loop they took 40%
of the run time. `allocating` is for the few entry points that create arrays;
`inline` is for one-line helpers, merged into their callers rather than compiled
on their own. All cache the machine code on disk (`cache=True`) and release the GIL.

Numba compiles a separate copy of a function for each literal constant passed to
it (`f(x, 0)` and `f(x, 1)` are two compilations); kernels pass `np.int64(0)` where
a constant would otherwise multiply the compile time.
"""

from numba import njit

KERNEL_OPTIONS = dict(cache=True, nogil=True, _nrt=False)

kernel = njit(**KERNEL_OPTIONS)
inline = njit(**KERNEL_OPTIONS, inline="always")
allocating = njit(cache=True, nogil=True)
