"""The Python API's arguments checked as the command line checks its options: a wrong type or an unknown keyword
is one UserError naming the function and the argument, before any work.

    @checked_api("seafarers.run_play", run=RUN, out=PATH, rules_file=PATH, rule=TEXTS)
    def run_play(scenario: str, players: int = 4, rotate: bool = False, out=None, rules_file=None, rule=None,
                 **run): ...

Each parameter is checked against its annotation (`int`, `bool`, `str | None`, `list[str] | None`, `Path`, a
class), or against the hint given to checked_api for it (for parameters without one). The keywords a function
takes through `**kwargs` are `run` (RUN: every option of the runner, BACKEND: those saying only how to run, or a
tuple of their names) and `keywords` ({name: hint}); any other is refused, naming the nearest known one. A
parameter left at its default is not checked. Values (ranges, names) are the functions' own checks: this only
keeps a wrong type from reaching them (`rotate="yes"` read as true, an int where a path is, None where a list is).
"""

from __future__ import annotations

import difflib
import functools
import inspect
import numbers
import os
import types
import typing
from pathlib import Path

from analyzer.errors import UserError

__all__ = ["BACKEND", "PATH", "RUN", "TEXTS", "check_argument", "checked_api"]

PATH = Path  # a file or folder: text or an os.PathLike, not empty
TEXTS = str | list[str]  # one text or a list of them (`rule`, `policies`)


RUN = "run"  # every RunOptions field: games, precision, threads, dask_local, checkpoint, per_game, ...
BACKEND = ("threads", "dask_local", "scheduler", "chunk_size", "checkpoint", "progress", "long_run")  # how to run


@functools.cache
def _run_hints() -> dict[str, object]:
    from analyzer.runner import RunOptions  # (numpy, rich: imported on the first call, not at start-up)

    return typing.get_type_hints(RunOptions)


def _accepts(hint, value) -> bool:
    if hint is typing.Any or hint is inspect.Parameter.empty:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(h, value) for h in typing.get_args(hint))
    if origin in (list, tuple, set, frozenset) or hint in (list, tuple):
        (item, *_) = typing.get_args(hint) or (typing.Any,)
        return isinstance(value, (list, tuple)) and all(_accepts(item, v) for v in value)
    if origin is dict or hint is dict:
        key, val = typing.get_args(hint) or (typing.Any, typing.Any)
        return isinstance(value, dict) and all(_accepts(key, k) and _accepts(val, v) for k, v in value.items())
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if isinstance(hint, type) and issubclass(hint, os.PathLike):  # Path: text or a path object
        return isinstance(value, os.PathLike) or (isinstance(value, str) and bool(value.strip()))
    return isinstance(hint, type) and isinstance(value, hint)


def _describe(hint) -> str:
    if hint is None or hint is type(None):
        return "None"
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        parts = [_describe(h) for h in typing.get_args(hint)]
        return ", ".join(parts[:-1]) + " or " + parts[-1]
    if origin in (list, tuple, set, frozenset) or hint in (list, tuple):
        (item, *_) = typing.get_args(hint) or (typing.Any,)
        return "a list" + ("" if item is typing.Any else f" of {_plural(_describe(item))}")
    if origin is dict or hint is dict:
        key, val = typing.get_args(hint) or (None, None)
        return f"a dict {{{_describe(key)}: {_describe(val)}}}" if key is not None else "a dict"
    if hint is bool:
        return "True or False"
    if isinstance(hint, type) and issubclass(hint, os.PathLike):
        return "a path (text or a Path, not empty)"
    return {int: "a whole number", float: "a number", str: "text"}.get(hint, f"a {getattr(hint, '__name__', hint)}")


def _plural(text: str) -> str:
    return {"a whole number": "whole numbers", "a number": "numbers", "text": "texts"}.get(text, text)


def check_argument(function: str, name: str, value, hint) -> None:
    """One UserError if value is not of the type hint says."""
    if not _accepts(hint, value):
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise UserError(f"{function}: {name} must be {_describe(hint)}, got {shown} ({type(value).__name__})")


def checked_api(function: str, run: str | tuple[str, ...] = (), keywords: dict | None = None, **hints):
    """Decorator of a Python API function (`function`: its name in messages, e.g. "beacon.simulate"): every
    argument checked against its annotation or hints[name], the `**kwargs` ones against the runner's option
    `run` names (RUN: all) and keywords[name]; an unknown keyword, a missing or an extra positional argument are
    UserErrors too. The results folder the call locks (`out`) is unlocked when it returns or fails."""
    own = dict(keywords or {})

    def decorate(fn):
        signature = inspect.signature(fn, eval_str=True)
        params = signature.parameters
        named = {name: hints.get(name, p.annotation) for name, p in params.items()
                 if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
        var_keyword = next((name for name, p in params.items() if p.kind is p.VAR_KEYWORD), None)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            runner = _run_hints()
            keywords = {**{k: v for k, v in runner.items() if run == RUN or k in run}, **own}
            known = [*named, *(keywords if var_keyword else ())]
            for key in kwargs:
                if key not in named and (var_keyword is None or key not in keywords):
                    near = difflib.get_close_matches(key, known, n=1)
                    raise UserError(f"{function}: unknown argument {key!r}"
                                    + (f" (did you mean {near[0]!r}?)" if near else f"; it takes {', '.join(known)}"))
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:  # a missing argument, too many positional ones, one given twice
                raise UserError(f"{function}: {exc}") from None
            for name, value in bound.arguments.items():
                if name == var_keyword:
                    for key, item in value.items():
                        check_argument(function, key, item, keywords[key])
                elif value is not params[name].default:
                    check_argument(function, name, value, named[name])
            from analyzer.io import held_results_folders, release_results_folders

            held = held_results_folders()
            try:
                return fn(*args, **kwargs)
            finally:  # the `out` folder this call locked is free again, however it ended
                release_results_folders(keep=held)

        return wrapper

    return decorate
