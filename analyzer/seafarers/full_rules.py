"""The full Seafarers game's rule numbers (data/rules/full_game.toml), loaded and validated once.

    rules = load_rules()            # the packaged defaults
    rules = load_rules("my.toml")   # a designer's copy (`--rules FILE`), every value checked
    rules = load_rules(rule=["domestic_trade=false"])   # an [options] switch (`--rule NAME=VALUE`)

A bad file raises one UserError line naming the file, the key and the allowed range (analyzer/rules_file.py, where
every user data file is checked).
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.errors import UserError
from analyzer.rules_file import (
    RuleOption,
    choose_options,
    known_keys,
    read_text,
    read_toml,
    rule_names,
    rule_options,
    whole,
    whole_list,
)
from kernels.catan import game as kg
from kernels.catan.codes import RESOURCE_NAMES
from kernels.catan.gifts import GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR

__all__ = ["DEV_CARDS", "ITEMS", "Rules", "WonderCard", "check_rules_for", "gifts", "has_gifts", "load_rules",
           "max_vp", "option_applies", "option_scope", "rules_for", "rules_text", "wonder_cards"]

ITEMS = ("road", "ship", "settlement", "city", "dev_card")
DEV_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
PIECES = ("roads", "ships", "settlements", "cities")
OPTIONS = ("domestic_trade", "harbours_after_draft", "harbour_hexes_apart", "cloth_route_from_reserve",
           "gift_by_moved_ship", "gift_harbour_at_cities", "raid_sole_owner", "knight_without_ship",
           "wonder_site_city", "draft_ship_facing_frame", "fleet_blocks_ships",
           "pirate_four_vp_cards", "progress_before_roll", "fog_explore_next_corner",
           "pirate_seven_steal_optional")  # every rules file's [options]
LAID_OPTIONS = ("harbours_after_draft",)  # only where the players lay harbours (New World)
SPACING_OPTIONS = ("harbour_hexes_apart",)  # where harbours are laid or won during play (New World, Forgotten Tribe)
CLOTH_OPTIONS = ("cloth_route_from_reserve",)  # only where cloth is traded (Cloth for Catan)
GIFT_OPTIONS = ("gift_by_moved_ship", "gift_harbour_at_cities")  # only where ships win gifts (the Forgotten Tribe)
WONDER_OPTIONS = ("wonder_site_city",)  # only where wonders are built (the Wonders of Catan)
WONDER_NOTES = ("claim_note", "requirement_note", "win_note")  # [wonders]: the defaults where the seed is silent
WONDER_SITES = ("", "strait", "wasteland")  # a card's site: none, or the scenario's marked corners it names
PIRATE_OPTIONS = ("raid_sole_owner", "knight_without_ship", "fleet_blocks_ships",
                  "pirate_four_vp_cards", "pirate_seven_steal_optional")  # only with a pirate fleet (Pirate Islands)
DRAFT_SHIP_OPTIONS = ("draft_ship_facing_frame",)  # only where the draft takes ships
FOG_OPTIONS = ("fog_explore_next_corner",)  # only where fog hexes are explored (the Fog Islands)
CLOTH_NOTES = ("route_note", "pay_note", "closed_note", "pirate_note", "end_note")  # [cloth]: the defaults
PIRATE_NOTES = ("deck_note", "route_note", "warship_note", "raid_note", "seven_note", "battle_note", "conquest_note",
                "fleet_end_note")  # [pirates]: the Pirate Islands' defaults where the seed is silent
# Ranges the rules allow: beyond them a game is either not Catan or would run for hours.
MAX_COST = 10  # cards of one resource for one item
MAX_PIECES = 30
MAX_BANK = 100
MAX_DECK = kg.MAX_DECK  # Game.deck's length: the most cards any scenario's deck may hold
MAX_TURN_CAP = 100_000
# The keys each table may hold besides its prose (rules_file.PROSE_KEY): anything else is a misspelling, refused.
TABLE_KEYS = {
    "costs": ITEMS, "supply": PIECES, "bank": ("per_resource",),
    "trade": ("bank_rate", "generic_rate", "special_rate", "domestic_offers_per_turn"),
    "development_deck": DEV_CARDS,
    "victory_points": ("settlement", "city", "longest_route", "longest_route_minimum", "largest_army",
                       "largest_army_minimum", "victory_point_card"),
    "turn": ("discard_above", "turn_cap"), "options": OPTIONS, "harbours": (), "cloth": CLOTH_NOTES,
    "gifts": ("chit_vp",), "wonders": ("stages", "card", "cost_source") + WONDER_NOTES,
    "pirates": ("victory_point_cards",) + PIRATE_NOTES,
}
CARD_KEYS = ("id", "cost", "site", "cities", "vp", "harbour_city", "route")  # a [[wonders.card]]


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
    text: str = field(default="", repr=False)  # the file's text: summaries name it by its sha256 (data_file)

    @property
    def deck_size(self) -> int:
        return sum(self.deck.values())

    def data_file(self) -> dict:
        """{"file", "sha256"} of the rules data the run read, for its summary (analyzer.provenance.data_file)."""
        from analyzer.provenance import data_file

        return data_file(None if self.source == "default" else self.source, self.text)

    def deck_for(self, s) -> dict[str, int]:
        """Scenario s's development deck by card: [development_deck]; the Pirate Islands: its VP cards counted as
        knights with 4 players, removed with 3 ('contam como cartas de cavaleiro'): the deck's own ('são mantidas no
        baralho'), or with option pirate_four_vp_cards the rulebook's count, [pirates] victory_point_cards."""
        deck = dict(self.deck)
        if s.markers.fortresses:
            kept = self.pirate_vp_cards if self.chosen["pirate_four_vp_cards"] else deck["victory_point"]
            deck["victory_point"] = 0
            if s.players == 4:
                deck["knight"] += kept
        return deck

    def describe(self, s=None) -> str:
        """The numbers in force, in one sentence for the reports' assumptions (the deck as scenario s deals it)."""
        costs = "; ".join(f"{item.replace('_', ' ')} {'-'.join(map(str, cost))}" for item, cost in self.costs.items())
        deck = self.deck if s is None else self.deck_for(s)
        cards = ", ".join(f"{n} {card.replace('_', ' ')}" for card, n in deck.items() if n)
        vp = self.vp
        where = ("the package's analyzer/seafarers/data/rules/full_game.toml, the base game's numbers"
                 if self.source == "default" else f"{self.source}, given with --rules")
        return (f"Rules data: {where}. Costs (lumber-brick-wool-grain-ore): {costs}. Pieces a seat: "
                + ", ".join(f"{n} {p}" for p, n in self.supply.items())
                + f". Bank: {self.bank} cards of each resource. Development deck: {sum(deck.values())} cards"
                + (f" ({cards})" if cards else " (no development cards can be bought)")
                + f". VP: settlement {vp['settlement']}, city {vp['city']}, longest trade route {vp['longest_route']} "
                f"(at least {self.longest_route_minimum} pieces), largest army {vp['largest_army']} (at least "
                f"{self.largest_army_minimum} knights), VP card {vp['victory_point_card']}. Trade: {self.bank_rate}:1 "
                f"with the bank, {self.generic_rate}:1 and {self.special_rate}:1 at harbours; a 7 halves hands of "
                f"more than {self.discard_above} cards; a game stops unwon after {self.turn_cap:,} turns.")

    @property
    def domestic_offers(self) -> int:
        """Domestic offers a player may make a turn (0: no domestic trade)."""
        return self.offers_per_turn if self.chosen["domestic_trade"] else 0

    def option_texts(self, laid_harbours: bool = True, cloth: bool = True, gifts: bool = True,
                     pirates: bool = True, wonders: bool = True, draft_ships: bool = True,
                     fog: bool = True) -> list[str]:
        """Each option's sentence for its value in force: what every report lists (the harbour options only
        where the players lay the harbours, `laid_harbours`, the spacing also where ships win them; the cloth
        options only where cloth is traded, `cloth`; the gift options only where ships win gifts, `gifts`; the
        fleet's only with a pirate fleet, `pirates`; the wonder options only where wonders are built, `wonders`; the
        draft's ship options only where the draft takes ships, `draft_ships`; the fog's only where fog hexes are
        explored, `fog`)."""
        scope = {"laid_harbours": laid_harbours, "cloth": cloth, "gifts": gifts, "pirates": pirates,
                 "wonders": wonders, "draft_ships": draft_ships, "fog": fog}
        return [self.options[name].text[value] for name, value in self.chosen.items() if option_applies(name, scope)]


