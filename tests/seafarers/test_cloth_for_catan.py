"""Cloth for Catan (seed 002, CENÁRIO 6: MERCADORIAS PARA CATAN): every special rule on a hand-built position of the
printed board in both engines (the reference analyzer/seafarers/full_reference.py and the kernel
kernels/catan/game.py), the seed's words quoted; the defaults where the seed is silent (rules data [cloth]) and the
option cloth_route_from_reserve."""

import collections

import numpy as np
import pytest

from analyzer.rng_reference import Stream
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.scenarios import load_scenario
from kernels.catan import game as kg
from kernels.catan import policies as kp
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, ORE, SEA
from kernels.rng import PURPOSE_DICE, PURPOSE_POLICY, stream_init
from tests.seafarers.test_forgotten_tribe import Both as FTBoth

RULES = load_rules()
LUMBER, BRICK, WOOL, GRAIN, ORE_CARD = range(5)
SLUG = "cloth-for-catan"


class Both(FTBoth):
    """The printed board in both engines at game g's start; `main()` skips the draft (seat 0 to play, nothing
    built). Every change goes through both engines' own functions, so their bookkeeping stays theirs; the Forgotten
    Tribe's hand-building (settle, give, legal) on this scenario."""

    SLUG = SLUG
    SKIP_DRAFT = False

    def __init__(self, players=4, rules=RULES, g=0):
        super().__init__(players, rules=rules, g=g)

    def main(self, turn=5):
        return self.skip_draft(turn)

    def current(self, seat):
        self.state.actor = self.state.current = seat
        self.game.st[kg.ST_ACTOR] = self.game.st[kg.ST_CURRENT] = seat

    def ship(self, e, seat, turn=-5):
        """A ship placed (as built, opening any route it reaches), then dated to an earlier turn."""
        R._place_edge(self.table, self.state, seat, e, True)
        kg._place_edge(self.board, self.game, seat, e, 1)
        self.state.edge_built[e] = self.game.edge_built[e] = turn
        R._update_route(self.table, self.state)
        kg._update_routes(self.board, self.game)

    def set_cloth(self, villages=None, reserve=None, seats=None):
        if villages is not None:
            self.state.village_cloth = list(villages)
            self.game.village_cloth[:] = villages
        if reserve is not None:
            self.state.cloth_reserve = self.game.st[kg.ST_CLOTH_RESERVE] = reserve
        if seats is not None:
            self.state.cloth[:len(seats)] = list(seats)
            self.game.cloth[:len(seats)] = seats

    def route(self, seat, k):
        """A trade route of seat to village k set by hand (no ship, no cloth taken)."""
        self.state.cloth_routes[seat].add(k)
        self.game.cloth_route[seat, k] = True

    def step(self, action):
        R.step(self.table, self.state, action)
        kg.step(self.board, self.game, *action)
        self.agree()

    def agree(self):
        """Both engines hold the same cloth, routes, phase, winner."""
        state, game, p = self.state, self.game, self.state.players
        assert game.cloth[:p].tolist() == state.cloth
        assert game.village_cloth.tolist() == state.village_cloth
        assert game.st[kg.ST_CLOTH_RESERVE] == state.cloth_reserve
        assert [set(np.flatnonzero(game.cloth_route[s]).tolist()) for s in range(p)] == state.cloth_routes
        assert game.st[kg.ST_PHASE] == state.phase and game.st[kg.ST_WINNER] == state.winner
        assert game.st[kg.ST_CLOTH_END] == state.cloth_end
        assert [kg.total_vp(self.board, game, s) for s in range(p)] == [R.total_vp(self.table, state, s)
                                                                         for s in range(p)]

    def edge(self, a, b):
        return next(int(e) for e in self.topo.corner_edges[a] if e >= 0 and b in self.topo.edge_corners[e])

    def village(self, k):
        return self.table.villages[k][0]

    def ship_path(self, k, length):
        """(settlement corner, edges) of a ship route of `length` edges from a draft site to village k, settlement end
        first: every edge with sea on a side, off the pirate's hex, no other village on the way (shortest ways, found
        from the village outward)."""
        topo, shown = self.topo, self.table.view.terrain
        start = self.village(k)
        villages = {c for c, _ in self.table.villages}
        prev = {start: None}
        queue = collections.deque([start])
        while queue:
            c = queue.popleft()
            if c != start and c in villages:
                continue  # a route ends at the first village it meets
            for e in topo.corner_edges[c]:
                hexes = topo.edge_hexes[e]
                if e < 0 or not topo.edge_in_play[e] or self.state.pirate in hexes or not any(
                        h < 0 or shown[h] == SEA for h in hexes):
                    continue
                m = int(topo.edge_corners[e][0] if topo.edge_corners[e][1] == c else topo.edge_corners[e][1])
                if m not in prev:
                    prev[m] = (c, int(e))
                    queue.append(m)
        for c in prev:
            path, x = [], c
            while prev[x] is not None:
                x, e = prev[x]
                path.append(e)
            if len(path) == length and self.table.view.allowed[c]:
                return c, path
        raise AssertionError(f"no {length}-edge route to village {k}")


