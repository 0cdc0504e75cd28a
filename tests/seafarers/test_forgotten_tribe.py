"""The Forgotten Tribe (seed 002, CENÁRIO 5: O POVO PERDIDO) in full games: every special rule on a hand-built
position of the printed board, in the reference (analyzer/seafarers/full_reference.py) and the kernel
(kernels/catan/game.py, kernels/catan/gifts.py) alike, the seed's words quoted; the rules data's defaults where the
seed is silent (analyzer/seafarers/data/rules/full_game.toml [gifts]) and their switches; the bots' goals."""

from pathlib import Path

import numpy as np
import pytest

from analyzer.seafarers import full_reference as R
from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_rules import load_rules, rules_text
from analyzer.seafarers.play import kernel_board
from analyzer.seafarers.scenarios import load_scenario
from analyzer.seafarers.table import printed_board
from kernels.catan import bots as kb
from kernels.catan import game as kg
from kernels.catan import gifts as kgi
from kernels.catan import policies as kp
from kernels.catan.codes import CITY, SEA
from kernels.catan.gifts import GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR
from tests.support import run_cli

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
SEED_TEXT = (Path(__file__).resolve().parents[2] / "docs/rulebooks/002_f78565adfc528f93.txt").read_text("utf-8")


def said(words):
    """The seed says it (line breaks as spaces)."""
    assert " ".join(words.split()) in " ".join(SEED_TEXT.split()), words
    return True


class Both:
    """The printed board in both engines, the draft skipped: seat 0 to play (rolled), nothing built (the Forgotten
    Tribe's, or a subclass's SLUG)."""

    SLUG = "forgotten-tribe"
    SKIP_DRAFT = True

    def __init__(self, players=4, rule=None, rules=None, g=0):
        self.s = load_scenario(self.SLUG, players)
        self.table = R.game_table(self.s, rules or load_rules(rule=rule), *printed_board(self.s))
        self.topo = self.s.topology
        self.board = kernel_board(self.table)
        self.state, self.game = R.init(self.table, 1, g), kg.new_game(self.board)
        kg.init(self.board, self.game, 1, g)
        if self.SKIP_DRAFT:
            self.skip_draft()

    def skip_draft(self, turn=None):
        """Seat 0 to play (rolled), nothing built; the turn count set to `turn` if given."""
        st, state = self.game.st, self.state
        state.setup_pos = st[kg.ST_SETUP_POS] = len(state.setup_order)
        state.phase, state.actor, state.current = R.MAIN, 0, 0
        st[kg.ST_PHASE], st[kg.ST_ACTOR], st[kg.ST_CURRENT] = kg.MAIN, 0, 0
        if turn is not None:
            state.turn = st[kg.ST_TURN] = turn
        return self

    # hand-building, the same in both engines
    def settle(self, c, seat, city=False):
        R._settle(self.table, self.state, seat, c, True)
        kg._settle(self.board, self.game, seat, c, True)
        if city:
            for pieces, building in ((self.state.pieces_left[seat], self.state.corner_building),
                                     (self.game.pieces_left[seat], self.game.corner_building)):
                building[c] = CITY
                pieces[3] -= 1
                pieces[2] += 1

    def lay(self, e, seat, ship=True):
        R._place_edge(self.table, self.state, seat, e, ship)
        kg._place_edge(self.board, self.game, seat, e, 1 if ship else 0)
        self.state.edge_built[e] = self.game.edge_built[e] = -5  # built before this turn

    def give(self, seat, *cards):
        for r in cards:
            self.state.hands[seat][r] += 1
            self.state.bank[r] -= 1
            self.game.hands[seat, r] += 1
            self.game.bank[r] -= 1

    def legal(self):
        acts = R.legal(self.table, self.state)
        n = kg.legal(self.board, self.game)
        assert self.game.actions[:n].tolist() == [list(a) for a in acts], R.PHASES[self.state.phase]
        return acts

    def step(self, action):
        assert action in self.legal(), action
        R.step(self.table, self.state, action)
        kg.step(self.board, self.game, *action)
        assert (self.game.st[kg.ST_PHASE], self.game.st[kg.ST_ACTOR]) == (self.state.phase, self.state.actor)
        assert self.game.hands[:self.table.players].tolist() == self.state.hands
        assert [kgi.chits(self.board, self.game, s) for s in range(self.table.players)] == self.state.chits
        assert self.game.gift_state[kgi.GIFT_OWNER].tolist() == self.state.gift_owner
        assert self.game.gift_state[kgi.GIFT_LAID].tolist() == self.state.gift_laid
        assert self.game.corner_harbour.tolist() == self.state.corner_harbour

    def vp(self, seat):
        v = R.total_vp(self.table, self.state, seat)
        assert kg.total_vp(self.board, self.game, seat) == v
        return v

    def rates(self, seat):
        want = [R._rate(self.table, self.state, seat, r) for r in range(5)]
        assert self.game.rates[seat].tolist() == want
        return want

    # geometry
    def gift(self, kind, k=0):
        """The k-th gift of a kind: (index, edge). (Harbours 0 and 4 are reached only through other gifts' coasts,
        harbour 1's neighbours lie by the pirate's start.)"""
        i = [i for i, g in enumerate(self.table.gift_kinds) if g == kind][k]
        return i, self.table.gift_edges[i]

    def ends(self, e):
        return [int(c) for c in self.topo.edge_corners[e]]

    def approach(self, e):
        """A ship edge sharing a corner with gift edge e, itself no gift's: where a route arrives from."""
        for c in self.ends(e):
            for f in self.topo.corner_edges[c]:
                if f >= 0 and f != e and R._may_ship(self.table, self.state, int(f)) and \
                        int(f) not in self.table.gift_edges:
                    return int(f)
        raise AssertionError(e)

    def coastal_sites(self):
        """Main-island corners a draft settlement may take that touch the sea."""
        f = self.table.view.flags
        return [c for c in range(self.topo.n_corner) if self.table.view.allowed[c] and f.corner_coastal[c]]

    def take(self, seat, e):
        """`seat` builds a ship on gift edge e (a ship of its own laid beside it, the cards given)."""
        self.lay(self.approach(e), seat)
        self.give(seat, LUMBER, WOOL)
        self.step((R.SHIP, e, 0))


