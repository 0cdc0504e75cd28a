"""The full Seafarers game's rule numbers (data/rules/full_game.toml), loaded and validated once.

    rules = load_rules()            # the packaged defaults
    rules = load_rules("my.toml")   # a designer's copy (`--rules FILE`), every value checked

A bad file raises one UserError line naming the file, the key and the allowed range.
"""

from __future__ import annotations

import importlib.resources
import tomllib
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import UserError
from analyzer.io import read_data_file

__all__ = ["DEV_CARDS", "ITEMS", "Rules", "load_rules", "rules_text"]

ITEMS = ("road", "ship", "settlement", "city", "dev_card")
DEV_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
PIECES = ("roads", "ships", "settlements", "cities")
# Ranges the rules allow: beyond them a game is either not Catan or would run for hours.
MAX_COST = 10  # cards of one resource for one item
MAX_PIECES = 30
MAX_BANK = 100
MAX_DECK = 100
MAX_TURN_CAP = 100_000


@dataclass(frozen=True)
class Rules:
    costs: dict[str, tuple[int, ...]]  # item -> cards of lumber, brick, wool, grain, ore
    supply: dict[str, int]  # roads, ships, settlements, cities per seat
    bank: int  # cards of each resource
    bank_rate: int
    generic_rate: int
    special_rate: int
    deck: dict[str, int]  # development card -> copies
    vp: dict[str, int]  # settlement, city, longest_route, largest_army, victory_point_card
    longest_route_minimum: int
    largest_army_minimum: int
    discard_above: int
    turn_cap: int
    source: str  # "default" or the file's name

    @property
    def deck_size(self) -> int:
        return sum(self.deck.values())


def rules_text(path: str | Path | None = None) -> tuple[str, str]:
    """(text, name) of a rules file, or of the packaged default."""
    if path is None:
        ref = importlib.resources.files("analyzer.seafarers") / "data" / "rules" / "full_game.toml"
        return ref.read_text(encoding="utf-8"), "default"
    name = Path(path).name
    try:
        raw = read_data_file(path)
    except OSError as e:
        raise UserError(f"{name}: cannot read the rules file ({e.strerror or e})") from None
    try:
        return raw.decode("utf-8"), name
    except UnicodeDecodeError as e:
        raise UserError(f"{name}: not UTF-8 text (byte {e.start})") from None


def load_rules(path: str | Path | None = None, text: str | None = None) -> Rules:
    """The rules of a file (default: the packaged one); `text` parses a file's content directly."""
    name = "default" if path is None else Path(path).name
    if text is None:
        text, name = rules_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{name}: invalid TOML ({e})") from None
    r = _Reader(name, data)
    costs = {item: r.cards("costs", item) for item in ITEMS}
    supply = {p: r.int("supply", p, 1, MAX_PIECES) for p in PIECES}
    deck = {card: r.int("development_deck", card, 0, MAX_DECK) for card in DEV_CARDS}
    if sum(deck.values()) > MAX_DECK:
        raise UserError(f"{name}: development_deck: {sum(deck.values())} cards in all, at most {MAX_DECK}")
    vp = {k: r.int("victory_points", k, 0, 10) for k in ("settlement", "city", "longest_route", "largest_army",
                                                          "victory_point_card")}
    return Rules(costs, supply, r.int("bank", "per_resource", 1, MAX_BANK), r.int("trade", "bank_rate", 1, 10),
                 r.int("trade", "generic_rate", 1, 10), r.int("trade", "special_rate", 1, 10), deck, vp,
                 r.int("victory_points", "longest_route_minimum", 1, 2 * MAX_PIECES),
                 r.int("victory_points", "largest_army_minimum", 1, MAX_DECK),
                 r.int("turn", "discard_above", 0, 19 * 5), r.int("turn", "turn_cap", 1, MAX_TURN_CAP), name)


class _Reader:
    def __init__(self, name: str, data: dict):
        self.name, self.data = name, data

    def table(self, table: str) -> dict:
        t = self.data.get(table)
        if not isinstance(t, dict):
            raise UserError(f"{self.name}: missing table [{table}]")
        return t

    def int(self, table: str, key: str, lo: int, hi: int) -> int:
        v = self.table(table).get(key)
        if isinstance(v, bool) or not isinstance(v, int):
            raise UserError(f"{self.name}: {table}.{key} must be a whole number from {lo} to {hi}, got {v!r}")
        if not lo <= v <= hi:
            raise UserError(f"{self.name}: {table}.{key} = {v} is outside {lo}..{hi}")
        return v

    def cards(self, table: str, key: str) -> tuple[int, ...]:
        v = self.table(table).get(key)
        if not (isinstance(v, list) and len(v) == 5 and all(isinstance(x, int) and not isinstance(x, bool)
                                                           for x in v)):
            raise UserError(f"{self.name}: {table}.{key} must be 5 whole numbers (lumber, brick, wool, grain, ore), "
                            f"got {v!r}")
        if any(not 0 <= x <= MAX_COST for x in v) or sum(v) == 0:
            raise UserError(f"{self.name}: {table}.{key} = {v}: each count from 0 to {MAX_COST}, at least one card")
        return tuple(v)
