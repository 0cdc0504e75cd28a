"""The Wonders of Catan (seed 002, CENÁRIO 8: AS MARAVILHAS DE CATAN) in full games: every special rule on a hand-built
position of the printed board, in the reference (analyzer/seafarers/full_reference.py) and the kernel
(kernels/catan/game.py, kernels/catan/wonders.py) alike, the seed's words quoted; the rules data's wonder cards
(analyzer/seafarers/data/rules/full_game.toml [wonders]: the requirements the seed keeps, the stage costs it lost,
reconstructed from JSettlers2) and the defaults where the seed is silent; the bots' goals."""

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.full_rules import load_rules, rules_text
from kernels.catan import game as kg
from kernels.catan import wonders as kw
from kernels.catan.codes import CITY, DESERT
from tests.seafarers.test_forgotten_tribe import Both, said

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
BRIDGE, CATHEDRAL, COLOSSUS, WALL, THEATRE = range(5)  # the scenario's cards, in the seed's order


class Wonders(Both):
    """The Wonders' printed board in both engines, the draft skipped: seat 0 to play (rolled), nothing built."""

    SLUG = "wonders-of-catan"

    def __init__(self, players=4, rule=None):
        super().__init__(players, rule)
        self.markers = self.table.scenario.markers

    def step(self, action):
        super().step(action)
        p = self.table.players
        assert [kw.wonder_of(self.game, s) for s in range(p)] == self.state.wonder
        assert [kw.stage_of(self.game, s) for s in range(p)] == self.state.stage
        assert self.game.pieces_left[:p].tolist() == self.state.pieces_left
        assert (self.game.st[kg.ST_WINNER], self.game.st[kg.ST_PHASE]) == (self.state.winner, self.state.phase)

    def own(self, seat, w, stage=0):
        """`seat` holds wonder w with `stage` stages built (set by hand in both engines)."""
        self.state.wonder[seat], self.state.stage[seat] = w, stage
        self.game.st[kg.ST_WONDER + seat], self.game.st[kg.ST_STAGE + seat] = w + 1, stage

    def claims(self):
        return [a[1] for a in self.legal() if a[0] == R.CLAIM_WONDER]

    def can_build(self):
        return (R.BUILD_STAGE, 0, 0) in self.legal()

    def road_path(self, c, k):
        """k road edges in a row from corner c, no corner twice (a trail without branches), on the main island."""
        def walk(path, corners):
            if len(path) == k:
                return path
            for e in self.topo.corner_edges[corners[-1]]:
                e = int(e)
                if e < 0 or e in path or not R._may_road(self.table, self.state, e):
                    continue
                far = [x for x in self.ends(e) if x != corners[-1]][0]
                if far in corners:
                    continue
                found = walk(path + [e], corners + [far])
                if found:
                    return found
            return None
        return walk([], [c])

    def site(self, harbour=False):
        """A main-island corner the draft may take (with a harbour: one at a harbour)."""
        return next(c for c in range(self.topo.n_corner) if self.table.view.allowed[c]
                    and (self.table.view.corner_harbour[c] >= 0) == harbour)

    def cities(self, seat, n, harbour=False, settlements=0):
        """n cities (the first at a harbour if asked), then `settlements` settlements, of `seat` on free draft
        corners."""
        placed = []
        for c in range(self.topo.n_corner):
            if len(placed) == n + settlements:
                break
            if not self.table.view.allowed[c] or not R._distance_ok(self.table, self.state, c) or (
                    harbour and not placed and self.table.view.corner_harbour[c] < 0):
                continue
            self.settle(c, seat, city=len(placed) < n)
            placed.append(c)
        assert len(placed) == n + settlements
        return placed

    def upgrade(self, c, seat):
        """The seat's settlement at c becomes a city (by hand, in both engines)."""
        for pieces, building in ((self.state.pieces_left[seat], self.state.corner_building),
                                 (self.game.pieces_left[seat], self.game.corner_building)):
            building[c] = CITY
            pieces[3] -= 1
            pieces[2] += 1