# ------------------------------------------------------------------------------------------------ the map
def test_thirteen_vp_and_the_gifts_of_the_data():
    """'O jogo termina no momento em que um jogador consegue 13 pontos no seu próprio turno'; 'Coloca 8 fichas
    Catan nas linhas costeiras assinaladas. Coloca os 6 portos, aleatoriamente, nos lugares designados. Retira as
    primeiras 4 cartas do monte (misturado) de cartas de desenvolvimento e coloca-as de face para baixo nos
    lugares indicados.'"""
    assert said("um jogador consegue 13 pontos no seu próprio turno")
    assert said("Retira as primeiras 4 cartas do monte (misturado) de cartas de desenvolvimento")
    b = Both()
    assert b.board.params[kg.P_TARGET] == 13
    kinds = list(b.table.gift_kinds)
    assert (kinds.count(GIFT_CHIT), kinds.count(GIFT_CARD), kinds.count(GIFT_HARBOUR)) == (8, 4, 6)
    assert b.table.rules.chit_vp == 1 and said("Cada uma das fichas Catan que se encontram nas ilhotas vale 1 ponto")
    islets = set(b.table.scenario.zones["T"].hexes)
    for e in b.table.gift_edges:  # every gift on an islet's coast
        sides = [int(h) for h in b.topo.edge_hexes[e]]
        assert any(h in islets for h in sides) and any(b.table.terrain[h] == SEA for h in sides)
    # the harbours are dealt at random on their sites (shuffled with the board)
    from analyzer.seafarers.boards import deal_plan, generate_boards
    dealt = generate_boards(deal_plan(b.table.scenario), 40, 3)
    assert len({tuple(h) for h in dealt.harbour.tolist()}) > 20 and all(sorted(h) == [0, 1, 2, 3, 4, 5]
                                                                          for h in dealt.harbour.tolist())


