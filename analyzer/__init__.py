"""tabletop-analyzer: game data, policies, the runner, statistics, CLI and Python API."""

__version__ = "0.1.0"


def lazy_names(package: str, modules: dict[str, str]):
    """A package's module-level __getattr__ that imports each name of its Python API from its module
    (`{name: module}`) on first use, so that importing the package (and the registry of games) stays light."""
    def __getattr__(name: str):
        if name in modules:
            import importlib

            return getattr(importlib.import_module(modules[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
