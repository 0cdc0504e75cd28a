"""The full Seafarers game's reference engine (analyzer/seafarers/full_reference.py): every rule on a hand-built
position, the seed's words quoted (seed 002, docs/rulebooks/002_f78565adfc528f93.txt), and invariants over
random games."""

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.rng_reference import Stream
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.scenarios import HARBOUR_TYPES, load_scenario
from kernels.catan.codes import CITY, GOLD, ORE, SEA, SETTLEMENT
from kernels.catan.route import longest_route, route_work
from kernels.rng import PURPOSE_POLICY

LUMBER, BRICK, WOOL, GRAIN, ORE_CARD = range(5)
RULES = load_rules()


def position(slug="new-shores", players=4):
    """The printed board of a scenario, the draft skipped: seat 0 to play, nothing built."""
    s = load_scenario(slug, players)
    harbour = [HARBOUR_TYPES.index(site.type) for site in s.harbours.sites]
    table = R.game_table(s, RULES, s.terrain, s.number_token, harbour)
    state = R.init(table, 1, 0)
    state.setup_pos = len(state.setup_order)
    state.phase, state.actor, state.current = R.MAIN, 0, 0
    return table, state


def settle(state, c, seat, city=False):
    state.corner_owner[c] = seat
    state.corner_building[c] = CITY if city else SETTLEMENT
    state.pieces_left[seat][3 if city else 2] -= 1


def lay(state, e, seat, ship, turn=-5):
    state.edge_owner[e], state.edge_ship[e], state.edge_built[e] = seat, ship, turn
    state.pieces_left[seat][1 if ship else 0] -= 1


def give(state, seat, *cards):
    for r in cards:
        state.hands[seat][r] += 1
        state.bank[r] -= 1


def kinds(actions, kind):
    return [a for a in actions if a[0] == kind]


def ends(table, e):
    return [int(c) for c in table.scenario.topology.edge_corners[e]]


def edges_at(table, c):
    return [int(e) for e in table.scenario.topology.corner_edges[c] if e >= 0]


def sea_chain(table, length):
    """A coastal corner c0 of the main island and `length` edges a ship route may take from it, each a sea or coast
    edge inside the frame, the corners beyond c0 not touching land (so no building can join them)."""
    topo, f = table.scenario.topology, table.view.flags
    for c0 in range(topo.n_corner):
        if not (f.corner_coastal[c0] and topo.corner_in_play[c0] and table.view.allowed[c0]):
            continue
        chain, corners = [], [c0]
        while len(chain) < length:
            c = corners[-1]
            nxt = [e for e in edges_at(table, c) if e not in chain and f.edge_sea[e] and topo.edge_in_play[e]
                   and not f.corner_land[[x for x in ends(table, e) if x != c][0]]
                   and [x for x in ends(table, e) if x != c][0] not in corners]
            if not nxt:
                break
            chain.append(nxt[0])
            corners.append([x for x in ends(table, nxt[0]) if x != c][0])
        if len(chain) == length:
            return c0, chain, corners
    raise AssertionError("no such chain on this board")


# ------------------------------------------------------------------------------------------------ data
def test_rule_numbers_come_from_the_data_file():
    # "Para construir um barco é necessária uma ficha de lã (para a vela) e uma ficha de madeira (para o casco)."
    assert RULES.costs["ship"] == (1, 0, 1, 0, 0)
    assert RULES.supply == {"roads": 15, "ships": 15, "settlements": 5, "cities": 4}  # "60 Barcos ... (15 de cada)"
    assert RULES.bank == 19 and RULES.deck_size == 25 and RULES.discard_above == 7


@pytest.mark.parametrize("old, new, fragment", [
    ("ship = [1, 0, 1, 0, 0]", "ship = [1, 0, 1, 0]", "costs.ship must list 5 card counts"),
    ("ship = [1, 0, 1, 0, 0]", "ship = [1, 0, 9223372036854775807, 0, 0]",
     "costs.ship[2] must be a whole number from 0 to 10, got about 10**18"),
    ("ship = [1, 0, 1, 0, 0]", "ship = [0, 0, 0, 0, 0]", "costs.ship costs no card"),
    ("ships = 15", "ships = 100000", "supply.ships must be a whole number from 1 to 30, got 100000"),
    ("knight = 14", "knight = 5000000", "development_deck.knight must be a whole number from 0 to 100"),
    ("per_resource = 19", "per_resource = \"19\"", "bank.per_resource must be a whole number"),
    ("turn_cap = 1000", "turn_cap = 0", "turn.turn_cap must be a whole number from 1 to 100,000, got 0"),
    ("[bank]", "[bank", "invalid TOML"),
])
def test_a_broken_rules_file_is_one_line(tmp_path, old, new, fragment):
    from analyzer.seafarers.full_rules import rules_text
    text, _ = rules_text()
    assert old in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(UserError) as info:
        load_rules(path)
    assert "mine.toml" in str(info.value) and fragment in str(info.value) and "\n" not in str(info.value)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(UserError, match="mine.toml: not UTF-8"):
        load_rules(path)