def test_the_first_four_cards_of_the_shuffled_deck_lie_face_down_on_the_islets():
    """'Retira as primeiras 4 cartas do monte (misturado) ... e coloca-as de face para baixo': card gift k holds
    the shuffled deck's card k; the first card bought is the fifth."""
    b = Both()
    assert b.state.deck_pos == b.game.st[kg.ST_DECK_POS] == 4
    assert b.game.deck[:25].tolist() == b.state.deck
    b.give(0, WOOL, GRAIN, ORE)
    b.step((R.BUY_CARD, 0, 0))
    card = b.state.deck[4]
    assert b.state.new_cards[0][card] == 1 and b.game.new_cards[0, card] == 1 and b.state.deck_pos == 5


def test_no_settlement_on_the_islets():
    """'Não é permitido construir aldeias nas ilhotas que estão ao redor': neither in the draft nor later, even
    with a ship at an islet corner and the cards in hand."""
    assert said("Não é permitido construir aldeias nas ilhotas que estão ao redor")
    b = Both()
    islets = set(b.table.scenario.zones["T"].hexes)
    islet_corners = {c for c in range(b.topo.n_corner) if any(int(h) in islets for h in b.topo.corner_hexes[c])}
    assert not any(b.table.view.allowed[c] for c in islet_corners)  # the draft
    i, e = b.gift(GIFT_CHIT)
    b.lay(b.approach(e), 0)
    b.lay(e, 0)
    b.give(0, LUMBER, BRICK, WOOL, GRAIN)
    reached = {c for c in b.ends(e) + b.ends(b.approach(e)) if c in islet_corners}
    assert reached and not [a for a in b.legal() if a[0] == R.SETTLE]


def test_the_islets_produce_nothing():
    """'estas ilhotas não produzem matérias-primas' ('Atenção: as ilhotas não têm fichas numeradas'): a city set
    on an islet corner by hand (the rules never allow one) receives nothing on any roll, in both engines."""
    assert said("estas ilhotas não produzem matérias-primas") and said("as ilhotas não têm fichas numeradas")
    b = Both()
    islets = b.table.scenario.zones["T"].hexes
    assert all(b.table.number[h] == 0 for h in islets)
    corners = [c for h in islets for c in b.topo.hex_corners[h] if b.table.terrain[h] != SEA]
    for c in corners[::7]:
        b.state.corner_owner[c] = b.game.corner_owner[c] = 0
        b.state.corner_building[c] = b.game.corner_building[c] = CITY
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        R._produce(b.table, b.state, total)
        kg._produce(b.board, b.game, total)
        assert b.state.hands[0] == [0] * 5 and b.game.hands[0].tolist() == [0] * 5 and b.state.gold[0] == 0


def test_the_robber_never_goes_to_the_islets_nor_back_to_its_start():
    """'O ladrão começa em qualquer um dos hexágonos de deserto ... O ladrão não pode ser movido para as ilhotas; a
    partir do momento em que o ladrão abandona o seu hexágono inicial, não poderá regressar ao mesmo.'"""
    assert said("O ladrão não pode ser movido para as ilhotas")
    assert said("a partir do momento em que o ladrão abandona o seu hexágono inicial, não poderá regressar ao mesmo")
    b = Both()
    start = b.state.robber
    islets = set(b.table.scenario.zones["T"].hexes)
    assert start in islets and b.table.terrain[start] == 1  # a desert of the islets
    b.state.phase = R.MOVE_THIEF
    b.game.st[kg.ST_PHASE] = kg.MOVE_THIEF
    robber = [a for k, a, _ in b.legal() if k == R.MOVE_ROBBER]
    main = [h for h in b.table.scenario.zones["A"].hexes if b.table.terrain[h] != SEA]
    assert robber == sorted(main) and len(main) == 18  # every land hex of the main island, no islet
    b.step((R.MOVE_ROBBER, robber[0], 0))
    b.state.phase = R.MOVE_THIEF
    b.game.st[kg.ST_PHASE] = kg.MOVE_THIEF
    again = [a for k, a, _ in b.legal() if k == R.MOVE_ROBBER]
    assert start not in again and robber[0] not in again and len(again) == 17


