"""numba kernels: pure functions over numpy arrays, no Python objects in hot loops."""

from kernels.whole_program import install

WHOLE_PROGRAM = install()  # each kernel Python calls is optimised as one program
