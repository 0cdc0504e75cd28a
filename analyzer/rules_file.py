"""Data files a user gives (a rules file, a tile set, a board layout): read and checked in one place.

Every problem is one UserError line that names the file, the key and what is allowed, e.g.
``rules.toml: supply.ships must be a whole number from 1 to 60 (the box's 60 ships), got 10**20``:
a file that is not UTF-8 text, a wrong type, a number outside the range the rules allow (a Python int
larger than int64 would overflow in a kernel; a deck of millions of cards would run for hours).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import UserError
from analyzer.io import read_data_file

__all__ = ["PROSE_KEY", "RuleOption", "choose_options", "decode", "known_keys", "nearest", "read_bytes", "read_text",
           "read_toml", "rule_names", "rule_options", "unknown", "whole", "whole_list"]


def read_bytes(path: str | os.PathLike, what: str) -> bytes:
    """The bytes of the user's file at path (`what` it is, e.g. "tiles file", names it in errors): a
    regular file of at most analyzer.io.MAX_FILE_BYTES."""
    try:
        return read_data_file(path)
    except FileNotFoundError:
        raise UserError(f"{what} not found: {path}") from None
    except OSError as exc:
        raise UserError(f"cannot read {what} {path}: {exc.strerror or exc.__class__.__name__}") from None


def read_text(path: str | os.PathLike, what: str) -> str:
    """read_bytes as UTF-8 text (a spreadsheet's byte-order mark is dropped)."""
    return decode(read_bytes(path, what), Path(path).name)


def decode(data: bytes, name: str) -> str:
    """UTF-8 text (BOM dropped); a one-line UserError naming the file and the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"{name}: not UTF-8 text (bad byte at offset {exc.start})") from None


def read_toml(path: str | os.PathLike, what: str, text: str | None = None) -> dict:
    """The TOML document of the user's file (or of `text`, the file's content read before)."""
    path = Path(path)
    try:
        return tomllib.loads(read_text(path, what) if text is None else text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path.name}: invalid TOML: {exc}") from None


def _shown(value) -> str:
    """A value as the error shows it: a huge number as a power of ten, never thousands of digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"{'-' if value < 0 else ''}about 10**{len(str(abs(value))) - 1}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def nearest(word: str, known, listing: bool = True) -> str:
    """'; did you mean 'X'?' for the known name closest to word, else (listing) '; known: a, b, c' (or '; none is
    known'), or ''."""
    known = sorted(str(k) for k in known)
    close = difflib.get_close_matches(str(word), known, n=1, cutoff=0.5)
    if close:
        return f"; did you mean {close[0]!r}?"
    if not listing:
        return ""
    if not known:
        return "; none is known"
    listed = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
    return f"; known: {listed}"


def unknown(name: str, word, where: str, known, what: str = "key") -> UserError:
    """The one-line error for a name the reader does not know:
    `name: unknown key 'citty' in [supply]; did you mean 'city'?` (`what`: key, column, option...)."""
    return UserError(f"{name}: unknown {what} {_shown(str(word))} in {where}{nearest(word, known)}")


# Prose for the reader of a data file (where a number comes from, a rulebook's words, why a default): no game
# reads it; known_keys(..., prose=True) lets any table hold it, as text.
PROSE_KEY = re.compile(r"(?:[a-z0-9_]+_)?(?:source|note|quote|status)")


def known_keys(name: str, table, allowed, where: str, prose: bool = False) -> None:
    """Refuse any key of `table` (a dict read from the file `name`) that is not in `allowed`: one UserError
    line naming the file, the key, `where` it stands ("[supply]", "the top level", "[[wonders.card]] 2") and
    the nearest allowed key. A misspelt key would otherwise be ignored and its default played silently.
    prose: keys named like PROSE_KEY (source, note, ship_quote, ...) are allowed too, if their value is text."""
    if not isinstance(table, dict):
        return
    allowed = set(allowed)
    for key, value in table.items():
        if key in allowed:
            continue
        if prose and PROSE_KEY.fullmatch(key):
            if not isinstance(value, str):
                raise UserError(f"{name}: {key} in {where} is prose (named *_source, *_note, *_quote or *_status) and "
                                f"must be text, got {_shown(value)}")
            continue
        raise unknown(name, key, where, allowed)


def whole(name: str, key: str, value, least: int, most: int, why: str = "") -> int:
    """value if it is a whole number (not a bool, not a float) with least <= value <= most; else one
    UserError line: `name: key must be a whole number from least to most (why), got value`."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        note = f" ({why})" if why else ""
        raise UserError(f"{name}: {key} must be a whole number from {least:,} to {most:,}{note}, got {_shown(value)}")
    return value


def whole_list(name: str, key: str, value, length: int, least: int, most: int, what: str, why: str = "") -> list[int]:
    """A list of `length` whole numbers (`what` they are), each from least to most."""
    if not isinstance(value, list) or len(value) != length:
        raise UserError(f"{name}: {key} must list {length} {what}, got {_shown(value)}")
    for i, item in enumerate(value):
        whole(name, f"{key}[{i}]", item, least, most, why)
    return value


@dataclass(frozen=True)
class RuleOption:
    """A rule the rulebook leaves open (a rules file's [options.NAME]): its default and the sentence reports
    print for each value."""
    name: str
    default: bool
    text: dict[bool, str]


def rule_options(name: str, table) -> dict[str, RuleOption]:
    """The [options] table of a rules file: NAME = {default, true, false} per option."""
    if not isinstance(table, dict):
        raise UserError(f"{name}: [options] must be a table of options")
    out = {}
    for key, o in table.items():
        known_keys(name, o, ("default", "true", "false"), f"[options.{key}]")
        if not (isinstance(o, dict) and isinstance(o.get("default"), bool) and isinstance(o.get("true"), str)
                and isinstance(o.get("false"), str)):
            raise UserError(f"{name}: options.{key} needs default = true|false and a `true` and a `false` sentence")
        out[key] = RuleOption(key, o["default"], {False: o["false"], True: o["true"]})
    return out


def choose_options(options: dict[str, RuleOption], chosen=None) -> dict[str, bool]:
    """Every option's value: the defaults, with `chosen` ({name: bool}, "name=value" texts, or one such text, as
    `--rule` gives them) in their place. UserError names an unknown option, a repeated one or a value that is
    not a yes/no."""
    values = {name: option.default for name, option in options.items()}
    example = f"{next(iter(options))}=true" if options else "name=true"
    for name, value in _rule_items(chosen, example):
        if name not in options:
            raise UserError(f"--rule: unknown rule option {name!r}; known: {', '.join(sorted(options)) or 'none'}")
        values[name] = _yes_no(name, value)
    return values


def rule_names(chosen) -> list[str]:
    """The option names a `--rule` list switches (its form checked as choose_options checks it)."""
    return [name for name, _ in _rule_items(chosen, "name=true")]


def _rule_items(chosen, example: str) -> list[tuple[str, object]]:
    if chosen is None:
        return []
    if isinstance(chosen, str):
        chosen = [chosen]
    if isinstance(chosen, dict):
        items = list(chosen.items())
    else:
        items = []
        for text in chosen:
            if not isinstance(text, str) or text.count("=") != 1:
                raise UserError(f"--rule: expected NAME=VALUE (e.g. {example}), got {text!r}")
            name, value = (part.strip() for part in text.split("="))
            items.append((name, value))
    names = [name for name, _ in items]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UserError(f"--rule: {twice[0]} is given twice")
    return items


def _yes_no(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise UserError(f"--rule {name}: expected true or false, got {value!r}")