# ------------------------------------------------------------------------------------------------ chits
def test_a_chit_goes_to_the_first_ship_on_its_coast_and_a_later_one_gets_nothing():
    """'Quando um jogador alcança uma destas ilhotas e constrói um barco num dos lados onde haja uma ficha Catan,
    este jogador ficará com essa ficha ... Se, mais tarde, algum outro jogador chegar a essa ilhota, não obtêm
    nenhum ponto de vitória.'"""
    assert said("Se, mais tarde, algum outro jogador chegar a essa ilhota, não obtêm nenhum ponto de vitória")
    b = Both()
    i, e = b.gift(GIFT_CHIT, 2)
    assert b.vp(0) == 0
    b.take(0, e)
    assert b.state.gift_owner[i] == 0 and b.state.chits == [1, 0, 0, 0] and b.vp(0) == 1
    assert R.victory_points(b.table, b.state, 0)["chits"] == 1
    # the ship leaves (by hand) and a rival's ship comes: nothing for it
    for owner in (b.state.edge_owner, b.game.edge_owner):
        owner[e] = -1
    b.state.current = b.state.actor = 1
    b.game.st[kg.ST_CURRENT] = b.game.st[kg.ST_ACTOR] = 1
    b.take(1, e)
    assert b.state.edge_owner[e] == 1 and b.state.chits == [1, 0, 0, 0] and b.vp(1) == 0 and b.vp(0) == 1


def test_a_chit_that_reaches_thirteen_wins_at_once():
    b = Both()
    b.state.bonus_vp[0] = b.game.bonus_vp[0] = 12  # (stands for twelve VP of buildings)
    b.take(0, b.gift(GIFT_CHIT)[1])
    assert b.state.winner == 0 and b.state.phase == R.OVER and b.game.st[kg.ST_WINNER] == 0


def test_a_moved_ship_takes_no_gift_unless_the_option_says_so():
    """Default: 'constrói um barco' (builds); option gift_by_moved_ship: any ship arriving."""
    for rule, taken in ((None, False), (["gift_by_moved_ship=true"], True)):
        b = Both(rule=rule)
        i, e = b.gift(GIFT_CHIT, 1)
        g = b.approach(e)  # the route's ship beside the chit's coast ...
        d = [x for x in b.ends(g) if x not in b.ends(e)][0]
        f = [int(x) for x in b.topo.corner_edges[d] if x >= 0 and x != g and R._may_ship(b.table, b.state, int(x))
             and int(x) not in b.table.gift_edges][0]  # ... and its end ship, on the far side, moved onto the coast
        b.lay(g, 0)
        b.lay(f, 0)
        assert (R.MOVE_SHIP, f, e) in b.legal()
        b.step((R.MOVE_SHIP, f, e))
        assert (b.state.gift_owner[i] == 0) == taken and b.vp(0) == int(taken)