def option_applies(name: str, scope: dict[str, bool]) -> bool:
    """Does a game with these features (option_scope) read the option `name`?"""
    if name in LAID_OPTIONS:
        return scope["laid_harbours"]
    if name in SPACING_OPTIONS:
        return scope["laid_harbours"] or scope["gifts"]
    for group, feature in ((CLOTH_OPTIONS, "cloth"), (PIRATE_OPTIONS, "pirates"), (WONDER_OPTIONS, "wonders"),
                           (GIFT_OPTIONS, "gifts"), (DRAFT_SHIP_OPTIONS, "draft_ships"), (FOG_OPTIONS, "fog")):
        if name in group:
            return scope[feature]
    return True


def option_scope(scenarios) -> dict[str, bool]:
    """Which of the options' features any of the scenarios has: harbours the players lay, cloth traded, gifts on
    islet coasts, a pirate fleet, wonders, ships in the draft, fog hexes (the keywords of Rules.option_texts)."""
    return {"laid_harbours": any(s.harbours.placement == "players" for s in scenarios),
            "cloth": any(bool(s.victory.cloth_per_vp) for s in scenarios),
            "gifts": any(has_gifts(s) for s in scenarios),
            "pirates": any(bool(s.markers.fortresses) for s in scenarios),
            "wonders": any(bool(s.markers.wonders) for s in scenarios),
            "draft_ships": any(s.setup.ships for s in scenarios),
            "fog": any("fog" in s.kind for s in scenarios)}


