"""The full Seafarers game's rule numbers (data/rules/full_game.toml), loaded and validated once.

    rules = load_rules()            # the packaged defaults
    rules = load_rules("my.toml")   # a designer's copy (`--rules FILE`), every value checked
    rules = load_rules(rule=["domestic_trade=false"])   # an [options] switch (`--rule NAME=VALUE`)

A bad file raises one UserError line naming the file, the key and the allowed range (analyzer/rules_file.py, where
every user data file is checked).
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import UserError
from analyzer.rules_file import RuleOption, choose_options, read_text, read_toml, rule_options, whole, whole_list

__all__ = ["DEV_CARDS", "ITEMS", "Rules", "WonderCard", "load_rules", "rules_text"]

ITEMS = ("road", "ship", "settlement", "city", "dev_card")
DEV_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
PIECES = ("roads", "ships", "settlements", "cities")
OPTIONS = ("domestic_trade", "harbours_after_draft", "harbour_hexes_apart", "cloth_route_from_reserve",
           "gift_by_moved_ship", "gift_harbour_at_cities", "raid_sole_owner", "knight_without_ship",
           "wonder_site_city", "draft_ship_facing_frame", "fleet_blocks_ships",
           "pirate_four_vp_cards")  # every rules file's [options]
LAID_OPTIONS = ("harbours_after_draft",)  # only where the players lay harbours (New World)
SPACING_OPTIONS = ("harbour_hexes_apart",)  # where harbours are laid or won during play (New World, Forgotten Tribe)
CLOTH_OPTIONS = ("cloth_route_from_reserve",)  # only where cloth is traded (Cloth for Catan)
GIFT_OPTIONS = ("gift_by_moved_ship", "gift_harbour_at_cities")  # only where ships win gifts (the Forgotten Tribe)
WONDER_OPTIONS = ("wonder_site_city",)  # only where wonders are built (the Wonders of Catan)
WONDER_NOTES = ("claim_note", "requirement_note", "win_note")  # [wonders]: the defaults where the seed is silent
WONDER_SITES = ("", "strait", "wasteland")  # a card's site: none, or the scenario's marked corners it names
PIRATE_OPTIONS = ("raid_sole_owner", "knight_without_ship", "fleet_blocks_ships",
                  "pirate_four_vp_cards")  # only with a pirate fleet (the Pirate Islands)
DRAFT_SHIP_OPTIONS = ("draft_ship_facing_frame",)  # only where the draft takes ships
CLOTH_NOTES = ("route_note", "pay_note", "closed_note", "pirate_note", "end_note")  # [cloth]: the defaults
PIRATE_NOTES = ("deck_note", "route_note", "warship_note", "raid_note", "seven_note", "battle_note", "conquest_note",
                "fleet_end_note")  # [pirates]: the Pirate Islands' defaults where the seed is silent
# Ranges the rules allow: beyond them a game is either not Catan or would run for hours.
MAX_COST = 10  # cards of one resource for one item
MAX_PIECES = 30
MAX_BANK = 100
MAX_DECK = 100
MAX_TURN_CAP = 100_000


@dataclass(frozen=True)
class WonderCard:
    """A wonder card of the Wonders of Catan (rules data [[wonders.card]]): what claiming it requires, what each
    build stage costs."""

    id: str  # the scenario's [layouts.markers] wonders id
    cost: tuple[int, ...]  # cards of lumber, brick, wool, grain, ore per stage
    site: str  # WONDER_SITES: a settlement on the scenario's strait or wasteland corners, or "" none
    cities: int  # at least this many cities
    vp: int  # at least this many VP
    harbour_city: bool  # a city at a harbour
    route: int  # a longest trade route of at least this many pieces (0: none needed)


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
    offers_per_turn: int  # domestic trade offers a turn, when the option domestic_trade is on
    options: dict[str, RuleOption]  # [options]: the switches where the seed is silent
    chosen: dict[str, bool]  # their values in force (the defaults, or --rule)
    cloth_notes: tuple[str, ...] = ()  # [cloth]: Cloth for Catan's defaults where the seed is silent (CLOTH_NOTES)
    chit_vp: int = 1  # [gifts]: VP of a Catan chit won on an islet coast (the Forgotten Tribe)
    pirate_vp_cards: int = 4  # [pirates]: the seed's count of VP cards (the deck with option pirate_four_vp_cards)
    pirate_notes: tuple[str, ...] = ()  # [pirates]: the Pirate Islands' defaults (PIRATE_NOTES)
    wonder_cards: tuple[WonderCard, ...] = ()  # [wonders]: the Wonders of Catan's cards
    wonder_stages: int = 4  # [wonders] stages: a wonder's build stages (the last one wins)
    wonder_notes: tuple[str, ...] = ()  # [wonders]: the defaults where the seed is silent (WONDER_NOTES)
    wonder_cost_source: str = ""  # [wonders]: where the reconstructed stage costs come from

    @property
    def deck_size(self) -> int:
        return sum(self.deck.values())

    @property
    def domestic_offers(self) -> int:
        """Domestic offers a player may make a turn (0: no domestic trade)."""
        return self.offers_per_turn if self.chosen["domestic_trade"] else 0

    def option_texts(self, laid_harbours: bool = True, cloth: bool = True, gifts: bool = True,
                     pirates: bool = True, wonders: bool = True, draft_ships: bool = True) -> list[str]:
        """Each option's sentence for its value in force: what every report lists (the harbour options only
        where the players lay the harbours, `laid_harbours`, the spacing also where ships win them; the cloth
        options only where cloth is traded, `cloth`; the gift options only where ships win gifts, `gifts`; the
        fleet's only with a pirate fleet, `pirates`; the wonder options only where wonders are built, `wonders`; the
        draft's ship options only where the draft takes ships, `draft_ships`)."""
        def applies(name: str) -> bool:
            if name in DRAFT_SHIP_OPTIONS:
                return draft_ships
            if name in LAID_OPTIONS:
                return laid_harbours
            if name in SPACING_OPTIONS:
                return laid_harbours or gifts
            if name in CLOTH_OPTIONS:
                return cloth
            if name in PIRATE_OPTIONS:
                return pirates
            if name in WONDER_OPTIONS:
                return wonders
            return gifts if name in GIFT_OPTIONS else True

        return [self.options[name].text[value] for name, value in self.chosen.items() if applies(name)]