# ------------------------------------------------------------------------------------------------ cards
def test_a_gift_card_follows_the_rules_of_a_bought_one():
    """'Se um jogador constrói um barco numa costa onde há uma carta, esse jogador ganha a referida carta. Esta
    carta segue as mesmas regras das cartas compradas normalmente ... (só se pode jogar uma carta por turno; as
    cartas recém-compradas apenas se podem jogar a partir do turno seguinte ...)'"""
    assert said("as cartas recém-compradas apenas se podem jogar a partir do turno seguinte")
    b = Both()
    i, e = b.gift(GIFT_CARD, 1)
    k = b.table.gift_items[i]
    b.state.deck[k] = b.game.deck[k] = kg.KNIGHT  # (the card dealt there, by hand)
    b.state.cards[0][kg.MONOPOLY] = b.game.cards[0, kg.MONOPOLY] = 1  # an old card too
    b.take(0, e)
    assert b.state.new_cards[0][kg.KNIGHT] == 1 and b.game.new_cards[0, kg.KNIGHT] == 1
    assert b.state.gift_owner[i] == 0 and not [a for a in b.legal() if a[0] == R.PLAY_KNIGHT]  # not the turn gained
    b.step((R.END_TURN, 0, 0))
    for seat in (1, 2, 3):  # the others' turns, rolled by hand
        b.state.phase = R.MAIN
        b.game.st[kg.ST_PHASE] = kg.MAIN
        b.step((R.END_TURN, 0, 0))
    assert b.state.current == 0 and (R.PLAY_KNIGHT, 0, 0) in b.legal()  # its next turn: before the roll too
    b.step((R.PLAY_KNIGHT, 0, 0))
    b.step(b.legal()[0])  # the robber
    assert b.state.phase == R.PRE_ROLL
    b.state.phase = R.MAIN  # (rolled, by hand)
    b.game.st[kg.ST_PHASE] = kg.MAIN
    assert b.state.cards[0][kg.MONOPOLY] == 1 and not [a for a in b.legal() if a[0] == R.PLAY_MONOPOLY]  # one card
    # a turn


def test_a_gift_victory_card_counts_and_wins_at_once():
    """'só se podem revelar as cartas de pontos de vitória se com elas se vence o jogo': held hidden, it counts
    in its holder's VP (as a bought one), and ends the game the moment it makes 13."""
    assert said("só se podem revelar as cartas de pontos de vitória se com elas se vence o jogo")
    b = Both()
    i, e = b.gift(GIFT_CARD)
    k = b.table.gift_items[i]
    b.state.deck[k] = b.game.deck[k] = kg.VP_CARD
    b.state.bonus_vp[0] = b.game.bonus_vp[0] = 12
    b.take(0, e)
    assert b.vp(0) == 13 and b.state.winner == 0 and b.game.st[kg.ST_WINNER] == 0


def test_the_value_bot_never_sees_the_cards_on_the_islets():
    """Fair: with cards still face down on the islets, the value bot's choices never change when those cards
    change."""
    from analyzer.seafarers.boards import deal_plan, generate_boards
    from tests.seafarers.test_full_kernel import choices_ignore

    s = load_scenario("forgotten-tribe", 4)
    dealt = generate_boards(deal_plan(s), 1, 11)
    board = kernel_board(R.game_table(s, load_rules(), dealt.terrain[0], dealt.number[0], dealt.harbour[0]))

    def hide(game, seat):
        lying = [k for k in range(4) if game.gift_state[kgi.GIFT_OWNER, k] < 0]  # gifts 0-3: the cards (deck 0-3)
        for k in lying:
            game.deck[k] = (game.deck[k] + 1 + k) % 5
        return bool(lying)

    assert choices_ignore(board, 11, 0, hide) > 50


# ------------------------------------------------------------------------------------------------ harbours
HARBOUR_WORDS = ("Se esse jogador tem uma aldeia na linha costeira, o porto deverá ser colocado nesse local, se "
                 "possível. Se o jogador não tem nenhuma aldeia na linha costeira, guardará o porto que construiu.")


def coast_at(b, c):
    """The coast edges at corner c (a harbour site's docks are its two corners)."""
    return sorted(int(e) for e in b.topo.corner_edges[c] if e >= 0 and R._harbour_sea(b.table, b.state, int(e)) >= 0)