# ------------------------------------------------------------------------------------------------ ships
def test_ships_go_only_on_sea_or_coast_edges_and_roads_only_on_land_or_coast():
    # "Os barcos só se podem colocar entre dois hexágonos de mar (mar aberto) ou entre um hexágono de mar e um de
    # terreno (linha costeira)."
    table, state = position()
    f = table.view.flags
    c0, chain, _ = sea_chain(table, 1)
    settle(state, c0, 0)
    give(state, 0, LUMBER, WOOL, LUMBER, BRICK)
    acts = R.legal(table, state)
    ships = [a for _, a, _ in kinds(acts, R.SHIP)]
    roads = [a for _, a, _ in kinds(acts, R.ROAD)]
    assert chain[0] in ships and ships and roads
    assert all(f.edge_sea[e] or f.edge_coastal[e] for e in ships)
    assert all(f.edge_land[e] or f.edge_coastal[e] for e in roads)
    assert not any(f.edge_land[e] for e in ships) and not any(f.edge_sea[e] for e in roads)


def test_a_coast_takes_a_road_or_a_ship_not_both():
    # "Na linha costeira podem ser colocados 1 barco ou 1 estrada, mas não os dois ao mesmo tempo."
    table, state = position()
    f = table.view.flags
    c0 = next(c for c in range(len(state.corner_owner)) if f.corner_coastal[c] and table.view.allowed[c])
    coast = next(e for e in edges_at(table, c0) if f.edge_coastal[e])
    settle(state, c0, 0)
    give(state, 0, LUMBER, WOOL, LUMBER, BRICK)
    assert (R.SHIP, coast, 0) in R.legal(table, state) and (R.ROAD, coast, 0) in R.legal(table, state)
    lay(state, coast, 0, ship=False)
    assert (R.SHIP, coast, 0) not in R.legal(table, state)


def test_a_road_never_continues_a_ship_except_through_a_building():
    # "Não se pode continuar uma estrada com um barco, nem um barco com uma estrada correspondente ... O único modo
    # de continuar uma estrada com um barco (ou vice-versa), é construindo uma aldeia à estrada"
    table, state = position()
    f = table.view.flags
    for e in range(len(state.edge_owner)):  # a coast edge from a settlement site x to a coastal corner y
        x, y = ends(table, e)
        if not (f.edge_coastal[e] and table.view.allowed[x] and f.corner_coastal[y]):
            continue
        land_roads = [g for g in edges_at(table, y) if g != e and f.edge_land[g]]
        if land_roads:
            break
    settle(state, x, 0)
    lay(state, e, 0, ship=True)
    give(state, 0, LUMBER, BRICK)
    assert (R.ROAD, land_roads[0], 0) not in R.legal(table, state)
    state.corner_owner[x], state.corner_building[x] = -1, 0
    settle(state, y, 0)  # the ship's end now holds the seat's building
    assert (R.ROAD, land_roads[0], 0) in R.legal(table, state)


def test_a_rival_building_stops_a_route_from_going_on():
    table, state = position()
    c0, chain, corners = sea_chain(table, 2)
    settle(state, c0, 0)
    lay(state, chain[0], 0, ship=True)
    give(state, 0, LUMBER, WOOL)
    assert (R.SHIP, chain[1], 0) in R.legal(table, state)
    state.corner_owner[corners[1]] = 1  # a rival's building (a hand-made one: sea corners take none in play)
    state.corner_building[corners[1]] = SETTLEMENT
    assert (R.SHIP, chain[1], 0) not in R.legal(table, state)


