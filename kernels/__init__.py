"""numba kernels: pure functions over numpy arrays, no Python objects in hot loops.

The root holds the shared infrastructure: jit.py (the decorators), whole_program.py (one compiled
program per kernel Python calls), rng.py (counter-based random streams). One sub-package per game
or game family: beacon/ (Beacon Patrol), catan/ (the Catan substrate: Seafarers boards, dice,
production, fortress, pirates).
"""

from kernels.whole_program import install

WHOLE_PROGRAM = install()  # each kernel Python calls is optimised as one program
