"""Regatta (seed 003): the paper-boat river race. Rules as data (data/), a pure-Python reference
(reference.py) and the numba kernel (kernels/regatta/)."""
