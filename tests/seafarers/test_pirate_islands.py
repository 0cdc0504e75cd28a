"""The Pirate Islands (seed 002, CENÁRIO 7: AS ILHAS DOS PIRATAS) in full games: every special rule on a hand-built
position of the printed board, in the reference (analyzer/seafarers/full_reference.py) and the kernel
(kernels/catan/game.py, kernels/catan/fleet.py) alike, the seed's words quoted; the rules data's defaults where the
seed is silent (analyzer/seafarers/data/rules/full_game.toml [pirates]) and their switches."""

import numpy as np
import pytest

from analyzer.rng_reference import Stream
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.full_rules import load_rules
from kernels.catan import fleet as kf
from kernels.catan import game as kg
from tests.seafarers.test_forgotten_tribe import Both as FTBoth
from tests.seafarers.test_forgotten_tribe import said

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)


class Both(FTBoth):
    """The printed board in both engines, the pre-placed pieces set out, the draft skipped: seat 0 to play (rolled).
    The Forgotten Tribe's hand-building (settle, lay, give, legal) on this scenario, every step checked in both."""

    SLUG = "pirate-islands"

    def main(self, seat, phase=R.MAIN):
        self.state.phase, self.state.actor, self.state.current = phase, seat, seat
        self.game.st[kg.ST_PHASE], self.game.st[kg.ST_ACTOR], self.game.st[kg.ST_CURRENT] = phase, seat, seat

    def card(self, seat, kind=R.KNIGHT):
        self.state.cards[seat][kind] += 1
        self.game.cards[seat, kind] += 1

    def route(self, seat, ships):
        """`ships` more ships on the seat's route, each the first site listed (free)."""
        for _ in range(ships):
            e = R.route_sites(self.table, self.state, seat)[0]
            R._place_edge(self.table, self.state, seat, e, True)
            self.state.fort_route[seat].append(e)
            self.state.fort_war[seat].append(False)
            kg._place_edge(self.board, self.game, seat, e, 1)
            kf.extend(self.board, self.game, seat, e)
        R._update_route(self.table, self.state)
        kg._update_routes(self.board, self.game)

    def warships(self, seat, k):
        for _ in range(k):
            R.warship(self.state, seat)
            kf.warship(self.game, seat)

    def fleet_at(self, i):
        self.state.fleet = self.game.st[kg.ST_FLEET] = i

    def force(self, values, die=False):
        """The next draw of both engines' dice streams gives `values`: a pair index 6 (d1 - 1) + (d2 - 1), or (die) a
        die's face (the streams are counter-based: skip ahead to a draw that does)."""
        key, k = self.state.dice.key, self.state.dice.count
        probe = Stream(0, 0, 0)
        probe.key = key
        while True:
            probe.count = k
            v = probe.next_u64()
            if (v % 6 + 1 if die else v % 36) == values:
                break
            k += 1
        self.state.dice.count = k
        self.game.dice[1] = np.uint64(k)

    def step(self, action):
        super().step(action)
        self.same()

    def same(self):
        s, g, p = self.state, self.game, self.table.players
        assert g.hands[:p].tolist() == s.hands and g.bank.tolist() == s.bank
        assert g.st[kg.ST_PHASE] == s.phase and g.st[kg.ST_ACTOR] == s.actor and g.st[kg.ST_FLEET] == s.fleet
        assert g.corner_owner.tolist() == s.corner_owner and g.edge_owner.tolist() == s.edge_owner
        assert g.pieces_left[:p].tolist() == s.pieces_left and g.gold[:p].tolist() == s.gold
        for seat in range(p):
            n = g.fort[seat, kf.F_LEN]
            assert g.fort[seat, kf.F_EDGE:kf.F_EDGE + n].tolist() == s.fort_route[seat]
            assert g.fort[seat, kf.F_WAR:kf.F_WAR + n].tolist() == [int(w) for w in s.fort_war[seat]]
            assert g.fort[seat, kf.F_CHITS] == s.fort_chits[seat]
            assert kg.total_vp(self.board, g, seat) == R.total_vp(self.table, s, seat)

    def fort(self, seat):
        return self.table.forts[seat]

    def land_corner(self, h, free=True):
        """A land corner of hex h (no building there when `free`)."""
        return next(int(c) for c in self.topo.hex_corners[h]
                    if c >= 0 and R._corner_land(self.table, self.state, c)
                    and (not free or self.state.corner_owner[c] < 0))