# ------------------------------------------------------------------------------------------------ the map
def test_ten_vp_the_robber_on_a_desert_and_no_pirate():
    """'O ladrão começa o jogo num dos três desertos. O pirata não é usado neste cenário.' 10 VP ('tenha conseguido
    10 pontos de vitória')."""
    assert said("O ladrão começa o jogo num dos três desertos. O pirata não é usado neste cenário.")
    b = Wonders()
    assert b.board.params[kg.P_TARGET] == 10 and b.board.params[kg.P_WONDERS] == 5
    assert b.table.terrain[b.table.robber_start] == DESERT and not b.table.has_pirate
    b.step((R.END_TURN, 0, 0))
    b.state.phase, b.game.st[kg.ST_PHASE] = R.MOVE_THIEF, kg.MOVE_THIEF
    assert {a[0] for a in b.legal()} == {R.MOVE_ROBBER}


def test_no_set_up_settlement_on_the_islets_or_the_marked_corners_but_later_yes():
    """'Na Fase de construção não se podem construir aldeias nas ilhotas nem nas encruzilhadas com quadrados
    coloridos (em castanho e em lilás). Também não é permitida a construção nas encruzilhadas com pontos de
    exclamação amarelos.' In play a settlement may go there (the strait and the wasteland are what two wonders
    need)."""
    assert said("não se podem construir aldeias nas ilhotas nem nas encruzilhadas com quadrados coloridos")
    b = Wonders()
    m = b.markers
    marked = m.wasteland_corners + m.strait_corners + m.no_setup_corners
    islets = [c for c in range(b.topo.n_corner) if b.table.corner_territory[c] >= 0]
    b.state.phase, b.game.st[kg.ST_PHASE] = R.SETUP_SETTLEMENT, kg.SETUP_SETTLEMENT
    draft = {a[1] for a in b.legal()}
    assert draft and not draft & set(marked) and not draft & set(islets)
    b.state.phase, b.game.st[kg.ST_PHASE] = R.MAIN, kg.MAIN
    c = m.wasteland_corners[0]
    e = next(int(e) for e in b.topo.corner_edges[c] if e >= 0 and R._may_road(b.table, b.state, int(e)))
    b.lay(e, 0, ship=False)
    b.give(0, LUMBER, BRICK, WOOL, GRAIN)
    assert (R.SETTLE, c, 0) in b.legal()


def test_every_settlement_on_an_islet_takes_a_one_vp_chit():
    """'se um jogador constrói, ao longo do jogo, uma aldeia numa ilhota, obtém uma ficha Catan (com valor de 1
    ponto de vitória). Esta ficha será colocada sob a respectiva aldeia.': each settlement (two on one islet, two
    chits; the data's island_bonus_scope each_settlement), kept when it becomes a city; none on the main island."""
    assert said("se um jogador constrói, ao longo do jogo, uma aldeia numa ilhota, obtém uma ficha Catan")
    b = Wonders()
    assert b.table.scenario.victory.island_bonus_scope == "each_settlement"
    t0 = [c for c in range(b.topo.n_corner) if b.table.corner_territory[c] == 0]
    a = t0[0]
    far = next(c for c in t0 if c != a and c not in R._neighbours(b.table, a))
    assert b.vp(0) == 0
    for c, vp in ((b.site(), 1), (a, 3), (far, 5)):
        R._settle(b.table, b.state, 0, c, False)
        kg._settle(b.board, b.game, 0, c, False)
        assert b.vp(0) == vp and b.state.bonus_vp[0] == b.game.bonus_vp[0] == (vp - 1) // 2
    b.give(0, GRAIN, GRAIN, ORE, ORE, ORE)
    b.step((R.CITY_UP, a, 0))
    assert b.vp(0) == 6  # the chit stays under the city


def test_each_player_starts_with_one_catan_chit_that_marks_its_stage_and_is_no_vp():
    """'Cada jogador começa o jogo com uma ficha Catan.' It marks the stage built ('coloca uma ficha Catan no
    quadrado "1" da carta de maravilha'), so it is no VP: nobody starts with a point."""
    assert said("Cada jogador começa o jogo com uma ficha Catan.")
    assert said('coloca uma ficha Catan no quadrado "1" da carta de maravilha')
    b = Wonders()
    assert [b.vp(s) for s in range(4)] == [0] * 4 and b.state.stage == [0] * 4