def quote(text):
    """Is `text` in the seed's own words (docs/rulebooks: seed 002, whitespace and quote marks evened out)?"""
    from pathlib import Path

    seed = Path(__file__).resolve().parents[2] / "docs" / "rulebooks" / "002_f78565adfc528f93.txt"

    def even(t):
        return " ".join(t.replace("“", '"').replace("”", '"').split())

    return even(text) in even(seed.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------------ the scenario's data
def test_the_scenarios_numbers_come_from_its_data():
    """'Nas 4 ilhotas colocam-se 2 fichas numeradas, nas encruzilhadas (cada ficha numerada representa uma aldeia).
    Em cada uma das aldeias são colocadas 5 fichas Catan. Coloca as 10 fichas Catan restantes ao lado do tabuleiro'
    and '50 fichas Catan como mercadorias': 8 villages x 5 + 10 = 50; 14 VP; 2 cloth a VP."""
    s = load_scenario(SLUG, 4)
    m = s.markers
    assert len(m.villages) == 8 and m.cloth_per_village == 5 and m.cloth_supply == 10
    assert len(m.villages) * m.cloth_per_village + m.cloth_supply == s.catan_chits == 50
    assert s.victory.target == 14 and s.victory.cloth_per_vp == 2 and s.victory.end_villages == 3
    assert not s.longest_route
    both = Both()
    assert both.state.village_cloth == [5] * 8 and both.state.cloth_reserve == 10
    assert both.game.village_cloth.tolist() == [5] * 8 and both.game.st[kg.ST_CLOTH_RESERVE] == 10
    assert sorted(n for _, n in both.table.villages) == [3, 4, 5, 6, 8, 9, 10, 11]


# ------------------------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("players", [3, 4])
def test_a_third_settlement_the_last_player_first_gives_the_starting_cards(players):
    """'Quando o último jogador tiver colocado a sua segunda aldeia, cada um dos jogadores, começando por ele e
    seguindo no sentido dos ponteiros do relógio, construirá uma terceira aldeia, da qual os jogadores conseguirão as
    suas matérias primas iniciais.' The snake 1..P, P..1 ends with seat 1, who starts the third round, then
    clockwise; only the third settlement pays the starting cards (one per producing hex; gold a pick)."""
    assert quote("construirá uma terceira aldeia, da qual os jogadores conseguirão as suas matérias primas iniciais")
    both = Both(players)
    order = list(range(players)) + list(range(players - 1, -1, -1)) + list(range(players))
    assert both.state.setup_order == order and both.board.setup_order.tolist() == order
    placed = collections.defaultdict(list)
    while both.state.phase != R.PRE_ROLL:
        actions = both.legal()
        if both.state.phase == R.SETUP_SETTLEMENT:
            placed[both.state.actor].append(actions[-1][1])
            action = actions[-1]
        else:
            action = actions[0]
        if both.state.phase == R.SETUP_SETTLEMENT:
            hands_before = [list(h) for h in both.state.hands]
            seat = both.state.actor
            both.step(action)
            got = [a - b for a, b in zip(both.state.hands[seat], hands_before[seat])]
            third = len(placed[seat]) == 3
            want = [0] * 5
            for h in both.topo.corner_hexes[action[1]]:
                t = both.state.terrain[h] if h >= 0 else SEA
                if FIRST_RESOURCE_TERRAIN <= t <= ORE and t != GOLD:
                    want[t - FIRST_RESOURCE_TERRAIN] += 1
            assert got == (want if third else [0] * 5)
        else:
            both.step(action)
    assert all(len(v) == 3 for v in placed.values()) and len(placed) == players
    assert both.game.hands[:players].tolist() == both.state.hands


def test_no_settlement_on_the_islets():
    """'Os membros do "povo perdido" vivem nas 4 ilhotas do centro do tabuleiro (ficha numerada = aldeia). Nessas 4
    ilhotas não se pode construir nenhuma aldeia.': no draft site and no settlement on an islet corner, even beside
    the seat's own ship."""
    assert quote("Nessas 4 ilhotas não se pode construir nenhuma aldeia")
    both = Both().main()
    islets = [h for h in range(both.topo.n_hex) if both.s.cell_zone[h] == "V"]
    assert len(islets) == 4
    corners = sorted({int(c) for h in islets for c in both.topo.hex_corners[h]})
    assert not any(both.table.view.allowed[c] for c in corners)
    assert all(both.table.no_settle[c] and both.board.no_settle[c] for c in corners)
    settlement, path = both.ship_path(0, 1)
    both.settle(settlement, 0)
    both.ship(path[0], 0)
    village = both.village(0)
    for e in both.topo.corner_edges[village]:  # ships round the islet's coast
        if e >= 0 and both.state.edge_owner[e] < 0 and (R.SHIP, int(e), 0) in R.legal(both.table, both.state):
            both.ship(int(e), 0)
    both.give(0, LUMBER, BRICK, WOOL, GRAIN)
    settles = [a for _, a, _ in both.legal() if _ == R.SETTLE]
    assert not set(settles) & set(corners)


# ------------------------------------------------------------------------------------------------ trade routes
def test_a_ship_reaching_a_village_opens_a_trade_route_and_takes_one_cloth():
    """'A partir do momento em que um jogador construa uma rota marítima entre uma aldeia sua e uma aldeia do "povo
    perdido" (ou seja, chegue a uma encruzilhada com uma ficha numerada), é estabelecida uma "rota mercantil" com essa
    aldeia. O jogador retira um pacote de mercadorias (ficha) do stock dessa aldeia.' A second ship at the same
    village opens nothing more; a rival's ship opens the rival's own route."""
    assert quote("O jogador retira um pacote de mercadorias (ficha) do stock dessa aldeia.")
    both = Both().main()
    settlement, path = both.ship_path(0, 2)
    both.settle(settlement, 0)
    both.ship(path[0], 0)
    assert both.state.cloth_routes[0] == set() and both.state.cloth == [0] * 4
    both.give(0, LUMBER, WOOL)
    assert (R.SHIP, path[1], 0) in both.legal()
    both.step((R.SHIP, path[1], 0))
    assert both.state.cloth_routes[0] == {0} and both.state.cloth[0] == 1
    assert both.state.village_cloth == [4] + [5] * 7 and both.state.cloth_reserve == 10
    village = both.village(0)
    both.give(0, LUMBER, WOOL)
    more = [int(e) for e in both.topo.corner_edges[village] if e >= 0 and e != path[1]
            and (R.SHIP, int(e), 0) in R.legal(both.table, both.state)]
    both.step((R.SHIP, more[0], 0))
    assert both.state.cloth[0] == 1 and both.state.village_cloth[0] == 4  # the same route: nothing more
    other, path1 = both.ship_path(0, 1)
    if both.state.corner_owner[other] < 0 and R._distance_ok(both.table, both.state, other):
        both.settle(other, 1)
        both.current(1)
        both.give(1, LUMBER, WOOL)
        both.step((R.SHIP, path1[0], 0))
        assert both.state.cloth_routes[1] == {0} and both.state.cloth[1] == 1 and both.state.village_cloth[0] == 3


@pytest.mark.parametrize("from_reserve", [False, True])
def test_a_route_to_an_empty_village_takes_nothing_unless_the_option_says_the_reserve(from_reserve):
    """The seed's route rule names only the village's stock ('do stock dessa aldeia'); for an empty village, the default
    reads its roll rule ('nenhum dos jogadores receberá qualquer ficha (nem das "reservas comuns")'): nothing. The
    option cloth_route_from_reserve takes one from the reserve instead (rules data [options])."""
    rules = load_rules(rule=[f"cloth_route_from_reserve={str(from_reserve).lower()}"])
    both = Both(rules=rules).main()
    both.set_cloth(villages=[0] + [5] * 7)
    settlement, path = both.ship_path(0, 1)
    both.settle(settlement, 0)
    both.give(0, LUMBER, WOOL)
    both.step((R.SHIP, path[0], 0))
    assert both.state.cloth_routes[0] == {0}
    assert both.state.cloth[0] == int(from_reserve) and both.state.cloth_reserve == 10 - int(from_reserve)


def test_moving_a_ship_onto_a_village_opens_its_route():
    """Default (rules data [cloth] route_note): a ship moved there reaches the village as a built one does."""
    both = Both().main()
    settlement, path = both.ship_path(0, 2)
    both.settle(settlement, 0)
    both.ship(path[0], 0)
    spare = [e for e in R.ship_sites(both.table, both.state, 0) if e != path[1]]
    both.ship(spare[0], 0)  # an end ship to move
    moves = [a for a in both.legal() if a[0] == R.MOVE_SHIP and a[2] == path[1]]
    assert moves
    both.step(moves[0])
    assert both.state.cloth_routes[0] == {0} and both.state.cloth[0] == 1


def test_a_roll_of_a_villages_number_pays_each_route_holder_village_first_then_the_reserve():
    """'Esse jogador receberá 1 ficha adicional quando, durante o decorrer do jogo, se obtenha nos dados o número
    dessa aldeia. Se 2 ou mais jogadores estabeleceram uma rota mercantil com a mesma aldeia cujo número saia nos
    dados, cada um deles recebe um pacote de mercadorias (ficha). Se os stocks da dita aldeia não são suficientes para
    que todos os jogadores recebam uma ficha, as fichas restantes serão retiradas das "reservas comuns".' Default:
    paid in turn order from the roller; with the reserve empty too, the rest get nothing."""
    assert quote("as fichas restantes serão retiradas das")
    both = Both().main()
    k, number = 0, both.table.villages[0][1]
    for seat in (0, 1, 2):
        both.route(seat, k)
    both.current(1)
    both.set_cloth(villages=[2] + [5] * 7, reserve=1)
    R.pay_cloth(both.table, both.state, number)
    kg.pay_cloth(both.board, both.game, number)
    both.agree()
    assert both.state.cloth == [1, 1, 1, 0] and both.state.village_cloth[0] == 0 and both.state.cloth_reserve == 0
    both.set_cloth(villages=[1] + [5] * 7, reserve=0)
    R.pay_cloth(both.table, both.state, number)
    kg.pay_cloth(both.board, both.game, number)
    both.agree()
    assert both.state.cloth == [1, 2, 1, 0]  # the roller's seat first, then nothing left for the others
    other = next(n for _, n in both.table.villages if n != number)
    R.pay_cloth(both.table, both.state, other)
    kg.pay_cloth(both.board, both.game, other)
    assert both.state.cloth == [1, 2, 1, 0]  # another number pays only its own village's holders (none)


def test_a_village_with_no_cloth_left_pays_nothing_not_even_from_the_reserve():
    """'Se sai nos dados o número de uma aldeia na qual já não existam fichas, nenhum dos jogadores receberá qualquer
    ficha (nem das "reservas comuns").'"""
    assert quote("nem das")
    both = Both().main()
    number = both.table.villages[3][1]
    both.route(0, 3)
    both.route(2, 3)
    both.set_cloth(villages=[5, 5, 5, 0, 5, 5, 5, 5], reserve=10)
    R.pay_cloth(both.table, both.state, number)
    kg.pay_cloth(both.board, both.game, number)
    both.agree()
    assert both.state.cloth == [0] * 4 and both.state.cloth_reserve == 10


def test_a_real_roll_pays_the_route_holders():
    """The roll itself (the dice stream of the game): a game whose first roll is a village's number pays its route
    holder one cloth from the village, in both engines."""
    both = None
    for g in range(200):
        dice = Stream(1, g, PURPOSE_DICE)
        v = dice.next_u64()
        while v >= R.PAIR_LIMIT:
            v = dice.next_u64()
        total = v % 36 // 6 + v % 36 % 6 + 2
        villages = [k for k, (_, n) in enumerate(load_scenario(SLUG, 4).markers.villages) if n == total]
        if villages:
            both = Both(g=g).main()
            break
    k = villages[0]
    both.route(3, k)
    both.state.phase = both.game.st[kg.ST_PHASE] = R.PRE_ROLL
    both.step((R.ROLL, 0, 0))
    assert both.state.last_roll == total and both.state.cloth == [0, 0, 0, 1]
    assert both.state.village_cloth[k] == 4


def test_two_cloth_are_one_vp_and_an_odd_cloth_is_no_half_point():
    """'2 pacotes de mercadorias (fichas) equivalem a 1 ponto. Atenção: 1 ficha não equivale a meio ponto.'"""
    assert quote("1 ficha não equivale a meio ponto")
    both = Both().main()
    base = R.total_vp(both.table, both.state, 0)
    vp = np.zeros(kg.N_VP_SOURCES, np.int64)
    for cloth, want in ((0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (7, 3)):
        both.set_cloth(seats=[cloth, 0, 0, 0])
        both.agree()
        assert R.total_vp(both.table, both.state, 0) - base == want
        assert R.victory_points(both.table, both.state, 0)["cloth"] == want
        kg.vp_sources(both.board, both.game, 0, vp)
        assert vp[kg.VP_COLS.index("vp_cloth")] == want


def test_the_ships_of_a_trade_route_never_move():
    """'Quando um jogador constrói uma rota marítima entre uma aldeia sua e uma aldeia do "povo perdido", a rota é
    considerada fechada. Significa isto que não se pode recolocar nenhum barco.' The same ships one edge short of the
    village are an open route whose end ship moves; a ship going on beyond the village is the end of an open route
    (default: rules data [cloth] closed_note)."""
    assert quote("a rota é considerada fechada")
    both = Both().main()
    settlement, path = both.ship_path(0, 3)
    both.settle(settlement, 0)
    both.ship(path[0], 0)
    both.ship(path[1], 0)
    moving = {a for kind, a, _ in both.legal() if kind == R.MOVE_SHIP}
    assert moving == {path[1]}  # open: its end ship moves
    both.ship(path[2], 0)
    assert both.state.cloth_routes[0] == {0}
    assert not [a for a in both.legal() if a[0] == R.MOVE_SHIP]  # closed: none moves
    village = both.village(0)
    beyond = [int(e) for e in both.topo.corner_edges[village] if e >= 0 and e != path[2]
              and e in R.ship_sites(both.table, both.state, 0)]
    both.ship(beyond[0], 0)
    assert {a for kind, a, _ in both.legal() if kind == R.MOVE_SHIP} == {beyond[0]}


# ------------------------------------------------------------------------------------------------ robber and pirate
def test_the_robber_starts_on_the_12_fields_and_never_goes_to_the_islets():
    """'O ladrão começa o jogo na lavoura marcada com um "12", e não poderá deslocar-se para nenhuma das ilhotas do
    "povo perdido".'"""
    assert quote("O ladrão começa o jogo na lavoura marcada com um")
    both = Both().main()
    start = both.state.robber
    assert both.table.terrain[start] == FIRST_RESOURCE_TERRAIN + GRAIN and both.table.number[start] == 12
    assert both.game.st[kg.ST_ROBBER] == start
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    robber = [a for kind, a, _ in both.legal() if kind == R.MOVE_ROBBER]
    islets = {h for h in range(both.topo.n_hex) if both.s.cell_zone[h] == "V"}
    assert robber and not islets & set(robber)
    land = {h for h in range(both.topo.n_hex) if both.s.cell_zone[h] == "A" and both.table.terrain[h] != SEA}
    assert set(robber) == land - {start}


def test_only_a_player_with_a_trade_route_may_move_the_pirate():
    """'os jogadores apenas poderão mover o pirata a partir do momento em que tenham pelo menos uma rota mercantil com
    uma das aldeias do "povo perdido".' The mover's route counts (on a 7 or with a knight): without one it moves the
    robber only."""
    assert quote("apenas poderão mover o pirata")
    both = Both().main()
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    both.route(2, 5)  # another seat's route is no help
    kinds = {a[0] for a in both.legal()}
    assert kinds == {R.MOVE_ROBBER}
    both.route(0, 1)
    kinds = {a[0] for a in both.legal()}
    assert kinds == {R.MOVE_ROBBER, R.MOVE_PIRATE}
    both.state.cloth_routes[0].clear()
    both.game.cloth_route[0, :] = False
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MAIN
    both.state.cards[0][R.KNIGHT] = both.game.cards[0, kg.KNIGHT] = 1
    both.step((R.PLAY_KNIGHT, 0, 0))
    assert {a[0] for a in both.legal()} == {R.MOVE_ROBBER}


def test_the_pirates_mover_steals_a_card_or_a_cloth_from_a_player_with_a_ship_there():
    """'O jogador que mova o pirata poderá escolher entre roubar uma carta de matéria-prima ou uma ficha Catan (pacote
    de mercadorias) a um dos jogadores que tenha um barco no hexágono onde seja colocado o pirata.' Default: two kinds
    of action, steal (a random card, as any steal) and steal_cloth (one cloth); a victim with only cloth may still be
    robbed; the robber's steal takes only cards."""
    assert quote("poderá escolher entre roubar uma carta de matéria-prima ou uma ficha Catan")
    both = Both().main()
    settlement, path = both.ship_path(2, 2)
    both.settle(settlement, 1)
    both.ship(path[0], 1)
    sea = next(int(h) for h in both.topo.edge_hexes[path[0]] if h >= 0 and both.table.terrain[h] == SEA
               and both.table.pirate_hexes[h] and h != both.state.pirate)
    both.give(1, ORE_CARD, ORE_CARD)
    both.set_cloth(seats=[0, 3, 0, 0])
    both.route(0, 4)
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    both.step((R.MOVE_PIRATE, sea, 0))
    assert both.state.phase == R.STEAL
    assert both.legal() == [(R.STEAL_FROM, 1, 0), (R.STEAL_CLOTH, 1, 0)]
    both.step((R.STEAL_CLOTH, 1, 0))
    assert both.state.cloth[:2] == [1, 2] and both.state.hands[1][ORE_CARD] == 2 and both.state.phase == R.MAIN
    both.state.hands[1][ORE_CARD] = both.game.hands[1, ORE_CARD] = 0  # cloth only
    both.state.bank[ORE_CARD] = both.game.bank[ORE_CARD] = both.state.bank[ORE_CARD] + 2
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    other = next(h for h in np.flatnonzero(both.table.pirate_hexes).tolist() if h != sea)
    both.step((R.MOVE_PIRATE, other, 0))
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    both.step((R.MOVE_PIRATE, sea, 0))
    assert both.legal() == [(R.STEAL_CLOTH, 1, 0)]
    robber_hex = next(int(h) for h in both.topo.corner_hexes[settlement] if h >= 0 and both.table.robber_hexes[h]
                      and h != both.state.robber)
    both.give(1, ORE_CARD)
    both.state.phase = both.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    both.step((R.MOVE_ROBBER, robber_hex, 0))
    assert both.legal() == [(R.STEAL_FROM, 1, 0)]  # the robber: cards only


# ------------------------------------------------------------------------------------------------ VP cards and end
def test_no_longest_trade_route_card_but_the_largest_army():
    """'Este cenário não se joga com a carta "Maior estrada comercial", contudo, pode conseguir-se obter a carta
    "Maior exército de cavalaria".'"""
    assert quote("Este cenário não se joga com a carta")
    both = Both().main()
    settlement, path = both.ship_path(0, 3)
    both.settle(settlement, 0)
    for e in path:
        both.ship(e, 0)
    village = both.village(0)
    while R.longest_route(both.table, both.state, 0) < 6:
        nxt = [e for e in R.ship_sites(both.table, both.state, 0) if e not in path]
        both.ship(nxt[-1], 0)
    assert kg.final_route(both.board, both.game, 0) == R.longest_route(both.table, both.state, 0) >= 6
    assert both.state.route_holder == -1 and both.game.st[kg.ST_ROUTE_HOLDER] == -1
    assert R.victory_points(both.table, both.state, 0)["longest_route"] == 0 and village >= 0
    both.state.cards[0][R.KNIGHT] = both.game.cards[0, kg.KNIGHT] = 3
    for _ in range(3):
        both.state.dev_played = False
        both.game.st[kg.ST_DEV_PLAYED] = 0
        both.step((R.PLAY_KNIGHT, 0, 0))
        both.step(both.legal()[0])  # the robber somewhere
        if both.state.phase == R.STEAL:
            both.step(both.legal()[0])
    assert both.state.army_holder == 0 and both.game.st[kg.ST_ARMY_HOLDER] == 0
    assert R.victory_points(both.table, both.state, 0)["largest_army"] == 2


def _end_position(vp, cloth, current=0):
    """Four villages holding cloth, a fifth with one left that seat `current`'s route-opening ship takes: only 3 then
    hold cloth. Seats' VP set with VP cards (vp) and cloth as given."""
    both = Both().main()
    both.current(current)
    settlement, path = both.ship_path(0, 1)
    both.settle(settlement, current)
    both.set_cloth(villages=[1, 5, 5, 0, 0, 0, 0, 5], reserve=10, seats=cloth)
    for seat, v in enumerate(vp):
        have = R.total_vp(both.table, both.state, seat)
        both.state.cards[seat][R.VP_CARD] += v - have
        both.game.cards[seat, kg.VP_CARD] += v - have
    both.give(current, LUMBER, WOOL)
    both.agree()
    return both, path[0]


def test_the_game_ends_when_only_three_villages_hold_cloth_and_the_most_vp_wins():
    """'O jogo termina ... quando apenas restem fichas em 3 das aldeias do "povo perdido". Neste último caso, vence o
    jogador com mais pontos de vitória.' Four villages hold cloth: play goes on; the ship that takes the last cloth of
    one of them ends the game the moment it is built, and the most VP wins (not the player on turn)."""
    assert quote("quando apenas restem fichas em 3 das aldeias")
    both, ship = _end_position(vp=[5, 9, 7, 3], cloth=[0, 0, 0, 0])
    assert both.state.phase == R.MAIN
    both.step((R.SHIP, ship, 0))
    assert both.state.phase == R.OVER and both.state.cloth_end and both.state.winner == 1
    assert R.result(both.table, both.state)["cloth_end"]
    out = np.zeros((kg.N_RESULT_COLS, 1), np.int64)
    kg.write_result(both.board, both.game, out, 0, np.zeros(kg.N_VP_SOURCES, np.int64))
    assert out[kg.R_CLOTH_END, 0] == 1 and out[kg.R_WINNER, 0] == 1


def test_a_tie_on_vp_goes_to_the_most_cloth_then_to_turn_order_from_the_player_on_turn():
    """'Em caso de empate, vence o jogador com mais pacotes de mercadoria.' Still tied (the seed is silent): the
    tied player first in turn order from the player on turn (rules data [cloth] end_note)."""
    assert quote("Em caso de empate, vence o jogador com mais pacotes de mercadoria")
    both, ship = _end_position(vp=[6, 8, 8, 8], cloth=[0, 2, 5, 4])  # seat 2: 5 cloth; the ship gives seat 0 one
    both.step((R.SHIP, ship, 0))
    assert both.state.winner == 2 and both.state.cloth_end
    both, ship = _end_position(vp=[6, 8, 3, 8], cloth=[0, 4, 0, 4], current=2)
    both.step((R.SHIP, ship, 0))
    assert both.state.winner == 3  # seats 1 and 3 tied on VP and cloth: seat 3 comes first from seat 2


def test_the_target_vp_on_ones_own_turn_wins_first():
    """'O jogo termina no momento em que um jogador consegue 14 pontos no seu próprio turno': the ship that ends the
    villages' stock and brings the player on turn to 14 VP wins it that way, whoever has more."""
    both, ship = _end_position(vp=[13, 15, 0, 0], cloth=[1, 0, 0, 0])
    both.step((R.SHIP, ship, 0))  # its cloth: 2, a VP: 14
    assert both.state.winner == 0 and not both.state.cloth_end and both.state.phase == R.OVER


# ------------------------------------------------------------------------------------------------ bots
def _decide(both, bot):
    policies, params = bot_vectors([parse_bot(bot)] * 4)
    streams = np.zeros((kg.MAX_SEATS, 2), np.uint64)
    stream_init(streams[0], 9, 0, PURPOSE_POLICY)
    n = kg.legal(both.board, both.game)
    seat = both.game.st[kg.ST_ACTOR]
    i = kp.decide(both.board, both.game, n, policies[seat], params[seat], streams[seat], kp.bot_work(both.board))
    return tuple(both.game.actions[i])


def test_the_value_bot_opens_a_trade_route_and_the_scenario_blind_copy_does_not_care():
    """The goals weight: a ship that reaches a village is worth its cloth (village_value); value:goals=0 scores it as
    any ship (its reach only)."""
    from kernels.catan import bots as kb

    both = Both().main()
    settlement, path = both.ship_path(0, 2)
    both.settle(settlement, 0)
    both.ship(path[0], 0)
    both.give(0, LUMBER, WOOL)
    assert _decide(both, "value") == (R.SHIP, path[1], 0)
    assert _decide(both, "planner") == (R.SHIP, path[1], 0)
    _, params = bot_vectors([parse_bot("value"), parse_bot("value:goals=0")])
    # village 0 (number 10, 3 pips, 5 cloth): one cloth now + 3 pips x 30 rolls / 36 later, half a VP (10) each
    assert kb.ship_cloth(both.board, both.game, params[0], 0, path[1]) == pytest.approx(10 * (1 + 3 * 30 / 36) / 2)
    assert kb.ship_cloth(both.board, both.game, params[1], 0, path[1]) == 0
    both.set_cloth(villages=[0] + [5] * 7)  # an empty village is worth nothing
    assert kb.ship_cloth(both.board, both.game, params[0], 0, path[1]) == 0


def test_the_value_bot_steals_a_cloth_when_it_wins_a_vp():
    from kernels.catan import bots as kb

    both = Both().main()
    _, params = bot_vectors([parse_bot("value"), parse_bot("value:goals=0")])
    both.set_cloth(seats=[1, 2, 0, 0])  # a cloth makes seat 0's second and costs seat 1 a VP
    assert kb.steal_cloth_value(both.board, both.game, params[0], 0, 1) > 10
    assert kb.steal_cloth_value(both.board, both.game, params[1], 0, 1) == 0


# ------------------------------------------------------------------------------------------------ the command
def test_the_command_plays_cloth_for_catan_and_names_its_defaults(tmp_path, capsys):
    """`tabletop seafarers play --scenario cloth-for-catan`: the report names the cloth rules, the defaults where the
    seed is silent and the option in force; the per-game table has the villages' end and each seat's cloth; a VP
    total is its sources, cloth included. Other scenarios' reports say nothing of cloth."""
    import json

    import polars as pl

    from analyzer.seafarers.full_game import play_games
    from tests.support import run_cli

    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "play", "--scenario", SLUG, "--players", "4", "--games", "12", "--seed",
                                 "2", "--rule", "cloth_route_from_reserve=true", "--no-progress", "--out", str(out)],
                                capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    report = (out / "report.md").read_text()
    assert "Defaults where the rulebook is silent (rules data [cloth])" in report
    assert "takes one cloth from the common reserve" in report  # the option as switched
    assert "ended because only 3 villages still held cloth" in report and "| cloth (VP) |" in report
    assert summary["rule_options"]["cloth_route_from_reserve"] is True
    assert set(summary["cloth_end"]) >= {"games", "share", "ci95"} and len(summary["cloth"]) == 4
    games = pl.read_parquet(out / "games.parquet")
    assert {"cloth_end", "vp_cloth", "cloth"} <= set(games.columns)
    sources = [c for c in games.columns if c.startswith("vp_")]
    assert (games["vp"] == games.select(sources).sum_horizontal()).all()
    assert (games["vp_cloth"] == games["cloth"] // 2).all() and games["cloth"].sum() > 0
    assert (games["vp_longest_route"] == 0).all()
    code, _, err = run_cli(["seafarers", "play", "--scenario", SLUG, "--rule", "cloth_route_from_reserve=maybe",
                            "--out", str(tmp_path / "p")], capsys)
    assert code == 2 and err.count("\n") == 1 and "cloth_route_from_reserve" in err
    other = play_games("new-shores", 3, ["random"] * 3, 4, 5, threads=1, progress=False).summary
    assert "cloth_end" not in other and not any("cloth" in a.lower() for a in other["assumptions"])
    assert "vp_cloth" not in other["seats"][0]["vp_sources"]
