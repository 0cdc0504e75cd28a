"""Fixtures every test folder shares."""

import pytest


@pytest.fixture(scope="session")
def dask_cluster():
    """A real cluster from Dask's own test utilities: scheduler and two workers, each its own process;
    started once for the whole session (every game's conformance test and the scale-out tests)."""
    pytest.importorskip("distributed")
    from distributed.utils_test import cluster

    with cluster(nworkers=2) as (scheduler, _workers):
        yield scheduler["address"]