def test_moving_the_end_ship_of_an_open_route():
    # "O barco no extremo de uma rota marítima aberta pode ser retirado e colocado noutro local"; "não é possível
    # recolocar um barco construído nesse mesmo turno"; "Durante o seu turno, um jogador só pode recolocar 1 barco."
    table, state = position()
    c0, chain, corners = sea_chain(table, 3)
    settle(state, c0, 0)
    for e in chain:
        lay(state, e, 0, ship=True)
    moves = kinds(R.legal(table, state), R.MOVE_SHIP)
    assert {a for _, a, _ in moves} == {chain[2]}  # only the end ship; the others are inside the route
    assert all(b != chain[2] and state.edge_owner[b] < 0 for _, _, b in moves)
    state.edge_built[chain[2]] = state.turn
    assert not kinds(R.legal(table, state), R.MOVE_SHIP)  # built this turn
    state.edge_built[chain[2]] = -5
    R.step(table, state, moves[0])
    assert state.ship_moved and not kinds(R.legal(table, state), R.MOVE_SHIP)  # one move per turn
    assert state.edge_owner[chain[2]] == -1 and state.edge_owner[moves[0][2]] == 0


def test_a_closed_route_never_moves():
    # "Uma rota marítima que ligue uma aldeia ou cidade a outra é considerada fechada ... Não é possível recolocar
    # um barco de uma rota marítima fechada."
    table, state = position()
    c0, chain, corners = sea_chain(table, 2)
    settle(state, c0, 0)
    for e in chain:
        lay(state, e, 0, ship=True)
    assert kinds(R.legal(table, state), R.MOVE_SHIP)
    settle(state, corners[2], 0)  # a building at the far end closes the route
    assert not kinds(R.legal(table, state), R.MOVE_SHIP)
    # "Esta regra também se aplica quando um jogador rival constrói uma aldeia numa encruzilhada de uma rota
    # marítima fechada": a rival building in the middle leaves it closed
    state.corner_owner[corners[1]], state.corner_building[corners[1]] = 1, SETTLEMENT
    assert not kinds(R.legal(table, state), R.MOVE_SHIP)


def test_the_pirate_blocks_its_six_sides():
    # "Enquanto o pirata estiver num hexágono de mar não podem ser colocados nem retirados barcos das vias marítimas
    # que rodeiam o pirata (isto é, os 6 lados do hexágono que ocupa)."
    table, state = position()
    topo = table.scenario.topology
    c0, chain, corners = sea_chain(table, 2)
    settle(state, c0, 0)
    lay(state, chain[0], 0, ship=True)
    give(state, 0, LUMBER, WOOL)
    sea = [h for h in topo.edge_hexes[chain[1]] if h >= 0 and table.pirate_hexes[h]][0]
    assert (R.SHIP, chain[1], 0) in R.legal(table, state)
    state.pirate = sea
    assert (R.SHIP, chain[1], 0) not in R.legal(table, state)
    state.pirate = [h for h in topo.edge_hexes[chain[0]] if h >= 0 and table.pirate_hexes[h]][0]
    assert not kinds(R.legal(table, state), R.MOVE_SHIP)


def test_the_pirate_robs_a_ship_owner_and_a_seven_moves_exactly_one_piece():
    # "Rouba uma carta de matéria-prima a outro jogador que tenha um barco num dos lados do hexágono de mar";
    # "No caso de um jogador obter um "7", esse jogador deverá escolher se move o pirata ou o ladrão. É sempre
    # obrigado a mover um dos dois."
    table, state = position()
    topo = table.scenario.topology
    c0, chain, _ = sea_chain(table, 1)
    settle(state, c0, 1)
    lay(state, chain[0], 1, ship=True)
    give(state, 1, ORE_CARD)
    state.phase = R.MOVE_THIEF
    acts = R.legal(table, state)
    assert {k for k, _, _ in acts} == {R.MOVE_ROBBER, R.MOVE_PIRATE}  # no end of turn: one of the two must move
    sea = [h for h in topo.edge_hexes[chain[0]] if h >= 0 and table.pirate_hexes[h] and h != state.pirate][0]
    R.step(table, state, (R.MOVE_PIRATE, sea, 0))
    assert state.phase == R.STEAL and R.legal(table, state) == [(R.STEAL_FROM, 1, 0)]
    R.step(table, state, (R.STEAL_FROM, 1, 0))
    assert state.hands[0][ORE_CARD] == 1 and state.hands[1][ORE_CARD] == 0 and state.phase == R.MAIN