# ------------------------------------------------------------------------------------------------ requirements
def test_the_cards_requirements_are_the_seeds_and_their_costs_are_reconstructed_data():
    """The seed's cards: 'GRANDE PONTE Requisitos Uma aldeia no estreito (quadrado lilás)', 'CATEDRAL Requisitos 1
    cidade e um mínimo de 6 pontos de vitória', 'COLOSSO Requisitos Uma cidade com porto e uma rota comercial com 5
    estradas/barcos', 'GRANDE MURALHA Requisitos Uma aldeia nas terras baldias (quadrado castanho)', 'GRANDE TEATRO
    Requisitos 2 cidades'. 'Cada fase de construção custa as 5 matérias primas apresentadas na respectiva carta':
    the pictures are lost; the rules data reconstructs them from JSettlers2, naming it."""
    for words in ("GRANDE PONTE Requisitos Uma aldeia no estreito (quadrado lilás)",
                  "CATEDRAL Requisitos 1 cidade e um mínimo de 6 pontos de vitória",
                  "COLOSSO Requisitos Uma cidade com porto e uma rota comercial com 5 estradas/barcos",
                  "GRANDE MURALHA Requisitos Uma aldeia nas terras baldias (quadrado castanho)",
                  "GRANDE TEATRO Requisitos 2 cidades", "Cada maravilha tem 4 fases de construção"):
        assert said(words)
    rules = load_rules()
    b = Wonders()
    assert [w.id for w in b.table.wonders] == ["great_bridge", "cathedral", "colossus", "great_wall", "great_theatre"]
    assert [(w.site, w.cities, w.vp, w.harbour_city, w.route) for w in b.table.wonders] == [
        ("strait", 0, 0, False, 0), ("", 1, 6, False, 0), ("", 0, 0, True, 5), ("wasteland", 0, 0, False, 0),
        ("", 2, 0, False, 0)]
    assert all(sum(w.cost) == 5 for w in b.table.wonders) and rules.wonder_stages == 4
    assert "JSettlers2" in rules.wonder_cost_source and "SOCSpecialItem.java" in rules.wonder_cost_source
    assert 'cost_status = "reconstructed"' in rules_text()[0]
    assert b.table.wonder_sites == (b.markers.strait_corners, (), (), b.markers.wasteland_corners, ())
    assert b.board.costs[kg.ITEM_WONDER:].tolist() == [list(w.cost) for w in b.table.wonders]


def test_the_great_theatre_needs_two_cities():
    """'GRANDE TEATRO Requisitos 2 cidades'; 'A construção de uma maravilha de Catan pode ser iniciada quando o
    jogador cumprir os requisitos correspondentes à respectiva maravilha'."""
    assert said("pode ser iniciada quando o jogador cumprir os requisitos correspondentes à respectiva maravilha")
    b = Wonders()
    assert b.claims() == []
    b.cities(0, 1)
    assert THEATRE not in b.claims()
    b.cities(0, 1)
    assert THEATRE in b.claims()


def test_the_cathedral_needs_a_city_and_six_vp():
    """'CATEDRAL Requisitos 1 cidade e um mínimo de 6 pontos de vitória': the VP count the player's hidden VP
    cards (it knows them)."""
    b = Wonders()
    b.cities(0, 2)  # 4 VP
    assert CATHEDRAL not in b.claims()
    b.state.cards[0][R.VP_CARD] += 1
    b.game.cards[0, kg.VP_CARD] += 1
    assert b.vp(0) == 5 and CATHEDRAL not in b.claims()
    b.state.new_cards[0][R.VP_CARD] += 1
    b.game.new_cards[0, kg.VP_CARD] += 1
    assert b.vp(0) == 6 and CATHEDRAL in b.claims()


