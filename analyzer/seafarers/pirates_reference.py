"""Slow, obvious, pure-Python pirate, fleet, raids and Pirate Islands race: the oracles of kernels/catan/pirates.py.

Written from the rules in docs/seafarers/pirates.md with plain lists and objects: the route is a list
of "n"/"w" ships, the shopping list is built afresh each time, the fleet's law is computed in exact
fractions. Random draws come from the same counter-based streams in the same order, so tests compare
exact results (analyzer/seafarers/reference.py's dice and 7).
"""

from __future__ import annotations

from fractions import Fraction

from analyzer.rng_reference import Stream
from analyzer.seafarers.reference import Table, roll_die, uniform_exact
from kernels.rng import PURPOSE_DECK, PURPOSE_DICE, PURPOSE_SIEGE, PURPOSE_STEAL

RESOURCES = 5
LOW_LAW = {k: Fraction(13 - 2 * k, 36) for k in range(1, 7)}  # P(lower of two dice = k)


# --------------------------------------------------------------------------- the pirate

def ship_edge_blocked(edge: int, pirate_hex: int, edge_hexes) -> bool:
    """An edge is one of the pirate hex's 6 sides when that hex is on either side of it."""
    return pirate_hex >= 0 and pirate_hex in (int(edge_hexes[edge][0]), int(edge_hexes[edge][1]))


def random_card(hand: list[int], stream: Stream) -> int:
    cards = [r for r in range(RESOURCES) for _ in range(hand[r])]
    r = cards[stream.below(len(cards))]
    hand[r] -= 1
    return r


def ships_around(h: int, hex_edges, edge_ship_owner) -> list[int]:
    """Owners of the ships on the sides of hex h (one entry per ship)."""
    return [int(edge_ship_owner[e]) for e in hex_edges[h] if e >= 0 and edge_ship_owner[e] >= 0]


def pirate_victim(roller: int, h: int, hex_edges, edge_ship_owner, hands) -> int:
    seats = {q for q in ships_around(h, hex_edges, edge_ship_owner) if q != roller and sum(hands[q]) > 0}
    return max(seats, key=lambda q: (sum(hands[q]), -q)) if seats else -1


def pirate_steal(roller: int, h: int, hex_edges, edge_ship_owner, hands, stream: Stream) -> int:
    victim = pirate_victim(roller, h, hex_edges, edge_ship_owner, hands)
    if victim >= 0:
        hands[roller][random_card(hands[victim], stream)] += 1
    return victim


def choose_pirate_hex(roller: int, current: int, hex_sea, hex_edges, edge_ship_owner, hands) -> int:
    def key(h):
        v = pirate_victim(roller, h, hex_edges, edge_ship_owner, hands)
        owners = ships_around(h, hex_edges, edge_ship_owner)
        return (sum(hands[v]) if v >= 0 else 0, sum(q != roller for q in owners), -owners.count(roller), -h)

    options = [h for h in range(len(hex_sea)) if hex_sea[h] and h != current]
    return max(options, key=key) if options else -1


def pirate_or_robber(roller: int, robber_hex: int, pirate_hex: int, touch, hex_edges, edge_ship_owner, hands) -> int:
    """0 robber, 1 pirate: the pirate only when it robs a strictly larger hand."""
    robber_hand = -1 if robber_hex < 0 else max(
        [sum(hands[q]) for q in range(len(hands)) if q != roller and touch[robber_hex][q] > 0], default=0)
    if pirate_hex < 0:
        return 0
    v = pirate_victim(roller, pirate_hex, hex_edges, edge_ship_owner, hands)
    return int((sum(hands[v]) if v >= 0 else 0) > robber_hand)


# --------------------------------------------------------------------------- the fleet

def landing_law(path_len: int, n_rolls: int, start: int = 0) -> list[Fraction]:
    """Exact expected stops on each path index over n_rolls moves from `start`."""
    dist = [Fraction(0)] * path_len
    dist[start] = Fraction(1)
    total = [Fraction(0)] * path_len
    for _ in range(n_rolls):
        nxt = [Fraction(0)] * path_len
        for i, p in enumerate(dist):
            if p:
                for k, q in LOW_LAW.items():
                    nxt[(i + k) % path_len] += p * q
        dist = nxt
        total = [a + b for a, b in zip(total, dist)]
    return total


