"""The checks every command's whole numbers, seeds and paths share, and how a parameter value is written in a
label (arms are read by analyzer.lineup)."""

import numbers
from pathlib import Path

from analyzer.errors import UserError


def check_whole(option: str, value) -> None:
    """A whole number (int or numpy integer; not bool, not 1.5): the kernels would otherwise truncate
    a float or compile another version for it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UserError(f"{option} must be a whole number, got {value!r}")


def check_seed(seed, option: str = "--seed") -> None:
    """A seed: a whole number from 0 to 2**63-1 (the streams key on it as an int64)."""
    check_whole(option, seed)
    if not 0 <= seed < 2**63:
        raise UserError(f"{option} must be between 0 and 2**63-1, got {seed}")


def value_text(v: float) -> str:
    """A parameter value in a label: short (2.5, 4), but every digit where that is needed to tell two
    values apart (0.1234561 and 0.1234562 are two policies, so two labels)."""
    short = f"{v:g}"
    return short if float(short) == v else repr(float(v))


def path_value(text: str) -> Path:
    """A file or folder option's value (the CLI's parser): an empty one, as an unset shell variable
    gives, is refused rather than read as the current folder."""
    if not text.strip():
        import typer

        raise typer.BadParameter("an empty path; give a file or folder name")
    try:
        text.encode("utf-8")  # (a name that is not UTF-8 reaches Python as lone surrogates)
    except UnicodeEncodeError:
        import typer

        raise typer.BadParameter(f"the path {text!r} is not valid UTF-8 text; rename it") from None
    return Path(text)