def test_the_colossus_needs_a_city_at_a_harbour_and_an_unbranched_route_of_five():
    """'um jogador poderá começar a construção do Colosso quando já tenha uma cidade com porto e uma estrada
    comercial de pelo menos 5 peças seguidas, sem bifurcações (estradas ou barcos).': a branch adds nothing (the
    longest trade route counts the pieces in a row)."""
    assert said("uma cidade com porto e uma estrada comercial de pelo menos 5 peças seguidas, sem bifurcações")
    b = Wonders()
    c = b.site(harbour=False)
    b.settle(c, 0, city=True)
    path = b.road_path(c, 5)
    for e in path[:4]:
        b.lay(e, 0, ship=False)
    R._update_route(b.table, b.state)
    kg._update_routes(b.board, b.game)
    assert b.state.route[0] == 4 and COLOSSUS not in b.claims()
    branch = next(int(f) for x in b.ends(path[1]) for f in b.topo.corner_edges[x]
                  if f >= 0 and int(f) not in path and R._may_road(b.table, b.state, int(f))
                  and b.state.edge_owner[int(f)] < 0)
    b.lay(branch, 0, ship=False)  # a fifth piece, but a branch
    R._update_route(b.table, b.state)
    kg._update_routes(b.board, b.game)
    assert b.state.route[0] == 4 and COLOSSUS not in b.claims()
    b.lay(path[4], 0, ship=False)
    R._update_route(b.table, b.state)
    kg._update_routes(b.board, b.game)
    assert b.state.route[0] >= 5 and COLOSSUS not in b.claims()  # its city has no harbour
    b.cities(0, 1, harbour=True)
    assert COLOSSUS in b.claims()


@pytest.mark.parametrize("w, marker", [(BRIDGE, "strait_corners"), (WALL, "wasteland_corners")])
def test_the_bridge_and_the_wall_need_a_settlement_on_their_marked_corner(w, marker):
    """'GRANDE PONTE Requisitos Uma aldeia no estreito (quadrado lilás)'; 'GRANDE MURALHA Requisitos Uma aldeia nas
    terras baldias (quadrado castanho)': a settlement on one of those corners; by default not a city there ('aldeia'
    read literally: the seed writes 'aldeia ou cidade' where it means both), with --rule wonder_site_city=true a
    city too."""
    b = Wonders()
    b.settle(b.site(), 0)
    assert w not in b.claims()
    c = getattr(b.markers, marker)[0]
    b.settle(c, 0)
    assert w in b.claims()
    b.upgrade(c, 0)
    loose = Wonders(rule=["wonder_site_city=true"])
    loose.settle(c, 0, city=True)
    assert w not in b.claims() and w in loose.claims()
    b.settle(getattr(b.markers, marker)[1], 0)
    assert w in b.claims()


# ------------------------------------------------------------------------------------------------ claiming
def test_claiming_puts_a_ship_on_the_card_and_each_card_has_one_owner():
    """'O primeiro jogador a começar a construção de uma maravilha poderá escolher de entre as 5 cartas de
    maravilha. Os outros jogadores terão de escolher entre as maravilhas restantes'; 'Cumpridos os requisitos, o
    jogador poderá colocar um dos seus barcos na carta de maravilha desejada': a ship leaves the supply; one card
    per player; a card taken is offered to nobody else; no ship left, no claim."""
    assert said("Os outros jogadores terão de escolher entre as maravilhas restantes")
    assert said("o jogador poderá colocar um dos seus barcos na carta de maravilha desejada")
    b = Wonders()
    b.cities(0, 2)
    b.cities(1, 2)
    assert b.claims() == [THEATRE]
    ships = b.state.pieces_left[0][1]
    b.step((R.CLAIM_WONDER, THEATRE, 0))
    assert b.state.wonder[0] == THEATRE and b.state.pieces_left[0][1] == ships - 1 and b.claims() == []
    b.step((R.END_TURN, 0, 0))
    b.state.phase, b.game.st[kg.ST_PHASE] = R.MAIN, kg.MAIN
    assert b.state.actor == 1 and b.claims() == []  # the theatre is seat 1's no more
    b.state.pieces_left[1][1] = b.game.pieces_left[1, kg.PIECE_SHIP] = 0
    b.state.cards[1][R.VP_CARD] = b.game.cards[1, kg.VP_CARD] = 2  # 6 VP: the cathedral, but no ship
    assert b.claims() == []
    b.state.pieces_left[1][1] = b.game.pieces_left[1, kg.PIECE_SHIP] = 1
    assert b.claims() == [CATHEDRAL]


