"""The runner's chunk plan. (That no result depends on threads, chunks or the backend, for every game:
tests/test_conformance.py.)"""

import numpy as np

from analyzer.runner import plan_chunks


def test_plan_chunks_covers_every_game_once():
    chunks = plan_chunks(1001, 2, 100)
    covered = np.concatenate([np.arange(s, e) for s, e in chunks])
    np.testing.assert_array_equal(covered, np.arange(1001))