def pair(d1, d2):
    return 6 * (d1 - 1) + (d2 - 1)


def test_the_set_up_places_a_settlement_and_a_ship_per_player_and_keeps_the_deck():
    """'Na linha costeira da ilha oriental são colocados uma aldeia e um barco por jogador'; 'Cada fortaleza pirata é
    composta por 3 fichas Catan'; 'A frota pirata ... começa no hexágono de mar marcado com um "X". Neste cenário não
    há ladrão.'; 'se jogar com 3 jogadores, são retirados todos os componentes de cor branca ... também se retiram as
    cartas de pontos de vitória ... Se o jogo é com 4 jogadores, as cartas de pontos de vitória são mantidas no
    baralho, mas contam como cartas de cavaleiro'; 'constrói 2 aldeias na ilha oriental, seguindo as regras normais'."""
    for words in ("são colocados uma aldeia e um barco por jogador", "Neste cenário não há ladrão.",
                  "mas contam como cartas de cavaleiro", "também se retiram as cartas de pontos de vitória"):
        assert said(words)
    rules = load_rules()
    for players in (3, 4):
        b = Both(players)
        s, g = b.state, b.game
        assert len(b.table.forts) == players and [f.slot for f in b.table.forts] == list(range(players))
        for seat, f in enumerate(b.table.forts):
            assert s.corner_owner[f.settlement] == seat and s.edge_owner[f.ship] == seat and s.edge_ship[f.ship]
            assert s.fort_route[seat] == [f.ship] and s.fort_chits[seat] == 3
            assert s.pieces_left[seat] == [15, 14, 4, 4]
        assert s.fleet == 0 and not b.table.has_robber and not b.table.has_pirate
        knights = rules.deck["knight"] + (rules.deck["victory_point"] if players == 4 else 0)  # the deck's VP cards
        assert sorted(s.deck) == sorted([R.KNIGHT] * knights + [R.ROAD_BUILDING] * 2 + [R.YEAR_OF_PLENTY] * 2
                                        + [R.MONOPOLY] * 2)
        assert g.deck[:b.board.params[kg.P_DECK_LEN]].tolist() == s.deck
        # the draft: settlements only on the eastern island, the distance rule from the pre-placed ones
        fresh = R.init(b.table, 1, 0)
        sites = [c for _, c, _ in R.legal(b.table, fresh)]
        east = set(b.table.scenario.areas[0].hexes)
        assert sites and all(any(h in east for h in b.topo.corner_hexes[c]) for c in sites)
        assert not {f.settlement for f in b.table.forts} & set(sites)


def test_a_route_is_built_by_the_shortest_way_through_the_marked_corner_and_never_moves():
    """'Cada um dos jogadores só pode construir uma única rota marítima ... até à fortaleza pirata da cor respectiva,
    passando pela encruzilhada marcada com a mesma cor. Esta rota marítima não poderá dividir-se e não poderá
    continuar para além da fortaleza pirata. A rota deverá construir-se de modo a que chegue ao seu objectivo pelo
    caminho mais curto. Não poderá bloquear outras rotas marítimas.'"""
    assert said("A rota deverá construir-se de modo a que chegue ao seu objectivo pelo caminho mais curto.")
    b = Both()
    for seat in range(4):
        f = b.fort(seat)
        to_colour, to_fort = b.table.fort_dist[seat]
        b.main(seat)
        b.give(seat, *[LUMBER, WOOL] * 12)
        built = 1
        while True:
            acts = b.legal()
            ships = [a for k, a, _ in acts if k == R.SHIP]
            assert not [a for a in acts if a[0] == R.MOVE_SHIP]  # a route ship never moves
            end = R.route_end(b.table, b.state, seat)
            if end == f.fortress:
                assert not ships and (R.ATTACK, 0, 0) in acts  # nothing beyond the fortress
                break
            assert (R.ATTACK, 0, 0) not in acts
            passed = built >= to_colour[f.settlement]
            dist = to_fort if passed else to_colour
            around = [int(e) for e in b.topo.corner_edges[end] if e >= 0]
            assert ships and set(ships) <= set(f.lanes) | {f.ship} and set(ships) <= set(around)
            for e in ships:  # each one ship nearer its goal
                far = [c for c in R._ends(b.table, e) if c != end][0]
                assert dist[far] == dist[end] - 1
            b.step((R.SHIP, ships[-1], 0))
            built += 1
        assert built == to_colour[f.settlement] + to_fort[f.colour_corner]
        assert f.colour_corner in [c for e in b.state.fort_route[seat] for c in R._ends(b.table, e)]
    # lanes are disjoint: no route blocks another
    lanes = [set(f.lanes) | {f.ship} for f in b.table.forts]
    assert all(not lanes[i] & lanes[j] for i in range(4) for j in range(i + 1, 4))