# ------------------------------------------------------------------------------------------------ production
def _producing_corner(table, terrain_test):
    topo = table.scenario.topology
    for c in range(topo.n_corner):
        if not (table.view.flags.corner_land[c] and topo.corner_in_play[c]):
            continue
        for h in topo.corner_hexes[c]:
            if h >= 0 and terrain_test(int(table.terrain[h])) and table.number[h] not in (0, 7):
                return c, int(h)
    raise AssertionError("no such corner")


def test_production_settlement_one_city_two_and_the_robber_blocks():
    table, state = position()
    topo = table.scenario.topology
    c, h = _producing_corner(table, lambda t: t == ORE)
    settle(state, c, 0)
    settle(state, next(x for x in topo.hex_corners[h] if x != c and c not in topo.corner_neighbours[x]), 1, city=True)

    def ore_after_roll(robber):
        hands, bank = [list(x) for x in state.hands], list(state.bank)
        state.robber = robber
        R._produce(table, state, int(table.number[h]))
        got = [state.hands[p][ORE_CARD] - hands[p][ORE_CARD] for p in (0, 1)]
        state.hands, state.bank = hands, bank
        return got

    free, blocked = ore_after_roll(-1), ore_after_roll(h)
    assert [a - b for a, b in zip(free, blocked)] == [1, 2]  # settlement 1, city 2, none under the robber


def test_gold_gives_cards_of_the_players_choice():
    # "os jogadores que têm aldeias nesse hexágono receberão 1 carta de matéria-prima à sua escolha ... uma cidade
    # nesse hexágono, receberá 2 cartas de matéria-prima à sua escolha, que poderão ser de tipos diferentes."
    table, state = position()
    c, h = _producing_corner(table, lambda t: t == GOLD)
    settle(state, c, 0, city=True)
    state.robber = -1
    state.gold = [0] * 4
    R._produce(table, state, int(table.number[h]))
    assert state.gold[0] >= 2
    state.resume = R.MAIN
    R._after_gold(table, state)
    assert state.phase == R.GOLD_PICK and state.actor == 0 and len(R.legal(table, state)) == 5
    picks = state.gold[0]
    R.step(table, state, (R.PICK_GOLD, WOOL, 0))
    R.step(table, state, (R.PICK_GOLD, ORE_CARD, 0))
    assert state.hands[0][WOOL] >= 1 and state.hands[0][ORE_CARD] >= 1 and state.gold[0] == picks - 2


def test_the_bank_pays_nobody_a_resource_it_cannot_pay_everyone():
    table, state = position()
    c, h = _producing_corner(table, lambda t: t == ORE)
    settle(state, c, 0)
    other = [x for x in table.scenario.topology.hex_corners[h] if x != c
             and all(n != c for n in table.scenario.topology.corner_neighbours[x])][0]
    settle(state, other, 1)
    state.robber = -1
    state.bank[ORE_CARD] = 1  # two are owed
    R._produce(table, state, int(table.number[h]))
    assert state.hands[0][ORE_CARD] == state.hands[1][ORE_CARD] == 0 and state.bank[ORE_CARD] == 1
    state.corner_owner[other], state.corner_building[other] = -1, 0
    state.corner_building[c] = CITY  # owed 2, the bank has 1: the only player owed it takes what is left
    R._produce(table, state, int(table.number[h]))
    assert state.hands[0][ORE_CARD] == 1 and state.bank[ORE_CARD] == 0


def test_a_seven_makes_big_hands_discard_half_rounded_down():
    table, state = position()
    state.phase = R.PRE_ROLL
    give(state, 1, *([LUMBER] * 9))  # 9 cards: discards 4
    give(state, 2, *([WOOL] * 7))  # 7 cards: keeps them
    while True:  # find the next 7 of the dice stream
        probe = Stream(0, 0, 0)
        probe.key, probe.count = state.dice.key, state.dice.count
        v = probe.next_u64()
        if v % 36 // 6 + v % 6 + 2 == 7:
            break
        state.dice.next_u64()
    R.step(table, state, (R.ROLL, 0, 0))
    assert state.last_roll == 7 and state.phase == R.DISCARD and state.actor == 1 and state.discard[1] == 4
    for _ in range(4):
        R.step(table, state, (R.DISCARD_CARD, LUMBER, 0))
    assert sum(state.hands[1]) == 5 and sum(state.hands[2]) == 7 and state.phase == R.MOVE_THIEF


