"""Compile every registered game's kernels into numba's on-disk cache, so the first real command
starts warm, and say what is compiling while it does.

    python -m analyzer.warmup                  every game's warm-up groups, each in a process of its own
    python -m analyzer.warmup GAME [GROUP]     one game (one of its groups), in this process
    python -m analyzer.warmup --order G1,G2..  the groups one after another, those of the games named first
    python -m analyzer.warmup --skip GAME:GROUP every group but that one (scripts/test.sh compiles it beside)

The setup scripts run this after installing; with a warm cache it takes a few seconds. Each game
(analyzer/games.py) compiles through the very jobs its experiments build (Game.warm_up): Beacon Patrol's
four policy tiers, every Seafarers kernel. A game's experiments that share kernels may form a warm-up
group of their own (Experiment.warm_group: the Seafarers full game), compiled in a process of its own
too, so that the longest compile does not wait for the others (numba compiles under the GIL).

A group compiles under a lock in the cache folder, so a second warm-up of the same group (the demo's
foreground one beside its background one) waits for the first and then loads what it wrote instead of
compiling it twice; a marker file beside it says the group is ready and how long it took. Commands
`expect` their kernels, so a user's first command on a cold cache says that it compiles first.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

HEARTBEAT_S = 30  # a line this often while groups compile (60 s when stderr is not a terminal)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _groups(order: list[str] | None = None, skip: tuple[str, str] | None = None) -> list[tuple[str, str]]:
    """(game id, group) of every registered game but `skip`, the games named in `order` first and in that order."""
    from analyzer.games import games

    pairs = [(gid, group) for gid, game in games().items() for group in game.warm_groups() if (gid, group) != skip]
    if order:
        rank = {gid: i for i, gid in enumerate(order)}
        pairs.sort(key=lambda pair: rank.get(pair[0], len(rank)))
    return pairs


def label(gid: str, group: str) -> str:
    from analyzer.games import get

    title = get(gid).title
    return f"{title} ({group})" if group else title


def typical_s(gid: str, group: str) -> int:
    """How long the group usually takes to compile into an empty cache on 2 cores (the games' own figure)."""
    from analyzer.games import get

    return max([e.warm_seconds for e in get(gid).experiments if e.warm_group == group]) or 60


def _stem(gid: str, group: str) -> Path:
    from numba.core import config

    import kernels.jit  # noqa: F401  (chooses the cache folder of the kernels' version)

    return Path(config.CACHE_DIR) / f"warm-{gid}-{group.replace(' ', '-') or 'main'}"


def is_ready(gid: str, group: str) -> bool:
    """The group's kernels were compiled into the cache of this version of the kernels."""
    return _stem(gid, group).with_suffix(".done").exists()


@contextmanager
def _locked(gid: str, group: str):
    """Held while the group compiles: another warm-up of the same group waits here (a process that dies lets go)."""
    path = _stem(gid, group).with_suffix(".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def warm_group(gid: str, group: str | None, talk: bool = False) -> None:
    """Compile one group (every group of the game when None) in this process, under the groups' locks; `talk`
    says what compiles and when it is ready (nothing when it was ready already)."""
    from analyzer.games import get

    game = get(gid)
    for name in ([group] if group is not None else game.warm_groups()):
        announced = talk and not is_ready(gid, name)
        if announced:
            _say(f"      compiling the {label(gid, name)} kernels (first run only, about "
                 f"{_minutes(typical_s(gid, name))} on 2 cores; a warm-up beside this one may have started it)")
        t0 = time.perf_counter()
        with _locked(gid, name):
            ready = is_ready(gid, name)  # (a warm-up beside this one did it, or an earlier run: load, not compile)
            game.warm_up(name)
            if not ready:
                _stem(gid, name).with_suffix(".done").write_text(f"{time.perf_counter() - t0:.0f}\n")
        if announced:
            _say(f"      {label(gid, name)} ready ({time.perf_counter() - t0:.0f} s)")


_expected: list[tuple[str, str, str]] = []  # the command running, until its first kernels compile (say_expected)


def expect(gid: str, group: str, command: str) -> bool:
    """A command starts: if its kernels are not compiled yet (a fresh install, a new version) -- neither its warm-up
    group nor the command itself (`ran`) ran on this version of the kernels -- the runner will say so once the
    command's checks are done (say_expected). True if they are not."""
    _expected.clear()
    try:
        ready = is_ready(gid, group) or (command and _stem(gid, f"command {command}").with_suffix(".done").exists())
    except OSError:
        return False
    if not ready:
        _expected.append((gid, group, command))
    return not ready


def say_expected() -> None:
    """One line, before the kernels of a command expected to compile (expect) start compiling."""
    if _expected:
        gid, group, _ = _expected.pop()
        minutes = max(1, round(typical_s(gid, group) / 60))
        _say(f"Compiling the {label(gid, group)} kernels first: once per machine and version, about {minutes} min "
             f"on 2 cores ('python -m analyzer.warmup' does every game ahead).")


def ran(gid: str, command: str) -> None:
    """The command ran on this version of the kernels: its next run loads them (expect says nothing)."""
    try:
        _stem(gid, f"command {command}").with_suffix(".done").write_text("")
    except OSError:
        pass


def _minutes(seconds: float) -> str:
    """`40 s`, `2:05 min`: an elapsed or expected time as it reads best."""
    seconds = int(seconds)
    return f"{seconds} s" if seconds < 90 else f"{seconds // 60}:{seconds % 60:02d} min"


def run_all(order: list[str] | None = None, sequential: bool = False, skip: tuple[str, str] | None = None) -> int:
    """Every group but `skip` in processes of their own (one after another when sequential), saying what compiles."""
    pairs = _groups(order, skip)
    t0 = time.perf_counter()
    cold = [pair for pair in pairs if not is_ready(*pair)]
    wall = 0.0
    if cold:
        times = [typical_s(*pair) for pair in cold]
        wall = sum(times) if sequential else max(max(times), sum(times) / 2)
        _say(f"Compiling the kernels of {len(cold)} of {len(pairs)} warm-up groups into numba's cache (once per "
             f"machine and version of the kernels; usually about {_minutes(wall)} on 2 cores, seconds afterwards): "
             + ", ".join(f"{label(*p)} ~{_minutes(t)}" for p, t in zip(cold, times)))
    waiting = list(pairs)
    running: dict[tuple[str, str], tuple[subprocess.Popen, float]] = {}
    failed, done = [], 0
    beat = HEARTBEAT_S if sys.stderr.isatty() else 2 * HEARTBEAT_S
    next_beat = time.perf_counter() + beat
    while waiting or running:
        while waiting and (not sequential or not running):
            pair = waiting.pop(0)
            running[pair] = (subprocess.Popen([sys.executable, "-m", "analyzer.warmup", *pair]), time.perf_counter())
        time.sleep(0.2)
        for pair, (process, started) in list(running.items()):
            if process.poll() is None:
                continue
            del running[pair]
            done += 1
            if process.returncode != 0:
                failed.append(label(*pair))
            elif cold:
                _say(f"  [{done}/{len(pairs)}] {label(*pair)} ready ({time.perf_counter() - started:.0f} s)")
        if cold and running and time.perf_counter() >= next_beat:
            next_beat += beat
            _say(f"  still compiling ({_minutes(time.perf_counter() - t0)} of about {_minutes(wall)}): "
                 + ", ".join(label(*pair) for pair in running))
    if failed:
        _say(f"error: compiling the kernels of {', '.join(failed)} failed")
        return 1
    _say(f"kernels ready ({time.perf_counter() - t0:.0f} s)")
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--order":
        return run_all(argv[1].split(","), sequential=True)
    if argv and argv[0] == "--skip":
        gid, _, group = argv[1].partition(":")
        return run_all(skip=(gid, group))
    if argv:  # one game (one of its warm-up groups), in this process
        talk = "--talk" in argv
        argv = [a for a in argv if a != "--talk"]
        warm_group(argv[0], argv[1] if len(argv) > 1 else None, talk)
        return 0
    return run_all()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