def test_a_knight_turns_the_foremost_normal_ship_into_a_warship():
    """'Quando um jogador joga uma carta de cavaleiro ... poderá transformar o barco "normal" mais adiantado da sua
    rota marítima num navio de guerra.' A knight is played only while there is a normal ship to turn (option
    knight_without_ship); it moves no robber and counts for no army ('Neste cenário não são usadas as cartas
    especiais "Maior estrada comercial" e "Maior exército de cavalaria"')."""
    assert said('transformar o barco "normal" mais adiantado da sua rota marítima num navio de guerra')
    b = Both()
    b.route(0, 2)
    for k in range(3):
        b.card(0)
        b.step((R.PLAY_KNIGHT, 0, 0))
        assert b.state.fort_war[0] == [False] * (2 - k) + [True] * (k + 1)
        b.state.dev_played, b.game.st[kg.ST_DEV_PLAYED] = False, 0
    assert b.state.army_holder == -1 and b.state.knights[0] == 3
    b.card(0)
    assert (R.PLAY_KNIGHT, 0, 0) not in b.legal()  # every ship a warship
    b.route(0, 1)  # a new normal ship at the front
    b.step((R.PLAY_KNIGHT, 0, 0))
    assert b.state.fort_war[0] == [True] * 4
    b = Both(rule=["knight_without_ship=true"])
    b.warships(0, 1)
    b.card(0)
    b.step((R.PLAY_KNIGHT, 0, 0))  # played for nothing
    assert b.state.fort_war[0] == [True] and b.state.cards[0][R.KNIGHT] == 0


def test_the_fleet_moves_clockwise_by_the_lower_die_first():
    """'Cada vez que um jogador lança os dados, move primeiro a frota pirata. Esta irá mover-se, seguindo as setas da
    ilustração, um número de hexágonos igual ao valor do dado menor (se os números forem iguais, move-se esse número
    de casas).'"""
    assert said("um número de hexágonos igual ao valor do dado menor")
    b = Both()
    path = b.table.fleet_path
    where = 0
    for d1, d2 in ((3, 5), (6, 6), (2, 1), (4, 4), (5, 6)):
        b.main(b.state.current, R.PRE_ROLL)
        b.force(pair(d1, d2))
        b.step((R.ROLL, 0, 0))
        where = (where + min(d1, d2)) % len(path)
        assert b.state.fleet == where
    assert len(path) == 14 and path[0] == b.table.scenario.pirate.hex


