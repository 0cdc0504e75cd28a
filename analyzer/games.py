"""The registry of games: the one place a new game is added (a line in GAME_MODULES).

Each module named here defines `GAME`, an analyzer.game.Game; the CLI (analyzer/cli.py), the warm-up
(analyzer/warmup.py), `tabletop games`, the conformance test (tests/test_conformance.py) and the step-contract
test (tests/test_step_contract.py) are built from this list.
"""

from __future__ import annotations

import importlib
from functools import cache

from analyzer.game import Game

GAME_MODULES = (
    "analyzer.beacon.game",
    "analyzer.seafarers.game",
    "analyzer.regatta.game",
    "analyzer.meographic.game",
)


@cache
def games() -> dict[str, Game]:
    """Every registered game by id, in registry order."""
    out = {}
    for module in GAME_MODULES:
        game = importlib.import_module(module).GAME
        if game.id in out:
            raise ValueError(f"two games registered as {game.id!r}")
        out[game.id] = game
    return out


def get(game_id: str) -> Game:
    return games()[game_id]


def result_commands() -> tuple[str, ...]:
    """`<game> <command>` of every experiment that writes a results folder (its summary.json names it)."""
    return tuple(f"{g.id} {e.command}" for g in games().values() for e in g.experiments)