def raid(position: int, strength: int, path_sites, site_owner, building, warships, cities, rule: str, choice,
         hands, stream: Stream) -> list[list[int]]:
    """The fleet raids path hex `position`; returns per seat [raided, lost, won, cards lost, cards gained]."""
    stats = [[0] * 5 for _ in hands]
    owners = sorted({int(site_owner[s]) for s in path_sites[position] if s >= 0 and building[s] > 0})
    if not owners or (rule == "sole" and len(owners) > 1):
        return stats
    for p in owners:
        stats[p][0] += 1
        if strength > warships[p]:
            stats[p][1] += 1
            for _ in range(min(1 + cities[p], sum(hands[p]))):
                random_card(hands[p], stream)
                stats[p][3] += 1
        elif warships[p] > strength:
            stats[p][2] += 1
            hands[p][choice[p]] += 1
            stats[p][4] += 1
    return stats


# --------------------------------------------------------------------------- the race

class Seat:
    def __init__(self, hand):
        self.hand = list(hand)
        self.route: list[str] = ["n"]  # the pre-placed ship; "w" warship
        self.chits = 0
        self.conquered = False
        self.finished = False
        self.cards = {"knight": 0, "roads": 0, "plenty": 0, "monopoly": 0}  # playable
        self.new_cards = {"knight": 0, "roads": 0, "plenty": 0, "monopoly": 0}  # bought this turn
        self.roads = 0  # towards the next expansion site
        self.expansions = 0  # expansion sites settled
        self.out = dict.fromkeys(("conquer_round", "finish_round", "first_attack_round", "warships_at_attack",
                                  "battles", "battles_won", "ships_built", "ships_lost", "cards_bought",
                                  "knights_played", "trades"), 0)

    @property
    def warships(self) -> int:
        return self.route.count("w")


DEV_NAMES = ("knight", "roads", "plenty", "monopoly")  # kernels.catan.pirates DEV_* order