def has_gifts(s) -> bool:
    """Does the scenario lay gifts on islet coasts (the Forgotten Tribe)?"""
    return bool(s.markers.dev_card_edges or s.markers.vp_chit_edges) or s.harbours.placement == "gifts"


def wonder_cards(scenario, rules: Rules) -> tuple[tuple, tuple]:
    """(cards, sites) of the scenario's wonders: each [layouts.markers] wonder's card in the rules data [wonders]
    (its requirement and stage cost), and the corners its settlement requirement names; both empty where there are
    none."""
    m = scenario.markers
    by_id = {c.id: c for c in rules.wonder_cards}
    missing = [w["id"] for w in m.wonders if w["id"] not in by_id]
    if missing:
        raise UserError(f"{scenario.slug}: the rules data [wonders] has no card for {', '.join(missing)}")
    cards = tuple(by_id[w["id"]] for w in m.wonders)
    corners = {"": (), "strait": m.strait_corners, "wasteland": m.wasteland_corners}
    return cards, tuple(tuple(corners[c.site]) for c in cards)


def gifts(scenario, rules: Rules, harbour) -> tuple[tuple[int, ...], ...]:
    """(edges, kinds, items) of the scenario's gifts: the development cards (deck positions 0, 1, ... in the order of
    the card coasts), the Catan chits, the harbours (their dealt types); all empty where there are none."""
    m = scenario.markers
    cards, chits = list(m.dev_card_edges), list(m.vp_chit_edges)
    sites = list(scenario.harbours.sites) if scenario.harbours.placement == "gifts" else []
    if len(cards) > rules.deck_size:
        raise UserError(f"{scenario.slug}: {len(cards)} development cards lie on the islets, but the rules' deck has "
                        f"only {rules.deck_size}")
    edges = tuple(cards + chits + [site.edge for site in sites])
    kinds = tuple([GIFT_CARD] * len(cards) + [GIFT_CHIT] * len(chits) + [GIFT_HARBOUR] * len(sites))
    items = tuple(list(range(len(cards))) + [0] * len(chits) + [int(k) for k in harbour][:len(sites)])
    return edges, kinds, items


def check_rules_for(rules: Rules, scenarios, rule=None) -> None:
    """What the scenarios played need of the rules, one line each, before any game: every `--rule` switched is read
    by one of them (else it would change nothing), the draft's pieces, a deck for the islets' cards, a card for each
    wonder, the Pirate Islands' route within the ships, a target VP the pieces and cards can reach."""
    from analyzer.seafarers.scenarios import list_scenarios

    scope = option_scope(scenarios)
    for name in rule_names(rule):
        if not option_applies(name, scope):
            readers = sorted({s.slug for s in list_scenarios() if option_applies(name, option_scope([s]))})
            played = sorted({s.slug for s in scenarios})
            who = f"{played[0]} does not" if len(played) == 1 else f"none of {', '.join(played)}"
            raise UserError(f"--rule {name}: {who} read it (it would change nothing); it applies only to "
                            f"{', '.join(readers)}")
    for s in scenarios:
        _check_scenario(rules, s)