def test_the_requirement_is_checked_only_to_start():
    """'A construção de uma maravilha de Catan pode ser iniciada quando o jogador cumprir os requisitos': once the
    card is the player's, its stages need only their resources."""
    b = Wonders()
    b.own(0, COLOSSUS)
    b.give(0, *[r for r, k in enumerate(b.table.wonders[COLOSSUS].cost) for _ in range(k)])
    assert b.can_build()


# ------------------------------------------------------------------------------------------------ stages
def test_a_stage_costs_the_cards_five_resources_and_several_may_be_built_a_turn():
    """'Cada fase de construção custa as 5 matérias primas apresentadas na respectiva carta.'; 'Se um jogador tem
    matérias-primas para acabar mais fases, poderá fazê-lo no decorrer do mesmo turno.'"""
    assert said("Se um jogador tem matérias-primas para acabar mais fases, poderá fazê-lo no decorrer do mesmo turno.")
    b = Wonders()
    b.own(0, WALL)
    cost = b.table.wonders[WALL].cost
    assert not b.can_build()
    cards = [r for r, k in enumerate(cost) for _ in range(k)]
    b.give(0, *cards[:-1])
    assert not b.can_build()
    b.give(0, cards[-1], *cards)
    bank = list(b.state.bank)
    b.step((R.BUILD_STAGE, 0, 0))
    assert b.state.stage[0] == 1 and b.state.hands[0] == list(cost)
    assert b.state.bank == [x + k for x, k in zip(bank, cost)]
    b.step((R.BUILD_STAGE, 0, 0))  # the same turn
    assert b.state.stage[0] == 2 and b.state.hands[0] == [0] * 5 and not b.can_build()
    assert b.state.phase == R.MAIN  # 2 stages and no VP: the game goes on


def test_finishing_the_wonder_wins_at_once_whatever_the_vp():
    """'Um jogador vence o jogo quando: * tenha acabado a sua maravilha do mundo.': the 4th stage wins, with no VP
    at all."""
    assert said("Um jogador vence o jogo quando: * tenha acabado a sua maravilha do mundo.")
    b = Wonders()
    b.own(0, BRIDGE, 3)
    b.give(0, *[r for r, k in enumerate(b.table.wonders[BRIDGE].cost) for _ in range(k)])
    assert b.vp(0) == 0
    b.step((R.BUILD_STAGE, 0, 0))
    assert b.state.winner == 0 and b.state.phase == R.OVER and b.legal() == []


def test_ten_vp_win_only_with_more_stages_than_every_opponent():
    """'ou * tenha conseguido 10 pontos de vitória e esteja numa fase de construção da maravilha do mundo superior à
    dos seus oponentes.': 10 VP and no stage, or as many as an opponent, is no win; one stage more is."""
    assert said("tenha conseguido 10 pontos de vitória e esteja numa fase de construção da maravilha do mundo "
                "superior à dos seus oponentes.")
    b = Wonders()
    b.cities(0, 4, settlements=2)  # 10 VP
    assert b.vp(0) == 10
    b.own(0, THEATRE, 0)
    b.own(2, WALL, 1)
    b.give(0, ORE, ORE, ORE, ORE)
    b.step((R.TRADE, ORE, GRAIN))  # any action: the win is checked after each
    assert b.state.phase == R.MAIN
    b.give(0, *[r for r, k in enumerate(b.table.wonders[THEATRE].cost) for _ in range(2 * k)])
    b.step((R.BUILD_STAGE, 0, 0))  # 1 stage, as seat 3: a tie is not 'superior'
    assert b.state.phase == R.MAIN and b.state.winner == -1
    b.step((R.BUILD_STAGE, 0, 0))
    assert b.state.winner == 0 and b.state.phase == R.OVER


def test_ten_vp_alone_never_win_without_a_stage():
    """Nobody has a stage: 10 VP are not 'superior' to anyone's stage."""
    b = Wonders()
    b.cities(0, 4, settlements=2)
    b.give(0, ORE, ORE, ORE, ORE)
    b.step((R.TRADE, ORE, GRAIN))
    assert b.vp(0) == 10 and b.state.phase == R.MAIN


