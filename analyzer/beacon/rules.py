"""Beacon Patrol rules facts from data/rules.toml, turned into the kernel's cfg array."""

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from analyzer.errors import UserError
from analyzer.params import check_whole
from kernels import beacon as kb

MIN_PLAYERS, MAX_PLAYERS = 1, kb.MAX_PLAYERS


# rules.toml [options] -> the kernel's cfg slot each one sets (bool options: 0 or 1)
OPTION_CFG = {"solo_keep_on_empty_pile": kb.CFG_KEEP_ON_EMPTY_PILE}


@dataclass(frozen=True)
class RuleOption:
    """A rule the rulebook leaves open: its default and the sentence reports print for each value."""
    name: str
    default: bool
    text: dict[bool, str]


@dataclass(frozen=True)
class Rules:
    hand_size: dict[int, int]
    move_tokens: dict[int, int]
    points: dict[str, int]
    rank_names: tuple[str, ...]
    rank_lower_bounds: tuple[int, ...]
    shift_per_expansion: int
    assumptions: tuple[str, ...]
    options: dict[str, RuleOption]

    def choose(self, chosen=None) -> dict[str, bool]:
        """Every option's value: the defaults, with `chosen` ({name: bool}, "name=value" texts, or one
        such text) in their place. UserError names an unknown option or a value that is not a yes/no."""
        values = {name: option.default for name, option in self.options.items()}
        for name, value in _rule_items(chosen):
            if name not in self.options:
                raise UserError(f"--rule: unknown rule option {name!r}; known: {', '.join(sorted(self.options))}")
            values[name] = _yes_no(name, value)
        return values

    def assumption_texts(self, values: dict[str, bool]) -> list[str]:
        """What every report lists: each option's sentence for its value, then the fixed assumptions."""
        return [self.options[name].text[value] for name, value in values.items()] + list(self.assumptions)

    def rank_bounds(self, n_expansions: int) -> list[int]:
        """Lower bound of each band; every expansion in play raises them all (rulebook p. 8)."""
        return [0] + [b + self.shift_per_expansion * n_expansions for b in self.rank_lower_bounds[1:]]

    def cfg(self, players: int, n_expansions: int, options=None) -> np.ndarray:
        """The kernel's cfg vector; `options` as for `choose`."""
        check_players(players)
        cfg = np.zeros(kb.CFG_SIZE, np.int64)
        cfg[kb.CFG_PLAYERS] = players
        cfg[kb.CFG_HAND] = self.hand_size[players]
        cfg[kb.CFG_TOKENS] = self.move_tokens[players]
        cfg[kb.CFG_PTS_LIGHTHOUSE] = self.points["lighthouse"]
        cfg[kb.CFG_PTS_HQ] = self.points["hq"]
        cfg[kb.CFG_PTS_BUOY] = self.points["buoy"]
        cfg[kb.CFG_PTS_OTHER] = self.points["other"]
        cfg[kb.CFG_PTS_WINDMILL] = self.points["windmill_base"]
        cfg[kb.CFG_PTS_PIER] = self.points["pier_base"]
        cfg[kb.CFG_RANK0:kb.CFG_RANK0 + 5] = self.rank_bounds(n_expansions)
        for name, value in self.choose(options).items():  # (the defaults for any not given)
            cfg[OPTION_CFG[name]] = int(value)
        return cfg


def _rule_items(chosen) -> list[tuple[str, object]]:
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
                raise UserError(f"--rule: expected NAME=VALUE (e.g. solo_keep_on_empty_pile=true), got {text!r}")
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


def check_players(players: int) -> None:
    check_whole("--players", players)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UserError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")


@cache
def load_rules() -> Rules:
    raw = tomllib.loads(resources.files("analyzer.beacon").joinpath("data/rules.toml").read_text("utf-8"))
    ranks = raw["ranks"]
    return Rules(
        hand_size={int(k): v for k, v in raw["players"]["hand_size"].items()},
        move_tokens={int(k): v for k, v in raw["players"]["move_tokens"].items()},
        points=dict(raw["points"]),
        rank_names=tuple(ranks["names"]),
        rank_lower_bounds=tuple(ranks["lower_bounds"]),
        shift_per_expansion=ranks["shift_per_expansion"],
        assumptions=tuple(raw["assumptions"].values()),
        options={name: RuleOption(name, bool(o["default"]), {False: o["false"], True: o["true"]})
                 for name, o in raw["options"].items()},
    )
