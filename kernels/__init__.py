"""numba kernels: pure functions over numpy arrays, no Python objects in hot loops."""