def test_a_won_harbour_goes_at_its_takers_coastal_settlement_and_trades_at_once():
    """'Se um jogador constrói um barco numa costa onde há um porto, recebe essa ficha de porto. Se esse jogador tem
    uma aldeia na linha costeira, o porto deverá ser colocado nesse local, se possível ... Os portos podem ser
    usados no próprio turno em que são ganhos.'"""
    assert said(HARBOUR_WORDS) and said("Os portos podem ser usados no próprio turno em que são ganhos")
    b = Both()
    c = b.coastal_sites()[0]
    b.settle(c, 0)
    i, e = b.gift(GIFT_HARBOUR, 3)
    kind = b.table.gift_items[i]
    b.take(0, e)
    assert b.state.phase == R.GIFT_HARBOUR_PHASE and b.state.actor == 0 and b.state.gift_owner[i] == 0
    acts = b.legal()
    assert acts == [(R.PLACE_GIFT, f, i) for f in coast_at(b, c)] and acts
    assert b.state.corner_harbour[c] == -1
    b.step(acts[-1])
    assert b.state.phase == R.MAIN and b.state.gift_laid[i] == acts[-1][1]
    assert all(b.state.corner_harbour[d] == kind for d in b.ends(acts[-1][1]))
    rate = b.rates(0)
    assert rate == ([3] * 5 if kind == 0 else [2 if r == kind - 1 else 4 for r in range(5)])
    r = 0 if kind == 0 else kind - 1
    b.give(0, *[r] * rate[r])
    assert (R.TRADE, r, (r + 1) % 5) in b.legal()  # the same turn


def test_a_harbour_with_no_coastal_settlement_is_kept_then_placed_at_the_next_one():
    """'Se o jogador não tem nenhuma aldeia na linha costeira, guardará o porto que construiu': kept; placed the
    moment its holder builds a coastal settlement (the default: nothing else makes a site)."""
    b = Both()
    i, e = b.gift(GIFT_HARBOUR, 2)
    b.take(0, e)
    assert b.state.phase == R.MAIN and b.state.gift_owner[i] == 0 and b.state.gift_laid[i] == -1
    assert R.kept_harbours(b.table, b.state, 0) == [i]
    c = b.coastal_sites()[3]
    road = [int(f) for f in b.topo.corner_edges[c] if f >= 0 and R._may_road(b.table, b.state, int(f))][0]
    b.lay(road, 0, ship=False)
    b.give(0, LUMBER, BRICK, WOOL, GRAIN)
    b.step((R.SETTLE, c, 0))
    assert b.state.phase == R.GIFT_HARBOUR_PHASE and b.legal() == [(R.PLACE_GIFT, f, i) for f in coast_at(b, c)]
    b.step(b.legal()[0])
    assert b.state.phase == R.MAIN and b.state.gift_laid[i] == coast_at(b, c)[0] and min(b.rates(0)) < 4