# ------------------------------------------------------------------------------------------------ cards, trade
def test_a_card_is_not_played_the_turn_it_is_bought_and_one_per_turn():
    table, state = position()
    give(state, 0, WOOL, GRAIN, ORE_CARD)
    state.deck[0] = R.KNIGHT
    R.step(table, state, (R.BUY_CARD, 0, 0))
    assert state.new_cards[0][R.KNIGHT] == 1 and not kinds(R.legal(table, state), R.PLAY_KNIGHT)
    R.step(table, state, (R.END_TURN, 0, 0))
    state.current = state.actor = 0
    state.cards[0][R.MONOPOLY] = 1
    assert kinds(R.legal(table, state), R.PLAY_KNIGHT)
    R.step(table, state, (R.PLAY_MONOPOLY, BRICK, 0))
    assert not kinds(R.legal(table, state), R.PLAY_KNIGHT)  # one card per turn


def test_road_building_gives_two_roads_two_ships_or_one_of_each():
    # "Ao jogar uma destas cartas, pode escolher de entre três opções: construir 2 estradas, 2 barcos ou 1 estrada
    # e 1 barco, tudo gratuitamente."
    table, state = position()
    c0, chain, _ = sea_chain(table, 2)
    settle(state, c0, 0)
    state.cards[0][R.ROAD_BUILDING] = 1
    R.step(table, state, (R.PLAY_ROAD_BUILDING, 0, 0))
    acts = R.legal(table, state)
    assert kinds(acts, R.ROAD) and kinds(acts, R.SHIP) and acts[-1] == (R.STOP_BUILDING, 0, 0)
    road = kinds(acts, R.ROAD)[0]
    R.step(table, state, road)
    assert state.phase == R.FREE_ROADS
    R.step(table, state, (R.SHIP, chain[0], 0))
    assert state.phase == R.MAIN and sum(state.hands[0]) == 0
    assert state.edge_owner[road[1]] == 0 and state.edge_ship[chain[0]]


def test_largest_army_from_three_knights_and_only_by_passing_the_holder():
    table, state = position()
    for seat, k in ((1, 3),):
        state.knights[seat] = k
    state.army_holder = 1
    state.knights[0] = 2
    state.cards[0][R.KNIGHT] = 2
    R.step(table, state, (R.PLAY_KNIGHT, 0, 0))
    assert state.knights[0] == 3 and state.army_holder == 1  # a tie keeps it with the holder
    state.phase, state.dev_played = R.MAIN, False
    R.step(table, state, (R.PLAY_KNIGHT, 0, 0))
    assert state.army_holder == 0


def test_maritime_trade_rates():
    table, state = position()
    give(state, 0, *([BRICK] * 4))
    assert (R.TRADE, BRICK, ORE_CARD) in R.legal(table, state)
    assert R._rate(table, state, 0, BRICK) == 4
    harbour = table.view.corner_harbour
    generic = int(np.flatnonzero(harbour == 0)[0])
    special = int(np.flatnonzero(harbour > 0)[0])
    settle(state, generic, 0)
    assert R._rate(table, state, 0, BRICK) == 3
    settle(state, special, 0)
    assert R._rate(table, state, 0, int(harbour[special]) - 1) == 2


# ------------------------------------------------------------------------------------------------ VP, winning
def test_the_first_settlement_on_each_islet_pays_two_special_vp_whoever_is_there():
    # "Quando um jogador constrói a sua primeira aldeia numa ilhota, recebe 2 pontos de vitória especiais ... Estes
    # pontos de "primeira aldeia" são conseguidos independentemente de já existir nessa mesma ilhota uma aldeia
    # construída por outro jogador."
    table, state = position()
    topo = table.scenario.topology
    islet = [c for c in range(topo.n_corner) if table.corner_territory[c] >= 0 and topo.corner_in_play[c]]
    t = table.corner_territory[islet[0]]
    same = [c for c in islet if table.corner_territory[c] == t]
    a = same[0]
    b = next(c for c in same if c != a and c not in topo.corner_neighbours[a])
    for seat, c in ((1, a), (0, b)):
        e = edges_at(table, c)[0]
        lay(state, e, seat, ship=True)
        give(state, seat, LUMBER, BRICK, WOOL, GRAIN)
        state.actor = state.current = seat
        R.step(table, state, (R.SETTLE, c, 0))
        assert state.bonus_vp[seat] == 2
    assert R.victory_points(table, state, 0)["island_bonus"] == 2