# ------------------------------------------------------------------------------------------------ rules data
def test_the_rules_file_replaces_the_reconstructed_costs():
    """`--rules FILE`: a designer's copy with other stage costs plays them; a card the scenario names but the file
    lacks, or a bad cost, is one clear line."""
    text = rules_text()[0]
    changed = text.replace("cost = [1, 1, 3, 0, 0]  # JSettlers2 'theater'", "cost = [0, 0, 0, 0, 5]")
    assert changed != text
    rules = load_rules(text=changed)
    assert [w.cost for w in rules.wonder_cards if w.id == "great_theatre"] == [(0, 0, 0, 0, 5)]
    with pytest.raises(UserError, match="wonders.card\\[4\\].cost costs no card"):
        load_rules(text=text.replace("cost = [1, 1, 3, 0, 0]  # JSettlers2 'theater'", "cost = [0, 0, 0, 0, 0]"))
    with pytest.raises(UserError, match="site must be one of"):
        load_rules(text=text.replace('site = "strait"', 'site = "lilac"'))
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.seafarers.table import printed_board
    s = load_scenario("wonders-of-catan", 4)
    with pytest.raises(UserError, match="has no card for great_theatre"):
        R.game_table(s, load_rules(text=text.replace('id = "great_theatre"', 'id = "pyramid"')), *printed_board(s))


# ------------------------------------------------------------------------------------------------ bots and the command
def test_the_value_bot_builds_a_stage_before_a_city_and_the_blind_copy_the_other_way():
    """With goals the value bot saves for and builds its wonder's next stage (a settlement scores about 100, a
    stage goals x 150); the scenario-blind copy (goals=0) builds a stage only when nothing else scores: here the
    city."""
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from kernels.catan import bots as kb
    from kernels.catan import policies as kp

    b = Wonders()
    c = b.cities(0, 0, settlements=1)[0]
    b.own(0, COLOSSUS)
    b.give(0, GRAIN, GRAIN, GRAIN, ORE, ORE, ORE)  # a stage (3 grain, 2 ore) or a city (2 grain, 3 ore)
    n = kg.legal(b.board, b.game)
    acts = b.game.actions[:n].tolist()
    assert [kg.BUILD_STAGE, 0, 0] in acts and [kg.CITY_UP, c, 0] in acts
    work = kp.bot_work(b.board)
    for bot, kind in (("value", kg.BUILD_STAGE), ("value:goals=0", kg.CITY_UP), ("planner", kg.BUILD_STAGE)):
        policies, params = bot_vectors([parse_bot(bot)] * 4)
        i = kp.decide(b.board, b.game, n, policies[0], params[0], np.zeros(2, np.uint64), work)
        assert acts[i][0] == kind, bot
    blind, aware = bot_vectors([parse_bot("value:goals=0"), parse_bot("value")])[1][:2]
    assert kb._target(b.board, b.game, blind, 0, work.own) == kg.ITEM_CITY  # goals=0: the city, as ever
    assert kb._target(b.board, b.game, aware, 0, work.own) == kg.ITEM_WONDER + COLOSSUS


def test_tabletop_seafarers_play_plays_the_wonders_and_says_how_games_end(tmp_path, capsys):
    import json

    from tests.support import run_cli

    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "play", "--scenario", "wonders-of-catan", "--players", "3", "--games",
                                 "8", "--seed", "2", "--bots", "value,value:goals=0,planner", "--no-progress",
                                 "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    wd = summary["wonders"]
    assert summary["scenario"]["vp_target"] == 10 and summary["decided"] + summary["capped"]["games"] == 8
    assert wd["finished"]["games"] + wd["at_target_vp"] == summary["decided"] and len(wd["stages"]) == 3
    text = " ".join(summary["assumptions"])
    assert "wonder_site_city" in text and "JSettlers2" in text and "claim" in text
    assert "1 special VP per settlement on a bonus territory, every one" in text
    assert "won by finishing a wonder" in (out / "report.md").read_text()
