"""The two decorators every kernel uses.

`kernel` compiles without numba's reference counting (NRT): such functions only read
and write arrays their caller owns and never allocate. Reference-count updates on
array arguments are atomic operations; in the Beacon Patrol hot loop they took 40%
of the run time. `allocating` is for the few entry points that create arrays.
Both cache the machine code on disk (`cache=True`) and release the GIL.
"""

from numba import njit

kernel = njit(cache=True, nogil=True, _nrt=False)
allocating = njit(cache=True, nogil=True)