def test_one_harbour_per_sea_hex_and_no_two_adjacent():
    """'apenas se pode colocar um porto por hexágono de mar e não podem existir dois portos adjacentes': a site on a
    sea hex that holds a harbour, or sharing a dock with one, is not offered; with every site blocked the harbour
    is kept ('se possível'); option harbour_hexes_apart also keeps it off the neighbouring sea hexes."""
    assert said("apenas se pode colocar um porto por hexágono de mar e não podem existir dois portos adjacentes")
    for rule in (None, ["harbour_hexes_apart=true"]):
        b = Both(rule=rule)

        def elsewhere(first, second):
            """A coast edge on first's sea hex sharing no corner with first or second, or None."""
            sea = R._harbour_sea(b.table, b.state, first)
            return next((int(f) for f in b.topo.hex_edges[sea] if f >= 0 and f not in (first, second)
                         and R._harbour_sea(b.table, b.state, int(f)) == sea
                         and not set(b.ends(int(f))) & set(b.ends(first) + b.ends(second))), None)

        c = next(x for x in b.coastal_sites() if len(coast_at(b, x)) == 2 and R._harbour_sea(
            b.table, b.state, coast_at(b, x)[0]) != R._harbour_sea(b.table, b.state, coast_at(b, x)[1])
            and elsewhere(*coast_at(b, x)) is not None)
        b.settle(c, 0)
        first, second = coast_at(b, c)
        # a harbour already placed (another seat's, by hand) on the sea hex of `first`
        j, _ = b.gift(GIFT_HARBOUR, 5)
        sea = R._harbour_sea(b.table, b.state, first)
        other = elsewhere(first, second)
        for st in (b.state,):
            st.gift_owner[j], st.gift_laid[j] = 1, other
        b.game.gift_state[:, j] = 1, other
        for d in b.ends(other):
            b.state.corner_harbour[d] = b.game.corner_harbour[d] = b.table.gift_items[j]
        i, e = b.gift(GIFT_HARBOUR, 2)
        b.take(0, e)
        sites = R.gift_harbour_sites(b.table, b.state, 0)
        second_sea = R._harbour_sea(b.table, b.state, second)
        blocked = bool(rule) and second_sea in b.topo.hex_neighbours[sea]
        assert first not in sites and (second in sites) == (not blocked)
        if sites:
            assert b.legal() == [(R.PLACE_GIFT, second, i)]
        else:
            assert b.state.phase == R.MAIN and R.kept_harbours(b.table, b.state, 0) == [i]


def test_a_won_harbour_at_a_city_only_with_the_option():
    """Default: 'Se esse jogador tem uma aldeia na linha costeira' read literally (the seed writes 'aldeia ou cidade'
    where it means both, e.g. 'Uma rota marítima que ligue uma aldeia ou cidade com terra firme'): only a
    settlement, so a player with only a coastal city keeps the harbour; option gift_harbour_at_cities=true: a city
    too."""
    assert said("Se esse jogador tem uma aldeia na linha costeira") and said("ligue uma aldeia ou cidade com terra")
    for rule, placed in ((None, False), (["gift_harbour_at_cities=true"], True)):
        b = Both(rule=rule)
        c = b.coastal_sites()[0]
        b.settle(c, 0, city=True)
        i, e = b.gift(GIFT_HARBOUR, 5)
        b.take(0, e)
        assert (b.state.phase == R.GIFT_HARBOUR_PHASE) == placed
        assert (R.kept_harbours(b.table, b.state, 0) == [i]) and b.legal()[0][0] == (R.PLACE_GIFT if placed else
                                                                                      R.END_TURN)


def test_of_two_kept_harbours_the_value_bot_places_the_better():
    """Two harbours kept, then a coastal settlement with two sites (sharing its corner, so only one harbour fits):
    the value bot places the one worth more to it (harbour_value: a 3:1 `generic`, a 2:1 `special` plus `match` per
    pip of its resource), and keeps the other."""
    b = Both()
    _, e1 = b.gift(GIFT_HARBOUR, 2)
    _, e2 = b.gift(GIFT_HARBOUR, 3)
    b.take(0, e1)
    b.give(0, LUMBER, WOOL)
    b.lay(b.approach(e2), 0)
    b.step((R.SHIP, e2, 0))
    kept = R.kept_harbours(b.table, b.state, 0)
    assert len(kept) == 2
    c = next(x for x in b.coastal_sites() if len(coast_at(b, x)) == 2 and R._harbour_sea(
        b.table, b.state, coast_at(b, x)[0]) != R._harbour_sea(b.table, b.state, coast_at(b, x)[1]))
    road = [int(f) for f in b.topo.corner_edges[c] if f >= 0 and R._may_road(b.table, b.state, int(f))][0]
    b.lay(road, 0, ship=False)
    b.give(0, LUMBER, BRICK, WOOL, GRAIN)
    b.step((R.SETTLE, c, 0))
    assert b.state.phase == R.GIFT_HARBOUR_PHASE and len(b.legal()) == 4
    policies, params = bot_vectors([parse_bot("value")] * 4)
    own = np.zeros(6)
    kb.seat_pips(b.board, b.game, 0, own)
    values = {i: kb.harbour_value(params[0], b.table.gift_items[i], own) for i in kept}
    pick = b.game.actions[kp.decide(b.board, b.game, 4, policies[0], params[0], np.zeros(2, np.uint64),
                                    kp.bot_work(b.board))]
    assert values[int(pick[2])] == max(values.values())
    b.step(tuple(int(x) for x in pick))
    assert b.state.phase == R.MAIN and R.kept_harbours(b.table, b.state, 0) == [i for i in kept if i != pick[2]]