def test_four_islands_pays_only_for_islands_that_are_not_home():
    # Four Islands: 2 VP for each first settlement on an island other than those of one's initial settlements
    # (seed 002, "As quatro ilhas": the "ilhas desconhecidas").
    table, state = position("four-islands", 4)
    topo = table.scenario.topology
    sites = [c for c in range(topo.n_corner) if table.corner_territory[c] >= 0 and table.view.allowed[c]]
    home_site = sites[0]
    home = table.corner_territory[home_site]
    R._settle(table, state, 0, home_site, True)  # a draft settlement: its island is home
    assert state.home[0] == {home} and state.bonus_vp[0] == 0
    again = next(c for c in sites if table.corner_territory[c] == home and c not in topo.corner_neighbours[home_site]
                 and c != home_site)
    R._settle(table, state, 0, again, False)
    assert state.bonus_vp[0] == 0  # home island: nothing
    away = next(c for c in sites if table.corner_territory[c] != home)
    R._settle(table, state, 0, away, False)
    assert state.bonus_vp[0] == 2
    R._settle(table, state, 1, next(c for c in sites if table.corner_territory[c] == home
                                   and R._distance_ok(table, state, c)), False)
    assert state.bonus_vp[1] == 2  # seat 0's home is foreign land to seat 1


def test_the_game_ends_when_the_player_on_turn_reaches_the_target():
    # "Para vencer, o jogador tem de estar no seu turno e somar os pontos necessários."
    table, state = position()
    target = table.scenario.victory.target
    state.bonus_vp[1] = target  # seat 1 has the points, but it is seat 0's turn
    R.step(table, state, (R.END_TURN, 0, 0))
    assert state.current == 1 and state.winner == 1 and R.terminal(state)
    table, state = position()
    state.bonus_vp[1] = target
    give(state, 0, LUMBER, BRICK)
    c0 = next(c for c in range(len(state.corner_owner)) if table.view.allowed[c])
    settle(state, c0, 0)
    R.step(table, state, R.legal(table, state)[1])
    assert state.winner == -1


def test_roads_join_ships_only_at_the_players_building():
    # "O jogador vermelho tem a "Maior estrada comercial" com 4 barcos e 2 estradas. Para que a rota comercial
    # tivesse 8 elementos ... o jogador vermelho teria de construir uma aldeia entre a estrada e os barcos"
    table, state = position()
    c0, chain, corners = sea_chain(table, 4)
    settle(state, c0, 0)
    for e in chain:
        lay(state, e, 0, ship=True)
    assert R.longest_route(table, state, 0) == 4
    # two roads from c0's neighbour: a road and ship meeting at a corner without a building do not join
    f = table.view.flags
    roads = [e for e in edges_at(table, c0) if f.edge_land[e] or (f.edge_coastal[e] and e not in chain)]
    lay(state, roads[0], 0, ship=False)
    assert R.longest_route(table, state, 0) == 5  # joined through the settlement at c0
    state.corner_owner[c0], state.corner_building[c0] = -1, 0
    assert R.longest_route(table, state, 0) == 4  # no building between road and ships: no join


# ------------------------------------------------------------------------------------------------ whole games
def _random_game(slug, players, seed, game, check):
    s = load_scenario(slug, players)
    board = generate_boards(deal_plan(s), 1, seed, first=game)
    table = R.game_table(s, RULES, board.terrain[0], board.number[0], board.harbour[0])
    state = R.init(table, seed, game)
    rng = [Stream(seed, 4 * game + p, PURPOSE_POLICY) for p in range(players)]
    steps = 0
    while not R.terminal(state):
        acts = R.legal(table, state)
        assert acts, R.PHASES[state.phase]
        R.step(table, state, acts[R.decide_weighted(acts, rng[state.actor], table, state)])  # a builder: games end
        steps += 1
        if steps % check == 0 or R.terminal(state):
            _invariants(table, state)
    return table, state