def test_a_raid_the_pirates_win_takes_a_card_and_one_per_city():
    """'Isto ocorre antes dos jogadores recolherem as suas matérias primas ... A força do ataque pirata equivale ao
    número do dado menor. A força do jogador ... equivale ao número de navios de guerra que tenha. No caso de o pirata
    ser o mais forte, o jogador perderá uma carta de matéria-prima, e 1 adicional por cada cidade que tenha. Estas
    cartas serão retiradas por um outro jogador escolhido, sem as ver; estas cartas retornarão ao seu respectivo
    baralhos comuns.'"""
    assert said("perderá uma carta de matéria-prima, e 1 adicional por cada cidade que tenha")
    b = Both()
    b.settle(b.land_corner(b.table.fleet_path[3]), 1)
    for c in b.table.view.allowed.nonzero()[0][-2:]:  # two cities elsewhere: 3 cards lost
        b.settle(int(c), 1, city=True)
    b.give(1, LUMBER, LUMBER, BRICK, ORE, ORE)
    b.warships(1, 1)
    bank = sum(b.state.bank)
    b.main(0, R.PRE_ROLL)
    b.force(pair(3, 4))  # the fleet to index 3, strength 3 > 1 warship; a 7 after it, no discards
    b.step((R.ROLL, 0, 0))
    assert sum(b.state.hands[1]) == 2 and sum(b.state.bank) == bank + 3 and b.state.phase == R.STEAL
    # as many as held
    b = Both()
    b.settle(b.land_corner(b.table.fleet_path[2]), 2, city=True)
    b.settle(int(b.table.view.allowed.nonzero()[0][-1]), 2, city=True)
    b.give(2, WOOL)
    b.main(0, R.PRE_ROLL)
    b.force(pair(2, 5))  # strength 2 > 0 warships: 3 owed, 1 held
    b.step((R.ROLL, 0, 0))
    assert b.state.hands[2] == [0] * 5


def test_a_raid_the_player_wins_gives_a_card_of_its_choice_before_the_production():
    """'No caso de ser o jogador o mais forte, este obterá uma carta de matéria-prima à sua escolha.' 'Isto ocorre
    antes dos jogadores recolherem as suas matérias primas ou de se resolverem os efeitos de um "7".' 'Se ambas as
    partes são de igual força, nada acontecerá.'"""
    assert said("No caso de ser o jogador o mais forte, este obterá uma carta de matéria")
    assert said("Se ambas as partes são de igual força, nada acontecerá.")
    b = Both()
    h = b.table.fleet_path[2]
    b.settle(b.land_corner(h), 1)
    b.route(1, 3)
    b.warships(1, 3)
    b.main(0, R.PRE_ROLL)
    b.force(pair(2, 5))  # strength 2 < 3 warships; then 7
    b.step((R.ROLL, 0, 0))
    assert b.state.phase == R.GOLD_PICK and b.state.actor == 1 and b.state.last_roll == 7
    b.step((R.PICK_GOLD, ORE, 0))
    assert b.state.hands[1][ORE] == 1 and b.state.phase in (R.STEAL, R.MAIN)  # then the 7: the roller's steal
    assert (R.STEAL_FROM, 1, 0) in b.legal()
    # a tie: nothing
    b = Both()
    b.settle(b.land_corner(b.table.fleet_path[2]), 1)
    b.route(1, 2)
    b.warships(1, 2)
    b.main(0, R.PRE_ROLL)
    b.force(pair(2, 2))  # a 4: production after the raid
    b.step((R.ROLL, 0, 0))
    assert b.state.phase == R.MAIN and b.state.gold == [0] * 4


def test_every_player_at_the_fleets_hex_is_raided_unless_the_sole_owner_option():
    """'essa aldeia ou cidade é atacada imediatamente': the seed names no exemption when several players have a
    building at the hex; each is raided (option raid_sole_owner: only a lone one, JSettlers2's reading)."""
    for rule, raided in ((None, True), (["raid_sole_owner=true"], False)):
        b = Both(rule=rule)
        h = b.table.fleet_path[4]
        corners = [int(c) for c in b.topo.hex_corners[h] if R._corner_land(b.table, b.state, c)]
        b.settle(corners[0], 1)
        b.settle(corners[-1], 2)
        b.give(1, WOOL)
        b.give(2, WOOL)
        b.fleet_at(1)
        b.main(0, R.PRE_ROLL)
        b.force(pair(3, 4))  # to index 4, strength 3 > 0; a 7 after it
        b.step((R.ROLL, 0, 0))
        assert (b.state.hands[1][WOOL], b.state.hands[2][WOOL]) == ((0, 0) if raided else (1, 1))