# ------------------------------------------------------------------------------------------------ bots
def test_the_value_bot_builds_the_ship_that_takes_a_chit_and_the_blind_copy_weighs_it_as_any_ship():
    """goals: a ship onto a chit's coast is worth the chit's VP to the value bot; to value:goals=0 it is a ship like
    any other (the scenario-blind copy)."""
    b = Both()
    i, e = b.gift(GIFT_CHIT, 3)
    b.lay(b.approach(e), 0)
    b.give(0, LUMBER, WOOL)
    acts = b.legal()
    for bot, wanted in (("value", True), ("value:goals=0", False)):
        policies, params = bot_vectors([parse_bot(bot)] * 4)
        work = kp.bot_work(b.board)
        n = len(acts)
        b.game.field_version[:] = -1  # (a seat's fields are kept for its own weights)
        pick = kp.decide(b.board, b.game, n, policies[0], params[0], np.zeros(2, np.uint64), work)
        assert (tuple(b.game.actions[pick]) == (R.SHIP, e, 0)) == wanted
        score = work.scores[acts.index((R.SHIP, e, 0))]
        if wanted:
            assert score >= params[0][kb.V_VP]
        else:
            assert score < 1


def test_tabletop_seafarers_play_plays_the_forgotten_tribe(tmp_path, capsys):
    import json

    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "play", "--scenario", "forgotten-tribe", "--players", "4", "--games",
                                 "8", "--seed", "2", "--bots", "value,value:goals=0,planner,weighted",
                                 "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["scenario"]["vp_target"] == 13 and summary["decided"] + summary["capped"]["games"] == 8
    assert "Catan chits" in (out / "report.md").read_text()


def test_every_play_report_names_the_gift_rules_in_force():
    from analyzer.seafarers.full_game import play_games

    s = play_games("forgotten-tribe", 3, ["value"], 3, 1, threads=1, progress=False).summary
    text = " ".join(s["assumptions"])
    assert "gift_by_moved_ship" in text and "gift_harbour_at_cities" in text and "harbour_hexes_apart" in text
    assert "Catan chits" in text and "vp_chits" in s["seats"][0]["vp_sources"]
    other = play_games("new-shores", 3, ["value"], 3, 1, threads=1, progress=False).summary
    assert "gift_by_moved_ship" not in " ".join(other["assumptions"])
    assert "vp_chits" not in other["seats"][0]["vp_sources"]
    assert "[gifts]" in rules_text()[0]


@pytest.mark.parametrize("players", [3, 4])
def test_the_kernel_plays_the_references_games_with_value_bots(players):
    """Whole games on random boards, value and planner bots (who go for the gifts), both engines decision for
    decision; the gifts are taken."""
    from tests.seafarers.test_full_kernel import _value_game

    taken = 0
    for g in range(3):
        table, state = _value_game("forgotten-tribe", players, 17, g,
                                   ["value", "planner", "value:goals=0", "value:opening=port"][:players])
        assert state.winner >= 0 or state.capped
        taken += sum(o >= 0 for o in state.gift_owner)
    assert taken > 3