def _invariants(table, state):
    topo, rules = table.scenario.topology, table.rules
    for r in range(5):  # resources are conserved: bank + hands
        assert state.bank[r] + sum(h[r] for h in state.hands) == rules.bank and state.bank[r] >= 0
    for p in range(state.players):
        built = [sum(1 for e, o in enumerate(state.edge_owner) if o == p and state.edge_ship[e] == ship)
                 for ship in (False, True)]
        left = state.pieces_left[p]
        assert built[0] + left[0] == rules.supply["roads"] and built[1] + left[1] == rules.supply["ships"]
        cities = sum(1 for c, o in enumerate(state.corner_owner) if o == p and state.corner_building[c] == CITY)
        assert cities + left[3] == rules.supply["cities"] and min(left) >= 0
        assert state.bonus_vp[p] == len(state.claimed[p]) * table.scenario.victory.island_bonus
        work = route_work(topo.n_edge)
        kept = table.scenario.longest_route or table.wonders  # (else nothing reads it until the end)
        route = state.route[p] if kept else R.longest_route(table, state, p)
        assert route == longest_route(topo.edge_corners, topo.corner_edges, np.array(state.edge_owner),
                                      np.array(state.edge_ship), np.array(state.corner_owner), p, work)
    for c, o in enumerate(state.corner_owner):  # the distance rule
        if o >= 0:
            assert all(state.corner_owner[n] < 0 for n in topo.corner_neighbours[c] if n >= 0)
    for e, o in enumerate(state.edge_owner):  # as the table shows it now (explored fog included)
        if o >= 0:
            assert R._may_ship(table, state, e) if state.edge_ship[e] else R._may_road(table, state, e)
    for h, t in enumerate(state.terrain):  # what was explored is what was dealt there
        assert t == (R.UNKNOWN if table.fog[h] and t == R.UNKNOWN else table.terrain[h])
        assert state.number[h] == (0 if t == R.UNKNOWN else table.number[h])
    dealt = sum(state.cards[p][k] + state.new_cards[p][k] for p in range(state.players) for k in range(5))
    assert state.deck_pos <= rules.deck_size and dealt + sum(state.knights) <= state.deck_pos
    if state.winner >= 0:
        assert R.total_vp(table, state, state.winner) >= table.scenario.victory.target


@pytest.mark.parametrize("slug, players, game", [("new-shores", 4, 0), ("new-shores", 3, 1), ("four-islands", 4, 2),
                                                 ("four-islands", 3, 3), ("through-the-desert", 4, 4),
                                                 ("fog-islands", 4, 5), ("fog-islands", 3, 6), ("new-world", 4, 7),
                                                 ("new-world", 3, 8)])
def test_random_games_keep_every_invariant_and_end(slug, players, game):
    table, state = _random_game(slug, players, 5, game, check=7)
    assert state.winner >= 0 or state.capped
    assert state.rolls >= state.turn  # a roll every turn


def test_the_same_seed_plays_the_same_game():
    a = _random_game("new-shores", 4, 9, 0, check=10 ** 9)[1]
    b = _random_game("new-shores", 4, 9, 0, check=10 ** 9)[1]
    assert (a.winner, a.turn, a.rolls, a.hands, a.edge_owner) == (b.winner, b.turn, b.rolls, b.hands, b.edge_owner)


# ------------------------------------------------------------------------------------------------ fog
def fog_position(board_index):
    """Board `board_index` of seed 1 of the Fog Islands (4 players), the fog face down, the draft skipped."""
    s = load_scenario("fog-islands", 4)
    b = generate_boards(deal_plan(s), 1, 1, first=board_index)
    table = R.game_table(s, RULES, b.terrain[0], b.number[0], b.harbour[0])
    state = R.init(table, 1, board_index)
    state.setup_pos = len(state.setup_order)
    state.phase, state.actor, state.current = R.MAIN, 0, 0
    return table, state


def fog_at_ends(table, state, e):
    topo = table.scenario.topology
    return sorted({int(h) for c in ends(table, e) for h in topo.corner_hexes[c]
                   if h >= 0 and table.fog[h] and state.terrain[h] == R.UNKNOWN})


def fog_ship(want):
    """(table, state, c0, e): seat 0 settled on start corner c0, a ship site e there whose ends touch fog, one of
    those hexes dealt with a terrain `want` accepts."""
    for b in range(40):
        table, state = fog_position(b)
        topo = table.scenario.topology
        for c0 in np.flatnonzero(table.view.allowed).tolist():
            for e in edges_at(table, c0):
                if R._may_ship(table, state, e) and any(want(int(table.terrain[h]))
                                                        for h in fog_at_ends(table, state, e)):
                    if topo.edge_in_play[e]:
                        settle(state, c0, 0)
                        return table, state, c0, e
    raise AssertionError("no such position in 40 boards")