def _check_scenario(rules: Rules, s) -> None:
    from analyzer.seafarers.setup_policies import _preplaced, lane_distances

    name, supply = rules.source, rules.supply
    forts = _preplaced(s)
    # the draft's settlements, each with a road; the Pirate Islands' pre-placed one and its fortress's too
    settlements = s.setup.settlements + (2 if forts else 0)
    for piece, need in (("settlements", settlements), ("roads", s.setup.settlements)):
        if supply[piece] < need:
            extra = " plus the pre-placed settlement and the fortress's" if forts and piece == "settlements" else ""
            raise UserError(f"{name}: supply.{piece} = {supply[piece]}, but the draft of {s.name} needs {need} {piece} "
                            f"a seat ({s.setup.settlements} settlements, each with a road{extra})")
    if forts:
        route = max(dc[f.settlement] + df[f.colour_corner] for f, (dc, df) in
                    ((f, lane_distances(s, f)) for f in forts))
        if supply["ships"] < route:
            raise UserError(f"{name}: supply.ships = {supply['ships']}, but a route to a fortress in {s.name} takes "
                            f"{route} ships: no seat could conquer its fortress, which winning needs")
    gifts(s, rules, ())  # the islets' cards come from the deck
    wonder_cards(s, rules)  # a card for every wonder of the scenario
    most = max_vp(rules, s)
    if not s.markers.wonders and most < s.victory.target:
        raise UserError(f"{name}: with these pieces, cards and VP values a seat scores at most {most} VP in {s.name}, "
                        f"which needs {s.victory.target}: every game would end at the turn cap without a winner")


def max_vp(rules: Rules, s) -> int:
    """More VP than a seat can hold in scenario s: every settlement and city piece on the board, the longest route
    and largest army cards, every VP card, island bonuses for every building, all the cloth, every chit."""
    vp, supply, m = rules.vp, rules.supply, s.markers
    buildings = supply["settlements"] + supply["cities"]
    most = supply["settlements"] * vp["settlement"] + supply["cities"] * vp["city"]
    most += s.victory.island_bonus * buildings + len(m.vp_chit_edges) * rules.chit_vp
    most += vp["longest_route"] if s.longest_route else 0
    if not m.fortresses:  # the Pirate Islands: no army card, VP cards are knights or set aside
        most += vp["largest_army"] + rules.deck["victory_point"] * vp["victory_point_card"]
    if s.victory.cloth_per_vp:
        most += (m.cloth_per_village * len(m.villages) + m.cloth_supply) // s.victory.cloth_per_vp
    return most


def rules_text(path: str | Path | None = None) -> tuple[str, str]:
    """(text, name) of a rules file, or of the packaged default."""
    if path is None:
        ref = importlib.resources.files("analyzer.seafarers") / "data" / "rules" / "full_game.toml"
        return ref.read_text(encoding="utf-8"), "default"
    return read_text(path, "rules file"), Path(path).name


def rules_for(path: str | Path | None, rule, scenarios) -> tuple[str, Rules]:
    """(text, rules) of a rules file (None: the packaged one) with its `--rule` switches, checked against the
    scenarios to be played (check_rules_for): what every command that plays full games reads first."""
    text, _ = rules_text(path)
    rules = load_rules(path, text, rule)
    check_rules_for(rules, scenarios, rule)
    return text, rules


