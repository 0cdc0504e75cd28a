"""The provenance block every summary.json carries: which game and engine version, the seed, the
command line, the software versions and the assumptions the figures rest on.

    summary |= provenance("beacon", seed, command, assumptions)

The conformance test (tests/test_conformance.py) checks that every experiment's summary has it.
"""

from __future__ import annotations

import hashlib
import platform

PROVENANCE_KEYS = ("game", "seed", "command", "versions", "assumptions")


def versions() -> dict[str, str]:
    import numba
    import numpy as np

    import analyzer

    return {"tabletop_analyzer": analyzer.__version__, "numba": numba.__version__, "numpy": np.__version__,
            "python": platform.python_version()}


def provenance(game_id: str, seed: int | None, command: str | None, assumptions: list[str]) -> dict:
    """The block, for a summary of `game_id` (a registered game): {"game": {id, title, version}, "seed",
    "command", "versions", "assumptions"}."""
    from analyzer.games import get

    game = get(game_id)
    return {"game": {"id": game.id, "title": game.title, "version": game.version}, "seed": seed,
            "command": command or None, "versions": versions(), "assumptions": list(assumptions)}


def data_file(name: str | None, content: str | bytes) -> dict:
    """Which data file a run read, for its summary: {"file": the user's file name (a --rules FILE), or "packaged"
    for the package's own (name None), "sha256": of its content (text as UTF-8: a file's `sha256sum` when it has
    no byte-order mark)}. The package's file is hashed too: it changes between versions."""
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    return {"file": name or "packaged", "sha256": hashlib.sha256(data).hexdigest()}
