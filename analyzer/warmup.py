"""Compile every registered game's kernels into numba's on-disk cache, so the first real command
starts warm.

The setup scripts run this once after installing (`python -m analyzer.warmup`); with a warm cache it
takes a few seconds. Each game (analyzer/games.py) compiles in a process of its own, side by side
(numba compiles under the GIL), through the very jobs its experiments build (Game.warm_up): Beacon
Patrol's four policy tiers, every Seafarers kernel. A game's experiments that share kernels may form
a warm-up group of their own (Experiment.warm_group: the Seafarers full game), compiled in a process
of its own too, so that the longest compile does not wait for the others.
"""

import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    from analyzer.games import games

    if argv:  # one game (one of its warm-up groups), in this process
        games()[argv[0]].warm_up(argv[1] if len(argv) > 1 else None)
        return 0
    t0 = time.perf_counter()
    running = {f"{gid} {group}".strip(): subprocess.Popen([sys.executable, "-m", "analyzer.warmup", gid, group])
               for gid, game in games().items() for group in game.warm_groups()}
    failed = [gid for gid, process in running.items() if process.wait() != 0]
    if failed:
        print(f"error: compiling the kernels of {', '.join(failed)} failed", file=sys.stderr)
        return 1
    print(f"kernels ready ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