def test_a_seven_lets_the_roller_rob_any_player():
    """'Neste cenário não há ladrão. Ainda assim, quando sai um "7", cada jogador que tenha mais de 7 cartas de
    matéria-prima perderá metade das suas cartas, como habitual. Em seguida, o jogador ao qual calhou o "7" poderá
    roubar uma carta a um jogador à sua escolha.'"""
    assert said('o jogador ao qual calhou o "7" poderá roubar uma carta a um jogador à sua escolha')
    b = Both()
    b.give(3, *[GRAIN] * 9)
    b.give(1, ORE)
    b.main(0, R.PRE_ROLL)
    b.force(pair(1, 6))  # the fleet to index 1 (nobody there), a 7
    b.step((R.ROLL, 0, 0))
    assert b.state.phase == R.DISCARD and b.state.actor == 3
    for _ in range(4):
        b.step((R.DISCARD_CARD, GRAIN, 0))
    # 'poderá': or nothing (option pirate_seven_steal_optional; tests/seafarers/test_rulebook.py)
    assert b.state.phase == R.STEAL and b.legal() == [(R.STEAL_FROM, 1, 0), (R.STEAL_FROM, 3, 0), (R.NO_STEAL, 0, 0)]
    b.step((R.STEAL_FROM, 1, 0))
    assert b.state.hands[0][ORE] == 1 and b.state.phase == R.MAIN


def complete(b, seat, warships):
    """The seat's route to its fortress, its `warships` foremost ships warships."""
    while R.route_sites(b.table, b.state, seat):
        b.route(seat, 1)
    b.warships(seat, warships)


@pytest.mark.parametrize("die, chits, ships", [(2, 2, 9), (3, 3, 8), (5, 3, 7)])
def test_a_fortress_battle(die, chits, ships):
    """'No momento em que um jogador alcance a fortaleza pirata da sua cor através de uma rota marítima ... esse
    jogador poderá atacar a fortaleza pirata. O jogador rola um dado ... Se o número de navios de guerra na rota
    marítima é maior que o valor do dado, o jogador ganha e pode recolher uma das fichas ... Se o número de navios de
    guerra é menor, o jogador perde a batalha e perde os dois barcos mais adiantados. Em caso de empate, o jogador
    perde o barco mais adiantado. O turno do jogador acaba depois da batalha'"""
    assert said("Em caso de empate, o jogador perde o barco mais adiantado.")
    assert said("O turno do jogador acaba depois da batalha")
    b = Both()
    assert (R.ATTACK, 0, 0) not in b.legal()
    complete(b, 0, 3)
    route = list(b.state.fort_route[0])
    b.force(die, die=True)
    b.step((R.ATTACK, 0, 0))
    assert b.state.fort_chits[0] == chits and b.state.fort_route[0] == route[:ships]
    assert b.state.pieces_left[0][1] == 15 - ships
    assert b.state.current == 1 and b.state.phase == R.PRE_ROLL  # the turn ended
    if ships < 9:  # 'terá de construir 1 ou 2 barcos para voltar a atacar'
        b.main(0)
        assert (R.ATTACK, 0, 0) not in b.legal()
        assert R.route_sites(b.table, b.state, 0)[0] == route[ships]


def test_the_conquered_fortress_is_the_players_settlement_and_the_fleet_leaves_when_all_fell():
    """'Quando a fortaleza pirata perde as suas três fichas, o jogador terá conseguido eliminar os piratas e
    reconquistado a aldeia. A partir desse momento, o jogador obterá as matérias-primas dessa aldeia, assim como o
    ponto de vitória pela mesma.' 'Se todas as fortalezas piratas são conquistadas antes que um dos jogadores consiga
    10 pontos, retira-se de jogo a frota pirata.'"""
    assert said("assim como o ponto de vitória pela mesma")
    assert said("retira-se de jogo a frota pirata")
    b = Both(players=3)
    complete(b, 0, 5)
    b.state.fort_chits[1:] = [0, 0]
    b.game.fort[1:3, kf.F_CHITS] = 0
    for k in range(3):
        b.main(0)
        vp = R.total_vp(b.table, b.state, 0)
        b.force(1, die=True)
        b.step((R.ATTACK, 0, 0))
    f = b.fort(0)
    assert b.state.corner_owner[f.fortress] == 0 and b.state.corner_building[f.fortress] == 1
    assert R.total_vp(b.table, b.state, 0) == vp + 1 and b.state.pieces_left[0][2] == 3
    assert b.state.fleet == -1 and b.game.st[kg.ST_FLEET] == -1
    # the conquered settlement produces (gold: a card of its choice)
    h = next(int(h) for h in b.topo.corner_hexes[f.fortress] if h >= 0 and b.table.number[h] > 0)
    b.main(1, R.PRE_ROLL)
    n = int(b.table.number[h])
    d1 = max(1, n - 6)
    b.force(pair(d1, n - d1))
    held = sum(b.state.hands[0])
    b.step((R.ROLL, 0, 0))
    assert sum(b.state.hands[0]) > held or (b.state.phase == R.GOLD_PICK and b.state.actor == 0)


