"""Beacon Patrol rules facts from data/rules.toml, turned into the kernel's cfg array."""

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from analyzer.errors import UserError
from analyzer.params import check_whole
from analyzer.rules_file import RuleOption, choose_options, rule_options
from kernels import beacon as kb

MIN_PLAYERS, MAX_PLAYERS = 1, kb.MAX_PLAYERS


# rules.toml [options] -> the kernel's cfg slot each one sets (bool options: 0 or 1)
OPTION_CFG = {"solo_keep_on_empty_pile": kb.CFG_KEEP_ON_EMPTY_PILE}


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
        return choose_options(self.options, chosen)

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
        options=rule_options("rules.toml", raw["options"]),
    )