@pytest.mark.parametrize("name, want", [("resource", lambda t: t > GOLD), ("sea", lambda t: t == SEA),
                                        ("gold", lambda t: t == GOLD)])
def test_a_ship_that_reaches_the_fog_turns_up_the_hex_and_pays_its_finder(name, want):
    # "Sempre que um jogador construa um barco ou estrada e falte um hexágono na encruzilhada seguinte, esse jogador
    # retira um hexágono do monte e coloca-o no espaço vazio. No caso de se tratar de um hexágono de terreno, o
    # jogador retira uma ficha numerada do monte e coloca-a no hexágono. Esse jogador recebe uma carta de
    # matéria-prima correspondente ao tipo de terreno do hexágono."
    table, state, c0, e = fog_ship(want)
    fog = fog_at_ends(table, state, e)
    give(state, 0, LUMBER, WOOL)
    assert (R.SHIP, e, 0) in R.legal(table, state)
    before = list(state.hands[0])
    R.step(table, state, (R.SHIP, e, 0))
    gained = [0] * 5
    for h in fog:
        assert state.terrain[h] == table.terrain[h] and state.number[h] == table.number[h]  # turned up, numbered
        if table.terrain[h] > GOLD:
            gained[table.terrain[h] - 3] += 1
    cost = RULES.costs["ship"]
    assert [a - b + c for a, b, c in zip(state.hands[0], before, cost)] == gained
    golds = sum(table.terrain[h] == GOLD for h in fog)
    if golds:  # gold: a card of the finder's choice
        assert state.phase == R.GOLD_PICK and state.actor == 0 and state.gold[0] == golds
        R.step(table, state, (R.PICK_GOLD, ORE_CARD, 0))
        assert state.hands[0][ORE_CARD] >= 1
    assert state.phase == R.MAIN and fog_at_ends(table, state, e) == []


def test_an_unexplored_fog_hex_produces_nothing_and_takes_neither_robber_nor_pirate():
    # "Os hexágonos cinzentos são deixados vazios e serão descobertos durante a progressão do jogo."
    table, state = fog_position(0)
    hidden = [h for h in range(len(state.terrain)) if table.fog[h]]
    assert all(state.terrain[h] == R.UNKNOWN and state.number[h] == 0 for h in hidden)
    moves = {a for _, a, _ in R._thief_moves(table, state)}
    assert moves and not moves & set(hidden)
    land = next(h for h in hidden if table.terrain[h] > GOLD)
    c = int(table.scenario.topology.hex_corners[land][0])
    settle(state, c, 1)
    R._produce(table, state, int(table.number[land]))
    gained = sum(state.hands[1])
    state.terrain[land], state.number[land] = int(table.terrain[land]), int(table.number[land])  # explored
    R._produce(table, state, int(table.number[land]))
    assert sum(state.hands[1]) > gained


def test_roads_reach_the_fog_only_from_land_and_ships_only_from_sea():
    # "Os barcos só se podem colocar entre dois hexágonos de mar (mar aberto) ou entre um hexágono de mar e um de
    # terreno (linha costeira)." Beside a fog hex, which is neither until explored: a ship needs sea on the other
    # side, a road land (the base game's roads go on land)
    table, state = fog_position(0)
    topo = table.scenario.topology
    for e in range(topo.n_edge):
        sides = [R._side(state, int(h)) for h in topo.edge_hexes[e]]
        if -1 in sides and topo.edge_in_play[e]:
            assert R._may_road(table, state, e) == (1 in sides)
            assert R._may_ship(table, state, e) == (0 in sides)


def test_the_legal_actions_do_not_reveal_what_the_fog_hides():
    # what the table shows decides; the hexes still face down are the same to every player
    a_table, a_state, c0, e = fog_ship(lambda t: True)
    s = a_table.scenario
    fog = [h for h in range(len(a_state.terrain)) if a_table.fog[h]]
    terrain, number = a_table.terrain.copy(), a_table.number.copy()
    terrain[fog], number[fog] = terrain[fog][::-1], number[fog][::-1]  # the same stacks, another order
    harbour = [HARBOUR_TYPES.index(site.type) for site in s.harbours.sites]
    b_table = R.game_table(s, RULES, terrain, number, harbour)
    give(a_state, 0, LUMBER, WOOL, LUMBER, BRICK)
    import copy
    b_state = copy.deepcopy(a_state)
    assert R.legal(a_table, a_state) == R.legal(b_table, b_state)