def test_the_winner_has_ten_points_and_its_own_fortress():
    """'Um jogador vence o jogo: Quando conquistou a fortaleza pirata da sua cor e tem pelo menos 10 pontos de
    vitória.'"""
    assert said("Quando conquistou a fortaleza pirata da sua cor e tem pelo menos 10 pontos de vitória")
    b = Both()
    placed = 0
    for c in b.table.view.allowed.nonzero()[0]:
        if placed < 5 and R._distance_ok(b.table, b.state, int(c)):
            b.settle(int(c), 0, city=placed < 4)  # 4 cities and a settlement more: 10 VP
            placed += 1
    assert R.total_vp(b.table, b.state, 0) == 10
    b.main(3)
    b.step((R.END_TURN, 0, 0))
    assert b.state.phase != R.OVER  # 10 VP or not, no fortress
    b.state.fort_chits[0] = 0
    b.game.fort[0, kf.F_CHITS] = 0
    b.settle(b.fort(0).fortress, 0)
    b.main(3)
    b.step((R.END_TURN, 0, 0))
    assert b.state.phase == R.OVER and b.state.winner == 0 and b.game.st[kg.ST_WINNER] == 0


def test_the_marked_corner_is_the_only_pirate_island_site_and_the_fortress_keeps_a_piece():
    """'Quando um jogador chega à encruzilhada marcada com a sua cor, poderá construir nela uma aldeia ... Não é
    permitido construir aldeias no resto das encruzilhadas das ilhas ocidentais nem na ilhota vizinha.' 'Cada
    fortaleza pirata é composta por 3 fichas Catan ... e de uma aldeia (da cor indicada) colocada por cima': one of
    the colour's 5 settlements, free only at the conquest."""
    assert said("Não é permitido construir aldeias no resto das encruzilhadas das ilhas ocidentais")
    b = Both()
    f = b.fort(0)
    to_colour, _ = b.table.fort_dist[0]
    b.route(0, to_colour[f.settlement] - 1)
    b.give(0, *[LUMBER, BRICK, WOOL, GRAIN] * 3)
    assert (R.SETTLE, f.colour_corner, 0) in b.legal()
    b.route(0, 2)  # past it: its other corners on the western islands are no sites
    sites = [a for k, a, _ in b.legal() if k == R.SETTLE]
    assert sites == [f.colour_corner]
    b.step((R.SETTLE, f.colour_corner, 0))
    assert (R.SETTLE, f.colour_corner, 0) not in Both().legal()  # nobody else's
    # a site on the eastern island two roads from a hand-built settlement
    topo, allowed = b.topo, b.table.view.allowed
    site = None
    for c in allowed.nonzero()[0]:
        c = int(c)
        if site is None and R._distance_ok(b.table, b.state, c):
            for n, e1 in zip(topo.corner_neighbours[c], topo.corner_edges[c]):
                for m, e2 in zip(topo.corner_neighbours[n], topo.corner_edges[n]):
                    if site is None and e1 >= 0 and e2 >= 0 and m not in (c, -1) and allowed[m] and all(
                            R._distance_ok(b.table, b.state, x) for x in (m, c)) and m not in topo.corner_neighbours[c]:
                        site = (c, int(e1), int(e2), int(m))
    c, e1, e2, m = site
    b.settle(c, 0)
    b.lay(e1, 0, ship=False)
    b.lay(e2, 0, ship=False)
    assert (R.SETTLE, m, 0) in b.legal() and b.state.pieces_left[0][2] == 2
    b.state.pieces_left[0][2] = b.game.pieces_left[0, 2] = 1  # one left: the fortress's
    assert R._reserved(b.table, b.state, 0) == 1 and (R.SETTLE, m, 0) not in b.legal()
    b.state.fort_chits[0] = b.game.fort[0, kf.F_CHITS] = 0  # conquered: the piece is on the board, not in hand
    assert (R.SETTLE, m, 0) in b.legal()


