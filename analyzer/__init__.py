"""tabletop-analyzer: game data, policies, the runner, statistics, CLI and Python API."""

__version__ = "0.1.0"
