"""Fixtures every test folder shares."""

import re

import pytest


@pytest.fixture(scope="session")
def dask_cluster():
    """A real cluster from Dask's own test utilities: scheduler and two workers, each its own process;
    started once for the whole session (every game's conformance test and the scale-out tests)."""
    pytest.importorskip("distributed")
    from distributed.utils_test import cluster

    with cluster(nworkers=2) as (scheduler, _workers):
        yield scheduler["address"]


class _CompileLog:
    """TABLETOP_COMPILE_LOG=FILE: the seconds numba spends compiling inside each test, written to FILE (tab-separated,
    slowest first) at the end; how CI's time was split between compiling and testing (docs/performance.md)."""

    def __init__(self, path: str):
        from numba.core import event

        self.path, self.current, self.seconds, self.depth, self.t0 = path, "(collection)", {}, 0, 0.0
        self.listener = _Listener(self)
        event.register("numba:compile", self.listener)

    def pytest_runtest_setup(self, item):
        self.current = item.nodeid

    def pytest_sessionfinish(self, session):
        import os

        rows = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        name = f"{self.path}.{os.environ['PYTEST_XDIST_WORKER']}" if "PYTEST_XDIST_WORKER" in os.environ else self.path
        with open(name, "w") as out:
            out.writelines(f"{s:.1f}\t{test}\n" for test, s in rows)


def _Listener(log):
    import time

    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):  # (a kernel's callees compile inside its own event: count the outermost only)
            if log.depth == 0:
                log.t0 = time.perf_counter()
            log.depth += 1

        def on_end(self, ev):
            log.depth -= 1
            if log.depth == 0:
                log.seconds[log.current] = log.seconds.get(log.current, 0.0) + time.perf_counter() - log.t0

    return Listener()


def pytest_configure(config):
    import os

    if os.environ.get("TABLETOP_COMPILE_LOG"):
        config.pluginmanager.register(_CompileLog(os.environ["TABLETOP_COMPILE_LOG"]), "tabletop-compile-log")


# What a test file that may play the Seafarers full game names: its kernels or modules, its API functions or
# commands, or every registered game (the conformance tests); not the pure-Python reference, the set-up adapter or
# the route kernels alone. A file missed here would compile what it needs of the full game's kernels itself if it
# ran before scripts/test.sh's compile of them ended (slower, never wrong).
_FULL_GAME = re.compile(
    r"kernels\.catan\.(game|policies|table|bots|rollout|invariants|fleet|gifts|wonders)\b"
    r"|from kernels\.catan import [^\n]*\b(game|policies|table|bots|rollout|invariants|fleet|gifts|wonders)\b"
    r"|analyzer\.seafarers\.(full_game|play|tournament|seats|invariants|balance_wins|game)\b"
    r"|from analyzer\.seafarers import [^\n]*\b(full_game|play|tournament|seats|invariants|balance_wins|game)\b"
    r"|run_play|run_tournament|run_seats|seafarers[\"'], *[\"'](play|tournament|seats)\b|--by|by=[\"']wins"
    r"|(?<![\w.])games\(\)|analyzer\.games")
_USES: dict = {}


def _uses_the_full_game(module_path) -> bool:
    """A test file that may play the Seafarers full game (_FULL_GAME)."""
    if module_path not in _USES:
        _USES[module_path] = bool(_FULL_GAME.search(open(module_path, encoding="utf-8").read()))
    return _USES[module_path]

_WAITED: list = []


def pytest_collection_modifyitems(items):
    """The files that may play the Seafarers full game run last: scripts/test.sh compiles its kernels beside the
    other tests (the longest warm-up group)."""
    items.sort(key=lambda item: _uses_the_full_game(str(item.path)))


def pytest_runtest_setup(item):
    """Before the first test of such a file in this process: the full game's warm-up group, under its lock (waiting
    for scripts/test.sh's compile of it, or compiling it here once for every worker), not a second compile."""
    if not _WAITED and _uses_the_full_game(str(item.path)):
        from analyzer.warmup import warm_group

        warm_group("seafarers", "full game")
        _WAITED.append(True)
