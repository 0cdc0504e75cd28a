"""Beacon Patrol rules facts from data/rules.toml, read strictly and turned into the kernel's cfg array."""

from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from analyzer.errors import UserError
from analyzer.params import check_whole
from analyzer.rules_file import RuleOption, choose_options, known_keys, read_toml, rule_options, whole, whole_list
from kernels import beacon as kb

MIN_PLAYERS, MAX_PLAYERS = 1, kb.MAX_PLAYERS
N_RANKS = kb.CFG_KEEP_ON_EMPTY_PILE - kb.CFG_RANK0  # the cfg's rank slots
POINTS = ("lighthouse", "hq", "buoy", "other", "windmill_base", "pier_base")
MAX_POINTS = 10  # a tile's points (the rulebook's are 1 to 3): far inside the int16 score column
MAX_TOKENS = 10  # movement tokens a turn (the rulebook's are 2 to 4)
MAX_BOUND = 10_000  # a rank's lower bound (a 64-tile game scores about 100)
TABLES = {"players": ("hand_size", "move_tokens"), "points": POINTS,
          "ranks": ("names", "names_pt", "lower_bounds", "shift_per_expansion"), "options": (), "assumptions": ()}


# rules.toml [options] -> the kernel's cfg slot each one sets (bool options: 0 or 1)
OPTION_CFG = {"solo_keep_on_empty_pile": kb.CFG_KEEP_ON_EMPTY_PILE}


@dataclass(frozen=True)
class Rules:
    hand_size: dict[int, int]
    move_tokens: dict[int, int]
    points: dict[str, int]
    rank_names: tuple[str, ...]
    rank_names_pt: tuple[str, ...]  # as the rulebook names them (page 7)
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
def _text() -> str:
    return resources.files("analyzer.beacon").joinpath("data/rules.toml").read_text("utf-8")


@cache
def load_rules() -> Rules:
    return parse_rules(_text())


def rules_data() -> dict:
    """{"file": "packaged", "sha256"} of the rules data every run reads (summary.json's rules_data)."""
    from analyzer.provenance import data_file

    return data_file(None, _text())


def parse_rules(text: str, name: str = "rules.toml") -> Rules:
    """The rules of a rules.toml text, every key known and every number within what the kernel holds (a hand of
    at most kb.MAX_HAND tiles, N_RANKS rank bands): one UserError line naming the file and the key otherwise."""
    raw = read_toml(name, "rules file", text)
    known_keys(name, raw, TABLES, "the top level")
    for key in TABLES:
        if not isinstance(raw.get(key), dict):
            raise UserError(f"{name}: missing table [{key}]")
        if key not in ("options", "assumptions"):
            known_keys(name, raw[key], TABLES[key], f"[{key}]", prose=True)
    options = rule_options(name, raw["options"])
    known_keys(name, options, OPTION_CFG, "[options]")  # an option the kernel does not read would change nothing
    players, ranks = raw["players"], raw["ranks"]
    hand = _per_players(name, "hand_size", players.get("hand_size"), 1, kb.MAX_HAND,
                        f"the kernel holds {kb.MAX_HAND} tiles a hand")
    tokens = _per_players(name, "move_tokens", players.get("move_tokens"), 0, MAX_TOKENS, "")
    points = {k: whole(name, f"points.{k}", raw["points"].get(k), 0, MAX_POINTS) for k in POINTS}
    names = _texts(name, "ranks.names", ranks.get("names"))
    names_pt = _texts(name, "ranks.names_pt", ranks.get("names_pt"))
    bounds = whole_list(name, "ranks.lower_bounds", ranks.get("lower_bounds"), N_RANKS, 0, MAX_BOUND, "bounds")
    if bounds[0] != 0 or any(a >= b for a, b in zip(bounds, bounds[1:])):
        raise UserError(f"{name}: ranks.lower_bounds must start at 0 and rise, got {bounds}")
    assumptions = raw["assumptions"]
    for key, value in assumptions.items():
        if not isinstance(value, str) or not value:
            raise UserError(f"{name}: assumptions.{key} must be a sentence (text)")
    return Rules(hand, tokens, points, names, names_pt, tuple(bounds),
                 whole(name, "ranks.shift_per_expansion", ranks.get("shift_per_expansion"), 0, MAX_BOUND),
                 tuple(assumptions.values()), options)


def _per_players(name: str, key: str, table, least: int, most: int, why: str) -> dict[int, int]:
    """{players: value} of `players.key`, one entry for each player count 1 to MAX_PLAYERS."""
    counts = [str(p) for p in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    if not isinstance(table, dict) or sorted(table) != counts:
        raise UserError(f"{name}: players.{key} must give a value for each player count "
                        f"({', '.join(counts)}), e.g. {{ 1 = 3, 2 = 3, 3 = 3, 4 = 2 }}")
    return {int(p): whole(name, f"players.{key}.{p}", table[p], least, most, why) for p in counts}


def _texts(name: str, key: str, value) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != N_RANKS or not all(isinstance(v, str) and v for v in value):
        raise UserError(f"{name}: {key} must list {N_RANKS} names (one per rank band)")
    return tuple(value)