class RaceGame:
    """One game of the race (analyzer.seafarers.pirates.RaceSetup, a Plan), played as the rules say."""

    def __init__(self, setup, plan, seed: int, game: int, raid_rule: str = "each", max_rounds: int = 200,
                 fleet_blocks: bool = False):
        self.s, self.plan = setup, plan
        self.players = setup.players
        self.kind = plan.spec.name
        self.attack_at, self.outpost = plan.values["attack"], plan.values["outpost"]
        self.raid_rule, self.max_rounds, self.fleet_blocks = raid_rule, max_rounds, fleet_blocks
        self.costs = {k: list(map(int, setup.rules.costs[i])) for k, i in
                      (("ship", 0), ("card", 1), ("settlement", 2), ("road", 3), ("city", 4))}
        self.rate = setup.rules.bank_rate
        self.dice = Stream(seed, game, PURPOSE_DICE)
        self.steal = Stream(seed, game, PURPOSE_STEAL)
        deck_stream = Stream(seed, game, PURPOSE_DECK)
        self.deck = [DEV_NAMES[int(c)] for c in setup.deck]
        for i in range(len(self.deck) - 1, 0, -1):
            j = deck_stream.below(i + 1)
            self.deck[i], self.deck[j] = self.deck[j], self.deck[i]
        self.battle = [Stream(seed, 4 * game + p, PURPOSE_SIEGE) for p in range(self.players)]
        self.seats = [Seat(setup.start_hands[p].tolist()) for p in range(self.players)]
        for seat in self.seats:
            seat.chits = int(setup.scenario.markers.fortress_strength)
        self.building = {}  # site -> 1 settlement, 2 city
        for p in range(self.players):
            for k in range(3):
                self.building[int(setup.seat_site[p, k])] = 1
        self.fleet = 0
        self.fleet_on = True
        self.table = Table(setup.scenario.terrain, setup.scenario.number_token, [], [], [], self.players)
        self.tallies = [[0] * 13 for _ in range(self.players)]
        self.raids = [[0] * 5 for _ in range(self.players)]
        self.landings = [0] * setup.path_len
        self.min_cards = [1 << 30] * self.players
        self.trace: list[int] = []
        self.events: list[list] = []  # what happened, for golden traces: [seat, what, ...]

    # ---- the map
    def site(self, p: int, col: int) -> int:
        return int(self.s.seat_site[p, col])

    def sites(self, p: int) -> list[int]:
        return [int(x) for x in self.s.seat_site[p] if x >= 0]

    def count(self, p: int, level: int) -> int:
        return sum(self.building.get(x, 0) == level for x in self.sites(p))

    def settlement_pieces(self, p: int) -> int:
        """Settlement pieces seat p cannot build with: those on the board, plus the one topping its fortress
        until the conquest ("3 fichas Catan ... e de uma aldeia (da cor indicada)"); then that piece is the
        seat's settlement on the board, counted once."""
        return self.count(p, 1) + (not self.seats[p].conquered and self.site(p, 4) >= 0)

    def vp(self, p: int) -> int:
        return sum(self.building.get(x, 0) for x in self.sites(p))

    def income(self, p: int, s: int) -> list[int]:
        """Cards seat p gets for the sum s: 5 resources then gold."""
        total = [0] * 6
        for x in self.sites(p):
            for r in range(6):
                total[r] += self.building.get(x, 0) * int(self.s.site_yield[x, s, r])
        return total

    def colour_reached(self, p: int) -> bool:
        return len(self.seats[p].route) >= int(self.s.colour_index[p])

    def next_settlement(self, p: int) -> int:
        colour = self.site(p, 3)
        if colour >= 0 and self.building.get(colour, 0) == 0 and self.colour_reached(p):
            return colour
        k = 5 + self.seats[p].expansions
        return self.site(p, k) if k < 7 else -1

    def best_city(self, p: int) -> int:
        options = [x for x in self.sites(p) if self.building.get(x, 0) == 1]
        return max(options, key=lambda x: (int(self.s.site_pips[x]), -list(self.s.seat_site[p]).index(x)),
                   default=-1)

    # ---- what a seat wants
    def deck_left(self) -> int:
        return len(self.deck)

    def wanted(self, p: int) -> tuple[list[tuple[str, list[int]]], bool]:
        """[(item, cost)] in priority order, and whether the seat saves for the first."""
        seat = self.seats[p]
        fortress_items = []
        if not seat.conquered:
            order = ["card", "ship"] if self.kind == "cards-first" else ["ship", "card"]
            for item in order + ["outpost"]:
                cost = self.fortress_item_cost(p, item)
                if cost is not None:
                    fortress_items.append((item, cost))
            if fortress_items:
                return fortress_items, self.kind != "attack-at"
        out = []
        if self.count(p, 2) < self.s.rules.cities and self.best_city(p) >= 0:
            out.append(("city", self.costs["city"]))
        x = self.next_settlement(p)
        if x >= 0 and self.settlement_pieces(p) < self.s.rules.settlements:
            roads = max(int(self.s.site_roads[x]) - seat.roads, 0)
            out.append(("settlement", [a + roads * b for a, b in zip(self.costs["settlement"], self.costs["road"])]))
        return out, False

    def fortress_item_cost(self, p: int, item: str):
        seat = self.seats[p]
        if item == "ship":
            n = len(seat.route)
            if n >= len(self.s.routes[p]) or n >= self.s.rules.ships:
                return None
            if self.fleet_blocks and self.fleet_on and ship_edge_blocked(
                    self.s.routes[p][n], self.s.path[self.fleet], self.s.scenario.topology.edge_hexes):
                return None
            return self.costs["ship"]
        if item == "card":
            knights = seat.warships + seat.cards["knight"] + seat.new_cards["knight"]
            return self.costs["card"] if self.deck and knights < self.attack_at else None
        colour = self.site(p, 3)  # outpost
        if (self.outpost and colour >= 0 and self.building.get(colour, 0) == 0 and self.colour_reached(p)
                and self.settlement_pieces(p) < self.s.rules.settlements):
            return self.costs["settlement"]
        return None

    def pick(self, p: int) -> int:
        """The resource seat p chooses: the largest shortfall for its first wanted item, else its scarcest."""
        items, _ = self.wanted(p)
        hand = self.seats[p].hand
        cost = items[0][1] if items else [0] * RESOURCES
        gaps = [c - h for c, h in zip(cost, hand)]
        if max(gaps) > 0:
            return gaps.index(max(gaps))
        return hand.index(min(hand))

    def trades(self, p: int, cost: list[int]) -> int | None:
        hand = self.seats[p].hand
        short = sum(max(c - h, 0) for c, h in zip(cost, hand))
        spare = sum(max(h - c, 0) // self.rate for c, h in zip(cost, hand))
        return short if short <= spare else None

    def pay(self, p: int, cost: list[int]) -> None:
        hand = self.seats[p].hand
        for r in range(RESOURCES):
            while hand[r] < cost[r]:
                surplus = [hand[q] - cost[q] for q in range(RESOURCES)]
                give = max((q for q in range(RESOURCES) if surplus[q] >= self.rate), key=lambda q: (surplus[q], -q))
                hand[give] -= self.rate
                hand[r] += 1
                self.seats[p].out["trades"] += 1
        for r in range(RESOURCES):
            hand[r] -= cost[r]

    # ---- a turn
    def roll(self) -> tuple[int, int]:
        pair = uniform_exact(self.dice, 36)
        self.trace.append(pair)
        d1, d2 = pair // 6 + 1, pair % 6 + 1
        return d1 + d2, min(d1, d2)

    def log(self, p: int, what: str, *values) -> None:
        self.events.append([p + 1, what, *values])

    def move_fleet(self, low: int) -> None:
        self.fleet = (self.fleet + low) % self.s.path_len
        self.landings[self.fleet] += 1
        self.log(-1, "fleet", self.fleet)
        warships = [seat.warships for seat in self.seats]
        cities = [self.count(p, 2) for p in range(self.players)]
        choice = [self.pick(p) for p in range(self.players)]
        hands = [seat.hand for seat in self.seats]
        stats = raid(self.fleet, low, self.s.path_sites, self.s.site_owner, self.building_array(), warships, cities,
                     self.raid_rule, choice, hands, self.steal)
        for p in range(self.players):
            self.raids[p] = [a + b for a, b in zip(self.raids[p], stats[p])]

    def building_array(self) -> list[int]:
        return [self.building.get(x, 0) for x in range(len(self.s.site_owner))]

    def produce(self, s: int) -> None:
        for p in range(self.players):
            cards = self.income(p, s)
            for r in range(RESOURCES):
                self.seats[p].hand[r] += cards[r]
                self.tallies[p][r] += cards[r]
            for _ in range(cards[5]):
                r = self.pick(p)
                self.seats[p].hand[r] += 1
                self.tallies[p][r] += 1

    def play_card(self, p: int) -> None:
        seat = self.seats[p]
        if seat.cards["knight"] and "n" in seat.route:
            i = len(seat.route) - 1 - seat.route[::-1].index("n")  # the foremost normal ship
            seat.route[i] = "w"
            seat.cards["knight"] -= 1
            seat.out["knights_played"] += 1
            self.log(p, "knight")
            return
        if seat.cards["roads"]:
            built = 0
            if not seat.conquered:
                for _ in range(2):
                    if self.fortress_item_cost(p, "ship") is not None:
                        seat.route.append("n")
                        seat.out["ships_built"] += 1
                        built += 1
            else:
                x = self.next_settlement(p)
                if x >= 0:
                    built = min(2, max(int(self.s.site_roads[x]) - seat.roads, 0))
                    seat.roads += built
            if built:
                seat.cards["roads"] -= 1
                self.log(p, "road building", built)
                return
        if seat.cards["plenty"]:
            for _ in range(2):
                seat.hand[self.pick(p)] += 1
            seat.cards["plenty"] -= 1
            self.log(p, "year of plenty")
            return
        if seat.cards["monopoly"]:
            r = self.pick(p)
            for q, other in enumerate(self.seats):
                if q != p:
                    seat.hand[r] += other.hand[r]
                    other.hand[r] = 0
            seat.cards["monopoly"] -= 1
            self.log(p, "monopoly", r)

    def shop(self, p: int) -> None:
        seat = self.seats[p]
        while True:
            items, strict = self.wanted(p)
            choice = None
            if strict:
                if items and self.trades(p, items[0][1]) is not None:
                    choice = items[0]
            else:
                affordable = [(self.trades(p, cost), k) for k, (_, cost) in enumerate(items)
                              if self.trades(p, cost) is not None]
                if affordable:
                    choice = items[min(affordable)[1]]
            if choice is None:
                return
            item, cost = choice
            self.pay(p, cost)
            self.log(p, "buy", item)
            if item == "ship":
                seat.route.append("n")
                seat.out["ships_built"] += 1
            elif item == "card":
                seat.new_cards[self.deck.pop(0)] += 1
                seat.out["cards_bought"] += 1
            elif item == "outpost":
                self.building[self.site(p, 3)] = 1
            elif item == "city":
                self.building[self.best_city(p)] = 2
            else:
                x = self.next_settlement(p)
                self.building[x] = 1
                if x != self.site(p, 3):
                    seat.roads = 0
                    seat.expansions += 1

    def attack(self, p: int, rnd: int) -> None:
        seat = self.seats[p]
        w = seat.warships
        if not seat.out["first_attack_round"]:
            seat.out["first_attack_round"], seat.out["warships_at_attack"] = rnd, w
        seat.out["battles"] += 1
        die = roll_die(self.battle[p])
        self.log(p, "attack", w, die)
        if w > die:
            seat.out["battles_won"] += 1
            seat.chits -= 1
            if seat.chits == 0:
                seat.conquered = True
                seat.out["conquer_round"] = rnd
                self.building[self.site(p, 4)] = 1
            return
        for _ in range(1 if w == die else 2):
            seat.route.pop()
            seat.out["ships_lost"] += 1

    def turn(self, p: int, rnd: int) -> None:
        seat = self.seats[p]
        s, low = self.roll()
        self.log(p, "roll", s, low)
        if self.fleet_on:
            self.move_fleet(low)
        if s == 7:
            self.table.seven(p, -1, [x.hand for x in self.seats], self.tallies, self.steal)
        else:
            self.produce(s)
        if not seat.finished:
            self.play_card(p)
            self.shop(p)
            knights_left = seat.cards["knight"] + seat.new_cards["knight"] + self.deck_left()
            w = seat.warships
            if (not seat.conquered and len(seat.route) == len(self.s.routes[p])
                    and (w >= self.attack_at or (w >= 2 and knights_left == 0))):
                self.attack(p, rnd)
                if all(x.conquered for x in self.seats):
                    self.fleet_on = False
            for k in DEV_NAMES:
                seat.cards[k] += seat.new_cards[k]
                seat.new_cards[k] = 0
            if seat.conquered and self.vp(p) >= self.s.scenario.victory.target:
                seat.finished = True
                seat.out["finish_round"] = rnd
        self.min_cards = [min(m, *x.hand) for m, x in zip(self.min_cards, self.seats)]

    def play(self) -> dict:
        """Every column of kernels.catan.pirates' result: {'seats': [dict per seat], game columns, 'landings'}."""
        rolls = fleet_rolls = rounds = 0
        winner, win_round = -1, 0
        for rnd in range(1, self.max_rounds + 1):
            rounds = rnd
            for p in range(self.players):
                rolls += 1
                fleet_rolls += self.fleet_on
                was_finished = self.seats[p].finished
                self.turn(p, rnd)
                if self.seats[p].finished and not was_finished and winner < 0:
                    winner, win_round = p, rnd
            if all(x.finished for x in self.seats):
                break
        seats = []
        for p, seat in enumerate(self.seats):
            row = dict(seat.out)
            row.update({"vp": self.vp(p), "raided": self.raids[p][0], "raids_lost": self.raids[p][1],
                        "raids_won": self.raids[p][2], "raid_cards_lost": self.raids[p][3],
                        "raid_cards_gained": self.raids[p][4], "cards_received": sum(self.tallies[p][:5]),
                        "discarded": self.tallies[p][7], "robbed": self.tallies[p][9], "stole": self.tallies[p][10],
                        "min_cards": self.min_cards[p]})
            seats.append(row)
        return {"seats": seats, "winner": winner, "win_round": win_round, "rounds": rounds, "rolls": rolls,
                "fleet_rolls": fleet_rolls, "landings": self.landings}