def rules_text(path: str | Path | None = None) -> tuple[str, str]:
    """(text, name) of a rules file, or of the packaged default."""
    if path is None:
        ref = importlib.resources.files("analyzer.seafarers") / "data" / "rules" / "full_game.toml"
        return ref.read_text(encoding="utf-8"), "default"
    return read_text(path, "rules file"), Path(path).name


def load_rules(path: str | Path | None = None, text: str | None = None, rule=None) -> Rules:
    """The rules of a file (default: the packaged one); `text` parses a file's content directly; `rule`: the
    [options] switched (`--rule NAME=VALUE` texts)."""
    name = "default" if path is None else Path(path).name
    if text is None:
        text, name = rules_text(path)
    data = read_toml(Path(name), "rules file", text)
    r = _Reader(name, data)
    options = rule_options(name, r.table("options"))
    for option in OPTIONS:
        if option not in options:
            raise UserError(f"{name}: missing [options.{option}]")
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
                 r.int("turn", "discard_above", 0, 19 * 5), r.int("turn", "turn_cap", 1, MAX_TURN_CAP), name,
                 r.int("trade", "domestic_offers_per_turn", 0, 10), options, choose_options(options, rule),
                 tuple(r.text("cloth", key) for key in CLOTH_NOTES), r.int("gifts", "chit_vp", 0, 10),
                 r.int("pirates", "victory_point_cards", 0, MAX_DECK),
                 tuple(r.text("pirates", key) for key in PIRATE_NOTES),
                 _wonder_cards(r), r.int("wonders", "stages", 1, 20),
                 tuple(r.text("wonders", key) for key in WONDER_NOTES), r.text("wonders", "cost_source"))


def _wonder_cards(r) -> tuple[WonderCard, ...]:
    """[[wonders.card]]: each card's id, stage cost and requirement, every value checked."""
    cards = r.table("wonders").get("card")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, dict) for c in cards):
        raise UserError(f"{r.name}: [wonders] needs [[wonders.card]] tables (id, cost, site, cities, vp, "
                        "harbour_city, route)")
    out = []
    for i, c in enumerate(cards):
        key = f"wonders.card[{i}]"
        if not isinstance(c.get("id"), str) or not c["id"]:
            raise UserError(f"{r.name}: {key}.id must name the scenario's wonder (text)")
        if c.get("site") not in WONDER_SITES:
            raise UserError(f"{r.name}: {key}.site must be one of '', 'strait', 'wasteland', got {c.get('site')!r}")
        if not isinstance(c.get("harbour_city"), bool):
            raise UserError(f"{r.name}: {key}.harbour_city must be true or false")
        cost = whole_list(r.name, f"{key}.cost", c.get("cost"), 5, 0, MAX_COST,
                          "card counts (lumber, brick, wool, grain, ore)")
        if sum(cost) == 0:
            raise UserError(f"{r.name}: {key}.cost costs no card; a stage costs at least one")
        out.append(WonderCard(c["id"], tuple(cost), c["site"], whole(r.name, f"{key}.cities", c.get("cities"), 0, 10),
                              whole(r.name, f"{key}.vp", c.get("vp"), 0, 30), c["harbour_city"],
                              whole(r.name, f"{key}.route", c.get("route"), 0, 2 * MAX_PIECES)))
    if len({c.id for c in out}) < len(out):
        raise UserError(f"{r.name}: [[wonders.card]] names a wonder twice")
    return tuple(out)


class _Reader:
    def __init__(self, name: str, data: dict):
        self.name, self.data = name, data

    def table(self, table: str) -> dict:
        t = self.data.get(table)
        if not isinstance(t, dict):
            raise UserError(f"{self.name}: missing table [{table}]")
        return t

    def int(self, table: str, key: str, lo: int, hi: int) -> int:
        return whole(self.name, f"{table}.{key}", self.table(table).get(key), lo, hi)

    def text(self, table: str, key: str) -> str:
        v = self.table(table).get(key)
        if not isinstance(v, str) or not v:
            raise UserError(f"{self.name}: {table}.{key} must be a sentence (text)")
        return v

    def cards(self, table: str, key: str) -> tuple[int, ...]:
        v = whole_list(self.name, f"{table}.{key}", self.table(table).get(key), 5, 0, MAX_COST,
                       "card counts (lumber, brick, wool, grain, ore)")
        if sum(v) == 0:
            raise UserError(f"{self.name}: {table}.{key} costs no card; an item costs at least one")
        return tuple(v)