def load_rules(path: str | Path | None = None, text: str | None = None, rule=None) -> Rules:
    """The rules of a file (default: the packaged one); `text` parses a file's content directly; `rule`: the
    [options] switched (`--rule NAME=VALUE` texts)."""
    name = "default" if path is None else Path(path).name
    if text is None:
        text, name = rules_text(path)
    data = read_toml(Path(name), "rules file", text)
    _check_keys(name, data)
    r = _Reader(name, data)
    options = rule_options(name, r.table("options"))
    for option in OPTIONS:
        if option not in options:
            raise UserError(f"{name}: missing [options.{option}]")
    costs = {item: r.cards("costs", item) for item in ITEMS}
    supply = {p: r.int("supply", p, 1, MAX_PIECES) for p in PIECES}
    deck = {card: r.int("development_deck", card, 0, MAX_DECK) for card in DEV_CARDS}
    vp = {k: r.int("victory_points", k, 0, 10) for k in ("settlement", "city", "longest_route", "largest_army",
                                                          "victory_point_card")}
    bank = r.int("bank", "per_resource", 1, MAX_BANK)
    pirate_vp_cards = r.int("pirates", "victory_point_cards", 0, MAX_DECK)
    _check_playable(name, costs, supply, bank, deck, pirate_vp_cards)
    return Rules(costs, supply, bank, r.int("trade", "bank_rate", 1, 10),
                 r.int("trade", "generic_rate", 1, 10), r.int("trade", "special_rate", 1, 10), deck, vp,
                 r.int("victory_points", "longest_route_minimum", 1, 2 * MAX_PIECES),
                 r.int("victory_points", "largest_army_minimum", 1, MAX_DECK),
                 r.int("turn", "discard_above", 0, 19 * 5), r.int("turn", "turn_cap", 1, MAX_TURN_CAP), name,
                 r.int("trade", "domestic_offers_per_turn", 0, 10), options, choose_options(options, rule),
                 tuple(r.text("cloth", key) for key in CLOTH_NOTES), r.int("gifts", "chit_vp", 0, 10),
                 pirate_vp_cards, tuple(r.text("pirates", key) for key in PIRATE_NOTES),
                 _wonder_cards(r, bank), r.int("wonders", "stages", 1, 20),
                 tuple(r.text("wonders", key) for key in WONDER_NOTES), r.text("wonders", "cost_source"),
                 text)


def _check_keys(name: str, data: dict) -> None:
    """Every key of the file is one a reader reads, or prose: a misspelt `citty = 3` or an [options.X] no game
    reads would otherwise be ignored and its default played without a word."""
    known_keys(name, data, TABLE_KEYS, "the top level")
    for table, keys in TABLE_KEYS.items():
        known_keys(name, data.get(table), keys, f"[{table}]", prose=True)
    cards = data.get("wonders", {}).get("card") if isinstance(data.get("wonders"), dict) else None
    for i, card in enumerate(cards if isinstance(cards, list) else []):
        known_keys(name, card, CARD_KEYS, f"[[wonders.card]] {i + 1}", prose=True)


def _check_playable(name: str, costs: dict, supply: dict, bank: int, deck: dict, pirate_vp_cards: int) -> None:
    """What every scenario needs of the numbers, each refused in one line: a deck the kernel holds (Game.deck has
    kg.MAX_DECK places), the draft's pieces (2 settlements, each with a road: a ship needs a coast), items the bank
    can pay for."""
    for what, size in (("development_deck", sum(deck.values())),  # (the second as Rules.deck_for deals it)
                       ("the Pirate Islands' 4-player deck with --rule pirate_four_vp_cards=true (development_deck "
                        "less its victory_point cards, plus pirates.victory_point_cards as knights)",
                        sum(deck.values()) - deck["victory_point"] + pirate_vp_cards)):
        if size > MAX_DECK:
            raise UserError(f"{name}: {what} holds {size} cards; the game holds at most {MAX_DECK}")
    for piece in ("settlements", "roads"):
        if supply[piece] < 2:
            raise UserError(f"{name}: supply.{piece} = {supply[piece]}, but the draft places 2 settlements, each "
                            "with a road (or a ship on a coast): at least 2")
    for item, cost in costs.items():
        for k, n in enumerate(cost):
            if n > bank:
                raise UserError(f"{name}: costs.{item} asks {n} {RESOURCE_NAMES[k]}, but the bank holds only {bank} of "
                                f"each resource (bank.per_resource): nobody could ever pay it")


def _wonder_cards(r, bank: int) -> tuple[WonderCard, ...]:
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
        if max(cost) > bank:
            raise UserError(f"{r.name}: {key}.cost asks {max(cost)} cards of a resource, but the bank holds only "
                            f"{bank} of each (bank.per_resource): nobody could ever pay it")
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
