"""Write every registered game's golden trace: tests/<game>/golden_trace.json, the full record of a few
games (the luck each was dealt and every event), which tests/test_conformance.py compares with what
the code plays now. Rerun after a rule change and read the diff in review.

    .venv/bin/python scripts/golden_traces.py            # every game
    .venv/bin/python scripts/golden_traces.py beacon     # one
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.games import games  # noqa: E402


def dumps(value, indent: str = "") -> str:
    """JSON with one line per event: objects and lists of lists open up, a list of scalars (one event,
    a roll, a board row) stays on its line, so a rule change shows as the lines it changes."""
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main(ids: list[str]) -> None:
    for game in games().values():
        if ids and game.id not in ids:
            continue
        path = ROOT / "tests" / game.id / "golden_trace.json"
        doc = {"game": {"id": game.id, "version": game.version}, "games": game.golden_traces()}
        path.write_text(dumps(doc) + "\n", "utf-8")
        print(f"{path.relative_to(ROOT)}: {len(doc['games'])} games, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