def test_no_longest_route_card_and_the_unnumbered_hexes_produce_nothing():
    """'Neste cenário não são usadas as cartas especiais "Maior estrada comercial" e "Maior exército de cavalaria".'
    'Atenção: o hexágono de pasto que se encontra na ilha dupla inferior (ao centro) não tem ficha numerada. Para
    efeitos práticos, é considerado um deserto e, portanto, não produz matéria-prima. O mesmo ocorre com as colinas
    das ilhas ocidentais.'"""
    assert said('"Maior estrada comercial" e "Maior exército de cavalaria"')
    assert said("O mesmo ocorre com as colinas das ilhas ocidentais.")
    b = Both()
    complete(b, 0, 0)
    assert R.longest_route(b.table, b.state, 0) >= 9 and kg.final_route(b.board, b.game, 0) >= 9
    assert b.state.route_holder == -1 and b.game.st[kg.ST_ROUTE_HOLDER] == -1
    s = b.table.scenario
    unnumbered = [h for h in range(s.topology.n_hex) if b.table.terrain[h] >= 3 and b.table.number[h] == 0]
    assert sorted(int(b.table.terrain[h]) for h in unnumbered) == [4, 4, 5]  # two hills, one pasture


def test_the_checker_catches_broken_routes_fortresses_and_sites():
    """Invariants 19-21 (kernels/catan/invariants.py) fail where their bookkeeping is broken (a check that cannot
    fail proves nothing)."""
    from kernels.catan import invariants as ki
    from kernels.catan.route import route_work

    def code(b):
        return ki.check(b.board, b.game, route_work(len(b.board.edge_corners)), True)

    def fresh():
        b = Both()
        complete(b, 0, 2)
        assert code(b) == 0
        return b

    b = fresh()
    b.game.fort[0, kf.F_LEN] -= 1  # a ship off the route's books
    assert code(b) == ki.INVARIANTS.index(ki.INVARIANTS[18]) + 1 == 19
    b = fresh()
    b.game.fort[1, kf.F_CHITS] = 0  # conquered, but the fortress is no settlement of its seat
    assert code(b) == 20
    b = fresh()
    b.game.st[kg.ST_FLEET] = -1  # the fleet gone while fortresses stand
    assert code(b) == 20
    b = fresh()
    kg._settle(b.board, b.game, 1, b.fort(0).colour_corner, True)  # seat 1 on seat 0's marked corner
    kg._update_routes(b.board, b.game)
    assert code(b) == 21


def test_the_value_bot_attacks_with_its_warships_and_the_blind_copy_never():
    """The bots' goals (kernels/catan/bots.py attack_value): attack with 4 warships, not with 1 while knights may
    still come; value:goals=0 never attacks (it ends the turn instead), so it never conquers its fortress."""
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from kernels.catan import bots as kb

    _, params = bot_vectors([parse_bot("value"), parse_bot("value:goals=0")])
    own, scores = np.zeros(6), np.zeros(kg.MAX_ACTIONS)
    for warships, goals, attack in ((4, 0, True), (1, 0, False), (4, 1, False)):
        b = Both()
        complete(b, 0, warships)
        acts = b.legal()
        assert (R.ATTACK, 0, 0) in acts
        n = kg.legal(b.board, b.game)
        i = kb.decide_value(b.board, b.game, n, params[goals], own, False, scores)
        assert (acts[i] == (R.ATTACK, 0, 0)) == attack, (warships, goals, acts[i])
